"""Sizes computed in floats, as torch-mlir writes the length of ``torch.arange(n)``:
``convert(ceil(divide(convert(n - 0) : i64 -> f64, convert(1) : i64 -> f64)) : f64 -> i64)``.

The float values are exact rationals (`symshape.rules.shared.float_values`, shared with ONNX's
``Cast -> Div -> Ceil -> Cast``): a ``convert`` of tracked integers to a float, then ``add``,
``subtract``, ``multiply``, ``divide``, ``ceil`` and ``floor`` on them, and a ``convert`` back to
an integer gives integer elements again, with the guard float exactness needs where the facts do
not already bound the numerator (at most ``2**53`` for f64, ``2**24`` for f32).
https://openxla.org/stablehlo/spec#convert
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.rules.shared import float_values as fv
from symshape.rules.shared.mlir_common import is_int_dtype

EXACT_BELOW = {"f64": 2**53, "f32": 2**24}
_COMBINE = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "divide": "Div"}


def float_sizes(ctx: OpContext) -> tuple[Dim, ...] | None:
    """Track the float values of this op (a unary or binary elementwise op); the integer
    elements of a ``convert`` of tracked floats to an integer type, else None."""
    op, out = ctx.op.op_type, ctx.output_dtype(0)
    limit = EXACT_BELOW.get(out or "")
    if op == "convert":
        src = ctx.dtype(0) or ""
        if src in EXACT_BELOW and is_int_dtype(out):
            known = fv.tracked(ctx, 0)
            return None if known is None else tuple(ctx.canon(fv.to_int(ctx, q, "trunc")) for q in known)
        els = ctx.elements(0)
        if limit is not None and is_int_dtype(src) and els is not None:
            fv.record(ctx, tuple(fv.Rational(e, 1, limit, nums=(e,)) for e in els))
        return None
    if limit is None:
        return None
    if op in ("ceil", "floor"):
        known = fv.tracked(ctx, 0)
        if known is not None:
            ints = [ctx.canon(fv.to_int(ctx, q, op)) for q in known]
            fv.record(ctx, tuple(fv.Rational(v, 1, limit, nums=(v,)) for v in ints))
    elif op in _COMBINE and ctx.num_inputs == 2:
        a, b = fv.rationals(ctx, 0, limit), fv.rationals(ctx, 1, limit)
        if a is not None and b is not None and (fv.tracked(ctx, 0) is not None or fv.tracked(ctx, 1) is not None):
            fv.record(ctx, fv.broadcast(_COMBINE[op], a, b))
    return None
