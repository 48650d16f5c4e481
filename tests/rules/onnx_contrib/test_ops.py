"""com.microsoft fused ops that onnxruntime runs on CPU, against onnxruntime: the attention
family (masks, biases, caches, packed layouts), the skip and embed layer norms, the Gelus,
FusedMatMul, MatMulNBits and GatherBlockQuantized. tests/rules/onnx_contrib/test_fused_models.py holds the fused
exported models and the ops without a CPU kernel (checked against the documented contract).
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.errors import ModelError
from tests.oracle import array, const, make_model, tensor
from tests.rules.onnx.test_op_coverage import MS, Row, row, run_row

F, I32, I64, U8 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8
HEADS, HEAD = 2, 8
GQA_HEAD = 16  # GroupQueryAttention's rotary kernel wants a head size that is a multiple of 16
D = HEADS * HEAD


def ms(op: str, ins: list[str], outs: list[str], **attrs: object) -> helper.NodeProto:
    return helper.make_node(op, ins, outs, domain=MS, **attrs)


def ones_for_ints(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Masks, lengths and positions of 1 (valid for every length >= 1); normal floats otherwise."""
    if np.issubdtype(dtype, np.integer):
        return np.ones(shape, dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


def rnd(name: str, *dims: int, dtype: type = np.float32) -> TensorProto:
    return array(name, (np.random.default_rng(len(name)).random(dims) * 3).astype(dtype))


BS = [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 5}, {"b": 0, "s": 2}, {"b": 2, "s": 0}]
BSP = [{"b": 2, "s": 3, "p": 4, "t": 7}, {"b": 1, "s": 1, "p": 0, "t": 1}, {"b": 1, "s": 1, "p": 6, "t": 7},
       {"b": 3, "s": 2, "p": 1, "t": 3}, {"b": 0, "s": 2, "p": 1, "t": 3}]
BSL = [{"b": 2, "s": 3, "l": 5}, {"b": 1, "s": 1, "l": 1}, {"b": 3, "s": 4, "l": 2}, {"b": 0, "s": 1, "l": 2},
       {"b": 2, "s": 0, "l": 3}, {"b": 1, "s": 2, "l": 0}]
QKV = [rnd("w", 12, 3 * D), rnd("bias", 3 * D)]

ATTENTION = [
    row("Attention-mask2d[b,s]", [ms("Attention", ["x", "w", "bias", "mask"], ["y", "present"], num_heads=HEADS)],
        [tensor("x", ["b", "s", 12]), tensor("mask", ["b", "s"], I32)], BS, QKV, feed=ones_for_ints),
    row("Attention-mask-index-1d[b]", [ms("Attention", ["x", "w", "bias", "mask"], ["y"], num_heads=HEADS)],
        [tensor("x", ["b", "s", 12]), tensor("mask", ["b"], I32)], BS, QKV, feed=ones_for_ints),
    row("Attention-past-unidirectional-mask3d", [ms("Attention", ["x", "w", "bias", "mask", "past"], ["y", "present"],
                                                    num_heads=HEADS, unidirectional=1)],
        [tensor("x", ["b", "s", 12]), tensor("mask", ["b", "s", "t"], I32), tensor("past", [2, "b", HEADS, "p", HEAD])],
        BSP, QKV, feed=ones_for_ints),
    row("Attention-attention_bias[1,N,s,s]", [ms("Attention", ["x", "w", "bias", "", "", "ab"], ["y", "present"],
                                                 num_heads=HEADS)],
        [tensor("x", ["b", "s", 12]), tensor("ab", [1, HEADS, "s", "s"])], BS, QKV),
    row("MultiHeadAttention-cross-key_padding_mask[b,l]", [ms("MultiHeadAttention", ["q", "k", "v", "", "mask"],
                                                              ["y"], num_heads=HEADS)],
        [tensor("q", ["b", "s", D]), tensor("k", ["b", "l", D]), tensor("v", ["b", "l", D]),
         tensor("mask", ["b", "l"], I32)], BSL, feed=ones_for_ints),
    row("MultiHeadAttention-past-bias-qk", [ms("MultiHeadAttention", ["q", "k", "v", "", "", "ab", "pk", "pv"],
                                               ["y", "present_k", "present_v", "qk"], num_heads=HEADS)],
        [tensor("q", ["b", "s", D]), tensor("k", ["b", "s", D]), tensor("v", ["b", "s", D]),
         tensor("ab", ["b", 1, "s", "t"]), tensor("pk", ["b", HEADS, "p", HEAD]),
         tensor("pv", ["b", HEADS, "p", HEAD])],
        BSP),
    # packed (5-D) QKV and KV layouts have no CPU kernel: tests/rules/onnx_contrib/test_fused_models.py checks
    # their contract
    row("MultiHeadAttention-bnsh-key-value-caches", [ms("MultiHeadAttention", ["q", "k", "v"], ["y"], num_heads=HEADS)],
        [tensor("q", ["b", "s", D]), tensor("k", ["b", HEADS, "l", HEAD]), tensor("v", ["b", HEADS, "l", HEAD])], BSL),
    row("MultiHeadAttention-value-width-differs", [ms("MultiHeadAttention", ["q", "k", "v"], ["y", "pk", "pv"],
                                                      num_heads=HEADS)],
        [tensor("q", ["b", "s", D]), tensor("k", ["b", "l", D]), tensor("v", ["b", "l", 2 * D])], BSL),
]


def gqa_row(id: str, past: bool, samples: list[dict[str, int]], **attrs: object) -> object:
    """GroupQueryAttention fed as exporters do: total_sequence_length = Shape(mask)[1] and
    seqlens_k = ReduceSum(mask) - 1, both int32."""
    kv = ["pk", "pv"] if past else ["", ""]
    rotary = ["cos", "sin"] if attrs.get("do_rotary") else []
    nodes = [
        helper.make_node("Shape", ["mask"], ["ms"], start=1, end=2),
        helper.make_node("Squeeze", ["ms"], ["t64"]),
        helper.make_node("Cast", ["t64"], ["total"], to=I32),
        helper.make_node("ReduceSum", ["mask", "one"], ["lens"], keepdims=0),
        helper.make_node("Sub", ["lens", "onev"], ["lens1"]),
        helper.make_node("Cast", ["lens1"], ["seqlens_k"], to=I32),
        ms("GroupQueryAttention", ["q", "k", "v", *kv, "seqlens_k", "total", *rotary],
           ["y", "present_k", "present_v"], num_heads=4, kv_num_heads=2, **attrs),
    ]
    inits = [const("one", [1]), const("onev", 1)]
    if rotary:
        inits += [rnd("cos", 16, GQA_HEAD // 2), rnd("sin", 16, GQA_HEAD // 2)]
    ins = [tensor("q", ["b", "s", 4 * GQA_HEAD]), tensor("k", ["b", "s", 2 * GQA_HEAD]),
           tensor("v", ["b", "s", 2 * GQA_HEAD]), tensor("mask", ["b", "t"], I64)]
    ins += [tensor("pk", ["b", 2, "p", GQA_HEAD]), tensor("pv", ["b", 2, "p", GQA_HEAD])] if past else []
    return row(id, nodes, ins, samples, inits, feed=ones_for_ints)


# present length Max(p, t): a prompt (t = s), decoding (t = p + s), a static cache (t <= p); onnxruntime
# rejects t = 0 and dies of a floating point exception on b = 0, so every sample has b, s, t >= 1
GQA = [
    gqa_row("GroupQueryAttention-prompt-no-past", False,
            [{"b": 2, "s": 3, "t": 3}, {"b": 1, "s": 1, "t": 1}, {"b": 3, "s": 5, "t": 5}]),
    gqa_row("GroupQueryAttention-decode-with-past-rotary", True,
            [{"b": 2, "s": 1, "p": 4, "t": 5}, {"b": 1, "s": 1, "p": 0, "t": 1}, {"b": 1, "s": 2, "p": 3, "t": 5}],
            do_rotary=1),
    gqa_row("GroupQueryAttention-static-cache-local-window", True,
            [{"b": 2, "s": 1, "p": 8, "t": 5}, {"b": 1, "s": 1, "p": 1, "t": 1}, {"b": 1, "s": 1, "p": 4, "t": 4}],
            local_window_size=2),
    # a window-sized cache (onnx-shape-inference's sliding-window case: past [1, 2, 16, 32], 7 new
    # tokens): the presents keep the capacity p, not t rows; onnxruntime requires p >= the window
    gqa_row("GroupQueryAttention-sliding-window-cache", True,
            [{"b": 1, "s": 7, "p": 16, "t": 23}, {"b": 1, "s": 1, "p": 16, "t": 17}, {"b": 2, "s": 1, "p": 20, "t": 30},
             {"b": 1, "s": 84, "p": 16, "t": 100}], local_window_size=16, sliding_window_cache=1),
    row("DecoderMaskedMultiHeadAttention-self-shared-cache",
        [ms("DecoderMaskedMultiHeadAttention", ["q", "k", "v", "", "", "pk", "pv", "plen"], ["y", "present_k",
                                                                                             "present_v"],
            num_heads=HEADS, past_present_share_buffer=1)],
        [tensor("q", ["b", 1, D]), tensor("k", ["b", 1, D]), tensor("v", ["b", 1, D]),
         tensor("pk", ["b", HEADS, "m", HEAD]), tensor("pv", ["b", HEADS, "m", HEAD])],
        [{"b": 2, "m": 6}, {"b": 1, "m": 3}, {"b": 3, "m": 9}, {"b": 0, "m": 4}],
        [array("plen", np.array([2], np.int32))]),
    row("RotaryEmbedding-interleaved-bsd", [ms("RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"], interleaved=1,
                                               num_heads=HEADS)],
        [tensor("x", ["b", "s", D]), tensor("pos", ["b", "s"], I64)], BS, [rnd("cos", 16, 4), rnd("sin", 16, 4)],
        feed=ones_for_ints),
    row("RotaryEmbedding-bnsh-offset", [ms("RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"])],
        [tensor("x", ["b", HEADS, "s", HEAD])], BS,
        [array("pos", np.array([1], np.int64)), rnd("cos", 16, 4), rnd("sin", 16, 4)]),
]

G16, B16 = array("g", np.ones(16, np.float32)), array("beta", np.zeros(16, np.float32))
LAYERS = [
    row("SkipLayerNormalization-skip[1,s,16]-bias", [ms("SkipLayerNormalization", ["x", "skip", "g", "beta", "bb"],
                                                        ["y", "mean", "isd", "sum"])],
        [tensor("x", ["b", "s", 16]), tensor("skip", [1, "s", 16])], BS, [G16, B16, array("bb", np.zeros(16,
                                                                                                    np.float32))]),
    row("SkipLayerNormalization-rank2-y-only", [ms("SkipLayerNormalization", ["x", "skip", "g"], ["y"])],
        [tensor("x", ["s", 16]), tensor("skip", ["s", 16])], BS, [G16]),
    row("SkipLayerNormalization-beta-only-rank3", [ms("SkipLayerNormalization", ["x", "skip", "g", "beta"], ["y"])],
        [tensor("x", ["b", "s", 16]), tensor("skip", ["b", "s", 16])], BS, [G16, B16]),
    row("SkipSimplifiedLayerNormalization-sum-output", [ms("SkipSimplifiedLayerNormalization", ["x", "skip", "g"],
                                                           ["y", "", "", "sum"])],
        [tensor("x", ["b", "s", 16]), tensor("skip", ["b", "s", 16])], BS, [G16]),
    row("EmbedLayerNormalization-no-segment-with-mask", [ms("EmbedLayerNormalization",
                                                            ["ids", "", "we", "pe", "", "g", "beta", "mask"],
                                                            ["e", "mask_index"])],
        [tensor("ids", ["b", "s"], I32), tensor("mask", ["b", "s"], I32)], BS, [rnd("we", 20, 16), rnd("pe", 8, 16),
                                                                                  G16, B16], feed=ones_for_ints,
        outputs=[tensor("e", None), tensor("mask_index", None, I32)]),
    row("Gelu-com.microsoft", [ms("Gelu", ["x"], ["y"])], [tensor("x", ["b", "s", 16])], BS),
    row("QuickGelu-alpha", [ms("QuickGelu", ["x"], ["y"], alpha=1.5)], [tensor("x", ["b", "s"])], BS),
    row("BiasGelu", [ms("BiasGelu", ["x", "bb"], ["y"])], [tensor("x", ["b", "s", 16])], BS,
        [array("bb", np.zeros(16, np.float32))]),
    row("FastGelu-no-bias", [ms("FastGelu", ["x"], ["y"])], [tensor("x", ["b", "s", 16])], BS),
    row("FastGelu-bias", [ms("FastGelu", ["x", "bb"], ["y"])], [tensor("x", ["b", 16])], BS,
        [array("bb", np.zeros(16, np.float32))]),
]

MKN = [{"b": 2, "m": 3, "k": 4, "n": 5}, {"b": 1, "m": 1, "k": 1, "n": 1}, {"b": 3, "m": 2, "k": 6, "n": 2},
       {"b": 0, "m": 2, "k": 3, "n": 1}, {"b": 2, "m": 0, "k": 2, "n": 3}, {"b": 1, "m": 2, "k": 0, "n": 2},
       {"b": 2, "m": 1, "k": 3, "n": 0}]
MATMUL = [
    row(f"FusedMatMul-{label}", [ms("FusedMatMul", ["a", "c"], ["y"], alpha=0.5, **attrs)],
        [tensor("a", a), tensor("c", c)], MKN)
    for label, a, c, attrs in [
        ("transA-transB-3d", ["b", "k", "m"], ["b", "n", "k"], {"transA": 1, "transB": 1}),
        ("broadcast-2d-rhs", ["b", "m", "k"], ["k", "n"], {}),
        ("transBatchA-transA", ["k", "b", "m"], ["b", "k", "n"], {"transBatchA": 1, "transA": 1}),
        ("2d-transB", ["m", "k"], ["n", "k"], {"transB": 1}),
    ]
]
MATMUL += [
    row("MatMulNBits-4bit-zero-points-3d", [ms("MatMulNBits", ["a", "B", "sc", "zp"], ["y"], K=64, N=3, bits=4,
                                               block_size=32)],
        [tensor("a", ["b", "s", 64])], BS,
        [array("B", np.zeros((3, 2, 16), np.uint8)), rnd("sc", 3 * 2), array("zp", np.zeros(3, np.uint8))]),
    row("MatMulNBits-4bit-bias", [ms("MatMulNBits", ["a", "B", "sc", "", "", "bias"], ["y"], K=32, N=4, bits=4,
                                     block_size=16)],
        [tensor("a", ["b", "s", 32])], BS,
        [array("B", np.zeros((4, 2, 8), np.uint8)), rnd("sc", 4 * 2), array("bias", np.zeros(4, np.float32))]),
    row("MatMulNBits-8bit-2d", [ms("MatMulNBits", ["a", "B", "sc"], ["y"], K=32, N=5, bits=8, block_size=16)],
        [tensor("a", ["s", 32])], BS, [array("B", np.zeros((5, 2, 16), np.uint8)), rnd("sc", 5 * 2)]),
    row("GatherBlockQuantized-4bit-scalar-index", [ms("GatherBlockQuantized", ["data", "i", "sc"], ["y"], bits=4,
                                                      block_size=16, gather_axis=0, quantize_axis=1)],
        [tensor("i", [], I64)], [{}], [array("data", np.zeros((5, 16), np.uint8)), rnd("sc", 5, 2)]),
    row("GatherBlockQuantized-8bit-indices[b,s]", [ms("GatherBlockQuantized", ["data", "i", "sc"], ["y"], bits=8,
                                                      block_size=16, gather_axis=0, quantize_axis=1)],
        [tensor("i", ["b", "s"], I64)], BS, [array("data", np.zeros((5, 32), np.uint8)), rnd("sc", 5, 2)],
        feed=ones_for_ints),
]

ROWS = ATTENTION + GQA + LAYERS + MATMUL


@pytest.mark.parametrize("r", ATTENTION + GQA)
def test_attention_family(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", LAYERS + MATMUL)
def test_layers_and_matmuls(r: Row) -> None:
    run_row(r)


def test_sliding_window_cache_needs_a_window_and_a_past() -> None:
    """onnxruntime refuses both at session creation or run ("sliding_window_cache=1 requires
    local_window_size > 0", "... requires past_key and past_value to be present")."""
    for kv, attrs, match in ((["pk", "pv"], {}, "local_window_size > 0"),
                             (["", ""], {"local_window_size": 16}, "without past_key and past_value")):
        node = ms("GroupQueryAttention", ["q", "k", "v", *kv, "sl", "tot"], ["y", "pk_out", "pv_out"], num_heads=4,
                  kv_num_heads=2, sliding_window_cache=1, **attrs)
        ins = [tensor("q", ["b", "s", 4 * GQA_HEAD]), tensor("k", ["b", "s", 2 * GQA_HEAD]),
               tensor("v", ["b", "s", 2 * GQA_HEAD]), tensor("pk", ["b", 2, "p", GQA_HEAD]),
               tensor("pv", ["b", 2, "p", GQA_HEAD]), tensor("sl", ["b"], I32), tensor("tot", [], I32)]
        model = make_model([node], ins if kv[0] else ins[:3] + ins[5:], outputs=["y"])
        model.opset_import.append(helper.make_opsetid(MS, 1))
        with pytest.raises(ModelError, match=match):
            analyze_onnx(model)
