"""com.microsoft matmuls with quantized weights: MatMulBnb4, MatMulFpQ4, MatMulBlockQuantizedFp4Weight,
MatMulBlockQuantizedFp8Weight, the fused MatMulNBits family (MatMulNBitsMlp, MatMulNBitsQkv,
MatMulNBitsQLoRA), GemmFloat8, the cublasLt-ordered int8 ops (QOrderedMatMul, QOrderedGelu,
QOrderedLayerNormalization) and DynamicQuantizeLSTM.

A quantized weight is a constant blob whose logical ``(N, K)`` comes from attributes (MatMulNBits
style), from the blob's own shape (the FP4/FP8 ops) or from a shape input (MatMulFpQ4). The
activation ``A (..., K)`` gives ``(..., N)`` as onnxruntime's ``MatMulComputeHelper`` computes it
against a 2-D right operand. What the kernels (``matmul_bnb4.cc``, ``matmul_fpq4.cc``,
``matmul_block_scaled_fp4.cc``/``_fp8.cc``, ``gemm_float8.cu``, ``qordered_matmul.cc``,
``qordered_layer_norm.cc``, ``dynamic_quantize_lstm.cc``, the WebGPU ``matmul_nbits_mlp.cc`` and
``matmul_nbits_qkv.cc``) reject is a fact. Limits of one implementation (the WebGPU kernels' 4-bit,
block-32 fast paths, cublasLt's tile multiples) are not the op's contract and are not recorded.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, ceildiv, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    contracted_input,
    eq_dims,
    eq_shape,
    eq_vector,
    not_scalar,
    required_int,
    shape_of_rank,
)
from symshape.rules.onnx_contrib.recurrent_state import int_attr, str_attr
from symshape.rules.registry import register

# MatMulFpQ4's blk_quant_type -> (block length along K, bytes per block), as MLAS packs a column:
# BlkQ4Sym (0): a float scale and 16 bytes of nibbles; BlkQ4Zp8 (any other value): also a zero point.
FPQ4_BLOCKS = {0: (32, 20), 1: (32, 21)}


def _numel_is(ctx: OpContext, i: int, want: Dim, what: str) -> None:
    """Fact: input ``i`` holds ``want`` elements (a vector the kernel checks by ``Size()``)."""
    if ctx.has_input(i):
        ctx.eq(ctx.numel(i), want, f"{ctx.op.inputs[i]} size", (f"the size of '{ctx.op.inputs[i]}'", what))


@register(MS, "MatMulBnb4")
def matmul_bnb4(ctx: OpContext) -> None:
    """``A @ dequantize(B)^T`` with B the FP4/NF4 ``(N, K)`` weight (``transB=1``, the default):
    ``A (..., K)`` gives ``(..., N)``; with ``transB=0`` ``A (..., N)`` gives ``(..., K)``. The
    contraction is a fact; ``quant_type`` is 0 (FP4) or 1 (NF4).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulBnb4
    """
    k, n = required_int(ctx, "K"), required_int(ctx, "N")
    required_int(ctx, "block_size")
    if ctx.attr("quant_type") not in (0, 1):
        raise ctx.invalid(f"attribute 'quant_type' is {ctx.attr('quant_type')!r}", "0 (FP4) or 1 (NF4)", FIX_CONTRACT)
    trans_b = bool(ctx.attr("transB", 1))
    inner, outer = (k, n) if trans_b else (n, k)
    a = contracted_input(ctx, inner, "the attribute K" if trans_b else "the attribute N (transB=0)")
    ctx.set_output(0, (*a[:-1], outer))


@register(MS, "MatMulFpQ4")
def matmul_fpq4(ctx: OpContext) -> None:
    """``A @ B`` with B a ``(K, N)`` matrix packed into a 1-D int4 blob, ``(K, N)`` the values of
    input ``B_shape``: ``A (..., K)`` gives ``(..., N)``. Facts: the contraction, and the blob's
    length ``N * ceil(K/32) * bytes`` (20 bytes a block for ``blk_quant_type=0``, 21 otherwise).
    Untracked ``B_shape`` values make ``N`` a data symbol.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulFpQ4
    """
    blob = shape_of_rank(ctx, 1, (1,), "B")
    spec = shape_of_rank(ctx, 2, (1,), "B_shape")
    eq_dims(ctx, spec[0], 2, "B_shape length", 2, 0, "2 (B is a 2-D matrix)")
    els = ctx.elements(2)
    a = not_scalar(ctx, 0, "A", "input A")
    if els is not None and len(els) == 2:
        k, n = els
        eq_dims(ctx, a[-1], k, "contraction", 0, len(a) - 1, "B_shape[0]")
    else:
        k = a[-1]
        n = data_symbol(ctx, ("MatMulFpQ4.N", ctx.input_name(2)), "MatMulFpQ4 output width (B_shape[1])")
    block, size = FPQ4_BLOCKS[0 if int(ctx.attr("blk_quant_type", 1)) == 0 else 1]
    eq_dims(ctx, blob[0], mul(mul(n, ceildiv(k, block)), size), "packed blob size", 1, 0,
            f"N * ceil(K/{block}) * {size} bytes")
    ctx.set_output(0, (*a[:-1], n))


def _block_scaled(ctx: OpContext, n: Dim, k: Dim, scale: int, bias: int, default_block: int) -> None:
    """The FP4/FP8 weight-only matmuls: per-block scales ``(N, ceil(K/block_size))`` and an
    optional bias ``(N)`` (facts); the output is ``A (..., K)`` with ``K`` replaced by ``N``."""
    block = int_attr(ctx, "block_size", default_block, 1)
    a = contracted_input(ctx, k, "K of the weight")
    eq_shape(ctx, scale, (n, ceildiv(k, block)), "block scales", ctx.op.inputs[scale], "(N, ceil(K/block_size))")
    eq_vector(ctx, bias, n, "bias length", "N (dim 0 of B)")
    ctx.set_output(0, (*a[:-1], n))


@register(MS, "MatMulBlockQuantizedFp4Weight")
def matmul_block_fp4(ctx: OpContext) -> None:
    """Weight-only NVFP4: B ``(N, K/2)`` packs two values a byte, so ``K = 2 * B.shape[1]``;
    ``A (..., K)`` gives ``(..., N)``. ``weight_scale (N, ceil(K/block_size))``, the scalar
    ``weight_scale_2`` and ``input_scale``, and the bias ``(N)`` are facts.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulBlockQuantizedFp4Weight
    """
    n, half_k = shape_of_rank(ctx, 1, (2,), "B")
    _numel_is(ctx, 3, 1, "1 (weight_scale_2 is a scalar)")
    _numel_is(ctx, 4, 1, "1 (input_scale is a scalar)")
    _block_scaled(ctx, n, mul(half_k, 2), 2, 5, 16)


@register(MS, "MatMulBlockQuantizedFp8Weight")
def matmul_block_fp8(ctx: OpContext) -> None:
    """Block-scaled FP8 weight B ``(N, K)``: ``A (..., K)`` gives ``(..., N)``; ``b_scale
    (N, ceil(K/block_size))``, the scalar ``a_scale`` and the bias ``(N)`` are facts.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulBlockQuantizedFp8Weight
    """
    n, k = shape_of_rank(ctx, 1, (2,), "B")
    _numel_is(ctx, 3, 1, "1 (a_scale is a scalar)")
    _block_scaled(ctx, n, k, 2, 4, 128)


def _nbits_norm(ctx: OpContext, a: tuple[Dim, ...], k: Dim, sum_output: int, *, norm_required: bool) -> None:
    """The fused (Skip)SimplifiedLayerNormalization of the MatMulNBits fusions: ``norm_scale``
    holds ``K`` values, a skip needs it; the residual-sum output has A's shape (skip only)."""
    if ctx.has_input(1) and not ctx.has_input(2):
        raise ctx.invalid("a skip input without norm_scale", "norm_scale whenever skip is given", FIX_CONTRACT)
    if norm_required and not ctx.has_input(2):
        raise ctx.invalid("the required input norm_scale is missing", "norm_scale of K values", FIX_CONTRACT)
    _numel_is(ctx, 2, k, "the attribute K")
    if ctx.has_input(1):
        ctx.set_output(sum_output, a)


@register(MS, "MatMulNBitsMlp")
def matmul_nbits_mlp(ctx: OpContext) -> None:
    """``act(A' @ gate) * (A' @ up)`` with two ``K x N`` MatMulNBits weights, ``A'`` the input
    or its fused (Skip)SimplifiedLayerNormalization: ``A (..., K)`` gives ``Y (..., N)``, and
    ``input_skip_bias_sum`` has A's shape. Facts: ``A``'s last dim is ``K``, ``norm_scale`` holds
    ``K`` values (and is present with a skip), the biases have length ``N``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulNBitsMlp
    """
    k, n = required_int(ctx, "K"), required_int(ctx, "N")
    a = contracted_input(ctx, k, "the attribute K")
    for i in (5, 8):
        eq_vector(ctx, i, n, "bias length", "the attribute N")
    ctx.set_output(0, (*a[:-1], n))
    _nbits_norm(ctx, a, k, 1, norm_required=False)


@register(MS, "MatMulNBitsQkv")
def matmul_nbits_qkv(ctx: OpContext) -> None:
    """Three MatMulNBits projections of the (Skip)SimplifiedLayerNormalization of ``A (..., K)``:
    ``Q (..., Nq)``, ``K (..., Nkv)``, ``V (..., Nkv)``, and ``input_skip_bias_sum`` with A's
    shape. Facts: ``A``'s last dim is ``K``, ``norm_scale`` holds ``K`` values, the biases have
    lengths ``Nq``, ``Nkv``, ``Nkv``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulNBitsQkv
    """
    k = required_int(ctx, "K")
    nq, nkv = required_int(ctx, "Nq"), required_int(ctx, "Nkv")
    a = contracted_input(ctx, k, "the attribute K")
    for i, width, what in ((5, nq, "Nq"), (8, nkv, "Nkv"), (11, nkv, "Nkv")):
        eq_vector(ctx, i, width, "bias length", f"the attribute {what}")
    for out, width in ((0, nq), (1, nkv), (2, nkv)):
        ctx.set_output(out, (*a[:-1], width))
    _nbits_norm(ctx, a, k, 3, norm_required=True)


@register(MS, "MatMulNBitsQLoRA")
def matmul_nbits_qlora(ctx: OpContext) -> None:
    """``MatMulNBits(X, W) + MatMulNBits(MatMulNBits(X, lora_A), lora_B)``: ``X (..., K)`` gives
    ``(..., N)``. Facts: X's last dim is ``K``; a 3-D base weight W is ``(N, ceil(K/block_size),
    block_size*bits/8)`` (the schema's packing).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulNBitsQLoRA
    """
    k, n = required_int(ctx, "K"), required_int(ctx, "N")
    bits = int_attr(ctx, "bits", 4, 1)
    block = int_attr(ctx, "block_size", 32, 1)
    x = contracted_input(ctx, k, "the attribute K")
    w = ctx.shape(1)
    if len(w) == 3:
        eq_shape(ctx, 1, (n, ceildiv(k, block), block * bits // 8), "packed weight", "W",
                 "(N, ceil(K/block_size), block_size*bits/8)")
    ctx.set_output(0, (*x[:-1], n))


@register(MS, "GemmFloat8")
def gemm_float8(ctx: OpContext) -> None:
    """``alpha * A' @ B' + beta * C`` on 2-D operands (the CUDA kernel enforces rank 2):
    ``(M, N)`` after ``transA``/``transB``. The contraction is a fact, and a C input is the
    ``(M, N)`` matrix cuBLAS reads.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GemmFloat8
    """
    a = shape_of_rank(ctx, 0, (2,), "A")
    b = shape_of_rank(ctx, 1, (2,), "B")
    ta, tb = bool(ctx.attr("transA", 0)), bool(ctx.attr("transB", 0))
    m, k = (a[1], a[0]) if ta else (a[0], a[1])
    eq_dims(ctx, b[1] if tb else b[0], k, "contraction", 1, 1 if tb else 0, ctx.dim_name(0, 0 if ta else 1))
    n = b[0] if tb else b[1]
    if ctx.has_input(2):
        eq_shape(ctx, 2, (m, n), "C shape", "C", "the output (M, N)")
    ctx.set_output(0, (m, n))


def _ordered(ctx: OpContext, i: int, name: str) -> tuple[Dim, Dim, Dim | None]:
    """A 2-D or 3-D cublasLt-ordered matrix: ``(rows, cols, batch)`` (batch None for 2-D)."""
    dims = shape_of_rank(ctx, i, (2, 3), name)
    return dims[-2], dims[-1], dims[0] if len(dims) == 3 else None


def _batch_fact(ctx: OpContext, i: int, batch: Dim | None, batch_a: Dim | None, what: str) -> None:
    """``batch == batch_A or batch == 1`` (qordered_matmul.cc): an equality once a side decides."""
    if batch is None:
        return
    if batch_a is None:
        eq_dims(ctx, batch, 1, f"{what} batch", i, 0, "1 (A has no batch)")
    elif ctx.facts.prove_ge(ctx.canon(batch), 2):
        eq_dims(ctx, batch, batch_a, f"{what} batch", i, 0, "dim 0 of A")


@register(MS, "QOrderedMatMul")
def qordered_matmul(ctx: OpContext) -> None:
    """Int8 ``A @ B (+ bias + C)`` on 2-D or 3-D operands: ``B``'s logical shape is ``(K, N)``
    (rows, cols) whatever its storage order, and ``Y`` is A's shape with the last dim ``N``.
    Facts (qordered_matmul.cc): ``A``'s cols equal ``B``'s rows; B's batch is A's or 1; a bias
    has ``N`` values; C is ``(rows_A, N)`` with batch A's or 1; a vector ``scale_B`` has ``N``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QOrderedMatMul
    """
    a = shape_of_rank(ctx, 0, (2, 3), "A")
    rows_a, cols_a, batch_a = _ordered(ctx, 0, "A")
    rows_b, cols_b, batch_b = _ordered(ctx, 2, "B")
    eq_dims(ctx, rows_b, cols_a, "contraction", 2, len(ctx.shape(2)) - 2, ctx.dim_name(0, len(a) - 1))
    _batch_fact(ctx, 2, batch_b, batch_a, "B")
    scale_b = ctx.shape_or_none(3)
    if scale_b is not None and len(scale_b) == 1:
        eq_vector(ctx, 3, cols_b, "scale_B length", "the columns of B")
    eq_vector(ctx, 5, cols_b, "bias length", "the columns of B")
    if ctx.has_input(6):
        rows_c, cols_c, batch_c = _ordered(ctx, 6, "C")
        c_rank = len(ctx.shape(6))
        eq_dims(ctx, rows_c, rows_a, "C shape", 6, c_rank - 2, "the rows of A")
        eq_dims(ctx, cols_c, cols_b, "C shape", 6, c_rank - 1, "the columns of B")
        _batch_fact(ctx, 6, batch_c, batch_a, "C")
    ctx.set_output(0, (*a[:-1], cols_b))


@register(MS, "QOrderedGelu")
def qordered_gelu(ctx: OpContext) -> None:
    """Elementwise int8 Gelu: Y has X's shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QOrderedGelu
    """
    ctx.set_output(0, ctx.shape(0))


@register(MS, "QOrderedLayerNormalization")
def qordered_layer_norm(ctx: OpContext) -> None:
    """Int8 LayerNorm over the last axis of ``X (batch, rows, cols)``: Y has X's shape. The CUDA
    kernel requires rank 3 and ``axis`` -1 or 2; a 1-D gamma or beta has ``cols`` values.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QOrderedLayerNormalization
    """
    x = shape_of_rank(ctx, 0, (3,), "X")
    if int(ctx.attr("axis", -1)) not in (-1, 2):
        raise ctx.invalid(f"attribute 'axis' is {ctx.attr('axis')!r}", "-1 or 2 (the innermost axis)", FIX_CONTRACT)
    for i in (2, 3):
        vector = ctx.shape_or_none(i)
        if vector is not None and len(vector) == 1:
            eq_vector(ctx, i, x[2], "normalized size", "the last dim of X")
    ctx.set_output(0, x)


def _lstm_quant_params(ctx: OpContext, i: int, dirs: int, gates: Dim) -> None:
    """A weight scale or zero point: ``(dirs)`` per tensor or ``(dirs, 4*hidden)`` per channel."""
    dims = shape_of_rank(ctx, i, (1, 2), ctx.op.inputs[i])
    eq_dims(ctx, dims[0], dirs, "quantization parameter shape", i, 0, "num_directions")
    if len(dims) == 2:
        eq_dims(ctx, dims[1], gates, "quantization parameter shape", i, 1, "4*hidden_size")


@register(MS, "DynamicQuantizeLSTM")
def dynamic_quantize_lstm(ctx: OpContext) -> None:
    """LSTM with int8 weights stored input-major: ``X (seq, batch, input)``, ``W (dirs, input,
    4*hidden)``, ``R (dirs, hidden, 4*hidden)`` give ``Y (seq, dirs, batch, hidden)`` and ``Y_h``,
    ``Y_c (dirs, batch, hidden)``. ``hidden_size`` is required; the weights, bias ``(dirs,
    8*hidden)``, sequence_lens ``(batch)``, initial states, peepholes ``(dirs, 3*hidden)`` and
    the scales and zero points are facts (dynamic_quantize_lstm.cc, lstm_base.cc).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.DynamicQuantizeLSTM
    """
    hidden = required_int(ctx, "hidden_size")
    dirs = 2 if str_attr(ctx, "direction", "forward", ("forward", "reverse", "bidirectional")) == "bidirectional" else 1
    seq, batch, width = shape_of_rank(ctx, 0, (3,), "X")
    gates = 4 * hidden
    eq_shape(ctx, 1, (dirs, width, gates), "weights", "W", "(dirs, input_size, 4*hidden)")
    eq_shape(ctx, 2, (dirs, hidden, gates), "weights", "R", "(dirs, hidden, 4*hidden)")
    state = (dirs, batch, hidden)
    for i, want, what in ((3, (dirs, 2 * gates), "(dirs, 8*hidden)"), (5, state, "(dirs, batch, hidden)"),
                          (6, state, "(dirs, batch, hidden)"), (7, (dirs, 3 * hidden), "(dirs, 3*hidden)")):
        if ctx.has_input(i):
            eq_shape(ctx, i, want, "LSTM input shape", ctx.op.inputs[i], what)
    eq_vector(ctx, 4, batch, "sequence_lens", "the batch")
    for i in (8, 9, 10, 11):
        if ctx.has_input(i):
            _lstm_quant_params(ctx, i, dirs, gates)
    ctx.set_output(0, (seq, dirs, batch, hidden))
    ctx.set_output(1, state)
    ctx.set_output(2, state)
