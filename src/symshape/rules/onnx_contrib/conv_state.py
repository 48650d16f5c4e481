"""com.microsoft causal convolutions with a carried state and the state-replay ops:
CausalConvWithState, VarlenCausalConvWithState, GatedDeltaNetStateReplay, ConvStateReplay and
Mamba2Verify (split from `symshape.rules.onnx_contrib.recurrent_state`, whose helpers they share).

The contract is the onnxruntime 1.32 schema plus what the CPU kernels reject
(``causal_conv_with_state.cc``, ``varlen_causal_conv_with_state.cc``): every such rejection is a fact.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul, product
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    eq_dims,
    eq_shape,
    eq_vector,
    required_int,
    shape_of_rank,
)
from symshape.rules.onnx_contrib.recurrent_state import (
    MAX_CAPACITY,
    int_attr,
    packed_batch,
    presence,
    require_together,
    with_window,
)
from symshape.rules.registry import register
from symshape.rules.shared.fit import require_ge

# ------------------------------------------------------------------------ causal convs
EXTENDED = ("input_channels", "input_channel_offset", "state_length", "state_update_capacity")


@register(MS, "CausalConvWithState")
def causal_conv_with_state(ctx: OpContext) -> None:
    """Stateful causal depthwise conv: ``output`` has the input's shape; ``present_state`` is
    ``(B, C, (K-1)*dilation)`` (channels-last: ``(B, (K-1)*dilation, d_1..d_n)``, ``C`` the
    product of the ``d``), led by ``(W,)`` when ``state_window = W > 0``; past_state has that
    shape, weight is ``(C, 1, K)``, bias ``(C)`` (facts). The CUDA-only channel slice
    (``input_channels``, ``state_length``, ``state_channels_last``) gives ``(B, L, c)``, a state
    of ``state_length`` rows and ``state_update (B, capacity, c)``. No kernel implements
    ``ndim > 1``: its state takes the declared shape.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.CausalConvWithState
    """
    ndim = int_attr(ctx, "ndim", 1, 1, 3)
    last = int_attr(ctx, "channels_last", 0, 0, 1)
    dilation = int_attr(ctx, "dilation", 1, 1)
    window = int_attr(ctx, "state_window", 0, 0, MAX_CAPACITY)
    if last and ndim != 1:
        raise ctx.invalid(f"channels_last=1 with ndim={ndim}", "ndim = 1 for channels_last", FIX_CONTRACT)
    x = ctx.shape(0)
    if len(x) < 3 if last else len(x) != ndim + 2:
        want = "rank >= 3 (channels_last)" if last else f"rank {ndim + 2} (ndim + 2)"
        raise ctx.invalid(f"input 'input' has rank {len(x)}", want, FIX_CONTRACT)
    w = shape_of_rank(ctx, 1, (ndim + 2,), "weight")
    extended = any(ctx.attr(a, 0) for a in EXTENDED) or ctx.attr("state_channels_last", -1) != -1
    if extended:
        _extended_conv(ctx, x, w, dilation, window, last)
        return
    if ctx.num_outputs > 2 and ctx.op.outputs[2]:
        raise ctx.invalid("the state_update output with state_update_capacity 0", "state_update_capacity > 0")
    batch = x[0]
    channels = product(x[2:]) if last else x[1]
    _depthwise(ctx, w, channels, "the input channels")
    ctx.set_output(0, x)
    if ndim != 1:
        ctx.declared_output(1, f"no onnxruntime kernel implements ndim={ndim}: its state shape is undefined")
        return
    hist = ctx.canon(mul(add(w[2], -1), dilation))
    state = with_window(ctx, window, (batch, hist, *x[2:]) if last else (batch, channels, hist))
    if ctx.has_input(3):
        eq_shape(ctx, 3, state, "past_state shape", "past_state", "present_state")
    ctx.set_output(1, state)


def _depthwise(ctx: OpContext, w: tuple[Dim, ...], channels: Dim, what: str) -> None:
    """Facts: the depthwise weight is ``(channels, 1, K...)``, the bias ``(channels)``."""
    eq_dims(ctx, w[0], channels, "weight channels", 1, 0, what)
    eq_dims(ctx, w[1], 1, "depthwise weight", 1, 1, "1")
    eq_vector(ctx, 2, channels, "bias shape", what)


def _extended_conv(
    ctx: OpContext, x: tuple[Dim, ...], w: tuple[Dim, ...], dilation: int, window: int, last: int
) -> None:
    """CausalConvWithState's CUDA channel-slice path: rank-3 channels-last input only."""
    if not last or window or len(x) != 3:
        raise ctx.invalid("extended channel/state attributes", "channels_last=1, ndim=1, state_window=0 and a "
                          "rank-3 input", FIX_CONTRACT)
    offset = int_attr(ctx, "input_channel_offset", 0, 0)
    width = int_attr(ctx, "input_channels", 0, 0)
    capacity = int_attr(ctx, "state_update_capacity", 0, 0, MAX_CAPACITY)
    length = int_attr(ctx, "state_length", 0, 0)
    layout = int_attr(ctx, "state_channels_last", -1, -1, 1)
    if offset and not width:
        raise GiveUp("input_channel_offset without input_channels: the slice width is not documented")
    channels: Dim = width if width else x[2]
    require_ge(ctx, add(x[2], -offset), width, "the channel slice fits the input", "the input width minus the offset")
    _depthwise(ctx, w, channels, "the selected channels")
    hist = ctx.canon(mul(add(w[2], -1), dilation))
    if length:
        require_ge(ctx, add(length, mul(hist, -1)), 0, "state_length covers the receptive field",
                   "state_length minus (K-1)*dilation")
        hist = length
    state = (x[0], channels, hist) if layout == 0 else (x[0], hist, channels)
    if ctx.has_input(3):
        eq_shape(ctx, 3, state, "past_state shape", "past_state", "present_state")
    if ctx.num_outputs > 2 and ctx.op.outputs[2] and not capacity:
        raise ctx.invalid("the state_update output with state_update_capacity 0", "state_update_capacity > 0")
    ctx.set_output(0, (x[0], x[1], ctx.canon(channels)))
    ctx.set_output(1, state)
    ctx.set_output(2, (x[0], capacity, ctx.canon(channels)))


@register(MS, "VarlenCausalConvWithState")
def varlen_causal_conv_with_state(ctx: OpContext) -> None:
    """Causal depthwise conv over a packed ``(N, C)`` batch of ``B = len(cu) - 1`` requests:
    ``output (N, C)``, ``final_state (B, C, (K-1)*dilation)`` (initial_state's shape, a fact),
    ``state_update (B, capacity, C)``. Facts: weight ``(C, 1, K)``, bias ``(C)``, ``N >= B``,
    capture_count ``(B)`` exactly when capacity > 0, and the CUDA dynamic-mode operands
    kernel_delta ``(N, taps, C/group_size)`` and previous_mask ``(N, 1)`` together.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.VarlenCausalConvWithState
    """
    dilation = int_attr(ctx, "dilation", 1, 1)
    capacity = int_attr(ctx, "state_update_capacity", 0, 0, MAX_CAPACITY)
    group = int_attr(ctx, "group_size", 1, 1)
    total, channels = shape_of_rank(ctx, 0, (2,), "input")
    w = shape_of_rank(ctx, 1, (3,), "weight")
    eq_shape(ctx, 1, (channels, 1, w[2]), "weight shape", "weight", "(channels, 1, kernel_size)")
    batch = packed_batch(ctx, 2, "cumulative_sequence_length")
    require_ge(ctx, add(total, mul(batch, -1)), 0, "every request has a token", "total_tokens - batch_size")
    eq_vector(ctx, 3, channels, "bias shape", "channels")
    state = (batch, channels, ctx.canon(mul(add(w[2], -1), dilation)))
    eq_shape(ctx, 4, state, "initial_state shape", "initial_state", "(batch, channels, (K-1)*dilation)")
    presence(ctx, 5, "capture_count", capacity > 0, "state_update_capacity > 0")
    eq_vector(ctx, 5, batch, "capture_count shape", "batch_size")
    if require_together(ctx, ((6, "kernel_delta"), (7, "previous_mask"))):
        delta = shape_of_rank(ctx, 6, (3,), "kernel_delta")
        eq_dims(ctx, delta[0], total, "kernel_delta shape", 6, 0, "total_tokens")
        eq_dims(ctx, delta[2], div_exact(ctx, channels, group, "channels"), "kernel_delta shape", 6, 2,
                "channels / group_size")
        eq_shape(ctx, 7, (total, 1), "previous_mask shape", "previous_mask", "(total_tokens, 1)")
    ctx.set_output(0, (total, channels))
    ctx.set_output(1, state)
    ctx.set_output(2, (batch, capacity, channels))


# ---------------------------------------------------------------------------- replays
def _replay(ctx: OpContext, fields: int) -> None:
    for i, name in enumerate(("source_backing", "second backing", "destination_backing", "metadata")):
        shape_of_rank(ctx, i, (1,), name)
    eq_vector(ctx, 3, fields, "metadata shape", f"{fields} metadata fields")
    ctx.set_output(0, ctx.shape(2))


@register(MS, "GatedDeltaNetStateReplay")
def gated_delta_net_state_replay(ctx: OpContext) -> None:
    """Replays captured transitions into a rank-1 backing: the output is destination_backing
    (the same allocation); every input has rank 1 and metadata holds 11 fields (schema facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatedDeltaNetStateReplay
    """
    _replay(ctx, 11)


@register(MS, "ConvStateReplay")
def conv_state_replay(ctx: OpContext) -> None:
    """Rebuilds a convolution history in a rank-1 backing: the output is destination_backing;
    every input has rank 1 and metadata holds 8 fields (schema facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.ConvStateReplay
    """
    _replay(ctx, 8)


# ------------------------------------------------------------------------------ mamba
@register(MS, "Mamba2Verify")
def mamba2_verify(ctx: OpContext) -> None:
    """One sequence of ``R`` rows: ``Y (R, d_i)``, the snapshots keep conv_state's
    ``(slots, ch, 3)`` and ssm_state's ``(slots, heads, d_state, head_dim)`` shapes,
    ``xbc (R, ch)``, ``readout (R, d_i)``; ``d_i = heads*head_dim``, ``ch = d_i +
    2*n_groups*d_state``, projection ``(R, 2*d_i + 2*n_groups*d_state + heads)``. Facts (the
    schema's inference): every input's shape, ``R >= 1``, ``slots >= 1``; head_dim 64, d_state
    128 and ``n_groups | heads`` are the attributes it accepts.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Mamba2Verify
    """
    heads, groups = required_int(ctx, "heads"), required_int(ctx, "n_groups")
    head_dim, d_state = ctx.attr("head_dim", 64), ctx.attr("d_state", 128)
    if heads % groups or head_dim != 64 or d_state != 128:
        raise ctx.invalid(f"heads={heads}, n_groups={groups}, head_dim={head_dim}, d_state={d_state}",
                          "n_groups dividing heads, head_dim 64 and d_state 128", FIX_CONTRACT)
    inner = heads * head_dim
    channels = inner + 2 * groups * d_state
    rows, _ = shape_of_rank(ctx, 0, (2,), "projection")
    eq_shape(ctx, 0, (rows, 2 * inner + 2 * groups * d_state + heads), "projection shape", "projection",
             "(R, 2*d_i + 2*n_groups*d_state + heads)")
    require_ge(ctx, rows, 1, "at least one row", "the row count")
    slots = shape_of_rank(ctx, 1, (3,), "conv_state")[0]
    require_ge(ctx, slots, 1, "at least one snapshot slot", "the slot count")
    eq_shape(ctx, 1, (slots, channels, 3), "conv_state shape", "conv_state", "(slots, ch, 3)")
    eq_shape(ctx, 2, (slots, heads, d_state, head_dim), "ssm_state shape", "ssm_state",
             "(slots, heads, d_state, head_dim)")
    weight = shape_of_rank(ctx, 3, (2, 3), "conv_weight")
    eq_shape(ctx, 3, (channels, 4) if len(weight) == 2 else (channels, 1, 4), "conv_weight shape", "conv_weight",
             "(ch, 4) or (ch, 1, 4)")
    for i, size in ((4, channels), (5, heads), (6, heads), (7, heads), (8, inner), (9, 1)):
        eq_shape(ctx, i, (size,), f"{ctx.op.inputs[i]} shape", ctx.op.inputs[i], f"({size})")
    ctx.set_output(0, (rows, inner))
    ctx.set_output(1, ctx.shape(1))
    ctx.set_output(2, ctx.shape(2))
    ctx.set_output(3, (rows, channels))
    ctx.set_output(4, (rows, inner))
