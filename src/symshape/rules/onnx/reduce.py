"""Reductions: Reduce* (axes as attribute or input, keepdims, noop_with_empty_axes),
ArgMax/ArgMin, and the global pools that reduce spatial dims to 1.
"""

from __future__ import annotations

from symshape.context import OpContext
from symshape.expr import Dim
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
    axes = axes_input_or_attr(ctx, 1)
    keepdims = bool(ctx.attr("keepdims", 1))
    if not axes:
        if ctx.attr("noop_with_empty_axes", 0):
            ctx.set_output(0, dims, ctx.elements(0))
            return
        axes = None
    out = reduced(ctx, dims, axes, keepdims)
    elements = None
    src = ctx.elements(0)
    if src is not None and ctx.op.op_type in ("ReduceProd", "ReduceSum") and len(dims) <= 1:
        from symshape.expr import add, mul

        acc: Dim = 1 if ctx.op.op_type == "ReduceProd" else 0
        for e in src:
            acc = mul(acc, e) if ctx.op.op_type == "ReduceProd" else add(acc, e)
        elements = (ctx.canon(acc),)
    ctx.set_output(0, out, elements)


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
