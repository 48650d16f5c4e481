"""StableHLO and MHLO: batch norm, random numbers, FFT, linear algebra, select_and_scatter and
the collective ops (the common ops live in `symshape.rules.hlo.elementwise`, `.reshape`, `.core`).

The spec's shape constraints on operands are facts (the verifier rejects the op otherwise);
a collective op's process-group size is read only from a static ``replica_groups`` whose
grouping strategy makes it the group size, otherwise the declared result type is used.
https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, floordiv, mul
from symshape.engine.context import OpContext
from symshape.rules.hlo.reshape import shape_operand
from symshape.rules.hlo.table import hlo_rule
from symshape.rules.shared.mlir_common import declared_dims, dim_number, enum_word, field_ints, ints, same_shapes


def _int_attr(ctx: OpContext, name: str, default: int | None = None) -> int:
    got = ints(ctx, name, None if default is None else [default])
    if not got:
        raise ctx.invalid(f"integer attribute '{name}' is missing", "an integer attribute")
    return got[0]


def _vector(ctx: OpContext, i: int, size: Dim, what: str) -> None:
    """Input ``i`` is 1-D of length ``size`` (a fact)."""
    dims = ctx.shape(i)
    ctx.require_rank(dims, 1, f"{what} (operand #{i})", "a 1-D operand")
    ctx.eq(dims[0], size, f"batch norm {what} size", (ctx.dim_name(i, 0), "the feature dim of the operand"))


def _feature(ctx: OpContext) -> tuple[tuple[Dim, ...], Dim]:
    dims = ctx.shape(0)
    axis = dim_number(ctx, "feature_index", len(dims))
    return dims, dims[axis]


@hlo_rule("batch_norm_inference")
def batch_norm_inference(ctx: OpContext) -> None:
    """The operand's shape; scale, offset, mean and variance have the feature dim's size (facts).

    https://openxla.org/stablehlo/spec#batch_norm_inference
    """
    dims, feature = _feature(ctx)
    for i, what in ((1, "scale"), (2, "offset"), (3, "mean"), (4, "variance")):
        _vector(ctx, i, feature, what)
    ctx.set_output(0, dims)


@hlo_rule("batch_norm_training")
def batch_norm_training(ctx: OpContext) -> None:
    """The operand's shape, then the batch mean and variance of the feature dim's size.

    https://openxla.org/stablehlo/spec#batch_norm_training
    """
    dims, feature = _feature(ctx)
    for i, what in ((1, "scale"), (2, "offset")):
        _vector(ctx, i, feature, what)
    ctx.set_output(0, dims)
    ctx.set_output(1, (feature,))
    ctx.set_output(2, (feature,))


@hlo_rule("batch_norm_grad")
def batch_norm_grad(ctx: OpContext) -> None:
    """``grad_output`` has the operand's shape, scale/mean/variance the feature dim's (facts);
    the results are the operand's shape and two feature vectors.

    https://openxla.org/stablehlo/spec#batch_norm_grad
    """
    dims, feature = _feature(ctx)
    for i, what in ((1, "scale"), (2, "mean"), (3, "variance")):
        _vector(ctx, i, feature, what)
    dims = same_shapes(ctx, [0, 4], "batch_norm_grad grad_output")
    ctx.set_output(0, dims)
    ctx.set_output(1, (feature,))
    ctx.set_output(2, (feature,))


@hlo_rule("rng")
def rng(ctx: OpContext) -> None:
    """Dims from the tracked ``shape`` operand. https://openxla.org/stablehlo/spec#rng"""
    ctx.set_output(0, shape_operand(ctx, 2))


@hlo_rule("rng_bit_generator")
def rng_bit_generator(ctx: OpContext) -> None:
    """The new state has the initial state's shape; the output its declared (static) shape.

    https://openxla.org/stablehlo/spec#rng_bit_generator
    """
    ctx.set_output(0, ctx.shape(0))
    ctx.set_output(1, declared_dims(ctx, 1))


def _half_plus_one(n: Dim) -> Dim:
    """``n == 0 ? 0 : n / 2 + 1`` for a static ``n``; the caller only passes ints."""
    return 0 if n == 0 else floordiv(n, 2) + 1


@hlo_rule("fft")
def fft(ctx: OpContext) -> None:
    """The operand's shape, except RFFT halves the last dim (``n/2 + 1``) and IRFFT restores
    ``fft_length``; the real side's trailing dims equal ``fft_length`` (facts).

    https://openxla.org/stablehlo/spec#fft
    """
    dims = ctx.shape(0)
    lengths = ints(ctx, "fft_length", []) or []
    kind = enum_word(ctx.attr("fft_type", "FFT")).upper()
    if not 1 <= len(lengths) <= min(3, len(dims)):
        raise ctx.invalid(
            f"fft_length {lengths} does not fit an operand of rank {len(dims)}", f"1 to {min(3, len(dims))} lengths"
        )
    lead = len(dims) - len(lengths)
    out = list(dims)
    if kind == "RFFT":
        for a, n in enumerate(lengths):
            ctx.eq(dims[lead + a], n, "fft_length", (ctx.dim_name(0, lead + a), f"fft_length[{a}] = {n}"))
        out[lead:] = [*lengths[:-1], _half_plus_one(lengths[-1])]
    elif kind == "IRFFT":
        # An fft_length of 0 fits any last operand dim: jax's irfft of a length-1 axis emits
        # fft_length 0 on an operand of 1, which StableHLO runs (the spec's table says 0).
        want = [*lengths[:-1], _half_plus_one(lengths[-1])] if lengths[-1] else lengths[:-1]
        for a, n in enumerate(want):
            ctx.eq(dims[lead + a], n, "fft_length", (ctx.dim_name(0, lead + a), f"IRFFT input size {n}"))
        out[lead:] = lengths
    ctx.set_output(0, out)


@hlo_rule("cholesky")
def cholesky(ctx: OpContext) -> None:
    """The operand's shape; its matrices are square (a fact). https://openxla.org/stablehlo/spec#cholesky"""
    dims = ctx.shape(0)
    if len(dims) < 2:
        raise ctx.invalid(f"an operand of rank {len(dims)}", "rank >= 2 (a batch of square matrices)")
    ctx.eq(dims[-1], dims[-2], "square matrix", (ctx.dim_name(0, len(dims) - 1), ctx.dim_name(0, len(dims) - 2)))
    ctx.set_output(0, dims)


@hlo_rule("triangular_solve")
def triangular_solve(ctx: OpContext) -> None:
    """``b``'s shape; ``a`` is square, shares ``b``'s batch dims, and its size is ``b``'s
    dim -2 (left side) or -1 (facts). https://openxla.org/stablehlo/spec#triangular_solve
    """
    a, b = ctx.shape(0), ctx.shape(1)
    r = len(a)
    if r < 2 or len(b) != r:
        raise ctx.invalid(f"a and b have ranks {r} and {len(b)}", "one rank >= 2 for both")
    for axis in range(r - 2):
        ctx.eq(b[axis], a[axis], "triangular_solve batch dim", (ctx.dim_name(1, axis), ctx.dim_name(0, axis)))
    ctx.eq(a[r - 1], a[r - 2], "square matrix", (ctx.dim_name(0, r - 1), ctx.dim_name(0, r - 2)))
    side = r - 2 if ctx.attr("left_side") else r - 1
    ctx.eq(b[side], a[r - 1], "triangular_solve size", (ctx.dim_name(1, side), ctx.dim_name(0, r - 1)))
    ctx.set_output(0, tuple(ctx.canon(d) for d in b))


@hlo_rule("select_and_scatter")
def select_and_scatter(ctx: OpContext) -> None:
    """The operand's shape. https://openxla.org/stablehlo/spec#select_and_scatter"""
    ctx.set_output(0, ctx.shape(0))


@hlo_rule("all_reduce", "collective_permute", "collective_broadcast", "cross-replica-sum")
def same_as_operand(ctx: OpContext) -> None:
    """Result ``i`` has operand ``i``'s shape. https://openxla.org/stablehlo/spec#all_reduce"""
    for i in range(ctx.num_outputs):
        ctx.set_output(i, ctx.shape(i))


def group_size(ctx: OpContext) -> int | None:
    """``dim(process_groups, 1)`` when it is ``replica_groups``' row length: the cross_replica
    and flattened_ids strategies (cross_replica_and_partition multiplies by the partitions)."""
    groups = ctx.attr("replica_groups")
    shape = getattr(groups, "dims", None)
    if shape is None or len(shape) != 2 or shape[1] < 1:
        return None
    handle = ctx.attr("channel_handle")
    channel = (field_ints(handle, "handle") or [0])[0] if handle is not None else 0
    if channel > 0 and not ctx.attr("use_global_device_ids"):
        return None
    return shape[1]


@hlo_rule("all_gather")
def all_gather(ctx: OpContext) -> None:
    """``all_gather_dim`` grows by the group size when ``replica_groups`` gives it (else it is
    the declared dim); the other dims are the operand's.

    https://openxla.org/stablehlo/spec#all_gather
    """
    k = group_size(ctx)
    for i in range(ctx.num_outputs):
        dims = list(ctx.shape(i))
        axis = dim_number(ctx, "all_gather_dim", len(dims))
        dims[axis] = declared_dims(ctx, i)[axis] if k is None else ctx.canon(mul(dims[axis], k))
        ctx.set_output(i, dims)


def _split(ctx: OpContext, d: Dim, k: int, what: str) -> Dim:
    """``d / k`` where ``k`` divides ``d`` (a fact of the op)."""
    ctx.assume_divisible(d, k, what)
    return ctx.canon(floordiv(d, k))


@hlo_rule("reduce_scatter")
def reduce_scatter(ctx: OpContext) -> None:
    """``scatter_dimension`` shrinks by the group size, which divides it (a fact); the declared
    dim when the group size is unknown. The other dims are the operand's.

    https://openxla.org/stablehlo/spec#reduce_scatter
    """
    k = group_size(ctx)
    dims = list(ctx.shape(0))
    axis = dim_number(ctx, "scatter_dimension", len(dims))
    if k is None:
        dims[axis] = declared_dims(ctx)[axis]
    else:
        dims[axis] = _split(ctx, dims[axis], k, "reduce_scatter divisibility")
    ctx.set_output(0, dims)


@hlo_rule("all_to_all")
def all_to_all(ctx: OpContext) -> None:
    """``split_dimension`` divided by ``split_count`` (which divides it: a fact),
    ``concat_dimension`` multiplied by it. https://openxla.org/stablehlo/spec#all_to_all
    """
    count = _int_attr(ctx, "split_count")
    if count < 1:
        raise ctx.invalid(f"split_count is {count}", "a positive split_count")
    for i in range(ctx.num_outputs):
        dims = list(ctx.shape(i))
        split = dim_number(ctx, "split_dimension", len(dims))
        concat = dim_number(ctx, "concat_dimension", len(dims))
        dims[split] = _split(ctx, dims[split], count, "all_to_all divisibility")
        dims[concat] = ctx.canon(mul(dims[concat], count))
        ctx.set_output(i, dims)
