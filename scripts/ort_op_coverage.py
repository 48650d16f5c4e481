"""The op types the installed onnxruntime registers that symshape has no rule for, per domain.

onnxruntime's registry is read from the package itself: every operator schema
(``get_all_operator_schema``: ai.onnx, ai.onnx.ml, com.microsoft, com.microsoft.nchwc,
com.ms.internal.nhwc, ...) and every CPU kernel (``get_all_opkernel_def``), each looked up in
symshape's registry (``symshape.rules.registry.lookup``) at the schema's newest version.

Usage: ``python scripts/ort_op_coverage.py`` prints one line per domain (registered, without a
rule, and their names); ``--check`` exits 1 when any op has no rule.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

import onnxruntime
from onnxruntime.capi import onnxruntime_pybind11_state as ort_c

from symshape.rules.registry import lookup


def registered() -> dict[str, dict[str, int]]:
    """``domain -> op type -> newest version`` of every schema and CPU kernel onnxruntime has."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for schema in ort_c.get_all_operator_schema():
        ops = out[schema.domain]
        ops[schema.name] = max(ops.get(schema.name, 0), schema.since_version)
    for kernel in ort_c.get_all_opkernel_def():
        out[kernel.domain].setdefault(kernel.op_name, kernel.version_range[0])
    return dict(out)


def missing() -> dict[str, list[str]]:
    """``domain -> op types`` without a symshape rule (every domain listed, empty when covered)."""
    return {
        domain: sorted(op for op, version in ops.items() if lookup(domain, op, version) is None)
        for domain, ops in sorted(registered().items())
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when any op has no rule")
    args = parser.parse_args(argv)
    ops = registered()
    gaps = missing()
    total = sum(len(v) for v in ops.values())
    lacking = sum(len(v) for v in gaps.values())
    print(f"onnxruntime {onnxruntime.__version__}: {total} op types registered, {lacking} without a symshape rule")
    for domain, names in gaps.items():
        label = domain or "ai.onnx"
        print(f"  {label}: {len(ops[domain])} registered, {len(names)} without a rule{': ' if names else ''}"
              f"{', '.join(names)}")
    return 1 if args.check and lacking else 0


if __name__ == "__main__":
    sys.exit(main())
