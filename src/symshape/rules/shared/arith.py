"""Integer arithmetic on tracked shape values, shared by the ONNX, HLO and arith rule families."""

from __future__ import annotations

from collections.abc import Callable

from symshape.context import OpContext
from symshape.expr import Dim
from symshape.rules.shared.common import compare
from symshape.rules.shared.mlir_common import is_int_dtype


def binary_elements(ctx: OpContext, fn: Callable[[OpContext, Dim, Dim], Dim | None]) -> tuple[Dim, ...] | None:
    """``fn`` over the tracked values of operands 0 and 1 (equal lengths), or None."""
    a, b = ctx.elements(0), ctx.elements(1)
    if a is None or b is None or len(a) != len(b) or not is_int_dtype(ctx.output_dtype(0)):
        return None
    out = [fn(ctx, x, y) for x, y in zip(a, b, strict=True)]
    if any(o is None for o in out):
        return None
    return tuple(ctx.canon(o) for o in out if o is not None)


_DIRECTIONS = {"GE": "GreaterOrEqual", "GT": "Greater", "LE": "LessOrEqual", "LT": "Less", "EQ": "Equal"}


def compare_values(ctx: OpContext, direction: str, a: Dim, b: Dim) -> Dim | None:
    """1/0 when ``a <direction> b`` is decided, else None."""
    if direction == "NE":
        r = compare(ctx, "Equal", a, b)
        return None if not isinstance(r, int) else 1 - r
    name = _DIRECTIONS.get(direction)
    return None if name is None else compare(ctx, name, a, b)
