"""Reductions: Reduce* (axes as attribute or input, keepdims, noop_with_empty_axes),
ArgMax/ArgMin, and the global pools that reduce spatial dims to 1.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import axes_input_or_attr, normalize_axis

REDUCE = (
    "ReduceMean",
    "ReduceSum",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceSumSquare",
)


def reduced(
    ctx: OpContext, dims: tuple[Dim, ...], axes: list[int] | None, keepdims: bool, what: str = "axes entry"
) -> list[Dim]:
    """``dims`` with ``axes`` reduced (all axes when None); ``what`` names the axes in errors."""
    picked = set(range(len(dims))) if axes is None else {normalize_axis(ctx, a, len(dims), what=what) for a in axes}
    if keepdims:
        return [1 if i in picked else d for i, d in enumerate(dims)]
    return [d for i, d in enumerate(dims) if i not in picked]


@register(ONNX, *REDUCE)
def reduce_op(ctx: OpContext) -> None:
    """https://onnx.ai/onnx/operators/onnx__ReduceMean.html (axes input since opset 18, 13 for
    ReduceSum); an empty axes list reduces everything unless ``noop_with_empty_axes``."""
    dims = ctx.shape(0)
    keepdims = bool(ctx.attr("keepdims", 1))
    if ctx.has_input(1) and ctx.const_ints(1) is None:
        _unknown_axes(ctx, dims, keepdims)
        return
    axes = axes_input_or_attr(ctx, 1)
    if not axes:
        if ctx.attr("noop_with_empty_axes", 0):
            ctx.set_output(0, dims, ctx.elements(0))
            return
        axes = None
    out = reduced(ctx, dims, axes, keepdims)
    elements = None
    src = ctx.elements(0)
    if src is not None and ctx.op.op_type in ("ReduceProd", "ReduceSum") and len(dims) <= 1:
        from symshape.algebra.expr import add, mul

        acc: Dim = 1 if ctx.op.op_type == "ReduceProd" else 0
        for e in src:
            acc = mul(acc, e) if ctx.op.op_type == "ReduceProd" else add(acc, e)
        elements = (ctx.canon(acc),)
    ctx.set_output(0, out, elements)


def _unknown_axes(ctx: OpContext, dims: tuple[Dim, ...], keepdims: bool) -> None:
    """Axes given as an input whose values are unknown: the rank, and the dims no choice of axes
    changes, are still known. With ``keepdims`` each dim is itself or 1 (so a 1 stays 1, the others
    are fresh symbols, and as many axes as dims reduce all); without it the rank drops by the number
    of axes (distinct, as the runtimes require), and kept dim ``j`` is known when dims ``j..j+k``
    agree. No axes at all reduce every axis, or none with ``noop_with_empty_axes``."""
    count = ctx.shape(1)
    k = count[0] if len(count) == 1 else None
    if k == 0:
        noop = bool(ctx.attr("noop_with_empty_axes", 0))
        ctx.set_output(0, dims if noop else reduced(ctx, dims, None, keepdims), ctx.elements(0) if noop else None)
        return
    if keepdims:
        every = k == len(dims)  # as many distinct axes as dims: all of them
        ctx.set_output(0, [1 if every else _agreed(ctx, (1, d), f"reduced_d{i}") for i, d in enumerate(dims)])
        return
    if not isinstance(k, int) or (k > len(dims)):
        raise GiveUp("the axes input's values and the number of axes are unknown", unknown_input=1)
    # kept dim j is one of dims j..j+k (as many of the axes before it are reduced): known when they agree
    ctx.set_output(0, [_agreed(ctx, dims[j : j + k + 1], f"reduced_d{j}") for j in range(len(dims) - k)])


def _agreed(ctx: OpContext, dims: tuple[Dim, ...], tag: str) -> Dim:
    """The dim all of ``dims`` provably equal, else a fresh symbol."""
    return dims[0] if all(ctx.prove_eq(dims[0], d) is True for d in dims[1:]) else ctx.fresh(tag)


@register(ONNX, "ArgMax", "ArgMin")
def arg_reduce(ctx: OpContext) -> None:
    """https://onnx.ai/onnx/operators/onnx__ArgMax.html"""
    dims = ctx.shape(0)
    ctx.set_output(0, reduced(ctx, dims, [ctx.attr("axis", 0)], bool(ctx.attr("keepdims", 1)), "axis"))


@register(ONNX, "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
def global_pool(ctx: OpContext) -> None:
    """``[N, C, 1, 1, ...]``. https://onnx.ai/onnx/operators/onnx__GlobalAveragePool.html"""
    dims = ctx.shape(0)
    ctx.set_output(0, [*dims[:2], *([1] * (len(dims) - 2))])
