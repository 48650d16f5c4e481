"""The attention family of the default domain (opset 23 on): Attention, RotaryEmbedding,
LinearAttention, CausalConvWithState, TensorScatter, and ai.onnx.preview's FlexAttention.

Notation of the spec: B batch, S query length, L key/value length, P past length, T = P + L,
``q_num_heads``/``kv_num_heads`` heads, H head size, H_v value head size. 3-D inputs pack heads
into the last dim (``q_hidden = q_num_heads * H``); what the spec requires of the shapes (the
contraction dims, the packed hidden sizes divisible by the heads, the caches' layout) is a fact.
https://onnx.ai/onnx/operators/onnx__Attention.html
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import div_exact, eq_dims, eq_shape, required_int, shape_of_rank
from symshape.rules.registry import ONNX, register

PREVIEW = "ai.onnx.preview"


def _bnsh(ctx: OpContext, i: int, heads_attr: str, name: str) -> tuple[Dim, Dim, Dim, Dim]:
    """Input ``i`` as ``(B, heads, seq, head)``: 4-D as is, 3-D ``(B, seq, heads*head)`` unpacked
    with the heads attribute (the hidden size divisible by it is a fact)."""
    dims = shape_of_rank(ctx, i, (3, 4), name)
    if len(dims) == 4:
        return dims[0], dims[1], dims[2], dims[3]
    heads = required_int(ctx, heads_attr)
    return dims[0], heads, dims[1], div_exact(ctx, dims[2], heads, f"dim 2 of '{name}'")


@register(ONNX, "Attention", since=23)
def attention(ctx: OpContext) -> None:
    """``Y`` is ``(B, q_num_heads, S, H_v)``, or ``(B, S, q_num_heads*H_v)`` for a 3-D Q;
    ``present_key``/``present_value`` ``(B, kv_num_heads, P+L, H or H_v)``; ``qk_matmul_output``
    ``(B, q_num_heads, S, P+L)``. Facts: Q and K share B and H, K and V share B, heads and L,
    the pasts match the presents but for their length, and share it. The mask is left alone (it
    broadcasts, and its last dim may be shorter than T).

    https://onnx.ai/onnx/operators/onnx__Attention.html
    """
    batch, q_heads, seq, head = _bnsh(ctx, 0, "q_num_heads", "Q")
    kb, kv_heads, kv_len, kh = _bnsh(ctx, 1, "kv_num_heads", "K")
    vb, vh, vl, v_head = _bnsh(ctx, 2, "kv_num_heads", "V")
    eq_dims(ctx, kb, batch, "batch", 1, 0, "the batch of Q")
    eq_dims(ctx, vb, batch, "batch", 2, 0, "the batch of Q")
    eq_dims(ctx, kh, head, "contraction", 1, len(ctx.shape(1)) - 1, "the head size of Q")
    eq_dims(ctx, vh, kv_heads, "kv heads", 2, 1, "the heads of K")
    eq_dims(ctx, vl, kv_len, "kv length", 2, len(ctx.shape(2)) - 2, "the length of K")
    total: Dim = kv_len
    if ctx.has_input(4):
        past = shape_of_rank(ctx, 4, (4,), "past_key")
        for axis, want, what in ((0, batch, "the batch"), (1, kv_heads, "kv_num_heads"), (3, head, "the head size")):
            eq_dims(ctx, past[axis], want, "past_key shape", 4, axis, what)
        total = add(past[2], kv_len)
        if ctx.has_input(5):
            eq_shape(ctx, 5, (batch, kv_heads, past[2], v_head), "past_value shape", "past_value", "the value cache")
    if len(ctx.shape(0)) == 3:
        ctx.set_output(0, (batch, seq, mul(q_heads, v_head)))
    else:
        ctx.set_output(0, (batch, q_heads, seq, v_head))
    ctx.set_output(1, (batch, kv_heads, total, head))
    ctx.set_output(2, (batch, kv_heads, total, v_head))
    ctx.set_output(3, (batch, q_heads, seq, total))


@register(PREVIEW, "FlexAttention")
def flex_attention(ctx: OpContext) -> None:
    """Rank-4 Q ``(B, q_heads, S, H)``, K ``(B, kv_heads, L, H)``, V ``(B, kv_heads, L, H_v)``:
    ``Y (B, q_heads, S, H_v)``; the shared dims are facts (the modifier subgraphs keep the score
    shape, so they change nothing here).

    https://onnx.ai/onnx/operators/onnx_aionnxpreview_FlexAttention.html
    """
    q = shape_of_rank(ctx, 0, (4,), "Q")
    k = shape_of_rank(ctx, 1, (4,), "K")
    v = shape_of_rank(ctx, 2, (4,), "V")
    eq_dims(ctx, k[3], q[3], "contraction", 1, 3, "the head size of Q")
    for axis, what in ((0, "the batch"), (1, "kv_num_heads"), (2, "the length")):
        eq_dims(ctx, v[axis], k[axis], "kv shape", 2, axis, f"{what} of K")
    ctx.set_output(0, (q[0], q[1], q[2], v[3]))


@register(ONNX, "RotaryEmbedding", since=23)
def rotary_embedding(ctx: OpContext) -> None:
    """The output has the input's shape.

    https://onnx.ai/onnx/operators/onnx__RotaryEmbedding.html
    """
    ctx.set_output(0, ctx.shape(0))


@register(ONNX, "LinearAttention")
def linear_attention(ctx: OpContext) -> None:
    """Packed ``query (B, T, H_q*d_k)``, ``key (B, T, H_kv*d_k)``, ``value (B, T, H_kv*d_v)``:
    ``output (B, T, H_q*d_v)`` and ``present_state (B, H_kv, d_k, d_v)``. Facts: the packed
    sizes divisible by the heads, B and T shared, the key's d_k equal to the query's.

    https://onnx.ai/onnx/operators/onnx__LinearAttention.html
    """
    q_heads, kv_heads = required_int(ctx, "q_num_heads"), required_int(ctx, "kv_num_heads")
    batch, steps, q_hidden = shape_of_rank(ctx, 0, (3,), "query")
    k = shape_of_rank(ctx, 1, (3,), "key")
    v = shape_of_rank(ctx, 2, (3,), "value")
    d_k = div_exact(ctx, q_hidden, q_heads, "dim 2 of 'query'")
    d_v = div_exact(ctx, v[2], kv_heads, "dim 2 of 'value'")
    for i, dims in ((1, k), (2, v)):
        eq_dims(ctx, dims[0], batch, "batch", i, 0, "the batch of query")
        eq_dims(ctx, dims[1], steps, "length", i, 1, "the length of query")
    eq_dims(ctx, k[2], mul(kv_heads, d_k), "key size", 1, 2, "kv_num_heads * d_k")
    state = (batch, kv_heads, d_k, d_v)
    if ctx.has_input(3):
        eq_shape(ctx, 3, state, "past_state shape", "past_state", "the recurrent state")
    ctx.set_output(0, (batch, steps, mul(q_heads, d_v)))
    ctx.set_output(1, state)


@register(ONNX, "CausalConvWithState")
def causal_conv_with_state(ctx: OpContext) -> None:
    """``output`` has the input's shape ``(B, C, L)``; ``present_state`` is ``(B, C, k-1)`` for a
    depthwise weight ``(C, 1, k)``. Facts: the weight's channels, ``k >= 1``, bias and past state
    shapes.

    https://onnx.ai/onnx/operators/onnx__CausalConvWithState.html
    """
    batch, channels, length = shape_of_rank(ctx, 0, (3,), "input")
    w = shape_of_rank(ctx, 1, (3,), "weight")
    eq_dims(ctx, w[0], channels, "channels", 1, 0, "the channels of input")
    eq_dims(ctx, w[1], 1, "depthwise", 1, 1, "1")
    ctx.assume_range(w[2], 1, None, "kernel size >= 1")
    if ctx.has_input(2):
        eq_shape(ctx, 2, (channels,), "bias shape", "bias", "the channels")
    carry = (batch, channels, add(w[2], -1))
    if ctx.has_input(3):
        eq_shape(ctx, 3, carry, "past_state shape", "past_state", "the carry state")
    ctx.set_output(0, (batch, channels, length))
    ctx.set_output(1, carry)


@register(ONNX, "TensorScatter")
def tensor_scatter(ctx: OpContext) -> None:
    """``present_cache`` has the shape of ``past_cache``; the update has that shape but on
    ``axis`` (a fact, dim by dim).

    https://onnx.ai/onnx/operators/onnx__TensorScatter.html
    """
    past = ctx.shape(0)
    update = ctx.shape(1)
    if len(update) == len(past) and past:
        axis = ctx.attr("axis", -2) % len(past)
        for i, (u, p) in enumerate(zip(update, past, strict=True)):
            if i != axis:
                eq_dims(ctx, u, p, "update shape", 1, i, f"dim {i} of past_cache")
    ctx.set_output(0, past)
