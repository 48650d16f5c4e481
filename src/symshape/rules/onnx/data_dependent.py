"""Ops whose output size depends on tensor *values*: NonZero, Unique, Compress, NonMaxSuppression.

Such a size gets a fresh symbol of kind ``data`` with the range the op's contract guarantees
(``0 <= n <= numel(x)`` for NonZero) recorded as facts and predicates with the op as origin.
The symbol is keyed by what it is computed from (the input value's name and the attributes),
so two ops over the same value share it. When the input's elements are tracked and decidable,
the count is exact instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim, Expr, add, as_symbol, mul, product, smin
from symshape.engine.context import OpContext
from symshape.errors import ContradictionError
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import normalize_axis


def record_le(ctx: OpContext, small: Dim, big: Dim, rule: str) -> None:
    """Record the fact ``small <= big`` (a range for a single symbol, else a predicate)."""
    a, b = ctx.canon(small), ctx.canon(big)
    diff = ctx.canon(add(b, mul(a, -1)))
    if isinstance(diff, int):
        if diff < 0:
            raise ContradictionError(
                where=ctx.where(),
                found=f"'{a}' is larger than '{b}'",
                expected=rule,
                fix="check the ops that give these sizes",
            )
        return
    if ctx.facts.prove_ge(diff, 0):
        return
    if isinstance(b, int) and as_symbol(a) is not None:
        ctx.assume_range(a, None, b, rule)
    elif isinstance(a, int) and as_symbol(b) is not None:
        ctx.assume_range(b, a, None, rule)
    else:
        ctx.assume_range(diff, 0, None, rule)


def data_symbol(ctx: OpContext, key: Sequence[str], rule: str, *, lo: int = 0) -> Expr:
    """The fresh ``data`` symbol for ``key`` (shared by every op computing the same thing)."""
    s = ctx.memo_fresh(("data", *key), rule, kind="data", lo=lo)
    if lo > 0:
        record_le(ctx, lo, s, rule)
    return s


def _decided(ctx: OpContext, els: Sequence[Dim]) -> list[bool] | None:
    """Which tracked elements are non-zero, when every one is decidable."""
    out: list[bool] = []
    for e in els:
        zero = ctx.facts.prove_eq(e, 0)
        if zero is None:
            return None
        out.append(not zero)
    return out


@register(ONNX, "NonZero")
def nonzero(ctx: OpContext) -> None:
    """``[rank(x), n]`` with ``0 <= n <= numel(x)``; exact when the elements are tracked.

    https://onnx.ai/onnx/operators/onnx__NonZero.html
    """
    dims = ctx.shape(0)
    rank = max(len(dims), 1)  # a scalar is treated as a 1-element vector
    els = ctx.elements(0)
    flags = _decided(ctx, els) if els is not None else None
    if flags is not None:
        hits = [i for i, f in enumerate(flags) if f]
        elements = tuple(hits) if len(dims) == 1 else None
        ctx.set_output(0, (rank, len(hits)), elements)
        return
    n = data_symbol(ctx, ("NonZero", ctx.input_name(0)), "nonzero count")
    record_le(ctx, n, product(dims), "nonzero count <= numel(input)")
    ctx.set_output(0, (rank, n))


@register(ONNX, "Unique")
def unique(ctx: OpContext) -> None:
    """Unique values (or slices on ``axis``): ``u`` of them, ``min(N, 1) <= u <= N``.

    ``N`` is the element count (no axis) or the axis dim. Outputs: Y, indices ``[u]``,
    inverse_indices ``[N]``, counts ``[u]``.
    https://onnx.ai/onnx/operators/onnx__Unique.html
    """
    dims = ctx.shape(0)
    axis_attr = ctx.attr("axis")
    axis = None if axis_attr is None else normalize_axis(ctx, int(axis_attr), len(dims))
    total = product(dims) if axis is None else dims[axis]
    els = ctx.const_ints(0) if axis is None or len(dims) == 1 else None
    y_elements: tuple[Dim, ...] | None = None
    if els is not None:
        seen = list(dict.fromkeys(els))
        u: Dim = len(seen)
        y_elements = tuple(sorted(seen)) if ctx.attr("sorted", 1) else tuple(seen)
    else:
        lo = 1 if ctx.facts.prove_ge(total, 1) else 0
        u = data_symbol(ctx, ("Unique", ctx.input_name(0), str(axis)), "unique count", lo=lo)
        record_le(ctx, u, total, "unique count <= input size")
        if lo == 0:
            record_le(ctx, smin(total, 1), u, "unique count >= 1 unless the input is empty")
    y = (u,) if axis is None else dims[:axis] + (u,) + dims[axis + 1 :]
    ctx.set_output(0, y, y_elements)
    ctx.set_output(1, (u,))
    ctx.set_output(2, (total,))
    ctx.set_output(3, (u,))


@register(ONNX, "Compress")
def compress(ctx: OpContext) -> None:
    """Slices (or flattened elements) where ``condition`` holds: ``c <= min(len(cond), N)``.

    The condition may be shorter than the axis; entries past the axis are ignored.
    https://onnx.ai/onnx/operators/onnx__Compress.html
    """
    dims = ctx.shape(0)
    cond = ctx.shape(1)
    ctx.require_rank(cond, 1, "the condition", "a 1-D condition")
    axis_attr = ctx.attr("axis")
    axis = None if axis_attr is None else normalize_axis(ctx, int(axis_attr), len(dims))
    total = product(dims) if axis is None else dims[axis]
    count = _constant_count(ctx, total)
    if count is None:
        key = ("Compress", ctx.input_name(1), str(ctx.canon(total)))  # the true entries of cond[:total]
        count = data_symbol(ctx, key, "compress count")
        record_le(ctx, count, cond[0], "compress count <= len(condition)")
        record_le(ctx, count, total, "compress count <= input size")
    out = (count,) if axis is None else dims[:axis] + (count,) + dims[axis + 1 :]
    src = ctx.elements(0)
    flags = ctx.const_ints(1)
    elements = None
    if src is not None and flags is not None and len(dims) <= 1:
        elements = tuple(e for e, f in zip(src, flags, strict=False) if f)
    ctx.set_output(0, out, elements)


def _constant_count(ctx: OpContext, total: Dim) -> int | None:
    """The number of true entries of a constant condition that fall inside ``total``."""
    flags = ctx.const_ints(1)
    if flags is None:
        return None
    if isinstance(total, int):
        return sum(1 for f in flags[:total] if f)
    if ctx.facts.prove_ge(add(total, -len(flags)), 0):
        return sum(1 for f in flags if f)
    return None


@register(ONNX, "NonMaxSuppression")
def non_max_suppression(ctx: OpContext) -> None:
    """``[n, 3]`` selected ``(batch, class, box)`` triples, ``n <= B * C * min(S, max_per_class)``.

    boxes ``[B, S, 4]`` and scores ``[B, C, S]`` must agree (facts).
    https://onnx.ai/onnx/operators/onnx__NonMaxSuppression.html
    """
    boxes, scores = ctx.shape(0), ctx.shape(1)
    if len(boxes) != 3 or len(scores) != 3:
        raise ctx.invalid(
            f"boxes of rank {len(boxes)} and scores of rank {len(scores)}",
            "3-D boxes [batch, boxes, 4] and scores [batch, classes, boxes]",
        )
    ctx.eq(boxes[0], scores[0], "NMS batch", (ctx.dim_name(0, 0), ctx.dim_name(1, 0)))
    ctx.eq(boxes[1], scores[2], "NMS boxes", (ctx.dim_name(0, 1), ctx.dim_name(1, 2)))
    ctx.eq(boxes[2], 4, "NMS box coordinates", (ctx.dim_name(0, 2), "4"))
    per_class: Dim | None = 0  # the default max_output_boxes_per_class selects nothing
    if ctx.has_input(2):
        els = ctx.elements(2)
        per_class = els[0] if els is not None and len(els) == 1 else None
    if isinstance(per_class, int) and per_class <= 0:
        ctx.set_output(0, (0, 3))
        return
    per_box = boxes[1] if per_class is None else smin(boxes[1], per_class)
    key = ("NonMaxSuppression", *ctx.op.inputs, str(ctx.attr("center_point_box", 0)))
    n = data_symbol(ctx, key, "selected boxes")
    record_le(ctx, n, product((boxes[0], scores[1], per_box)), "selected <= batches * classes * boxes")
    ctx.set_output(0, (n, 3))
