"""Slice: the length of ``data[start:end:step]`` on each axis, clamped exactly.

ONNX counts a negative start or end from the end of the axis, then clamps the start to ``[0, n]``
and the end to ``[0, n]`` for a positive step, the start to ``[0, n-1]`` and the end to
``[-1, n-1]`` for a negative one. onnxruntime reads an end of exactly INT32_MAX or INT64_MAX as
numpy's ``None`` (``end = step < 0 ? -1 : n``). Each of those choices is a ``Min``/``Max``
expression (`symshape.algebra.piecewise`), never a guard: ``x[:, :1000]`` is ``Min(1000, n)`` for
every ``n``, and the symbols' ranges drop the branches they rule out (``n`` when ``n <= 512``).
"""

from __future__ import annotations

import numpy as np

from symshape.algebra.expr import Dim, add, ceildiv, mul, smax, smin
from symshape.algebra.piecewise import clamp, from_end
from symshape.engine.context import OpContext
from symshape.engine.nonneg import prove_nonneg
from symshape.rules.onnx.partial import set_partial
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import element_array, flat, normalize_axis
from symshape.rules.shared.fit import require_ge
from symshape.rules.shared.relations import tidy

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


def slice_length(ctx: OpContext, n: Dim, start: Dim, end: Dim, step: Dim, axis: int) -> tuple[Dim, Dim] | None:
    """``(length, clamped start)`` of ``[start:end:step]`` on a dim of size ``n``; None when the
    sign of a symbolic step is not proven.

    With ``n = 0`` and a negative step both clamps give ``-1`` (``Min(Max(v, 0), -1)``), so the
    length is 0 there too, as onnxruntime answers.
    """
    if step == 0:
        raise ctx.invalid(f"the slice step on axis {axis} is 0", "a non-zero step", "fix the steps input")
    if not isinstance(step, int) and prove_nonneg(ctx, step):  # onnxruntime refuses a step of 0
        require_ge(ctx, step, 1, "slice step != 0", f"the slice step on axis {axis}")
    forward = step > 0 if isinstance(step, int) else True if ctx.facts.prove_ge(step, 1) else None
    if forward is None and ctx.facts.prove_le(step, -1):
        forward = False
    if forward is None:
        return None
    last = add(n, -1)
    if forward:
        s = _index(ctx, start, n, 0, n)
        e = n if isinstance(end, int) and end in INT_MAX_ENDS else _index(ctx, end, n, 0, n)
        span = add(e, mul(s, -1))
    else:
        s = _index(ctx, start, n, 0, last)
        e = -1 if isinstance(end, int) and end in INT_MAX_ENDS else _index(ctx, end, n, -1, last)
        span = add(s, mul(e, -1))
    s, span = tidy(ctx, s), tidy(ctx, span)
    length = ceildiv(span, step if forward else mul(step, -1))
    if not prove_nonneg(ctx, span):
        length = smax(length, 0)
    return tidy(ctx, length), s


@register(ONNX, "Slice")
def slice_op(ctx: OpContext) -> None:
    """``data[starts:ends:steps]`` on ``axes`` (inputs since opset 10, attributes before).

    The rank is the data's whatever the bounds; an axis outside ``axes`` keeps its dim, and an
    axis whose bounds or step are unknown gets a fresh symbol (every axis when ``axes`` is).

    https://onnx.ai/onnx/operators/onnx__Slice.html
    """
    dims = list(ctx.shape(0))
    if ctx.op.version and ctx.op.version < 10 or "starts" in ctx.op.attrs:
        starts: tuple[Dim, ...] | None = tuple(ctx.attr("starts"))
        ends: tuple[Dim, ...] | None = tuple(ctx.attr("ends"))
        axes: list[int] | None = ctx.attr("axes", list(range(len(starts))))
        steps: tuple[Dim, ...] | None = (1,) * len(starts)
    else:
        starts, ends = ctx.elements(1), ctx.elements(2)
        count = _count(ctx, starts, ends)
        axes = _axes(ctx, count)
        steps = ctx.elements(4) if ctx.has_input(4) else None if count is None else (1,) * count
    if axes is None:
        set_partial(ctx, 0, [None] * len(dims), "slice", "the slice axes are not known")
        return
    picked = [normalize_axis(ctx, a, len(dims), what="axes entry") for a in axes]
    if starts is None or ends is None or steps is None:
        out: list[Dim | None] = [None if a in picked else d for a, d in enumerate(dims)]
        set_partial(ctx, 0, out, "slice", "the slice bounds or steps are not known")
        return
    lengths = {len(picked), len(starts), len(ends), len(steps)}
    if len(lengths) > 1:
        raise ctx.invalid(
            f"{len(picked)} axes, {len(starts)} starts, {len(ends)} ends and {len(steps)} steps",
            "one start, end and step per sliced axis",
            "give axes, starts, ends and steps the same length",
        )
    src = element_array(ctx, 0) if ctx.elements(0) is not None else None
    unknown: list[int] = []
    for axis, s, e, k in zip(picked, starts, ends, steps, strict=True):
        found = slice_length(ctx, dims[axis], s, e, k, axis)
        if found is None:
            unknown.append(axis)
            src = None
            continue
        length, begin = found
        if src is not None and isinstance(begin, int) and isinstance(length, int) and isinstance(k, int):
            src = np.take(src, np.array([begin + i * k for i in range(length)], dtype=np.int64), axis=axis)
        else:
            src = None
        dims[axis] = length
    if unknown:
        partial: list[Dim | None] = [None if a in unknown else d for a, d in enumerate(dims)]
        set_partial(ctx, 0, partial, "slice", "the sign of a symbolic slice step is not proven")
        return
    ctx.set_output(0, dims, None if src is None else flat(src))


def _count(ctx: OpContext, starts: tuple[Dim, ...] | None, ends: tuple[Dim, ...] | None) -> int | None:
    """How many axes are sliced: the length of the starts (or ends) input, when static."""
    for i, known in ((1, starts), (2, ends)):
        if known is not None:
            return len(known)
        shape = ctx.shape_or_none(i)
        if shape is not None and len(shape) == 1 and isinstance(shape[0], int):
            return shape[0]
    return None


def _axes(ctx: OpContext, count: int | None) -> list[int] | None:
    """The sliced axes: the axes input's values, else the first ``count``; None when unknown."""
    if ctx.has_input(3):
        known = ctx.const_ints(3)
        return None if known is None else list(known)
    return None if count is None else list(range(count))
