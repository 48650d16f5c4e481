"""Indexing ops: gathers, scatters, OneHot, TopK, ReverseSequence, GatherBlockQuantized.

The output of a gather has the shape of (part of) its indices; a scatter keeps the data's shape
and its validity ties the updates' dims to the indices' and the data's (facts). TopK's ``k`` and
OneHot's ``depth`` come from tracked elements; when they are not known statically they become
``data`` symbols shared by every op reading the same value.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, ceildiv, mul
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx.data_dependent import data_symbol, record_le
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import normalize_axis


def _same_rank(ctx: OpContext, i: int, j: int) -> tuple[tuple[Dim, ...], tuple[Dim, ...]]:
    a, b = ctx.shape(i), ctx.shape(j)
    if len(a) != len(b):
        raise ctx.invalid(f"input #{i} has rank {len(a)} but input #{j} has rank {len(b)}", "the same rank")
    return a, b


@register(ONNX, "GatherElements")
def gather_elements(ctx: OpContext) -> None:
    """The output has the shape of ``indices`` (same rank as ``data``).

    https://onnx.ai/onnx/operators/onnx__GatherElements.html
    """
    data, indices = _same_rank(ctx, 0, 1)
    if not data:
        raise ctx.invalid("data is a scalar", "data of rank >= 1")
    normalize_axis(ctx, ctx.attr("axis", 0), len(data))
    elements = None
    src, idx = ctx.elements(0), ctx.const_ints(1)
    if src is not None and idx is not None and len(data) == 1 and all(-len(src) <= k < len(src) for k in idx):
        elements = tuple(src[k] for k in idx)
    ctx.set_output(0, indices, elements)


def _index_depth(ctx: OpContext, indices: tuple[Dim, ...]) -> int:
    if not indices:
        raise ctx.invalid("indices is a scalar", "indices of rank >= 1")
    k = indices[-1]
    if not isinstance(k, int):
        raise GiveUp(f"the last dim of the indices ('{k}') is not static, so the output rank is unknown")
    return k


@register(ONNX, "GatherND")
def gather_nd(ctx: OpContext) -> None:
    """``indices.shape[:-1] + data.shape[b + k:]`` with ``k = indices.shape[-1]``.

    The first ``b = batch_dims`` dims of data and indices are equal (facts).

    https://onnx.ai/onnx/operators/onnx__GatherND.html
    """
    data, indices = ctx.shape(0), ctx.shape(1)
    b = int(ctx.attr("batch_dims", 0))
    k = _index_depth(ctx, indices)
    if b < 0 or b >= min(len(data), len(indices)) or b + k > len(data):
        raise ctx.invalid(
            f"batch_dims {b} with index depth {k} does not fit data of rank {len(data)} and indices of "
            f"rank {len(indices)}",
            "0 <= batch_dims < min(rank(data), rank(indices)) and batch_dims + depth <= rank(data)",
            "fix the batch_dims attribute or the indices",
        )
    for axis in range(b):
        what = (ctx.dim_name(0, axis), ctx.dim_name(1, axis))
        ctx.eq(data[axis], indices[axis], "GatherND batch dim", what)
    ctx.set_output(0, indices[:-1] + data[b + k :])


@register(ONNX, "ScatterND")
def scatter_nd(ctx: OpContext) -> None:
    """The data's shape; ``updates.shape == indices.shape[:-1] + data.shape[k:]`` (facts).

    https://onnx.ai/onnx/operators/onnx__ScatterND.html
    """
    data = ctx.shape(0)
    ctx.set_output(0, data)  # whatever the indices: the checks below only add facts
    indices, updates = ctx.shape_or_none(1), ctx.shape_or_none(2)
    if indices is None or updates is None or (indices and not isinstance(indices[-1], int)):
        return  # the depth or a shape is unknown, so which dims updates must match is too
    k = _index_depth(ctx, indices)
    if k > len(data):
        raise ctx.invalid(
            f"index depth {k} (indices.shape[-1]) exceeds the data rank {len(data)}", f"a depth <= {len(data)}"
        )
    expected = indices[:-1] + data[k:]
    if len(updates) != len(expected):
        raise ctx.invalid(
            f"updates have rank {len(updates)}", f"{len(expected)} (rank(indices) - 1 + rank(data) - indices.shape[-1])"
        )
    q = len(indices) - 1
    for axis, want in enumerate(expected):
        src = ctx.dim_name(1, axis) if axis < q else ctx.dim_name(0, k + axis - q)
        ctx.eq(updates[axis], want, "ScatterND updates shape", (ctx.dim_name(2, axis), src))


@register(ONNX, "ScatterElements", "Scatter")
def scatter_elements(ctx: OpContext) -> None:
    """The data's shape; ``indices`` and ``updates`` have the same shape (facts).

    https://onnx.ai/onnx/operators/onnx__ScatterElements.html
    """
    data, indices = _same_rank(ctx, 0, 1)
    _, updates = _same_rank(ctx, 1, 2)
    normalize_axis(ctx, ctx.attr("axis", 0), len(data))
    for axis, (a, b) in enumerate(zip(indices, updates, strict=True)):
        ctx.eq(a, b, "scatter updates shape", (ctx.dim_name(1, axis), ctx.dim_name(2, axis)))
    ctx.set_output(0, data)


@register(ONNX, "OneHot")
def one_hot(ctx: OpContext) -> None:
    """``indices`` with a ``depth`` dim inserted at ``axis``; ``values`` holds 2 elements.

    https://onnx.ai/onnx/operators/onnx__OneHot.html
    """
    indices = ctx.shape(0)
    axis = normalize_axis(ctx, ctx.attr("axis", -1), len(indices), extra=1)
    values = ctx.shape_or_none(2)
    if values is not None and len(values) == 1:
        ctx.eq(values[0], 2, "OneHot values", (ctx.dim_name(2, 0), "2"))
    els = ctx.elements(1)
    floats = ctx.const_floats(1)  # a float depth, cast to int64 by the op
    if els is None and floats is not None and len(floats) == 1 and float(floats[0]).is_integer():
        els = (int(floats[0]),)
    depth: Dim
    if els is not None and len(els) == 1:
        depth = els[0]
        if isinstance(depth, int) and depth < 1:
            raise ctx.invalid(f"depth is {depth}", "a depth >= 1", "fix the depth input")
    else:
        depth = data_symbol(ctx, ("OneHot depth", ctx.input_name(1)), "one-hot depth")
    ctx.set_output(0, indices[:axis] + (depth,) + indices[axis:])


@register(ONNX, "TopK")
def top_k(ctx: OpContext) -> None:
    """``X`` with the ``axis`` dim replaced by ``k``; the op needs ``0 <= k <= dim`` (facts).

    ``k`` is an attribute before opset 10 and a 1-element input after; an untracked ``k``
    becomes a ``data`` symbol shared by every TopK reading the same value.
    https://onnx.ai/onnx/operators/onnx__TopK.html
    """
    dims = ctx.shape(0)
    axis = normalize_axis(ctx, ctx.attr("axis", -1), len(dims))
    k: Dim
    if not ctx.has_input(1):
        if ctx.attr("k") is None:
            raise ctx.invalid("k is missing", "k as an input (since opset 10) or an attribute (before)", "give k")
        k = int(ctx.attr("k"))
    else:
        els = ctx.elements(1)
        if els is not None and len(els) == 1:
            k = els[0]
        else:
            k = data_symbol(ctx, ("TopK k", ctx.input_name(1)), "TopK k")
    if isinstance(k, int) and k < 0:
        raise ctx.invalid(f"k is {k}", "k >= 0", "fix the k input")
    record_le(ctx, 0, k, "TopK k >= 0")
    record_le(ctx, k, dims[axis], "TopK k <= axis dim")
    out = dims[:axis] + (k,) + dims[axis + 1 :]
    ctx.set_output(0, out)
    ctx.set_output(1, out)


@register(ONNX, "ReverseSequence")
def reverse_sequence(ctx: OpContext) -> None:
    """The input's shape; ``sequence_lens`` has one entry per batch item (a fact).

    https://onnx.ai/onnx/operators/onnx__ReverseSequence.html
    """
    dims = ctx.shape(0)
    batch_axis = normalize_axis(ctx, ctx.attr("batch_axis", 1), len(dims), what="batch_axis")
    normalize_axis(ctx, ctx.attr("time_axis", 0), len(dims), what="time_axis")
    lens = ctx.shape_or_none(1)
    if lens is not None:
        ctx.require_rank(lens, 1, "sequence_lens", "a 1-D sequence_lens")
        what = (ctx.dim_name(1, 0), ctx.dim_name(0, batch_axis))
        ctx.eq(lens[0], dims[batch_axis], "sequence_lens length", what)
    ctx.set_output(0, dims)


@register("com.microsoft", "GatherBlockQuantized")
def gather_block_quantized(ctx: OpContext) -> None:
    """A Gather on the dequantized data, whose ``quantize_axis`` holds ``8 / bits`` values per
    byte when ``data`` is uint8; scales have the data's dims with that axis in blocks (facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized
    """
    data, indices = ctx.shape(0), ctx.shape(1)
    gather_axis = normalize_axis(ctx, ctx.attr("gather_axis", 0), len(data), what="gather_axis")
    quantize_axis = normalize_axis(ctx, ctx.attr("quantize_axis", 1), len(data), what="quantize_axis")
    bits, block = int(ctx.attr("bits", 4)), int(ctx.attr("block_size", 128))
    dtype = ctx.dtype(0)
    if dtype is None:
        raise GiveUp("the element type of data is unknown, so its packing is unknown")
    if bits not in (2, 4, 8) or block < 1:
        raise ctx.invalid(
            f"bits {bits} / block_size {block} are not supported values",
            "bits in (2, 4, 8) and block_size >= 1",
            "fix the bits and block_size attributes",
        )
    logical = list(data)
    if dtype == "uint8":
        logical[quantize_axis] = mul(data[quantize_axis], 8 // bits)
    scales = ctx.shape_or_none(2)
    if scales is not None and len(scales) == len(data):
        for axis, d in enumerate(logical):
            want = ceildiv(d, block) if axis == quantize_axis else d
            ctx.eq(scales[axis], want, "GatherBlockQuantized scales", (ctx.dim_name(2, axis), f"dim {axis} in blocks"))
    ctx.set_output(0, logical[:gather_axis] + list(indices) + logical[gather_axis + 1 :])
