"""StableHLO and MHLO constants, iota, concatenation, dimension sizes, slices and padding.

Small integer tensors (shape tensors, the scalars ``get_dimension_size`` makes) have their
values tracked. Elementwise ops live in `symshape.rules.hlo.elementwise`, broadcasts and
reshapes in `symshape.rules.hlo.reshape`, contractions, reductions, convolution, gather and
``custom_call`` in `symshape.rules.hlo.contract`. https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul, smax
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import MAX_TRACKED
from symshape.rules.hlo.reshape import shape_operand
from symshape.rules.hlo.table import hlo_rule
from symshape.rules.shared.mlir_common import (
    at_least_zero,
    declared_dims,
    dim_number,
    elements_or_unknowns,
    ints,
    same_dim,
    span_length,
)


@hlo_rule("constant")
def constant(ctx: OpContext) -> None:
    """The ``value`` attribute's dims and (small integer) contents.

    https://openxla.org/stablehlo/spec#constant
    """
    value = ctx.attr("value")
    dims = getattr(value, "dims", None)
    if dims is None:
        ctx.set_output(0, declared_dims(ctx))
        return
    ctx.set_output(0, dims, getattr(value, "values", None))


@hlo_rule("iota")
def iota(ctx: OpContext) -> None:
    """The declared result shape (static). https://openxla.org/stablehlo/spec#iota"""
    dims = declared_dims(ctx)
    axis = dim_number(ctx, "iota_dimension", len(dims), 0)
    out = None
    if len(dims) == 1 and isinstance(dims[0], int) and dims[0] <= MAX_TRACKED and axis == 0:
        out = tuple(range(dims[0]))
    ctx.set_output(0, dims, out)


@hlo_rule("dynamic_iota")
def dynamic_iota(ctx: OpContext) -> None:
    """Dims from the tracked ``output_shape`` operand. https://openxla.org/stablehlo/spec#dynamic_iota"""
    dims = shape_operand(ctx, 0)
    dim_number(ctx, "iota_dimension", len(dims), 0)
    ctx.set_output(0, dims)


@hlo_rule("concatenate")
def concatenate(ctx: OpContext) -> None:
    """Sum along ``dimension``; every other dim is equal across operands (a fact).

    https://openxla.org/stablehlo/spec#concatenate
    """
    shapes = [ctx.shape(i) for i in range(ctx.num_inputs)]
    rank = len(shapes[0])
    axis = dim_number(ctx, "dimension", rank, 0)
    out = list(shapes[0])
    total: Dim = 0
    for i, s in enumerate(shapes):
        if len(s) != rank:
            ctx.require_rank(s, rank, f"operand #{i}", f"rank {rank} (the rank of operand #0)")
        total = add(total, s[axis])
        for a in range(rank):
            if a != axis and not same_dim(ctx, s[a], out[a]):
                ctx.eq(s[a], out[a], "concatenate non-axis dim", (ctx.dim_name(i, a), ctx.dim_name(0, a)))
    out[axis] = ctx.canon(total)
    parts = [elements_or_unknowns(ctx, i) for i in range(ctx.num_inputs)]
    joined = axis == 0 and all(p is not None for p in parts)  # row-major: axis 0 appends the contents
    values = tuple(e for p in parts for e in (p or ())) if joined else None
    ctx.set_output(0, out, values)


@hlo_rule("get_dimension_size")
def get_dimension_size(ctx: OpContext) -> None:
    """A scalar holding dim ``dimension``. https://openxla.org/stablehlo/spec#get_dimension_size"""
    dims = ctx.shape(0)
    axis = dim_number(ctx, "dimension", len(dims), 0)
    ctx.set_output(0, (), (dims[axis],))


@hlo_rule("slice")
def slice_op(ctx: OpContext) -> None:
    """``ceil((limit - start) / stride)`` per dim; ``0 <= start <= limit <= dim`` is required
    (facts). https://openxla.org/stablehlo/spec#slice
    """
    dims = ctx.shape(0)
    starts = ints(ctx, "start_indices", []) or []
    limits = ints(ctx, "limit_indices", []) or []
    strides = ints(ctx, "strides", [1] * len(starts)) or []
    if not len(starts) == len(limits) == len(strides) == len(dims):
        raise ctx.invalid(
            f"start/limit/strides have {len(starts)}/{len(limits)}/{len(strides)} entries",
            f"one entry per dim ({len(dims)})",
        )
    out: list[Dim] = []
    for axis, (d, s, lim, k) in enumerate(zip(dims, starts, limits, strides, strict=True)):
        at_least_zero(ctx, add(d, -lim), "slice limit <= dim")
        out.append(span_length(ctx, s, lim, k, axis))
    src = ctx.elements(0)
    values = None
    if src is not None and len(dims) == 1 and isinstance(out[0], int):
        values = tuple(src[starts[0] + i * strides[0]] for i in range(out[0]))
    ctx.set_output(0, out, values)


@hlo_rule("real_dynamic_slice")
def real_dynamic_slice(ctx: OpContext) -> None:
    """Lengths from the tracked ``start``/``limit``/``strides`` operands (seed 000's
    ``%in[:, 1:]`` keeps dim 0). https://openxla.org/stablehlo/spec#real_dynamic_slice
    """
    dims = ctx.shape(0)
    start, limit, strides = (elements_or_unknowns(ctx, i) for i in (1, 2, 3))
    if start is None or limit is None or strides is None:
        ctx.set_output(0, declared_dims(ctx))
        return
    if not len(start) == len(limit) == len(strides) == len(dims):
        raise ctx.invalid(
            f"start/limit/strides have {len(start)}/{len(limit)}/{len(strides)} values",
            f"{len(dims)} values each (one per dim)",
        )
    declared: tuple[Dim, ...] | None = None
    out: list[Dim] = []
    for a, (s, lim, k) in enumerate(zip(start, limit, strides, strict=True)):
        try:
            out.append(span_length(ctx, s, lim, k, a))
        except GiveUp:  # an unknown stride on this axis: only this dim is the declared one
            declared = declared if declared is not None else declared_dims(ctx)
            out.append(declared[a])
    ctx.set_output(0, out)


@hlo_rule("dynamic_slice")
def dynamic_slice(ctx: OpContext) -> None:
    """``slice_sizes`` (start indices are clamped); each size is at most its dim (a fact).

    https://openxla.org/stablehlo/spec#dynamic_slice
    """
    dims = ctx.shape(0)
    sizes = ints(ctx, "slice_sizes", []) or []
    ctx.require_len(sizes, len(dims), "{got} slice sizes for rank {n}", "{n} slice sizes (one per dim)")
    for d, s in zip(dims, sizes, strict=True):
        at_least_zero(ctx, add(d, -s), "slice size <= dim")
    ctx.set_output(0, sizes)


@hlo_rule("dynamic_update_slice")
def dynamic_update_slice(ctx: OpContext) -> None:
    """The operand's shape. https://openxla.org/stablehlo/spec#dynamic_update_slice"""
    ctx.set_output(0, ctx.shape(0))


def _padded(
    ctx: OpContext, dims: tuple[Dim, ...], low: tuple[Dim, ...], high: tuple[Dim, ...], interior: tuple[Dim, ...]
) -> list[Dim]:
    if not len(low) == len(high) == len(interior) == len(dims):
        raise ctx.invalid(
            f"low/high/interior padding have {len(low)}/{len(high)}/{len(interior)} values",
            f"{len(dims)} values each (one per dim)",
        )
    out: list[Dim] = []
    for d, lo, hi, inner in zip(dims, low, high, interior, strict=True):
        grown = add(add(d, lo), hi)
        if not (isinstance(inner, int) and inner == 0):
            grown = add(grown, mul(smax(add(d, -1), 0), inner))
        out.append(ctx.canon(grown))
    return out


@hlo_rule("pad")
def pad(ctx: OpContext) -> None:
    """``low + dim + high + interior * max(dim - 1, 0)``. https://openxla.org/stablehlo/spec#pad"""
    dims = ctx.shape(0)
    lo = tuple(ints(ctx, "edge_padding_low", []) or [])
    hi = tuple(ints(ctx, "edge_padding_high", []) or [])
    inner = tuple(ints(ctx, "interior_padding", [0] * len(dims)) or [])
    ctx.set_output(0, _padded(ctx, dims, lo, hi, inner))


@hlo_rule("dynamic_pad")
def dynamic_pad(ctx: OpContext) -> None:
    """As ``pad`` with the paddings from tracked operands 2-4 (seed 000: unpadded axes keep
    their size). https://github.com/tensorflow/mlir-hlo (mhlo.dynamic_pad)
    """
    dims = ctx.shape(0)
    parts = [ctx.elements(i) for i in (2, 3, 4)]
    if any(p is None for p in parts):
        ctx.set_output(0, declared_dims(ctx))
        return
    lo, hi, inner = (p or () for p in parts)
    ctx.set_output(0, _padded(ctx, dims, lo, hi, inner))
