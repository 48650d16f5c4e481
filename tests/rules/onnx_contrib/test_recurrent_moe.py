"""The newer com.microsoft LLM ops of onnxruntime 1.32: state-space and linear attention
(src/symshape/rules/onnx_contrib/recurrent_state.py), mixtures of experts
(src/symshape/rules/onnx_contrib/moe.py), hyper-connections, Engram and gates
(src/symshape/rules/onnx_contrib/hyper_connections.py).

Ops with a CPU kernel run in onnxruntime at several sizes (1, and 0 where the kernel accepts
it) and every dim symshape reports is compared (`run_row`). Ops without one (and the CUDA-only
paths of the others) are checked against the contract their onnxruntime 1.32 schema documents:
each expected dim is derived by hand from the schema text or inference named beside it.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.errors import ContradictionError, ModelError
from tests.oracle import array, make_model, tensor
from tests.rules.onnx.test_op_coverage import MS, Row, row, run_row

F, F16, BF16 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16
I32, I64, U8 = TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8


def ms(op: str, ins: list[str], outs: list[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, domain=MS, **attrs)


def rnd(*shape: int) -> np.ndarray:
    return np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)


def w(name: str, *shape: int) -> onnx.TensorProto:
    return array(name, rnd(*shape) * 0.1)


def ints(name: str, values: list[int], dtype: type = np.int64) -> onnx.TensorProto:
    return array(name, np.array(values, dtype))


def cu(*lengths: int) -> np.ndarray:
    """Exclusive prefix sums of request lengths (cu_seqlens)."""
    return np.cumsum([0, *lengths]).astype(np.int32)


def ones_ints(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Integer inputs of 1 (counts, ids in range); normal floats otherwise."""
    if np.issubdtype(dtype, np.integer):
        return np.ones(shape, dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


BT = [{"b": 2, "t": 3}, {"b": 1, "t": 1}, {"b": 3, "t": 2}, {"b": 0, "t": 2}, {"b": 2, "t": 0}]
BS = [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 2}, {"b": 0, "s": 2}, {"b": 2, "s": 0}]

# ------------------------------------------------------------------ recurrent state (CPU)
RECURRENT = [
    row("LinearAttention-gated_delta-gqa-past", [ms("LinearAttention", ["q", "k", "v", "past", "g", "beta"],
                                                    ["y", "state"], q_num_heads=4, kv_num_heads=2)],
        [tensor("q", ["b", "t", 16]), tensor("k", ["b", "t", 8]), tensor("v", ["b", "t", 6]),
         tensor("past", ["b", 2, 4, 3]), tensor("g", ["b", "t", 2]), tensor("beta", ["b", "t", 2])], BT),
    row("LinearAttention-inverse-gqa-per-key-decay-beta1", [ms("LinearAttention", ["q", "k", "v", "", "g", "beta"],
                                                              ["y", "state"], q_num_heads=2, kv_num_heads=4)],
        [tensor("q", ["b", "t", 8]), tensor("k", ["b", "t", 4]), tensor("v", ["b", "t", 12]),
         tensor("g", ["b", "t", 16]), tensor("beta", ["b", "t", 1])], BT),
    row("LinearAttention-linear-symbolic-hidden", [ms("LinearAttention", ["q", "k", "v"], ["y", "state"],
                                                     q_num_heads=2, kv_num_heads=2, update_rule="linear")],
        [tensor("q", ["b", "t", "e"]), tensor("k", ["b", "t", "e"]), tensor("v", ["b", "t", 8])],
        [{"b": 2, "t": 3, "e": 4}, {"b": 1, "t": 1, "e": 2}, {"b": 3, "t": 2, "e": 6}]),
    row("LinearAttentionGate-decay-and-beta", [ms("LinearAttentionGate", ["a", "dt", "sc", "bb"], ["g", "beta"])],
        [tensor("a", ["b", "t", 4]), tensor("bb", ["b", "t", 4])], BT, [w("dt", 4), w("sc", 4)]),
    row("LinearAttentionGate-rank2-heads-symbolic", [ms("LinearAttentionGate", ["a", "dt", "sc"], ["g"])],
        [tensor("a", ["t", "h"]), tensor("dt", ["h"]), tensor("sc", [1, "h"])],
        [{"t": 3, "h": 4}, {"t": 1, "h": 1}, {"t": 0, "h": 2}]),
    row("GatedDeltaNet-cu_seqlens-capture", [ms("GatedDeltaNet", ["q", "k", "v", "cu", "g", "beta", "", "", "",
                                                                  "cc"], ["y", "state", "su"],
                                                state_update_capacity=2)],
        [tensor("q", ["n", 2, 4]), tensor("k", ["n", 2, 4]), tensor("v", ["n", 4, 3]), tensor("cu", ["c"], I32),
         tensor("g", ["n", 4]), tensor("beta", ["n", 4]), tensor("cc", ["r"], I32)],
        [{"q": rnd(n, 2, 4), "k": rnd(n, 2, 4), "v": rnd(n, 4, 3), "cu": cu(*lens), "g": -abs(rnd(n, 4)),
          "beta": rnd(n, 4), "cc": np.ones(len(lens), np.int32)} for n, lens in ((5, (2, 3)), (1, (1,)),
                                                                                  (6, (1, 2, 3)))]),
    row("GatedDeltaNet-rank4-per-key-decay-softplus", [ms("GatedDeltaNet", ["q", "k", "v", "", "g", "beta", "",
                                                                           "alog", "dtb"], ["y", "state"],
                                                         gate_activation="softplus")],
        [tensor("q", ["b", "s", 2, 4]), tensor("k", ["b", "s", 2, 4]), tensor("v", ["b", "s", 4, 3]),
         tensor("g", ["b", "s", 4, 4]), tensor("beta", ["b", "s", 4])],
        [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 2}], [w("alog", 4), w("dtb", 4, 4)]),
    row("GatedDeltaNet-packed-qkv-uniform", [ms("GatedDeltaNet", ["qkv", "", "", "", "g", "", "init"],
                                                ["y", "state"], update_rule="gated")],
        [tensor("qkv", ["n", 2 * 2 * 4 + 4 * 3]), tensor("g", ["n", 4]), tensor("init", ["b", 4, 3, 4])],
        [{"n": 6, "b": 2}, {"n": 1, "b": 1}, {"n": 6, "b": 3}]),
    row("CausalConvWithState-bias-past-dilation2", [ms("CausalConvWithState", ["x", "wt", "bias", "past"],
                                                       ["y", "state"], dilation=2, activation="silu")],
        [tensor("x", ["b", 3, "l"]), tensor("past", ["b", 3, 6])],
        [{"b": 2, "l": 5}, {"b": 1, "l": 1}, {"b": 0, "l": 3}, {"b": 2, "l": 0}], [w("wt", 3, 1, 4), w("bias", 3)]),
    row("CausalConvWithState-channels-last-two-channel-axes", [ms("CausalConvWithState", ["x", "wt"], ["y", "state"],
                                                                  channels_last=1)],
        [tensor("x", ["b", "l", 2, 3])], [{"b": 2, "l": 5}, {"b": 1, "l": 1}, {"b": 2, "l": 0}], [w("wt", 6, 1, 4)]),
    row("CausalConvWithState-symbolic-kernel", [ms("CausalConvWithState", ["x", "wt"], ["y", "state"])],
        [tensor("x", ["b", "c", "l"]), tensor("wt", ["c", 1, "k"])],
        [{"b": 2, "c": 3, "l": 5, "k": 4}, {"b": 1, "c": 1, "l": 1, "k": 1}, {"b": 2, "c": 2, "l": 3, "k": 2}]),
    row("VarlenCausalConvWithState-capture", [ms("VarlenCausalConvWithState", ["x", "wt", "cu", "", "init", "cc"],
                                                 ["y", "state", "su"], state_update_capacity=3)],
        [tensor("x", ["n", 3]), tensor("cu", ["c"], I32), tensor("init", ["r", 3, 3]), tensor("cc", ["r"], I32)],
        [{"x": rnd(n, 3), "cu": cu(*lens), "init": rnd(len(lens), 3, 3), "cc": np.ones(len(lens), np.int32)}
         for n, lens in ((5, (2, 3)), (1, (1,)), (6, (3, 1, 2)))], [w("wt", 3, 1, 4)]),
]

# ----------------------------------------------------------------------- experts (CPU)
EXPERTS = [
    row("MoE-2d-swiglu-interleaved-biases", [ms("MoE", ["x", "r", "w1", "b1", "w2", "b2"], ["y"], k=2,
                                                activation_type="swiglu", swiglu_fusion=1)],
        [tensor("x", ["t", 4]), tensor("r", ["t", 3])], [{"t": 5}, {"t": 1}, {"t": 0}],
        [w("w1", 3, 12, 4), w("b1", 3, 12), w("w2", 3, 4, 6), w("b2", 3, 4)]),
    row("MoE-3d-input-router-rows", [ms("MoE", ["x", "r", "w1", "", "w2"], ["y"])],
        [tensor("x", ["b", "s", 4]), tensor("r", ["rows", 3])],
        [{"b": 2, "s": 3, "rows": 6}, {"b": 1, "s": 1, "rows": 1}, {"b": 0, "s": 2, "rows": 0}],
        [w("w1", 3, 6, 4), w("w2", 3, 4, 6)]),
    row("QMoE-4bit-blockwise-router-weights", [ms("QMoE", ["x", "r", "w1", "s1", "", "w2", "s2", "", "", "", "",
                                                           "", "", "", "rw"], ["y"], expert_weight_bits=4,
                                                  block_size=16, k=2)],
        [tensor("x", ["t", 16]), tensor("r", ["t", 3]), tensor("rw", ["t", 3])], [{"t": 5}, {"t": 1}, {"t": 0}],
        [array("w1", np.full((3, 32, 8), 136, np.uint8)), w("s1", 3, 32, 1),
         array("w2", np.full((3, 16, 16), 136, np.uint8)), w("s2", 3, 16, 2)]),
    row("MoEGroupRouter-3d-logits-groups", [ms("MoEGroupRouter", ["lg", "eb"], ["p"], top_k=3, n_group=4,
                                               topk_group=2)],
        [tensor("lg", ["b", "s", 8])], BS, [w("eb", 8)]),
    row("MoEGroupRouter-full-score-projection", [ms("MoEGroupRouter", ["x", "eb", "pw"], ["", "sel", "rw"], top_k=2)],
        [tensor("x", ["t", 256])], [{"t": 5}, {"t": 1}, {"t": 0}], [w("eb", 8), w("pw", 8, 256)],
        outputs=[tensor("sel", None), tensor("rw", None)]),
    row("GatherPacked-q8_0-indices[b,s]", [ms("GatherPacked", ["data", "i"], ["y"], packed_type=8, K=64,
                                              output_dtype=1)],
        [tensor("i", ["b", "s"], I64)], BS, [array("data", np.zeros((5, 68), np.uint8))], feed=ones_ints),
    row("GatherPacked-f16-scalar-index", [ms("GatherPacked", ["data", "i"], ["y"], packed_type=1, K=8,
                                             output_dtype=10)],
        [tensor("i", [], I32)], [{}], [array("data", np.zeros((4, 16), np.uint8))],
        outputs=[tensor("y", None, F16)]),
]

# --------------------------------------------------------- hyper-connections and gates (CPU)
GATES = [
    row("HyperConnectionPreMix-grouped-feature-gate", [ms("HyperConnectionPreMix", ["x", "g"], ["y"],
                                                          reduction_scale=0.5)],
        [tensor("x", ["b", "s", "c", "h"]), tensor("g", ["b", "s", "c", "h"])],
        [{"b": 2, "s": 3, "c": 4, "h": 5}, {"b": 1, "s": 1, "c": 1, "h": 1}, {"b": 0, "s": 2, "c": 2, "h": 3}]),
    row("HyperConnectionPreMix-flattened-flat-gate", [ms("HyperConnectionPreMix", ["x", "g"], ["y"], num_branches=4)],
        [tensor("x", ["b", "s", 20]), tensor("g", ["b", "s", 20])], BS),
    row("HyperConnectionPostMix-grouped-stream-mix", [ms("HyperConnectionPostMix", ["x", "o", "g", "m"], ["y"])],
        [tensor("x", ["b", "s", 4, 5]), tensor("o", ["b", "s", 5]), tensor("g", ["b", "s", 4, 1]),
         tensor("m", ["b", "s", 4, 4])], BS),
    row("HyperConnectionPostMix-flattened-branch-gate", [ms("HyperConnectionPostMix", ["x", "o", "g"], ["y"],
                                                            num_branches=4)],
        [tensor("x", ["b", "s", 20]), tensor("o", ["b", "s", 5]), tensor("g", ["b", "s", 4])], BS),
    row("BranchwiseRMSNorm-flattened-scale[C,H]", [ms("BranchwiseRMSNorm", ["x", "sc"], ["y"], num_branches=4)],
        [tensor("x", ["b", "s", 20])], BS, [w("sc", 4, 5)]),
    row("BranchwiseRMSNorm-grouped-scale[C*H]", [ms("BranchwiseRMSNorm", ["x", "sc"], ["y"])],
        [tensor("x", ["b", 4, 5])], [{"b": 2}, {"b": 1}, {"b": 0}], [w("sc", 20)]),
    row("GatedRMSNorm-per-head-groups", [ms("GatedRMSNorm", ["x", "sc", "z"], ["y"], activation="sigmoid")],
        [tensor("x", ["b", "s", 12]), tensor("z", ["b", "s", 12])], BS, [w("sc", 4)]),
    row("GatedAdd-plain", [ms("GatedAdd", ["x", "yy", "g"], ["y"])],
        [tensor("x", ["b", "s", 6]), tensor("yy", ["b", "s", 6]), tensor("g", ["b", "s", 1])], BS),
    row("ScaledSiLU-scalar-scale", [ms("ScaledSiLU", ["x", "a"], ["y"])], [tensor("x", ["b", "s"])], BS,
        [array("a", np.array(1.5, np.float32))]),
    row("EngramGate-both-outputs", [ms("EngramGate", ["k", "q", "v", "ks", "qs", "cs"], ["y", "yn"])],
        [tensor("k", ["b", "s", 2, 8]), tensor("q", ["b", "s", 2, 8]), tensor("v", ["b", "s", 8])], BS,
        [w("ks", 2, 8), w("qs", 2, 8), w("cs", 2, 8)]),
    row("NGramHashMapping-past-segments", [ms("NGramHashMapping", ["ids", "m", "vs", "past", "ho", "", "seg"],
                                              ["h", "present"], pad_id=0, n_head_per_ngram=2, max_ngram_size=3)],
        [tensor("ids", ["b", "s"], I64), tensor("past", ["b", 2], I64), tensor("seg", ["b", "s"], I32)], BS,
        [ints("m", [3, 5, 7, 9]), ints("vs", [11, 13, 17, 19]), ints("ho", [0, 11, 24, 41])], feed=ones_ints,
        outputs=[tensor("h", None, I64), tensor("present", None, I64)]),
    row("VarlenNGramHashMapping-all-outputs", [ms("VarlenNGramHashMapping", ["ids", "m", "vs", "cu", "", "", "",
                                                                             "seg", "", "cc"],
                                                  ["h", "present", "pseg", "su"], pad_id=0, n_head_per_ngram=2,
                                                  max_ngram_size=3, state_update_capacity=3)],
        [tensor("ids", ["n"], I64), tensor("cu", ["c"], I32), tensor("seg", ["n"], I32), tensor("cc", ["r"], I32)],
        [{"ids": np.ones(n, np.int64), "cu": cu(*lens), "seg": np.ones(n, np.int32),
          "cc": np.ones(len(lens), np.int32)} for n, lens in ((5, (2, 3)), (1, (1,)), (6, (1, 2, 3)))],
        [ints("m", [3, 5, 7]), ints("vs", [11, 13, 17, 19])],
        outputs=[tensor("h", None, I64), tensor("present", None, I64), tensor("pseg", None, I32),
                 tensor("su", None, I64)]),
]

ROWS = RECURRENT + EXPERTS + GATES


@pytest.mark.parametrize("r", ROWS)
def test_against_onnxruntime(r: Row) -> None:
    run_row(r)


# ------------------------------------------------------- contracts (no CPU kernel / path)
def contract(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
             inits: list[onnx.TensorProto] | None = None) -> dict[str, list[str]]:
    """Analyze a model that onnxruntime cannot run on CPU: every node output's dims as text."""
    outs = [o for n in nodes for o in n.output if o]
    model = make_model(nodes, inputs, [tensor(o, None) for o in outs], inits or [])
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    assert not result.warnings, [f"{x.op_type}: {x.message}" for x in result.warnings]
    return {o: [str(d) for d in result.shape(o) or ()] for o in outs}


def test_state_window_layouts_cuda_only() -> None:
    """LinearAttention and CausalConvWithState with state_window W: the state gains a leading
    W axis (schema doc: "(W, B, H_kv, d_k, d_v) when state_window = W > 0", "(W, batch_size,
    channels, state_length)"); the CPU kernels refuse W > 0."""
    la = contract([ms("LinearAttention", ["q", "k", "v", "past"], ["y", "st"], q_num_heads=2, kv_num_heads=2,
                      update_rule="linear", state_window=3)],
                  [tensor("q", ["b", "t", 8]), tensor("k", ["b", "t", 8]), tensor("v", ["b", "t", 6]),
                   tensor("past", [3, "b", 2, 4, 3])])
    assert la == {"y": ["b", "t", "6"], "st": ["3", "b", "2", "4", "3"]}
    conv = contract([ms("CausalConvWithState", ["x", "wt"], ["y", "st"], state_window=2, channels_last=1)],
                    [tensor("x", ["b", "l", 5]), tensor("wt", [5, 1, 4])])
    assert conv == {"y": ["b", "l", "5"], "st": ["2", "b", "3", "5"]}


def test_causal_conv_cuda_channel_slice() -> None:
    """The CUDA extended path (schema doc: output's last dim is input_channels; state_length
    overrides (K-1)*dilation; state_channels_last=0 gives [B, C, state_length]; state_update is
    (batch_size, state_update_capacity, channels))."""
    out = contract([ms("CausalConvWithState", ["x", "wt"], ["y", "st", "su"], channels_last=1, input_channels=6,
                       input_channel_offset=2, state_length=5, state_channels_last=0, state_update_capacity=2)],
                   [tensor("x", ["b", "l", 10]), tensor("wt", [6, 1, 4])])
    assert out == {"y": ["b", "l", "6"], "st": ["b", "6", "5"], "su": ["b", "2", "6"]}


def test_replays_keep_the_destination_backing() -> None:
    """Both replays write into destination_backing (schema: "Same backing allocation and shape
    as destination_backing"); metadata is [11] / [8] (schema inference strings)."""
    for op, fields in (("GatedDeltaNetStateReplay", 11), ("ConvStateReplay", 8)):
        out = contract([ms(op, ["src", "cap", "dst", "meta"], ["out"])],
                       [tensor("src", ["a"]), tensor("cap", ["c"]), tensor("dst", ["d"]),
                        tensor("meta", [fields], I64)])
        assert out == {"out": ["d"]}
        with pytest.raises(ModelError):
            contract([ms(op, ["src", "cap", "dst", "meta"], ["out"])],
                     [tensor("src", ["a"]), tensor("cap", ["c"]), tensor("dst", ["d", 2]),
                      tensor("meta", [fields], I64)])


def test_mamba2_verify_contract() -> None:
    """Schema doc: Y [R, di], snapshots keep conv_state/ssm_state, xbc [R, channels], readout
    [R, di]; di = heads*64 = 128, channels = di + 2*n_groups*128 = 384, projection width
    2*di + 2*n_groups*d_state + heads = 514 (the inference's "expected 514")."""
    heads, groups = 2, 1
    ins = [tensor("p", ["r", 514], BF16), tensor("cs", ["n", 384, 3], BF16), tensor("ss", ["n", 2, 128, 64]),
           tensor("cw", [384, 1, 4], BF16), tensor("cb", [384], BF16), tensor("dt", [2]), tensor("an", [2]),
           tensor("dd", [2]), tensor("nw", [128]), tensor("row", [1], I32)]
    node = ms("Mamba2Verify", ["p", "cs", "ss", "cw", "cb", "dt", "an", "dd", "nw", "row"],
              ["y", "cso", "sso", "xbc", "ro"], heads=heads, n_groups=groups)
    out = contract([node], ins)
    assert out == {"y": ["r", "128"], "cso": ["n", "384", "3"], "sso": ["n", "2", "128", "64"],
                   "xbc": ["r", "384"], "ro": ["r", "128"]}
    with pytest.raises(ContradictionError):  # "Invalid input dimension at 0 axis 1: expected 514"
        contract([node], [tensor("p", ["r", 515], BF16), *ins[1:]])
    with pytest.raises(ModelError):  # head_dim 32: "Invalid Mamba2Verify attributes"
        contract([ms("Mamba2Verify", list(node.input), ["y"], heads=heads, n_groups=groups, head_dim=32)], ins)


def test_expert_ops_without_cpu_kernels() -> None:
    """MoEPacked keeps the input's shape ("Output hidden states [..., hidden_size]");
    RouterGateUpProj splits W (K, router_size + 2*inter) into (.., router_size) and (.., inter);
    SwiGLU halves a fused gate ("shaped like one half of the projection"); MatMulPacked gives
    [..., N] (schema docs)."""
    moe = contract([ms("MoEPacked", ["x", "r", "g", "u", "d"], ["y"], gate_type=8, up_type=8, down_type=8, k=2)],
                   [tensor("x", ["b", "s", 32], F16), tensor("r", ["rows", 4]), tensor("g", [4, 64, 34], U8),
                    tensor("u", [4, 64, 34], U8), tensor("d", [4, 32, 68], U8)])
    assert moe == {"y": ["b", "s", "32"]}
    proj = contract([ms("RouterGateUpProj", ["x", "wt"], ["router", "act"], router_size=4)],
                    [tensor("x", ["b", "s", 16], F16), tensor("wt", [16, 4 + 2 * 6], F16)])
    assert proj == {"router": ["b", "s", "4"], "act": ["b", "s", "6"]}
    glu = contract([ms("SwiGLU", ["g"], ["y"]), ms("SwiGLU", ["g", "g"], ["y2"])], [tensor("g", ["b", 16])])
    assert glu == {"y": ["b", "8"], "y2": ["b", "16"]}
    mm = contract([ms("MatMulPacked", ["a", "bw"], ["y"], packed_type=8, N=8, K=32)],
                  [tensor("a", ["b", "s", 32], F16), tensor("bw", [8, 34], U8)])
    assert mm == {"y": ["b", "s", "8"]}


def test_low_rank_mix_contract() -> None:
    """Schema doc: pre_output (..., H), post_gate (..., C), streams_out the streams' shape, for
    flattened (..., C*H) streams with num_branches = C = 4, H = 5."""
    out = contract([ms("HyperConnectionLowRankMix", ["x", "ns", "dw", "uw", "iw", "pbo", "ppg"], ["pre", "pg", "so"],
                       num_branches=4)],
                   [tensor("x", ["b", "s", 20]), tensor("ns", [20]), tensor("dw", [20, "rk"]), tensor("uw", ["rk", 20]),
                    tensor("iw", [20, 4]), tensor("pbo", ["b", "s", 5]), tensor("ppg", ["b", "s", 4])])
    assert out == {"pre": ["b", "s", "5"], "pg": ["b", "s", "4"], "so": ["b", "s", "20"]}


# --------------------------------------------------------------------- malformed models
def analyze(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto]) -> None:
    model = make_model([node], inputs, [tensor(o, None) for o in node.output if o])
    model.opset_import.append(helper.make_opsetid(MS, 1))
    analyze_onnx(model)


QKV = [tensor("q", ["b", "t", 8]), tensor("k", ["b", "t", 8]), tensor("v", ["b", "t", 6])]
MALFORMED = [
    # LinearAttention: a 2-D query; kv heads that do not divide q heads; an unknown rule
    (ms("LinearAttention", ["q", "k", "v"], ["y", "s"], q_num_heads=2, kv_num_heads=2, update_rule="linear"),
     [tensor("q", ["t", 8]), *QKV[1:]]),
    (ms("LinearAttention", ["q", "k", "v"], ["y", "s"], q_num_heads=3, kv_num_heads=2, update_rule="linear"), QKV),
    (ms("LinearAttention", ["q", "k", "v"], ["y", "s"], q_num_heads=2, kv_num_heads=2, update_rule="x"), QKV),
    # GatedDeltaNet: decay absent for gated_delta; no batch source; capacity over 8
    (ms("GatedDeltaNet", ["q", "k", "v", "cu"], ["y"]),
     [tensor("q", ["n", 2, 4]), tensor("k", ["n", 2, 4]), tensor("v", ["n", 2, 3]), tensor("cu", ["c"], I32)]),
    (ms("GatedDeltaNet", ["q", "k", "v"], ["y"], update_rule="linear"),
     [tensor("q", ["n", 2, 4]), tensor("k", ["n", 2, 4]), tensor("v", ["n", 2, 3])]),
    (ms("GatedDeltaNet", ["q", "k", "v", "cu"], ["y"], update_rule="linear", state_update_capacity=9),
     [tensor("q", ["n", 2, 4]), tensor("k", ["n", 2, 4]), tensor("v", ["n", 2, 3]), tensor("cu", ["c"], I32)]),
    # causal convs: a rank-4 input for ndim=1; channels_last with ndim=2; a 3-D packed input
    (ms("CausalConvWithState", ["x", "wt"], ["y", "s"]), [tensor("x", ["b", 3, 2, "l"]), tensor("wt", [3, 1, 4])]),
    (ms("CausalConvWithState", ["x", "wt"], ["y", "s"], ndim=2, channels_last=1),
     [tensor("x", ["b", 3, 2, "l"]), tensor("wt", [3, 1, 1, 4])]),
    (ms("VarlenCausalConvWithState", ["x", "wt", "cu", "", "st"], ["y", "s"]),
     [tensor("x", ["n", 3, 1]), tensor("wt", [3, 1, 4]), tensor("cu", ["c"], I32), tensor("st", ["r", 3, 3])]),
    # experts: a 4-D MoE input; a 3-D router; topk_group above n_group
    (ms("MoE", ["x", "r", "w1", "", "w2"], ["y"]),
     [tensor("x", [1, "b", "s", 4]), tensor("r", ["t", 3]), tensor("w1", [3, 6, 4]), tensor("w2", [3, 4, 6])]),
    (ms("QMoE", ["x", "r", "w1", "s1", "", "w2", "s2"], ["y"]),
     [tensor("x", ["t", 16]), tensor("r", [1, "t", 3]), tensor("w1", [3, 32, 8], U8), tensor("s1", [3, 32]),
      tensor("w2", [3, 16, 16], U8), tensor("s2", [3, 16])]),
    (ms("MoEGroupRouter", ["lg", "eb"], ["p"], top_k=2, n_group=2, topk_group=3),
     [tensor("lg", ["t", 8]), tensor("eb", [8])]),
    # hyper-connections and n-grams: rank-1 grouped streams; a negative num_branches;
    # max_ngram_size 1; a 2-D packed id tensor
    (ms("HyperConnectionPreMix", ["x", "g"], ["y"]), [tensor("x", [5]), tensor("g", [1])]),
    (ms("BranchwiseRMSNorm", ["x"], ["y"], num_branches=-2), [tensor("x", ["b", 20])]),
    (ms("NGramHashMapping", ["ids", "m", "vs"], ["h"], pad_id=0, n_head_per_ngram=2, max_ngram_size=1),
     [tensor("ids", ["b", "s"], I64), tensor("m", [3], I64), tensor("vs", [0], I64)]),
    (ms("VarlenNGramHashMapping", ["ids", "m", "vs", "cu"], ["h"], pad_id=0, n_head_per_ngram=2, max_ngram_size=3),
     [tensor("ids", ["n", 1], I64), tensor("m", [3], I64), tensor("vs", [4], I64), tensor("cu", ["c"], I32)]),
    # gates: a scalar GatedRMSNorm input; a 1-element (not scalar) ScaledSiLU scale
    (ms("GatedRMSNorm", ["x", "sc", "z"], ["y"]), [tensor("x", []), tensor("sc", [1]), tensor("z", [])]),
    (ms("ScaledSiLU", ["x", "a"], ["y"]), [tensor("x", ["b"]), tensor("a", [1])]),
    # no CPU kernel: MatMulPacked A scalar; RouterGateUpProj router_size 0
    (ms("MatMulPacked", ["a", "bw"], ["y"], packed_type=8, N=8, K=32),
     [tensor("a", [], F16), tensor("bw", [8, 34], U8)]),
    (ms("RouterGateUpProj", ["x", "wt"], ["r", "a"], router_size=0), [tensor("x", [2, 16], F16),
                                                                     tensor("wt", [16, 16], F16)]),
]


@pytest.mark.parametrize(("node", "inputs"), MALFORMED, ids=[f"{n.op_type}-{i}" for i, (n, _) in enumerate(MALFORMED)])
def test_malformed_models_raise_model_errors(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto]) -> None:
    with pytest.raises(ModelError):
        analyze(node, inputs)


def test_mismatched_sizes_are_contradictions() -> None:
    """Dims the kernels require equal (GatedDeltaNet's key heads, EngramGate's value width,
    GatherPacked's Q8_0 row bytes: K/32*34 = 68) contradict a model that disagrees."""
    bad = [
        (ms("GatedDeltaNet", ["q", "k", "v", "cu"], ["y"], update_rule="linear"),
         [tensor("q", ["n", 2, 4]), tensor("k", ["n", 1, 4]), tensor("v", ["n", 2, 3]), tensor("cu", ["c"], I32)]),
        (ms("EngramGate", ["k", "q", "v", "ks", "qs"], ["y"]),
         [tensor("k", ["b", "s", 2, 8]), tensor("q", ["b", "s", 2, 8]), tensor("v", ["b", "s", 7]),
          tensor("ks", [2, 8]), tensor("qs", [2, 8])]),
        (ms("GatherPacked", ["data", "i"], ["y"], packed_type=8, K=64), [tensor("data", [5, 67], U8),
                                                                          tensor("i", ["b"], I64)]),
    ]
    for node, inputs in bad:
        with pytest.raises(ContradictionError):
            analyze(node, inputs)
