"""com.microsoft ops of onnxruntime 1.32 that fit no family: elementwise (Inverse, MurmurHash3,
SampleOp, IsAllFinite, ComplexMul, the bitmask dropouts), contractions (CDist, FusedGemm,
SparseToDenseMatMul, TransposeMatMul, FusedMatMulActivation), GroupNorm, SkipGroupNorm,
embeddings (TorchEmbedding, WordConvEmbedding), NGramRepeatBlock, and the contrib Trilu and
GatherND. Ops whose sizes come from values or data are in `misc_ops_sizes`.

Where an op repeats an ai.onnx (or another contrib) op's contract, the rule is reused through
the registry. What the kernels (and the schemas' inference) reject is a fact.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, ceildiv, mul, product
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    eq_dims,
    eq_vector,
    required_int,
    reuse,
    shape_of_rank,
)
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import broadcast_shapes
from symshape.rules.shared.fit import require_ge

BITMASK_BITS = 32  # the dropout masks pack one bit per element into uint32 words


# --------------------------------------------------------------------------- elementwise
@register(MS, "MurmurHash3", "SampleOp")
def same_shape(ctx: OpContext) -> None:
    """The output has the input's shape (one hash per element; SampleOp echoes its input).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MurmurHash3
    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/graph/contrib_ops/contrib_defs.cc (SampleOp)
    """
    ctx.set_output(0, ctx.shape(0))


@register(MS, "Inverse")
def inverse(ctx: OpContext) -> None:
    """Square matrices ``(*, M, M)`` (rank >= 2 and the last two dims equal: facts) keep their shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Inverse
    """
    x = ctx.shape(0)
    if len(x) < 2:
        raise ctx.invalid(f"the input has rank {len(x)}", "rank >= 2: square matrices (*, M, M)", FIX_CONTRACT)
    eq_dims(ctx, x[-1], x[-2], "square", 0, len(x) - 1, f"dim {len(x) - 2} of the input")
    ctx.set_output(0, x)


@register(MS, "IsAllFinite")
def is_all_finite(ctx: OpContext) -> None:
    """One boolean scalar for all the inputs; ``isinf_only`` and ``isnan_only`` exclude each
    other (the schema's inference fails otherwise).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.IsAllFinite
    """
    if ctx.attr("isinf_only", 0) and ctx.attr("isnan_only", 0):
        raise ctx.invalid("both isinf_only and isnan_only are set", "at most one of them", FIX_CONTRACT)
    ctx.set_output(0, ())


@register(MS, "ComplexMul", "ComplexMulConj")
def complex_mul(ctx: OpContext) -> None:
    """Complex products of ``(..., 2)`` (real, imaginary) tensors with numpy broadcasting; each
    input's last dim is 2 (the CUDA kernel's check: a fact).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cuda/math/complex_mul.cc
    """
    shapes = [ctx.shape(i) for i in range(2)]
    for i, dims in enumerate(shapes):
        if not dims:
            raise ctx.invalid(f"input #{i} is a scalar", "a (..., 2) tensor of complex numbers", FIX_CONTRACT)
        eq_dims(ctx, dims[-1], 2, "complex pairs", i, len(dims) - 1, "2 (real and imaginary parts)")
    ctx.set_output(0, broadcast_shapes(ctx, shapes))


@register(MS, "BitmaskDropout")
def bitmask_dropout(ctx: OpContext) -> None:
    """Dropout whose mask packs one bit per element: the output has data's shape, the mask is
    ``ceil(numel(data) / 32)`` uint32 words (the CUDA kernel's ``mask_element_count``).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BitmaskDropout
    """
    data = ctx.shape(0)
    ctx.set_output(0, data)
    ctx.set_output(1, (ctx.canon(ceildiv(product(data), BITMASK_BITS)),))


@register(MS, "BitmaskBiasDropout")
def bitmask_bias_dropout(ctx: OpContext) -> None:
    """BiasDropout's contract (bias and residual facts, the output has data's shape) with the
    mask packed as in BitmaskDropout: ``ceil(numel(data) / 32)`` uint32 words.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BitmaskBiasDropout
    """
    reuse(ctx, MS, "BiasDropout")
    ctx.set_output(1, (ctx.canon(ceildiv(product(ctx.shape(0)), BITMASK_BITS)),))


# -------------------------------------------------------------------------- contractions
@register(MS, "CDist")
def cdist(ctx: OpContext) -> None:
    """Pairwise distances of the rows of A ``(M, N)`` and B ``(K, N)``: ``(M, K)``. The kernel
    requires 2-D inputs with the same positive row width ``N`` (facts).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/cdist.h
    """
    a = shape_of_rank(ctx, 0, (2,), "A")
    b = shape_of_rank(ctx, 1, (2,), "B")
    require_ge(ctx, a[1], 1, "CDist row width >= 1", "the row width of A")
    eq_dims(ctx, b[1], a[1], "row width", 1, 1, "the row width of A")
    ctx.set_output(0, (a[0], b[0]))


@register(MS, "FusedGemm", "SparseToDenseMatMul")
def gemm_like(ctx: OpContext) -> None:
    """Gemm's contract (2-D operands, ``transA``/``transB``, C broadcast to ``(M, N)``): the ai.onnx
    Gemm rule. SparseToDenseMatMul's sparse A has no C; its kernel also needs 2-D operands.
    FusedGemm's CPU kernel refuses a node without an ``activation``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.FusedGemm
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SparseToDenseMatMul
    """
    if ctx.op.op_type == "FusedGemm" and not ctx.attr("activation"):
        raise ctx.invalid("FusedGemm without an 'activation' attribute", "an activation (Relu, Tanh, ...)",
                          FIX_CONTRACT)
    reuse(ctx, ONNX, "Gemm")


@register(MS, "TransposeMatMul", "FusedMatMulActivation")
def fused_matmul_like(ctx: OpContext) -> None:
    """FusedMatMul's contract (numpy matmul after the ``trans*`` attributes; the activation does
    not change the shape): the FusedMatMul rule.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.TransposeMatMul
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.FusedMatMulActivation
    """
    reuse(ctx, MS, "FusedMatMul")


# ---------------------------------------------------------------------------- group norms
def _group_norm(ctx: OpContext) -> tuple[tuple[Dim, ...], int]:
    """X ``(N, H, W, C)`` (``channels_last``, the default) or ``(N, C, H, W)``: ``C`` divisible
    by ``groups``, gamma and beta of length ``C`` (the CUDA kernel's checks); the channel axis."""
    x = shape_of_rank(ctx, 0, (4,), "X")
    groups = required_int(ctx, "groups")
    activation = ctx.attr("activation")
    if activation not in (0, 1):
        raise ctx.invalid(f"attribute 'activation' is {activation!r}", "0 (none) or 1 (SiLU)", FIX_CONTRACT)
    axis = 3 if ctx.attr("channels_last", 1) else 1
    div_exact(ctx, x[axis], groups, "the channel count")
    for i in (1, 2):
        if not ctx.has_input(i):
            raise ctx.invalid(f"the required input #{i} is missing", "gamma and beta of length C", FIX_CONTRACT)
        eq_vector(ctx, i, x[axis], "channels", "the channel count of X")
    return x, axis


@register(MS, "GroupNorm")
def group_norm(ctx: OpContext) -> None:
    """Group normalization (then an optional SiLU): the output has X's shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GroupNorm
    """
    x, _ = _group_norm(ctx)
    ctx.set_output(0, x)


@register(MS, "SkipGroupNorm")
def skip_group_norm(ctx: OpContext) -> None:
    """GroupNorm of ``X + skip + bias``: Y and the sum S have X's shape. skip is X's shape,
    ``(N, 1, 1, C)`` or ``(N, C)``; bias has length ``C`` (the CUDA kernel's checks: facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SkipGroupNorm
    """
    x, axis = _group_norm(ctx)
    skip = shape_of_rank(ctx, 3, (2, 4), "skip")
    eq_dims(ctx, skip[0], x[0], "skip shape", 3, 0, "the batch of X")
    if len(skip) == 2:
        eq_dims(ctx, skip[1], x[axis], "skip shape", 3, 1, "the channel count of X")
    else:
        eq_dims(ctx, skip[axis], x[axis], "skip shape", 3, axis, "the channel count of X")
        spatial = [a for a in (1, 2, 3) if a != axis]
        if any(_not_one(ctx, skip[a]) for a in spatial):
            for a in spatial:  # not (N, 1, 1, C): then X's shape
                eq_dims(ctx, skip[a], x[a], "skip shape", 3, a, f"dim {a} of X")
        elif not all(ctx.prove_eq(skip[a], 1) is True for a in spatial):
            ctx.imprecise()  # broadcast or not is undecided: no fact yet
    eq_vector(ctx, 4, x[axis], "channels", "the channel count of X")
    ctx.set_output(0, x)
    ctx.set_output(1, x)


def _not_one(ctx: OpContext, d: Dim) -> bool:
    return (isinstance(d, int) and d != 1) or ctx.prove_ge(d, 2)


# ----------------------------------------------------------------------------- embeddings
@register(MS, "TorchEmbedding")
def torch_embedding(ctx: OpContext) -> None:
    """Rows of weight ``(N, M)`` picked by indices of any shape: ``indices.shape + (M,)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.TorchEmbedding
    """
    weight = shape_of_rank(ctx, 0, (2,), "weight")
    ctx.set_output(0, (*ctx.shape(1), weight[1]))


@register(MS, "WordConvEmbedding")
def word_conv_embedding(ctx: OpContext) -> None:
    """One embedding per word: Sequence ``(S, L, ...)`` of char ids, W ``(M, 1, k, E)``, char
    table C ``(V, E)`` give ``(S, M)``. Facts (the CPU kernel's checks): ``C[1] == W[3]``, the
    attributes ``embedding_size``/``conv_window_size``/``char_embedding_size`` match ``M``/``k``/
    ``E`` when set, and the word length ``L`` holds a window (``L >= k``).

    https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/word_conv_embedding.cc
    """
    seq = ctx.shape(0)
    if len(seq) < 2:
        raise ctx.invalid(f"Sequence has rank {len(seq)}", "rank >= 2 (words, word length)", FIX_CONTRACT)
    w = shape_of_rank(ctx, 1, (4,), "W")
    table = shape_of_rank(ctx, 3, (2,), "C")
    for name, d, i, axis in (("embedding_size", w[0], 1, 0), ("conv_window_size", w[2], 1, 2),
                             ("char_embedding_size", table[1], 3, 1)):
        value = ctx.attr(name, -1)
        if value != -1:
            eq_dims(ctx, d, value, name, i, axis, f"the attribute {name}")
    eq_dims(ctx, table[1], w[3], "char embedding size", 3, 1, "dim 3 of W")
    require_ge(ctx, add(seq[1], mul(w[2], -1)), 0, "word length >= conv window", "word length - window width")
    ctx.set_output(0, (seq[0], w[0]))


@register(MS, "NGramRepeatBlock")
def ngram_repeat_block(ctx: OpContext) -> None:
    """Scores ``(B, V)`` with repeated n-grams masked keep their shape; input_ids is ``(B, S)``
    (the kernel's checks: facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.NGramRepeatBlock
    """
    required_int(ctx, "ngram_size")
    ids = shape_of_rank(ctx, 0, (2,), "input_ids")
    scores = shape_of_rank(ctx, 1, (2,), "scores")
    eq_dims(ctx, scores[0], ids[0], "batch", 1, 0, "the batch of input_ids")
    ctx.set_output(0, scores)


# ------------------------------------------------------------------- ai.onnx counterparts
@register(MS, "Trilu")
def contrib_trilu(ctx: OpContext) -> None:
    """The ai.onnx Trilu's contract (the output has X's shape) for X of rank >= 2 (the schema's
    inference rejects less).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Trilu
    """
    x = ctx.shape(0)
    if len(x) < 2:
        raise ctx.invalid(f"the input has rank {len(x)}", "rank >= 2 (matrices)", FIX_CONTRACT)
    reuse(ctx, ONNX, "Trilu")


@register(MS, "GatherND")
def contrib_gather_nd(ctx: OpContext) -> None:
    """The ai.onnx GatherND without batch dims: ``indices.shape[:-1] + data.shape[k:]`` with
    ``k = indices.shape[-1] <= rank(data)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherND
    """
    if ctx.attr("batch_dims", 0):
        raise ctx.invalid("attribute 'batch_dims' is set", "no batch dims (the ai.onnx GatherND has them)",
                          FIX_CONTRACT)
    reuse(ctx, ONNX, "GatherND")
