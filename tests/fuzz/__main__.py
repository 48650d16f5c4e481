"""``python -m tests.fuzz --minutes N [--seed S] [--only onnx,mlir,readers] [--out DIR]``.

Runs each fuzzer module that exists for its share of the time, printing progress lines; each failing case is
written under ``--out`` (default ``fuzz-failures/``). Exits 1 if any fuzzer found a failure. A
fuzzer module that does not exist yet is skipped with a message.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import sys
import time
from types import ModuleType

FUZZERS = {"onnx": "tests.fuzz.onnx_programs", "mlir": "tests.fuzz.mlir_programs", "readers": "tests.fuzz.readers"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, required=True, help="total time, shared by the fuzzers")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000, help="first seed (printed)")
    parser.add_argument("--only", default=",".join(FUZZERS), help="comma-separated: " + ",".join(FUZZERS))
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("fuzz-failures"))
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in FUZZERS]
    if unknown:
        parser.error(f"unknown fuzzer(s) {unknown}; choose from {sorted(FUZZERS)}")
    print(f"seed={args.seed} minutes={args.minutes} fuzzers={chosen} out={args.out}", flush=True)
    modules: dict[str, ModuleType] = {}
    for name in chosen:
        try:
            modules[name] = importlib.import_module(FUZZERS[name])
        except ModuleNotFoundError as err:
            if err.name != FUZZERS[name]:
                raise
            print(f"[{name}] skipped: {FUZZERS[name]} does not exist yet", flush=True)
    failures = 0
    for name, module in modules.items():
        share = args.minutes / len(modules)
        print(f"[{name}] running for {share:.1f} min", flush=True)
        found: int = module.run(share, args.seed, args.out)
        print(f"[{name}] {found} failure(s)", flush=True)
        failures += found
    print(f"total: {failures} failure(s)" + (f"; cases in {args.out}/" if failures else ""), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
