"""com.microsoft fused ops from onnxruntime's transformer optimizer: activations and norms.

Shared helpers for the contrib families live here too (`contrib_attention`, `contrib_misc`).
The contract of every op is onnxruntime's ContribOperators.md plus the checks its CPU kernels
make: what a kernel rejects is a fact (``ctx.eq``); nothing more is assumed silently.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim, exact_div, floordiv
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import ONNX, lookup, register

MS = "com.microsoft"
DOC = "https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md"
FIX_CONTRACT = "check the model against the op's contract (onnxruntime's ContribOperators.md)"


def shape_of_rank(ctx: OpContext, i: int, ranks: Sequence[int], name: str) -> tuple[Dim, ...]:
    """Input ``i``'s dims; ModelError when its rank is not one of ``ranks``."""
    dims = ctx.shape(i)
    if len(dims) not in ranks:  # not require_rank: `allowed` is only worth building for the error
        allowed = " or ".join(str(r) for r in ranks)
        raise ctx.invalid(
            f"input #{i} '{name}' (value '{ctx.op.inputs[i]}') has rank {len(dims)}", f"rank {allowed}", FIX_CONTRACT
        )
    return dims


def required_int(ctx: OpContext, name: str) -> int:
    """A required positive integer attribute (``num_heads``, ``K``, ...)."""
    value = ctx.attr(name)
    if not isinstance(value, int) or value <= 0:
        found = (
            f"the attribute '{name}' is required but missing" if value is None else f"attribute '{name}' is {value!r}"
        )
        raise ctx.invalid(found, "a positive integer", FIX_CONTRACT)
    return value


def div_exact(ctx: OpContext, total: Dim, parts: int, what: str) -> Dim:
    """``total / parts`` where the op needs ``parts | total``: recorded as a fact."""
    total = ctx.canon(total)
    quotient = exact_div(total, parts)
    if quotient is not None:
        return quotient
    ctx.assume_divisible(total, parts, f"{what} divisible by {parts}")
    return ctx.canon(floordiv(total, parts))


def eq_dims(ctx: OpContext, got: Dim, want: Dim, rule: str, i: int, axis: int, what: str) -> None:
    """Fact: dim ``axis`` of input ``i`` equals ``want`` (described as ``what``)."""
    ctx.eq(got, want, rule, (ctx.dim_name(i, axis), what))


def eq_shape(ctx: OpContext, i: int, want: Sequence[Dim], rule: str, name: str, of: str) -> None:
    """Fact: input ``i`` (``name``) has the shape ``want`` (the shape of ``of``), dim by dim."""
    got = ctx.shape(i)
    ctx.require_rank(got, len(want), name, f"{len(want)}, the rank of {of}", FIX_CONTRACT)
    for axis, (g, w) in enumerate(zip(got, want, strict=True)):
        eq_dims(ctx, g, w, rule, i, axis, f"dim {axis} of {of}")


def eq_vector(ctx: OpContext, i: int, want: Dim, rule: str, what: str) -> None:
    """Fact: optional 1-D input ``i`` (a bias, gamma, beta) has length ``want``."""
    if not ctx.has_input(i):
        return
    dims = shape_of_rank(ctx, i, (1,), ctx.op.inputs[i])
    eq_dims(ctx, dims[0], want, rule, i, 0, what)


def same_shape_as(ctx: OpContext, i: int, j: int, rule: str = "same shape") -> tuple[Dim, ...]:
    """Fact: input ``j`` has input ``i``'s shape; returns it."""
    dims = ctx.shape(i)
    eq_shape(ctx, j, dims, rule, ctx.op.inputs[j], f"'{ctx.op.inputs[i]}'")
    return dims


def not_scalar(ctx: OpContext, i: int, name: str, found: str | None = None) -> tuple[Dim, ...]:
    """Input ``i``'s dims; ModelError when it is a scalar (``found`` names it there, default ``name``)."""
    dims = ctx.shape(i)
    if not dims:
        raise ctx.invalid(f"{found or name} is a scalar", f"{name} of rank >= 1", FIX_CONTRACT)
    return dims


def contracted_input(ctx: OpContext, k: Dim, what: str) -> tuple[Dim, ...]:
    """Input 0, ``A (..., K)`` of rank >= 1, with its last dim ``K`` (a fact)."""
    a = not_scalar(ctx, 0, "A", "input A")
    eq_dims(ctx, a[-1], k, "contraction", 0, len(a) - 1, what)
    return a


def reuse(ctx: OpContext, domain: str, op_type: str) -> None:
    """Run the registered rule of ``domain``'s ``op_type`` on this op (the same inputs and
    attributes mean the same contract)."""
    rule = lookup(domain, op_type)
    if rule is None:
        raise GiveUp(f"no {domain or 'ai.onnx'} {op_type} rule is available")
    rule(ctx)


# ----------------------------------------------------------------------- activations
@register(MS, "Gelu", "QuickGelu")
def gelu(ctx: OpContext) -> None:
    """Elementwise: the output has the input's shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Gelu
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QuickGelu
    """
    ctx.set_output(0, ctx.shape(0))


@register(MS, "BiasGelu", "FastGelu")
def bias_gelu(ctx: OpContext) -> None:
    """``Gelu(X + bias)``: the output has X's shape; the kernels require a 1-D bias as long as
    X's last dim (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BiasGelu
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.FastGelu
    """
    x = ctx.shape(0)
    if x:
        eq_vector(ctx, 1, x[-1], "bias length", "the last dim of input 0")
    ctx.set_output(0, x)


@register(MS, "BiasAdd")
def bias_add(ctx: OpContext) -> None:
    """``X + bias + skip`` for X ``(N, S, C)``, bias ``(C)``, skip ``(N, S, C)``: all facts.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BiasAdd
    """
    x = shape_of_rank(ctx, 0, (3,), "X")
    eq_vector(ctx, 1, x[2], "bias length", "the channels of X")
    skip = shape_of_rank(ctx, 2, (3,), "skip")
    for axis in range(3):
        eq_dims(ctx, skip[axis], x[axis], "skip shape", 2, axis, f"dim {axis} of X")
    ctx.set_output(0, x)


@register(MS, "BiasSplitGelu")
def bias_split_gelu(ctx: OpContext) -> None:
    """``(X + bias)`` split in two halves on the last dim, ``left * Gelu(right)``: X ``(N, S, D)``
    gives ``(N, S, D/2)``; an even ``D`` and a bias of length ``D`` are facts.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BiasSplitGelu
    """
    x = shape_of_rank(ctx, 0, (3,), "X")
    eq_vector(ctx, 1, x[2], "bias length", "the hidden dim of X")
    ctx.set_output(0, (x[0], x[1], div_exact(ctx, x[2], 2, "the hidden dim")))


@register(MS, "BiasDropout")
def bias_dropout(ctx: OpContext) -> None:
    """``Dropout(data + bias) + residual``: output and mask have data's shape; the bias is data's
    last dim or data's shape, the residual has data's shape (facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BiasDropout
    """
    data = ctx.shape(0)
    bias = ctx.shape(1)
    if len(bias) == 1 and data:
        eq_dims(ctx, bias[0], data[-1], "bias shape", 1, 0, "the last dim of data")
    elif len(bias) == len(data):
        for axis, (b, d) in enumerate(zip(bias, data, strict=True)):
            eq_dims(ctx, b, d, "bias shape", 1, axis, f"dim {axis} of data")
    if ctx.has_input(2):
        eq_shape(ctx, 2, data, "residual shape", "the residual", "data")
    ctx.set_output(0, data)
    ctx.set_output(1, data)


# ------------------------------------------------------------------------------ norms
def _skip_norm(ctx: OpContext, vectors: Sequence[int]) -> None:
    """Shared by the two skip norms: ``vectors`` are the inputs of length hidden_size."""
    x = shape_of_rank(ctx, 0, (2, 3), "input")
    hidden = x[-1]
    skip = shape_of_rank(ctx, 1, (2, 3), "skip")
    eq_dims(ctx, skip[-1], hidden, "skip shape", 1, len(skip) - 1, "hidden_size")
    if len(skip) >= 2 and len(x) == 3:  # skip is (B, S, H), (1, S, H) or (S, H)
        eq_dims(ctx, skip[-2], x[1], "skip shape", 1, len(skip) - 2, "sequence_length")
        if len(skip) == 3 and ctx.facts.prove_ge(ctx.canon(skip[0]), 2):
            eq_dims(ctx, skip[0], x[0], "skip shape", 1, 0, "batch_size")
    elif len(skip) == 2 and len(x) == 2:
        eq_dims(ctx, skip[0], x[0], "skip shape", 1, 0, "token_count")
    for i in vectors:
        eq_vector(ctx, i, hidden, "hidden_size", "hidden_size")
    stat = (*x[:-1], 1)
    ctx.set_output(0, x)
    ctx.set_output(1, stat)
    ctx.set_output(2, stat)
    ctx.set_output(3, x)


@register(MS, "SkipLayerNormalization")
def skip_layer_norm(ctx: OpContext) -> None:
    """LayerNorm(input + skip + bias): outputs ``(output, mean, inv_std_var,
    input_skip_bias_sum)`` with shapes ``x``, ``x[:-1] + (1,)`` twice, and ``x``. The input is
    ``(B, S, H)`` or ``(T, H)``; skip is ``(B, S, H)``, ``(1, S, H)`` or ``(S, H)``; gamma,
    beta and bias have length ``H`` (facts; skip's batch is equated only when it cannot be 1).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SkipLayerNormalization
    """
    _skip_norm(ctx, (2, 3, 4))


@register(MS, "SkipSimplifiedLayerNormalization")
def skip_simplified_layer_norm(ctx: OpContext) -> None:
    """RMS norm of ``input + skip + bias``; the same shapes as SkipLayerNormalization (inputs
    ``input, skip, gamma, bias``).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SkipSimplifiedLayerNormalization
    """
    _skip_norm(ctx, (2, 3))


@register(MS, "LayerNormalization", "SimplifiedLayerNormalization")
def contrib_layer_norm(ctx: OpContext) -> None:
    """The same contract as onnxruntime's ai.onnx-domain kernels of the same name (outputs: Y,
    then the statistics of shape ``x[:axis] + (1,) * (rank - axis)``): uses that rule.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md (registered by
    onnxruntime in the default domain; some exporters write them under com.microsoft)
    """
    reuse(ctx, ONNX, ctx.op.op_type)


def embedding_width(ctx: OpContext) -> Dim:
    """The width ``H`` of word_embedding (input 2, ``(vocab, H)``): the position and segment
    tables (inputs 3, 4) are ``(*, H)``, gamma and beta (inputs 5, 6) ``(H)`` (facts)."""
    hidden = shape_of_rank(ctx, 2, (2,), "word_embedding")[1]
    for i, name in ((3, "position_embedding"), (4, "segment_embedding")):
        if ctx.has_input(i):
            eq_dims(ctx, shape_of_rank(ctx, i, (2,), name)[1], hidden, "hidden_size", i, 1, "hidden_size")
    for i in (5, 6):
        eq_vector(ctx, i, hidden, "hidden_size", "hidden_size")
    return hidden


@register(MS, "EmbedLayerNormalization")
def embed_layer_norm(ctx: OpContext) -> None:
    """Embedding lookups summed and normalized: ``input_ids (B, S)`` gives ``output (B, S, H)``,
    ``mask_index (B)`` and ``embedding_sum (B, S, H)``, with ``H`` the embeddings' width.

    Facts: segment_ids and mask have input_ids' shape, every embedding table, gamma and beta
    have width ``H``, position_ids are ``(B, S)`` or ``(1, S)``.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.EmbedLayerNormalization
    """
    ids = shape_of_rank(ctx, 0, (2,), "input_ids")
    batch, seq = ids
    for i, name in ((1, "segment_ids"), (7, "mask")):
        if ctx.has_input(i):
            dims = shape_of_rank(ctx, i, (2,), name)
            eq_dims(ctx, dims[0], batch, f"{name} shape", i, 0, "batch_size")
            eq_dims(ctx, dims[1], seq, f"{name} shape", i, 1, "sequence_length")
    hidden = embedding_width(ctx)
    if ctx.has_input(8):
        pos = shape_of_rank(ctx, 8, (2,), "position_ids")
        eq_dims(ctx, pos[1], seq, "position_ids shape", 8, 1, "sequence_length")
    ctx.set_output(0, (batch, seq, hidden))
    ctx.set_output(1, (batch,))
    ctx.set_output(2, (batch, seq, hidden))
