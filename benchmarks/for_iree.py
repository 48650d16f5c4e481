"""What IREE makes of ``jax.export`` programs with symbolic shapes, alone and after ``symshape
opt -p for-iree`` (issue 23): for each program of tests/iree_programs.py, whether iree-compile
3.13 (llvm-cpu) compiles it, the largest difference from ``Exported.call`` over three sizes, and
the run time of the one dynamic module against a module compiled for the mid size alone
(``jax.export`` with those static shapes), as a ratio.

Usage::

    python benchmarks/for_iree.py [--repeat 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.iree_programs import PENDING, PROGRAMS, Program  # noqa: E402 - after the path
from tests.tools.mlir_passes.test_for_iree import compile_for_cpu, for_iree  # noqa: E402


def _compiles(text: str) -> tuple[bytes | None, str]:
    try:
        return compile_for_cpu(text), "yes"
    except Exception as err:  # noqa: BLE001 - IREE's refusal is the figure
        line = next((ln for ln in str(err).splitlines() if "error:" in ln), str(err).splitlines()[0])
        return None, "no: " + line.split("error:", 1)[-1].strip()[:70]


def _load(vmfb: bytes) -> Any:
    import iree.runtime as runtime

    return runtime.load_vm_flatbuffer(vmfb, driver="local-task")


def _seconds(module: Any, args: list[np.ndarray], repeat: int) -> float:
    module.main(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        np.asarray(module.main(*args).to_host())
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _static(program: Program, sizes: dict[str, int]) -> Program:
    specs = [(tuple(sizes[d] if isinstance(d, str) else d for d in shape), dt) for shape, dt in program.specs]
    return Program(program.fn, {}, specs)


def measure(name: str, program: Program, repeat: int) -> list[str]:
    exported = program.exported()
    text = exported.mlir_module()
    _, alone = _compiles(text)
    vmfb, after = _compiles(for_iree(text))
    if vmfb is None:
        return [name, alone, after, "", "", ""]
    module = _load(vmfb)
    worst = 0.0
    all_sizes = program.sizes()
    for seed, sizes in enumerate(all_sizes):
        args = program.inputs(sizes, seed)
        want, got = np.asarray(exported.call(*args)), np.asarray(module.main(*args).to_host())
        worst = max(worst, float(np.max(np.abs(got - want))) if want.size else 0.0)
    mid = {s: 4 * v + 60 for s, v in all_sizes[1].items()}
    args = program.inputs(mid, 7)
    static_vmfb, _ = _compiles(_static(program, mid).exported().mlir_module())
    ratio = ""
    if static_vmfb is not None:
        ratio = f"{_seconds(module, args, repeat) / _seconds(_load(static_vmfb), args, repeat):.2f}"
    shown = ", ".join(f"{s}={v}" for s, v in mid.items())
    return [name, alone, after, f"{len(all_sizes)}", f"{worst:.1e}", f"{ratio} ({shown})"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="timed runs per module (the median counts)")
    args = parser.parse_args()
    head = ["program", "IREE alone", "after for-iree", "sizes run", "max error", "dynamic/static at"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    ratios: list[float] = []
    for name, program in [*PROGRAMS.items(), *PENDING.items()]:
        row = measure(name, program, args.repeat)
        if row[5]:
            ratios.append(float(row[5].split()[0]))
        print("| " + " | ".join(row) + " |", flush=True)
    if ratios:
        print(f"\ngeometric mean dynamic/static: {statistics.geometric_mean(ratios):.2f} over {len(ratios)} programs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
