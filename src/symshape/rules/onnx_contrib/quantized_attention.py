"""com.microsoft quantized attention ops: QAttention, QOrderedAttention, QOrderedLongformerAttention,
QEmbedLayerNormalization.

Notation of onnxruntime's kernels: B batch, S sequence length, P past length, T = P + S, N heads,
D hidden size, D_i the input's hidden size. What the kernels' checks reject is a fact:
``AttentionBase::CheckInputs``/``CheckMask`` (attention_base.cc) for QAttention and
QOrderedAttention, ``LongformerAttentionBase::CheckInputs`` (longformer_attention_base.cc) for
QOrderedLongformerAttention, ``embed_layer_norm::CheckInputs`` (embed_layer_norm_helper.cc) for
QEmbedLayerNormalization. Limits of the CUDA implementations alone (QOrderedAttention's
``S % 16 == 0``) are not the op's contract and are not recorded.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, floordiv
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import record_le
from symshape.rules.onnx_contrib.attention import longformer_input, mask_facts, merged_past
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    embedding_width,
    eq_dims,
    eq_shape,
    eq_vector,
    required_int,
    shape_of_rank,
)
from symshape.rules.registry import register


def attention_mask_facts(ctx: OpContext, i: int, batch: Dim, seq: Dim, total: Dim) -> None:
    """``AttentionBase::CheckMask`` on input ``i``: ``(B, S, T)``, ``(B, 1, M, M)`` with
    ``M >= T``, ``(B, T)`` when its last dim cannot be 1 (``(B or 1, 1)`` is a broadcast dummy),
    ``(B)`` or ``(2B)`` (undecided: no fact)."""
    if not ctx.has_input(i):
        return
    dims = shape_of_rank(ctx, i, (1, 2, 3, 4), "mask_index")
    if len(dims) != 4:
        mask_facts(ctx, i, batch, seq, total)
        return
    eq_dims(ctx, dims[0], batch, "mask shape", i, 0, "batch_size")
    eq_dims(ctx, dims[1], 1, "mask shape", i, 1, "1")
    eq_dims(ctx, dims[3], dims[2], "mask shape", i, 3, "dim 2 of the mask (max_sequence_length)")
    record_le(ctx, total, dims[2], "mask max_sequence_length >= total_sequence_length")


def _per_column(ctx: OpContext, i: int, width: Dim, what: str) -> None:
    """A scale or zero point that is a scalar, a 1-element vector, or ``width`` values (a fact
    once it cannot be a 1-element vector)."""
    if not ctx.has_input(i):
        return
    dims = ctx.shape(i)
    if len(dims) == 1 and ctx.facts.prove_ge(ctx.canon(dims[0]), 2):
        eq_dims(ctx, dims[0], width, f"{what} length", i, 0, "the per-column width")
    elif len(dims) > 1:
        raise ctx.invalid(f"input '{ctx.op.inputs[i]}' has rank {len(dims)}", "a scalar or a vector", FIX_CONTRACT)


@register(MS, "QAttention")
def qattention(ctx: OpContext) -> None:
    """Attention over int8 input and weights: ``input (B, S, D_i)``, ``weight (D_i, 3*D)`` give
    ``output (B, S, D)`` and ``present (2, B, N, P+S, floor(D/N))`` (the CPU kernel's head size).
    Facts: contraction, bias ``(3*D)``, ``3 | weight width``, the past ``(2, B, N, P, H)``, the
    mask layouts, per-column scales and zero points of ``3*D``. ``past_present_share_buffer``
    needs a ``past_sequence_length`` input QAttention does not have: a ModelError with a past.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QAttention
    """
    heads = required_int(ctx, "num_heads")
    batch, seq, d_in = shape_of_rank(ctx, 0, (3,), "input")
    w = shape_of_rank(ctx, 1, (2,), "weight")
    eq_dims(ctx, w[0], d_in, "contraction", 1, 0, ctx.dim_name(0, 2))
    bias = shape_of_rank(ctx, 2, (1,), "bias")
    eq_dims(ctx, bias[0], w[1], "bias length", 2, 0, "dim 1 of 'weight'")
    hidden = div_exact(ctx, w[1], 3, "dim 1 of 'weight'")
    head = ctx.canon(floordiv(hidden, heads))
    for i, what in ((4, "weight_scale"), (7, "weight_zero_point")):
        _per_column(ctx, i, w[1], what)
    past_len: Dim = 0
    if ctx.has_input(8):
        if ctx.attr("past_present_share_buffer", 0):
            raise ctx.invalid("past_present_share_buffer=1 with a past", "past_present_share_buffer=0 (QAttention "
                              "has no past_sequence_length input)", FIX_CONTRACT)
        past_len = merged_past(ctx, 8, batch, heads, head)[3]
    total = ctx.canon(add(past_len, seq))
    attention_mask_facts(ctx, 5, batch, seq, total)
    ctx.set_output(0, (batch, seq, hidden))
    ctx.set_output(1, (2, batch, heads, total, head))


@register(MS, "QOrderedAttention")
def qordered_attention(ctx: OpContext) -> None:
    """Int8 attention with separate Q, K, V weights: ``input (B, S, D_i)`` gives ``output (B, S,
    D)``, ``D`` the attribute ``qkv_hidden_sizes`` (required by the CUDA kernel: three equal
    sizes divisible by ``num_heads``). Facts: each weight is ``(D_i, D)``, each bias ``(D)``,
    each vector weight scale ``(D)``, and the mask layouts with ``T = S`` (no past).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QOrderedAttention
    """
    heads = required_int(ctx, "num_heads")
    sizes = ctx.attr("qkv_hidden_sizes")
    if not sizes or len(sizes) != 3 or len(set(sizes)) != 1 or sizes[0] <= 0 or sizes[0] % heads:
        raise ctx.invalid(f"qkv_hidden_sizes is {sizes!r}", f"three equal positive sizes divisible by num_heads "
                          f"({heads})", FIX_CONTRACT)
    hidden = int(sizes[0])
    batch, seq, d_in = shape_of_rank(ctx, 0, (3,), "input")
    for i in (5, 6, 7):
        eq_shape(ctx, i, (d_in, hidden), "qkv weight", ctx.op.inputs[i], "(input_hidden_size, hidden)")
    for i in (11, 12, 13):
        eq_vector(ctx, i, hidden, "qkv bias length", "the qkv hidden size")
    for i in (8, 9, 10):
        _per_column(ctx, i, hidden, "weight scale")
    attention_mask_facts(ctx, 17, batch, seq, seq)
    ctx.set_output(0, (batch, seq, hidden))


@register(MS, "QOrderedLongformerAttention")
def qordered_longformer_attention(ctx: OpContext) -> None:
    """Int8 Longformer self attention: the output has the input's shape ``(B, S, D)``. Facts
    (``LongformerAttentionBase::CheckInputs``): ``2*window | S``, ``N | D``, both weights ``(D,
    3*D)``, both biases ``(3*D)``, mask and global flags ``(B, S)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QOrderedLongformerAttention
    """
    x = longformer_input(ctx, (2, 8), (4, 10), (7, 12))
    ctx.set_output(0, x)


@register(MS, "QEmbedLayerNormalization")
def qembed_layer_norm(ctx: OpContext) -> None:
    """Int8 embedding lookups summed and normalized: ``input_ids (B, S)`` gives ``layernorm_out
    (B, S, H)`` and ``mask_index_out (B)``, ``H`` the word embedding's width. Facts: segment_ids
    and mask have input_ids' shape, the position and segment tables are ``(*, H)``, gamma and
    beta ``(H)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QEmbedLayerNormalization
    """
    ids = shape_of_rank(ctx, 0, (2,), "input_ids")
    for i, name in ((1, "segment_ids"), (7, "mask")):
        if ctx.has_input(i):
            eq_shape(ctx, i, ids, f"{name} shape", name, "input_ids")
    hidden = embedding_width(ctx)
    ctx.set_output(0, (*ids, hidden))
    ctx.set_output(1, ids[:1])
