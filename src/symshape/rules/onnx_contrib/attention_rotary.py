"""com.microsoft rotary-embedding variants: MRotaryEmbedding (multimodal M-RoPE),
GemmaRotaryEmbedding, and RMSNormRotary (RMS norm then partial RoPE).

Each keeps its input's layout (RMSNormRotary flattens heads into the last dim); the caches'
widths and the position layouts are what the kernels check (facts).
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, floordiv, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import record_le
from symshape.rules.onnx_contrib.attention import position_ids_facts
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    eq_dims,
    required_int,
    same_shape_as,
    shape_of_rank,
)
from symshape.rules.registry import register


@register(MS, "MRotaryEmbedding")
def m_rotary_embedding(ctx: OpContext) -> None:
    """M-RoPE: the output has the input's shape, ``(B, S, N*H)`` or ``(B, N, S, H)``. Facts from
    cpu/bert/mrotary_embedding_helper.h: position_ids ``(3, B, S)``, cos/sin caches of one shape
    ``(max_len, R/2)`` with ``R`` the rotary_embedding_dim (else ``H``), ``N | D`` for a 3-D
    input (num_heads then required), and ``sum(mrope_section) == R/2``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MRotaryEmbedding
    """
    sections = ctx.attr("mrope_section")
    if not sections or len(sections) != 3 or any(s < 0 for s in sections):
        raise ctx.invalid(f"mrope_section is {sections!r}", "3 non-negative integers", FIX_CONTRACT)
    if ctx.attr("mrope_layout", 0) not in (0, 1):
        raise ctx.invalid(f"mrope_layout is {ctx.attr('mrope_layout')!r}", "0 or 1", FIX_CONTRACT)
    x = shape_of_rank(ctx, 0, (3, 4), "input")
    rotary = int(ctx.attr("rotary_embedding_dim", 0))
    heads = int(ctx.attr("num_heads", 0))
    if rotary > 0 and heads == 0:
        raise ctx.invalid("rotary_embedding_dim without num_heads", "num_heads with rotary_embedding_dim",
                          FIX_CONTRACT)
    if len(x) == 3:
        heads = required_int(ctx, "num_heads")
        batch, seq = x[0], x[1]
        head = div_exact(ctx, x[2], heads, "hidden_size")
    else:
        batch, seq, head = x[0], x[2], x[3]
    pos = shape_of_rank(ctx, 1, (3,), "position_ids")
    for axis, want, what in ((0, 3, "3 (T, H, W streams)"), (1, batch, "batch_size"), (2, seq, "sequence_length")):
        eq_dims(ctx, pos[axis], want, "position_ids shape", 1, axis, what)
    cos = shape_of_rank(ctx, 2, (2,), "cos_cache")
    same_shape_as(ctx, 2, 3)
    half: Dim
    if rotary > 0:
        record_le(ctx, rotary, head, "rotary_embedding_dim <= head_size")
        half = rotary // 2
    else:
        half = ctx.canon(floordiv(head, 2))
    eq_dims(ctx, cos[1], half, "cos_cache shape", 2, 1, "rotary_embedding_dim / 2")
    ctx.eq(half, sum(sections), "mrope_section sum", ("rotary_embedding_dim / 2", "the sum of mrope_section"))
    ctx.set_output(0, x)


@register(MS, "GemmaRotaryEmbedding")
def gemma_rotary_embedding(ctx: OpContext) -> None:
    """Gemma's RoPE ``q*cos(emb) + q_rot*sin(emb)`` and the same for k: outputs of q's and k's
    shapes ``(B, N, S, dim)``; emb ``(B, S, dim)``, q_rot like q and k_rot like k (facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GemmaRotaryEmbedding
    """
    emb = shape_of_rank(ctx, 0, (3,), "emb")
    q = shape_of_rank(ctx, 1, (4,), "q")
    k = shape_of_rank(ctx, 3, (4,), "k")
    for i, dims in ((1, q), (3, k)):
        for axis, e in ((0, 0), (2, 1), (3, 2)):
            eq_dims(ctx, dims[axis], emb[e], "emb shape", i, axis, f"dim {e} of 'emb'")
    same_shape_as(ctx, 1, 2)
    same_shape_as(ctx, 3, 4)
    ctx.set_output(0, q)
    ctx.set_output(1, k)


@register(MS, "RMSNormRotary")
def rms_norm_rotary(ctx: OpContext) -> None:
    """RMS norm of a last-axis slice then partial RoPE: X ``(B, S, heads, stride)`` and scale
    ``(width)`` give ``Y (B, S, heads*width)`` (``(1, B*S, heads*width)`` with flatten_batch) and
    ``normalized_fp32 (B, S, heads, width)``. Facts: ``width`` is input_width when given (the
    whole last dim when neither it nor input_start is), ``input_start + width <= stride``, the
    caches ``(rows, R/2)`` of one shape, ``R <= width``, positions ``(B, S)`` or one element.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.RMSNormRotary
    """
    rotary = required_int(ctx, "rotary_embedding_dim")
    start = int(ctx.attr("input_start", 0))
    given = int(ctx.attr("input_width", 0))
    if rotary % 2 or start < 0 or given < 0:
        raise ctx.invalid(f"rotary_embedding_dim {rotary}, input_start {start}, input_width {given}",
                          "an even rotary_embedding_dim and a non-negative start and width", FIX_CONTRACT)
    batch, seq, heads, stride = shape_of_rank(ctx, 0, (4,), "X")
    width = shape_of_rank(ctx, 1, (1,), "scale")[0]
    if given > 0:
        eq_dims(ctx, width, given, "scale length", 1, 0, "input_width")
    elif start == 0:
        eq_dims(ctx, width, stride, "scale length", 1, 0, "the last dim of X")
    record_le(ctx, add(width, start), stride, "input_start + width <= the last dim of X")
    record_le(ctx, rotary, width, "rotary_embedding_dim <= the normalized width")
    position_ids_facts(ctx, 2, batch, seq)
    cos = shape_of_rank(ctx, 3, (2,), "cosine")
    eq_dims(ctx, cos[1], rotary // 2, "cosine shape", 3, 1, "rotary_embedding_dim / 2")
    same_shape_as(ctx, 3, 4)
    flat = ctx.canon(mul(heads, width))
    if ctx.attr("flatten_batch", 0):
        ctx.set_output(0, (1, ctx.canon(mul(batch, seq)), flat))
    else:
        ctx.set_output(0, (batch, seq, flat))
    ctx.set_output(1, (batch, seq, heads, width))
