"""ai.onnx ops onnxruntime still registers outside the ONNX standard: the experimental ops ONNX
removed in opset 10 (Affine, Crop, DynamicSlice, GRUUnit, GivenTensorFill, ImageScaler,
ParametricSoftplus, Scale, ScaledTanh: onnxruntime keeps version 1 and marks version 10
deprecated), its Memcpy nodes, and four TensorRT plugins (DisentangledAttention_TRT,
EfficientNMS_TRT, MultilevelCropAndResize_TRT, PyramidROIAlign_TRT).

The experimental ops run only in models importing ai.onnx opset < 10: from opset 10 on
onnxruntime refuses them ("not a registered function/op"), so that is a malformed model. Their
contract is onnxruntime's CPU kernel (onnxruntime/contrib_ops/cpu/), else the schema's inference
in onnxruntime/core/graph/contrib_ops/onnx_deprecated_operators.cc and contrib_defs.cc (the
plugins), else the Caffe2 operator the op came from (GRUUnit).
"""

from __future__ import annotations

from dataclasses import replace

from symshape.algebra.expr import Dim, add, mul, product
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx_contrib.layers import eq_dims, required_int, shape_of_rank
from symshape.rules.registry import ONNX, lookup, register
from symshape.rules.shared.fit import require_ge

DEPRECATED_AT = 10  # onnxruntime registers these as deprecated from this ai.onnx opset on
FIX_EXPERIMENTAL = "import ai.onnx opset 9 or below, or replace the experimental op by standard ops"
FIX_KERNEL = "check the model against onnxruntime's kernel for the op (onnxruntime/contrib_ops/cpu/)"
FIX_PLUGIN = "check the model against the plugin's schema (onnxruntime's contrib_defs.cc)"


def experimental(ctx: OpContext) -> None:
    """ModelError for an experimental op in a model importing ai.onnx opset >= 10."""
    if ctx.op.version >= DEPRECATED_AT:
        raise ctx.invalid(
            f"the experimental op {ctx.op.op_type} in a model importing ai.onnx opset {ctx.op.version}",
            f"ai.onnx opset < {DEPRECATED_AT} (ONNX removed it; onnxruntime refuses it from then on)",
            FIX_EXPERIMENTAL,
        )


@register(ONNX, "Affine", "Scale")
def elementwise(ctx: OpContext) -> None:
    """``alpha*x + beta`` and ``scale*x``: the output has the input's shape.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/onnx_deprecated_operators.cc
    """
    experimental(ctx)
    ctx.set_output(0, ctx.shape(0))


@register(ONNX, "ParametricSoftplus", "ScaledTanh")
def parametric(ctx: OpContext) -> None:
    """Elementwise with both ``alpha`` and ``beta`` required (the CPU kernel refuses the model
    without them): the output has the input's shape.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/onnx_deprecated_operators.cc
    """
    experimental(ctx)
    for name in ("alpha", "beta"):
        if ctx.attr(name) is None:
            raise ctx.invalid(f"the attribute '{name}' is missing", "both alpha and beta", FIX_KERNEL)
    ctx.set_output(0, ctx.shape(0))


@register(ONNX, "MemcpyFromHost", "MemcpyToHost")
def memcpy(ctx: OpContext) -> None:
    """A copy between devices (inserted by onnxruntime's partitioner): the input's shape and values.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/providers/cpu/cpu_execution_provider.cc
    """
    ctx.set_output(0, ctx.shape(0), ctx.elements(0))


@register(ONNX, "ImageScaler")
def image_scaler(ctx: OpContext) -> None:
    """``scale*x + bias[c]`` on ``(N, C, H, W)``: the CPU kernel requires rank >= 4, a ``bias``
    of ``C`` values (facts), and writes ``(N, C, H, W)`` (the first four dims).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/image_scaler.h
    """
    experimental(ctx)
    x = ctx.shape(0)
    if len(x) < 4:
        raise ctx.invalid(f"the input has rank {len(x)}", "an [N, C, H, W] image", FIX_KERNEL)
    bias = ctx.attr("bias")
    if bias is None:
        raise ctx.invalid("the attribute 'bias' is missing", "one bias per channel", FIX_KERNEL)
    eq_dims(ctx, x[1], len(bias), "bias per channel", 0, 1, "the number of bias values")
    ctx.set_output(0, x[:4])


@register(ONNX, "Crop")
def crop(ctx: OpContext) -> None:
    """``(N, C, H, W)`` cropped by ``border = [left, top, right, bottom]``: ``H - top - bottom``
    by ``W - left - right``, or ``scale = [h, w]`` from the top-left border. The CPU kernel's
    checks: rank 4, four borders, two scale values, and the crop inside the image (facts).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/crop.h
    """
    experimental(ctx)
    x = shape_of_rank(ctx, 0, (4,), "input")
    border, scale = list(ctx.attr("border") or ()), list(ctx.attr("scale") or ())
    if len(border) != 4 or len(scale) not in (0, 2) or any(v < 0 for v in border + scale):
        raise ctx.invalid(f"border {border} and scale {scale}", "four non-negative borders (left, top, right, "
                          "bottom) and no or two scale values (height, width)", FIX_KERNEL)
    left, top, right, bottom = border
    n, c, h, w = x
    if scale:
        out_h, out_w = scale[0], scale[1]
        require_ge(ctx, add(h, -(top + out_h)), 0, "crop inside the image", "H - top - scale[0]")
        require_ge(ctx, add(w, -(left + out_w)), 0, "crop inside the image", "W - left - scale[1]")
        ctx.set_output(0, (n, c, out_h, out_w))
        return
    out: list[Dim] = []
    for d, cut, what in ((h, top + bottom, "H - top - bottom"), (w, left + right, "W - left - right")):
        require_ge(ctx, add(d, -cut), 0, "crop inside the image", what)
        out.append(ctx.canon(add(d, -cut)))
    ctx.set_output(0, (n, c, *out))


@register(ONNX, "DynamicSlice")
def dynamic_slice(ctx: OpContext) -> None:
    """Slice with ``starts``, ``ends`` and ``axes`` as inputs (no steps): the Slice rule, as it
    reads opset-10 Slice.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/onnx_deprecated_operators.cc
    """
    experimental(ctx)
    rule = lookup(ONNX, "Slice")
    if rule is None:
        raise GiveUp("no ai.onnx Slice rule is available")
    rule(OpContext(ctx.state, ctx.program, replace(ctx.op, version=DEPRECATED_AT, inputs=ctx.op.inputs[:4])))


@register(ONNX, "GRUUnit")
def gru_unit(ctx: OpContext) -> None:
    """One GRU step (Caffe2's GRUUnit): the new hidden state has hidden_prev's shape
    ``(1, N, D)``; gates are ``(1, N, 3*D)`` and seq_lengths holds ``N`` values (facts: Caffe2
    enforces ``3*D == G`` and ``size(seq_lengths) == N``). onnxruntime has no kernel.

    https://github.com/pytorch/pytorch/blob/v1.13.0/caffe2/operators/gru_unit_op.h
    """
    experimental(ctx)
    hidden = shape_of_rank(ctx, 0, (3,), "hidden_prev")
    gates = shape_of_rank(ctx, 1, (3,), "gates")
    eq_dims(ctx, gates[2], mul(hidden[2], 3), "gates", 1, 2, "3 * the hidden size")
    lengths = ctx.shape(2)
    ctx.eq(product(lengths), hidden[1], "one length per batch entry",
           (f"the element count of '{ctx.op.inputs[2]}'", ctx.dim_name(0, 1)))
    ctx.set_output(0, hidden)


@register(ONNX, "GivenTensorFill")
def given_tensor_fill(ctx: OpContext) -> None:
    """A filled tensor of the attribute ``shape``; else, with ``input_as_shape``, of the shape
    the input's values give; else of the input's shape followed by ``extra_shape``. Sizes are
    non-negative (the schema's inference). onnxruntime has no kernel.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/onnx_deprecated_operators.cc
    """
    experimental(ctx)
    shape, extra = ctx.attr("shape"), list(ctx.attr("extra_shape") or ())
    for name, values in (("shape", shape or ()), ("extra_shape", extra)):
        if any(v < 0 for v in values):
            raise ctx.invalid(f"attribute '{name}' is {list(values)}", "non-negative sizes", "fix the attribute")
    if shape is not None:
        ctx.set_output(0, tuple(shape))
    elif ctx.attr("input_as_shape", 0):
        dims = ctx.elements(0) if ctx.has_input(0) else None
        if dims is None:
            ctx.declared_output(0, "its shape is the values of its input, not known statically")
            return
        for d in dims:
            require_ge(ctx, d, 0, "a size is non-negative", "a size in the shape input")
        ctx.set_output(0, dims)
    elif ctx.has_input(0):
        ctx.set_output(0, (*ctx.shape(0), *extra))
    else:
        ctx.declared_output(0, "neither a shape attribute nor an input gives its shape")


# -------------------------------------------------------------------------- TensorRT plugins
@register(ONNX, "DisentangledAttention_TRT")
def disentangled_attention(ctx: OpContext) -> None:
    """The content-to-content attention's shape (3-D: a fact of the schema's inference).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/contrib_defs.cc
    """
    ctx.set_output(0, shape_of_rank(ctx, 0, (3,), "c2c_attention"))


@register(ONNX, "EfficientNMS_TRT")
def efficient_nms(ctx: OpContext) -> None:
    """Fixed-size detections per image, sized by ``max_output_boxes`` (>= 1): num_detections
    ``(B, 1)``, boxes ``(B, max, 4)``, scores and classes ``(B, max)``; ``B`` is the boxes' batch.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/contrib_defs.cc
    """
    most = required_int(ctx, "max_output_boxes")
    boxes = ctx.shape(0)
    if not boxes:
        raise ctx.invalid("the boxes are a scalar", "boxes (B, boxes, 4)", FIX_PLUGIN)
    batch = boxes[0]
    for i, dims in enumerate(((batch, 1), (batch, most, 4), (batch, most), (batch, most))):
        ctx.set_output(i, dims)


@register(ONNX, "MultilevelCropAndResize_TRT", "PyramidROIAlign_TRT")
def roi_plugin(ctx: OpContext) -> None:
    """Pooled patches ``(B, R, C, pooled_size, pooled_size)`` from boxes ``(B, R, ...)`` and the
    first feature map's channels ``C`` (``pooled_size >= 1``: the schema's inference).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/contrib_defs.cc
    """
    pooled = required_int(ctx, "pooled_size")
    boxes = ctx.shape(0)
    features = ctx.shape(1)
    if len(boxes) < 2 or len(features) < 2:
        raise ctx.invalid(f"boxes of rank {len(boxes)} and a feature map of rank {len(features)}",
                          "boxes (B, R, ...) and feature maps (B, C, ...)", FIX_PLUGIN)
    ctx.set_output(0, (boxes[0], boxes[1], features[1], pooled, pooled))
