"""Range with computed or float start, limit and delta: ``Max(0, ceil((limit - start)/delta))``.

onnxruntime counts ``ceil((1.0*(limit - start))/delta)`` elements, clamped at 0: the difference in
the tensor's type, the quotient in double. Exported models feed it shape values cast to float
(``torch.arange(x.shape[1])``: ``Range(0.0, Cast(Gather(Shape(x))), 1.0)``) or constants like
``0.5``. Each bound is an exact integer expression (tracked elements) or an exact rational (the
float constant's value), so the count is a ceiling of rationals:

* constants are counted the way onnxruntime counts them (float32 difference, double quotient);
* otherwise ``(limit - start)/delta`` becomes ``X/Y`` with an integer expression ``X`` and a
  positive integer ``Y`` (a symbolic delta must have a known sign) and the count is
  ``Max(0, ceil(X/Y))``. A float32 quotient of a float32 difference by a float32 delta rounds to
  the same ceiling as the exact one, so the count is exact as long as ``limit - start`` is exact
  in the float type: below 2**24 for float32 (2**53 for double), a guard on each symbolic bound
  when its range does not prove it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from symshape.algebra.expr import Dim, add, ceildiv, mul, smax
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import MAX_TRACKED
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.fit import require_ge
from symshape.rules.shared.producers import producer

FLOAT_TYPES = {"float32": 2**24, "float": 2**24, "float64": 2**53, "double": 2**53}
CAST_TO = {1: "float32", 11: "float64", 7: "int64", 6: "int32", 5: "int16"}

Bound = Dim | Fraction  # an exact integer expression, or a constant rational


def _value(ctx: OpContext, i: int) -> Bound:
    """Scalar input ``i``: its tracked element, else its float constant as an exact rational."""
    els = ctx.elements(i)
    if els is not None and len(els) == 1:
        return els[0]
    floats = ctx.state.floats.get(ctx.input_name(i)) if ctx.has_input(i) else None
    if floats is not None and len(floats) == 1 and math.isfinite(floats[0]):
        f = Fraction(floats[0])
        return int(f) if f.denominator == 1 else f
    if ctx.has_input(i) and ctx.dtype(i) in ("int64", "int32", "int16"):  # a runtime integer:
        return ctx.memo_fresh(("data", "value", ctx.input_name(i)), "Range bound", kind="data", lo=None)
    raise GiveUp(f"the value of Range input #{i} is not known statically", unknown_input=i)


def _dtype(ctx: OpContext) -> str:
    """The element type: declared, read off a float constant, or the ``to`` of a producing Cast."""
    for i in range(3):
        declared = ctx.dtype(i) or _cast_to(ctx, i)
        if declared:
            return declared
    return ctx.output_dtype(0) or "int64"


def _cast_to(ctx: OpContext, i: int) -> str | None:
    if not ctx.has_input(i):
        return None
    made_by = producer(ctx, ctx.input_name(i))
    if made_by is None or made_by.op_type != "Cast":
        return None
    return CAST_TO.get(int(made_by.attrs.get("to", 0)))


def _constant_count(start: Fraction, limit: Fraction, delta: Fraction, dtype: str) -> int:
    """The count onnxruntime gives for constant bounds, in its own arithmetic."""
    if dtype in ("float32", "float"):
        diff = float(np.float32(limit) - np.float32(start))
        n = math.ceil(diff / float(np.float32(delta)))
    elif dtype in FLOAT_TYPES:
        n = math.ceil(float(limit - start) / float(delta))
    else:
        n = math.ceil((limit - start) / delta)
    return max(n, 0)


def _as_fraction(b: Bound) -> Fraction | None:
    if isinstance(b, Fraction):
        return b
    return Fraction(b) if isinstance(b, int) else None


def _scaled(b: Bound, den: int) -> Dim:
    """``b*den`` as an integer expression (``den`` is a multiple of ``b``'s denominator)."""
    if isinstance(b, Fraction):
        return int(b * den)
    return mul(b, den)


def _symbolic_count(ctx: OpContext, start: Bound, limit: Bound, delta: Bound) -> Dim:
    den = math.lcm(*(b.denominator for b in (start, limit, delta) if isinstance(b, Fraction)))
    span = add(_scaled(limit, den), mul(_scaled(start, den), -1))  # (limit - start)*den
    if isinstance(delta, Fraction) or isinstance(delta, int):
        step = Fraction(delta)
        if step == 0:
            raise ctx.invalid("delta 0", "a non-zero delta", "fix the delta input")
        # (span/den)/(p/q) = span*q/(den*p)
        num, by = mul(span, step.denominator), den * step.numerator
    elif ctx.prove_ge(delta, 0):  # onnxruntime rejects a delta of 0: a non-negative one is >= 1
        require_ge(ctx, delta, 1, "Range delta != 0", "the Range delta")
        num, by = span, mul(delta, den)
    elif ctx.prove_ge(mul(delta, -1), 1):
        num, by = span, mul(delta, den)
    else:
        raise GiveUp("Range with a delta whose sign is not known", fact=f"{delta} >= 1")
    if isinstance(by, int) and by < 0:
        num, by = mul(num, -1), -by
    elif not isinstance(by, int) and not ctx.prove_ge(by, 1):
        num, by = mul(num, -1), mul(by, -1)
    count = ctx.canon(ceildiv(num, by))
    if ctx.prove_ge(num, 0) or ctx.prove_ge(count, 0):  # ceil(num/by) >= 0 for num >= 0, by >= 1
        return count
    return ctx.canon(smax(count, 0))


def _guard_float_exact(ctx: OpContext, bounds: tuple[Bound, ...], dtype: str) -> None:
    """A float difference is exact while both bounds stay below the float's integer limit."""
    limit = FLOAT_TYPES.get(dtype)
    if limit is None:
        return
    for b in bounds:
        if isinstance(b, (int, Fraction)):
            continue
        if not ctx.facts.prove_le(ctx.canon(b), limit) or not ctx.prove_ge(b, -limit):
            ctx.guard(b, "<=", limit, "float exact", f"Range bound '{b}' is exact in {dtype} up to {limit}")


@register(ONNX, "Range", since=11)
def range_op(ctx: OpContext) -> None:
    """``Max(0, ceil((limit - start)/delta))`` elements, for integer and float bounds.

    https://onnx.ai/onnx/operators/onnx__Range.html
    """
    try:
        start, limit, delta = (_value(ctx, i) for i in range(3))
        n = _count(ctx, start, limit, delta)
    except GiveUp as unknown:  # still a 1-D tensor; its length points to why it is not known
        ctx.warn(unknown.reason)
        ctx.set_output(0, (ctx.fresh("length", cause=ctx.cause_of(unknown)),))
        return
    ctx.set_output(0, (n,), _elements(ctx, start, delta, n))


def _count(ctx: OpContext, start: Bound, limit: Bound, delta: Bound) -> Dim:
    """The element count: onnxruntime's for constant bounds, else exact over the symbols."""
    dtype = _dtype(ctx)
    consts = [_as_fraction(b) for b in (start, limit, delta)]
    if consts[0] is not None and consts[1] is not None and consts[2] is not None:
        if consts[2] == 0:
            raise ctx.invalid("delta 0", "a non-zero delta", "fix the delta input")
        return _constant_count(consts[0], consts[1], consts[2], dtype)
    _guard_float_exact(ctx, (start, limit), dtype)
    return _symbolic_count(ctx, start, limit, delta)


def _elements(ctx: OpContext, start: Bound, delta: Bound, n: Dim) -> tuple[Dim, ...] | None:
    """``start + i*delta`` when they are integers and few."""
    if not isinstance(n, int) or n > MAX_TRACKED or isinstance(start, Fraction) or isinstance(delta, Fraction):
        return None
    return tuple(ctx.canon(add(start, mul(delta, i))) for i in range(n))
