"""Slice: the length of ``data[start:end:step]`` on each axis, clamped exactly.

ONNX counts a negative start or end from the end of the axis, then clamps the start to ``[0, n]``
and the end to ``[0, n]`` for a positive step, the start to ``[0, n-1]`` and the end to
``[-1, n-1]`` for a negative one. onnxruntime reads an end of exactly INT32_MAX or INT64_MAX as
numpy's ``None`` (``end = step < 0 ? -1 : n``). Each of those choices is a ``Min``/``Max``
expression (`symshape.expr_piecewise`), never a guard: ``x[:, :1000]`` is ``Min(1000, n)`` for
every ``n``, and the symbols' ranges drop the branches they rule out (``n`` when ``n <= 512``).
"""

from __future__ import annotations

import numpy as np

from symshape.context import GiveUp, OpContext
from symshape.errors import ModelError
from symshape.expr import Dim, add, ceildiv, mul, smax, smin
from symshape.expr_piecewise import clamp, from_end
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import element_array, flat, normalize_axis
from symshape.rules.shared.relations import prove_nonneg, tidy

INT_MAX_ENDS = (2**31 - 1, 2**63 - 1)  # an end of exactly these means "to the end" (onnxruntime)
HUGE = 2**62  # no tensor has a dim this large: a bound past it is past either end of any axis


def _index(ctx: OpContext, v: Dim, n: Dim, lo: Dim, hi: Dim) -> Dim:
    """A start or end counted from the end when negative, then clamped to ``[lo, hi]``."""
    if isinstance(v, int) and v >= HUGE:
        return hi
    if isinstance(v, int) and v <= -HUGE:
        return smin(lo, hi)  # Min(Max(-inf, lo), hi): -1 on an empty axis with a negative step
    if isinstance(v, int) or prove_nonneg(ctx, v) or ctx.facts.prove_le(v, -1):
        return clamp(ctx.canon(from_end(v, n)), lo, hi)
    forms = [ctx.canon(from_end(v, n))]
    if prove_nonneg(ctx, mul(v, -1)):
        forms.append(ctx.canon(from_end(v, n, nonpositive=True)))
    return clamp(min(forms, key=lambda f: len(str(f))), lo, hi)


def slice_length(ctx: OpContext, n: Dim, start: Dim, end: Dim, step: int, axis: int) -> tuple[Dim, Dim]:
    """``(length, clamped start)`` of ``[start:end:step]`` on a dim of size ``n``.

    With ``n = 0`` and a negative step both clamps give ``-1`` (``Min(Max(v, 0), -1)``), so the
    length is 0 there too, as onnxruntime answers.
    """
    if step == 0:
        raise ModelError(
            where=ctx.where(),
            found=f"the slice step on axis {axis} is 0",
            expected="a non-zero step",
            fix="fix the steps input",
        )
    last = add(n, -1)
    if step > 0:
        s = _index(ctx, start, n, 0, n)
        e = n if isinstance(end, int) and end in INT_MAX_ENDS else _index(ctx, end, n, 0, n)
        span = add(e, mul(s, -1))
    else:
        s = _index(ctx, start, n, 0, last)
        e = -1 if isinstance(end, int) and end in INT_MAX_ENDS else _index(ctx, end, n, -1, last)
        span = add(s, mul(e, -1))
    s, span = tidy(ctx, s), tidy(ctx, span)
    length = ceildiv(span, abs(step))
    if not prove_nonneg(ctx, span):
        length = smax(length, 0)
    return tidy(ctx, length), s


@register(ONNX, "Slice")
def slice_op(ctx: OpContext) -> None:
    """``data[starts:ends:steps]`` on ``axes`` (inputs since opset 10, attributes before).

    https://onnx.ai/onnx/operators/onnx__Slice.html
    """
    dims = list(ctx.shape(0))
    if ctx.op.version and ctx.op.version < 10 or "starts" in ctx.op.attrs:
        starts: tuple[Dim, ...] = tuple(ctx.attr("starts"))
        ends: tuple[Dim, ...] = tuple(ctx.attr("ends"))
        axes = ctx.attr("axes", list(range(len(starts))))
        steps: tuple[int, ...] = (1,) * len(starts)
    else:
        starts, ends = ctx.require_elements(1), ctx.require_elements(2)
        axes = list(ctx.const_ints(3) or ()) if ctx.has_input(3) else list(range(len(starts)))
        if ctx.has_input(3) and ctx.const_ints(3) is None:
            raise GiveUp("slice axes are not constant")
        steps_el = ctx.const_ints(4) if ctx.has_input(4) else (1,) * len(starts)
        if steps_el is None:
            raise GiveUp("slice steps are not constant")
        steps = steps_el
    src = element_array(ctx, 0) if ctx.elements(0) is not None else None
    for a, s, e, k in zip(axes, starts, ends, steps, strict=True):
        axis = normalize_axis(ctx, a, len(dims), what="axes entry")
        length, begin = slice_length(ctx, dims[axis], s, e, k, axis)
        if src is not None and isinstance(begin, int) and isinstance(length, int):
            src = np.take(src, np.array([begin + i * k for i in range(length)], dtype=np.int64), axis=axis)
        else:
            src = None
        dims[axis] = length
    ctx.set_output(0, dims, None if src is None else flat(src))
