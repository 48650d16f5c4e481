"""com.microsoft ops whose output sizes come from input values, attributes or data: Range,
ExpandDims, UnfoldTensor, CropAndResize (values and attributes); Unique, DynamicTimeWarping,
Tokenizer, BifurcationDetector (data: a fresh ``data`` symbol with the range the kernel
guarantees); EPContext and Snpe (precompiled nodes: their declared outputs).

What the kernels (and the schemas' inference) reject is a fact.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from dataclasses import replace

from symshape.algebra.expr import Dim, add, floordiv, mul, product, smax, smin
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol, record_le
from symshape.rules.onnx.partial import set_partial
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    eq_dims,
    eq_vector,
    required_int,
    reuse,
    shape_of_rank,
)
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import normalize_axis
from symshape.rules.shared.fit import require_ge


# -------------------------------------------------------------------- values and attributes
@register(MS, "Range")
def contrib_range(ctx: OpContext) -> None:
    """The ai.onnx Range's count ``Max(0, ceil((limit - start)/delta))`` with ``delta``
    optional (1 when absent); bounds are scalars or 1-element tensors.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Range
    """
    if ctx.has_input(2):
        reuse(ctx, ONNX, "Range")
        return
    one = f"{ctx.op.name}::delta=1"  # the default delta, a constant only this rule sees
    ctx.bind(one, (), (1,))
    try:
        reuse(OpContext(ctx.state, ctx.program, replace(ctx.op, inputs=[*ctx.op.inputs[:2], one])), ONNX, "Range")
    finally:
        ctx.state.shapes.pop(one, None)
        ctx.state.elements.pop(one, None)


@register(MS, "ExpandDims")
def expand_dims(ctx: OpContext) -> None:
    """A 1 inserted at ``axis`` (one int32 element in ``[-rank-1, rank]``; a negative axis counts
    from the end of the output, as the CPU kernel does: ``-1`` appends).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/expand_dims.h
    """
    x = ctx.shape(0)
    axis_dims = ctx.shape_or_none(1)
    if axis_dims is not None and isinstance(n := product(axis_dims), int) and n != 1:
        raise ctx.invalid(f"the axis input has {n} elements", "one element", FIX_CONTRACT)
    axis = ctx.const_ints(1)
    if axis is None or len(axis) != 1:
        set_partial(ctx, 0, [None] * (len(x) + 1), "expand", "the axis is not known statically")
        return
    a = axis[0]
    if not -len(x) - 1 <= a <= len(x):
        raise ctx.invalid(f"axis {a} for an input of rank {len(x)}", f"an axis in [{-len(x) - 1}, {len(x)}]",
                          "fix the axis input")
    pos = a if a >= 0 else a + len(x) + 1
    ctx.set_output(0, (*x[:pos], 1, *x[pos:]), ctx.elements(0))


@register(MS, "UnfoldTensor")
def unfold_tensor(ctx: OpContext) -> None:
    """All windows of ``size`` every ``step`` along ``dim``: that dim becomes
    ``floor((d - size)/step) + 1`` and ``size`` is appended; ``1 <= size <= d`` and ``step >= 1``
    (the schema's inference rejects the rest).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/contrib_defs.cc
    """
    x = ctx.shape(0)
    if not x:
        raise ctx.invalid("the input is a scalar", "rank >= 1", FIX_CONTRACT)
    axis = normalize_axis(ctx, int(ctx.attr("dim", -1)), len(x))
    size = required_int(ctx, "size")
    step = ctx.attr("step", 1)
    if not isinstance(step, int) or step < 1:
        raise ctx.invalid(f"attribute 'step' is {step!r}", "a positive integer", FIX_CONTRACT)
    room = add(x[axis], -size)
    require_ge(ctx, room, 0, "UnfoldTensor size <= dim", f"dim {axis} minus the window size")
    windows = ctx.canon(add(floordiv(room, step), 1))
    ctx.set_output(0, (*x[:axis], windows, *x[axis + 1 :], size))


@register(MS, "CropAndResize")
def crop_and_resize(ctx: OpContext) -> None:
    """X ``(N, C, H, W)``, rois ``(R, 4)``, batch_indices ``(R)``, crop_size ``[h, w]`` give
    ``(R, C, h, w)``; ``h, w >= 1`` (facts, as the CPU kernel checks). A crop size not known
    statically is a ``data`` symbol shared by every op reading the same value.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.CropAndResize
    """
    mode = str(ctx.attr("mode", "bilinear")).lower()
    if mode not in ("bilinear", "nearest"):
        raise ctx.invalid(f"mode '{mode}'", "'bilinear' or 'nearest'", FIX_CONTRACT)
    x = shape_of_rank(ctx, 0, (4,), "X")
    rois = shape_of_rank(ctx, 1, (2,), "rois")
    eq_dims(ctx, rois[1], 4, "roi coordinates", 1, 1, "4 (y1, x1, y2, x2)")
    eq_vector(ctx, 2, rois[0], "rois", "the number of rois")
    eq_vector(ctx, 3, 2, "crop size", "2 (crop_height, crop_width)")
    els = ctx.elements(3)
    sizes: list[Dim] = []
    for k, what in enumerate(("crop_height", "crop_width")):
        if els is not None and len(els) == 2:
            require_ge(ctx, els[k], 1, "crop size >= 1", what)
            sizes.append(els[k])
        else:
            sizes.append(data_symbol(ctx, ("CropAndResize", ctx.input_name(3), str(k)), what, lo=1))
    ctx.set_output(0, (rois[0], x[1], *sizes))


# ------------------------------------------------------------------------------ data sizes
@register(MS, "Unique")
def contrib_unique(ctx: OpContext) -> None:
    """The distinct values of a 1-D x in first-seen order: ``y [u]``, ``idx [N]``, ``counts [u]``
    with ``min(N, 1) <= u <= N`` (exact for a constant x). ``u`` is the ai.onnx Unique's count
    symbol for the same input (no axis).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Unique
    """
    (n,) = shape_of_rank(ctx, 0, (1,), "x")
    els = ctx.const_ints(0)
    y_elements: tuple[Dim, ...] | None = None
    if els is not None:
        y_elements = tuple(dict.fromkeys(els))
        u: Dim = len(y_elements)
    else:
        lo = 1 if ctx.prove_ge(n, 1) else 0
        u = data_symbol(ctx, ("Unique", ctx.input_name(0), "None"), "unique count", lo=lo)
        record_le(ctx, u, n, "unique count <= input size")
        if lo == 0:
            record_le(ctx, smin(n, 1), u, "unique count >= 1 unless the input is empty")
    ctx.set_output(0, (u,), y_elements)
    ctx.set_output(1, (n,))
    ctx.set_output(2, (u,))


@register(MS, "DynamicTimeWarping")
def dynamic_time_warping(ctx: OpContext) -> None:
    """The cheapest path through an ``M x N`` cost matrix (or ``1 x M x N``: a fact) as ``[2, x]``
    point pairs; ``max(M, N) <= x <= M + N - 1`` for a non-empty matrix, 0 for an empty one, and
    ``x = M + N - 1`` exactly when ``M`` or ``N`` is 1. Otherwise ``x`` is a ``data`` symbol.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/tensor/dynamic_time_warping.cc
    """
    x = shape_of_rank(ctx, 0, (2, 3), "input")
    if len(x) == 3:
        eq_dims(ctx, x[0], 1, "one cost matrix", 0, 0, "1")
    m, n = x[-2], x[-1]
    longest = ctx.canon(add(add(m, n), -1))
    if ctx.prove_eq(m, 1) is True or ctx.prove_eq(n, 1) is True:
        ctx.set_output(0, (2, longest))
        return
    length = data_symbol(ctx, ("DynamicTimeWarping", ctx.input_name(0)), "warping path length")
    record_le(ctx, length, smax(longest, 0), "path length <= M + N - 1")
    if ctx.prove_ge(m, 1) and ctx.prove_ge(n, 1):
        record_le(ctx, smax(m, n), length, "path length >= max(M, N)")
    ctx.set_output(0, (2, length))


@register(MS, "Tokenizer")
def tokenizer(ctx: OpContext) -> None:
    """Strings ``[C]`` or ``[N, C]`` split into ``D`` tokens each (padded to the most found, plus
    2 with ``mark``): ``[C, D]`` or ``[N, C, D]``, ``D`` a ``data`` symbol. An empty input gives
    ``[0]`` or ``[N, 0]`` (no token axis), so a non-empty input is a guard unless proven.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Tokenizer
    """
    x = shape_of_rank(ctx, 0, (1, 2), "X")
    numel = ctx.canon(product(x))
    if ctx.prove_eq(numel, 0) is True:
        ctx.set_output(0, (*x[:-1], 0))
        return
    if not ctx.prove_ge(numel, 1):
        ctx.guard(numel, ">=", 1, "Tokenizer input is not empty",
                  "an empty input keeps its rank ([0] or [N, 0]) instead of gaining the token axis")
    attrs = (str(ctx.attr(k)) for k in ("separators", "tokenexp", "mincharnum", "mark"))
    tokens = data_symbol(ctx, ("Tokenizer", ctx.input_name(0), *attrs), "tokens per string")
    ctx.set_output(0, (*x, tokens))


@register(MS, "BifurcationDetector")
def bifurcation_detector(ctx: OpContext) -> None:
    """Current tokens ``[c]`` extended by the agreeing prefix of the predicted ``[p]`` (plus one):
    ``c + 1 <= n <= c + p``, a ``data`` symbol (``[c]`` unchanged without predictions); the
    match index keeps its shape. Facts (the CPU kernel's checks): the token inputs are 1-D, the
    index has one element, ``p = len(src) + 1 - index``, ``1 <= min_ngram_size <= max_ngram_size``.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/bert/bifurcation_detector.h
    """
    low, high = ctx.attr("min_ngram_size", 1), ctx.attr("max_ngram_size", 3)
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high):
        raise ctx.invalid(f"min_ngram_size {low!r}, max_ngram_size {high!r}", "1 <= min_ngram_size <= max_ngram_size",
                          FIX_CONTRACT)
    (src,) = shape_of_rank(ctx, 0, (1,), "src_tokens")
    (cur,) = shape_of_rank(ctx, 1, (1,), "cur_tokens")
    index = ctx.shape(2)
    ctx.eq(product(index), 1, "one match index", (f"the element count of '{ctx.op.inputs[2]}'", "1"))
    tokens: tuple[Dim, ...] = (cur,)
    if ctx.has_input(3):
        (pred,) = shape_of_rank(ctx, 3, (1,), "pred_tokens")
        idx = ctx.elements(2)
        if idx is not None and len(idx) == 1:
            eq_dims(ctx, pred, add(add(src, 1), mul(idx[0], -1)), "prediction length", 3, 0,
                    "len(src_tokens) + 1 - prev_suffix_match_idx")
        n = data_symbol(ctx, ("BifurcationDetector", *ctx.op.inputs), "merged token count", lo=1)
        record_le(ctx, add(cur, 1), n, "merged tokens > current tokens")
        record_le(ctx, n, add(cur, pred), "merged tokens <= current + predicted")
        tokens = (n,)
    ctx.set_output(0, tokens)
    ctx.set_output(1, index)


# ---------------------------------------------------------------------- precompiled nodes
@register(MS, "EPContext", "Snpe")
def precompiled(ctx: OpContext) -> None:
    """A node an execution provider compiled ahead of time (EPContext) or an SNPE DLC payload
    (Snpe): nothing in the graph says its output shapes, so each output is its declared type,
    fresh symbols where that says nothing.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.EPContext
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Snpe
    """
    reason = "a precompiled node" if ctx.op.op_type == "EPContext" else "a precompiled SNPE DLC"
    cause = ctx.new_cause(reason)
    for i in range(ctx.num_outputs):
        ctx.declared_output(i, reason, cause=cause)
