"""StableHLO and MHLO contractions, reductions, convolution, gather, and ``custom_call``.

The contracted and batch dims of a valid op are equal (facts); jax's ``shape_assertion``
custom call records its checked condition as a fact, since the program stops otherwise.
https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

import re

from symshape.algebra.expr import Dim, add, floordiv, mul, smax
from symshape.engine.context import GiveUp, OpContext
from symshape.errors import ContradictionError
from symshape.rules.hlo.table import hlo_rule
from symshape.rules.shared.mlir_common import (
    assert_condition,
    at_least_zero,
    dim_numbers,
    field_ints,
    ints,
    same_shapes,
)


def _contract(
    ctx: OpContext, lhs: tuple[Dim, ...], rhs: tuple[Dim, ...], pairs: list[tuple[int, int]], rule: str
) -> None:
    for a, b in pairs:
        if not (0 <= a < len(lhs) and 0 <= b < len(rhs)):
            raise ctx.invalid(
                f"{rule} dims ({a}, {b}) are out of range for ranks {len(lhs)}, {len(rhs)}",
                f"dims in [0, {len(lhs) - 1}] and [0, {len(rhs) - 1}]",
            )
        ctx.eq(rhs[b], lhs[a], rule, (ctx.dim_name(1, b), ctx.dim_name(0, a)))


@hlo_rule("dot")
def dot(ctx: OpContext) -> None:
    """Vector/matrix products: the contracted dims are equal. https://openxla.org/stablehlo/spec#dot"""
    lhs, rhs = ctx.shape(0), ctx.shape(1)
    if not (1 <= len(lhs) <= 2 and 1 <= len(rhs) <= 2):
        raise ctx.invalid(f"operands of ranks {len(lhs)} and {len(rhs)}", "rank-1 or rank-2 operands")
    _contract(ctx, lhs, rhs, [(len(lhs) - 1, 0)], "contraction")
    ctx.set_output(0, (*lhs[:-1], *rhs[1:]))


@hlo_rule("dot_general")
def dot_general(ctx: OpContext) -> None:
    """Batch dims, then lhs free dims, then rhs free dims; batch and contracted dims are equal.

    https://openxla.org/stablehlo/spec#dot_general
    """
    lhs, rhs = ctx.shape(0), ctx.shape(1)
    numbers = ctx.attr("dot_dimension_numbers")
    lb, rb = field_ints(numbers, "lhs_batching_dimensions"), field_ints(numbers, "rhs_batching_dimensions")
    lc, rc = field_ints(numbers, "lhs_contracting_dimensions"), field_ints(numbers, "rhs_contracting_dimensions")
    if len(lb) != len(rb) or len(lc) != len(rc):
        raise ctx.invalid(
            f"{len(lb)}/{len(rb)} batching and {len(lc)}/{len(rc)} contracting dims (lhs/rhs)",
            "lhs and rhs lists of equal length",
        )
    _contract(ctx, lhs, rhs, list(zip(lb, rb, strict=True)), "batch dim")
    _contract(ctx, lhs, rhs, list(zip(lc, rc, strict=True)), "contraction")
    out = [lhs[a] for a in lb]
    out += [d for a, d in enumerate(lhs) if a not in lb and a not in lc]
    out += [d for a, d in enumerate(rhs) if a not in rb and a not in rc]
    ctx.set_output(0, out)


@hlo_rule("einsum", "unary_einsum")
def einsum(ctx: OpContext) -> None:
    """Equal letters are equal dims (facts). https://github.com/openxla/stablehlo (einsum)"""
    config = str(ctx.attr("einsum_config", "")).replace(" ", "")
    lhs, _, rhs = config.partition("->")
    terms = lhs.split(",")
    if len(terms) != ctx.num_inputs or "." in config:
        raise GiveUp(f"einsum config '{config}' is not supported")
    sizes: dict[str, Dim] = {}
    for i, term in enumerate(terms):
        shape = ctx.shape(i)
        if len(term) != len(shape):
            raise ctx.invalid(
                f"term '{term}' does not match the rank {len(shape)} of operand #{i}", f"{len(shape)} letters"
            )
        for axis, (letter, d) in enumerate(zip(term, shape, strict=True)):
            if letter in sizes:
                ctx.eq(d, sizes[letter], f"einsum label '{letter}'", (ctx.dim_name(i, axis), f"label '{letter}'"))
            else:
                sizes[letter] = d
    ctx.set_output(0, [sizes[c] for c in rhs])


@hlo_rule("reduce")
def reduce(ctx: OpContext) -> None:
    """Inputs share one shape (a fact); results drop ``dimensions``. https://openxla.org/stablehlo/spec#reduce"""
    n = ctx.num_inputs // 2
    shape = same_shapes(ctx, list(range(n)), "reduce inputs")
    axes = set(dim_numbers(ctx, "dimensions", len(shape), []))
    out = [d for a, d in enumerate(shape) if a not in axes]
    for i in range(ctx.num_outputs):
        ctx.set_output(i, out)


_CONV_FIELDS = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
                "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions")
_COMPACT = re.compile(r"\[([^\]]*)\]x\[([^\]]*)\]->\[([^\]]*)\]")


def conv_numbers(value: object) -> dict[str, list[int]]:
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` or the ``raw`` field form, as positions."""
    fields = getattr(value, "fields", {})
    m = _COMPACT.search(str(fields.get("value", "")))
    if m is None:
        raw = {k.replace("raw", "").strip(): v for k, v in fields.items()}
        nums = {k: ([v] if isinstance(v, int) else list(v)) for k, v in raw.items()}
        missing = [k for k in _CONV_FIELDS if k not in nums]
        if missing:
            raise KeyError(missing[0])
        return nums
    lhs, rhs, out = ([w.strip() for w in g.split(",")] for g in m.groups())

    def spatial(words: list[str]) -> list[int]:
        return [words.index(str(k)) for k in range(len(words) - 2)]

    return {
        "input_batch_dimension": [lhs.index("b")],
        "input_feature_dimension": [lhs.index("f")],
        "input_spatial_dimensions": spatial(lhs),
        "kernel_input_feature_dimension": [rhs.index("i")],
        "kernel_output_feature_dimension": [rhs.index("o")],
        "kernel_spatial_dimensions": spatial(rhs),
        "output_batch_dimension": [out.index("b")],
        "output_feature_dimension": [out.index("f")],
        "output_spatial_dimensions": spatial(out),
    }


def _window_size(ctx: OpContext, d: Dim, k: Dim, lo: Dim, hi: Dim, stride: int, ld: int, rd: int) -> Dim:
    """``floor(span / stride) + 1`` windows, or 0 when the padded input is shorter than the
    dilated window (``span < 0``): StableHLO's shape function, the ``Max`` of both, exactly."""
    if min(stride, ld, rd) < 1:
        raise ctx.invalid(
            f"a window stride or dilation below 1 (stride {stride}, base dilation {ld}, window dilation {rd})",
            "strides and dilations >= 1",
        )
    dilated_in = d if ld == 1 else smax(add(mul(add(d, -1), ld), 1), 0)  # 0 for an empty dim
    dilated_k = k if rd == 1 else add(mul(add(k, -1), rd), 1)
    span = ctx.canon(add(add(add(dilated_in, lo), hi), mul(dilated_k, -1)))
    fits = add(floordiv(span, stride), 1)
    return ctx.canon(fits if ctx.facts.prove_ge(span, 0) else smax(fits, 0))


@hlo_rule("convolution", "dynamic_conv")
def convolution(ctx: OpContext) -> None:
    """Spatial dims ``floor((dilated + pad - dilated window) / stride) + 1``; input features are
    the kernel's times ``feature_group_count`` (a fact). https://openxla.org/stablehlo/spec#convolution
    """
    lhs, rhs = ctx.shape(0), ctx.shape(1)
    try:
        nums = conv_numbers(ctx.attr("dimension_numbers"))
        spatial_in, spatial_k = nums["input_spatial_dimensions"], nums["kernel_spatial_dimensions"]
    except (ValueError, KeyError) as error:  # missing, a label missing from the compact form, a field
        raise ctx.invalid(
            f"dimension_numbers {ctx.attr('dimension_numbers')} ({error})",
            "[b, 0, ..., f]x[0, ..., i, o]->[b, 0, ..., f]: b, f, i, o and every spatial index once",
        ) from None
    n = len(spatial_in)
    if len(lhs) != n + 2 or len(rhs) != n + 2:
        raise ctx.invalid(
            f"operands of rank {len(lhs)} and {len(rhs)} for the {n} spatial dims dimension_numbers names",
            f"rank {n + 2}: a batch, a feature and {n} spatial dims each",
        )
    strides = ints(ctx, "window_strides", [1] * n) or [1] * n
    ld = ints(ctx, "lhs_dilation", [1] * n) or [1] * n
    rd = ints(ctx, "rhs_dilation", [1] * n) or [1] * n
    padding: tuple[Dim, ...] = tuple(ints(ctx, "padding", [0] * 2 * n) or [0] * 2 * n)
    if ctx.op.op_type == "dynamic_conv":
        padding = ctx.require_elements(2)
    groups = (ints(ctx, "feature_group_count", [1]) or [1])[0]
    batch_groups = (ints(ctx, "batch_group_count", [1]) or [1])[0]
    for name, count in (("feature_group_count", groups), ("batch_group_count", batch_groups)):
        if count < 1:
            raise ctx.invalid(f"{name} = {count}", f"{name} >= 1")
    feature = nums["input_feature_dimension"][0]
    ctx.eq(
        lhs[feature],
        mul(rhs[nums["kernel_input_feature_dimension"][0]], groups),
        "convolution features",
        (ctx.dim_name(0, feature), "kernel input features * groups"),
    )
    out: list[Dim] = [0] * (n + 2)
    batch = lhs[nums["input_batch_dimension"][0]]
    out[nums["output_batch_dimension"][0]] = floordiv(batch, batch_groups) if batch_groups != 1 else batch
    out[nums["output_feature_dimension"][0]] = rhs[nums["kernel_output_feature_dimension"][0]]
    for k in range(n):
        size = _window_size(
            ctx, lhs[spatial_in[k]], rhs[spatial_k[k]], padding[2 * k], padding[2 * k + 1], strides[k], ld[k], rd[k]
        )
        out[nums["output_spatial_dimensions"][k]] = size
    ctx.set_output(0, out)


@hlo_rule("reduce_window")
def reduce_window(ctx: OpContext) -> None:
    """Per dim ``floor((dilated + pad - dilated window) / stride) + 1``, as convolution.

    https://openxla.org/stablehlo/spec#reduce_window
    """
    rank = len(ctx.shape(0))
    ones = [1] * rank
    params = [
        ints(ctx, "window_dimensions", []) or [],
        ints(ctx, "window_strides", ones) or ones,
        ints(ctx, "base_dilations", ones) or ones,
        ints(ctx, "window_dilations", ones) or ones,
        ints(ctx, "padding", [0] * 2 * rank) or [0] * 2 * rank,
    ]
    _windowed(ctx, ctx.num_inputs // 2, [tuple(p) for p in params])


def _windowed(ctx: OpContext, n: int, params: list[tuple[Dim, ...]]) -> None:
    shape = same_shapes(ctx, list(range(n)), "reduce_window inputs")
    window, strides, base, dil, pads = params
    if not len(window) == len(strides) == len(base) == len(dil) == len(shape) == len(pads) // 2:
        raise ctx.invalid(
            "window dimensions/strides/base dilations/window dilations have "
            f"{len(window)}/{len(strides)}/{len(base)}/{len(dil)} values and padding {len(pads)}",
            f"{len(shape)} values each (one per dim) and {2 * len(shape)} padding values",
        )
    out: list[Dim] = []
    for a in range(len(shape)):
        stride, ld, rd = strides[a], base[a], dil[a]
        if not (isinstance(stride, int) and isinstance(ld, int) and isinstance(rd, int)):
            raise GiveUp("window strides and dilations must be constants")
        out.append(_window_size(ctx, shape[a], window[a], pads[2 * a], pads[2 * a + 1], stride, ld, rd))
    for i in range(ctx.num_outputs):
        ctx.set_output(i, out)


def _dynamic_reduce_window(ctx: OpContext) -> None:
    """``@stablehlo.dynamic_reduce_window(inputs, inits, window, strides, base, dilations, padding)``
    (jax's form with dynamic shapes): the parameters are tracked operands."""
    n = (ctx.num_inputs - 5) // 2
    params = [ctx.require_elements(2 * n + k) for k in range(5)]
    _windowed(ctx, n, params)


def _dynamic_top_k(ctx: OpContext) -> None:
    """``@stablehlo.dynamic_top_k(operand, k)``: values and indices are ``operand[:-1] + [k]``."""
    dims = ctx.shape(0)
    k = ctx.require_elements(1)[0]
    at_least_zero(ctx, add(dims[-1], mul(k, -1)), "top_k k <= last dim")
    for i in range(ctx.num_outputs):
        ctx.set_output(i, (*dims[:-1], k))


_DYNAMIC_CALLS = {
    "stablehlo.dynamic_reduce_window": _dynamic_reduce_window,
    "stablehlo.dynamic_top_k": _dynamic_top_k,
}


@hlo_rule("gather", "dynamic_gather")
def gather(ctx: OpContext) -> None:
    """Batch dims of the indices interleaved with the kept slice sizes at ``offset_dims``.

    https://openxla.org/stablehlo/spec#gather
    """
    indices = ctx.shape(1)
    nums = ctx.attr("dimension_numbers")
    sizes: tuple[Dim, ...] = (
        ctx.require_elements(2) if ctx.op.op_type == "dynamic_gather" else tuple(ints(ctx, "slice_sizes", []) or [])
    )
    index_dim = field_ints(nums, "index_vector_dim") or [0]  # the attribute omits its default, 0
    dropped = set(field_ints(nums, "collapsed_slice_dims")) | set(field_ints(nums, "operand_batching_dims"))
    batch = [d for a, d in enumerate(indices) if a != index_dim[0]]
    offsets = [s for a, s in enumerate(sizes) if a not in dropped]
    offset_at = field_ints(nums, "offset_dims")
    ctx.require_len(
        offset_at,
        len(offsets),
        "{got} offset_dims for {n} kept slice sizes",
        "{n} offset_dims (one per kept slice size)",
    )
    operand = ctx.shape(0)
    for a, s in enumerate(sizes):
        if a < len(operand):
            at_least_zero(ctx, add(operand[a], mul(s, -1)), "slice size <= operand dim")
    out: list[Dim] = []
    offset_iter, batch_iter = iter(offsets), iter(batch)
    for pos in range(len(batch) + len(offsets)):
        out.append(next(offset_iter) if pos in offset_at else next(batch_iter))
    ctx.set_output(0, out)


@hlo_rule("custom_call")
def custom_call(ctx: OpContext) -> None:
    """The ``@shape_assertion`` of jax: its condition holds whenever the program runs (a fact).

    Other targets keep their declared result types.
    https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors
    """
    target = ctx.attr("call_target_name")
    if target in _DYNAMIC_CALLS:
        _DYNAMIC_CALLS[target](ctx)
        return
    if target != "shape_assertion":
        raise GiveUp(f"custom_call @{target} has no shape rule")
    cond = ctx.elements(0)
    message = str(ctx.attr("error_message", "")).split(". Using")[0]
    if cond is not None and cond[0] == 0:
        raise ContradictionError(
            where=ctx.where(),
            found=f"the shape assertion always fails: {message}",
            expected="a condition that can hold",
            fix="call the function with shapes that satisfy it, or re-export it",
        )
    assert_condition(ctx, message)


@hlo_rule("sort")
def sort(ctx: OpContext) -> None:
    """Operands share one shape (a fact); each result has it. https://openxla.org/stablehlo/spec#sort"""
    shape = same_shapes(ctx, list(range(ctx.num_inputs)), "sort operands")
    for i in range(ctx.num_outputs):
        ctx.set_output(i, shape)


@hlo_rule("scatter")
def scatter(ctx: OpContext) -> None:
    """Each result has the shape of its operand (the first inputs). https://openxla.org/stablehlo/spec#scatter"""
    for i in range(ctx.num_outputs):
        ctx.set_output(i, ctx.shape(i))
