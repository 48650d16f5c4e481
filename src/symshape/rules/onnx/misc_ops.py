"""Ops of the default domain that fit no other family: CumProd, BitCast, Swish, SwiGLU,
DynamicQuantizeLinear, Det.
"""

from __future__ import annotations

from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import eq_dims, eq_shape
from symshape.rules.registry import ONNX, register


@register(ONNX, "CumProd", "BitCast", "Swish")
def same_shape(ctx: OpContext) -> None:
    """The output has the input's shape (BitCast needs equal bit widths, so no dim changes).

    https://onnx.ai/onnx/operators/onnx__CumProd.html
    https://onnx.ai/onnx/operators/onnx__BitCast.html
    https://onnx.ai/onnx/operators/onnx__Swish.html
    """
    ctx.set_output(0, ctx.shape(0))


@register(ONNX, "SwiGLU")
def swiglu(ctx: OpContext) -> None:
    """``Swish(A) * B`` without broadcasting: B has A's shape (a fact), and so has the output.

    https://onnx.ai/onnx/operators/onnx__SwiGLU.html
    """
    a = ctx.shape(0)
    eq_shape(ctx, 1, a, "same shape", "B", "A")
    ctx.set_output(0, a)


@register(ONNX, "DynamicQuantizeLinear")
def dynamic_quantize_linear(ctx: OpContext) -> None:
    """``y`` has the input's shape; ``y_scale`` and ``y_zero_point`` are scalars.

    https://onnx.ai/onnx/operators/onnx__DynamicQuantizeLinear.html
    """
    ctx.set_output(0, ctx.shape(0))
    ctx.set_output(1, ())
    ctx.set_output(2, ())


@register(ONNX, "Det")
def det(ctx: OpContext) -> None:
    """Square matrices ``(*, M, M)`` (a fact) give ``(*)``.

    https://onnx.ai/onnx/operators/onnx__Det.html
    """
    x = ctx.shape(0)
    if len(x) < 2:
        raise ctx.invalid(
            f"the input has rank {len(x)}", "rank >= 2: square matrices (*, M, M)", "check the input of Det"
        )
    eq_dims(ctx, x[-1], x[-2], "square", 0, len(x) - 1, f"dim {len(x) - 2} of the input")
    ctx.set_output(0, x[:-2])
