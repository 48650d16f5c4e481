"""Measure symshape on ONNX's own backend node tests, with their expected outputs as the oracle.

The ``onnx`` package generates 1,884 node test cases (``collect_testcases``); each has a model,
input arrays and the expected outputs. Each model is analyzed in two variants:

- ``shipped``: the inputs as the test declares them (mostly static sizes);
- ``symbolic``: every input dim made a fresh symbol (``in<k>_d<axis>``), bound to the shipped
  size when claims are evaluated;
- ``values`` (a diagnostic, ``--variant values``): as shipped, with every small numeric or
  boolean input (up to 64 elements, scalars included) made a constant holding the first data
  set's values. The difference to ``shipped`` is what the inputs' values decide (a Reshape's
  target, Reduce axes given as an input), which no analysis of the shipped model can know;
- ``symbolic+values`` (a diagnostic): those constants, and every other input dim a symbol.

In both variants the declared shapes of the graph outputs are removed (their element types
kept), so an op without a rule cannot read the answer from the model. Every output dim of every
data set is then counted as one of:

- ``exact``: claimed in the input symbols (or as a number) and equal to the expected size;
- ``wrong``: claimed in the input symbols and different (a wrong rank makes every dim wrong);
- ``unresolved``: unknown rank, or a dim that depends on a fresh (data-dependent) symbol;
- ``error``: the analysis raised (every expected dim of the case counts).

A guard, predicate or symbol range that the shipped sizes violate is a ``broken`` claim, listed
apart: it would make a dim that looks exact a claim under a false assumption.

Usage: ``python scripts/node_tests.py [--variant shipped|symbolic|both] [--ops] [--show OP]``.
``scripts/node_tests_tools.py`` scores onnx's, onnxruntime's and onnx-shape-inference's inference
the same way, and counts per op what the inputs' values decide (``--ceiling``).
"""

from __future__ import annotations

import argparse
import copy
import sys
import warnings
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

from symshape.algebra.expr import Dim, Expr, evaluate
from symshape.api import analyze_onnx
from symshape.engine.provenance import holds
from symshape.engine.result import Analysis

VARIANTS = ("shipped", "symbolic")
DIAGNOSTICS = ("values", "symbolic+values")  # not held by the suite: how much the inputs' values decide
SMALL = 64  # inputs up to this many elements become constants in the ``values`` variant
KINDS = ("exact", "wrong", "unresolved", "error")


@dataclass
class Tally:
    """Dims per outcome, and the claims the shipped sizes break, with a few examples each."""

    counts: Counter[str] = field(default_factory=Counter[str])
    broken: int = 0
    examples: dict[str, list[str]] = field(default_factory=dict[str, list[str]])

    def add(self, kind: str, n: int = 1, example: str = "") -> None:
        """Count ``n`` dims of ``kind`` (``broken``: claims) and keep up to 5 examples."""
        if kind == "broken":
            self.broken += n
        else:
            self.counts[kind] += n
        if example:
            seen = self.examples.setdefault(kind, [])
            if len(seen) < 5:
                seen.append(example)

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts and examples."""
        self.counts.update(other.counts)
        self.broken += other.broken
        for kind, items in other.examples.items():
            for item in items:
                self.add(kind, 0, item)

    @property
    def total(self) -> int:
        """Every output dim counted."""
        return sum(self.counts[k] for k in KINDS)

    def fraction(self, kind: str = "exact") -> float:
        """The share of dims of ``kind``."""
        return self.counts[kind] / self.total if self.total else 1.0


def node_cases() -> list[Any]:
    """The backend node test cases the installed ``onnx`` package generates."""
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [c for c in collect_testcases(None) if c.kind == "node" and c.model is not None]


def op_types(model: onnx.ModelProto) -> list[str]:
    """The op types of the model's top-level nodes (``domain::Op`` outside ai.onnx)."""
    out: list[str] = []
    for node in model.graph.node:
        name = node.op_type if node.domain in ("", "ai.onnx") else f"{node.domain}::{node.op_type}"
        if name not in out:
            out.append(name)
    return out


def case_op(case: Any) -> str:
    """The op a case tests: its last node's (the one that produces the outputs)."""
    return op_types(case.model)[-1] if case.model.graph.node else case.name


# ----------------------------------------------------------------------------- variants
def _shape_of(value: Any) -> tuple[int, ...] | None:
    """The shape of one input or expected output (None: a sequence, map or missing optional)."""
    if isinstance(value, onnx.TensorProto):
        return tuple(int(d) for d in value.dims)
    if isinstance(value, (np.ndarray, np.generic)):
        return tuple(int(d) for d in np.shape(value))
    return None


def _tensor_dims(vi: onnx.ValueInfoProto) -> Any:
    t = vi.type
    if t.HasField("tensor_type"):
        return t.tensor_type
    if t.HasField("sequence_type") and t.sequence_type.elem_type.HasField("tensor_type"):
        return t.sequence_type.elem_type.tensor_type
    if t.HasField("optional_type") and t.optional_type.elem_type.HasField("tensor_type"):
        return t.optional_type.elem_type.tensor_type
    return None


def variant(model: onnx.ModelProto, name: str, inputs: Sequence[Any] = ()) -> onnx.ModelProto:
    """The model for ``name``: output shapes removed; for ``symbolic``, every input dim a symbol;
    for ``values``, the small numeric ``inputs`` made constants."""
    out = copy.deepcopy(model)
    if name in DIAGNOSTICS:
        _inline_small_inputs(out, inputs)
    for vi in out.graph.output:
        tt = _tensor_dims(vi)
        if tt is not None and tt.HasField("shape"):
            tt.ClearField("shape")
    del out.graph.value_info[:]
    if name.startswith("symbolic"):
        for k, vi in enumerate(out.graph.input):
            tt = _tensor_dims(vi)
            if tt is None or not tt.HasField("shape"):
                continue
            for axis, d in enumerate(tt.shape.dim):
                d.Clear()
                d.dim_param = f"in{k}_d{axis}"
    return out


def _inline_small_inputs(model: onnx.ModelProto, inputs: Sequence[Any]) -> None:
    from onnx import numpy_helper

    keep = []
    for vi, value in zip(list(model.graph.input), inputs, strict=False):
        numeric = hasattr(value, "dtype") and (value.dtype.kind in "iufb" or value.dtype.name == "bfloat16")
        if isinstance(value, (np.ndarray, np.generic)) and value.size <= SMALL and numeric:
            model.graph.initializer.append(numpy_helper.from_array(np.asarray(value), vi.name))  # scalars too
        else:
            keep.append(vi)
    keep += list(model.graph.input)[len(inputs) :]
    del model.graph.input[:]
    model.graph.input.extend(keep)


def bindings(model: onnx.ModelProto, inputs: Mapping[str, Any]) -> dict[str, int]:
    """The input symbols' sizes in one data set, ``inputs`` by name (sequence inputs: from their
    first element)."""
    env: dict[str, int] = {}
    for vi in model.graph.input:
        tt = _tensor_dims(vi)
        value = inputs.get(vi.name)
        if isinstance(value, list) and value:
            value = value[0]  # a sequence's elements share the declared type
        shape = _shape_of(value)
        if tt is None or shape is None or len(shape) != len(tt.shape.dim):
            continue
        for d, size in zip(tt.shape.dim, shape, strict=True):
            if d.HasField("dim_param"):
                env.setdefault(d.dim_param, size)
    return env


# ----------------------------------------------------------------------------- scoring
def _free(d: Dim) -> frozenset[str]:
    return d.free if isinstance(d, Expr) else frozenset()


def score_output(
    analysis: Analysis, name: str, expected: tuple[int, ...], env: Mapping[str, int], tally: Tally
) -> None:
    """Count each dim of output ``name`` against its expected shape."""
    claimed = analysis.shape_or_none(name)
    where = f"'{name}'"
    if claimed is None:
        tally.add("unresolved", len(expected), f"{where}: no rank")
        return
    if len(claimed) != len(expected):
        tally.add("wrong", len(expected), f"{where}: rank {len(claimed)} {claimed}, expected {expected}")
        return
    for axis, (d, size) in enumerate(zip(claimed, expected, strict=True)):
        if not _free(d) <= env.keys():
            tally.add("unresolved", 1, f"{where} dim {axis} = '{d}' (expected {size})")
        elif evaluate(d, dict(env)) == size:
            tally.add("exact")
        else:
            tally.add("wrong", 1, f"{where} dim {axis} = '{d}' = {evaluate(d, dict(env))}, expected {size}")


def score_claims(analysis: Analysis, env: Mapping[str, int], tally: Tally) -> None:
    """Count the guards, predicates and symbol ranges that the shipped sizes violate."""
    for name, info in analysis.symbols().items():
        if name in env:
            lo, hi = info["range"]
            v = env[name]
            if (lo is not None and v < lo) or (hi is not None and v > hi) or v % info["divisor"]:
                tally.add("broken", 1, f"symbol {name}={v} violates {info['range']} / {info['divisor']}")
    graph = analysis.graph
    claims = [(p.lhs, p.rel, p.rhs, f"predicate of {p.origin}") for p in graph.predicates]
    claims += [(g.lhs, g.rel, g.rhs, f"guard of {g.origin}") for g in graph.guards]
    for lhs_, rel, rhs_, what in claims:
        lhs, rhs = analysis.public(lhs_), analysis.public(rhs_)
        if (_free(lhs) | _free(rhs)) <= env.keys():
            a, b = evaluate(lhs, dict(env)), evaluate(rhs, dict(env))
            if not holds(a, rel, b):
                tally.add("broken", 1, f"{what}: '{lhs} {rel} {rhs}' is false at {dict(env)}")


def expected_dims(case: Any) -> int:
    """How many output dims the case's data sets expect (what an error loses)."""
    return sum(len(s) for _, outs in case.data_sets for o in outs if (s := _shape_of(o)) is not None)


def score_case(case: Any, variant_name: str) -> Tally:
    """Analyze one case in one variant and count its output dims over every data set."""
    tally = Tally()
    data_sets = case.data_sets[:1] if variant_name in DIAGNOSTICS else case.data_sets
    model = variant(case.model, variant_name, data_sets[0][0] if data_sets else ())
    try:
        analysis = analyze_onnx(model)
    except Exception as err:  # noqa: BLE001 - an exception is the outcome being measured
        tally.add("error", expected_dims(case), f"{case.name}: {type(err).__name__}: {str(err)[:200]}")
        return tally
    names = [o.name for o in model.graph.output]
    input_names = [vi.name for vi in case.model.graph.input]
    for inputs, outputs in data_sets:
        env = bindings(model, dict(zip(input_names, inputs, strict=False)))
        for name, value in zip(names, outputs, strict=False):
            shape = _shape_of(value)
            if shape is not None:
                score_output(analysis, name, shape, env, tally)
        score_claims(analysis, env, tally)
    for kind, items in tally.examples.items():
        tally.examples[kind] = [f"{case.name}: {x}" for x in items]
    return tally


def measure(variant_name: str, cases: Sequence[Any] | None = None) -> dict[str, Tally]:
    """Per op (the case's last node), the tally of every case in ``variant_name``."""
    per_op: dict[str, Tally] = {}
    for case in node_cases() if cases is None else cases:
        per_op.setdefault(case_op(case), Tally()).merge(score_case(case, variant_name))
    return per_op


def overall(per_op: Mapping[str, Tally]) -> Tally:
    """Every op's tally summed."""
    total = Tally()
    for t in per_op.values():
        total.merge(t)
    return total


# ----------------------------------------------------------------------------- report
def _row(label: str, t: Tally) -> str:
    c = t.counts
    return (
        f"{label:<36} {t.total:>6} {c['exact']:>6} {100 * t.fraction():>6.1f}% "
        f"{c['wrong']:>5} {c['unresolved']:>6} {c['error']:>5} {t.broken:>6}"
    )


def report(variant_name: str, per_op: Mapping[str, Tally], *, ops: bool, show: str | None) -> Iterator[str]:
    """Lines: per op (only those with a gap unless ``ops``), then overall."""
    yield f"== {variant_name}"
    yield f"{'op':<36} {'dims':>6} {'exact':>6} {'frac':>7} {'wrong':>5} {'unres':>6} {'error':>5} {'broken':>6}"
    for op in sorted(per_op):
        t = per_op[op]
        if ops or t.counts["exact"] != t.total or t.broken:
            yield _row(op, t)
        if show is not None and op == show:
            for kind, items in t.examples.items():
                yield from (f"    {kind}: {x}" for x in items)
    yield _row("overall", overall(per_op))


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures; exit 1 when a dim is wrong, a case errs or a claim is broken."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", choices=[*VARIANTS, *DIAGNOSTICS, "both"], default="both")
    parser.add_argument("--ops", action="store_true", help="list every op, not only those with a gap")
    parser.add_argument("--show", metavar="OP", help="print examples of the gaps of OP")
    parser.add_argument("--examples", choices=KINDS + ("broken",), help="print examples of this outcome")
    args = parser.parse_args(argv)
    cases = node_cases()
    failed = False
    for name in VARIANTS if args.variant == "both" else (args.variant,):
        per_op = measure(name, cases)
        for line in report(name, per_op, ops=args.ops, show=args.show):
            print(line)
        total = overall(per_op)
        if args.examples:
            for op, t in sorted(per_op.items()):
                for x in t.examples.get(args.examples, []):
                    print(f"  [{op}] {x}")
        failed |= bool(total.counts["wrong"] or total.counts["error"] or total.broken)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
