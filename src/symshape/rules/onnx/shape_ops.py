"""Ops that move dims around as values (seed 004): Shape, Size, Constant, ConstantOfShape,
Gather, Unsqueeze, Squeeze, Concat, Split, Range (Slice has its own module).

Each keeps the elements of small integer tensors, so a shape read with ``Shape`` and cut,
gathered and concatenated arrives at ``Reshape``/``Expand`` as exact expressions.
"""

from __future__ import annotations

import numpy as np

from symshape.algebra.expr import Dim, add, ceildiv, exact_div, floordiv, mul, product
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.nonneg import prove_nonneg
from symshape.engine.program import MAX_TRACKED, ConstTensor
from symshape.rules.onnx.partial import set_partial
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import (
    axes_input_or_attr,
    element_array,
    flat,
    normalize_axis,
    split_elements,
    static,
)


@register(ONNX, "Shape")
def shape_op(ctx: OpContext) -> None:
    """A 1-D tensor of the input's dims, optionally ``[start:end]`` (opset 15).

    https://onnx.ai/onnx/operators/onnx__Shape.html
    """
    dims = ctx.shape(0)
    rank = len(dims)
    start = ctx.attr("start", 0)
    end = ctx.attr("end", rank)
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    picked = dims[start:end] if end > start else ()
    ctx.set_output(0, (len(picked),), picked)


@register(ONNX, "Size")
def size_op(ctx: OpContext) -> None:
    """A scalar holding the element count. https://onnx.ai/onnx/operators/onnx__Size.html"""
    ctx.set_output(0, (), (ctx.canon(product(ctx.shape(0))),))


@register(ONNX, "Constant")
def constant(ctx: OpContext) -> None:
    """The tensor in ``value`` (or ``value_int(s)``/``value_float(s)``).

    https://onnx.ai/onnx/operators/onnx__Constant.html
    """
    value = ctx.attr("value")
    if isinstance(value, ConstTensor):
        ctx.set_output(0, value.dims, value.values)
        if value.floats is not None:
            ctx.set_output_floats(0, value.floats)
    elif "value_int" in ctx.op.attrs:
        ctx.set_output(0, (), (int(ctx.attr("value_int")),))
    elif "value_ints" in ctx.op.attrs:
        ints = [int(x) for x in ctx.attr("value_ints")]
        ctx.set_output(0, (len(ints),), tuple(ints))
    elif "value_float" in ctx.op.attrs:
        ctx.set_output(0, ())
        ctx.set_output_floats(0, (float(ctx.attr("value_float")),))
    elif "value_floats" in ctx.op.attrs:
        floats = tuple(float(x) for x in ctx.attr("value_floats"))
        ctx.set_output(0, (len(floats),))
        ctx.set_output_floats(0, floats)
    else:
        raise GiveUp("Constant with a sparse or string value")


@register(ONNX, "ConstantOfShape")
def constant_of_shape(ctx: OpContext) -> None:
    """A tensor whose shape is the elements of input 0.

    https://onnx.ai/onnx/operators/onnx__ConstantOfShape.html
    """
    dims = shape_from_elements(ctx, 0)
    value = ctx.attr("value")
    fill = value.values[0] if isinstance(value, ConstTensor) and value.values else None
    elements = None
    if fill is not None and all(isinstance(d, int) for d in dims):
        n = product(dims)
        if isinstance(n, int) and n <= MAX_TRACKED:
            elements = (fill,) * n
    ctx.set_output(0, dims, elements)


def shape_from_elements(ctx: OpContext, i: int) -> tuple[Dim, ...]:
    """Dims given as the elements of input ``i``; fresh symbols when only the rank is known."""
    els = ctx.elements(i)
    if els is not None:
        for k, e in enumerate(els):
            if isinstance(e, int) and e < 0:
                raise ctx.invalid(f"shape element {k} (input #{i}) is {e}", "dims >= 0", "fix the shape input")
        return els
    shape = ctx.shape(i)
    if len(shape) != 1 or not isinstance(shape[0], int):
        raise GiveUp("the shape input has unknown length")
    return tuple(ctx.fresh(f"shape{k}") for k in range(shape[0]))


@register(ONNX, "Gather")
def gather(ctx: OpContext) -> None:
    """``data[:axis] + indices.shape + data[axis+1:]``; elements picked when indices are known.

    https://onnx.ai/onnx/operators/onnx__Gather.html
    """
    data = ctx.shape(0)
    indices = ctx.shape(1)
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(data))
    out = data[:axis] + indices + data[axis + 1 :]
    idx = ctx.const_ints(1)
    if idx and not isinstance(data[axis], int):  # known indices must be in bounds: the program's fact
        ctx.assume_range(data[axis], max(max(idx) + 1, -min(idx)), None, "gather indices in bounds")
    ctx.set_output(0, out, _gather_elements(ctx, axis))


def _gather_elements(ctx: OpContext, axis: int) -> tuple[Dim, ...] | None:
    """Gathered tracked elements when the data layout and the indices are known."""
    idx = ctx.const_ints(1)
    vector = ctx.elements(0)
    if idx is not None and vector is not None and len(ctx.shape(0)) == 1:  # the common case
        n = len(vector)
        return tuple(vector[k] for k in idx) if all(-n <= k < n for k in idx) else None
    src = element_array(ctx, 0)
    indices = static(ctx.shape(1))
    if src is None or idx is None or indices is None:
        return None
    n = src.shape[axis]
    if not all(-n <= k < n for k in idx):
        return None
    picked = np.array([k + n if k < 0 else k for k in idx], dtype=np.int64).reshape(indices)
    return flat(np.take(src, picked, axis=axis))


@register(ONNX, "Unsqueeze")
def unsqueeze(ctx: OpContext) -> None:
    """Insert 1s at ``axes`` (attribute before opset 13, input after).

    https://onnx.ai/onnx/operators/onnx__Unsqueeze.html
    """
    dims = list(ctx.shape(0))
    k = _unknown_axes_count(ctx)
    if k is not None:  # the axes are computed: rank r + k, and all 1s when every dim is 1
        ones = all(isinstance(d, int) and d == 1 for d in dims)
        set_partial(ctx, 0, [1 if ones else None] * (len(dims) + k), "unsqueeze", "the axes are not known")
        return
    axes = axes_input_or_attr(ctx, 1)
    if axes is None:
        raise ctx.invalid(
            "axes are missing", "axes as an input (since opset 13) or an attribute (before)", "give the axes"
        )
    rank = len(dims) + len(axes)
    for a in sorted(normalize_axis(ctx, a, rank, what="axes entry") for a in axes):
        dims.insert(a, 1)
    ctx.set_output(0, dims, ctx.elements(0))


@register(ONNX, "Squeeze")
def squeeze(ctx: OpContext) -> None:
    """Drop the listed axes (each must be 1: a fact), or every dim that is 1.

    https://onnx.ai/onnx/operators/onnx__Squeeze.html
    """
    dims = ctx.shape(0)
    k = _unknown_axes_count(ctx)
    if k is not None:
        _squeeze_unknown_axes(ctx, dims, k)
        return
    axes = axes_input_or_attr(ctx, 1)
    if axes is None:
        keep: list[Dim] = []
        for d in dims:
            if isinstance(d, int):
                if d != 1:
                    keep.append(d)
            elif ctx.facts.prove_eq(d, 1):
                continue
            else:
                ctx.guard(d, "!=", 1, "squeeze", "Squeeze without axes keeps a dim that may be 1")
                keep.append(d)
        ctx.set_output(0, keep, ctx.elements(0))
        return
    drop = {normalize_axis(ctx, a, len(dims), what="axes entry") for a in axes}
    for a in sorted(drop):
        ctx.eq(dims[a], 1, "squeezed axis", (ctx.dim_name(0, a), "1"))
    ctx.set_output(0, [d for i, d in enumerate(dims) if i not in drop], ctx.elements(0))


def _unknown_axes_count(ctx: OpContext) -> int | None:
    """How many axes an axes input of unknown values holds (None: known values, or no such input);
    gives up when the count is unknown too."""
    if not ctx.has_input(1) or ctx.elements(1) is not None:
        return None
    shape = ctx.shape(1)
    if len(shape) != 1 or not isinstance(shape[0], int):
        raise GiveUp("the axes input's values and length are unknown", unknown_input=1)
    return shape[0]


def _squeeze_unknown_axes(ctx: OpContext, dims: tuple[Dim, ...], k: int) -> None:
    """Squeeze ``k`` axes of unknown position: each must be 1, so only a dim that may be 1 is a
    candidate. With exactly ``k`` candidates they are the axes; otherwise the dims before the first
    candidate and after the last keep their place, and the rest are fresh."""
    maybe_one = [a for a, d in enumerate(dims) if not (isinstance(d, int) and d != 1) and not ctx.prove_ge(d, 2)]
    if k > len(maybe_one):
        raise ctx.invalid(f"{k} axes to squeeze but only {len(maybe_one)} dims may be 1", "squeezed axes of size 1")
    if k == len(maybe_one):
        for a in maybe_one:
            ctx.eq(dims[a], 1, "squeezed axis", (ctx.dim_name(0, a), "1"))
        ctx.set_output(0, [d for a, d in enumerate(dims) if a not in maybe_one], ctx.elements(0))
        return
    rank = len(dims) - k
    out: list[Dim | None] = [None] * rank
    first, tail = (maybe_one[0], len(dims) - 1 - maybe_one[-1]) if maybe_one else (len(dims), 0)
    for a in range(min(first, rank)):
        out[a] = dims[a]
    for j in range(1, min(tail, rank) + 1):
        out[rank - j] = dims[len(dims) - j]
    set_partial(ctx, 0, out, "squeeze", "the axes are not known")


@register(ONNX, "Concat")
def concat(ctx: OpContext) -> None:
    """Sum along ``axis``; every other dim is equal across inputs (a fact).

    https://onnx.ai/onnx/operators/onnx__Concat.html
    """
    shapes = [(i, ctx.shape(i)) for i in range(ctx.num_inputs) if ctx.has_input(i)]
    if not shapes:
        raise ctx.invalid("no inputs", "at least one input to concatenate", "give the Concat its inputs")
    rank = len(shapes[0][1])
    axis = normalize_axis(ctx, ctx.attr("axis", 0), rank)
    out = list(shapes[0][1])
    total: Dim = 0
    for i, s in shapes:
        ctx.require_rank(s, rank, f"input #{i}", f"{rank}, the rank of input #{shapes[0][0]}")
        total = add(total, s[axis])
        for a in range(rank):
            if a != axis:
                ctx.eq(s[a], out[a], "concat non-axis dim", (ctx.dim_name(i, a), ctx.dim_name(shapes[0][0], a)))
    out[axis] = total
    ctx.set_output(0, out, _concat_elements(ctx, [i for i, _ in shapes], axis))


def _concat_elements(ctx: OpContext, inputs: list[int], axis: int) -> tuple[Dim, ...] | None:
    parts = [ctx.elements(i) for i in inputs]
    if any(p is None for p in parts):
        return None
    if axis == 0 or all(len(p or ()) == 0 for p in parts):
        return tuple(e for p in parts for e in (p or ()))  # row-major: axis 0 blocks follow each other
    arrays = [element_array(ctx, i) for i in inputs]
    if any(a is None for a in arrays):
        return None
    return flat(np.concatenate([a for a in arrays if a is not None], axis=axis))


def _num_outputs_sizes(ctx: OpContext, total: Dim, n: int) -> tuple[Dim, ...]:
    """Opset 18's ``num_outputs``: chunks of ``ceil(total / n)``, the last one what is left."""
    if ctx.attr("num_outputs") != n:
        raise ctx.invalid(
            f"num_outputs = {ctx.attr('num_outputs')} with {n} outputs",
            "num_outputs equal to the number of outputs",
            "fix num_outputs or the node's outputs",
        )
    chunk = ceildiv(total, n)
    last = ctx.canon(add(total, mul(chunk, -(n - 1))))
    if not prove_nonneg(ctx, last):
        ctx.guard(last, ">=", 0, "split", "the last of the num_outputs chunks has a size >= 0")
    return (chunk,) * (n - 1) + (last,)


@register(ONNX, "Split")
def split(ctx: OpContext) -> None:
    """Pieces along ``axis``: explicit sizes, ``num_outputs`` (opset 18), or equal parts.

    https://onnx.ai/onnx/operators/onnx__Split.html
    """
    dims = ctx.shape(0)
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(dims))
    n = ctx.num_outputs
    total = dims[axis]
    sizes: tuple[Dim, ...]
    if ctx.has_input(1) and ctx.elements(1) is None:
        known = n == 1 or ctx.prove_eq(total, 0) is True  # one piece, or pieces of an empty dim
        for i in range(n):  # sizes computed at run time: only the split dim is unknown
            out: list[Dim | None] = list(dims)
            out[axis] = (total if n == 1 else 0) if known else None
            set_partial(ctx, i, out, "split", "the split sizes are not known")
        return
    if ctx.has_input(1):
        sizes = ctx.require_elements(1)
    elif ctx.attr("split") is not None:
        sizes = tuple(ctx.attr("split"))
    elif ctx.attr("num_outputs") is not None:
        sizes = _num_outputs_sizes(ctx, total, n)
    else:
        ctx.assume_divisible(total, n, "equal split")
        part = exact_div(ctx.canon(total), n)
        sizes = (part if part is not None else floordiv(total, n),) * n
    ctx.require_len(sizes, n, "{got} split sizes for {n} outputs", "{n} split sizes (one per output)")
    if ctx.has_input(1) or ctx.attr("split") is not None:
        ctx.eq(add(0, sum_dims(sizes)), total, "split sizes sum", ("the sum of split sizes", ctx.dim_name(0, axis)))
    pieces = split_elements(ctx, axis, sizes)
    for i, size in enumerate(sizes):
        piece = list(dims)
        piece[axis] = ctx.canon(size)
        ctx.set_output(i, piece, None if pieces is None else pieces[i])


def sum_dims(dims: tuple[Dim, ...]) -> Dim:
    """The sum of ``dims``."""
    total: Dim = 0
    for d in dims:
        total = add(total, d)
    return total
