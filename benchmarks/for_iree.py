"""What IREE makes of ``jax.export`` programs with symbolic shapes, alone and after ``symshape
opt -p for-iree`` (issue 23): for each program of tests/iree_programs.py, whether iree-compile
3.13 (llvm-cpu) compiles it, the largest difference from ``Exported.call`` over three sizes, and
the run time of the one dynamic module against a module compiled for a larger size alone
(``jax.export`` with those static shapes), as a ratio. A program with several outputs counts its
worst leaf. Then the same for torch-mlir 20261001's stablehlo of the torch models of
tests/torch_iree_programs.py, against torch (``--no-torch`` leaves them out).

Usage::

    python benchmarks/for_iree.py [--repeat 50] [--no-torch] [NAME ...]   # only programs whose name holds a NAME
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.iree_programs import PENDING, PROGRAMS, Program  # noqa: E402 - after the path
from tests.tools.mlir_passes.test_for_iree import compile_for_cpu, for_iree, leaves, load, results  # noqa: E402

_LARGEST_INPUT = 1 << 22  # elements of the largest argument at the timed size


def _compiles(text: str) -> tuple[bytes | None, str]:
    try:
        return compile_for_cpu(text), "yes"
    except Exception as err:  # noqa: BLE001 - IREE's refusal is the figure
        line = next((ln for ln in str(err).splitlines() if "error:" in ln), str(err).splitlines()[0])
        return None, "no: " + line.split("error:", 1)[-1].strip()[:70]


def _seconds(module: Any, args: tuple[Any, ...], repeat: int) -> float:
    results(module, args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        results(module, args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _static(program: Program, sizes: dict[str, int]) -> Program:
    specs = [(shape, dt) for shape, (_, dt) in zip(program.shapes(sizes), program.specs, strict=True)]
    return dataclasses.replace(program, lowest={}, specs=specs, constraints=())


def _timed(program: Program, larger: dict[str, int]) -> tuple[dict[str, int], bytes | None]:
    """The size to time at, ``4 * (v + 15)`` for each symbol's ``v`` in ``larger`` or, where the
    inputs would be too big or jax refuses the static shapes (``s <= 64``), 2 or 1 times that, and
    the module compiled for it alone."""
    sizes = larger
    for scale in (4, 2, 1):
        sizes = {s: scale * (v + 15) for s, v in larger.items()}
        if max(int(np.prod(shape)) for shape in program.shapes(sizes)) > _LARGEST_INPUT:
            continue
        try:
            text = _static(program, sizes).exported().mlir_module()
        except Exception:  # noqa: BLE001 - a size the program does not take: the next one
            continue
        return sizes, _compiles(text)[0]
    return sizes, None


def _row(
    name: str, text: str, program: Any, reference: Callable[[tuple[Any, ...]], list[Any]],
    timed: Callable[[], tuple[dict[str, int], bytes | None]], repeat: int,
) -> list[str]:
    """One table row: ``text`` compiled alone and after for-iree, run at ``program.sizes()``
    against ``reference``, then timed against the static module ``timed`` compiles."""
    _, alone = _compiles(text)
    vmfb, after = _compiles(for_iree(text))
    if vmfb is None:
        return [name, alone, after, "", "", ""]
    module = load(vmfb)
    worst = 0.0
    all_sizes = program.sizes()
    for seed, sizes in enumerate(all_sizes):
        args = program.inputs(sizes, seed)
        for got, want in zip(results(module, args), reference(args), strict=True):
            diff = np.abs(got.astype(np.float64) - np.asarray(want, np.float64))
            worst = max(worst, float(diff.max()) if diff.size else 0.0)
    mid, static_vmfb = timed()
    args = program.inputs(mid, 7)
    ratio = ""
    if static_vmfb is not None:
        ratio = f"{_seconds(module, args, repeat) / _seconds(load(static_vmfb), args, repeat):.2f}"
    shown = ", ".join(f"{s}={v}" for s, v in mid.items())
    return [name, alone, after, f"{len(all_sizes)}", f"{worst:.1e}", f"{ratio} ({shown})"]


def measure(name: str, program: Program, repeat: int) -> list[str]:
    """The row of a jax program, against ``Exported.call``."""
    exported = program.exported()
    return _row(name, exported.mlir_module(), program, lambda args: leaves(exported.call(*args)),
                lambda: _timed(program, program.sizes()[1]), repeat)


def measure_torch(name: str, program: Any, repeat: int) -> list[str]:
    """The row of a torch model (`tests.torch_iree_programs.TorchProgram`), against torch."""
    mid = program.mid()
    return _row(name, program.stablehlo(), program, program.reference,
                lambda: (mid, _compiles(program.static_stablehlo(mid))[0]), repeat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="timed runs per module (the median counts)")
    parser.add_argument("--no-torch", action="store_true", help="leave out the torch-mlir programs")
    parser.add_argument("names", nargs="*", help="only the programs whose name holds one of these")
    args = parser.parse_args()
    head = ["program", "IREE alone", "after for-iree", "sizes run", "max error", "dynamic/static at"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    ratios: list[float] = []
    rows: list[tuple[str, Any, Any]] = [(n, p, measure) for n, p in [*PROGRAMS.items(), *PENDING.items()]]
    if not args.no_torch:
        from tests.torch_iree_programs import ALL

        rows += [(f"torch: {n}", p, measure_torch) for n, p in ALL.items()]
    for name, program, how in rows:
        if args.names and not any(n in name for n in args.names):
            continue
        row = how(name, program, args.repeat)
        if row[5] and not row[5].startswith(" "):
            ratios.append(float(row[5].split()[0]))
        print("| " + " | ".join(row) + " |", flush=True)
    if ratios:
        print(f"\ngeometric mean dynamic/static: {statistics.geometric_mean(ratios):.2f} over {len(ratios)} programs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
