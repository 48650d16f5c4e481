"""com.microsoft fused ops, checked against onnxruntime.

The oracle runs each model with onnxruntime at several concrete sizes, with every node output
exposed as a graph output, and compares each observed shape with symshape's symbolic dims
evaluated at the same sizes. Models: tiny BERT / GPT-2 exported by torch and fused by
onnxruntime's transformer optimizer (committed under tests/contrib_models/, made by
scripts/make_contrib_models.py), and single-op models built here with onnx.helper.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from symshape.algebra.expr import evaluate
from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import ContradictionError, ModelError
from symshape.rules.registry import ONNX, lookup
from tests.paths import ROOT, TESTS

MODELS = TESTS / "contrib_models"
SCRIPT = ROOT / "scripts" / "make_contrib_models.py"
MS = "com.microsoft"
F, I32, I64, U8 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8
Env = Mapping[str, int]


# --------------------------------------------------------------------------- the oracle
def observed_shapes(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, tuple[int, ...]]:
    """Run ``model`` with every node output exposed; the shape of each value."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    have = {o.name for o in copy.graph.output}
    for node in copy.graph.node:
        for name in node.output:
            if name and name not in have:
                copy.graph.output.append(onnx.ValueInfoProto(name=name))
                have.add(name)
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(copy.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return {n: tuple(v.shape) for n, v in zip(names, sess.run(names, dict(feeds)), strict=True)}


@dataclass
class Score:
    """Dims compared with the oracle: correct, unsound (wrong) and unresolved (not expressed)."""

    correct: int = 0
    unsound: list[str] = field(default_factory=list[str])
    unresolved: list[str] = field(default_factory=list[str])


def score(result: Analysis, observed: Mapping[str, tuple[int, ...]], env: Env, into: Score) -> Score:
    """Evaluate every symbolic dim at ``env`` and compare with the observed shapes."""
    for name, shape in observed.items():
        predicted = result.shape(name)
        if predicted is None:
            into.unresolved.append(f"{name}: no shape")
            continue
        if len(predicted) != len(shape):
            into.unsound.append(f"{name}: rank {len(predicted)} vs observed {shape} at {dict(env)}")
            continue
        for axis, (d, seen) in enumerate(zip(predicted, shape, strict=True)):
            try:
                value = evaluate(d, env)
            except KeyError:
                into.unresolved.append(f"{name}[{axis}] = {d}")
                continue
            if value == seen:
                into.correct += 1
            else:
                into.unsound.append(f"{name}[{axis}] = {d} = {value}, observed {seen} at {dict(env)}")
    return into


def env_of(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, int]:
    """The input dim_params' sizes in ``feeds``."""
    env: dict[str, int] = {}
    for vi in model.graph.input:
        if vi.name in feeds:
            for axis, d in enumerate(vi.type.tensor_type.shape.dim):
                if d.dim_param:
                    env[d.dim_param] = feeds[vi.name].shape[axis]
    return env


def contrib_warnings(result: Analysis) -> list[str]:
    """Warnings (fallbacks) of com.microsoft ops."""
    contrib = {op.name for op in result.program.ops if op.dialect == MS}
    return [f"{w.op_type} '{w.op_name}': {w.message}" for w in result.warnings if w.op_name in contrib]


def check_model(model: onnx.ModelProto, samples: Sequence[Mapping[str, np.ndarray]]) -> Score:
    """Analyze once, compare at every sample; no unsound dim, no contrib fallback."""
    result = analyze_onnx(model)
    assert contrib_warnings(result) == []
    total = Score()
    for feeds in samples:
        score(result, observed_shapes(model, feeds), env_of(model, feeds), total)
    assert total.unsound == [], total.unsound[:10]
    return total


# ------------------------------------------------------------------ the fused models
RNG = np.random.default_rng(0)
SIZES = [(2, 7), (3, 5), (1, 9), (4, 1), (1, 1)]  # (batch, seq): distinct, then the edges


def bert_feeds(batch: int, seq: int) -> dict[str, np.ndarray]:
    mask = np.ones((batch, seq), np.int64)
    if seq > 2:
        mask[0, -1] = 0  # a padded position
    return {"input_ids": RNG.integers(0, 100, (batch, seq)), "attention_mask": mask,
            "token_type_ids": RNG.integers(0, 2, (batch, seq))}


def gpt2_feeds(batch: int, seq: int) -> dict[str, np.ndarray]:
    return {"input_ids": RNG.integers(0, 100, (batch, seq)), "attention_mask": np.ones((batch, seq), np.int64)}


FUSED = [
    ("bert_fused.onnx", bert_feeds, {"Attention", "SkipLayerNormalization", "EmbedLayerNormalization", "BiasGelu"}),
    ("bert_mha.onnx", bert_feeds, {"MultiHeadAttention", "SkipLayerNormalization", "FastGelu"}),
    ("gpt2_fused.onnx", gpt2_feeds, {"SkipLayerNormalization", "FastGelu"}),
]


def fused_ops(model: onnx.ModelProto) -> set[str]:
    return {n.op_type for n in model.graph.node if n.domain == MS}


def check_fused(path: Path, feeds: Callable[[int, int], dict[str, np.ndarray]], ops: set[str]) -> Score:
    model = onnx.load(str(path))
    assert ops <= fused_ops(model)
    total = check_model(model, [feeds(b, s) for b, s in SIZES])
    assert total.unresolved == []
    assert analyze_onnx(model).dim_kinds()["fresh"] == 0
    return total


@pytest.mark.parametrize(("name", "feeds", "ops"), FUSED, ids=[f[0] for f in FUSED])
def test_fused_model_matches_onnxruntime(name: str, feeds: Callable[..., dict[str, np.ndarray]], ops: set[str]) -> None:
    total = check_fused(MODELS / name, feeds, ops)
    assert total.correct > 100


def test_fused_bert_dims_are_the_declared_symbols() -> None:
    result = analyze_onnx(MODELS / "bert_fused.onnx")
    attention = [op for op in result.program.ops if op.op_type == "Attention"]
    assert attention
    for op in attention:
        assert [str(d) for d in result.shape(op.outputs[0]) or ()] == ["batch", "seq", "32"]
    embed = next(op for op in result.program.ops if op.op_type == "EmbedLayerNormalization")
    assert [str(d) for d in result.shape(embed.outputs[1]) or ()] == ["batch"]


@pytest.mark.needs_torch
@pytest.mark.slow
def test_regenerated_models_match_onnxruntime(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_contrib_models", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    script.main(tmp_path)
    for name, feeds, ops in FUSED:
        check_fused(tmp_path / name, feeds, ops)


# ------------------------------------------------------------------- single-op models
def vi(name: str, elem: int, dims: Sequence[int | str]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, list(dims))


def single_op_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    inits: Mapping[str, np.ndarray] | None = None,
) -> onnx.ModelProto:
    outs = [o for o in nodes[-1].output if o]
    graph = helper.make_graph(list(nodes), "g", list(inputs), [helper.make_tensor_value_info(o, F, None) for o in outs],
                              initializer=[numpy_helper.from_array(v, k) for k, v in (inits or {}).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    model.ir_version = 10
    return model


def feeds_for(model: onnx.ModelProto, env: Env, ints: Mapping[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """Random inputs of the declared shapes at ``env``; ``ints`` overrides (index-like) inputs."""
    out: dict[str, np.ndarray] = {}
    for v in model.graph.input:
        if ints and v.name in ints:
            out[v.name] = ints[v.name]
            continue
        tt = v.type.tensor_type
        shape = tuple(d.dim_value if d.HasField("dim_value") else env[d.dim_param] for d in tt.shape.dim)
        dtype = helper.tensor_dtype_to_np_dtype(tt.elem_type)
        out[v.name] = RNG.random(shape).astype(dtype) if dtype.kind == "f" else np.ones(shape, dtype)
    return out


def ms_node(op: str, ins: Sequence[str], outs: Sequence[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, list(ins), list(outs), domain=MS, **attrs)


N, H = 2, 8
D = N * H


def test_multi_head_attention_with_past() -> None:
    node = ms_node("MultiHeadAttention", ["q", "k", "v", "bias", "", "", "pk", "pv"],
                   ["out", "present_k", "present_v", "qk"], num_heads=N)
    model = single_op_model([node], [
        vi("q", F, ["b", "s", D]), vi("k", F, ["b", "s", D]), vi("v", F, ["b", "s", D]),
        vi("pk", F, ["b", N, "p", H]), vi("pv", F, ["b", N, "p", H]),
    ], {"bias": RNG.random(3 * D).astype(np.float32)})
    envs = [{"b": 2, "s": 3, "p": 5}, {"b": 3, "s": 1, "p": 4}, {"b": 1, "s": 1, "p": 1}, {"b": 1, "s": 4, "p": 0}]
    total = check_model(model, [feeds_for(model, e) for e in envs])
    assert total.unresolved == [] and total.correct == 4 * 15
    result = analyze_onnx(model)
    assert [str(d) for d in result.shape("present_k") or ()] == ["b", "2", "p + s", "8"]


def test_multi_head_attention_cross_and_cache_layouts() -> None:
    cross = single_op_model([ms_node("MultiHeadAttention", ["q", "k", "v"], ["out", "pk", "pv"], num_heads=N)], [
        vi("q", F, ["b", "s", D]), vi("k", F, ["b", "l", D]), vi("v", F, ["b", "l", 24])])
    envs = [{"b": 2, "s": 3, "l": 5}, {"b": 1, "s": 1, "l": 1}, {"b": 3, "s": 4, "l": 1}]
    assert check_model(cross, [feeds_for(cross, e) for e in envs]).unresolved == []
    assert [str(d) for d in analyze_onnx(cross).shape("pv") or ()] == ["b", "2", "l", "12"]
    cache = single_op_model([ms_node("MultiHeadAttention", ["q", "k", "v"], ["out", "pk", "pv"], num_heads=N)], [
        vi("q", F, ["b", "s", D]), vi("k", F, ["b", N, "l", H]), vi("v", F, ["b", N, "l", H])])
    assert check_model(cache, [feeds_for(cache, e) for e in envs]).unresolved == []


def test_attention_with_past_mask_and_qkv_sizes() -> None:
    w = RNG.random((12, 3 * D)).astype(np.float32)
    node = ms_node("Attention", ["x", "w", "bias", "mask", "past"], ["out", "present"], num_heads=N, unidirectional=1)
    model = single_op_model([node], [vi("x", F, ["b", "s", 12]), vi("mask", I32, ["b", "t"]),
                                     vi("past", F, [2, "b", N, "p", H])],
                            {"w": w, "bias": RNG.random(3 * D).astype(np.float32)})
    envs = [{"b": 2, "s": 3, "p": 5, "t": 8}, {"b": 1, "s": 1, "p": 0, "t": 1}, {"b": 3, "s": 1, "p": 6, "t": 7}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    sized = ms_node("Attention", ["x", "w", "bias"], ["out", "present"], num_heads=N, qkv_hidden_sizes=[D, D, 24])
    model = single_op_model([sized], [vi("x", F, ["b", "s", 12])],
                            {"w": RNG.random((12, 2 * D + 24)).astype(np.float32),
                             "bias": RNG.random(2 * D + 24).astype(np.float32)})
    envs = [{"b": 2, "s": 3}, {"b": 1, "s": 1}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    result = analyze_onnx(model)
    assert [str(d) for d in result.shape("out") or ()] == ["b", "s", "24"]
    assert [str(d) for d in result.shape("present") or ()] == ["2", "b", "2", "s", "12"]


def _gqa_model(packed: bool) -> onnx.ModelProto:
    """GQA fed the way exporters do: total_sequence_length = Shape(mask)[1], seqlens_k from the mask."""
    kv = 2 * 16
    q_width = (4 + 4) * 16 if packed else 4 * 16
    nodes = [
        helper.make_node("Shape", ["mask"], ["mask_shape"]),
        helper.make_node("Gather", ["mask_shape", "one"], ["t64"], axis=0),
        helper.make_node("Cast", ["t64"], ["total"], to=I32),
        helper.make_node("ReduceSum", ["mask", "axes"], ["lens"], keepdims=0),
        helper.make_node("Sub", ["lens", "one"], ["lens1"]),
        helper.make_node("Cast", ["lens1"], ["seqlens_k"], to=I32),
        ms_node("GroupQueryAttention", ["q", "" if packed else "k", "" if packed else "v", "pk", "pv",
                                        "seqlens_k", "total"], ["out", "present_k", "present_v"],
                num_heads=4, kv_num_heads=2),
    ]
    inputs = [vi("q", F, ["b", "s", q_width]), vi("pk", F, ["b", 2, "p", 16]), vi("pv", F, ["b", 2, "p", 16]),
              vi("mask", I64, ["b", "t"])]
    if not packed:
        inputs += [vi("k", F, ["b", "s", kv]), vi("v", F, ["b", "s", kv])]
    return single_op_model(nodes, inputs, {"one": np.array(1, np.int64), "axes": np.array([1], np.int64)})


@pytest.mark.parametrize("packed", [False, True], ids=["separate", "packed"])
def test_group_query_attention_present_length(packed: bool) -> None:
    model = _gqa_model(packed)
    # prompt (t = s, no past), decoding (t = p + 1), a static cache (t <= p), the edges
    envs = [{"b": 2, "s": 3, "p": 0, "t": 3}, {"b": 2, "s": 1, "p": 5, "t": 6}, {"b": 1, "s": 3, "p": 5, "t": 8},
            {"b": 2, "s": 1, "p": 8, "t": 5}, {"b": 1, "s": 1, "p": 0, "t": 1}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    assert [str(d) for d in analyze_onnx(model).shape("present_k") or ()] == ["b", "2", "Max(p, t)", "16"]


def test_group_query_attention_untracked_total_is_a_data_symbol() -> None:
    node = ms_node("GroupQueryAttention", ["q", "k", "v", "", "", "seqlens_k", "total"], ["out", "pk", "pv"],
                   num_heads=4, kv_num_heads=2)
    model = single_op_model([node], [vi("q", F, ["b", "s", 64]), vi("k", F, ["b", "s", 32]),
                                     vi("v", F, ["b", "s", 32]), vi("seqlens_k", I32, ["b"]), vi("total", I32, [])])
    result = analyze_onnx(model)
    assert contrib_warnings(result) == []
    present = result.shape("pk") or ()
    assert [str(d) for d in present[:2]] == ["b", "2"] and present[3] == 16
    assert result.dim_kinds()["fresh"] >= 1
    envs = [{"b": 2, "s": 3}, {"b": 1, "s": 1}]
    for e in envs:
        ints = {"seqlens_k": np.full(e["b"], e["s"] - 1, np.int32), "total": np.array(e["s"], np.int32)}
        feeds = feeds_for(model, e, ints)
        found = score(result, observed_shapes(model, feeds), e, Score())
        assert found.unsound == []


def test_rotary_embedding_keeps_the_input_shape() -> None:
    cache = {"cos": RNG.random((32, 8)).astype(np.float32), "sin": RNG.random((32, 8)).astype(np.float32)}
    for x_dims, attrs in ((["b", "s", 32], {"num_heads": 2}), (["b", 2, "s", 16], {})):
        node = ms_node("RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"], **attrs)
        model = single_op_model([node], [vi("x", F, x_dims), vi("pos", I64, ["b", "s"])], cache)
        envs = [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 3, "s": 5}]
        feeds = [feeds_for(model, e, {"pos": np.zeros((e["b"], e["s"]), np.int64)}) for e in envs]
        assert check_model(model, feeds).unresolved == []


def test_matmul_nbits_output_is_n_wide() -> None:
    node = ms_node("MatMulNBits", ["a", "B", "scales"], ["y"], K=32, N=10, bits=4, block_size=16)
    model = single_op_model([node], [vi("a", F, ["b", "s", 32])],
                            {"B": np.zeros((10, 2, 8), np.uint8), "scales": RNG.random((10, 2)).astype(np.float32)})
    envs = [{"b": 2, "s": 3}, {"b": 1, "s": 1}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    assert [str(d) for d in analyze_onnx(model).shape("y") or ()] == ["b", "s", "10"]


@pytest.mark.parametrize("op", ["SkipLayerNormalization", "SkipSimplifiedLayerNormalization"])
@pytest.mark.parametrize("rank", [2, 3])
def test_skip_norms_with_all_outputs(op: str, rank: int) -> None:
    x_dims = ["b", "s", 16] if rank == 3 else ["n", 16]
    skip_dims = ["s", 16] if rank == 3 else ["n", 16]
    ins = ["x", "skip", "gamma", "beta", "bias"] if op == "SkipLayerNormalization" else ["x", "skip", "gamma", "bias"]
    inits = {n: RNG.random(16).astype(np.float32) for n in ins[2:]}
    node = ms_node(op, ins, ["y", "mean", "inv_std", "sum"])
    model = single_op_model([node], [vi("x", F, x_dims), vi("skip", F, skip_dims)], inits)
    envs = [{"b": 2, "s": 3, "n": 5}, {"b": 1, "s": 1, "n": 1}, {"b": 4, "s": 1, "n": 2}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    assert [str(d) for d in analyze_onnx(model).shape("mean") or ()] == [*x_dims[:-1], "1"]


def test_decoder_masked_mha_shares_the_cache() -> None:
    node = ms_node("DecoderMaskedMultiHeadAttention", ["q", "k", "v", "", "", "pk", "pv", "past_len"],
                   ["out", "present_k", "present_v", "qk"], num_heads=N, past_present_share_buffer=1, output_qk=1)
    model = single_op_model([node], [vi("q", F, ["b", "s", D]), vi("k", F, ["b", 1, D]), vi("v", F, ["b", 1, D]),
                                     vi("pk", F, ["b", N, "m", H]), vi("pv", F, ["b", N, "m", H])],
                            {"past_len": np.array([3], np.int32)})
    envs = [{"b": 2, "m": 9, "s": 1}, {"b": 1, "m": 4, "s": 1}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    assert shape_of(model, "qk") == ["b", "2", "1", "4"]  # past_sequence_length + 1


def test_fused_matmul_transposes() -> None:
    cases = [  # (a dims, b dims, attrs)
        (["b", "m", "k"], ["b", "k", "n"], {}),
        (["b", "m", "k"], ["k", "b", "n"], {"transBatchB": 1}),
        (["b", "m", "k"], ["n", "b", "k"], {"transBatchB": 1, "transB": 1}),
        (["m", "b", "k"], ["b", "k", "n"], {"transBatchA": 1}),
        (["b", "k", "m"], ["b", "n", "k"], {"transA": 1, "transB": 1}),
        (["k"], ["k", "n"], {"transA": 1}),
    ]
    envs = [{"b": 2, "m": 3, "k": 4, "n": 5}, {"b": 1, "m": 1, "k": 1, "n": 1}]
    for a, b, attrs in cases:
        model = single_op_model([ms_node("FusedMatMul", ["a", "bb"], ["y"], alpha=1.0, **attrs)],
                                [vi("a", F, a), vi("bb", F, b)])
        assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == [], (a, b, attrs)


def test_gelus_and_embed_layer_norm() -> None:
    nodes = [ms_node("EmbedLayerNormalization", ["ids", "seg", "we", "pe", "se", "g", "beta", "mask"],
                     ["e", "mask_index", "emb_sum"]),
             ms_node("Gelu", ["e"], ["g1"]), ms_node("QuickGelu", ["g1"], ["g2"], alpha=1.702),
             ms_node("BiasGelu", ["g2", "bias"], ["g3"]), ms_node("FastGelu", ["g3", "bias"], ["g4"])]
    inits = {"we": RNG.random((20, 16)).astype(np.float32), "pe": RNG.random((16, 16)).astype(np.float32),
             "se": RNG.random((2, 16)).astype(np.float32), "g": np.ones(16, np.float32),
             "beta": np.zeros(16, np.float32), "bias": np.zeros(16, np.float32)}
    model = single_op_model(nodes, [vi("ids", I32, ["b", "s"]), vi("seg", I32, ["b", "s"]),
                                    vi("mask", I32, ["b", "s"])], inits)
    envs = [{"b": 2, "s": 5}, {"b": 1, "s": 1}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []


def test_fused_conv_uses_the_conv_contract() -> None:
    assert lookup(ONNX, "Conv") is not None, "FusedConv reuses the ai.onnx Conv rule"
    node = ms_node("FusedConv", ["x", "w", "bias", "z"], ["y"], activation="Relu", strides=[2, 2], pads=[1, 1, 1, 1])
    model = single_op_model([node], [vi("x", F, ["n", 3, "h", "w"]), vi("z", F, ["n", 4, "zh", "zw"])],
                            {"w": RNG.random((4, 3, 3, 3)).astype(np.float32), "bias": np.zeros(4, np.float32)})
    envs = [{"n": 2, "h": 9, "w": 6, "zh": 5, "zw": 3}, {"n": 1, "h": 1, "w": 2, "zh": 1, "zw": 1}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    result = analyze_onnx(model)
    assert [str(d) for d in result.shape("y") or ()] == ["n", "4", "floor((h + 1)/2)", "floor((w + 1)/2)"]
    assert result.same_shape("z", "y") is True


def test_symbolic_hidden_size_is_divisible_by_num_heads() -> None:
    node = ms_node("MultiHeadAttention", ["q", "k", "v"], ["out", "pk", "pv"], num_heads=4)
    model = single_op_model([node], [vi("q", F, ["b", "s", "h"]), vi("k", F, ["b", "s", "h"]),
                                     vi("v", F, ["b", "s", "h"])])
    result = analyze_onnx(model)
    assert result.symbols()["h"]["divisor"] == 4
    assert [str(d) for d in result.shape("pk") or ()] == ["b", "4", "s", "floor(h/4)"]
    envs = [{"b": 2, "s": 3, "h": 16}, {"b": 1, "s": 1, "h": 32}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []


@pytest.mark.parametrize("op", ["LayerNormalization", "SimplifiedLayerNormalization"])
def test_contrib_domain_norms_follow_the_default_domain_kernels(op: str) -> None:
    """onnxruntime registers these kernels in the default domain: run that, analyze the com.microsoft twin."""
    ins = ["x", "scale", "bias"] if op == "LayerNormalization" else ["x", "scale"]
    outs = ["y", "stat1", "stat2"] if op == "LayerNormalization" else ["y", "stat1"]
    inits = {n: RNG.random(16).astype(np.float32) for n in ins[1:]}
    default = single_op_model([helper.make_node(op, ins, outs, axis=-1)], [vi("x", F, ["b", "s", 16])], inits)
    contrib = onnx.ModelProto()
    contrib.CopyFrom(default)
    contrib.graph.node[0].domain = MS
    result = analyze_onnx(contrib)
    assert contrib_warnings(result) == []
    for e in ({"b": 2, "s": 3}, {"b": 1, "s": 1}):
        found = score(result, observed_shapes(default, feeds_for(default, e)), e, Score())
        assert found.unsound == [] and found.unresolved == [] and found.correct == 3 * len(outs)


# ------------------------------------------- ops without a CPU kernel: the documented contract
def shape_of(model: onnx.ModelProto, value: str) -> list[str]:
    result = analyze_onnx(model)
    assert contrib_warnings(result) == []
    return [str(d) for d in result.shape(value) or ()]


def test_bias_ops_without_cpu_kernels() -> None:
    bias = {"bias": np.zeros(640, np.float32)}
    add = single_op_model([ms_node("BiasAdd", ["x", "bias", "skip"], ["y"])],
                          [vi("x", F, ["n", "s", 640]), vi("skip", F, ["n2", "s2", 640])], bias)
    assert shape_of(add, "y") == ["n", "s", "640"]
    assert analyze_onnx(add).same_shape("skip", "y") is True
    split = single_op_model([ms_node("BiasSplitGelu", ["x", "bias"], ["y"])], [vi("x", F, ["n", "s", 640])], bias)
    assert shape_of(split, "y") == ["n", "s", "320"]
    dropout = single_op_model([ms_node("BiasDropout", ["x", "bias", "res"], ["y", "mask"])],
                              [vi("x", F, ["n", "s", 640]), vi("res", F, ["n", "r", 640])], bias)
    assert shape_of(dropout, "mask") == ["n", "s", "640"]
    assert analyze_onnx(dropout).same_dim(("res", 1), ("x", 1)) is True
    gemm = single_op_model([ms_node("GemmFastGelu", ["x", "w", "b5"], ["y"])], [vi("x", F, ["n", "s", 4])],
                           {"w": np.zeros((4, 5), np.float32), "b5": np.zeros(5, np.float32)})
    assert shape_of(gemm, "y") == ["n", "s", "5"]


def test_bias_split_gelu_symbolic_width_is_even() -> None:
    model = single_op_model([ms_node("BiasSplitGelu", ["x", "bias"], ["y"])],
                            [vi("x", F, ["n", "s", "d"]), vi("bias", F, ["d"])])
    result = analyze_onnx(model)
    assert result.symbols()["d"]["divisor"] == 2
    half = (result.shape("y") or ())[2]
    assert all(evaluate(half, {"d": d}) * 2 == d for d in (2, 640, 1280))


def test_packed_multi_head_attention_layouts() -> None:
    qkv = single_op_model([ms_node("MultiHeadAttention", ["q"], ["out", "pk", "pv"], num_heads=N)],
                          [vi("q", F, ["b", "s", N, 3, H])])
    assert shape_of(qkv, "out") == ["b", "s", str(D)]
    assert shape_of(qkv, "pv") == ["b", str(N), "s", str(H)]
    kv = single_op_model([ms_node("MultiHeadAttention", ["q", "k"], ["out", "pk", "pv"], num_heads=N)],
                         [vi("q", F, ["b", "s", D]), vi("k", F, ["b2", "l", N, 2, H])])
    assert shape_of(kv, "out") == ["b", "s", str(D)]
    assert shape_of(kv, "pk") == ["b", str(N), "l", str(H)]


def test_rfft_against_numpy_and_irfft_against_the_kernel() -> None:
    rfft = single_op_model([ms_node("Rfft", ["x"], ["y"], signal_ndim=1, onesided=1)], [vi("x", F, ["b", "n"])])
    y = analyze_onnx(rfft).shape("y") or ()
    for n in (1, 2, 7, 8):
        x = np.zeros((3, n))
        assert [evaluate(d, {"b": 3, "n": n}) for d in y] == [*np.fft.rfft(x).shape, 2]
    irfft = single_op_model([ms_node("Irfft", ["x"], ["y"], signal_ndim=1, onesided=1)],
                            [vi("x", F, ["b", "m", "c"])])
    result = analyze_onnx(irfft)
    assert [str(d) for d in result.shape("y") or ()] == ["b", "2*m - 1"]  # fft_ops.cc: input_shape[i] * 2 - 1
    assert result.same_dim(("x", 2), ("x", 2)) and str((result.shape("x") or ())[2]) == "2"


# ------------------------------------------------------------------ malformed models
def test_attention_contraction_mismatch_names_the_dims() -> None:
    node = ms_node("Attention", ["x", "w", "bias"], ["out"], num_heads=N)
    model = single_op_model([node], [vi("x", F, ["b", "s", 12])],
                            {"w": np.zeros((10, 3 * D), np.float32), "bias": np.zeros(3 * D, np.float32)})
    expected = r"Attention 'Attention_0'.*: dim 0 of 'w' \(10\) must equal dim 2 of 'x' \(12\)"
    with pytest.raises(ContradictionError, match=expected):
        analyze_onnx(model)


def test_hidden_size_not_divisible_by_num_heads_is_a_contradiction() -> None:
    node = ms_node("MultiHeadAttention", ["q", "k", "v"], ["out"], num_heads=3)
    model = single_op_model([node], [vi(n, F, ["b", "s", 16]) for n in ("q", "k", "v")])
    with pytest.raises(ContradictionError, match=r"MultiHeadAttention .*16.* divisible by 3"):
        analyze_onnx(model)


def test_malformed_contrib_ops_raise_model_errors() -> None:
    no_heads = single_op_model([ms_node("Attention", ["x", "w", "bias"], ["out"])], [vi("x", F, ["b", "s", 12])],
                               {"w": np.zeros((12, 48), np.float32), "bias": np.zeros(48, np.float32)})
    with pytest.raises(ModelError, match="attribute 'num_heads' is required but missing, expected a positive integer"):
        analyze_onnx(no_heads)
    rank4 = single_op_model([ms_node("SkipLayerNormalization", ["x", "skip", "g"], ["y"])],
                            [vi("x", F, ["a", "b", "s", 16]), vi("skip", F, ["a", "b", "s", 16])],
                            {"g": np.ones(16, np.float32)})
    with pytest.raises(ModelError, match=r"input #0 'input' \(value 'x'\) has rank 4, expected rank 2 or 3"):
        analyze_onnx(rank4)
    batch_fmm = single_op_model([ms_node("FusedMatMul", ["a", "b"], ["y"], transBatchA=1)],
                                [vi("a", F, ["m", "k"]), vi("b", F, ["k", "n"])])
    with pytest.raises(ModelError, match="same rank >= 3"):
        analyze_onnx(batch_fmm)


def test_multi_head_attention_past_sequence_length_shares_the_buffers() -> None:
    node = ms_node("MultiHeadAttention", ["q", "k", "v", "", "", "", "pk", "pv", "past_len"],
                   ["out", "present_k", "present_v", "qk"], num_heads=N)
    model = single_op_model([node], [vi("q", F, ["b", 1, D]), vi("k", F, ["b", 1, D]), vi("v", F, ["b", 1, D]),
                                     vi("pk", F, ["b", N, "m", H]), vi("pv", F, ["b", N, "m", H])],
                            {"past_len": np.array([4], np.int32)})
    envs = [{"b": 2, "m": 9}, {"b": 1, "m": 5}]
    assert check_model(model, [feeds_for(model, e) for e in envs]).unresolved == []
    assert shape_of(model, "present_k") == ["b", "2", "m", "8"]
    assert shape_of(model, "qk") == ["b", "2", "1", "5"]


def test_embed_layer_norm_without_mask_and_with_position_ids() -> None:
    node = ms_node("EmbedLayerNormalization", ["ids", "", "we", "pe", "", "g", "beta", "", "pid"],
                   ["e", "mask_index", "emb_sum"])
    inits = {"we": RNG.random((20, 16)).astype(np.float32), "pe": RNG.random((16, 16)).astype(np.float32),
             "g": np.ones(16, np.float32), "beta": np.zeros(16, np.float32)}
    model = single_op_model([node], [vi("ids", I32, ["b", "s"]), vi("pid", I32, ["b", "s2"])], inits)
    model.graph.output[1].type.tensor_type.elem_type = I32
    envs = [{"b": 2, "s": 5, "s2": 5}, {"b": 1, "s": 1, "s2": 1}]
    feeds = [feeds_for(model, e, {"pid": np.zeros((e["b"], e["s"]), np.int32)}) for e in envs]
    assert check_model(model, feeds).unresolved == []
    assert analyze_onnx(model).same_dim(("pid", 1), ("ids", 1)) is True
