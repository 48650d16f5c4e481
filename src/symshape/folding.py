"""Constant folding of small float tensors, so computed sizes like ``Cast(Pow(16.0, 0.5))``
(ViT's patch-grid side) arrive at Reshape as known integers.

Runs after an op's rule: when every input is a known constant and at least one is a float, the
output's float contents are computed; a Cast to an integer type turns them into tracked elements.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symshape.analysis import OpContext

_BINARY: dict[str, Callable[[float, float], float]] = {
    "Add": operator.add,
    "Sub": operator.sub,
    "Mul": operator.mul,
    "Div": operator.truediv,
    "Pow": operator.pow,
    "Max": max,
    "Min": min,
}
_UNARY: dict[str, Callable[[float], float]] = {
    "Identity": lambda x: x,
    "Neg": operator.neg,
    "Abs": abs,
    "Sqrt": math.sqrt,
    "Reciprocal": lambda x: 1.0 / x,
    "Floor": math.floor,
    "Ceil": math.ceil,
    "Round": round,
    "Cast": lambda x: x,
}
_INT_TYPES = {2, 3, 4, 5, 6, 7, 9, 12, 13}  # onnx TensorProto uint8 .. uint64 and bool
MAX_FOLDED = 64


def fold_floats(ctx: OpContext) -> None:
    """Fold ``ctx.op`` over constant float inputs; a no-op for anything else."""
    op = ctx.op
    if op.dialect or (op.op_type not in _BINARY and op.op_type not in _UNARY) or not op.outputs:
        return
    inputs = [ctx.const_floats(i) for i in range(ctx.num_inputs)]
    if not inputs or any(v is None for v in inputs):
        return
    if not any(ctx.has_input(i) and op.inputs[i] in ctx.state.floats for i in range(ctx.num_inputs)):
        return  # all-integer inputs are the rules' business (integer semantics)
    try:
        values = _apply(op.op_type, [v for v in inputs if v is not None])
    except (ArithmeticError, ValueError):
        return
    if values is None or len(values) > MAX_FOLDED:
        return
    out = op.outputs[0]
    if op.op_type == "Cast" and ctx.attr("to") in _INT_TYPES:
        ctx.state.floats.pop(out, None)
        if out in ctx.state.shapes and ctx.state.elements.get(out) is None:
            ctx.state.elements[out] = tuple(math.trunc(v) for v in values)
        return
    ctx.state.floats[out] = tuple(float(v) for v in values)


def _apply(op_type: str, inputs: list[tuple[float, ...]]) -> tuple[float, ...] | None:
    if op_type in _UNARY:
        return tuple(_UNARY[op_type](x) for x in inputs[0]) if len(inputs) == 1 else None
    if len(inputs) != 2:
        return None
    a, b = inputs
    n = max(len(a), len(b))
    if len(a) not in (1, n) or len(b) not in (1, n):
        return None
    fn = _BINARY[op_type]
    return tuple(fn(a[0] if len(a) == 1 else a[k], b[0] if len(b) == 1 else b[k]) for k in range(n))
