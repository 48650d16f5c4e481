"""com.microsoft quantized-weight matmuls and quantized attention
(src/symshape/rules/onnx_contrib/quantized_matmul.py, quantized_attention.py).

Ops with a CPU kernel in onnxruntime 1.32 (MatMulBnb4, MatMulFpQ4, QAttention,
QEmbedLayerNormalization, DynamicQuantizeLSTM) run at several sizes, 1 and 0 included where the
kernel accepts them, and every dim symshape reports is compared (`run_row`). QAttention and
DynamicQuantizeLSTM abort the process on an empty batch, so their samples keep ``b >= 1``.
The other ops (CUDA or WebGPU kernels only) are checked against their contract: each expected
dim is derived by hand from the kernel or schema named beside it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import ModelError
from symshape.tools.verify.run import OracleError
from tests.oracle import array, make_model, tensor
from tests.rules.onnx.test_op_coverage import MS, Row, row, run_row

F, F16, I32, I64, U8, I8 = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT32, TensorProto.INT64,
                            TensorProto.UINT8, TensorProto.INT8)
FP8 = TensorProto.FLOAT8E4M3FN


def ms(op: str, ins: list[str], outs: list[str], **attrs: Any) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, domain=MS, **attrs)


def ones_for_ints(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Integer inputs of 1 (masks, lengths, ids and int8 data in range); normal floats otherwise."""
    if np.issubdtype(dtype, np.integer):
        return np.ones(shape, dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


def u8(name: str, *shape: int) -> onnx.TensorProto:
    return array(name, np.ones(shape, np.uint8))


def f32(name: str, *shape: int, value: float = 0.1) -> onnx.TensorProto:
    return array(name, np.full(shape, value, np.float32))


Samples = list[dict[str, object]]
BS: Samples = [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 5}, {"b": 0, "s": 2}, {"b": 2, "s": 0}]

# ------------------------------------------------------------------ matmuls (CPU kernels)
BNB_K, BNB_N, BNB_BLOCK = 32, 5, 16
BNB = [u8("B", (BNB_N * BNB_K + 1) // 2), f32("absmax", (BNB_N * BNB_K + BNB_BLOCK - 1) // BNB_BLOCK, value=1.0)]
FPQ4_K, FPQ4_N = 40, 3


def fpq4_blob(quant_type: int) -> onnx.TensorProto:
    """MLAS's packed size: N * ceil(K/32) blocks of 20 bytes (type 0) or 21 (with a zero point)."""
    return u8("blob", FPQ4_N * ((FPQ4_K + 31) // 32) * (20 if quant_type == 0 else 21))


MATMULS = [
    row("MatMulBnb4-transB-3d", [ms("MatMulBnb4", ["a", "B", "absmax"], ["y"], K=BNB_K, N=BNB_N, block_size=BNB_BLOCK,
                                    quant_type=1)],
        [tensor("a", ["b", "s", BNB_K])], BS, BNB),
    row("MatMulBnb4-no-transB-2d", [ms("MatMulBnb4", ["a", "B", "absmax"], ["y"], K=BNB_K, N=BNB_N,
                                       block_size=BNB_BLOCK, quant_type=0, transB=0)],
        [tensor("a", ["s", BNB_N])], BS, BNB),
    *(row(f"MatMulFpQ4-blk_quant_type{qt}", [ms("MatMulFpQ4", ["a", "blob", "bshape"], ["y"], blk_quant_type=qt)],
          [tensor("a", ["b", "s", FPQ4_K])], BS, [fpq4_blob(qt), array("bshape", np.array([FPQ4_K, FPQ4_N]))])
      for qt in (0, 1)),
    row("MatMulFpQ4-1d-activation", [ms("MatMulFpQ4", ["a", "blob", "bshape"], ["y"])], [tensor("a", [FPQ4_K])],
        [{}], [fpq4_blob(1), array("bshape", np.array([FPQ4_K, FPQ4_N]))]),
]

# ------------------------------------------------------------------ DynamicQuantizeLSTM (CPU kernel)
LSTM_H, LSTM_I = 4, 3


def lstm_weights(dirs: int, per_channel: bool) -> list[onnx.TensorProto]:
    """W (dirs, input, 4H) and R (dirs, H, 4H) with scales and zero points per tensor or channel."""
    q = (dirs, 4 * LSTM_H) if per_channel else (dirs,)
    return [u8("W", dirs, LSTM_I, 4 * LSTM_H), u8("R", dirs, LSTM_H, 4 * LSTM_H), f32("ws", *q),
            array("wz", np.zeros(q, np.uint8)), f32("rs", dirs), array("rz", np.zeros(dirs, np.uint8))]


LSTM_SAMPLES: Samples = [{"s": 2, "b": 3}, {"s": 1, "b": 1}, {"s": 4, "b": 2}]
LSTM = [
    row("DynamicQuantizeLSTM-forward-all-inputs",
        [ms("DynamicQuantizeLSTM", ["x", "W", "R", "bias", "lens", "h0", "c0", "P", "ws", "wz", "rs", "rz"],
            ["y", "yh", "yc"], hidden_size=LSTM_H)],
        [tensor("x", ["s", "b", LSTM_I]), tensor("lens", ["b"], I32), tensor("h0", [1, "b", LSTM_H]),
         tensor("c0", [1, "b", LSTM_H])],
        LSTM_SAMPLES,
        [*lstm_weights(1, True), f32("bias", 1, 8 * LSTM_H), f32("P", 1, 3 * LSTM_H)], feed=ones_for_ints),
    row("DynamicQuantizeLSTM-bidirectional-Y_h-only",
        [ms("DynamicQuantizeLSTM", ["x", "W", "R", "", "", "", "", "", "ws", "wz", "rs", "rz"], ["", "yh"],
            hidden_size=LSTM_H, direction="bidirectional")],
        [tensor("x", ["s", "b", LSTM_I])], [*LSTM_SAMPLES[:2], {"s": 0, "b": 2}],
        lstm_weights(2, False)),
]

# ------------------------------------------------------------------ QAttention (CPU kernel)
HEADS, D, D_IN = 2, 8, 12
NONEMPTY: Samples = [bs for bs in BS if bs["b"] != 0]
QATT_W = [u8("w", D_IN, 3 * D), f32("bias", 3 * D, value=0.0), f32("isc")]
BSP: Samples = [{"b": 2, "s": 3, "p": 4, "t": 7}, {"b": 1, "s": 1, "p": 0, "t": 1}, {"b": 3, "s": 2, "p": 1, "t": 3},
       {"b": 2, "s": 0, "p": 3, "t": 3}]
QATTENTION = [
    row("QAttention-past-mask2d[b,t]",
        [ms("QAttention", ["x", "w", "bias", "isc", "wsc", "mask", "", "", "past"], ["y", "present"],
            num_heads=HEADS)],
        [tensor("x", ["b", "s", D_IN], U8), tensor("mask", ["b", "t"], I32),
         tensor("past", [2, "b", HEADS, "p", D // HEADS])],
        BSP, [*QATT_W, f32("wsc")], feed=ones_for_ints),
    row("QAttention-per-column-scale-zero-point-mask1d",
        [ms("QAttention", ["x", "w", "bias", "isc", "wsc", "mask", "izp", "wzp"], ["y", "present"], num_heads=HEADS,
            unidirectional=1)],
        [tensor("x", ["b", "s", D_IN], U8), tensor("mask", ["b"], I32)], NONEMPTY,
        [*QATT_W, f32("wsc", 3 * D), array("izp", np.array(0, np.uint8)), array("wzp", np.zeros(3 * D, np.uint8))],
        feed=ones_for_ints),
    row("QAttention-mask3d-output-only",
        [ms("QAttention", ["x", "w", "bias", "isc", "wsc", "mask"], ["y"], num_heads=HEADS)],
        [tensor("x", ["b", "s", D_IN], U8), tensor("mask", ["b", "s", "s"], I32)], NONEMPTY,
        [*QATT_W, f32("wsc")], feed=ones_for_ints),
]

# ------------------------------------------------------------------ QEmbedLayerNormalization (CPU kernel)
EMB_H = 16


def embed_inits(segments: bool) -> list[onnx.TensorProto]:
    """Tables, gamma, beta and their per-tensor scales and zero points (segment ones optional)."""
    names = ["we", "pe", *(["se"] if segments else []), "g", "be"]
    shapes = {"we": (20, EMB_H), "pe": (8, EMB_H), "se": (2, EMB_H), "g": (EMB_H,), "be": (EMB_H,)}
    out = [u8(n, *shapes[n]) for n in names]
    out += [f32(n + "_s") for n in names] + [array(n + "_z", np.array(0, np.uint8)) for n in names]
    return out


def embed_inputs(segments: bool, mask: bool) -> list[str]:
    def seg(n: str) -> str:
        return n if segments else ""

    tables = ["we", "pe", seg("se"), "g", "be"]
    return ["ids", seg("seg"), *tables[:3], "g", "be", "mask" if mask else "",
            *(t and t + "_s" for t in tables), *(t and t + "_z" for t in tables)]


QEMBED = [
    row("QEmbedLayerNormalization-segments-mask",
        [ms("QEmbedLayerNormalization", embed_inputs(True, True), ["y", "mask_index"])],
        [tensor("ids", ["b", "s"], I32), tensor("seg", ["b", "s"], I32), tensor("mask", ["b", "s"], I32)], BS,
        embed_inits(True), feed=ones_for_ints, outputs=[tensor("y", None), tensor("mask_index", None, I32)]),
    row("QEmbedLayerNormalization-distilbert",
        [ms("QEmbedLayerNormalization", embed_inputs(False, False), ["y", "mask_index"])],
        [tensor("ids", ["b", "s"], I32)], BS, embed_inits(False), feed=ones_for_ints,
        outputs=[tensor("y", None), tensor("mask_index", None, I32)]),
]

ROWS = MATMULS + LSTM + QATTENTION + QEMBED


NO_KERNEL_ON_THIS_CPU = "not yet supported on this hardware platform"
"""onnxruntime's MatMulFpQ4 schema refuses the model where MLAS has no 4-bit GEMM for the CPU
(``MlasQ4GemmPackBSize`` is 0: it needs AVX-512; seen on an AVX2-only AMD EPYC)."""


@pytest.mark.parametrize("r", ROWS)
def test_against_onnxruntime(r: Row) -> None:
    try:
        run_row(r)
    except OracleError as err:
        if NO_KERNEL_ON_THIS_CPU not in str(err):
            raise
        pytest.skip(f"onnxruntime cannot run {r.nodes[0].op_type} on this CPU (the oracle did not run): {err}")


def test_fpq4_untracked_shape_makes_the_width_a_data_symbol() -> None:
    """B_shape fed at run time: N is a ``data`` symbol (its value is the output width), K is A's
    last dim, and the blob length ties them (matmul_fpq4.cc: ``blob_len == MlasQ4GemmPackBSize``)."""
    model = make_model([ms("MatMulFpQ4", ["a", "blob", "bshape"], ["y"])],
                       [tensor("a", ["m", "k"]), tensor("blob", ["l"], U8), tensor("bshape", [2], I64)],
                       [tensor("y", None)])
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    m, n = (str(d) for d in result.shape("y") or ())
    assert m == "m" and result.symbols()[n]["kind"] == "data"


# ------------------------------------------------------------------ contracts (no CPU kernel)
def contract(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
             inits: list[onnx.TensorProto] | None = None) -> tuple[dict[str, list[str]], Analysis]:
    """Analyze a model onnxruntime cannot run on CPU: every node output's dims as text."""
    outs = [o for n in nodes for o in n.output if o]
    model = make_model(nodes, inputs, [tensor(o, None) for o in outs], inits or [], 17)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    assert not result.warnings, [f"{x.op_type}: {x.message}" for x in result.warnings]
    return {o: [str(d) for d in result.shape(o) or ()] for o in outs}, result


def test_block_scaled_fp4_and_fp8_weights() -> None:
    """matmul_block_scaled_fp4.cc: N = B.shape[0], K = 2 * B.shape[1], output A's shape with K
    replaced by N (MatMulComputeHelper, transB), weight_scale (N, ceil(K/16)) = (6, 4) for K = 64;
    matmul_block_scaled_fp8.cc: B (N, K), b_scale (N, ceil(K/128)) = (5, 2) for K = 256."""
    out, result = contract(
        [ms("MatMulBlockQuantizedFp4Weight", ["a4", "b4", "s4", "g4", "", "bias4"], ["y4"]),
         ms("MatMulBlockQuantizedFp4Weight", ["a4s", "b4s", "s4s", "g4"], ["y4s"]),
         ms("MatMulBlockQuantizedFp8Weight", ["a8", "b8", "s8", "g4", "bias8"], ["y8"])],
        [tensor("a4", ["b", "s", 64], F16), tensor("b4", [6, 32], U8), tensor("s4", [6, 4], U8),
         tensor("g4", [], F), tensor("bias4", [6], F16),
         tensor("a4s", ["m", "k"], F16), tensor("b4s", ["n", "kh"], U8), tensor("s4s", ["n", "kb"], U8),
         tensor("a8", ["m", 256], F16), tensor("b8", [5, 256], FP8), tensor("s8", [5, 2], F),
         tensor("bias8", [5], F16)])
    assert out == {"y4": ["b", "s", "6"], "y4s": ["m", "n"], "y8": ["m", "5"]}
    assert str(result.dim(("a4s", 1))) == "2*kh"  # the fact K = 2 * B.shape[1]


def test_matmul_nbits_fusions() -> None:
    """WebGPU matmul_nbits_mlp.cc: Y = MatMulComputeHelper(A, (N, K), transB) = A[..., N], and
    input_skip_bias_sum is A's shape when skip is given; matmul_nbits_qkv.cc: Q (..., Nq), K and V
    (..., Nkv), the residual sum A's shape; MatMulNBitsQLoRA (schema): X[..., K] -> (..., N)."""
    q = [tensor(n, [10, 2, 16], U8) for n in ("gb", "ub", "qb", "kb", "vb")]
    out, _ = contract(
        [ms("MatMulNBitsMlp", ["a", "skip", "ns", "gb", "gs", "gbias", "ub", "us", "ubias"], ["y", "sum"],
            K=64, N=10, block_size=32, activation="silu"),
         ms("MatMulNBitsMlp", ["a2", "", "", "gb", "gs", "", "ub", "us"], ["y2"], K=64, N=10, block_size=32,
            activation="silu"),
         ms("MatMulNBitsQkv", ["a", "skip", "ns", "qb", "gs", "", "kb", "gs", "kbias", "vb", "gs"],
            ["q", "k", "v", "qsum"], K=64, Nq=12, Nkv=4, block_size=32),
         ms("MatMulNBitsQLoRA", ["x", "w", "ws", "la", "las", "lb", "lbs"], ["yl"], K=48, N=7)],
        [tensor("a", ["b", "s", 64], F16), tensor("skip", ["b", "s", 64], F16), tensor("ns", [64], F16),
         tensor("gs", [20], F16), tensor("gbias", [10], F16), tensor("ubias", [10], F16), tensor("kbias", [4], F16),
         tensor("us", [20], F16), tensor("a2", ["t", 64], F16), *q,
         tensor("x", ["b", 48]), tensor("w", [7, 2, 16], U8), tensor("ws", [7, 2]), tensor("la", ["r", 2, 32], U8),
         tensor("las", ["r", 2]), tensor("lb", [7, 1, 32], U8), tensor("lbs", [7, 1])])
    assert out == {"y": ["b", "s", "10"], "sum": ["b", "s", "64"], "y2": ["t", "10"], "q": ["b", "s", "12"],
                   "k": ["b", "s", "4"], "v": ["b", "s", "4"], "qsum": ["b", "s", "64"], "yl": ["b", "7"]}


def test_gemm_float8_and_qordered_ops() -> None:
    """gemm_float8.cu SetParams: M = A[transA], N = B[1 - transB], output (M, N);
    qordered_matmul.cc: Y = A's shape with the last dim B's cols; QOrderedGelu and
    QOrderedLayerNormalization keep X's shape (quantization_defs.cc, qordered_layer_norm.cc)."""
    out, _ = contract(
        [ms("GemmFloat8", ["ga", "gb"], ["gy"], transA=1, transB=1),
         ms("GemmFloat8", ["gb", "ga", "gc"], ["gy2"]),
         ms("QOrderedMatMul", ["qa", "sa", "qb", "sb", "sy", "qbias", "qc", "sc"], ["qy"], order_A=1, order_B=0,
            order_Y=1),
         ms("QOrderedMatMul", ["qa2", "sa", "qb3", "sa", "sy"], ["qy2"], order_A=1, order_B=0, order_Y=1),
         ms("QOrderedGelu", ["qa", "sa", "sy"], ["gelu"], order_X=1, order_Y=1),
         ms("QOrderedLayerNormalization", ["qa", "sa", "gamma", "beta", "sy"], ["ln"])],
        [tensor("ga", ["k", "m"], F16), tensor("gb", ["n", "k"], F16), tensor("gc", ["n", "m"], F16),
         tensor("qa", ["b", "s", 32], I8), tensor("sa", [], F), tensor("qb", [32, 16], I8), tensor("sb", [16], F),
         tensor("sy", [], F), tensor("qbias", [16], F), tensor("qc", [1, "s", 16], I8), tensor("sc", [], F),
         tensor("qa2", ["s", 32], I8), tensor("qb3", [1, 32, 8], I8), tensor("gamma", [32], F16),
         tensor("beta", [32], F16)])
    assert out == {"gy": ["m", "n"], "gy2": ["n", "m"], "qy": ["b", "s", "16"], "qy2": ["s", "8"],
                   "gelu": ["b", "s", "32"], "ln": ["b", "s", "32"]}


def test_qordered_attention_and_longformer() -> None:
    """qordered_attention.cc: output (B, S, qkv_hidden_sizes[0]); qordered_longformer_attention.cc:
    output = input's shape, and LongformerAttentionBase::CheckInputs requires S % (2*window) == 0
    (window 2: S a multiple of 4)."""
    att = ["x", "s1", "s1", "s1", "s1", "wq", "wk", "wv", "s1", "s1", "s1", "bq", "bk", "bv", "s1", "s1", "s1", "mask"]
    long = ["lx", "s1", "lw", "s1", "lb", "s1", "s1", "lmask", "lw", "s1", "lb", "s1", "lglobal", "s1"]
    out, result = contract(
        [ms("QOrderedAttention", att, ["y"], num_heads=2, qkv_hidden_sizes=[16, 16, 16], order_input=1,
            order_weight=0, order_output=1),
         ms("QOrderedLongformerAttention", long, ["ly"], num_heads=2, window=2, order_input=1, order_weight=0,
            order_global_weight=0, order_output=1)],
        [tensor("x", ["b", "s", 24], I8), tensor("s1", [], F), *(tensor(n, [24, 16], I8) for n in ("wq", "wk", "wv")),
         *(tensor(n, [16], F) for n in ("bq", "bk", "bv")), tensor("mask", ["b", "s"], I32),
         tensor("lx", ["lb_", "ls", 16], I8), tensor("lw", [16, 48], I8), tensor("lb", [48], F),
         tensor("lmask", ["lb_", "ls"], F16), tensor("lglobal", ["lb_", "ls"], I32)])
    assert out == {"y": ["b", "s", "16"], "ly": ["lb_", "ls", "16"]}
    assert result.symbols()["ls"]["divisor"] % 4 == 0


# ------------------------------------------------------------------ malformed models
def _model(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto],
           inits: list[onnx.TensorProto] | None = None) -> onnx.ModelProto:
    model = make_model([node], inputs, [tensor(o, None) for o in node.output if o], inits or [], 17)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    return model


@pytest.mark.parametrize("case", [
    ("bnb4-quant_type", ms("MatMulBnb4", ["a", "B", "absmax"], ["y"], K=BNB_K, N=BNB_N, block_size=BNB_BLOCK,
                           quant_type=2), [tensor("a", ["s", BNB_K])], BNB, "quant_type"),
    ("fpq4-2d-blob", ms("MatMulFpQ4", ["a", "blob", "bshape"], ["y"]),
     [tensor("a", ["s", FPQ4_K]), tensor("blob", [3, 21], U8)], [array("bshape", np.array([FPQ4_K, FPQ4_N]))],
     "rank 1"),
    ("fp8-3d-weight", ms("MatMulBlockQuantizedFp8Weight", ["a", "b", "sc"], ["y"]),
     [tensor("a", ["m", 16], F16), tensor("b", [1, 4, 16], FP8), tensor("sc", [4, 1], F)], [], "rank 2"),
    ("mlp-skip-without-norm", ms("MatMulNBitsMlp", ["a", "skip", "", "gb", "gs", "", "ub", "us"], ["y"], K=64,
                                 N=10, block_size=32, activation="silu"),
     [tensor("a", ["s", 64], F16), tensor("skip", ["s", 64], F16), tensor("gb", [10, 2, 16], U8),
      tensor("gs", [20], F16), tensor("ub", [10, 2, 16], U8), tensor("us", [20], F16)], [], "norm_scale"),
    ("qordered-matmul-4d", ms("QOrderedMatMul", ["a", "s", "b", "s", "s"], ["y"], order_A=1, order_B=0, order_Y=1),
     [tensor("a", [1, "b", "s", 32], I8), tensor("s", [], F), tensor("b", [32, 16], I8)], [], "rank 2 or 3"),
    ("lstm-direction", ms("DynamicQuantizeLSTM", ["x", "W", "R", "", "", "", "", "", "ws", "wz", "rs", "rz"],
                          ["y"], hidden_size=LSTM_H, direction="sideways"),
     [tensor("x", ["s", "b", LSTM_I])], lstm_weights(1, False), "direction"),
    ("lstm-no-hidden_size", ms("DynamicQuantizeLSTM", ["x", "W", "R", "", "", "", "", "", "ws", "wz", "rs", "rz"],
                               ["y"]), [tensor("x", ["s", "b", LSTM_I])], lstm_weights(1, False), "hidden_size"),
], ids=lambda c: c[0])
def test_malformed_matmuls_are_model_errors(case: tuple[str, onnx.NodeProto, list[onnx.ValueInfoProto],
                                                        list[onnx.TensorProto], str]) -> None:
    _, node, inputs, inits, match = case
    with pytest.raises(ModelError, match=match):
        analyze_onnx(_model(node, inputs, inits))


@pytest.mark.parametrize("case", [
    ("qattention-2d-input", ms("QAttention", ["x", "w", "bias", "isc", "wsc"], ["y"], num_heads=HEADS),
     [tensor("x", ["s", D_IN], U8)], [*QATT_W, f32("wsc")], "rank 3"),
    ("qattention-shared-buffer", ms("QAttention", ["x", "w", "bias", "isc", "wsc", "", "", "", "past"], ["y"],
                                    num_heads=HEADS, past_present_share_buffer=1),
     [tensor("x", ["b", "s", D_IN], U8), tensor("past", [2, "b", HEADS, "p", D // HEADS])], [*QATT_W, f32("wsc")],
     "past_present_share_buffer"),
    ("qordered-attention-no-qkv-sizes", ms("QOrderedAttention", ["x"] + ["s1"] * 16, ["y"], num_heads=2,
                                           order_input=1, order_weight=0, order_output=1),
     [tensor("x", ["b", "s", 16], I8), tensor("s1", [], F)], [], "qkv_hidden_sizes"),
    ("longformer-no-window", ms("QOrderedLongformerAttention", ["x"] + ["s1"] * 13, ["y"], num_heads=2,
                                order_input=1, order_weight=0, order_global_weight=0, order_output=1),
     [tensor("x", ["b", "s", 16], I8), tensor("s1", [], F)], [], "window"),
    ("qembed-3d-ids", ms("QEmbedLayerNormalization", embed_inputs(False, False), ["y", "mi"]),
     [tensor("ids", ["b", "s", 1], I32)], embed_inits(False), "rank 2"),
], ids=lambda c: c[0])
def test_malformed_attention_is_a_model_error(case: tuple[str, onnx.NodeProto, list[onnx.ValueInfoProto],
                                                          list[onnx.TensorProto], str]) -> None:
    _, node, inputs, inits, match = case
    with pytest.raises(ModelError, match=match):
        analyze_onnx(_model(node, inputs, inits))


# Where the ops of the rules without a row above are checked (for tests/rules/onnx/test_op_coverage.py).
_CONTRACT = "tests/rules/onnx_contrib/test_quantized_matmul.py (no CPU kernel: the documented contract)"
ELSEWHERE = {
    (MS, op): _CONTRACT
    for op in ("MatMulBlockQuantizedFp4Weight", "MatMulBlockQuantizedFp8Weight", "MatMulNBitsMlp", "MatMulNBitsQLoRA",
               "MatMulNBitsQkv", "GemmFloat8", "QOrderedAttention", "QOrderedLongformerAttention", "QOrderedGelu",
               "QOrderedLayerNormalization", "QOrderedMatMul")
}
