"""com.microsoft hyper-connection, Engram and gating ops: HyperConnectionPreMix,
HyperConnectionPostMix, HyperConnectionLowRankMix, BranchwiseRMSNorm, GatedRMSNorm, GatedAdd,
ScaledSiLU, EngramGate, NGramHashMapping, VarlenNGramHashMapping.

``C`` residual streams of width ``H`` are grouped ``(..., C, H)`` or flattened ``(..., C*H)``
(``num_branches = C``), as onnxruntime's ``hyper_connection_helper.h`` resolves them; a gate is
``(..., C)``, ``(..., C, 1)`` or ``(..., C, H)`` over the same leading dims. What the CPU
kernels and the 1.32 schemas' inference reject is a fact.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    eq_dims,
    eq_shape,
    eq_vector,
    not_scalar,
    required_int,
    shape_of_rank,
)
from symshape.rules.onnx_contrib.recurrent_state import (
    MAX_CAPACITY,
    int_attr,
    one_of,
    packed_batch,
    presence,
    require_together,
)
from symshape.rules.registry import register
from symshape.rules.shared.fit import require_ge

Streams = tuple[tuple[Dim, ...], Dim, Dim]  # leading dims, C, H


def streams_of(ctx: OpContext, i: int, branches: int) -> Streams:
    """Input ``i`` as ``(prefix, C, H)``: flattened when ``num_branches`` is set (a positive
    width divisible by it), else grouped (rank >= 2, ``C, H >= 1``); facts as the kernels check."""
    x = ctx.shape(i)
    if branches < 0:
        raise ctx.invalid(f"num_branches {branches}", "a positive count (0 for grouped streams)", FIX_CONTRACT)
    if branches:
        if not x:
            raise ctx.invalid("flattened streams are a scalar", "rank >= 1", FIX_CONTRACT)
        require_ge(ctx, x[-1], 1, "the stream width is positive", "the flattened stream width")
        return x[:-1], branches, div_exact(ctx, x[-1], branches, "the flattened stream width")
    if len(x) < 2:
        raise ctx.invalid(f"grouped streams of rank {len(x)}", "rank >= 2 (..., C, H)", FIX_CONTRACT)
    require_ge(ctx, x[-2], 1, "at least one branch", "the branch count")
    require_ge(ctx, x[-1], 1, "the stream width is positive", "the stream width")
    return x[:-2], x[-2], x[-1]


def _prefix(ctx: OpContext, i: int, prefix: tuple[Dim, ...], name: str) -> tuple[Dim, ...]:
    """Input ``i``'s dims past the streams' leading dims (which it repeats: facts)."""
    dims = ctx.shape(i)
    if len(dims) < len(prefix):
        raise ctx.invalid(f"'{name}' has rank {len(dims)}", f"the streams' {len(prefix)} leading dims first")
    for axis, d in enumerate(prefix):
        eq_dims(ctx, dims[axis], d, f"{name} leading dims", i, axis, f"dim {axis} of the streams")
    return dims[len(prefix):]


def _gate(ctx: OpContext, i: int, streams: Streams, name: str, flat_feature: bool = False) -> None:
    """A gate ``(..., C)``, ``(..., C, 1)`` or ``(..., C, H)`` (``(..., C*H)`` too where the
    op accepts a flattened feature gate)."""
    prefix, c, h = streams
    suffix = _prefix(ctx, i, prefix, name)
    p = len(prefix)
    if len(suffix) == 1:
        options = [(c, "C")] + ([(mul(c, h), "C*H")] if flat_feature else [])
        one_of(ctx, i, p, options, f"{name} shape")
    elif len(suffix) == 2:
        eq_dims(ctx, suffix[0], c, f"{name} shape", i, p, "C")
        one_of(ctx, i, p + 1, [(1, "1"), (h, "H")], f"{name} shape")
    else:
        raise ctx.invalid(f"'{name}' has {len(suffix)} dims past the leading ones", "(C), (C, 1) or (C, H)")


@register(MS, "HyperConnectionPreMix")
def hyper_connection_pre_mix(ctx: OpContext) -> None:
    """``Y[..., h] = scale * sum_c X[..., c, h] * pre_mix[..., c, h]``: ``(..., H)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.HyperConnectionPreMix
    """
    s = streams_of(ctx, 0, int_attr(ctx, "num_branches", 0, 0))
    _gate(ctx, 1, s, "pre_mix", flat_feature=bool(ctx.attr("num_branches", 0)))
    ctx.set_output(0, (*s[0], s[2]))


@register(MS, "HyperConnectionPostMix")
def hyper_connection_post_mix(ctx: OpContext) -> None:
    """Mixes the streams and injects block_output: the output has the streams' shape. Facts:
    block_output ``(..., H)``, stream_mix ``(..., C, C)``, post_mix a gate.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.HyperConnectionPostMix
    """
    s = streams_of(ctx, 0, int_attr(ctx, "num_branches", 0, 0))
    prefix, c, h = s
    eq_shape(ctx, 1, (*prefix, h), "block_output shape", "block_output", "(..., H)")
    _gate(ctx, 2, s, "post_mix")
    if ctx.has_input(3):
        eq_shape(ctx, 3, (*prefix, c, c), "stream_mix shape", "stream_mix", "(..., C, C)")
    ctx.set_output(0, ctx.shape(0))


@register(MS, "HyperConnectionLowRankMix")
def hyper_connection_low_rank_mix(ctx: OpContext) -> None:
    """One hyper-connection block on flattened ``(..., C*H)`` streams: ``pre_output (..., H)``,
    ``post_gate (..., C)``, ``streams_out`` the streams' shape. Facts (the documented shapes;
    no CPU kernel): norm_scale ``(C*H)``, down ``(C*H, R)``, up ``(R, C*H)``, inject
    ``(C*H, C)``; the prologue inputs ``(..., H)`` and ``(..., C)`` come together.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.HyperConnectionLowRankMix
    """
    prefix, c, h = streams_of(ctx, 0, required_int(ctx, "num_branches"))
    width = ctx.shape(0)[-1]
    eq_shape(ctx, 1, (width,), "norm_scale shape", "norm_scale", "(C*H)")
    rank = shape_of_rank(ctx, 2, (2,), "down_weight")[1]
    eq_shape(ctx, 2, (width, rank), "down_weight shape", "down_weight", "(C*H, R)")
    eq_shape(ctx, 3, (rank, width), "up_weight shape", "up_weight", "(R, C*H)")
    eq_shape(ctx, 4, (width, c), "inject_weight shape", "inject_weight", "(C*H, C)")
    if require_together(ctx, ((5, "prev_block_output"), (6, "prev_post_gate"))):
        eq_shape(ctx, 5, (*prefix, h), "prev_block_output shape", "prev_block_output", "(..., H)")
        eq_shape(ctx, 6, (*prefix, c), "prev_post_gate shape", "prev_post_gate", "(..., C)")
    ctx.set_output(0, (*prefix, h))
    ctx.set_output(1, (*prefix, c))
    ctx.set_output(2, ctx.shape(0))


@register(MS, "BranchwiseRMSNorm")
def branchwise_rms_norm(ctx: OpContext) -> None:
    """RMS norm per branch: the output has X's shape; the scale is ``(H)``, ``(C*H)`` or
    ``(C, H)`` (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BranchwiseRMSNorm
    """
    _, c, h = streams_of(ctx, 0, int_attr(ctx, "num_branches", 0, 0))
    if ctx.has_input(1):
        scale = shape_of_rank(ctx, 1, (1, 2), "scale")
        if len(scale) == 2:
            eq_shape(ctx, 1, (c, h), "scale shape", "scale", "(C, H)")
        else:
            one_of(ctx, 1, 0, [(h, "H"), (mul(c, h), "C*H")], "scale shape")
    ctx.set_output(0, ctx.shape(0))


@register(MS, "GatedRMSNorm")
def gated_rms_norm(ctx: OpContext) -> None:
    """RMS norm over groups of ``len(scale)`` elements, times an activated gate: the output has
    X's shape. Facts: the gate has X's shape; the scale is not empty and divides X's last dim.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatedRMSNorm
    """
    x = not_scalar(ctx, 0, "X")
    size = ctx.canon(ctx.numel(1))
    require_ge(ctx, size, 1, "the scale is not empty", "the scale's element count")
    if isinstance(size, int):
        div_exact(ctx, x[-1], size, "X's last dim")
    eq_shape(ctx, 2, x, "gate shape", "gate", "X")
    ctx.set_output(0, x)


@register(MS, "GatedAdd")
def gated_add(ctx: OpContext) -> None:
    """``X + Y * gate`` with a per-row gate: the output has X's shape. Facts: Y has X's shape;
    the gate repeats X's leading dims and ends in 1, or (projected) in ``K`` with
    gate_weight ``(K, 1)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatedAdd
    """
    x = not_scalar(ctx, 0, "X")
    eq_shape(ctx, 1, x, "Y shape", "Y", "X")
    gate = shape_of_rank(ctx, 2, (len(x),), "gate")
    for axis in range(len(x) - 1):
        eq_dims(ctx, gate[axis], x[axis], "gate leading dims", 2, axis, f"dim {axis} of X")
    if ctx.has_input(3):
        eq_shape(ctx, 3, (gate[-1], 1), "gate_weight shape", "gate_weight", "(K, 1)")
    else:
        eq_dims(ctx, gate[-1], 1, "gate shape", 2, len(x) - 1, "1")
    ctx.set_output(0, x)


@register(MS, "ScaledSiLU")
def scaled_silu(ctx: OpContext) -> None:
    """``SiLU(scale * X)``: the output has X's shape; the optional scale is a scalar.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.ScaledSiLU
    """
    if ctx.has_input(1):
        shape_of_rank(ctx, 1, (0,), "scale")
    ctx.set_output(0, ctx.shape(0))


@register(MS, "EngramGate")
def engram_gate(ctx: OpContext) -> None:
    """The Engram gate: both outputs have the keys' shape ``(B, S, M, H)``. Facts: query has
    the keys' shape, value is ``(B, S, H)``, every norm scale ``(M, H)``; the second output
    needs conv_norm_scale.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.EngramGate
    """
    key = shape_of_rank(ctx, 0, (4,), "key")
    batch, seq, mult, hidden = key
    eq_shape(ctx, 1, key, "query shape", "query", "key")
    eq_shape(ctx, 2, (batch, seq, hidden), "value shape", "value", "(B, S, H)")
    for i in (3, 4, 5):
        if ctx.has_input(i):
            eq_shape(ctx, i, (mult, hidden), "norm scale shape", ctx.op.inputs[i], "(hc_mult, hidden_size)")
    if ctx.num_outputs > 1 and ctx.op.outputs[1] and not ctx.has_input(5):
        raise ctx.invalid("gated_value_normed without conv_norm_scale", "conv_norm_scale for that output")
    ctx.set_output(0, key)
    ctx.set_output(1, key)


def _ngram(ctx: OpContext) -> tuple[int, int]:
    """``(max_ngram_size - 1, heads)``; multipliers hold at least max_ngram_size elements,
    vocab_sizes and head_offsets ``heads`` (facts)."""
    order = int_attr(ctx, "max_ngram_size", 0, 2)
    heads = (order - 1) * int_attr(ctx, "n_head_per_ngram", 0, 1)
    if not isinstance(ctx.attr("pad_id"), int):
        raise ctx.invalid("the attribute 'pad_id' is missing", "an integer pad_id", FIX_CONTRACT)
    (mults,) = shape_of_rank(ctx, 1, (1,), "multipliers")
    require_ge(ctx, mults, order, "multipliers cover max_ngram_size", "the multiplier count")
    eq_vector(ctx, 2, heads, "vocab_sizes shape", "(max_ngram_size - 1) * n_head_per_ngram")
    return order - 1, heads


@register(MS, "NGramHashMapping")
def ngram_hash_mapping(ctx: OpContext) -> None:
    """Engram n-gram hashes: ``hash_ids (B, S, (n-1)*heads_per_order)`` and ``present_ids (B,
    n-1)``, ``n = max_ngram_size``. Facts: past_ids ``(B, n-1)``, segment_ids ``(B, S)``,
    eos_token_id a scalar, head_offsets one per head.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.NGramHashMapping
    """
    hist, heads = _ngram(ctx)
    batch, seq = shape_of_rank(ctx, 0, (2,), "input_ids")
    if ctx.has_input(3):
        eq_shape(ctx, 3, (batch, hist), "past_ids shape", "past_ids", "(batch_size, max_ngram_size - 1)")
    eq_vector(ctx, 4, heads, "head_offsets shape", "the head count")
    if ctx.has_input(5):
        shape_of_rank(ctx, 5, (0,), "eos_token_id")
    if ctx.has_input(6):
        eq_shape(ctx, 6, (batch, seq), "segment_ids shape", "segment_ids", "input_ids")
    ctx.set_output(0, (batch, seq, heads))
    ctx.set_output(1, (batch, hist))


@register(MS, "VarlenNGramHashMapping")
def varlen_ngram_hash_mapping(ctx: OpContext) -> None:
    """Packed n-gram hashes over ``B = len(cu) - 1`` requests of ``N`` tokens: ``hash_ids (N,
    heads)``, ``present_ids`` and ``present_segment_ids (B, n-1)``, ``state_update (B,
    capacity, n-1)``. Facts: ``N >= B``; past ids ``(B, n-1)``; segment_ids ``(N)`` (needed
    for present_segment_ids); capture_count ``(B)`` exactly when capacity > 0.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.VarlenNGramHashMapping
    """
    hist, heads = _ngram(ctx)
    capacity = int_attr(ctx, "state_update_capacity", 0, 0, MAX_CAPACITY)
    (total,) = shape_of_rank(ctx, 0, (1,), "input_ids")
    batch = packed_batch(ctx, 3, "cumulative_sequence_length")
    require_ge(ctx, add(total, mul(batch, -1)), 0, "every request has a token", "total_tokens - batch_size")
    for i, name in ((4, "past_ids"), (8, "past_segment_ids")):
        if ctx.has_input(i):
            eq_shape(ctx, i, (batch, hist), f"{name} shape", name, "(batch_size, max_ngram_size - 1)")
    eq_vector(ctx, 5, heads, "head_offsets shape", "the head count")
    if ctx.has_input(6):
        shape_of_rank(ctx, 6, (0,), "eos_token_id")
    eq_vector(ctx, 7, total, "segment_ids shape", "total_tokens")
    if ctx.num_outputs > 2 and ctx.op.outputs[2] and not ctx.has_input(7):
        raise ctx.invalid("present_segment_ids without segment_ids", "segment_ids for that output", FIX_CONTRACT)
    presence(ctx, 9, "capture_count", capacity > 0, "state_update_capacity > 0")
    eq_vector(ctx, 9, batch, "capture_count shape", "batch_size")
    ctx.set_output(0, (total, heads))
    ctx.set_output(1, (batch, hist))
    ctx.set_output(2, (batch, hist))
    ctx.set_output(3, (batch, capacity, hist))
