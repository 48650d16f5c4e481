"""com.microsoft sparse and paged attention: SparseAttention, DynamicSparseAttention,
PagedAttention, SparsePagedAttention, and the sparse-attention indexers
(SparseAttentionIndexer, PackedSparseAttentionIndexer, PackedSparseAttentionIndexerMerge).

Caches shared in place keep their input shape. Selection widths depend on attributes only
(``token_budget + compress_ratio - 1`` for the "qsa" policy, ``index_topk`` for "csa"); the number
of compressed entries a "csa" call emits follows the window plan of
contrib_ops/cpu/sparse/sparse_attention_indexer_common.h (``TryComputeCsaWindowPlan``) exactly.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, floordiv, mod, mul, smin
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol, record_le
from symshape.rules.onnx_contrib.attention import past_kv
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    eq_dims,
    eq_shape,
    eq_vector,
    required_int,
    same_shape_as,
    shape_of_rank,
)
from symshape.rules.registry import register


def _gqa_width(ctx: OpContext, width: Dim, heads: int, kv_heads: int, packed: bool) -> tuple[Dim, Dim]:
    """``(H, N*H)`` from a query ``width``: ``N*H``, or ``(N + 2*N_kv)*H`` when QKV are packed."""
    if packed:
        head = div_exact(ctx, width, heads + 2 * kv_heads, "packed qkv width")
        return head, ctx.canon(mul(head, heads))
    return div_exact(ctx, width, heads, "query hidden_size"), width


@register(MS, "SparseAttention")
def sparse_attention(ctx: OpContext) -> None:
    """Block-sparse GQA over shared past/present buffers: ``output (B, S, N*H)``, presents of the
    past's shape ``(B, N_kv, M, H)``. Facts from contrib_ops/cpu/sparse/sparse_attention_helper.h:
    key and value ``(B, S, ·)`` of one shape, ``8 | H``, the past's layout, block_col_indices
    with as many layouts as block_row_indices, key_total_sequence_lengths ``(B)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SparseAttention
    """
    heads = required_int(ctx, "num_heads")
    kv_heads = required_int(ctx, "kv_num_heads")
    required_int(ctx, "sparse_block_size")
    batch, seq, width = shape_of_rank(ctx, 0, (3,), "query")
    packed = not ctx.has_input(1)
    head, q_hidden = _gqa_width(ctx, width, heads, kv_heads, packed)
    div_exact(ctx, head, 8, "head_size")
    if not packed:
        key = shape_of_rank(ctx, 1, (3,), "key")
        eq_dims(ctx, key[0], batch, "key shape", 1, 0, "batch_size")
        eq_dims(ctx, key[1], seq, "key shape", 1, 1, "sequence_length")
        same_shape_as(ctx, 1, 2, "value shape")
    past = past_kv(ctx, 3, batch, kv_heads, head, "past_key", "kv_num_heads")
    same_shape_as(ctx, 3, 4, "past_value shape")
    rows = shape_of_rank(ctx, 5, (2,), "block_row_indices")
    cols = shape_of_rank(ctx, 6, (2,), "block_col_indices")
    eq_dims(ctx, cols[0], rows[0], "block_col_indices shape", 6, 0, "num_layout")
    eq_vector(ctx, 8, batch, "key_total_sequence_lengths shape", "batch_size")
    ctx.set_output(0, (batch, seq, q_hidden))
    ctx.set_output(1, past)
    ctx.set_output(2, past)


@register(MS, "DynamicSparseAttention")
def dynamic_sparse_attention(ctx: OpContext) -> None:
    """GQA reading externally selected entries: ``output (B, S, N*H)``; ``present_key`` and
    ``present_value (B, N_kv, C, H)`` with ``C`` the past's capacity, or the value of
    total_sequence_length without a past (cpu/bert/dynamic_sparse_attention_helper.h). Facts:
    ``N_kv | N``, key/value ``(B, S, N_kv*H)``, selected rows ``B*S``, seqlens_k ``(B)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DynamicSparseAttention
    """
    heads = required_int(ctx, "num_heads")
    kv_heads = required_int(ctx, "kv_num_heads")
    if heads % kv_heads:
        raise ctx.invalid(f"num_heads {heads} with kv_num_heads {kv_heads}", "a multiple of kv_num_heads",
                          FIX_CONTRACT)
    batch, seq, width = shape_of_rank(ctx, 0, (3,), "query")
    head, q_hidden = _gqa_width(ctx, width, heads, kv_heads, not ctx.has_input(1))
    if ctx.has_input(1):
        kv = (batch, seq, mul(head, kv_heads))
        eq_shape(ctx, 1, kv, "key shape", "key", "(B, S, kv_num_heads * head_size)")
        eq_shape(ctx, 2, kv, "value shape", "value", "(B, S, kv_num_heads * head_size)")
    rows = mul(batch, seq)
    eq_dims(ctx, shape_of_rank(ctx, 7, (2,), "selected_indices")[0], rows, "selected rows", 7, 0, "B * S")
    eq_vector(ctx, 8, rows, "selected_counts shape", "B * S")
    eq_vector(ctx, 9, batch, "seqlens_k shape", "batch_size")
    capacity: Dim
    if ctx.has_input(3):
        past = past_kv(ctx, 3, batch, kv_heads, head, "past_key", "kv_num_heads")
        same_shape_as(ctx, 3, 4, "past_value shape")
        capacity = past[2]
    else:
        els = ctx.elements(10)
        capacity = els[0] if els is not None and len(els) == 1 else data_symbol(
            ctx, ("total_sequence_length", ctx.input_name(10)), "total_sequence_length")
        record_le(ctx, seq, capacity, "total_sequence_length >= sequence_length")
    ctx.set_output(0, (batch, seq, q_hidden))
    ctx.set_output(1, (batch, kv_heads, capacity, head))
    ctx.set_output(2, (batch, kv_heads, capacity, head))
    if ctx.num_outputs > 3 and ctx.op.outputs[3]:
        ctx.declared_output(3, "validation_status is a CUDA-only status whose shape the schema leaves open")


def _paged_output(ctx: OpContext, heads: int, kv_heads: int) -> tuple[Dim, Dim]:
    """The paged query ``(T, width)`` as ``(T, output width)`` (``N * v_head_size`` for LATENT)."""
    tokens, width = shape_of_rank(ctx, 0, (2,), "query")
    layout = ctx.attr("kv_cache_layout", "SEPARATE")
    if layout not in ("SEPARATE", "LATENT"):
        raise ctx.invalid(f"kv_cache_layout is {layout!r}", "'SEPARATE' or 'LATENT'", FIX_CONTRACT)
    if layout == "LATENT":
        if ctx.has_input(2) or ctx.has_input(4) or kv_heads != 1:
            raise ctx.invalid(f"a LATENT cache with value or value_cache, or kv_num_heads {kv_heads}",
                              "both absent and kv_num_heads 1", FIX_CONTRACT)
        v_head = int(ctx.attr("v_head_size", 0))
        if v_head <= 0:
            return tokens, width
        div_exact(ctx, width, heads, "query hidden_size")
        return tokens, heads * v_head
    _, out = _gqa_width(ctx, width, heads, kv_heads, not ctx.has_input(2))
    return tokens, out


def _paged_caches(ctx: OpContext, batch_rows: int, seqlens: int, table: int) -> Dim:
    """The block caches keep their shapes (outputs 1 and 2); cumulative_sequence_length
    ``(B + 1)``, the past lengths ``(B)`` and the block table ``(B, blocks)`` share ``B``."""
    cache = shape_of_rank(ctx, 3, (4,), "key_cache")
    ctx.set_output(1, cache)
    if ctx.has_input(4):
        ctx.set_output(2, ctx.shape(4))
    batch = shape_of_rank(ctx, table, (2,), "block_table")[0]
    eq_vector(ctx, batch_rows, add(batch, 1), "cumulative_sequence_length shape", "batch_size + 1")
    eq_vector(ctx, seqlens, batch, "past_seqlens shape", "batch_size")
    return batch


@register(MS, "PagedAttention")
def paged_attention(ctx: OpContext) -> None:
    """Attention over a block KV cache for packed tokens: ``output (T, N*H)`` (the query's
    width unpacked, ``N*H`` of packed QKV ``(T, (N + 2*N_kv)*H)``, ``N * v_head_size`` for a
    LATENT cache); ``key_cache_out``/``value_cache_out`` alias the caches (their shapes).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.PagedAttention
    """
    heads = required_int(ctx, "num_heads")
    kv_heads = required_int(ctx, "kv_num_heads")
    ctx.set_output(0, _paged_output(ctx, heads, kv_heads))
    _paged_caches(ctx, 5, 6, 7)


@register(MS, "SparsePagedAttention")
def sparse_paged_attention(ctx: OpContext) -> None:
    """Selected-index attention over PagedAttention's caches: ``output (T, N*H)``, the caches
    aliased out; selected_indices ``(T, max_selected)`` and selected_counts ``(T)`` (facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SparsePagedAttention
    """
    heads = required_int(ctx, "num_heads")
    kv_heads = required_int(ctx, "kv_num_heads")
    tokens, width = shape_of_rank(ctx, 0, (2,), "query")
    _, out = _gqa_width(ctx, width, heads, kv_heads, not ctx.has_input(2))
    eq_dims(ctx, shape_of_rank(ctx, 9, (2,), "selected_indices")[0], tokens, "selected rows", 9, 0, "token_count")
    eq_vector(ctx, 10, tokens, "selected_counts shape", "token_count")
    ctx.set_output(0, (tokens, out))
    _paged_caches(ctx, 5, 6, 7)


def _policy(ctx: OpContext) -> tuple[bool, int, int]:
    """``(is_qsa, capacity, compress_ratio)`` of an indexer's attributes."""
    policy = ctx.attr("policy_mode")
    if policy not in ("qsa", "csa"):
        raise ctx.invalid(f"policy_mode is {policy!r}", "'qsa' or 'csa'", FIX_CONTRACT)
    ratio = required_int(ctx, "compress_ratio")
    if policy == "qsa":
        budget = required_int(ctx, "token_budget")
        if budget % ratio:
            raise ctx.invalid(f"token_budget {budget} with compress_ratio {ratio}", "a multiple of compress_ratio",
                              FIX_CONTRACT)
        return True, budget + ratio - 1, ratio
    return False, required_int(ctx, "index_topk"), ratio


def csa_plan(ctx: OpContext, buffered: Dim, seq: Dim, ratio: int) -> tuple[Dim, Dim]:
    """``(new entries, present buffer length)`` of ``TryComputeCsaWindowPlan`` for a buffer of
    ``buffered`` tokens (``< 2r``) and ``seq`` new ones: with ``over = r`` when ``buffered >= r``
    (else 0) and ``pending = buffered - over + seq``, ``n = pending // r`` entries, and a buffer of
    ``r + pending % r`` tokens when ``n > 0``, else ``buffered + seq`` (= ``over + pending``).
    As one expression: ``pending % r + r*Min(1, n + buffered // r)``."""
    record_le(ctx, buffered, 2 * ratio - 1, "buffered tokens < 2 * compress_ratio")
    over = floordiv(buffered, ratio)  # 0 or 1
    pending = add(mod(buffered, ratio), seq)
    new = ctx.canon(floordiv(pending, ratio))
    length = add(mod(pending, ratio), mul(ratio, smin(1, add(new, over))))
    return new, ctx.canon(length)


@register(MS, "SparseAttentionIndexer")
def sparse_attention_indexer(ctx: OpContext) -> None:
    """Sparse-attention candidate selection: ``selected_indices (B, S, capacity)``;
    ``present_key (B, P', H)`` with ``P' = P + S`` ("qsa", raw keys) or ``P + n`` ("csa", the
    ``n`` entries the window plan closes), or the past's shape with a past_sequence_length
    input (a shared buffer); "csa"'s ``present_proj_buffer (2, B, L', 2H)`` with ``L'`` the
    plan's buffer length. Facts: past_key ``(B, ·, H)``, the norm weights ``(H)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SparseAttentionIndexer
    """
    qsa, capacity, ratio = _policy(ctx)
    batch, seq, _ = shape_of_rank(ctx, 0, (3,), "query")
    past = shape_of_rank(ctx, 7, (3,), "past_key")
    eq_dims(ctx, past[0], batch, "past_key shape", 7, 0, "batch_size")
    head = past[2]
    for i in (2, 3):
        eq_vector(ctx, i, head, "norm weight length", "head_size")
    if ctx.has_input(1):
        width = head if qsa else mul(head, 2)
        eq_shape(ctx, 1, (batch, seq, width), "key shape", "key", "(B, S, head_size)" if qsa else "(B, S, 2*H)")
    ctx.set_output(0, (batch, seq, capacity))
    grown: Dim = add(past[1], seq)
    if not qsa:
        buffered: Dim = 0
        if ctx.has_input(13):
            buf = shape_of_rank(ctx, 13, (4,), "past_proj_buffer")
            eq_shape(ctx, 13, (2, batch, buf[2], mul(head, 2)), "past_proj_buffer shape", "past_proj_buffer",
                     "(2, B, buffer_length, 2 * head_size)")
            buffered = buf[2]
        new, length = csa_plan(ctx, buffered, seq, ratio)
        grown = add(past[1], new)
        ctx.set_output(2, (2, batch, length, ctx.canon(mul(head, 2))))
    ctx.set_output(1, past if ctx.has_input(12) else (batch, ctx.canon(grown), head))


@register(MS, "PackedSparseAttentionIndexer")
def packed_sparse_attention_indexer(ctx: OpContext) -> None:
    """The packed indexer over fixed-capacity state: ``selected_indices (T, capacity)`` (the
    ``max_output_entries`` attribute's width with the IndexShare interface), ``selected_counts
    (T)``, the state outputs keep their inputs' shapes (past_key_state, past_kv_buffer,
    past_gate_buffer, past_state_lengths ``(B, 2)``), ``state_update (B, capacity, H)``,
    ``indexshare_status (T)``, ``state_status (B)``. Facts: past_key_state
    ``(B, state_capacity, H)``, past_kv_buffer ``(B, 2r - 1, ·)``, past_sequence_lengths ``(B)``,
    cumulative_sequence_lengths ``(B + 1)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.PackedSparseAttentionIndexer
    """
    qsa, capacity, ratio = _policy(ctx)
    state_capacity = required_int(ctx, "state_capacity")
    width = ctx.attr("max_output_entries")
    if isinstance(width, int) and width > 0:
        capacity = width
    tokens = shape_of_rank(ctx, 0, (2,), "query")[0]
    state = shape_of_rank(ctx, 12, (3,), "past_key_state")
    batch, head = state[0], state[2]
    eq_dims(ctx, state[1], state_capacity, "past_key_state shape", 12, 1, "state_capacity")
    buffer = shape_of_rank(ctx, 13, (3,), "past_kv_buffer")
    eq_dims(ctx, buffer[0], batch, "past_kv_buffer shape", 13, 0, "batch_size")
    eq_dims(ctx, buffer[1], 2 * ratio - 1, "past_kv_buffer shape", 13, 1, "2 * compress_ratio - 1")
    eq_dims(ctx, buffer[2], head if qsa else mul(head, 2), "past_kv_buffer shape", 13, 2, "the key width")
    eq_vector(ctx, 6, add(batch, 1), "cumulative_sequence_lengths shape", "batch_size + 1")
    eq_vector(ctx, 7, batch, "past_sequence_lengths shape", "batch_size")
    lengths = (batch, 2)
    eq_shape(ctx, 15, lengths, "past_state_lengths shape", "past_state_lengths", "(batch_size, 2)")
    ctx.set_output(0, (tokens, capacity))
    ctx.set_output(1, (tokens,))
    ctx.set_output(2, state)
    ctx.set_output(3, buffer)
    if ctx.has_input(14):
        ctx.set_output(4, same_shape_as(ctx, 13, 14, "past_gate_buffer shape"))
    ctx.set_output(5, lengths)
    ctx.set_output(6, (batch, int(ctx.attr("state_update_capacity", 0)), head))
    ctx.set_output(7, (tokens,))
    ctx.set_output(8, (batch,))


@register(MS, "PackedSparseAttentionIndexerMerge")
def packed_sparse_attention_indexer_merge(ctx: OpContext) -> None:
    """Union of a cached selection and a range or extra selection: ``selected_indices
    (N, max_output_entries)``, ``selected_counts (N)`` and ``status (N)``, ``N`` the rows of
    base_row_indices. Facts: base_counts ``(R)`` for base_indices ``(R, C)``, the range and
    additional inputs have ``N`` rows.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.PackedSparseAttentionIndexerMerge
    """
    width = required_int(ctx, "max_output_entries")
    policy = ctx.attr("policy_mode")
    if policy not in ("append_range", "append_indices") or width > 1 << 30:
        raise ctx.invalid(f"policy_mode {policy!r} with max_output_entries {width}",
                          "'append_range' or 'append_indices', max_output_entries in [1, 2^30]", FIX_CONTRACT)
    base = shape_of_rank(ctx, 0, (2,), "base_indices")
    eq_vector(ctx, 1, base[0], "base_counts shape", "dim 0 of 'base_indices'")
    rows = shape_of_rank(ctx, 2, (1,), "base_row_indices")[0]
    for i in (3, 4, 6):
        eq_vector(ctx, i, rows, "per-query input shape", "the rows of base_row_indices")
    if ctx.has_input(5):
        eq_dims(ctx, shape_of_rank(ctx, 5, (2,), "additional_indices")[0], rows, "additional_indices shape", 5, 0,
                "the rows of base_row_indices")
    ctx.set_output(0, (rows, width))
    ctx.set_output(1, (rows,))
    ctx.set_output(2, (rows,))
