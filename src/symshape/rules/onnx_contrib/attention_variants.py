"""com.microsoft attention variants: the packed (padding-free) attentions, DecoderAttention,
DecoderMaskedSelfAttention, LongformerAttention, RemovePadding/RestorePadding, the T5 and gated
relative position biases, and BiasSoftmax.

Notation as in attention.py: B batch, S sequence, T tokens (packed), N heads, H head size,
D = N*H. What the kernels' ``CheckInputs`` reject is a fact; a size that depends on a runtime
value (RemovePadding's token count, DecoderAttention's cache flags) uses the tracked value, or
a fresh ``data`` symbol when it is unknown.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol, record_le
from symshape.rules.onnx.generators import scalar_size
from symshape.rules.onnx_contrib.attention import bias_facts, longformer_input, merged_past, merged_qkv
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
from symshape.rules.registry import register
from symshape.rules.shared.common import normalize_axis


def _packing(ctx: OpContext, offset: int, cumulative: int) -> Dim:
    """token_offset ``(B, S)`` and cumulative_sequence_length ``(B + 1)``: returns ``S``."""
    batch, seq = shape_of_rank(ctx, offset, (2,), "token_offset")
    cum = shape_of_rank(ctx, cumulative, (1,), "cumulative_sequence_length")
    eq_dims(ctx, cum[0], add(batch, 1), "cumulative_sequence_length shape", cumulative, 0, "batch_size + 1")
    return seq


@register(MS, "PackedAttention")
def packed_attention(ctx: OpContext) -> None:
    """Attention on padding-free tokens: input ``(T, D_in)``, weights ``(D_in, D + D + D_v)``
    give ``output (T, D_v)``. Facts: the contraction, the bias length, ``N | D`` and
    ``N | D_v``, cumulative_sequence_length ``(B + 1)`` for token_offset ``(B, S)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.PackedAttention
    """
    heads = required_int(ctx, "num_heads")
    tokens, d_in = shape_of_rank(ctx, 0, (2,), "input")
    hidden, v_hidden = merged_qkv(ctx, d_in, 1)
    div_exact(ctx, hidden, heads, "hidden_size")
    div_exact(ctx, v_hidden, heads, "v_hidden_size")
    seq = _packing(ctx, 3, 4)
    bias_facts(ctx, 5, seq, seq, "sequence_length")
    ctx.set_output(0, (tokens, v_hidden))


@register(MS, "PackedMultiHeadAttention")
def packed_multi_head_attention(ctx: OpContext) -> None:
    """MultiHeadAttention on padding-free tokens: query ``(T, D)`` with key ``(T, D)`` and value
    ``(T, D_v)``, or packed QKV ``(T, N, 3, H)``; ``output (T, D_v)`` (``(T, N*H)`` packed).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.PackedMultiHeadAttention
    """
    heads = required_int(ctx, "num_heads")
    query = shape_of_rank(ctx, 0, (2, 4), "query")
    tokens = query[0]
    if len(query) == 4:
        eq_dims(ctx, query[1], heads, "packed qkv", 0, 1, "num_heads")
        eq_dims(ctx, query[2], 3, "packed qkv", 0, 2, "3")
        hidden = v_hidden = ctx.canon(mul(query[3], heads))
    else:
        hidden = query[1]
        div_exact(ctx, hidden, heads, "hidden_size")
        if not ctx.has_input(1):
            raise ctx.invalid("a 2-D query without key", "a packed (T, N, 3, H) query, or key and value",
                              FIX_CONTRACT)
        key = shape_of_rank(ctx, 1, (2, 4), "key")
        eq_dims(ctx, key[0], tokens, "key shape", 1, 0, "token_count")
        if len(key) == 4:  # packed KV (T, N, 2, H)
            for axis, want, what in ((1, heads, "num_heads"), (2, 2, "2")):
                eq_dims(ctx, key[axis], want, "packed kv", 1, axis, what)
            v_hidden = hidden
        else:
            eq_dims(ctx, key[1], hidden, "key shape", 1, 1, "hidden_size of the query")
            value = shape_of_rank(ctx, 2, (2,), "value")
            eq_dims(ctx, value[0], tokens, "value shape", 2, 0, "token_count")
            v_hidden = value[1]
    eq_vector(ctx, 3, add(add(hidden, hidden), v_hidden), "bias length", "D + D + D_v")
    seq = _packing(ctx, 4, 5)
    bias_facts(ctx, 6, seq, seq, "sequence_length")
    ctx.set_output(0, (tokens, v_hidden))


def _flag(ctx: OpContext, i: int) -> bool | None:
    """The value of boolean input ``i`` when tracked."""
    ints = ctx.const_ints(i)
    return bool(ints[0]) if ints is not None and len(ints) == 1 else None


@register(MS, "DecoderAttention")
def decoder_attention(ctx: OpContext) -> None:
    """Decoder self/cross attention with a cache: query ``(S, B, D)``, key ``(L, B, D)``;
    ``output`` has the query's shape, ``new_key_cache``/``new_value_cache`` are
    ``(B, N, K, D/N)`` with ``K`` chosen by the runtime flags (cuda/bert/decoder_attention.cc):
    ``L`` (cross, no cache), ``S`` (self, no cache), the cache length ``C`` (cross, cached) or
    ``C + S`` (self, cached). Untracked flags make ``K`` a ``data`` symbol.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DecoderAttention
    """
    heads = required_int(ctx, "num_heads")
    query = shape_of_rank(ctx, 0, (3,), "query")
    seq, batch, hidden = query
    key = shape_of_rank(ctx, 1, (3,), "key")
    eq_dims(ctx, key[1], batch, "key shape", 1, 1, "batch_size")
    eq_dims(ctx, key[2], hidden, "key shape", 1, 2, "hidden_size")
    eq_shape(ctx, 2, (hidden, hidden), "q_weights shape", "q_weights", "(hidden_size, hidden_size)")
    eq_shape(ctx, 3, (hidden, mul(hidden, 2)), "kv_weights shape", "kv_weights", "(hidden_size, 2 * hidden_size)")
    eq_vector(ctx, 4, mul(hidden, 3), "bias length", "3 * hidden_size")
    head = div_exact(ctx, hidden, heads, "hidden_size")
    if ctx.has_input(5) and _flag(ctx, 11):
        eq_dims(ctx, shape_of_rank(ctx, 5, (2,), "key_padding_mask")[0], batch, "key_padding_mask shape", 5, 0,
                "batch_size")
    static_kv, use_past, has_state = _flag(ctx, 8), _flag(ctx, 9), _flag(ctx, 10)
    length: Dim
    if static_kv is None or use_past is None or has_state is None:
        length = data_symbol(ctx, ("DecoderAttention cache length", ctx.op.name), "new cache length (runtime flags)")
    elif has_state and use_past:
        cache = shape_of_rank(ctx, 6, (4,), "key_cache")
        eq_dims(ctx, cache[0], batch, "key_cache shape", 6, 0, "batch_size")
        eq_dims(ctx, mul(cache[1], cache[3]), hidden, "key_cache shape", 6, 1, "hidden_size / dim 3")
        length = cache[2] if static_kv else ctx.canon(add(cache[2], seq))
    else:
        length = key[0] if static_kv else seq
    ctx.set_output(0, query)
    ctx.set_output(1, (batch, heads, length, head))
    ctx.set_output(2, (batch, heads, length, head))


@register(MS, "DecoderMaskedSelfAttention")
def decoder_masked_self_attention(ctx: OpContext) -> None:
    """One-token self attention with merged QKV weights over a shared past/present buffer:
    input ``(B, 1, D_in)`` gives ``output (B, 1, D_v)`` and ``present`` of the past's shape
    ``(2, B, N, M, H)``. The kernel (cuda/bert/decoder_masked_self_attention.cc) requires
    ``past_present_share_buffer``, ``S == 1`` and ``D == D_v`` (facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DecoderMaskedSelfAttention
    """
    heads = required_int(ctx, "num_heads")
    if not ctx.attr("past_present_share_buffer", 0):
        raise ctx.invalid("past_present_share_buffer is not set", "past_present_share_buffer=1", FIX_CONTRACT)
    batch, seq, d_in = shape_of_rank(ctx, 0, (3,), "input")
    eq_dims(ctx, seq, 1, "one token", 0, 1, "1 (the kernel decodes one token)")
    hidden, v_hidden = merged_qkv(ctx, d_in, 2)
    ctx.eq(hidden, v_hidden, "qk head size == v head size", ("hidden_size", "v_hidden_size"))
    head = div_exact(ctx, hidden, heads, "hidden_size")
    past = merged_past(ctx, 4, batch, heads, head)
    if ctx.has_input(3):
        eq_dims(ctx, shape_of_rank(ctx, 3, (2,), "mask_index")[0], batch, "mask shape", 3, 0, "batch_size")
    ctx.set_output(0, (batch, seq, v_hidden))
    ctx.set_output(1, past)


@register(MS, "LongformerAttention")
def longformer_attention(ctx: OpContext) -> None:
    """Longformer self attention: ``output`` has the input's shape ``(B, S, D)``. Facts from
    cpu/bert/longformer_attention_base.cc: ``2W | S``, ``N | D``, weights and global weights
    ``(D, 3D)``, biases ``(3D)``, mask and global flags ``(B, S)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.LongformerAttention
    """
    x = longformer_input(ctx, (1, 4), (2, 5), (3, 6))
    ctx.set_output(0, x)


@register(MS, "RemovePadding")
def remove_padding(ctx: OpContext) -> None:
    """Drops right padding: input ``(B, S, H)`` gives ``output (T, H)``, ``token_offset (B, S)``,
    ``cumulated_seq_len (B + 1)`` and ``max_seq_len (1)``. ``T`` is the sum of
    sequence_token_count ``(B)``: exact when its values are tracked, else a ``data`` symbol with
    ``T <= B*S``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.RemovePadding
    """
    batch, seq, hidden = shape_of_rank(ctx, 0, (3,), "input")
    eq_vector(ctx, 1, batch, "sequence_token_count shape", "batch_size")
    counts = ctx.elements(1)
    tokens: Dim
    if counts is not None:
        tokens = 0
        for c in counts:
            tokens = add(tokens, c)
        tokens = ctx.canon(tokens)
    else:
        tokens = data_symbol(ctx, ("RemovePadding token count", ctx.input_name(1)), "non-padding token count")
        record_le(ctx, tokens, mul(batch, seq), "token count <= batch_size * sequence_length")
    ctx.set_output(0, (tokens, hidden))
    ctx.set_output(1, (batch, seq))
    ctx.set_output(2, (ctx.canon(add(batch, 1)),))
    ctx.set_output(3, (1,))


@register(MS, "RestorePadding")
def restore_padding(ctx: OpContext) -> None:
    """Puts the padding back: input ``(T, H)`` and token_offset ``(B, S)`` give ``(B, S, H)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.RestorePadding
    """
    hidden = shape_of_rank(ctx, 0, (2,), "input")[1]
    batch, seq = shape_of_rank(ctx, 1, (2,), "token_offset")
    ctx.set_output(0, (batch, seq, hidden))


@register(MS, "RelativePositionBias")
def relative_position_bias(ctx: OpContext) -> None:
    """T5's binned relative position bias: bias_table ``(buckets, N)`` and the values of the
    scalars query_length ``q`` and key_length ``k`` give ``(1, N, q, k)``; the kernel
    (cuda/bert/relative_attn_bias.cc) requires ``q == k`` (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.RelativePositionBias
    """
    required_int(ctx, "max_distance")
    heads = shape_of_rank(ctx, 0, (2,), "bias_table")[1]
    q_len = scalar_size(ctx, 1, "query_length")
    k_len = scalar_size(ctx, 2, "key_length")
    ctx.eq(q_len, k_len, "query_length == key_length", ("query_length", "key_length"))
    ctx.set_output(0, (1, heads, ctx.canon(q_len), ctx.canon(k_len)))


@register(MS, "GatedRelativePositionBias")
def gated_relative_position_bias(ctx: OpContext) -> None:
    """Gated relative position bias: ``(B, N, S, S)`` from query_layer ``(B, S, D)``, or from
    token_offset ``(B, S)`` for a padding-free query ``(T, D)``. Facts from
    cuda/bert/relative_attn_bias.cc: ``N | D``, query_bias ``(D)``, rel_pos ``(1, N, S, S)``,
    weight ``(D/N, E)`` with an even ``E``, bias ``(E)``, eco_a ``(1, N, 1, 1)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatedRelativePositionBias
    """
    heads = required_int(ctx, "num_heads")
    packed = ctx.has_input(6)
    query = shape_of_rank(ctx, 0, (2,) if packed else (3,), "query_layer")
    batch, seq = shape_of_rank(ctx, 6, (2,), "token_offset") if packed else query[:2]
    hidden = query[-1]
    head = div_exact(ctx, hidden, heads, "hidden_size")
    eq_vector(ctx, 1, hidden, "query_bias length", "hidden_size")
    eq_shape(ctx, 2, (1, heads, seq, seq), "rel_pos shape", "rel_pos", "(1, num_heads, seq_len, seq_len)")
    weight = shape_of_rank(ctx, 3, (2,), "weight")
    eq_dims(ctx, weight[0], head, "weight shape", 3, 0, "head_size")
    div_exact(ctx, weight[1], 2, "dim 1 of 'weight'")
    eq_vector(ctx, 4, weight[1], "bias length", "dim 1 of 'weight'")
    eq_shape(ctx, 5, (1, heads, 1, 1), "eco_a shape", "eco_a", "(1, num_heads, 1, 1)")
    ctx.set_output(0, (batch, heads, seq, seq))


@register(MS, "BiasSoftmax")
def bias_softmax(ctx: OpContext) -> None:
    """``softmax(data + bias)`` over the dims from ``axis`` on: the output has data's shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BiasSoftmax
    """
    data = ctx.shape(0)
    normalize_axis(ctx, int(ctx.attr("axis", 1)), len(data))
    if ctx.attr("is_inner_broadcast") is None:
        raise ctx.invalid("the attribute 'is_inner_broadcast' is required but missing", "0 or 1", FIX_CONTRACT)
    bias = ctx.shape(1)
    if len(bias) > len(data):
        raise ctx.invalid(f"bias has rank {len(bias)} above data's {len(data)}", "a bias no larger than data",
                          FIX_CONTRACT)
    ctx.set_output(0, data)


@register(MS, "AttnLSTM")
def attn_lstm(ctx: OpContext) -> None:
    """An LSTM wrapped with Bahdanau attention: X ``(L, B, I)`` gives ``Y (L, dirs, B, h)`` and
    ``Y_h``, ``Y_c (dirs, B, h)``. Facts from cpu/attnlstm/deep_cpu_attn_lstm.cc: memory M
    ``(B, steps, m)``, MW ``(dirs, m, a)``, QW ``(dirs, h, a)``, V ``(dirs, a)``, AW
    ``(dirs, m + h, w)``, W ``(dirs, 4h, I + w)`` (``w = m`` without AW), R ``(dirs, 4h, h)``,
    B ``(dirs, 8h)``, P ``(dirs, 3h)``, initial states ``(dirs, B, h)``, lengths ``(B)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.AttnLSTM
    """
    hidden = required_int(ctx, "hidden_size")
    direction = ctx.attr("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise ctx.invalid(f"direction is {direction!r}", "forward, reverse or bidirectional", FIX_CONTRACT)
    dirs = 2 if direction == "bidirectional" else 1
    seq, batch, inputs = shape_of_rank(ctx, 0, (3,), "X")
    memory = shape_of_rank(ctx, 11, (3,), "M")
    eq_dims(ctx, memory[0], batch, "memory shape", 11, 0, "batch_size")
    depth = memory[2]
    attn = shape_of_rank(ctx, 9, (3,), "MW")[2]
    eq_shape(ctx, 9, (dirs, depth, attn), "MW shape", "MW", "(num_directions, memory_depth, am_attn_size)")
    eq_shape(ctx, 8, (dirs, hidden, attn), "QW shape", "QW", "(num_directions, hidden_size, am_attn_size)")
    eq_shape(ctx, 10, (dirs, attn), "V shape", "V", "(num_directions, am_attn_size)")
    wrapped = depth
    if ctx.has_input(13):
        wrapped = shape_of_rank(ctx, 13, (3,), "AW")[2]
        eq_shape(ctx, 13, (dirs, add(depth, hidden), wrapped), "AW shape", "AW",
                 "(num_directions, memory_depth + hidden_size, aw_attn_size)")
    gates = 4 * hidden
    eq_shape(ctx, 1, (dirs, gates, add(inputs, wrapped)), "W shape", "W", "(num_directions, 4h, input + attention)")
    eq_shape(ctx, 2, (dirs, gates, hidden), "R shape", "R", "(num_directions, 4h, h)")
    state = (dirs, batch, hidden)
    for i, want, name in ((3, (dirs, 8 * hidden), "B"), (7, (dirs, 3 * hidden), "P"), (5, state, "initial_h"),
                          (6, state, "initial_c")):
        if ctx.has_input(i):
            eq_shape(ctx, i, want, f"{name} shape", name, str(want))
    for i in (4, 12):
        eq_vector(ctx, i, batch, "sequence lengths shape", "batch_size")
    ctx.set_output(0, (seq, dirs, batch, hidden))
    ctx.set_output(1, state)
    ctx.set_output(2, state)
