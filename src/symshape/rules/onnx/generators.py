"""Ops that create tensors from attributes or scalar inputs.

RandomNormal/RandomUniform, Multinomial, the window functions, MelWeightMatrix, DFT and STFT.

A size read from a scalar input comes from its tracked element; an untracked one becomes a
``data`` symbol shared by every op reading the same value.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, floordiv, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol, record_le
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import normalize_axis


def scalar_size(ctx: OpContext, i: int, what: str) -> Dim:
    """The non-negative size held by scalar input ``i`` (a shared data symbol when untracked)."""
    els = ctx.elements(i)
    if els is not None and len(els) == 1:
        if isinstance(els[0], int) and els[0] < 0:
            raise ctx.invalid(f"{what} is {els[0]}", f"{what} >= 0", f"fix the {what} input")
        return els[0]
    return data_symbol(ctx, (what, ctx.input_name(i)), what)


@register(ONNX, "RandomNormal", "RandomUniform")
def random_from_shape(ctx: OpContext) -> None:
    """The dims listed in the ``shape`` attribute.

    https://onnx.ai/onnx/operators/onnx__RandomNormal.html
    """
    shape = ctx.attr("shape")
    if shape is None:
        raise ctx.invalid("the shape attribute is required but missing", "a list of ints", "give the shape attribute")
    dims = [int(d) for d in shape]
    if any(d < 0 for d in dims):
        raise ctx.invalid(f"shape {dims} has a negative dim", "dims >= 0", "fix the shape attribute")
    ctx.set_output(0, dims)


@register(ONNX, "Multinomial")
def multinomial(ctx: OpContext) -> None:
    """``[batch, sample_size]`` from ``[batch, classes]``.

    https://onnx.ai/onnx/operators/onnx__Multinomial.html
    """
    dims = ctx.shape(0)
    ctx.require_rank(dims, 2, "the input", "a 2-D [batch, classes] input")
    ctx.set_output(0, (dims[0], int(ctx.attr("sample_size", 1))))


@register(ONNX, "HannWindow", "HammingWindow", "BlackmanWindow")
def window(ctx: OpContext) -> None:
    """A 1-D window of ``size`` samples.

    https://onnx.ai/onnx/operators/onnx__HannWindow.html
    """
    ctx.set_output(0, (scalar_size(ctx, 0, "window size"),))


@register(ONNX, "MelWeightMatrix")
def mel_weight_matrix(ctx: OpContext) -> None:
    """``[floor(dft_length/2) + 1, num_mel_bins]``.

    https://onnx.ai/onnx/operators/onnx__MelWeightMatrix.html
    """
    bins = scalar_size(ctx, 0, "num_mel_bins")
    length = scalar_size(ctx, 1, "dft_length")
    ctx.set_output(0, (add(floordiv(length, 2), 1), bins))


def _dft_axis(ctx: OpContext, rank: int) -> int | None:
    """The signal axis; None when it is an input whose value is not known."""
    if ctx.op.version >= 20 or ctx.num_inputs > 2:
        if ctx.has_input(2):
            axis = ctx.const_ints(2)
            if axis is None or len(axis) != 1:
                return None
            value = axis[0]
        else:
            value = -2
    else:
        value = int(ctx.attr("axis", 1))
    axis = normalize_axis(ctx, value, rank)
    if axis == rank - 1:
        raise ctx.invalid(
            f"axis {value} is the complex-component dim",
            f"a signal axis (any dim but the last of rank {rank})",
            "fix the axis",
        )
    return axis


@register(ONNX, "DFT")
def dft(ctx: OpContext) -> None:
    """The signal axis becomes ``dft_length`` (``floor(n/2) + 1`` for RFFT).

    The last dim is 2 (complex), or 1 for IRFFT. The axis is an attribute before opset 20
    (default 1) and an input since (default -2). With an axis input of unknown value, a
    transform that keeps the signal length (no ``dft_length``, not one-sided) still keeps every
    dim but the last; otherwise the signal dims are fresh symbols (any of them may be the axis).
    https://onnx.ai/onnx/operators/onnx__DFT.html
    """
    dims = ctx.shape(0)
    if len(dims) < 2:
        raise ctx.invalid(f"the input has rank {len(dims)}", "rank >= 2 (the signal dims and a last dim of 1 or 2)")
    axis = _dft_axis(ctx, len(dims))
    onesided, inverse = bool(ctx.attr("onesided", 0)), bool(ctx.attr("inverse", 0))
    last = 1 if onesided and inverse else 2
    if axis is None:
        keeps = not ctx.has_input(1) and not onesided
        signal = dims[:-1] if keeps else [ctx.fresh(f"signal_d{a}") for a in range(len(dims) - 1)]
        ctx.set_output(0, [*signal, last])
        return
    if ctx.has_input(1):
        n = scalar_size(ctx, 1, "dft_length")
    elif onesided and inverse:
        n = mul(add(dims[axis], -1), 2)
    else:
        n = dims[axis]
    out = list(dims)
    out[axis] = add(floordiv(n, 2), 1) if onesided and not inverse else n
    out[-1] = last
    ctx.set_output(0, out)


@register(ONNX, "STFT")
def stft(ctx: OpContext) -> None:
    """``[batch, frames, bins, 2]`` with ``frames = floor((L - frame_length)/frame_step) + 1``.

    ``bins = frame_length//2 + 1`` when onesided. A window and frame_length agree (a fact).

    https://onnx.ai/onnx/operators/onnx__STFT.html
    """
    signal = ctx.shape(0)
    ctx.require_rank(signal, 3, "the signal", "a signal [batch, length, 1 or 2]")
    step = scalar_size(ctx, 1, "frame_step")
    window_dims = ctx.shape(2) if ctx.has_input(2) else None
    if ctx.has_input(3):
        frame = scalar_size(ctx, 3, "frame_length")
        if window_dims is not None:
            ctx.eq(window_dims[0], frame, "STFT window length", (ctx.dim_name(2, 0), "frame_length"))
    elif window_dims is not None:
        frame = window_dims[0]
    else:
        frame = signal[1]
    record_le(ctx, 1, step, "STFT frame_step >= 1")
    record_le(ctx, frame, signal[1], "STFT frame_length <= signal length")
    frames = add(floordiv(add(signal[1], mul(frame, -1)), step), 1)
    bins = add(floordiv(frame, 2), 1) if ctx.attr("onesided", 1) else frame
    ctx.set_output(0, (signal[0], frames, bins, 2))
