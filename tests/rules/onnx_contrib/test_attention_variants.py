"""com.microsoft attention variants, generation and position ops
(src/symshape/rules/onnx_contrib/decoding.py, attention_variants.py, attention_sparse.py,
attention_rotary.py).

Ops with a CPU kernel run in onnxruntime at several sizes (1 included) and every dim symshape
reports is compared (`run_row`): GreedySearch, Sampling and BeamSearch over a one-layer GPT-2
decoder subgraph built here, MRotaryEmbedding, AttnLSTM; SparseAttention through I/O binding
(its kernel insists that past and present share a buffer). The others have no CPU kernel and
are checked against their contract: each expected dim is derived by hand from the schema, kernel
or helper named beside it (onnxruntime/core/graph/contrib_ops/bert_defs.cc, contrib_defs.cc,
contrib_ops/cuda/bert/*.cc, contrib_ops/cpu/sparse/*.h).
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import evaluate
from symshape.api import analyze_onnx
from symshape.errors import ContradictionError, ModelError
from tests.oracle import array, make_model, tensor
from tests.rules.onnx.test_op_coverage import MS, Row, row, run_row

F, I32, I64, B8 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.BOOL
V = 10  # the decoder subgraph's vocabulary


def ms(op: str, ins: list[str], outs: list[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, domain=MS, **attrs)


def w(name: str, *shape: int) -> onnx.TensorProto:
    return array(name, np.random.default_rng(sum(shape)).random(shape).astype(np.float32))


def i32(name: str, *values: int) -> onnx.TensorProto:
    return array(name, np.array(values, np.int32))


# ------------------------------------------------------------- generation, against onnxruntime
def gpt_decoder() -> onnx.GraphProto:
    """A one-layer GPT-2 decoder as onnxruntime's GptSubgraph::Validate wants it: logits
    ``(B, S, V)`` from an embedding, present_0 ``(2, B, 2, P + S, 4)`` = past_0 + new keys."""
    nodes = [helper.make_node("Gather", ["table", "input_ids"], ["logits"]),
             helper.make_node("Gather", ["kvt", "input_ids"], ["kv"]),
             helper.make_node("Reshape", ["kv", "shp"], ["kv5"]),
             helper.make_node("Transpose", ["kv5"], ["kvt5"], perm=[2, 0, 3, 1, 4]),
             helper.make_node("Concat", ["past_0", "kvt5"], ["present_0"], axis=3)]
    inits = [w("table", V, V), w("kvt", V, 16), array("shp", np.array([0, 0, 2, 2, 4], np.int64))]
    ins = [tensor("input_ids", ["B", "S"], I32), tensor("position_ids", ["B", "S"], I32),
           tensor("attention_mask", ["B", "T"], I32), tensor("past_0", [2, "B", 2, "P", 4])]
    outs = [tensor("logits", ["B", "S", V]), tensor("present_0", [2, "B", 2, "T", 4])]
    return helper.make_graph(nodes, "decoder", ins, outs, inits)


def generation(op: str, ins: list[str], outs: list[str], **attrs: object) -> onnx.NodeProto:
    return ms(op, ins, outs, decoder=gpt_decoder(), eos_token_id=V - 1, pad_token_id=V - 1, **attrs)


def feeds(b: int, s: int, max_length: int | None = None) -> dict[str, np.ndarray]:
    out = {"ids": np.zeros((b, s), np.int32)}
    if max_length is not None:
        out["ml"] = np.array([max_length], np.int32)
    return out


BS_ML = [feeds(2, 3, 6), feeds(1, 1, 2), feeds(3, 2, 9)]
RUNTIME_LENGTH = "max_length is fed at run time: a data symbol"
IDS = tensor("ids", ["b", "s"], I32)
ML = tensor("ml", [1], I32)
BEAM_INPUTS = [i32("minl", 1), i32("beams", 3), i32("ret", 2), array("lp", np.array([1.0], np.float32))]
GENERATION = [
    # max_length fed at run time: a data symbol bound to each run's sequences length
    row("GreedySearch-max_length-input", [generation("GreedySearch", ["ids", "ml"], ["seq"])], [IDS, ML], BS_ML,
        outputs=[tensor("seq", None, I32)], inexact=RUNTIME_LENGTH),
    row("GreedySearch-max_length-constant", [generation("GreedySearch", ["ids", "mlc"], ["seq"])], [IDS],
        [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 7}], [i32("mlc", 8)], outputs=[tensor("seq", None, I32)]),
    row("Sampling-max_length-input", [generation("Sampling", ["ids", "ml"], ["seq"], top_p=0.9)], [IDS, ML], BS_ML,
        outputs=[tensor("seq", None, I32)], inexact=RUNTIME_LENGTH),
    # BeamSearch's kernel requires inputs 2 and 5 (BeamSearchBase::Initialize); scores is
    # (max_length - S, B, num_beams, V)
    row("BeamSearch-gpt-scores", [generation("BeamSearch", ["ids", "ml", "minl", "beams", "ret", "lp"],
                                             ["seq", "seq_scores", "scores"])],
        [IDS, ML], BS_ML, BEAM_INPUTS, inexact=RUNTIME_LENGTH,
        outputs=[tensor("seq", None, I32), tensor("seq_scores", None), tensor("scores", None)]),
]


@pytest.mark.parametrize("r", GENERATION)
def test_generation_against_onnxruntime(r: Row) -> None:
    run_row(r)


def test_generation_sizes_are_the_inputs_values() -> None:
    """sequences is ``(B, num_return_sequences, max_length)`` with max_length a data symbol when
    fed at run time; the vocabulary comes from the decoder's logits (V)."""
    model = GENERATION[3].values[0].model()
    result = analyze_onnx(model)
    seq, scores = result.shape("seq") or (), result.shape("scores") or ()
    assert [str(d) for d in seq[:2]] == ["b", "2"] and [str(d) for d in scores[1:]] == ["b", "3", "10"]
    assert result.symbols()[str(seq[2])]["kind"] == "data"
    assert str(scores[0]) == f"{seq[2]} - s"


# ------------------------------------------------------------------- rotary and LSTM, against onnxruntime
def mrope(ins: list[str], **attrs: object) -> onnx.NodeProto:
    return ms("MRotaryEmbedding", ins, ["y"], **attrs)


BS = [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 5}]
CACHES = [w("cos", 16, 4), w("sin", 16, 4)]
ROTARY = [
    row("MRotaryEmbedding-bsd-sectioned", [mrope(["x", "pos", "cos", "sin"], num_heads=2, mrope_section=[2, 1, 1])],
        [tensor("x", ["b", "s", 16]), tensor("pos", [3, "b", "s"], I64)], BS, CACHES,
        feed=lambda n, shape, dt: np.zeros(shape, dt) if n == "pos" else np.ones(shape, dt)),
    row("MRotaryEmbedding-bnsh-interleaved", [mrope(["x", "pos", "cos", "sin"], mrope_section=[2, 1, 1],
                                                    mrope_layout=1)],
        [tensor("x", ["b", 2, "s", 8]), tensor("pos", [3, "b", "s"], I64)], BS, CACHES,
        feed=lambda n, shape, dt: np.zeros(shape, dt) if n == "pos" else np.ones(shape, dt)),
]
LSTM_SIZES = [{"l": 3, "b": 2, "t": 4}, {"l": 1, "b": 1, "t": 1}, {"l": 5, "b": 3, "t": 2}]
H, M, A = 4, 3, 5  # hidden size, memory depth, attention size


def attn_lstm_row(id: str, dirs: int, aw: int) -> object:
    """AttnLSTM with memory (b, t, M); W's input width is 6 + aw (aw = M without AW)."""
    wrapped = aw or M
    inits = [w("W", dirs, 4 * H, 6 + wrapped), w("R", dirs, 4 * H, H), w("QW", dirs, H, A), w("MW", dirs, M, A),
             w("Vw", dirs, A)]
    ins = ["X", "W", "R", "", "", "", "", "", "QW", "MW", "Vw", "M"]
    if aw:
        inits.append(w("AW", dirs, M + H, aw))
        ins += ["", "AW"]
    direction = "bidirectional" if dirs == 2 else "forward"
    return row(id, [ms("AttnLSTM", ins, ["Y", "Yh", "Yc"], hidden_size=H, direction=direction)],
               [tensor("X", ["l", "b", 6]), tensor("M", ["b", "t", M])], LSTM_SIZES, inits)


ROTARY += [attn_lstm_row("AttnLSTM-forward-attention-layer", 1, 7),
           attn_lstm_row("AttnLSTM-bidirectional-no-attention-layer", 2, 0)]


@pytest.mark.parametrize("r", ROTARY)
def test_rotary_and_lstm_against_onnxruntime(r: Row) -> None:
    run_row(r)


def test_sparse_attention_against_onnxruntime() -> None:
    """SparseAttention run with present bound to past (I/O binding): output (b, s, N*H) and
    presents of the past's shape (b, N_kv, m, H), at three sizes."""
    node = ms("SparseAttention", ["q", "k", "v", "pk", "pv", "rows", "cols", "tot", "klen"], ["y", "pko", "pvo"],
              num_heads=2, kv_num_heads=1, sparse_block_size=16)
    ins = [tensor("q", ["b", "s", 16]), tensor("k", ["b", "s", 8]), tensor("v", ["b", "s", 8]),
           tensor("pk", ["b", 1, "m", 8]), tensor("pv", ["b", 1, "m", 8]), tensor("tot", [], I32),
           tensor("klen", ["b"], I32)]
    model = make_model([node], ins, [tensor(o, None) for o in ("y", "pko", "pvo")],
                       [array("rows", np.array([[0, 1, 3]], np.int32)), array("cols", np.array([[0, 0, 1]], np.int32))])
    model.opset_import.append(helper.make_opsetid(MS, 1))
    claimed = analyze_onnx(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    for b, s, m in ((2, 3, 8), (1, 1, 4), (3, 5, 16)):
        arrays = {"q": rng.random((b, s, 16)), "k": rng.random((b, s, 8)), "v": rng.random((b, s, 8)),
                  "pk": np.zeros((b, 1, m, 8)), "pv": np.zeros((b, 1, m, 8))}
        values = {k: ort.OrtValue.ortvalue_from_numpy(v.astype(np.float32)) for k, v in arrays.items()}
        values["tot"] = ort.OrtValue.ortvalue_from_numpy(np.array(s, np.int32))
        values["klen"] = ort.OrtValue.ortvalue_from_numpy(np.full(b, s, np.int32))
        io = sess.io_binding()
        for k, v in values.items():
            io.bind_ortvalue_input(k, v)
        io.bind_output("y")
        io.bind_ortvalue_output("pko", values["pk"])
        io.bind_ortvalue_output("pvo", values["pv"])
        sess.run_with_iobinding(io)
        env = {"b": b, "s": s, "m": m}
        for name, got in zip(("y", "pko", "pvo"), io.get_outputs(), strict=True):
            assert [evaluate(d, env) for d in claimed.shape(name) or ()] == list(got.shape()), name


ROWS = GENERATION + ROTARY
_CONTRACT = "tests/rules/onnx_contrib/test_attention_variants.py (onnxruntime has no CPU kernel: the contract)"
ELSEWHERE = {
    **{(MS, op): _CONTRACT for op in (
        "BiasSoftmax", "DecoderAttention", "DecoderMaskedSelfAttention", "DynamicSparseAttention",
        "GatedRelativePositionBias", "GemmaRotaryEmbedding", "LongformerAttention", "PackedAttention",
        "PackedMultiHeadAttention", "PackedSparseAttentionIndexer", "PackedSparseAttentionIndexerMerge",
        "PagedAttention", "RMSNormRotary", "RelativePositionBias", "RemovePadding", "RestorePadding",
        "SparseAttentionIndexer", "SparsePagedAttention", "SpeculativePrefixCommit")},
    (MS, "WhisperBeamSearch"): "tests/rules/onnx_contrib/test_attention_variants.py (needs encoder and decoder "
                               "subgraphs of the whisper layout: the contract)",
    (MS, "SparseAttention"): "tests/rules/onnx_contrib/test_attention_variants.py (run with I/O binding: its kernel "
                             "requires present to share past's buffer)",
}


# --------------------------------------------------------------- contracts (no CPU kernel)
def contract(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
             inits: list[onnx.TensorProto] | None = None) -> dict[str, list[str]]:
    """Analyze a model onnxruntime cannot run on CPU: every node output's dims as text."""
    outs = [o for n in nodes for o in n.output if o]
    model = make_model(nodes, inputs, [tensor(o, None) for o in outs], inits or [], 17)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    assert not result.warnings, [f"{x.op_type}: {x.message}" for x in result.warnings]
    return {o: [str(d) for d in result.shape(o) or ()] for o in outs}


def test_whisper_and_t5_beam_search() -> None:
    """beam_search_parameters.cc: S is decoder_input_ids' length for whisper (input 0 is
    (b, mels, frames)) and 1 for T5; beam_search_impl_whisper.h: cross_qk is (b, R, pairs, T, F)
    with T the decoded steps (a data symbol) and non_speech_probs (b)."""
    consts = [i32("ml", 20), i32("beams", 4), i32("ret", 2), array("lp", np.array([1.0], np.float32))]
    whisper = generation("WhisperBeamSearch", ["feats", "ml", "", "beams", "ret", "lp", "", "", "", "", "dec", "",
                                               "pairs"], ["seq", "ss", "sc", "qk", "nsp"], decoder_output_cross_qk=1)
    t5 = generation("BeamSearch", ["ids", "ml", "", "beams", "ret", "lp"], ["seq5", "ss5", "sc5"], model_type=1)
    inputs = [tensor("feats", ["b", 80, 3000]), tensor("dec", ["b", 4], I32), tensor("pairs", ["k", 2], I32), IDS]
    out = contract([whisper, t5], inputs, consts)
    assert out["seq"] == ["b", "2", "20"] and out["ss"] == ["b", "2"] and out["sc"] == ["16", "b", "4", "10"]
    assert out["qk"][:3] == ["b", "2", "k"] and out["nsp"] == ["b"]
    assert out["seq5"] == ["b", "2", "20"] and out["sc5"] == ["19", "b", "4", "10"]
    model = make_model([whisper], inputs[:3], [tensor("qk", None)], consts, 17)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    assert result.symbols()[str((result.shape("qk") or ())[3])]["kind"] == "data"


def test_packed_and_decoder_attentions() -> None:
    """bert_defs.cc: PackedAttention (t, D_v) with D_v a third of the bias or qkv_hidden_sizes[2];
    PackedMultiHeadAttention (t, D_v) or (t, N*H) for packed QKV; DecoderMaskedSelfAttention
    output (b, 1, D_v) and present = past (cuda/bert/decoder_masked_self_attention.cc);
    LongformerAttention the input's shape."""
    packing = [tensor("off", ["b", "s"], I32), tensor("cum", ["c"], I32)]
    out = contract([ms("PackedAttention", ["x", "w48", "b48", "off", "cum"], ["y1"], num_heads=2),
                    ms("PackedAttention", ["x", "w40", "b40", "off", "cum"], ["y2"], num_heads=2,
                       qkv_hidden_sizes=[16, 16, 8]),
                    ms("PackedMultiHeadAttention", ["q", "q", "v", "", "off", "cum"], ["y3"], num_heads=2),
                    ms("PackedMultiHeadAttention", ["qkv", "", "", "", "off", "cum"], ["y4"], num_heads=2),
                    ms("DecoderMaskedSelfAttention", ["x1", "w48", "b48", "", "past", "", "plen"], ["y5", "pres"],
                       num_heads=2, past_present_share_buffer=1),
                    ms("LongformerAttention", ["xl", "wl", "bl", "mask", "wl", "bl", "glob"], ["y6"], num_heads=2,
                       window=2)],
                   [tensor("x", ["t", 12]), tensor("q", ["t", 16]), tensor("v", ["t", 24]),
                    tensor("qkv", ["t", 2, 3, 8]), tensor("x1", ["b", 1, 12]), tensor("past", [2, "b", 2, "m", 8]),
                    tensor("plen", [1], I32), tensor("xl", ["b", "s", 16]), tensor("mask", ["b", "s"]),
                    tensor("glob", ["b", "s"], I32), *packing],
                   [w("w48", 12, 48), w("b48", 48), w("w40", 12, 40), w("b40", 40), w("wl", 16, 48), w("bl", 48)])
    assert out["y1"] == ["t", "16"] and out["y2"] == ["t", "8"] and out["y3"] == ["t", "24"]
    assert out["y4"] == ["t", "16"] and out["y5"] == ["b", "1", "16"] and out["pres"] == ["2", "b", "2", "m", "8"]
    assert out["y6"] == ["b", "s", "16"]


def test_decoder_attention_cache_length_follows_the_flags() -> None:
    """cuda/bert/decoder_attention.cc: the new caches are (b, N, K, D/N) with K = C + S (self
    attention with a cache), L (cross attention without one); runtime flags make K data."""
    def node(flags: list[str], out: str) -> onnx.NodeProto:
        return ms("DecoderAttention", ["q", "k", "qw", "kvw", "bias", "", "kc", "vc", *flags, "f0"],
                  [f"y_{out}", f"k_{out}", f"v_{out}"], num_heads=2)
    flags = [array("f0", np.array([False])), array("f1", np.array([True]))]
    ins = [tensor("q", ["s", "b", 16]), tensor("k", ["l", "b", 16]), tensor("kc", ["b", 2, "c", 8]),
           tensor("vc", ["b", 2, "c", 8]), tensor("g", [1], B8)]
    inits = [w("qw", 16, 16), w("kvw", 16, 32), w("bias", 48), *flags]
    model = make_model([node(["f0", "f1", "f1"], "self"), node(["f1", "f0", "f0"], "cross"),
                        node(["g", "f1", "f1"], "runtime")], ins,
                       [tensor(f"{p}_{o}", None) for o in ("self", "cross", "runtime") for p in "ykv"], inits)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    shape = {n: [str(d) for d in result.shape(n) or ()] for n in ("y_self", "k_self", "v_cross", "k_runtime")}
    assert shape["y_self"] == ["s", "b", "16"] and shape["k_self"] == ["b", "2", "c + s", "8"]
    assert shape["v_cross"] == ["b", "2", "l", "8"]
    assert result.symbols()[shape["k_runtime"][2]]["kind"] == "data"


def test_padding_and_position_biases() -> None:
    """bert_defs.cc RemovePadding: (T, H), (b, s), (b + 1), (1), with T the sum of the counts;
    RestorePadding (b, s, H); relative_attn_bias.cc: RelativePositionBias (1, N, q, k) from the
    length values, GatedRelativePositionBias (b, N, s, s); BiasSoftmax keeps data's shape."""
    out = contract([ms("RemovePadding", ["x", "cnt"], ["t1", "off1", "cum1", "max1"]),
                    ms("RemovePadding", ["x24", "cnt2"], ["t2", "off2", "cum2", "max2"]),
                    ms("RestorePadding", ["t1", "off1"], ["r1"]),
                    ms("RelativePositionBias", ["table", "ql", "ql"], ["rp"], max_distance=16),
                    ms("GatedRelativePositionBias", ["x", "qb", "rel", "gw", "gb", "eco"], ["g1"], num_heads=2),
                    ms("GatedRelativePositionBias", ["t1", "qb", "rel", "gw", "gb", "eco", "off1"], ["g2"],
                       num_heads=2),
                    ms("BiasSoftmax", ["sc", "bias"], ["sm"], axis=3, is_inner_broadcast=0)],
                   [tensor("x", ["b", "s", 16]), tensor("cnt", ["b"], I32), tensor("x24", [2, 4, 16]),
                    tensor("rel", [1, 2, "s", "s"]), tensor("sc", ["b", 2, "s", "s"]),
                    tensor("bias", ["b", 1, 1, "s"])],
                   [i32("cnt2", 2, 3), w("table", 32, 4), array("ql", np.array(5, np.int64)), w("qb", 16),
                    w("gw", 8, 6), w("gb", 6), w("eco", 1, 2, 1, 1)])
    assert out["t1"][1:] == ["16"] and out["off1"] == ["b", "s"] and out["cum1"] == ["b + 1"]
    assert out["max1"] == ["1"] and out["t2"] == ["5", "16"] and out["r1"] == ["b", "s", "16"]
    assert out["rp"] == ["1", "4", "5", "5"] and out["g1"] == out["g2"] == ["b", "2", "s", "s"]
    assert out["sm"] == ["b", "2", "s", "s"]


def test_rotary_variants_and_prefix_commit() -> None:
    """GemmaRotaryEmbedding keeps q's and k's shapes; RMSNormRotary gives (b, s, heads*width) or
    (1, b*s, heads*width) and (b, s, heads, width) (the schema in the installed onnxruntime);
    SpeculativePrefixCommit: head_c (batch), ctl and ctx_commit shapes kept."""
    rms = ["xr", "scale", "pos", "cos", "cos"]
    out = contract([ms("GemmaRotaryEmbedding", ["emb", "q", "q", "k", "k"], ["gq", "gk"]),
                    ms("RMSNormRotary", rms, ["y1", "n1"], rotary_embedding_dim=8, input_start=2, input_width=16),
                    ms("RMSNormRotary", rms, ["y2"], rotary_embedding_dim=8, input_start=2, input_width=16,
                       flatten_batch=1),
                    ms("SpeculativePrefixCommit", ["nt", "ids", "st", "ctl", "cc", "pre", "ptr"],
                       ["hc", "ctl2", "cc2"]),
                    ms("SpeculativePrefixCommit", ["nt1", "ids", "st", "ctl", "cc", "pre", "ptr"], ["hc1"])],
                   [tensor("emb", ["b", "s", 8]), tensor("q", ["b", 2, "s", 8]), tensor("k", ["b", 1, "s", 8]),
                    tensor("xr", ["b", "s", 3, 20]), tensor("pos", ["b", "s"], I64), tensor("nt", ["n", 8], I64),
                    tensor("nt1", [8], I64), tensor("ids", ["n", 9], I64), tensor("st", [4], I32),
                    tensor("ctl", ["n", 16], I64), tensor("cc", ["n", 2], I64), tensor("pre", ["n", 16], I64),
                    tensor("ptr", [2], I64)],
                   [w("scale", 16), w("cos", 64, 4)])
    assert out["gq"] == ["b", "2", "s", "8"] and out["gk"] == ["b", "1", "s", "8"]
    assert out["y1"] == ["b", "s", "48"] and out["n1"] == ["b", "s", "3", "16"] and out["y2"] == ["1", "b*s", "48"]
    assert out["hc"] == ["n"] and out["ctl2"] == ["n", "16"] and out["cc2"] == ["n", "2"] and out["hc1"] == ["1"]


def test_paged_and_dynamic_sparse_attention() -> None:
    """bert_defs.cc PagedAttentionTypeAndShapeInference: (t, N*H) unpacked, packed and LATENT
    (t, N*v_head_size), the caches aliased; SparsePagedAttention (t, N*H);
    dynamic_sparse_attention_helper.h: presents (b, N_kv, capacity, H), capacity the past's or
    total_sequence_length's value."""
    paged = ["cum", "sl", "table"]
    caches = ["kc", "vc"]
    out = contract([ms("PagedAttention", ["q", "kv", "kv", *caches, *paged], ["p1", "kc1", "vc1"], num_heads=2,
                       kv_num_heads=1),
                    ms("PagedAttention", ["qkv", "", "", *caches, *paged], ["p2"], num_heads=2, kv_num_heads=1),
                    ms("PagedAttention", ["ql", "kv", "", "kc", "", *paged], ["p3", "kc3"], num_heads=2,
                       kv_num_heads=1, kv_cache_layout="LATENT", v_head_size=4, scale=0.1),
                    ms("SparsePagedAttention", ["q", "kv", "kv", *caches, *paged, "", "sel", "cnt"], ["p4"],
                       num_heads=2, kv_num_heads=1),
                    ms("DynamicSparseAttention", ["dq", "dk", "dk", "pk", "pk", "", "", "dsel", "dcnt", "dsl", "tot"],
                       ["d1", "dpk", "dpv"], num_heads=4, kv_num_heads=2),
                    ms("DynamicSparseAttention", ["dq", "dk", "dk", "", "", "", "", "dsel", "dcnt", "dsl", "nine"],
                       ["d2", "dpk2"], num_heads=4, kv_num_heads=2)],
                   [tensor("q", ["t", 16]), tensor("kv", ["t", 8]), tensor("qkv", ["t", 32]), tensor("ql", ["t", 24]),
                    tensor("kc", ["nb", 16, 1, 8]), tensor("vc", ["nb", 16, 1, 8]), tensor("cum", ["c"], I32),
                    tensor("sl", ["n"], I32), tensor("table", ["n", "mb"], I32), tensor("sel", ["t", 6], I32),
                    tensor("cnt", ["t"], I32), tensor("dq", ["b", "s", 32]), tensor("dk", ["b", "s", 16]),
                    tensor("pk", ["b", 2, "m", 8]), tensor("dsel", ["r", 7], I32), tensor("dcnt", ["r"], I32),
                    tensor("dsl", ["b"], I32), tensor("tot", [], I32)],
                   [i32("nine", 9)])
    assert out["p1"] == out["p2"] == out["p4"] == ["t", "16"] and out["p3"] == ["t", "8"]
    assert out["kc1"] == out["vc1"] == out["kc3"] == ["nb", "16", "1", "8"]
    assert out["d1"] == out["d2"] == ["b", "s", "32"] and out["dpk"] == out["dpv"] == ["b", "2", "m", "8"]
    assert out["dpk2"] == ["b", "2", "9", "8"]


def csa_reference(buffered: int, seq: int, ratio: int) -> tuple[int, int]:
    """TryComputeCsaWindowPlan (contrib_ops/cpu/sparse/sparse_attention_indexer_common.h),
    transcribed: (new_window_count, present_buffer_length)."""
    overlap = ratio if buffered >= ratio else 0
    pending = buffered - overlap + seq
    new = pending // ratio
    return new, (ratio + pending % ratio) if new > 0 else buffered + seq


def test_sparse_attention_indexers() -> None:
    """The installed schema: SparseAttentionIndexer selected (b, s, capacity), present_key
    (b, p + s, H) for "qsa" and (b, p + n, H) for "csa" with the window plan's n and buffer
    length; PackedSparseAttentionIndexer (t, capacity), (t), the state shapes kept, state_update
    (b, state_update_capacity, H); the Merge (n, max_output_entries), (n), (n)."""
    common = ["q", "key", "nw", "nw", "cos", "cos"]
    out = contract([ms("SparseAttentionIndexer", [*common, "", "pk"], ["sel1", "pk1"], policy_mode="qsa",
                       token_budget=8, compress_ratio=4),
                    ms("SparseAttentionIndexer", ["q7", "key7", "nw", "nw", "cos", "cos", "", "pk", "", "", "", "",
                                                  "", "buf"], ["sel2", "pk2", "buf2"], policy_mode="csa",
                       index_topk=3, compress_ratio=4),
                    ms("SparseAttentionIndexer", [*common, "", "pk", "", "", "", "", "plen"], ["sel3", "pk3"],
                       policy_mode="qsa", token_budget=8, compress_ratio=4),
                    ms("PackedSparseAttentionIndexer", ["pq", "pkey", "nw", "nw", "cos", "cos", "cum", "psl", "", "",
                                                        "", "", "state", "pbuf", "", "lens"],
                       ["psel", "pcnt", "pst", "pbf", "", "plens", "upd"], policy_mode="qsa", token_budget=8,
                       compress_ratio=4, state_capacity=32, state_update_capacity=2),
                    ms("PackedSparseAttentionIndexerMerge", ["base", "bcnt", "rows", "st", "st"], ["m1", "m2", "m3"],
                       policy_mode="append_range", max_output_entries=16)],
                   [tensor("q", ["b", "s", 16]), tensor("key", ["b", "s", 8]), tensor("pk", ["b", "p", 8]),
                    tensor("q7", ["b", 7, 16]), tensor("key7", ["b", 7, 16]), tensor("buf", [2, "b", 5, 16]),
                    tensor("plen", [1], I32), tensor("pq", ["t", 16]), tensor("pkey", ["t", 8]),
                    tensor("cum", ["c"], I32), tensor("psl", ["b"], I32), tensor("state", ["b", 32, 8]),
                    tensor("pbuf", ["b", 7, 8]), tensor("lens", ["b", 2], I32), tensor("base", ["r", "w"], I32),
                    tensor("bcnt", ["r"], I32), tensor("rows", ["n"], I32), tensor("st", ["n"], I32)],
                   [w("nw", 8), w("cos", 64, 4)])
    assert out["sel1"] == ["b", "s", "11"] and out["pk1"] == ["b", "p + s", "8"]
    assert csa_reference(5, 7, 4) == (2, 4)  # 5 buffered: 4 overlap + 1 leftover; 8 pending
    assert out["sel2"] == ["b", "7", "3"] and out["pk2"] == ["b", "p + 2", "8"] and out["buf2"] == ["2", "b", "4", "16"]
    assert out["sel3"] == ["b", "s", "11"] and out["pk3"] == ["b", "p", "8"]
    assert out["psel"] == ["t", "11"] and out["pcnt"] == ["t"] and out["pst"] == ["b", "32", "8"]
    assert out["pbf"] == ["b", "7", "8"] and out["plens"] == ["b", "2"] and out["upd"] == ["b", "2", "8"]
    assert out["m1"] == ["n", "16"] and out["m2"] == out["m3"] == ["n"]


@pytest.mark.parametrize("buffered", [None, 0, 3, 4, 7])
def test_csa_window_plan_matches_the_kernel(buffered: int | None) -> None:
    """The "csa" present_key and present_proj_buffer lengths for a symbolic sequence length equal
    the transcribed window plan at every s in [0, 20) (no buffer input: 0 buffered)."""
    ins = ["q", "key", "nw", "nw", "cos", "cos", "", "pk", "", "", "", "", "", "buf" if buffered is not None else ""]
    inputs = [tensor("q", ["b", "s", 16]), tensor("key", ["b", "s", 16]), tensor("pk", ["b", "p", 8])]
    if buffered is not None:
        inputs.append(tensor("buf", [2, "b", buffered, 16]))
    model = make_model([ms("SparseAttentionIndexer", ins, ["sel", "pres", "pbuf"], policy_mode="csa", index_topk=3,
                           compress_ratio=4)], inputs, [tensor(o, None) for o in ("sel", "pres", "pbuf")],
                       [w("nw", 8), w("cos", 64, 4)], 17)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    pres, pbuf = result.shape("pres") or (), result.shape("pbuf") or ()
    for s in range(20):
        new, length = csa_reference(buffered or 0, s, 4)
        env = {"b": 2, "s": s, "p": 5}
        assert (evaluate(pres[1], env), evaluate(pbuf[2], env)) == (5 + new, length), s


# --------------------------------------------------------------------------- malformed models
def analyze(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
            inits: list[onnx.TensorProto] | None = None) -> None:
    model = make_model(nodes, inputs, [tensor(o, None) for n in nodes for o in n.output if o], inits or [], 17)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    analyze_onnx(model)


X3 = tensor("x", ["b", "s", 16])
MALFORMED = [
    # generation: model_type 3; whisper with 2-D features; max_length above 4096; returns > beams
    ([generation("BeamSearch", ["x2", "ml"], ["y"], model_type=3)], [tensor("x2", ["b", "s"], I32)], [i32("ml", 9)]),
    ([generation("WhisperBeamSearch", ["x2", "ml", "", "ml", "ml"], ["y"])], [tensor("x2", ["b", "s"])],
     [i32("ml", 9)]),
    ([generation("GreedySearch", ["x2", "ml"], ["y"])], [tensor("x2", ["b", 3], I32)], [i32("ml", 5000)]),
    ([generation("BeamSearch", ["x2", "ml", "", "one", "ml"], ["y"])], [tensor("x2", ["b", 3], I32)],
     [i32("ml", 9), i32("one", 1)]),
    ([generation("WhisperBeamSearch", ["x3", "ml", "", "ml", "ml"], ["y", "", "", "qk"], decoder_output_cross_qk=1)],
     [tensor("x3", ["b", 80, 30])], [i32("ml", 9)]),
    # attention variants: no shared buffer; a 3-D packed input; no window; 3-D RestorePadding offsets
    ([ms("DecoderMaskedSelfAttention", ["x", "w", "b", "", "p", "", "l"], ["y", "pr"], num_heads=2)],
     [X3, tensor("w", [16, 48]), tensor("b", [48]), tensor("p", [2, "b", 2, "m", 8]), tensor("l", [1], I32)], []),
    ([ms("PackedAttention", ["x", "w", "b", "o", "c"], ["y"], num_heads=2)],
     [X3, tensor("w", [16, 48]), tensor("b", [48]), tensor("o", ["b", "s"], I32), tensor("c", ["c"], I32)], []),
    ([ms("LongformerAttention", ["x", "w", "b", "m", "w", "b", "m"], ["y"], num_heads=2)],
     [X3, tensor("w", [16, 48]), tensor("b", [48]), tensor("m", ["b", "s"])], []),
    ([ms("RestorePadding", ["x", "x"], ["y"])], [X3], []),
    # sparse: an unknown policy; a token budget that is no multiple of the ratio; a bad merge policy
    ([ms("SparseAttentionIndexer", ["x", "", "n", "n", "c", "c", "", "p"], ["s", "k"], policy_mode="dsa",
         compress_ratio=4)], [X3, tensor("n", [8]), tensor("c", [8, 4]), tensor("p", ["b", 2, 8])], []),
    ([ms("SparseAttentionIndexer", ["x", "", "n", "n", "c", "c", "", "p"], ["s", "k"], policy_mode="qsa",
         compress_ratio=4, token_budget=6)], [X3, tensor("n", [8]), tensor("c", [8, 4]), tensor("p", ["b", 2, 8])],
     []),
    ([ms("PackedSparseAttentionIndexerMerge", ["r", "n", "n"], ["a", "b", "c"], policy_mode="union",
         max_output_entries=4)], [tensor("r", ["n", 3], I32), tensor("n", ["n"], I32)], []),
    # rotary and LSTM: two M-RoPE sections; an odd rotary width; an unknown direction
    ([ms("MRotaryEmbedding", ["x", "p", "c", "c"], ["y"], num_heads=2, mrope_section=[2, 2])],
     [X3, tensor("p", [3, "b", "s"], I64), tensor("c", [8, 4])], []),
    ([ms("RMSNormRotary", ["x4", "sc", "p", "c", "c"], ["y"], rotary_embedding_dim=7)],
     [tensor("x4", ["b", "s", 2, 16]), tensor("sc", [16]), tensor("p", [1], I64), tensor("c", [8, 4])], []),
    ([ms("AttnLSTM", ["x", "w", "w", "", "", "", "", "", "w", "w", "w", "x"], ["y"], hidden_size=4,
         direction="sideways")], [X3, tensor("w", [1, 16, 4])], []),
]


@pytest.mark.parametrize("case", MALFORMED, ids=[f"{c[0][0].op_type}-{i}" for i, c in enumerate(MALFORMED)])
def test_malformed_models_raise_model_errors(
    case: tuple[list[onnx.NodeProto], list[onnx.ValueInfoProto], list[onnx.TensorProto]]
) -> None:
    nodes, inputs, inits = case
    with pytest.raises(ModelError):
        analyze(nodes, inputs, inits)


def test_mismatched_sizes_are_contradictions() -> None:
    """Sizes the kernels require equal: RelativePositionBias' query and key lengths, SparseAttention's
    past key and value, AttnLSTM's gate rows (4 * hidden_size)."""
    bad = [
        ([ms("RelativePositionBias", ["t", "q", "k"], ["y"], max_distance=8)], [tensor("t", [32, 4])],
         [array("q", np.array(5, np.int64)), array("k", np.array(6, np.int64))]),
        ([ms("SparseAttention", ["q", "", "", "pk", "pv", "r", "r", "n", "n"], ["y", "a", "c"], num_heads=2,
             kv_num_heads=1, sparse_block_size=16)],
         [tensor("q", ["b", "s", 32]), tensor("pk", ["b", 1, 8, 8]), tensor("pv", ["b", 1, 9, 8]),
          tensor("r", [1, 3], I32), tensor("n", ["b"], I32)], []),
        ([ms("AttnLSTM", ["x", "w", "r", "", "", "", "", "", "qw", "mw", "v", "m"], ["y"], hidden_size=4)],
         [tensor("x", ["l", "b", 6]), tensor("w", [1, 12, 9]), tensor("r", [1, 16, 4]), tensor("qw", [1, 4, 5]),
          tensor("mw", [1, 3, 5]), tensor("v", [1, 5]), tensor("m", ["b", "t", 3])], []),
    ]
    for nodes, inputs, inits in bad:
        with pytest.raises(ContradictionError):
            analyze(nodes, inputs, inits)
