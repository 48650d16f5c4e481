"""What symshape proved beside what torch's ShapeEnv recorded, dim by dim.

torch writes every node's dims into its meta as sympy expressions over its symbols: input
symbols (``s0``) and, for data-dependent sizes, unbacked ones (``u0``). For each dim:

* **agree**: both are the same number, or both are expressions in the input symbols that give
  the same value at every sample point (points in the symbols' ranges);
* **symshape proves more**: torch has an unbacked symbol where symshape has an expression in the
  inputs;
* **torch knows more**: symshape left a dim to a fresh symbol that torch expresses in the inputs;
* **differ**: both are expressions in the inputs and some sample point gives different values
  (torch's expression may rest on a guard it specialized on; either way it is worth a look).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from symshape.expr import Expr, evaluate
from symshape.fx.reader import TorchProgram
from symshape.result import Analysis

POINTS = 8


@dataclass
class TorchComparison:
    """Counts of dims by kind, and the dims in the lists (``value dim axis: ...``)."""

    agree: int = 0
    symshape_more: list[str] = field(default_factory=list[str])
    torch_more: list[str] = field(default_factory=list[str])
    differ: list[str] = field(default_factory=list[str])

    def lines(self) -> list[str]:
        """The summary line, and one line per dim that differs."""
        head = (f"torch.export: {self.agree} dims agree with torch's ShapeEnv, {len(self.symshape_more)} proven "
                f"where torch has a data-dependent symbol, {len(self.torch_more)} torch knows and symshape does "
                f"not, {len(self.differ)} differ")
        return [head, *(f"  differs: {d}" for d in self.differ)]


def _points(ranges: dict[str, tuple[int, int | None]], count: int) -> list[dict[str, int]]:
    rng = random.Random(0)
    points: list[dict[str, int]] = []
    for k in range(count):
        point: dict[str, int] = {}
        for name, (lo, hi) in ranges.items():
            top = lo + 64 if hi is None else min(hi, lo + 64)
            point[name] = lo + k if k < 2 else rng.randint(lo, max(lo, top))
        points.append({n: min(v, ranges[n][1] or v) for n, v in point.items()})
    return points


def _torch_value(d: Any, point: dict[str, int]) -> int | None:
    expr = getattr(getattr(d, "node", None), "expr", d)
    if isinstance(expr, int):
        return expr
    try:
        value = expr.xreplace({s: point[str(s)] for s in expr.free_symbols})
        return int(value)
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def _free(d: Any) -> set[str]:
    expr = getattr(getattr(d, "node", None), "expr", d)
    return {str(s) for s in getattr(expr, "free_symbols", ())}


def compare_with_torch(analysis: Analysis, tp: TorchProgram) -> TorchComparison:
    """Compare every dim torch recorded for a node's tensor with the analysis (see the module doc)."""
    ranges: dict[str, tuple[int, int | None]] = {}
    for name, info in analysis.symbols().items():
        lo, hi = info["range"]
        ranges[name] = (max(int(lo) if lo is not None else 0, 0), hi)
    inputs = set(ranges)
    points = _points(ranges, POINTS)
    out = TorchComparison()
    for value, torch_dims in tp.torch_dims.items():
        ours = analysis.shape(value)
        if ours is None or len(ours) != len(torch_dims) or value in tp.program.inputs:
            continue
        for axis, (mine, theirs) in enumerate(zip(ours, torch_dims, strict=True)):
            where = f"{value} dim {axis}"
            mine_free: set[str] = set(mine.free) if isinstance(mine, Expr) else set()
            theirs_free = _free(theirs)
            if not theirs_free <= inputs:
                if mine_free <= inputs:
                    out.symshape_more.append(f"{where}: {mine} (torch: {theirs})")
                else:
                    out.agree += 1
                continue
            if not mine_free <= inputs:
                out.torch_more.append(f"{where}: torch {theirs}, symshape {analysis.public(mine)}")
                continue
            bad = next((p for p in points if _torch_value(theirs, p) not in (None, evaluate(mine, p))), None)
            if bad is None:
                out.agree += 1
            else:
                out.differ.append(f"{where}: symshape {mine}, torch {theirs} (at {bad}: "
                                  f"{evaluate(mine, bad)} vs {_torch_value(theirs, bad)})")
    return out
