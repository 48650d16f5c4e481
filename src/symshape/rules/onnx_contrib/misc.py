"""com.microsoft contractions, convolutions and FFTs: FusedMatMul, GemmFastGelu, MatMulNBits,
FusedConv, Rfft, Irfft.

Contraction dims are facts, as for MatMul; the batch dims broadcast with numpy rules.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, floordiv, mul
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx.linalg import matmul_shape
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    contracted_input,
    eq_dims,
    eq_shape,
    eq_vector,
    required_int,
    reuse,
)
from symshape.rules.registry import ONNX, register


def _fused_operand(ctx: OpContext, dims: tuple[Dim, ...], trans: bool, trans_batch: bool) -> tuple[Dim, ...]:
    """An operand as FusedMatMul sees it: ``transBatch`` moves dim 0 just before the last dim,
    then ``trans`` swaps the last two (a 1-D operand is never transposed)."""
    if trans_batch:
        dims = (*dims[1:-1], dims[0], dims[-1])
    if trans and len(dims) >= 2:
        dims = (*dims[:-2], dims[-1], dims[-2])
    return dims


@register(MS, "FusedMatMul")
def fused_matmul(ctx: OpContext) -> None:
    """``alpha * A' @ B'`` with numpy matmul shapes after the transposes ``transA``/``transB``
    (last two dims) and ``transBatchA``/``transBatchB`` (dim 0 moved before the last dim; both
    operands must then have the same rank >= 3, a kernel check).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.FusedMatMul
    """
    a, b = ctx.shape(0), ctx.shape(1)
    batch_a, batch_b = bool(ctx.attr("transBatchA", 0)), bool(ctx.attr("transBatchB", 0))
    if (batch_a or batch_b) and (len(a) != len(b) or len(a) < 3):
        raise ctx.invalid(
            f"transBatchA/transBatchB with operands of rank {len(a)} and {len(b)}",
            "operands of the same rank >= 3",
            FIX_CONTRACT,
        )
    a = _fused_operand(ctx, a, bool(ctx.attr("transA", 0)), batch_a)
    b = _fused_operand(ctx, b, bool(ctx.attr("transB", 0)), batch_b)
    ctx.set_output(0, matmul_shape(ctx, a, b))


@register(MS, "GemmFastGelu")
def gemm_fast_gelu(ctx: OpContext) -> None:
    """``FastGelu(X @ W + bias)``: numpy matmul shapes; the bias has W's output width (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GemmFastGelu
    """
    out = matmul_shape(ctx, ctx.shape(0), ctx.shape(1))
    if out:
        eq_vector(ctx, 2, out[-1], "bias length", "the output width")
    ctx.set_output(0, out)


@register(MS, "MatMulNBits")
def matmul_nbits(ctx: OpContext) -> None:
    """``A @ dequantize(B)`` with B a ``K x N`` block-quantized constant: A ``(..., K)`` gives
    ``(..., N)``; A's last dim equals the attribute ``K`` and the bias has length ``N`` (facts).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulNBits
    """
    k, n = required_int(ctx, "K"), required_int(ctx, "N")
    a = contracted_input(ctx, k, "the attribute K")
    eq_vector(ctx, 5, n, "bias length", "the attribute N")
    ctx.set_output(0, (*a[:-1], n))


@register(MS, "FusedConv")
def fused_conv(ctx: OpContext) -> None:
    """``activation(Conv(X, W, B) + Z)``: Conv's shape contract (the ai.onnx Conv rule), and the
    optional sum input Z has the output's shape (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.FusedConv
    """
    reuse(ctx, ONNX, "Conv")
    out = ctx.output_shape(0)
    if out is None or not ctx.has_input(3):
        return
    eq_shape(ctx, 3, out, "Z shape", "input Z", "the output")


@register(MS, "Rfft")
def rfft(ctx: OpContext) -> None:
    """One-sided real FFT: the last signal dim ``n`` becomes ``floor(n/2) + 1`` and a trailing
    ``2`` (real, imaginary) is appended, as the CUDA kernel computes it (``onesided`` must be 1).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Rfft
    """
    x = ctx.shape(0)
    _check_fft(ctx, len(x), 0)
    ctx.set_output(0, (*x[:-1], add(floordiv(x[-1], 2), 1), 2))


@register(MS, "Irfft")
def irfft(ctx: OpContext) -> None:
    """Inverse of Rfft: input ``(..., m, 2)`` gives ``(..., 2*m - 1)``: the size the CUDA
    kernel (``fft_ops.cc``: ``input_shape[i] * 2 - 1``) allocates; the trailing 2 must be 2.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Irfft
    """
    x = ctx.shape(0)
    _check_fft(ctx, len(x), 1)
    eq_dims(ctx, x[-1], 2, "complex dim", 0, len(x) - 1, "2 (real and imaginary parts)")
    ctx.set_output(0, (*x[:-2], add(mul(x[-2], 2), -1)))


def _check_fft(ctx: OpContext, rank: int, complex_dims: int) -> None:
    signal = ctx.attr("signal_ndim", 1)
    if not isinstance(signal, int) or signal < 1 or rank < signal + complex_dims:
        raise ctx.invalid(
            f"signal_ndim {signal!r} does not fit an input of rank {rank}",
            f"an int in [1, {rank - complex_dims}]",
            "fix the signal_ndim attribute",
        )
    if ctx.attr("onesided", 1) != 1:
        raise GiveUp("only onesided FFTs have a defined output shape")
