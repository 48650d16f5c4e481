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

from symshape.algebra.expr import Expr, evaluate
from symshape.engine.result import Analysis
from symshape.frontends.fx.names import renamed
from symshape.frontends.fx.reader import TorchProgram

POINTS = 8
SHOWN = 10  # rows of each list beyond the differences, which are all shown


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
        rows = [f"  differs: {d}" for d in self.differ]
        rows += [f"  symshape proves: {d}" for d in self.symshape_more[:SHOWN]]
        rows += [f"  torch knows: {d}" for d in self.torch_more[:SHOWN]]
        hidden = max(len(self.symshape_more) - SHOWN, 0) + max(len(self.torch_more) - SHOWN, 0)
        return [head, *rows, *([f"  ... and {hidden} more"] if hidden else [])]


def _points(ranges: dict[str, tuple[int, int | None]], count: int) -> list[dict[str, int]]:
    """``count`` assignments in the ranges: the two lowest values, then random ones up to 64 above."""
    rng = random.Random(0)
    points: list[dict[str, int]] = []
    for k in range(count):
        point: dict[str, int] = {}
        for name, (lo, hi) in ranges.items():
            top = lo + 64 if hi is None else max(lo, min(hi, lo + 64))
            point[name] = min(lo + k, top) if k < 2 else rng.randint(lo, top)
        points.append(point)
    return points


def _our_value(d: Any, point: dict[str, int]) -> int | None:
    try:
        return evaluate(d, point)
    except ZeroDivisionError:  # a point where the dim's own division is undefined: not compared
        return None


def _expr(d: Any) -> Any:
    """The sympy expression of a torch dim (an int stays an int)."""
    return getattr(getattr(d, "node", None), "expr", d)


def _torch_value(expr: Any, point: dict[str, int], names: dict[str, str]) -> int | None:
    if isinstance(expr, int):
        return expr
    try:
        value = expr.xreplace({s: point[names.get(str(s), str(s))] for s in expr.free_symbols})
        return int(value)
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def _free(expr: Any, names: dict[str, str]) -> set[str]:
    return {names.get(str(s), str(s)) for s in getattr(expr, "free_symbols", ())}


def compare_with_torch(analysis: Analysis, tp: TorchProgram) -> TorchComparison:
    """Compare every dim torch recorded for a node's tensor with the analysis (see the module doc)."""
    ranges: dict[str, tuple[int, int | None]] = {}
    for name, info in analysis.symbols().items():
        if info["kind"] == "input":
            lo, hi = info["range"]
            ranges[name] = (max(int(lo) if lo is not None else 0, 0), hi)
    inputs = set(ranges)
    points = _points(ranges, POINTS)
    out = TorchComparison()
    for value, torch_dims in tp.torch_dims.items():
        ours = analysis.shape_or_none(value)
        if ours is None or len(ours) != len(torch_dims) or value in tp.program.inputs:
            continue
        for axis, (mine, torch_dim) in enumerate(zip(ours, torch_dims, strict=True)):
            where = f"{value} dim {axis}"
            theirs = _expr(torch_dim)
            mine_free: set[str] = set(mine.free) if isinstance(mine, Expr) else set()
            theirs_free = _free(theirs, tp.names)
            if not theirs_free <= inputs:
                if mine_free <= inputs:
                    out.symshape_more.append(f"{where}: {mine} (torch: {renamed(str(theirs), tp.names)})")
                else:
                    out.agree += 1
                continue
            if not mine_free <= inputs:
                out.torch_more.append(f"{where}: torch {renamed(str(theirs), tp.names)}, symshape {mine}")
                continue
            pairs = ((p, _our_value(mine, p), _torch_value(theirs, p, tp.names)) for p in points)
            bad = next(((p, a, b) for p, a, b in pairs if None not in (a, b) and a != b), None)
            if bad is None:
                out.agree += 1
            else:
                point, a, b = bad
                out.differ.append(f"{where}: symshape {mine}, torch {renamed(str(theirs), tp.names)} (at {point}: "
                                  f"{a} vs {b})")
    return out
