"""The remaining op types onnxruntime 1.32 registers: com.microsoft odds and ends
(src/symshape/rules/onnx_contrib/misc_ops.py, misc_ops_sizes.py) and the ai.onnx experimental
ops and TensorRT plugins (src/symshape/rules/onnx/experimental.py).

Ops with a CPU kernel run in onnxruntime at several sizes (1, and 0 where the kernel accepts
it) and every dim symshape reports is compared (`run_row`); the experimental ai.onnx ops run in
opset-9 models (onnxruntime refuses them from opset 10 on). A data-dependent size must be a
fresh ``data`` symbol, bound to the size each run observes. Ops without a CPU kernel are
checked against their contract: each expected dim is derived by hand from the schema, kernel or
inference named beside it.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import ContradictionError, ModelError
from symshape.rules.registry import ONNX, lookup
from tests.oracle import array, const, make_model, tensor
from tests.rules.onnx.test_op_coverage import MS, Row, row, run_row

F, I32, I64, U32, S = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT32, TensorProto.STRING
OLD = 9  # the newest ai.onnx opset that still has the experimental ops


def ms(op: str, ins: list[str], outs: list[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, domain=MS, **attrs)


def node(op: str, ins: list[str], outs: list[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, **attrs)


def w(name: str, *shape: int) -> onnx.TensorProto:
    return array(name, np.random.default_rng(sum(shape)).random(shape).astype(np.float32))


def zeros_for_ints(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Integer inputs of 0 (indices and token ids in range); normal floats otherwise."""
    if np.issubdtype(dtype, np.integer):
        return np.zeros(shape, dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


def ones_for_ints(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Integer inputs of 1 (char ids in the table); normal floats otherwise."""
    if np.issubdtype(dtype, np.integer):
        return np.ones(shape, dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


def repeats(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Floats drawn from {0, 1, 2}: Unique finds repeats."""
    return np.random.default_rng(int(np.prod(shape)) + 7).integers(0, 3, shape).astype(dtype)


def sentences(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Space-separated words, 1 to 4 per string."""
    words = ["a", "bb", "ccc dd", "e f g h", "i j"]
    return np.array([words[k % len(words)] for k in range(int(np.prod(shape)))], dtype=object).reshape(shape)


def ints(name: str, values: list[int], dtype: type = np.int64) -> onnx.TensorProto:
    return array(name, np.array(values, dtype))


AB = [{"a": 2, "b": 3}, {"a": 1, "b": 1}, {"a": 0, "b": 4}, {"a": 3, "b": 0}]
MKN = [{"m": 2, "k": 3, "n": 4}, {"m": 1, "k": 1, "n": 1}, {"m": 0, "k": 2, "n": 3}, {"m": 3, "k": 0, "n": 2},
       {"m": 2, "k": 3, "n": 0}]

# -------------------------------------------------------------- com.microsoft, CPU kernels
ELEMENTWISE = [
    row("MurmurHash3-int32", [ms("MurmurHash3", ["x"], ["y"], seed=3)], [tensor("x", ["a", "b"], I32)], AB,
        outputs=[tensor("y", None, U32)]),
    row("SampleOp", [ms("SampleOp", ["x"], ["y"])], [tensor("x", ["a", "b"])], AB),
    row("Inverse-batched", [ms("Inverse", ["x"], ["y"])], [tensor("x", ["a", "b", "b"])], AB),
    row("Trilu-com.microsoft-k", [ms("Trilu", ["x", "k"], ["y"], upper=0)], [tensor("x", ["a", "b"])], AB,
        [const("k", 1)]),
]
CONTRACTIONS = [
    row("CDist-euclidean", [ms("CDist", ["p", "q"], ["y"], metric="euclidean")],
        [tensor("p", ["m", "k"]), tensor("q", ["n", "k"])],
        [{"m": 2, "k": 3, "n": 4}, {"m": 1, "k": 1, "n": 1}, {"m": 0, "k": 2, "n": 3}, {"m": 3, "k": 2, "n": 0}]),
    row("FusedGemm-transB-bias-relu", [ms("FusedGemm", ["p", "q", "c"], ["y"], transB=1, activation="Relu")],
        [tensor("p", ["m", "k"]), tensor("q", ["n", "k"]), tensor("c", ["n"])], MKN),
    row("FusedGemm-transA-row-bias", [ms("FusedGemm", ["p", "q", "c"], ["y"], transA=1, alpha=0.5,
                                                    activation="LeakyRelu", activation_alpha=0.1)],
        [tensor("p", ["k", "m"]), tensor("q", ["k", "n"]), tensor("c", [1, "n"])], MKN),
    row("TransposeMatMul-transA-batched", [ms("TransposeMatMul", ["p", "q"], ["y"], transA=1)],
        [tensor("p", ["b", "k", "m"]), tensor("q", ["k", "n"])],
        [{"b": 2, **s} for s in MKN[:3]] + [{"b": 0, "m": 2, "k": 3, "n": 1}]),
    row("TransposeMatMul-vector-transB", [ms("TransposeMatMul", ["p", "q"], ["y"], transB=1)],
        [tensor("p", ["k"]), tensor("q", ["n", "k"])], MKN),
]
INDEXING = [
    row("GatherND-com.microsoft-depth1", [ms("GatherND", ["x", "i"], ["y"])],
        [tensor("x", ["a", "b", 5]), tensor("i", ["n", 1], I64)],
        [{"a": 2, "b": 3, "n": 4}, {"a": 1, "b": 1, "n": 1}, {"a": 3, "b": 0, "n": 2}, {"a": 2, "b": 2, "n": 0}],
        feed=zeros_for_ints),
    row("GatherND-com.microsoft-full-depth", [ms("GatherND", ["x", "i"], ["y"])],
        [tensor("x", ["a", "b"]), tensor("i", ["n", "m", 2], I64)],
        [{"a": 2, "b": 3, "n": 4, "m": 2}, {"a": 1, "b": 1, "n": 1, "m": 1}, {"a": 1, "b": 2, "n": 0, "m": 3}],
        feed=zeros_for_ints),
    row("NGramRepeatBlock", [ms("NGramRepeatBlock", ["ids", "sc"], ["y"], ngram_size=2)],
        [tensor("ids", ["b", "s"], I64), tensor("sc", ["b", "v"])],
        [{"b": 2, "s": 3, "v": 5}, {"b": 1, "s": 1, "v": 1}, {"b": 0, "s": 3, "v": 4}, {"b": 2, "s": 0, "v": 2}],
        feed=zeros_for_ints),
    row("WordConvEmbedding", [ms("WordConvEmbedding", ["seq", "wc", "bc", "ch"], ["y"], conv_window_size=2,
                                 embedding_size=4)],
        [tensor("seq", ["s", "l"], I32)], [{"s": 5, "l": 6}, {"s": 1, "l": 2}, {"s": 0, "l": 3}, {"s": 2, "l": 9}],
        [w("wc", 4, 1, 2, 3), w("bc", 4), w("ch", 10, 3)], feed=ones_for_ints),
    row("CropAndResize-constant-crop", [ms("CropAndResize", ["x", "r", "bi", "cs"], ["y"], mode="nearest")],
        [tensor("x", ["n", 3, "h", "w"]), tensor("r", ["r", 4]), tensor("bi", ["r"], I32)],
        [{"n": 2, "h": 8, "w": 6, "r": 3}, {"n": 1, "h": 1, "w": 1, "r": 1}, {"n": 1, "h": 4, "w": 4, "r": 0}],
        [ints("cs", [2, 5], np.int32)], feed=zeros_for_ints),
    row("CropAndResize-runtime-crop", [ms("CropAndResize", ["x", "r", "bi", "cs"], ["y"])],
        [tensor("x", ["n", 3, 8, 8]), tensor("r", ["r", 4]), tensor("bi", ["r"], I32), tensor("cs", [2], I32)],
        [{"x": np.zeros((n, 3, 8, 8), np.float32), "r": np.full((r, 4), 0.5, np.float32),
          "bi": np.zeros(r, np.int32), "cs": np.array(cs, np.int32)}
         for n, r, cs in ((2, 3, [2, 5]), (1, 1, [1, 1]), (1, 0, [4, 3]))],
        inexact="the crop size is an input's values"),
]
SIZES = [
    row("Range-com.microsoft-no-delta-of-shape", [node("Shape", ["x"], ["n"], start=0, end=1),
                                                  ms("Range", ["zero", "n"], ["y"])],
        [tensor("x", ["a", "b"])], AB, [const("zero", [0])], outputs=[tensor("y", None, I64)]),
    row("Range-com.microsoft-delta", [node("Shape", ["x"], ["n"], start=1, end=2),
                                      ms("Range", ["one", "n", "two"], ["y"])],
        [tensor("x", ["a", "b"])], AB + [{"a": 1, "b": 6}], [const("one", 1), const("two", 2)],
        outputs=[tensor("y", None, I64)]),
    row("ExpandDims-axes", [ms("ExpandDims", ["x", "ax0"], ["y0"]), ms("ExpandDims", ["x", "axm1"], ["y1"]),
                            ms("ExpandDims", ["x", "axm3"], ["y2"]), ms("ExpandDims", ["x", "ax2"], ["y3"])],
        [tensor("x", ["a", "b"])], AB,
        [ints("ax0", [0], np.int32), ints("axm1", [-1], np.int32), array("axm3", np.array(-3, np.int32)),
         array("ax2", np.array(2, np.int32))],
        outputs=[tensor(f"y{k}", None) for k in range(4)]),
    row("UnfoldTensor-size3-step2", [ms("UnfoldTensor", ["x"], ["y"], size=3, step=2)], [tensor("x", ["b", "t"])],
        [{"b": 2, "t": 7}, {"b": 1, "t": 3}, {"b": 0, "t": 8}, {"b": 3, "t": 4}]),
    row("UnfoldTensor-dim0-whole", [ms("UnfoldTensor", ["x"], ["y"], size=2, dim=0)], [tensor("x", ["t", "b"])],
        [{"b": 2, "t": 2}, {"b": 1, "t": 5}, {"b": 0, "t": 3}]),
    row("DynamicTimeWarping-one-row-exact", [ms("DynamicTimeWarping", ["x"], ["y"])], [tensor("x", [1, "n"])],
        [{"n": 4}, {"n": 1}, {"n": 7}], outputs=[tensor("y", None, I32)]),
]
DATA = [
    row("Unique-com.microsoft", [ms("Unique", ["x"], ["u", "idx", "cnt"])], [tensor("x", ["n"])],
        [{"n": 6}, {"n": 1}, {"n": 0}, {"n": 9}], feed=repeats, inexact="the unique count is data",
        outputs=[tensor("u", None), tensor("idx", None, I64), tensor("cnt", None, I64)]),
    row("DynamicTimeWarping-path", [ms("DynamicTimeWarping", ["x"], ["y"])], [tensor("x", [1, "m", "n"])],
        [{"m": 3, "n": 5}, {"m": 1, "n": 1}, {"m": 4, "n": 2}, {"m": 6, "n": 6}], inexact="the path length is data",
        outputs=[tensor("y", None, I32)]),
    row("Tokenizer-2d-marked", [ms("Tokenizer", ["x"], ["y"], mark=1, pad_value="#", separators=[" "],
                                   mincharnum=1)],
        [tensor("x", ["n", "c"], S)], [{"n": 2, "c": 2}, {"n": 1, "c": 1}, {"n": 3, "c": 1}], feed=sentences,
        inexact="the token count is data", outputs=[tensor("y", None, S)]),
    row("BifurcationDetector-predictions", [ms("BifurcationDetector", ["src", "cur", "prev", "pred"],
                                               ["tok", "idx"], min_ngram_size=1, max_ngram_size=3)],
        [tensor("src", ["s"], I64), tensor("cur", ["c"], I64), tensor("pred", ["s"], I64)],
        [{"src": np.arange(s, dtype=np.int64), "cur": np.arange(c, dtype=np.int64), "pred": pred}
         for s, c, pred in ((5, 3, np.array([1, 2, 9, 9, 9])), (1, 1, np.array([1])), (4, 0, np.arange(1, 5)))],
        [ints("prev", [1])], inexact="the merged length is data",
        outputs=[tensor("tok", None, I64), tensor("idx", None, I64)]),
]

# ------------------------------------------------------------ ai.onnx experimental (opset 9)
EXPERIMENTAL = [
    row("Affine", [node("Affine", ["x"], ["y"], alpha=2.0, beta=1.0)], [tensor("x", ["a", "b"])], AB, opset=OLD,
        outputs=[tensor("y", None)]),
    row("Scale", [node("Scale", ["x"], ["y"], scale=3.0)], [tensor("x", ["a", "b"])], AB, opset=OLD,
        outputs=[tensor("y", None)]),
    row("ParametricSoftplus", [node("ParametricSoftplus", ["x"], ["y"], alpha=1.0, beta=2.0)],
        [tensor("x", ["a", "b"])], AB, opset=OLD, outputs=[tensor("y", None)]),
    row("ScaledTanh", [node("ScaledTanh", ["x"], ["y"], alpha=1.0, beta=2.0)], [tensor("x", ["a", "b"])], AB,
        opset=OLD, outputs=[tensor("y", None)]),
    row("ImageScaler", [node("ImageScaler", ["x"], ["y"], bias=[1.0, 2.0, 3.0], scale=0.5)],
        [tensor("x", ["n", 3, "h", "w"])], [{"n": 2, "h": 4, "w": 5}, {"n": 1, "h": 1, "w": 1}, {"n": 0, "h": 2,
                                                                                                  "w": 3}],
        opset=OLD, outputs=[tensor("y", None)]),
    row("Crop-border", [node("Crop", ["x"], ["y"], border=[1, 2, 0, 1])], [tensor("x", ["n", "c", "h", "w"])],
        [{"n": 2, "c": 3, "h": 6, "w": 7}, {"n": 1, "c": 1, "h": 3, "w": 1}, {"n": 0, "c": 2, "h": 4, "w": 2}],
        opset=OLD, outputs=[tensor("y", None)]),
    row("Crop-scale", [node("Crop", ["x"], ["y"], border=[1, 2, 0, 1], scale=[2, 3])],
        [tensor("x", ["n", "c", "h", "w"])],
        [{"n": 2, "c": 3, "h": 6, "w": 7}, {"n": 1, "c": 1, "h": 4, "w": 4}, {"n": 0, "c": 2, "h": 5, "w": 9}],
        opset=OLD, outputs=[tensor("y", None)]),
    row("DynamicSlice-axes", [node("DynamicSlice", ["x", "st", "en", "ax"], ["y"])], [tensor("x", ["a", "b"])],
        AB + [{"a": 5, "b": 6}], [const("st", [1]), const("en", [-1]), const("ax", [1])], opset=OLD,
        outputs=[tensor("y", None)]),
    row("DynamicSlice-all-axes-clamped", [node("DynamicSlice", ["x", "st", "en"], ["y"])], [tensor("x", ["a", "b"])],
        AB, [const("st", [1, -10]), const("en", [100, 2])], opset=OLD, outputs=[tensor("y", None)]),
    *(row(op, [node(op, ["x"], ["y"])], [tensor("x", ["a", "b"])], AB, outputs=[tensor("y", None)])
      for op in ("MemcpyFromHost", "MemcpyToHost")),
]

ROWS = ELEMENTWISE + CONTRACTIONS + INDEXING + SIZES + DATA + EXPERIMENTAL
_CONTRACT = "tests/rules/onnx_contrib/test_misc_ops.py (onnxruntime has no CPU kernel: the documented contract)"
ELSEWHERE = {
    **{(MS, op): _CONTRACT for op in ("BitmaskBiasDropout", "BitmaskDropout", "ComplexMul", "ComplexMulConj",
                                      "EPContext", "FusedMatMulActivation", "GroupNorm", "IsAllFinite",
                                      "SkipGroupNorm", "Snpe", "TorchEmbedding")},
    (MS, "SparseToDenseMatMul"): "tests/rules/onnx_contrib/test_misc_ops.py (a sparse input: symshape reads no "
                                 "sparse tensor type, so the contract with A declared dense)",
    **{("", op): _CONTRACT for op in ("GRUUnit", "GivenTensorFill", "DisentangledAttention_TRT", "EfficientNMS_TRT",
                                      "MultilevelCropAndResize_TRT", "PyramidROIAlign_TRT")},
}


@pytest.mark.parametrize("r", ROWS)
def test_against_onnxruntime(r: Row) -> None:
    run_row(r)


def _data_symbols(r: Row, names: list[str]) -> dict[str, str]:
    """The dims of ``names`` that are lone symbols, with their kind."""
    result = analyze_onnx(r.model())
    info = result.symbols()
    found: dict[str, str] = {}
    for n in names:
        for d in result.shape(n) or ():
            if str(d) in info:
                found[f"{n}:{d}"] = info[str(d)]["kind"]
    return found


def test_data_dependent_sizes_are_fresh_data_symbols() -> None:
    """Unique's count (shared by y and counts), the warping path's length, the token count and
    the merged token count are ``data`` symbols (run_row above binds each to the observed size
    and checks every other place it appears, and its recorded range, against every run)."""
    unique, dtw, tok, bif = (p.values[0] for p in DATA)
    kinds = _data_symbols(unique, ["u", "idx", "cnt"])
    u_dims = [k for k in kinds if k.startswith(("u:", "cnt:"))]
    assert len(u_dims) == 2 and u_dims[0].split(":")[1] == u_dims[1].split(":")[1]
    assert all(kinds[k] == "data" for k in u_dims) and kinds["idx:n"] == "input"
    assert [v for k, v in _data_symbols(dtw, ["y"]).items() if k != "y:2"] == ["data"]
    assert [v for k, v in _data_symbols(tok, ["y"]).items() if k not in ("y:n", "y:c")] == ["data"]
    assert [v for k, v in _data_symbols(bif, ["tok"]).items()] == ["data"]


# --------------------------------------------------------------- contracts (no CPU kernel)
def contract(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
             inits: list[onnx.TensorProto] | None = None, opset: int = 17,
             outputs: list[onnx.ValueInfoProto] | None = None) -> dict[str, list[str]]:
    """Analyze a model onnxruntime cannot run on CPU: every node output's dims as text."""
    outs = [o for n in nodes for o in n.output if o]
    model = make_model(nodes, inputs, outputs or [tensor(o, None) for o in outs], inits or [], opset)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    assert not result.warnings, [f"{x.op_type}: {x.message}" for x in result.warnings]
    return {o: [str(d) for d in result.shape(o) or ()] for o in outs}


def test_dropouts_norms_and_complex_products() -> None:
    """BitmaskDropout/BitmaskBiasDropout: output = data, mask ``ceil(numel/32)`` uint32 words
    (cuda/nn/dropout.cc: ``mask_element_count = (N + 31) / 32``; 2*3*40 = 240 -> 8); GroupNorm:
    Y = X; SkipGroupNorm: Y and S = X (diffusion_defs.cc); ComplexMul(Conj): the broadcast of the
    (..., 2) inputs (cuda/math/complex_mul.cc); IsAllFinite: a scalar (contrib_defs.cc)."""
    out = contract([ms("BitmaskDropout", ["x"], ["y", "mask"]),
                    ms("BitmaskBiasDropout", ["x", "bias", "x"], ["y2", "mask2"]),
                    ms("BitmaskDropout", ["z"], ["y3", "mask3"])],
                   [tensor("x", [2, 3, 40]), tensor("bias", [40]), tensor("z", ["b", "s"])])
    assert out["y"] == out["y2"] == ["2", "3", "40"] and out["mask"] == out["mask2"] == ["8"]
    assert out["y3"] == ["b", "s"] and out["mask3"] == ["floor((b*s + 31)/32)"]
    norm = contract([ms("GroupNorm", ["x", "g", "be"], ["y"], groups=4, activation=1),
                     ms("SkipGroupNorm", ["x", "g", "be", "sk", "g"], ["y2", "s2"], groups=4, activation=0),
                     ms("GroupNorm", ["xc", "g", "be"], ["y3"], groups=2, activation=0, channels_last=0)],
                    [tensor("x", ["n", "h", "w", 8]), tensor("g", [8]), tensor("be", [8]), tensor("sk", ["n", 8]),
                     tensor("xc", ["n", 8, "h", "w"])])
    assert norm == {"y": ["n", "h", "w", "8"], "y2": ["n", "h", "w", "8"], "s2": ["n", "h", "w", "8"],
                    "y3": ["n", "8", "h", "w"]}
    cplx = contract([ms("ComplexMul", ["p", "q"], ["y"]), ms("ComplexMulConj", ["q", "r"], ["y2"]),
                     ms("IsAllFinite", ["p", "q"], ["fin"])],
                    [tensor("p", ["b", 1, 2]), tensor("q", ["t", 2]), tensor("r", [1, 2])],
                    outputs=[tensor("y", None), tensor("y2", None), tensor("fin", None, TensorProto.BOOL)])
    assert cplx == {"y": ["b", "t", "2"], "y2": ["t", "2"], "fin": []}


def test_contractions_and_embeddings() -> None:
    """FusedMatMulActivation is FusedMatMul (contrib_defs.cc: FusedMatMulShapeInference):
    transBatchA moves A's dim 0 before its last dim; SparseToDenseMatMul (sparse A declared
    dense here: symshape reads no sparse type) is ``(outer_A, outer_B)`` after the transposes
    (cpu/math/sparse_to_dense_matmul.cc); TorchEmbedding is ``indices.shape + (M,)``
    (contrib_defs.cc)."""
    out = contract([ms("FusedMatMulActivation", ["p", "q"], ["y"], activation="Relu", transBatchA=1),
                    ms("SparseToDenseMatMul", ["sa", "sb"], ["y2"], transA=1),
                    ms("TorchEmbedding", ["wt", "ids"], ["y3"])],
                   [tensor("p", ["k", "b", "m"]), tensor("q", ["b", "m", "n"]), tensor("sa", ["k2", "m2"]),
                    tensor("sb", ["k2", "n2"]), tensor("wt", [50, 16]), tensor("ids", ["b", "s"], I64)])
    assert out == {"y": ["b", "k", "n"], "y2": ["m2", "n2"], "y3": ["b", "s", "16"]}


def test_precompiled_nodes_keep_their_declared_outputs() -> None:
    """EPContext and Snpe carry a compiled payload: each output is its declared type (schema:
    no shape inference), fresh symbols for what that leaves open, caused by the node."""
    nodes = [ms("EPContext", ["x"], ["y", "z"], embed_mode=1, ep_cache_context="blob"),
             ms("Snpe", ["x"], ["s"], DLC="blob")]
    model = make_model(nodes, [tensor("x", ["b", 4])], [tensor("y", [2, None, 7]), tensor("z", None),
                                                         tensor("s", ["q"])])
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result: Analysis = analyze_onnx(model)
    y = result.shape("y")
    assert y is not None and (y[0], y[2]) == (2, 7) and result.symbols()[str(y[1])]["kind"] == "derived"
    assert result.shape("z") is None
    s = result.shape("s")
    assert s is not None and len(s) == 1 and str(s[0]) != "q"
    reasons = {str(g.cause) for g in result.causes()}
    assert any(r.startswith("EPContext") and r.endswith("a precompiled node") for r in reasons), reasons
    assert any(r.startswith("Snpe") and r.endswith("a precompiled SNPE DLC") for r in reasons), reasons


def test_experimental_ops_without_kernels() -> None:
    """GRUUnit keeps hidden_prev's shape (caffe2/operators/gru_unit_op.h: ResizeLike);
    GivenTensorFill has the ``shape`` attribute, else the input's values with input_as_shape,
    else the input's shape + extra_shape (onnx_deprecated_operators.cc inference)."""
    out = contract([node("GRUUnit", ["h", "g", "sl", "t"], ["y"]),
                    node("GivenTensorFill", [], ["f1"], shape=[2, 3], values=[0.0] * 6),
                    node("GivenTensorFill", ["h"], ["f2"], extra_shape=[5]),
                    node("Shape", ["g"], ["gs"]),
                    node("GivenTensorFill", ["gs"], ["f3"], input_as_shape=1)],
                   [tensor("h", [1, "n", 4]), tensor("g", [1, "n", 12]), tensor("sl", ["n"], I32),
                    tensor("t", [1], I32)], opset=OLD)
    assert out == {"y": ["1", "n", "4"], "f1": ["2", "3"], "f2": ["1", "n", "4", "5"], "gs": ["3"],
                   "f3": ["1", "n", "12"]}


def test_tensorrt_plugins() -> None:
    """contrib_defs.cc inference: EfficientNMS_TRT gives (B, 1), (B, max, 4), (B, max), (B, max);
    the ROI plugins (B, R, C, pooled, pooled) with C from feature map 0; DisentangledAttention_TRT
    keeps the 3-D c2c attention's shape."""
    nms = node("EfficientNMS_TRT", ["bx", "sc"], ["num", "boxes", "scores", "classes"], max_output_boxes=100,
               background_class=-1, box_coding=0, iou_threshold=0.5, plugin_version="1", score_activation=0,
               score_threshold=0.1)
    fmaps = ["f0", "f1", "f2", "f3"]
    out = contract([nms, node("MultilevelCropAndResize_TRT", ["bx", *fmaps], ["mc"], image_size=[64, 64],
                              pooled_size=7, plugin_version="1"),
                    node("PyramidROIAlign_TRT", ["bx", *fmaps], ["pr"], pooled_size=14, plugin_version="1"),
                    node("DisentangledAttention_TRT", ["c2c", "c2p", "p2c"], ["da"], span=4, factor=0.1)],
                   [tensor("bx", ["b", "r", 4]), tensor("sc", ["b", "r", 80]),
                    *(tensor(f, ["b", 256, 64 >> k, 64 >> k]) for k, f in enumerate(fmaps)),
                    tensor("c2c", ["bh", "s", "s"]), tensor("c2p", ["bh", "s", 8]), tensor("p2c", ["bh", "s", 8])],
                   outputs=[tensor("num", None, I32), tensor("boxes", None), tensor("scores", None),
                            tensor("classes", None, I32), tensor("mc", None), tensor("pr", None),
                            tensor("da", None)])
    assert out == {"num": ["b", "1"], "boxes": ["b", "100", "4"], "scores": ["b", "100"], "classes": ["b", "100"],
                   "mc": ["b", "r", "256", "7", "7"], "pr": ["b", "r", "256", "14", "14"], "da": ["bh", "s", "s"]}


def test_static_cases_of_the_data_ops() -> None:
    """Exact where the data allows: Unique of a constant (first-seen order), Tokenizer of an
    empty input ([N, 0]: tokenizer.cc keeps the rank), DynamicTimeWarping of an N x 1 matrix
    (path length N), BifurcationDetector without predictions (cur_tokens' shape)."""
    out = contract([ms("Unique", ["c"], ["u", "i", "n"]), ms("Tokenizer", ["e"], ["t"], mark=0, pad_value="#",
                                                            separators=[" "], mincharnum=1),
                    ms("DynamicTimeWarping", ["d"], ["p"]),
                    ms("BifurcationDetector", ["s", "cur", "one"], ["tok", "idx"])],
                   [tensor("e", [3, 0], S), tensor("d", ["m", 1]), tensor("s", ["a"], I64),
                    tensor("cur", ["c"], I64)],
                   [ints("c", [3, 1, 3, 2, 1]), ints("one", [0])],
                   outputs=[tensor("u", None, I64), tensor("i", None, I64), tensor("n", None, I64),
                            tensor("t", None, S), tensor("p", None, I32), tensor("tok", None, I64),
                            tensor("idx", None, I64)])
    assert out == {"u": ["3"], "i": ["5"], "n": ["3"], "t": ["3", "0"], "p": ["2", "m"], "tok": ["c"], "idx": ["1"]}


def test_expand_dims_with_a_runtime_axis_keeps_the_rank() -> None:
    """An axis known only at run time: the output has rank + 1 dims, each unresolved (the
    position of the new 1 is unknown), not a guess."""
    model = make_model([ms("ExpandDims", ["x", "ax"], ["y"])], [tensor("x", ["a", "b"]), tensor("ax", [], I32)],
                       [tensor("y", None)])
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    y = result.shape("y")
    assert y is not None and len(y) == 3 and not {str(d) for d in y} & {"a", "b", "1"}
    assert {u.axis for u in result.unresolved if u.value == "y"} == {0, 1, 2}


# --------------------------------------------------------------------------- lookup
MS_OPS = ("BifurcationDetector BitmaskBiasDropout BitmaskDropout CDist ComplexMul ComplexMulConj CropAndResize "
          "DynamicTimeWarping EPContext ExpandDims FusedGemm FusedMatMulActivation GatherND GroupNorm SkipGroupNorm "
          "Inverse IsAllFinite MurmurHash3 NGramRepeatBlock Range SampleOp Snpe SparseToDenseMatMul Tokenizer "
          "TorchEmbedding TransposeMatMul Trilu UnfoldTensor Unique WordConvEmbedding").split()
ONNX_OPS = ("Affine Crop DynamicSlice GRUUnit GivenTensorFill ImageScaler MemcpyFromHost MemcpyToHost "
            "ParametricSoftplus Scale ScaledTanh DisentangledAttention_TRT EfficientNMS_TRT "
            "MultilevelCropAndResize_TRT PyramidROIAlign_TRT").split()


def test_every_op_has_a_rule_at_each_schema_version() -> None:
    """Each op is found at its newest version and at every since_version onnxruntime's schemas
    give (1, and 10 for the deprecated experimental ops)."""
    from onnxruntime.capi import onnxruntime_pybind11_state as ort_c

    versions: dict[tuple[str, str], set[int]] = {}
    for schema in ort_c.get_all_operator_schema():
        versions.setdefault((schema.domain, schema.name), set()).add(schema.since_version)
    for domain, ops in ((MS, MS_OPS), (ONNX, ONNX_OPS)):
        for op in ops:
            assert (domain, op) in versions, (domain, op)
            for v in (0, *versions[(domain, op)]):
                assert lookup(domain, op, v) is not None, (domain, op, v)


# --------------------------------------------------------------------- malformed models
def analyze(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
            inits: list[onnx.TensorProto] | None = None, opset: int = 17) -> Analysis:
    outs = [tensor(o, None) for n in nodes for o in n.output if o]
    model = make_model(nodes, inputs, outs, inits or [], opset)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    return analyze_onnx(model)


X2 = [tensor("x", ["a", "b"])]
MALFORMED = [
    # elementwise and contractions: a vector to Inverse; both IsAllFinite filters; 3-D CDist; a
    # scalar ComplexMul input; 1-D Gemm operands
    ([ms("Inverse", ["x"], ["y"])], [tensor("x", [3])], []),
    ([ms("IsAllFinite", ["x"], ["y"], isinf_only=1, isnan_only=1)], X2, []),
    ([ms("CDist", ["x", "x3"], ["y"])], [*X2, tensor("x3", [1, 2, 3])], []),
    ([ms("ComplexMul", ["s", "x"], ["y"])], [*X2, tensor("s", [])], []),
    ([ms("FusedGemm", ["v", "x"], ["y"])], [*X2, tensor("v", ["b"])], []),
    # norms and embeddings: 3-D GroupNorm input; activation 2; skip of rank 3; a 2-D W
    ([ms("GroupNorm", ["x3", "g", "g"], ["y"], groups=1, activation=0)], [tensor("x3", [1, 2, 3]),
                                                                         tensor("g", [3])], []),
    ([ms("GroupNorm", ["x4", "g", "g"], ["y"], groups=1, activation=2)], [tensor("x4", [1, 2, 2, 3]),
                                                                         tensor("g", [3])], []),
    ([ms("SkipGroupNorm", ["x4", "g", "g", "sk"], ["y"], groups=1, activation=0)],
     [tensor("x4", [1, 2, 2, 3]), tensor("g", [3]), tensor("sk", [1, 2, 3])], []),
    ([ms("WordConvEmbedding", ["sq", "x", "b", "x"], ["y"])], [*X2, tensor("sq", [4, 5], I32),
                                                               tensor("b", ["a"])], []),
    ([ms("NGramRepeatBlock", ["x", "x"], ["y"], ngram_size=0)], X2, []),
    ([ms("Trilu", ["v"], ["y"])], [tensor("v", [4])], []),
    # sizes: axis out of range; window larger than the dim; step 0; crop 0;
    # a 2-D Unique input; a rank-4 warping input; 3-D strings; max_ngram_size < min_ngram_size
    ([ms("ExpandDims", ["x", "ax"], ["y"])], X2, [ints("ax", [3], np.int32)]),
    ([ms("UnfoldTensor", ["x5"], ["y"], size=6)], [tensor("x5", [2, 5])], []),
    ([ms("UnfoldTensor", ["x"], ["y"], size=1, step=0)], X2, []),
    ([ms("CropAndResize", ["im", "r", "bi", "cs"], ["y"])],
     [tensor("im", [1, 3, 8, 8]), tensor("r", [2, 4]), tensor("bi", [2], I32)], [ints("cs", [0, 2], np.int32)]),
    ([ms("Unique", ["x"], ["y", "i", "c"])], X2, []),
    ([ms("DynamicTimeWarping", ["x4"], ["y"])], [tensor("x4", [1, 1, 2, 3])], []),
    ([ms("Tokenizer", ["s3"], ["y"], mark=0, pad_value="#", separators=[" "], mincharnum=1)],
     [tensor("s3", [1, 2, 3], S)], []),
    ([ms("BifurcationDetector", ["t", "t", "p"], ["y", "i"], min_ngram_size=3, max_ngram_size=2)],
     [tensor("t", ["n"], I64), tensor("p", [1], I64)], []),
    # experimental: any of them at opset 10; ScaledTanh without beta; ImageScaler without bias;
    # Crop with 3 borders; GRUUnit with 2-D gates; EfficientNMS without boxes to keep
    ([node("Affine", ["x"], ["y"])], X2, []),
    ([node("ScaledTanh", ["x"], ["y"], alpha=1.0)], X2, []),
    ([node("ImageScaler", ["x4"], ["y"])], [tensor("x4", [1, 3, 2, 2])], []),
    ([node("Crop", ["x4"], ["y"], border=[0, 0, 0])], [tensor("x4", [1, 3, 2, 2])], []),
    ([node("GRUUnit", ["h", "x", "l", "t"], ["y"])], [*X2, tensor("h", [1, 2, 3]), tensor("l", [2]),
                                                       tensor("t", [1])], []),
    ([node("EfficientNMS_TRT", ["x", "x"], ["n", "b", "s", "c"], max_output_boxes=0)], X2, []),
]
OPSETS = [10 if i == len(MALFORMED) - 6 else OLD for i in range(len(MALFORMED))]


@pytest.mark.parametrize(("case", "opset"), list(zip(MALFORMED, OPSETS, strict=True)),
                         ids=[f"{c[0][0].op_type}-{i}" for i, c in enumerate(MALFORMED)])
def test_malformed_models_raise_model_errors(
    case: tuple[list[onnx.NodeProto], list[onnx.ValueInfoProto], list[onnx.TensorProto]], opset: int
) -> None:
    nodes, inputs, inits = case
    with pytest.raises(ModelError):
        analyze(nodes, inputs, inits, opset)


def test_mismatched_sizes_are_contradictions() -> None:
    """Dims the kernels require equal: CDist's row widths, ComplexMul's trailing 2, GroupNorm's
    gamma length, CropAndResize's roi count and coordinates, Crop's image too small for its borders, GRUUnit's
    gate width (3*D)."""
    bad = [
        ([ms("CDist", ["p", "q"], ["y"])], [tensor("p", ["m", 3]), tensor("q", ["n", 4])], 17),
        ([ms("ComplexMul", ["p", "p"], ["y"])], [tensor("p", ["m", 3])], 17),
        ([ms("GroupNorm", ["x", "g", "g"], ["y"], groups=2, activation=0)],
         [tensor("x", ["n", "h", "w", 8]), tensor("g", [6])], 17),
        ([ms("CropAndResize", ["x", "r", "bi", "cs"], ["y"])],
         [tensor("x", [1, 3, 8, 8]), tensor("r", [3, 4]), tensor("bi", [2], I32), tensor("cs", [2], I32)], 17),
        ([ms("CropAndResize", ["x", "r", "bi", "cs"], ["y"])],
         [tensor("x", [1, 3, 8, 8]), tensor("r", [3, 5]), tensor("bi", [3], I32), tensor("cs", [2], I32)], 17),
        ([node("Crop", ["x"], ["y"], border=[1, 2, 1, 2])], [tensor("x", [1, 3, 3, 8])], OLD),
        ([node("GRUUnit", ["h", "g", "l", "t"], ["y"])],
         [tensor("h", [1, "n", 4]), tensor("g", [1, "n", 8]), tensor("l", ["n"], I32), tensor("t", [1], I32)], OLD),
    ]
    for nodes, inputs, opset in bad:
        with pytest.raises((ContradictionError, ModelError)):
            analyze(nodes, inputs, opset=opset)
