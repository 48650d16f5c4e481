"""com.microsoft QOperator ops, as ``onnxruntime.quantization`` writes them: QLinearAdd,
QLinearMul, QLinearWhere, QLinearConcat, QLinearConv, QLinearAveragePool,
QLinearGlobalAveragePool, QLinearLeakyRelu, QLinearSigmoid, QLinearSoftmax, QLinearReduceMean.

A quantized op has its float op's shapes: the window ops run the ai.onnx Conv/AveragePool rules
on a view of their inputs (on an NCHW view of X when ``channels_last`` is set, as
`symshape.rules.onnx_contrib.nhwc` does for the internal NHWC domain), Concat and the
broadcasts likewise. Scales and zero points are checked as the schemas' inference
(onnxruntime/core/graph/contrib_ops/quantization_defs.cc, contrib_defs.cc) and the CPU kernels
(onnxruntime/contrib_ops/cpu/quantization/) check them.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symshape.algebra.expr import Dim, product
from symshape.engine.context import OpContext
from symshape.rules.onnx.reduce import reduced
from symshape.rules.onnx_contrib.layers import FIX_CONTRACT, MS
from symshape.rules.onnx_contrib.nhwc import channels_last_input, run_nchw, to_nhwc
from symshape.rules.onnx_contrib.quantization import one_element, one_or_n, required_attr, run_view, scalar_param
from symshape.rules.registry import register
from symshape.rules.shared.common import broadcast_shapes, normalize_axis
from symshape.rules.shared.fit import require_ge


# ------------------------------------------------------------------------ elementwise
@register(MS, "QLinearAdd", "QLinearMul")
def qlinear_binary(ctx: OpContext) -> None:
    """The broadcast of A (input 0) and B (input 3); every scale and zero point is a scalar
    (QLinearMathDocGenerator's inference in quantization_defs.cc refuses any other rank).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearAdd
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearMul
    """
    scalar_param(ctx, 1, 2, 4, 5, 6, 7)
    ctx.set_output(0, broadcast_shapes(ctx, [ctx.shape(0), ctx.shape(3)]))


@register(MS, "QLinearWhere")
def qlinear_where(ctx: OpContext) -> None:
    """The broadcast of condition (input 0), X (input 1) and Y (input 4).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearWhere
    """
    ctx.set_output(0, broadcast_shapes(ctx, [ctx.shape(0), ctx.shape(1), ctx.shape(4)]))


@register(MS, "QLinearLeakyRelu", "QLinearSigmoid")
def qlinear_lookup(ctx: OpContext) -> None:
    """Elementwise through a 256-entry lookup table: Y has X's shape; the four scales and zero
    points have one element (QlinearBuildLookupTable in qlinear_lookup_table.cc).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearLeakyRelu
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearSigmoid
    """
    one_element(ctx, 1, 2, 3, 4)
    ctx.set_output(0, ctx.shape(0))


@register(MS, "QLinearSoftmax")
def qlinear_softmax(ctx: OpContext) -> None:
    """Y has X's shape; ``axis`` (default -1) is in range for X's rank (so X is not a scalar)
    and the attribute ``opset`` (the float Softmax's version, which only decides how the axis
    is read) is required.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearSoftmax
    """
    required_attr(ctx, "opset")
    x = ctx.shape(0)
    normalize_axis(ctx, int(ctx.attr("axis", -1)), len(x))
    ctx.set_output(0, x)


@register(MS, "QLinearConcat")
def qlinear_concat(ctx: OpContext) -> None:
    """Concat of the tensors of the ``(tensor, scale, zero_point)`` triples that follow
    Y_scale and Y_zero_point (inputs 2, 5, 8, ...) along the required ``axis``: the ai.onnx
    Concat rule on them. The kernel refuses an input count that is not ``2 + 3k`` with k >= 1
    (qlinear_concat.cc).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearConcat
    """
    axis = required_attr(ctx, "axis")
    n = ctx.num_inputs
    if n < 5 or (n - 2) % 3:
        raise ctx.invalid(
            f"{n} inputs", "Y_scale, Y_zero_point, then (tensor, scale, zero_point) triples", FIX_CONTRACT
        )
    out = run_view(ctx, "Concat", range(2, n, 3), {"axis": axis})[0]
    if out is not None:
        ctx.set_output(0, out)


@register(MS, "QLinearReduceMean")
def qlinear_reduce_mean(ctx: OpContext) -> None:
    """ReduceMean over the required attribute ``axes`` (empty: every axis), reduced axes kept
    as 1 when the required ``keepdims`` is 1; the scales and zero points are scalars (the
    schema's inference in quantization_defs.cc).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearReduceMean
    """
    axes = [int(a) for a in required_attr(ctx, "axes")]
    keepdims = bool(required_attr(ctx, "keepdims"))
    scalar_param(ctx, 1, 2, 3, 4)
    ctx.set_output(0, reduced(ctx, ctx.shape(0), axes or None, keepdims))


# ------------------------------------------------------------------------ window ops
def _window_op(
    ctx: OpContext, op_type: str, inputs: Sequence[int], attrs: dict[str, Any] | None = None
) -> tuple[Dim, ...] | None:
    """The ai.onnx ``op_type`` rule on a view of ``inputs``; with ``channels_last``, on the NCHW
    view of x (input 0), its output put back channels last."""
    if not ctx.attr("channels_last", 0):
        return run_view(ctx, op_type, inputs, attrs)[0]
    channels_last_input(ctx, 0)
    out = run_nchw(ctx, op_type, inputs, (0,), attrs=attrs)[0]
    return None if out is None else to_nhwc(out)


@register(MS, "QLinearConv")
def qlinear_conv(ctx: OpContext) -> None:
    """Conv's shape on x (input 0), w (input 3, ``(M, C/group, k...)``) and the bias (input 8),
    through the ai.onnx QLinearConv rule; with ``channels_last`` x and y are ``(N, D.., C)``.
    Facts from core/providers/cpu/quantization/qlinearconv.cc: x's and y's scales and zero
    points have one element, w's are a scalar or 1-D of length 1 or M.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearConv
    """
    one_element(ctx, 1, 2, 6, 7)
    out = _window_op(ctx, "QLinearConv", range(ctx.num_inputs))
    if out is None:
        return
    m = ctx.shape(3)[0]
    one_or_n(ctx, 4, m, "M, the output channels")
    one_or_n(ctx, 5, m, "M, the output channels")
    ctx.set_output(0, out)


@register(MS, "QLinearAveragePool")
def qlinear_average_pool(ctx: OpContext) -> None:
    """AveragePool's window arithmetic on X (input 0; ``(N, D.., C)`` with ``channels_last``,
    and Y likewise) through the ai.onnx AveragePool rule; ``kernel_shape`` is required and the
    scales and zero points are scalars (the schema's inference).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearAveragePool
    """
    required_attr(ctx, "kernel_shape")
    scalar_param(ctx, 1, 2, 3, 4)
    attrs = {k: v for k, v in ctx.op.attrs.items() if k != "channels_last"}
    out = _window_op(ctx, "AveragePool", (0,), attrs)
    if out is not None:
        ctx.set_output(0, out)


@register(MS, "QLinearGlobalAveragePool")
def qlinear_global_average_pool(ctx: OpContext) -> None:
    """``(N, C, 1, ..)``, or ``(N, 1, .., C)`` with ``channels_last``. Facts from
    qlinear_global_average_pool.cc: X has rank >= 3, a non-empty image (the product of the
    spatial dims is >= 1: MLAS refuses an empty one), and the scales and zero points have one
    element.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QLinearGlobalAveragePool
    """
    one_element(ctx, 1, 2, 3, 4)
    x = ctx.shape(0)
    ctx.require_rank(x, range(3, 64), f"X '{ctx.op.inputs[0]}'", "rank >= 3 (N, C and spatial dims)", FIX_CONTRACT)
    last = bool(ctx.attr("channels_last", 0))
    spatial = x[1:-1] if last else x[2:]
    require_ge(ctx, product(spatial), 1, "QLinearGlobalAveragePool image size >= 1", "the image size")
    ones = (1,) * len(spatial)
    ctx.set_output(0, (x[0], *ones, x[-1]) if last else (x[0], x[1], *ones))
