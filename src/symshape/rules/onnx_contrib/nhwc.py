"""onnxruntime's channels-last ops: the internal NHWC domain and the com.microsoft layout ops.

``com.ms.internal.nhwc`` holds the ai.onnx layout-sensitive ops after onnxruntime's layout
transformer moved them to channels last for an execution provider. Only input 0 and output 0
change layout (`TransformLayoutForEP` wraps just those in Transposes): weights, biases, indices,
grids and ``output_shape`` keep their ONNX layout, and the schemas run the ai.onnx shape
inference on an NCHW view of input 0 (``NhwcInferenceContext``), then move the channels of
output 0 last. The rules here do the same with the ai.onnx rules (`run_nchw`). Resize is the
exception: its schema runs the NCHW inference on the NHWC input as is (the transformer permuted
its scales and sizes). The QLinear ops use the float op's window arithmetic.
https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/internal_nhwc_onnx_schemas.cc
https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/nhwc_inference_context.h

The com.microsoft ops: NhwcConv (CUDA; weight ``(M, k..., C/group)`` as the transformers'
``FusionNhwcConv`` writes it), NhwcFusedConv (the CPU NhwcTransformer's: weight ``(M, C/group,
k...)`` unchanged, sum input Z channels last), NhwcMaxPool; and NCHW ops of the contrib set:
GridSample, Pad (pads as an input), ConvTransposeWithDynamicPads, MaxpoolWithMask.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import Op
from symshape.rules.onnx.data_dependent import data_symbol
from symshape.rules.onnx_contrib.layers import FIX_CONTRACT, MS, eq_dims, eq_shape
from symshape.rules.registry import ONNX, Rule, lookup, register
from symshape.rules.shared.fit import require_ge

NHWC = "com.ms.internal.nhwc"
NHWC_SCHEMAS = (
    "https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/internal_nhwc_onnx_schemas.cc"
)
_VIEW = " (as NCHW)"  # suffix of the temporary values a view binds


def to_nchw(dims: Sequence[Dim]) -> tuple[Dim, ...]:
    """``(N, D1.., C)`` -> ``(N, C, D1..)``."""
    return (dims[0], dims[-1], *dims[1:-1])


def to_nhwc(dims: Sequence[Dim]) -> tuple[Dim, ...]:
    """``(N, C, D1..)`` -> ``(N, D1.., C)``."""
    return (dims[0], *dims[2:], dims[1])


def channels_last_input(ctx: OpContext, i: int, what: str = "the channels-last input") -> tuple[Dim, ...]:
    """Input ``i`` as ``(N, D1.., C)``: rank >= 3, as NhwcInferenceContext requires."""
    dims = ctx.shape(i)
    ctx.require_rank(dims, range(3, 64), f"{what} (input #{i})", "rank >= 3 (N, spatial..., C)", FIX_CONTRACT)
    return dims


def _rule(op_type: str, version: int) -> Rule:
    rule = lookup(ONNX, op_type, version)
    if rule is None:
        raise GiveUp(f"no ai.onnx {op_type} rule is available")
    return rule


def run_nchw(
    ctx: OpContext,
    op_type: str,
    inputs: Sequence[int | None],
    last: Collection[int] = (0,),
    *,
    version: int = 0,
    attrs: dict[str, Any] | None = None,
) -> list[tuple[Dim, ...] | None]:
    """Run the ai.onnx ``op_type`` rule on a view of this op: its inputs are this op's
    ``inputs`` (None: absent), those whose index is in ``last`` permuted from channels last to
    NCHW; returns the dims the rule gives each output (in NCHW, as the rule computes them).

    The view binds temporary values (``<name> (as NCHW)``) and removes them afterwards; facts
    and errors are recorded at this op (the view keeps its name and domain).
    """
    state = ctx.state
    names: list[str] = []
    temps: list[str] = []
    for i in inputs:
        if i is None or not ctx.has_input(i):
            names.append("")
        elif i in last:
            name = ctx.op.inputs[i] + _VIEW
            ctx.bind(name, to_nchw(channels_last_input(ctx, i)), None)
            names.append(name)
            temps.append(name)
        else:
            names.append(ctx.op.inputs[i])
    outs = [o + _VIEW if o else "" for o in ctx.op.outputs]
    temps += [o for o in outs if o]
    view = Op(ctx.op.dialect, op_type, ctx.op.name, names, outs, attrs if attrs is not None else dict(ctx.op.attrs),
              version)
    try:
        _rule(op_type, version)(OpContext(state, ctx.program, view))
        return [state.shapes.get(o) if o else None for o in outs]
    except GiveUp as stop:  # point to this op's own input, not the view's position
        at = stop.unknown_input
        mapped = inputs[at] if at is not None and at < len(inputs) else None
        raise GiveUp(stop.reason, unknown_input=mapped, fact=stop.fact) from None
    finally:
        for t in temps:
            state.shapes.pop(t, None)
            state.elements.pop(t, None)
            state.floats.pop(t, None)
            state.causes.values.pop(t, None)


def _nhwc_outputs(ctx: OpContext, outs: Sequence[tuple[Dim, ...] | None]) -> None:
    """Output 0 channels last, the others as the NCHW rule gave them (MaxPool's indices and
    BatchNormalization's statistics are not transposed by the layout transformer)."""
    for k, dims in enumerate(outs):
        if dims is not None:
            ctx.set_output(k, to_nhwc(dims) if k == 0 else dims)


# ------------------------------------------------------------- com.ms.internal.nhwc
@register(NHWC, "AveragePool", "BatchNormalization", "Conv", "ConvTranspose", "DepthToSpace", "GlobalAveragePool",
          "GlobalLpPool", "GlobalMaxPool", "GridSample", "InstanceNormalization", "LRN", "LpPool", "MaxPool",
          "MaxUnpool", "QLinearConv", "SpaceToDepth")
def nhwc_op(ctx: OpContext) -> None:
    """The ai.onnx op with input 0 and output 0 channels last: the ai.onnx rule on the NCHW
    view of input 0 (every other input as it is), output 0 moved to ``(N, D1.., C)``.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/internal_nhwc_onnx_schemas.cc
    """
    channels_last_input(ctx, 0)
    outs = run_nchw(ctx, ctx.op.op_type, range(ctx.num_inputs), version=ctx.op.version)
    _nhwc_outputs(ctx, outs)


@register(NHWC, "Resize")
def nhwc_resize(ctx: OpContext) -> None:
    """Resize's own rule on the NHWC input as it is: the schema runs the ONNX inference
    unchanged (REGISTER_NCHW_SCHEMA_WITH_NHWC_DOMAIN) and the layout transformer permuted the
    4-element scales and sizes with the data.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/internal_nhwc_onnx_schemas.cc
    """
    _rule("Resize", ctx.op.version)(ctx)


@register(NHWC, "QLinearAveragePool")
def nhwc_qlinear_average_pool(ctx: OpContext) -> None:
    """AveragePool's window arithmetic on the NCHW view of X (inputs X, x_scale, x_zero_point,
    y_scale, y_zero_point); Y is channels last. ``channels_last`` is ignored: in this domain X
    is always channels last (the transformer sets the attribute to 1 where it was present).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/internal_nhwc_onnx_schemas.cc
    """
    channels_last_input(ctx, 0)
    attrs = {k: v for k, v in ctx.op.attrs.items() if k != "channels_last"}
    _nhwc_outputs(ctx, run_nchw(ctx, "AveragePool", (0,), attrs=attrs)[:1])


@register(NHWC, "QLinearConvTranspose")
def nhwc_qlinear_conv_transpose(ctx: OpContext) -> None:
    """ConvTranspose's arithmetic on x (input 0, channels last), w (input 3, ``(C, M/group,
    k...)``) and the bias (input 8); y is channels last.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/internal_nhwc_onnx_schemas.cc
    """
    channels_last_input(ctx, 0)
    _nhwc_outputs(ctx, run_nchw(ctx, "ConvTranspose", (0, 3, 8))[:1])


# ------------------------------------------------------------- com.microsoft NHWC ops
@register(MS, "NhwcConv")
def nhwc_conv(ctx: OpContext) -> None:
    """Conv with X ``(N, D1.., C)`` and W ``(M, k1.., C/group)``, both channels last (the weight
    layout ``FusionNhwcConv`` writes and the CUDA kernel reads); Y is ``(N, out1.., M)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.NhwcConv
    """
    channels_last_input(ctx, 0)
    _nhwc_outputs(ctx, run_nchw(ctx, "Conv", (0, 1, 2), (0, 1))[:1])


@register(MS, "NhwcFusedConv")
def nhwc_fused_conv(ctx: OpContext) -> None:
    """FusedConv with X and Y channels last and W ``(M, C/group, k...)`` as in Conv (the CPU
    NhwcTransformer transposes only X, the sum input Z and Y); Z has Y's shape (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.NhwcFusedConv
    """
    channels_last_input(ctx, 0)
    outs = run_nchw(ctx, "Conv", (0, 1, 2))[:1]
    _nhwc_outputs(ctx, outs)
    y = ctx.output_shape(0)
    if y is not None and ctx.has_input(3):
        eq_shape(ctx, 3, y, "Z shape", "input Z", "the output")


@register(MS, "NhwcMaxPool")
def nhwc_max_pool(ctx: OpContext) -> None:
    """MaxPool on the NCHW view of the int8/uint8 input x ``(N, D1.., C)``; y is channels last.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.NhwcMaxPool
    """
    channels_last_input(ctx, 0)
    _nhwc_outputs(ctx, run_nchw(ctx, "MaxPool", (0,))[:1])


# ------------------------------------------------------------- com.microsoft NCHW ops
@register(MS, "GridSample")
def contrib_grid_sample(ctx: OpContext) -> None:
    """ai.onnx GridSample's shapes: X ``(N, C, D1..Dr)`` and Grid ``(N, O1..Or, r)`` give
    ``(N, C, O1..Or)``. The contrib kernel is onnxruntime's GridSample kernel, which runs the
    5-D case too (the contrib doc names only 4-D).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GridSample
    """
    _rule("GridSample", 0)(ctx)


@register(MS, "Pad")
def contrib_pad(ctx: OpContext) -> None:
    """ai.onnx Pad with the pads as input 1 (``(2*rank)`` or ``(1, 2*rank)`` int64) and an
    optional scalar value: each dim grows by its begin and end pads.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Pad
    """
    pads = ctx.shape_or_none(1)
    if pads is not None and (len(pads) not in (1, 2) or (len(pads) == 2 and ctx.prove_eq(pads[0], 1) is False)):
        raise ctx.invalid(f"pads of shape {[str(d) for d in pads]}", "a 1-D (2*rank) or 2-D (1, 2*rank) tensor",
                          FIX_CONTRACT)
    _rule("Pad", 11)(ctx)


@register(MS, "ConvTransposeWithDynamicPads")
def conv_transpose_dynamic_pads(ctx: OpContext) -> None:
    """ConvTranspose (inputs X, W, Pads, B) whose explicit pads come from input 2 (required, each
    ``>= 0``: kernel checks): exact when its values are tracked (expressions too), a data symbol
    per spatial axis when they are not. With ``auto_pad`` or ``output_shape`` the pads do not
    decide the size.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.ConvTransposeWithDynamicPads
    """
    if not ctx.has_input(2):  # the kernel: "Dynamic pads tensor is required."
        raise ctx.invalid("the Pads input (#2) is missing", "an int64 tensor of 2 pads per spatial axis", FIX_CONTRACT)
    attrs = dict(ctx.op.attrs)
    notset = str(attrs.get("auto_pad", "NOTSET") or "NOTSET") == "NOTSET" and not attrs.get("output_shape")
    pads = ctx.elements(2)
    for k, p in enumerate(pads or ()):  # the kernel: "Dynamic pads must be non-negative."
        require_ge(ctx, p, 0, "dynamic pads >= 0", f"pads[{k}]")
    ints = [p for p in pads if isinstance(p, int)] if pads is not None else None
    if notset and pads is not None and ints is not None and len(ints) == len(pads):
        attrs["pads"] = ints
    out = run_nchw(ctx, "ConvTranspose", (0, 1, 3), (), attrs=attrs)[0]
    if out is None:
        return
    if notset and "pads" not in attrs:
        out = _dynamic_pads(ctx, out, pads)
    ctx.set_output(0, out)


def _dynamic_pads(ctx: OpContext, unpadded: tuple[Dim, ...], pads: tuple[Dim, ...] | None) -> tuple[Dim, ...]:
    """The sizes with no pads minus the tracked symbolic pads, or a data symbol per axis."""
    axes = len(unpadded) - 2
    if pads is None:
        spatial = [data_symbol(ctx, ("ConvTransposeWithDynamicPads", ctx.op.inputs[2], ctx.op.name, str(a)),
                               "transposed size with the runtime pads", lo=1) for a in range(axes)]
        return (*unpadded[:2], *spatial)
    ctx.require_len(pads, 2 * axes, "the pads input has {got} values", "{n} values (begin and end per spatial axis)",
                    FIX_CONTRACT)
    out: list[Dim] = list(unpadded[:2])
    for a in range(axes):
        size = ctx.canon(add(unpadded[2 + a], mul(add(pads[a], pads[a + axes]), -1)))
        require_ge(ctx, size, 1, "output size >= 1", f"output size on spatial axis {a}")
        out.append(ctx.canon(size))
    return tuple(out)


@register(MS, "MaxpoolWithMask")
def maxpool_with_mask(ctx: OpContext) -> None:
    """MaxPool's shape on X; the int32 mask M has X's rank and spatial dims (kernel checks; its
    N and C may differ: the kernel wraps them).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/maxpool_with_mask.h
    """
    x = ctx.shape(0)
    m = ctx.shape(1)
    ctx.require_rank(m, len(x), "the mask M", f"rank {len(x)}, the rank of X", FIX_CONTRACT)
    for axis in range(2, len(x)):
        eq_dims(ctx, m[axis], x[axis], "mask shape", 1, axis, f"dim {axis} of X")
    out = run_nchw(ctx, "MaxPool", (0,), ())[0]
    if out is not None:
        ctx.set_output(0, out)
