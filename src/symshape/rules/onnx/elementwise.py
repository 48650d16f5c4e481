"""Elementwise ops: unary (same shape), binary/variadic with numpy broadcasting, Where.

Integer arithmetic on tracked shape tensors is evaluated symbolically, so ``Shape -> Gather ->
Mul -> Concat -> Reshape`` chains keep exact dims.
https://onnx.ai/onnx/operators/ (Add, Sub, Mul, Div, Mod, Max, Min, Equal, Less, Where, ...)
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.elementwise_values import arith_elements, unary_elements
from symshape.rules.registry import ONNX, register
from symshape.rules.shared import float_values as fv
from symshape.rules.shared.common import broadcast_elements, broadcast_shapes, normalize_axis
from symshape.rules.shared.piecewise import condition, equality, piecewise

UNARY = (
    "Abs",
    "Acos",
    "Acosh",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "BitwiseNot",
    "Ceil",
    "Celu",
    "Cos",
    "Cosh",
    "Elu",
    "Erf",
    "Exp",
    "Floor",
    "Gelu",
    "HardSigmoid",
    "HardSwish",
    "Identity",
    "IsInf",
    "IsNaN",
    "LeakyRelu",
    "Log",
    "Mish",
    "Neg",
    "Not",
    "Reciprocal",
    "Relu",
    "Round",
    "Selu",
    "Shrink",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sinh",
    "Softplus",
    "Softsign",
    "Sqrt",
    "Tan",
    "Tanh",
    "ThresholdedRelu",
    "Dropout",
    "QuickGelu",
    "Cast",
    "CastLike",
    "DequantizeLinear",
    "QuantizeLinear",
    "Clip",
    "LpNormalization",
    "Softmax",
    "LogSoftmax",
    "Hardmax",
    "LayerNormalization",
    "SimplifiedLayerNormalization",
    "RMSNormalization",
    "BatchNormalization",
    "InstanceNormalization",
    "GroupNormalization",
    "MeanVarianceNormalization",
    "LRN",
    "Trilu",
    "CumSum",
    "EyeLike",
    "RandomNormalLike",
    "RandomUniformLike",
    "Bernoulli",
)


@register(ONNX, *UNARY)
def unary(ctx: OpContext) -> None:
    """Output 0 has the shape of input 0; Dropout/LayerNormalization extras are handled too.

    https://onnx.ai/onnx/operators/onnx__Relu.html (and the other unary ops)
    """
    shape = ctx.shape(0)
    op = ctx.op.op_type
    _check_axes(ctx, op, len(shape))
    if op == "Cast":
        fv.record_cast(ctx)
    ctx.set_output(0, shape, unary_elements(ctx, op))
    if op == "Dropout":
        ctx.set_output(1, shape)
    elif op in ("LayerNormalization", "SimplifiedLayerNormalization", "RMSNormalization"):
        axis = normalize_axis(ctx, ctx.attr("axis", -1), len(shape))
        stat = tuple(shape[:axis]) + (1,) * (len(shape) - axis)
        ctx.set_output(1, stat)
        ctx.set_output(2, stat)
    elif op == "BatchNormalization":
        for i in range(1, ctx.num_outputs):
            ctx.set_output(i, ctx.shape(1))
    if op in ("LayerNormalization", "BatchNormalization", "InstanceNormalization"):
        _check_channel_params(ctx, shape)


_AXIS_DEFAULT = {"Softmax": -1, "LogSoftmax": -1, "Hardmax": -1, "LpNormalization": -1}


def _check_axes(ctx: OpContext, op: str, rank: int) -> None:
    """ModelError for an axis out of range, where the op (as onnxruntime runs it) uses one.

    Softmax-family axes default to 1 before opset 13. MeanVarianceNormalization checks only
    ``axes`` it is given (onnxruntime runs the default ``[0, 2, 3]`` on any rank). Quantize and
    Dequantize use ``axis`` only per axis: a scalar or one-element scale ignores it.
    """
    if op in _AXIS_DEFAULT:
        default = 1 if op != "LpNormalization" and 0 < ctx.op.version < 13 else _AXIS_DEFAULT[op]
        normalize_axis(ctx, ctx.attr("axis", default), rank)
    elif op == "MeanVarianceNormalization":
        for a in ctx.attr("axes") or ():
            normalize_axis(ctx, a, rank, what="axes entry")
    elif op == "CumSum" and ctx.has_input(1) and (axis := ctx.const_ints(1)) is not None and len(axis) == 1:
        normalize_axis(ctx, axis[0], rank)
    elif op in ("QuantizeLinear", "DequantizeLinear") and _per_axis(ctx.shape_or_none(1)):
        normalize_axis(ctx, ctx.attr("axis", 1), rank)


def _per_axis(scale: tuple[Dim, ...] | None) -> bool:
    """Whether a quantization scale of these dims is certainly not one element (a vector of a
    symbolic length may have one: then it is not known to be per axis)."""
    if scale is None or len(scale) != 1:
        return scale is not None and len(scale) > 1
    (n,) = scale
    return isinstance(n, int) and n != 1


def _check_channel_params(ctx: OpContext, shape: tuple[Dim, ...]) -> None:
    op = ctx.op.op_type
    if op == "LayerNormalization" and ctx.has_input(1):
        scale = ctx.shape_or_none(1)  # broadcastable to the normalized shape: a 1 proves nothing
        if scale is not None and len(scale) >= 1 and len(shape) >= 1 and not _may_be_one(ctx, scale[-1]):
            what = (ctx.dim_name(0, len(shape) - 1), ctx.dim_name(1, len(scale) - 1))
            ctx.eq(shape[-1], scale[-1], "normalized dim", what)
    elif len(shape) >= 2 and ctx.has_input(1):
        scale = ctx.shape_or_none(1)
        if scale is not None and len(scale) == 1:
            ctx.eq(shape[1], scale[0], "channels", (ctx.dim_name(0, 1), ctx.dim_name(1, 0)))


def _may_be_one(ctx: OpContext, d: Dim) -> bool:
    return d == 1 if isinstance(d, int) else not ctx.facts.prove_ge(d, 2)


VARIADIC = (
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Mod",
    "Pow",
    "Max",
    "Min",
    "Mean",
    "Sum",
    "And",
    "Or",
    "Xor",
    "Equal",
    "Less",
    "LessOrEqual",
    "Greater",
    "GreaterOrEqual",
    "BitShift",
    "BitwiseAnd",
    "BitwiseOr",
    "BitwiseXor",
    "PRelu",
)


@register(ONNX, *VARIADIC)
def broadcasting(ctx: OpContext) -> None:
    """Multidirectional broadcasting; integer arithmetic on tracked elements.

    https://onnx.ai/onnx/operators/onnx__Add.html and
    https://onnx.ai/onnx/repo-docs/Broadcasting.html
    """
    shapes = [ctx.shape(i) for i in range(ctx.num_inputs) if ctx.has_input(i)]
    out = broadcast_shapes(ctx, shapes)
    ctx.set_output(0, out, arith_elements(ctx))


@register(ONNX, "Where")
def where(ctx: OpContext) -> None:
    """Broadcast of condition, X and Y; tracked elements selected when the condition is known.

    https://onnx.ai/onnx/operators/onnx__Where.html
    """
    shapes = [ctx.shape(i) for i in range(3)]
    out = broadcast_shapes(ctx, shapes)
    facts = ctx.facts

    def pick(c: Dim, a: Dim, b: Dim) -> Dim | None:
        if isinstance(c, int):
            return a if c else b
        return a if facts.prove_nonzero(c) else None

    elements = broadcast_elements(ctx, [0, 1, 2], pick)
    if elements is None:
        elements = _selected_by_comparison(ctx)
    ctx.set_output(0, out, elements)


def _selected_by_comparison(ctx: OpContext) -> tuple[Dim, ...] | None:
    """One element chosen by a comparison of two tracked scalars (``Where(a < b, a, b)``, a Min
    of shape values): exactly ``piecewise``, where the condition's own value is unknown."""
    x, y = ctx.elements(1), ctx.elements(2)
    if x is None or y is None or len(x) != 1 or len(y) != 1:
        return None
    a, b = x[0], y[0]
    p = condition(ctx, ctx.op.inputs[0])
    if p is not None:
        return (piecewise(ctx, p, a, b),)
    d = equality(ctx, ctx.op.inputs[0])  # a == b exactly when d >= 0 and -d >= 0
    return None if d is None else (piecewise(ctx, d, piecewise(ctx, mul(d, -1), a, b), b),)
