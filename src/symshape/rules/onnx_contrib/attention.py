"""com.microsoft attention ops: Attention, MultiHeadAttention, GroupQueryAttention,
DecoderMaskedMultiHeadAttention, RotaryEmbedding.

Notation of onnxruntime's kernels: B batch, S query length, L key/value length, P past length,
T = P + L total length, N heads, H head size, D = N*H. What the CPU kernels' ``CheckInputs``
reject is a fact: contraction dims, ``N | D``, past shapes. A present length that depends on
the *value* of an input (``total_sequence_length``, buffer sharing) uses the tracked value, or
a fresh data symbol when that value is unknown. The checks the other contrib attention modules
repeat (masks, biases, caches, merged QKV weights, position ids, Longformer's inputs) are public
here.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, floordiv, mul, smax
from symshape.engine.context import OpContext
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
from symshape.rules.shared.fit import require_ge


def mask_facts(ctx: OpContext, i: int, batch: Dim, seq: Dim, total: Dim) -> None:
    """Facts from an attention mask whose layout is unambiguous: ``(B, S, T)``, or ``(B, T)``
    when its last dim cannot be 1 (``(B or 1, 1)`` is a broadcast dummy)."""
    if not ctx.has_input(i):
        return
    dims = ctx.shape(i)
    if len(dims) == 3:
        for axis, (d, want, what) in enumerate(zip(dims, (batch, seq, total), ("B", "S", "T"), strict=True)):
            eq_dims(ctx, d, want, "mask shape", i, axis, what)
    elif len(dims) == 2 and ctx.facts.prove_ge(ctx.canon(dims[1]), 2):
        eq_dims(ctx, dims[0], batch, "mask shape", i, 0, "batch_size")
        eq_dims(ctx, dims[1], total, "mask shape", i, 1, "total_sequence_length")


def bias_facts(ctx: OpContext, i: int, seq: Dim, total: Dim, total_what: str = "total_sequence_length") -> None:
    """``attention_bias`` is ``(B or 1, N or 1, S, T)``: its last two dims are facts."""
    if not ctx.has_input(i):
        return
    dims = shape_of_rank(ctx, i, (4,), "attention_bias")
    eq_dims(ctx, dims[2], seq, "attention_bias shape", i, 2, "sequence_length")
    eq_dims(ctx, dims[3], total, "attention_bias shape", i, 3, total_what)


def past_kv(
    ctx: OpContext, i: int, batch: Dim, heads: int, head: Dim, name: str, heads_what: str = "num_heads"
) -> tuple[Dim, ...]:
    """A BNSH cache ``(B, N, P, H)``: dims 0, 1 and 3 are facts; returns its dims."""
    dims = shape_of_rank(ctx, i, (4,), name)
    eq_dims(ctx, dims[0], batch, f"{name} shape", i, 0, "batch_size")
    eq_dims(ctx, dims[1], heads, f"{name} shape", i, 1, heads_what)
    eq_dims(ctx, dims[3], head, f"{name} shape", i, 3, "head_size")
    return dims


def past_pair(ctx: OpContext, i: int, batch: Dim, heads: int, head: Dim) -> tuple[Dim, ...]:
    """past_key (input ``i``) and past_value (input ``i + 1``), BNSH caches of one length:
    returns past_key's dims."""
    pk = past_kv(ctx, i, batch, heads, head, "past_key")
    pv = past_kv(ctx, i + 1, batch, heads, head, "past_value")
    eq_dims(ctx, pv[2], pk[2], "past shape", i + 1, 2, "dim 2 of 'past_key'")
    return pk


def merged_past(ctx: OpContext, i: int, batch: Dim, heads: int, head: Dim) -> tuple[Dim, ...]:
    """A merged key/value cache ``(2, B, N, P, H)``: every dim but ``P`` is a fact; returns its dims."""
    past = shape_of_rank(ctx, i, (5,), "past")
    for axis, want, what in ((0, 2, "2"), (1, batch, "batch_size"), (2, heads, "num_heads"), (4, head, "head_size")):
        eq_dims(ctx, past[axis], want, "past shape", i, axis, what)
    return past


def merged_qkv(ctx: OpContext, d_in: Dim, d_in_axis: int) -> tuple[Dim, Dim]:
    """Merged QKV weights (input 1, ``(D_i, D + D + D_v)``) and their bias (input 2): the
    contraction with dim ``d_in_axis`` of input 0 and the bias length are facts; returns
    ``(D, D_v)``, from ``qkv_hidden_sizes`` (whose sum is the width, a fact) or a third of the
    width each."""
    w = shape_of_rank(ctx, 1, (2,), "weights")
    eq_dims(ctx, w[0], d_in, "contraction", 1, 0, ctx.dim_name(0, d_in_axis))
    eq_vector(ctx, 2, w[1], "bias length", "dim 1 of 'weights'")
    sizes = ctx.attr("qkv_hidden_sizes")
    if not sizes:
        third = div_exact(ctx, w[1], 3, "dim 1 of 'weights'")
        return third, third
    if len(sizes) != 3 or sizes[0] != sizes[1]:
        raise ctx.invalid(f"qkv_hidden_sizes is {list(sizes)}", "[D, D, D_v] (query and key sizes equal)",
                          FIX_CONTRACT)
    eq_dims(ctx, w[1], sum(sizes), "qkv_hidden_sizes", 1, 1, "sum of qkv_hidden_sizes")
    return sizes[0], sizes[2]


def position_ids_facts(ctx: OpContext, i: int, batch: Dim, seq: Dim) -> None:
    """RoPE position_ids ``(B, S)`` are facts (a 1-element offset is not checked)."""
    pos = ctx.shape(i)
    if len(pos) == 2:
        eq_dims(ctx, pos[0], batch, "position_ids shape", i, 0, "batch_size")
        eq_dims(ctx, pos[1], seq, "position_ids shape", i, 1, "sequence_length")


def longformer_input(
    ctx: OpContext, weights: tuple[int, int], biases: tuple[int, int], masks: tuple[int, int]
) -> tuple[Dim, ...]:
    """``LongformerAttentionBase::CheckInputs``: input 0 ``(B, S, D)`` (returned) with
    ``2*window | S`` and ``N | D``; the (local, global) ``weights`` are ``(D, 3D)``, the
    ``biases`` ``(3D)``, the ``masks`` ``(B, S)`` (facts)."""
    heads = required_int(ctx, "num_heads")
    window = required_int(ctx, "window")
    x = shape_of_rank(ctx, 0, (3,), "input")
    batch, seq, hidden = x
    div_exact(ctx, seq, 2 * window, "sequence_length (a multiple of 2 * window)")
    div_exact(ctx, hidden, heads, "hidden_size")
    for w, b, name in zip(weights, biases, ("weight", "global_weight"), strict=True):
        eq_shape(ctx, w, (hidden, mul(hidden, 3)), f"{name} shape", name, "(hidden_size, 3 * hidden_size)")
        eq_vector(ctx, b, mul(hidden, 3), "bias length", "3 * hidden_size")
    for i, name in zip(masks, ("mask", "global"), strict=True):
        eq_shape(ctx, i, (batch, seq), f"{name} shape", name, "(batch_size, sequence_length)")
    return x


@register(MS, "Attention")
def attention(ctx: OpContext) -> None:
    """Self attention with merged QKV weights: input ``(B, S, D_i)``, weights ``(D_i, D+D+D_v)``
    give ``output (B, S, D_v)`` and ``present (2, B, N, P+S, H_v)`` (the past's shape when
    ``past_present_share_buffer``). ``D, D_v`` come from ``qkv_hidden_sizes`` or are a third of
    the weights' width; the kernel sizes present by the V head size (a past needs ``D == D_v``).
    Facts: contraction, bias length, ``N | D`` and ``N | D_v``, the past's layout.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Attention
    """
    heads = required_int(ctx, "num_heads")
    batch, seq, d_in = shape_of_rank(ctx, 0, (3,), "input")
    q_hidden, v_hidden = merged_qkv(ctx, d_in, 2)
    head = div_exact(ctx, q_hidden, heads, "hidden_size")
    v_head = div_exact(ctx, v_hidden, heads, "v_hidden_size")
    past_len: Dim = 0
    past = None
    if ctx.has_input(4):
        past = merged_past(ctx, 4, batch, heads, head)
        past_len = past[3]
    share = bool(ctx.attr("past_present_share_buffer", 0)) and past is not None
    total = _share_total(ctx, 6, seq) if share else add(past_len, seq)
    mask_facts(ctx, 3, batch, seq, total)
    bias_facts(ctx, 5, seq, total)
    ctx.set_output(0, (batch, seq, v_hidden))
    ctx.set_output(1, past if share and past is not None else (2, batch, heads, total, v_head))


def _share_total(ctx: OpContext, i: int, seq: Dim) -> Dim:
    """With a shared past/present buffer the total length is ``past_sequence_length + L``,
    where ``past_sequence_length`` is the value of input ``i``."""
    els = ctx.elements(i)
    if els is not None and len(els) == 1:
        return add(els[0], seq)
    return add(ctx.fresh("past_sequence_length", kind="data", hi=None), seq)


@register(MS, "MultiHeadAttention")
def multi_head_attention(ctx: OpContext) -> None:
    """Attention on projected Q, K, V: ``output (B, S, D_v)``, ``present_key (B, N, P+L, H)``,
    ``present_value (B, N, P+L, H_v)``, ``qk (B, N, S, P+L)``.

    Layouts: query ``(B, S, D)`` or packed ``(B, S, N, 3, H)``; key ``(B, L, D)``, packed
    ``(B, L, N, 2, H)`` or a BNSH cache ``(B, N, L, H)``; value ``(B, L, D_v)`` or
    ``(B, N, L, H_v)``. A ``past_sequence_length`` input (or the older
    ``past_present_share_buffer`` attribute) makes the caches shared buffers: the presents keep
    the past's shape and ``T`` is that input's value plus ``L``. A 2-D mask is ``(B, T)``.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MultiHeadAttention
    """
    heads = required_int(ctx, "num_heads")
    query = shape_of_rank(ctx, 0, (3, 5), "query")
    batch, seq = query[0], query[1]
    if len(query) == 5:
        eq_dims(ctx, query[2], heads, "packed qkv", 0, 2, "num_heads")
        eq_dims(ctx, query[3], 3, "packed qkv", 0, 3, "3")
        head = query[4]
        hidden = mul(head, heads)
    else:
        hidden = query[2]
        head = div_exact(ctx, hidden, heads, "hidden_size")
    kv_len, v_hidden = _mha_kv(ctx, batch, seq, heads, hidden, head, packed_qkv=len(query) == 5)
    v_head = div_exact(ctx, v_hidden, heads, "v_hidden_size")
    past_len: Dim = 0
    pk = None
    if ctx.has_input(6) and ctx.has_input(7):
        pk = past_pair(ctx, 6, batch, heads, head)
        past_len = pk[2]
    share = (bool(ctx.attr("past_present_share_buffer", 0)) or ctx.has_input(8)) and pk is not None
    total = _share_total(ctx, 8, kv_len) if share else add(past_len, kv_len)
    mask_facts(ctx, 4, batch, seq, total)
    bias_facts(ctx, 5, seq, total)
    ctx.set_output(0, (batch, seq, v_hidden))
    cache = pk[2] if share and pk is not None else total
    ctx.set_output(1, (batch, heads, cache, head))
    ctx.set_output(2, (batch, heads, cache, v_head))
    ctx.set_output(3, (batch, heads, seq, total))


def _mha_kv(
    ctx: OpContext, batch: Dim, seq: Dim, heads: int, hidden: Dim, head: Dim, *, packed_qkv: bool
) -> tuple[Dim, Dim]:
    """MultiHeadAttention's key/value layouts: returns ``(L, D_v)`` and records their facts."""
    if not ctx.has_input(1):
        return seq, hidden
    if packed_qkv:
        raise ctx.invalid(
            "a packed (5-D) query comes with a key and value",
            "a packed query alone, or a 3-D query with key and value",
            FIX_CONTRACT,
        )
    key = shape_of_rank(ctx, 1, (3, 4, 5), "key")
    eq_dims(ctx, key[0], batch, "key shape", 1, 0, "batch_size")
    if len(key) == 3:
        eq_dims(ctx, key[2], hidden, "key shape", 1, 2, "hidden_size of the query")
        kv_len = key[1]
    elif len(key) == 5:
        for axis, want, what in ((2, heads, "num_heads"), (3, 2, "2"), (4, head, "head_size")):
            eq_dims(ctx, key[axis], want, "packed kv", 1, axis, what)
        return key[1], hidden
    else:
        eq_dims(ctx, key[1], heads, "key shape", 1, 1, "num_heads")
        eq_dims(ctx, key[3], head, "key shape", 1, 3, "head_size")
        kv_len = key[2]
    if not ctx.has_input(2):
        return kv_len, hidden
    value = shape_of_rank(ctx, 2, (3, 4), "value")
    eq_dims(ctx, value[0], batch, "value shape", 2, 0, "batch_size")
    if len(value) == 3:
        eq_dims(ctx, value[1], kv_len, "value shape", 2, 1, "kv_sequence_length")
        return kv_len, value[2]
    eq_dims(ctx, value[2], kv_len, "value shape", 2, 2, "kv_sequence_length")
    return kv_len, mul(value[1], value[3])


@register(MS, "GroupQueryAttention")
def group_query_attention(ctx: OpContext) -> None:
    """Grouped-query attention with a BNSH KV cache: ``output (B, S, N*H)``, ``present_key`` and
    ``present_value (B, N_kv, Max(P, t), H)``, with ``t`` the value of ``total_sequence_length``
    (the kernel accepts ``t == P + S``, a growing cache, or ``t <= P``, a static one); with
    ``sliding_window_cache=1``, ``P`` (a window-sized cache the op evicts inside).

    Query ``(B, S, N*H)`` or packed ``(B, S, (N + 2*N_kv)*H)``; key and value ``(B, S, N_kv*H)``;
    seqlens_k ``(B)``. Facts: the head-size divisions and the cache layout.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GroupQueryAttention
    """
    heads = required_int(ctx, "num_heads")
    kv_heads = required_int(ctx, "kv_num_heads")
    batch, seq, q_width = shape_of_rank(ctx, 0, (3,), "query")
    if ctx.has_input(1):
        head = div_exact(ctx, q_width, heads, "hidden_size")
        for i, name in ((1, "key"), (2, "value")):
            dims = shape_of_rank(ctx, i, (3,), name)
            eq_dims(ctx, dims[0], batch, f"{name} shape", i, 0, "batch_size")
            eq_dims(ctx, dims[1], seq, f"{name} shape", i, 1, "sequence_length")
            eq_dims(ctx, floordiv(dims[2], kv_heads), head, f"{name} shape", i, 2, "head_size (per kv head)")
    else:
        head = div_exact(ctx, q_width, heads + 2 * kv_heads, "packed qkv width")
    past_len: Dim = 0
    if ctx.has_input(3) and ctx.has_input(4):
        past_len = past_pair(ctx, 3, batch, kv_heads, head)[2]
    eq_vector(ctx, 5, batch, "seqlens_k shape", "batch_size")
    els = ctx.elements(6)
    total = els[0] if els is not None and len(els) == 1 else ctx.fresh("total_sequence_length", kind="data")
    present = _sliding_window_capacity(ctx, past_len) if ctx.attr("sliding_window_cache", 0) else smax(past_len, total)
    present = ctx.canon(present)
    bias_facts(ctx, 10, seq, total)
    ctx.set_output(0, (batch, seq, q_width if ctx.has_input(1) else mul(head, heads)))
    ctx.set_output(1, (batch, kv_heads, present, head))
    ctx.set_output(2, (batch, kv_heads, present, head))
    ctx.set_output(3, (batch, heads, seq, total))


def _sliding_window_capacity(ctx: OpContext, past_len: Dim) -> Dim:
    """``sliding_window_cache=1``: the presents keep the past's capacity ``P`` (the op evicts
    inside it), which the kernel requires to hold the window: ``P >= local_window_size``."""
    window = int(ctx.attr("local_window_size", -1))
    if window <= 0:
        raise ctx.invalid(f"sliding_window_cache=1 with local_window_size {window}", "local_window_size > 0",
                          FIX_CONTRACT)
    if not (ctx.has_input(3) and ctx.has_input(4)):
        raise ctx.invalid("sliding_window_cache=1 without past_key and past_value", "both past inputs", FIX_CONTRACT)
    require_ge(ctx, past_len, window, "sliding-window cache capacity >= local_window_size",
               "the past's length (the cache capacity)")
    return past_len


@register(MS, "DecoderMaskedMultiHeadAttention")
def decoder_masked_mha(ctx: OpContext) -> None:
    """One-token decoding step (``S == 1``, a fact): ``output (B, 1, D_v)``; presents have the
    past's shape (the CPU kernel requires ``past_present_share_buffer``); ``qk (B, N, 1, T)``
    with ``T = past_sequence_length + 1`` (the value of input 7).

    Query ``(B, S, D)``; key/value ``(B, L, D)`` for self attention, or BNSH caches
    ``(B, N, L, H)`` for cross attention (then ``T = L``).
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DecoderMaskedMultiHeadAttention
    """
    heads = required_int(ctx, "num_heads")
    batch, seq, width = shape_of_rank(ctx, 0, (3,), "query")
    eq_dims(ctx, seq, 1, "one token", 0, 1, "1 (the kernel decodes one token)")
    key = ctx.shape(1) if ctx.has_input(1) else None
    if key is None:  # packed QKV (B, S, D + D + D_v) with D == D_v
        hidden = div_exact(ctx, width, 3, "packed qkv width")
        v_hidden = hidden
    else:
        hidden = width
        v_shape = ctx.shape(2) if ctx.has_input(2) else key
        v_hidden = mul(v_shape[1], v_shape[3]) if len(v_shape) == 4 else v_shape[-1]
    head = div_exact(ctx, hidden, heads, "hidden_size")
    ctx.set_output(0, (batch, seq, v_hidden))
    if key is not None and len(key) == 4:  # cross attention: the caches are key and value
        eq_dims(ctx, key[0], batch, "key shape", 1, 0, "batch_size")
        eq_dims(ctx, key[1], heads, "key shape", 1, 1, "num_heads")
        ctx.set_output(3, (batch, heads, 1, key[2]))
        return
    if ctx.has_input(5):
        pk = past_kv(ctx, 5, batch, heads, head, "past_key")
        ctx.set_output(1, pk)
        if ctx.has_input(6):
            ctx.set_output(2, ctx.shape(6))
        ctx.set_output(3, (batch, heads, 1, _share_total(ctx, 7, seq)))


@register(MS, "RotaryEmbedding")
def rotary_embedding(ctx: OpContext) -> None:
    """Rotary position embedding: the output has the input's shape. Input ``(B, S, D)`` or
    ``(B, N, S, H)``; position_ids ``(B, S)`` (facts) or a 1-element offset; the cos and sin
    caches share their shape (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.RotaryEmbedding
    """
    x = shape_of_rank(ctx, 0, (3, 4), "input")
    if not ctx.attr("is_packed_batching", 0):
        position_ids_facts(ctx, 1, x[0], x[1] if len(x) == 3 else x[2])
    if ctx.has_input(2) and ctx.has_input(3):
        cos, sin = ctx.shape(2), ctx.shape(3)
        if len(cos) == len(sin):
            for axis, (c, s) in enumerate(zip(cos, sin, strict=True)):
                eq_dims(ctx, s, c, "cache shape", 3, axis, f"dim {axis} of 'cos_cache'")
    ctx.set_output(0, x)
