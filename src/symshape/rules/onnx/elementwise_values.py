"""The elements elementwise ops compute on tracked shape values: integer arithmetic (Div
truncates, Mod by ``fmod``), comparisons, bool casts, Clip, Relu, Sqrt/Pow of constants, and float
shape arithmetic through `symshape.rules.shared.float_values` (Cast to float, Div, Ceil/Floor,
Cast back), each exact or None.
"""

from __future__ import annotations

import math

import numpy as np

from symshape.algebra.expr import Dim, add, exact_div, mul, smax, smin
from symshape.algebra.piecewise import is_negative, is_positive
from symshape.engine.context import OpContext
from symshape.rules.shared import float_values as fv
from symshape.rules.shared.arith import INT_OPS, ONNX_INT_OPS, ONNX_UNARY_INT_OPS, IntOp, RuleDecisions
from symshape.rules.shared.common import broadcast_elements, exact_float_int
from symshape.rules.shared.relations import simplest

_PASS_ELEMENTS = {"Identity", "Cast", "CastLike", "Ceil", "Floor", "Round", "Clip"}
_BOOL = 9  # onnx.TensorProto.BOOL
_INT_CASTS = {6, 7}  # onnx.TensorProto.INT32, INT64
_FLOAT_TYPES = {"float32", "float64", "float16", "bfloat16", "float"}


def unary_elements(ctx: OpContext, op: str) -> tuple[Dim, ...] | None:
    """Tracked integer elements through the ops that keep them exact."""
    rounded = _rounded(ctx, op)
    if rounded is not None:
        return rounded
    els = ctx.elements(0)
    if els is None and op in ("Sqrt", "Cast", "Floor", "Ceil", "Round"):
        floats = ctx.const_floats(0)  # a float constant with integral values becomes elements
        ints = None if floats is None else [exact_float_int(f) for f in floats]
        els = None if ints is None or None in ints else tuple(i for i in ints if i is not None)
    if els is None:
        return None
    if op == "Clip":
        return _clip(ctx, els)
    if op == "Cast" and ctx.attr("to") == _BOOL:
        return _truth(ctx, els)
    if op in _PASS_ELEMENTS:
        return els
    if op in ("Sqrt", "Relu"):  # Relu: max(x, 0) of integers (a Range count clamped at 0)
        return _sqrt(els) if op == "Sqrt" else tuple(ctx.canon(smax(e, 0)) for e in els)
    if op == "Not":
        return _truth(ctx, tuple(add(1, mul(e, -1)) for e in els))
    unary = ONNX_UNARY_INT_OPS.get(op)
    if unary is None:
        return None
    decide = RuleDecisions(ctx)
    mapped = [unary(decide, e) for e in els]
    return None if any(m is None for m in mapped) else tuple(ctx.canon(m) for m in mapped if m is not None)


def _rounded(ctx: OpContext, op: str) -> tuple[Dim, ...] | None:
    """Floor, Ceil or a Cast to an integer of a float holding tracked rationals (float_values);
    Floor and Ceil keep their (integral) results known as floats for the ops after them."""
    how = {"Floor": "floor", "Ceil": "ceil"}.get(op)
    if op == "Cast" and ctx.attr("to") in _INT_CASTS:
        how = "trunc"
    if how is None:
        return None
    if ctx.elements(0) is not None:
        known = fv.rationals(ctx, 0, 2**24) if op != "Cast" and fv.float_limit(ctx, [0]) else None
        if known is not None:
            fv.record(ctx, known)
        return None
    known = fv.rationals(ctx, 0, 2**24)
    if known is None:
        return None
    out = tuple(ctx.canon(fv.to_int(ctx, q, how)) for q in known)
    if op != "Cast":
        fv.record(ctx, tuple(fv.Rational(v, 1, q.limit, nums=(v,)) for v, q in zip(out, known, strict=True)))
    return out


def _power(base: Dim | float, exponent: Dim | float) -> Dim | None:
    """An integer power: ``x**2`` of a dim, or a float power with an exact integer result
    (``int(16 ** 0.5)``, the grid side ViT exports for its position embeddings)."""
    if isinstance(exponent, float) and exponent.is_integer():
        exponent = int(exponent)
    if isinstance(exponent, int) and 0 <= exponent <= 8 and not isinstance(base, float):
        out: Dim = 1
        for _ in range(exponent):
            out = mul(out, base)
        return out
    if isinstance(base, (int, float)) and isinstance(exponent, (int, float)) and base >= 0:
        wide = float(base) ** float(exponent)
        narrow = float(np.float32(base) ** np.float32(exponent))
        return exact_float_int(wide) if wide == narrow else None
    return None


def _sqrt(els: tuple[Dim, ...]) -> tuple[Dim, ...] | None:
    out: list[Dim] = []
    for e in els:
        if not isinstance(e, int) or e < 0 or math.isqrt(e) ** 2 != e:
            return None
        out.append(math.isqrt(e))
    return tuple(out)


def _truth(ctx: OpContext, els: tuple[Dim, ...]) -> tuple[Dim, ...] | None:
    """Elements cast to bool: 1 where non-zero, else 0, exactly (``Min(n, 1)`` for ``n >= 0``)."""
    out: list[Dim] = []
    for e in els:
        if isinstance(e, int):
            out.append(int(e != 0))
        elif ctx.facts.prove_nonzero(e):
            out.append(1)
        else:
            out.append(ctx.canon(add(is_positive(e), is_negative(e))))
    return tuple(out)


def _clip(ctx: OpContext, els: tuple[Dim, ...]) -> tuple[Dim, ...] | None:
    if "min" in ctx.op.attrs or "max" in ctx.op.attrs:
        return None  # opset < 11 float bounds as attributes
    lo = ctx.const_ints(1) if ctx.has_input(1) else None
    hi = ctx.const_ints(2) if ctx.has_input(2) else None
    if (ctx.has_input(1) and lo is None) or (ctx.has_input(2) and hi is None):
        return None
    out: list[Dim] = []
    for e in els:
        if lo:
            e = smax(e, lo[0])
        if hi:
            e = smin(e, hi[0])
        out.append(ctx.canon(e))
    return tuple(out)


def arith_elements(ctx: OpContext) -> tuple[Dim, ...] | None:
    """The elements of a variadic op over tracked values (Pow, integer and float arithmetic)."""
    op = ctx.op.op_type
    inputs = [i for i in range(ctx.num_inputs) if ctx.has_input(i)]
    if op == "Pow" and len(inputs) == 2:
        return broadcast_elements(ctx, inputs, _power, numbers=True)
    fn = _int_op(ctx, "Add" if op == "Sum" else op)
    if fn is None or not inputs:
        return None
    limit = fv.float_limit(ctx, inputs)
    if limit is not None and op in ("Div", "Mul", "Add", "Sub") and len(inputs) == 2:
        a, b = fv.rationals(ctx, 0, limit), fv.rationals(ctx, 1, limit)
        got = None if a is None or b is None else fv.broadcast(op, a, b)
        fv.record(ctx, got)
        if got is None or any(q.den != 1 or q.rounded for q in got):
            return None
        return tuple(ctx.canon(fv.to_int(ctx, q, "trunc")) for q in got)  # integral: guarded below 2**24
    if op == "Div" and (ctx.dtype(0) in _FLOAT_TYPES or ctx.output_dtype(0) in _FLOAT_TYPES):
        return broadcast_elements(ctx, inputs, exact_div)
    decide = RuleDecisions(ctx)

    def fold(*values: Dim) -> Dim | None:
        acc: Dim | None = values[0]
        for v in values[1:]:
            acc = None if acc is None else fn(decide, acc, v)
        return None if acc is None else simplest(ctx, acc)

    return broadcast_elements(ctx, inputs, fold)


def _int_op(ctx: OpContext, op: str) -> IntOp | None:
    """The integer operation of ``op``: Mod is Python's ``%``, or C's with ``fmod=1``; Div and
    C's remainder of a dividend of unknown sign are exact piecewise forms (in `arith`)."""
    if op == "Mod":
        return INT_OPS["rem"] if ctx.attr("fmod", 0) else INT_OPS["mod"]
    if op == "Div":
        return INT_OPS["trunc_div"]
    return ONNX_INT_OPS.get(op)
