"""com.microsoft quantization ops: the contrib QuantizeLinear/DequantizeLinear, the BFP and
cublasLt-order (de)quantizers, the integer matmuls (MatMulInteger16, MatMulIntegerToFloat,
DynamicQuantizeMatMul, QGemm), MulInteger and ReduceSumInteger. The QOperator ``QLinear*`` ops
are in `qlinear`; the helpers for quantization parameters (scales and zero points) and for
running an ai.onnx rule on a view of an op are shared from here.

What the schemas' inference (onnxruntime/core/graph/contrib_ops/quantization_defs.cc) and the
CPU kernels (onnxruntime/contrib_ops/cpu/quantization/, core/providers/cpu/quantization/)
reject is a fact; a parameter whose length may be 1 or N is left alone until it is known.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symshape.algebra.expr import Dim, product
from symshape.engine.context import OpContext
from symshape.rules.onnx.linalg import matmul_shape
from symshape.rules.onnx.reduce import reduced
from symshape.rules.onnx.shape_ops import shape_from_elements
from symshape.rules.onnx_contrib.layers import FIX_CONTRACT, MS, eq_dims, shape_of_rank
from symshape.rules.onnx_contrib.nhwc import run_nchw
from symshape.rules.registry import register
from symshape.rules.shared.common import broadcast_shapes, normalize_axis

QUANT_DEFS = (
    "https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/quantization_defs.cc"
)


# ------------------------------------------------------------------------------ helpers
def required_attr(ctx: OpContext, name: str) -> Any:
    """An attribute the schema marks required: onnxruntime refuses the graph without it."""
    value = ctx.attr(name)
    if value is None:
        raise ctx.invalid(f"the required attribute '{name}' is missing", f"a value for '{name}'", FIX_CONTRACT)
    return value


def scalar_param(ctx: OpContext, *inputs: int) -> None:
    """Scales and zero points the schema's inference requires to be scalars (rank 0:
    ``ValidateTypeAndShapeForScaleAndZP(..., Scalar)``); a missing optional one is skipped."""
    for i in inputs:
        dims = ctx.shape_or_none(i)
        if dims is not None and dims:
            raise ctx.invalid(
                f"the quantization parameter #{i} ('{ctx.op.inputs[i]}') has rank {len(dims)}",
                "a scalar (rank 0)",
                FIX_CONTRACT,
            )


def one_element(ctx: OpContext, *inputs: int) -> None:
    """Scales and zero points a kernel requires to be a scalar or a 1-D tensor of one element
    (``IsScalarOr1ElementVector``): a longer vector or a higher rank is refused."""
    for i in inputs:
        dims = ctx.shape_or_none(i)
        if dims is None or len(dims) == 0:
            continue
        if len(dims) > 1 or (isinstance(dims[0], int) and dims[0] != 1):
            raise ctx.invalid(
                f"the quantization parameter #{i} ('{ctx.op.inputs[i]}') has shape {list(dims)}",
                "a scalar or a 1-D tensor of one element",
                FIX_CONTRACT,
            )
        eq_dims(ctx, dims[0], 1, "one-element quantization parameter", i, 0, "1 (a per-tensor parameter)")


def one_or_n(ctx: OpContext, i: int, n: Dim, what: str) -> tuple[Dim, ...] | None:
    """A per-tensor or per-channel parameter: a scalar, or a 1-D tensor of length 1 or ``n``
    (QGemm's and QLinearConv's weight scale and zero point). A known length other than 1 is
    ``n`` (a fact); a symbolic length may be either and is left alone. Returns the dims."""
    dims = ctx.shape_or_none(i)
    if dims is None or len(dims) == 0:
        return dims
    if len(dims) > 1:
        raise ctx.invalid(
            f"the quantization parameter #{i} ('{ctx.op.inputs[i]}') has rank {len(dims)}",
            f"a scalar or a 1-D tensor of length 1 or {what}",
            FIX_CONTRACT,
        )
    if isinstance(dims[0], int) and dims[0] != 1:
        eq_dims(ctx, dims[0], n, "per-channel quantization parameter", i, 0, what)
    return dims


def run_view(
    ctx: OpContext, op_type: str, inputs: Sequence[int | None], attrs: dict[str, Any] | None = None
) -> list[tuple[Dim, ...] | None]:
    """The ai.onnx ``op_type`` rule on a view of this op whose inputs are this op's ``inputs``
    (None: absent): the quantized op's shape arithmetic is the float op's. Facts and errors
    are recorded at this op. Returns the dims the rule gives each output."""
    return run_nchw(ctx, op_type, inputs, (), attrs=attrs)


def _bias_is_n(ctx: OpContext, i: int, n: Dim, out: Sequence[Dim]) -> None:
    """The matmul-to-float kernels' bias: ``bias tensor's element count must equal B's last
    dimension`` (dynamic_quantize_matmul.cc), checked only when the output is not empty, so a
    fact only where the output is proven non-empty."""
    bias = ctx.shape_or_none(i)
    if bias is None or not ctx.prove_ge(product(out), 1):
        return
    if len(bias) == 1:
        eq_dims(ctx, bias[0], n, "bias length", i, 0, "B's last dim")
    else:
        ctx.eq(product(bias), n, "bias length", (f"the element count of '{ctx.op.inputs[i]}'", "B's last dim"))


# -------------------------------------------------------------------- (de)quantizers
@register(MS, "QuantizeLinear", "DequantizeLinear")
def quantize_linear(ctx: OpContext) -> None:
    """``y`` has ``x``'s shape. A scale of one element quantizes per tensor (``axis`` unused;
    the zero point must then have one element too); a 1-D scale of another length quantizes
    along ``axis`` (default 1, in range) and has that dim's length, and the zero point has the
    scale's shape (PrepareForQDQ in core/providers/cpu/quantization/quantize_linear.cc). A
    scale of rank >= 2 is refused.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QuantizeLinear
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DequantizeLinear
    """
    x = ctx.shape(0)
    scale = ctx.shape_or_none(1)
    if scale is not None and len(scale) > 1:
        raise ctx.invalid(f"the scale has rank {len(scale)}", "a scalar or a 1-D scale", FIX_CONTRACT)
    if scale is not None and (not scale or (isinstance(scale[0], int) and scale[0] == 1)):
        one_element(ctx, 2)
    elif scale is not None and isinstance(scale[0], int):
        axis = normalize_axis(ctx, int(ctx.attr("axis", 1)), len(x))
        eq_dims(ctx, scale[0], x[axis], "per-axis scale length", 1, 0, f"dim {axis} of x (axis)")
        zp = ctx.shape_or_none(2)
        if zp is not None:
            ctx.require_rank(zp, 1, "the zero point", "rank 1, the scale's shape", FIX_CONTRACT)
            eq_dims(ctx, zp[0], scale[0], "zero point shape", 2, 0, "the scale's length")
    ctx.set_output(0, x)


@register(MS, "QuantizeBFP")
def quantize_bfp(ctx: OpContext) -> None:
    """Outputs ``y`` (1-D raw BFP bytes whose length the hardware decides: the schema sets no
    shape, so a fresh symbol), ``shape`` and ``strides`` (both ``(rank(x),)``; ``shape`` holds
    x's dims).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QuantizeBFP
    """
    required_attr(ctx, "bfp_type")
    x = ctx.shape(0)
    reason = "the length of the raw BFP buffer is hardware-specific (the schema gives no shape)"
    ctx.set_output(0, (ctx.fresh("bfp_bytes", cause=ctx.new_cause(reason)),))
    ctx.set_output(1, (len(x),), x)
    ctx.set_output(2, (len(x),))


@register(MS, "DequantizeBFP")
def dequantize_bfp(ctx: OpContext) -> None:
    """``y`` has the shape held by the ``shape`` input (the original tensor's); the raw data
    ``x`` is 1-D (the schema's inference fails otherwise).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DequantizeBFP
    """
    required_attr(ctx, "bfp_type")
    shape_of_rank(ctx, 0, (1,), "x")
    shape_of_rank(ctx, 1, (1,), "shape")
    ctx.set_output(0, shape_from_elements(ctx, 1))


@register(MS, "QuantizeWithOrder", "DequantizeWithOrder")
def quantize_with_order(ctx: OpContext) -> None:
    """The output has the input's shape (the cublasLt order changes the layout in memory, not
    the dims: quantization_defs.cc's inference copies the input shape).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QuantizeWithOrder
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DequantizeWithOrder
    """
    required_attr(ctx, "order_input")
    required_attr(ctx, "order_output")
    if ctx.op.op_type == "DequantizeWithOrder":
        required_attr(ctx, "to")
    ctx.set_output(0, ctx.shape(0))


# ---------------------------------------------------------------------- contractions
@register(MS, "MatMulInteger16")
def matmul_integer16(ctx: OpContext) -> None:
    """Numpy matmul shapes of two int16 operands.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulInteger16
    """
    ctx.set_output(0, matmul_shape(ctx, ctx.shape(0), ctx.shape(1)))


@register(MS, "MatMulIntegerToFloat", "DynamicQuantizeMatMul")
def matmul_integer_to_float(ctx: OpContext) -> None:
    """Numpy matmul shapes of A and B (inputs 0 and 1). MatMulIntegerToFloat's A zero point
    (input 4) has one element; the bias (input 6, or 4 for DynamicQuantizeMatMul) has as many
    elements as B's last dim (N, or 1 for a 1-D B) when the output is not empty
    (contrib_ops/cpu/quantization/dynamic_quantize_matmul.cc). Scales that are neither per
    tensor nor per column scale the output by broadcasting into it: they never change its shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulIntegerToFloat
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DynamicQuantizeMatMul
    """
    a, b = ctx.shape(0), ctx.shape(1)
    out = matmul_shape(ctx, a, b)
    to_float = ctx.op.op_type == "MatMulIntegerToFloat"
    if to_float:
        one_element(ctx, 4)
    bias = 6 if to_float else 4
    if ctx.has_input(bias):
        _bias_is_n(ctx, bias, b[-1] if len(b) >= 2 else 1, out)
    ctx.set_output(0, out)


@register(MS, "QGemm")
def qgemm(ctx: OpContext) -> None:
    """Gemm's shape on A (input 0), B (input 3) and C (input 6): ``(M, N)`` after ``transA`` /
    ``transB``, C broadcasting to it (the ai.onnx Gemm rule). Facts from quant_gemm.cc's
    CheckInputs: a_scale, a_zero_point, y_scale and y_zero_point have one element; b_scale and
    b_zero_point have the same shape, a scalar or a 1-D tensor of length 1 or N.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QGemm
    """
    out = run_view(ctx, "Gemm", (0, 3, 6))[0]
    one_element(ctx, 1, 2, 7, 8)
    if out is None:
        return
    n = out[1]
    scale = one_or_n(ctx, 4, n, "N, the output's columns")
    zp = one_or_n(ctx, 5, n, "N, the output's columns")
    if scale is not None and zp is not None:
        if len(scale) != len(zp):
            raise ctx.invalid(
                f"b_scale of rank {len(scale)} and b_zero_point of rank {len(zp)}", "the same shape", FIX_CONTRACT
            )
        if scale:
            eq_dims(ctx, zp[0], scale[0], "b zero point shape", 5, 0, "the length of b_scale")
    ctx.set_output(0, out)


# ----------------------------------------------------------------------- no CPU kernel
@register(MS, "MulInteger")
def mul_integer(ctx: OpContext) -> None:
    """``(A - A_zero_point) * (B - B_zero_point)`` in int32: the broadcast of A (input 0) and B
    (input 2); the zero points are scalars (the schema's inference).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MulInteger
    """
    scalar_param(ctx, 1, 3)
    ctx.set_output(0, broadcast_shapes(ctx, [ctx.shape(0), ctx.shape(2)]))


@register(MS, "ReduceSumInteger")
def reduce_sum_integer(ctx: OpContext) -> None:
    """ReduceSum over the attribute ``axes`` (empty: every axis), keeping them as 1 when
    ``keepdims`` is 1; both attributes are required by the schema.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.ReduceSumInteger
    """
    axes = [int(a) for a in required_attr(ctx, "axes")]
    keepdims = bool(required_attr(ctx, "keepdims"))
    ctx.set_output(0, reduced(ctx, ctx.shape(0), axes or None, keepdims))
