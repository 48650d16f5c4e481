"""onnxruntime's NCHWc ops (``com.microsoft.nchwc``), which its NchwcTransformer writes into
models saved at ``ORT_ENABLE_ALL`` on a CPU whose MLAS has blocked convolutions.

NCHWc is a blocked layout: the channel dim is padded up to a multiple of the block size
``MlasNchwcGetBlockSize()`` (8 with AVX2, 16 with AVX-512), a property of the machine, not of
the model. So the padded channel count ReorderInput makes is a fresh symbol of its unpadded
count (one per count: the block size is fixed for a run), ``>=`` that count, unless the model
states it (a declared shape); it becomes exact where an NCHWc Conv consumes it, since the
transformer already padded the Conv's weights (``W[1] * group`` equals the input's channels, a
kernel fact). Conv and the pools follow the ai.onnx rules (same attributes, same arithmetic);
ReorderOutput drops the padding back to its ``channels`` attribute.
https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/nchwc_schema_defs.cc
https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/nchwc_ops.cc
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import FIX_CONTRACT, eq_shape, reuse
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.fit import require_ge

NCHWC = "com.microsoft.nchwc"
KERNELS = "https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/nchwc_ops.cc"


def _input4(ctx: OpContext) -> tuple[Dim, ...]:
    """Input 0, which every NCHWc kernel requires to be 4-D (``ORT_ENFORCE(X_rank == 4)``)."""
    x = ctx.shape(0)
    ctx.require_rank(x, 4, "input X", "rank 4: the NCHWc kernels run 2-D images only", FIX_CONTRACT)
    return x


@register(NCHWC, "ReorderInput")
def reorder_input(ctx: OpContext) -> None:
    """NCHW (or NHWC with ``channels_last``) to NCHWc: ``(N, C, H, W)`` gives ``(N, Cp, H, W)``
    with ``Cp`` the channel count padded to the machine's block size. Facts: ``4 | C`` (the
    kernel enforces it) and ``Cp >= C``.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/nchwc_schema_defs.cc
    """
    x = _input4(ctx)
    last = bool(ctx.attr("channels_last", 0))
    c = x[3] if last else x[1]
    spatial = x[1:3] if last else x[2:]
    if isinstance(c, int) and c % 4:
        raise ctx.invalid(f"{c} input channels", "a multiple of 4 (ReorderInput's kernel requires it)", FIX_CONTRACT)
    ctx.assume_divisible(c, 4, "ReorderInput channels divisible by 4")
    ctx.set_output(0, (x[0], _padded_channels(ctx, ctx.canon(c)), *spatial))


def _padded_channels(ctx: OpContext, c: Dim) -> Dim:
    """The declared padded count, else the fresh symbol for ``c`` padded to the block size."""
    declared = _declared_channels(ctx)
    if declared is not None:
        _at_least(ctx, declared, c)
        return declared
    cause = ctx.new_cause(
        f"the channel count {c} padded to the NCHWc block size, which MlasNchwcGetBlockSize() gives at run time "
        "(8 with AVX2, 16 with AVX-512); no NCHWc Conv consuming it and no declared shape states it"
    )
    lo = c if isinstance(c, int) else 0
    padded = ctx.memo_fresh(("nchwc_channels", str(c)), "NCHWc padded channels", lo=lo, cause=cause)
    if not isinstance(c, int):
        _at_least(ctx, padded, c)
    return padded


def _at_least(ctx: OpContext, padded: Dim, c: Dim) -> None:
    require_ge(ctx, add(padded, mul(c, -1)), 0, "padded channels >= channels",
               f"the padded channel count {padded} minus the channel count {c}")


def _declared_channels(ctx: OpContext) -> int | None:
    value = ctx.program.values.get(ctx.op.outputs[0]) if ctx.num_outputs else None
    dims = value.type.dims if value is not None and value.type is not None else None
    if dims is None or len(dims) != 4 or not isinstance(dims[1], int) or dims[1] < 0:
        return None
    return dims[1]


@register(NCHWC, "ReorderOutput")
def reorder_output(ctx: OpContext) -> None:
    """NCHWc back to NCHW (or NHWC with ``channels_last``): the padded channels are cut to the
    ``channels`` attribute (required, > 0), which is at most the input's channels (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/nchwc_schema_defs.cc
    """
    x = _input4(ctx)
    channels = ctx.attr("channels", 0)
    if not isinstance(channels, int) or channels <= 0:
        raise ctx.invalid(f"attribute 'channels' is {channels!r}", "a positive channel count", FIX_CONTRACT)
    require_ge(ctx, x[1], channels, "ReorderOutput channels fit the input", "the input's padded channel count")
    if ctx.attr("channels_last", 0):
        ctx.set_output(0, (x[0], x[2], x[3], channels))
    else:
        ctx.set_output(0, (x[0], channels, x[2], x[3]))


@register(NCHWC, "Conv")
def nchwc_conv(ctx: OpContext) -> None:
    """Conv on 4-D NCHWc tensors (inputs X, W, B, Sum): the ai.onnx Conv rule, whose facts
    (``X[1] == W[1] * group``, bias length ``W[0]``) hold on the padded counts; the optional Sum
    has the output's shape (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/nchwc_schema_defs.cc
    """
    _input4(ctx)
    reuse(ctx, ONNX, "Conv")
    y = ctx.output_shape(0)
    if y is not None and ctx.has_input(3):
        eq_shape(ctx, 3, y, "Sum shape", "input Sum", "the output")


@register(NCHWC, "MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool")
def nchwc_pool(ctx: OpContext) -> None:
    """The ai.onnx pooling rule on a 4-D NCHWc input: two kernel dims, channels unchanged;
    ``(N, Cp, 1, 1)`` for the global pools.

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/nchwc_schema_defs.cc
    """
    _input4(ctx)
    reuse(ctx, ONNX, ctx.op.op_type)


@register(NCHWC, "Upsample")
def nchwc_upsample(ctx: OpContext) -> None:
    """``(N, Cp, H*s2, W*s3)`` for the integer ``scales`` attribute ``[1, 1, s2, s3]`` (the kernel
    requires 4 scales, the first two 1, the others >= 1).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/nchwc_ops.h
    """
    n, c, h, w = _input4(ctx)
    attr: object = ctx.attr("scales")
    scales = [int(s) for s in cast("Sequence[int]", attr)] if isinstance(attr, (list, tuple)) else []
    if len(scales) != 4 or scales[0] != 1 or scales[1] != 1 or scales[2] < 1 or scales[3] < 1:
        raise ctx.invalid(f"attribute 'scales' is {attr!r}", "four ints [1, 1, s_h >= 1, s_w >= 1]", FIX_CONTRACT)
    ctx.set_output(0, (n, c, ctx.canon(mul(h, scales[2])), ctx.canon(mul(w, scales[3]))))
