"""The rules added for full op coverage, against onnxruntime at several sizes (1 and 0 where the
op allows them): the opset-23 attention family, recurrent layers, losses, Det,
DynamicQuantizeLinear, the ai.onnx.ml ops and Reduce with axes of unknown values. Every dim must
be expressed in the input symbols (`assert_exact`) unless the row says why it cannot.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from _pytest.mark.structures import ParameterSet
from onnx import TensorProto, helper

from tests.oracle import array, assert_exact, check, const, make_model, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I64 = TensorProto.FLOAT, TensorProto.INT64
node = helper.make_node
ML = "ai.onnx.ml"


def wt(name: str, *dims: int) -> TensorProto:
    return array(name, np.full(dims, 0.25, np.float32))


class MLRow(Row):
    """A row whose model also imports the ai.onnx.ml domain."""

    def model(self) -> onnx.ModelProto:
        m = super().model()
        m.opset_import.append(helper.make_opsetid(ML, 3))
        return m


ATTENTION = [
    row("Attention-4d-gqa-past",
        [node("Attention", ["q", "k", "v", "", "pk", "pv"], ["y", "present_k", "present_v"])],
        [tensor("q", ["b", 4, "s", 8]), tensor("k", ["b", 2, "l", 8]), tensor("v", ["b", 2, "l", 6]),
         tensor("pk", ["b", 2, "p", 8]), tensor("pv", ["b", 2, "p", 6])],
        [{"b": 2, "s": 3, "l": 5, "p": 4}, {"b": 1, "s": 1, "l": 1, "p": 0}, {"b": 1, "s": 2, "l": 3, "p": 1}],
        opset=23),
    row("Attention-3d-packed-heads",
        [node("Attention", ["q", "k", "v"], ["y"], q_num_heads=4, kv_num_heads=2)],
        [tensor("q", ["b", "s", 32]), tensor("k", ["b", "l", 16]), tensor("v", ["b", "l", 12])],
        [{"b": 2, "s": 3, "l": 5}, {"b": 1, "s": 1, "l": 1}], opset=23),
    row("Attention-3d-symbolic-hidden",
        [node("Attention", ["q", "k", "v"], ["y", "", "", "qk"], q_num_heads=2, kv_num_heads=2)],
        [tensor("q", ["b", "s", "e"]), tensor("k", ["b", "l", "e"]), tensor("v", ["b", "l", "e"])],
        [{"b": 2, "s": 3, "l": 5, "e": 8}, {"b": 1, "s": 1, "l": 2, "e": 2}], opset=23),
]

ATTENTION += [
    row("RotaryEmbedding-4d-position-ids", [node("RotaryEmbedding", ["x", "c", "s", "p"], ["y"])],
        [tensor("x", ["b", 2, "t", 8]), tensor("p", ["b", "t"], I64)], [{"b": 2, "t": 3}, {"b": 1, "t": 1}],
        [wt("c", 8, 4), wt("s", 8, 4)], opset=23),
    row("TensorScatter-cache", [node("TensorScatter", ["cache", "upd"], ["y"], axis=2)],
        [tensor("cache", ["b", 2, "m", 4]), tensor("upd", ["b", 2, "t", 4])],
        [{"b": 2, "m": 5, "t": 3}, {"b": 1, "m": 1, "t": 1}], opset=24),
]

RECURRENT = [
    row("LSTM-forward", [node("LSTM", ["x", "w", "r"], ["y", "y_h", "y_c"], hidden_size=5)],
        [tensor("x", ["s", "b", 3])], [{"s": 4, "b": 2}, {"s": 1, "b": 1}], [wt("w", 1, 20, 3), wt("r", 1, 20, 5)]),
    row("GRU-bidirectional",
        [node("GRU", ["x", "w", "r"], ["y", "y_h"], hidden_size=4, direction="bidirectional")],
        [tensor("x", ["s", "b", 3])], [{"s": 4, "b": 2}, {"s": 1, "b": 1}], [wt("w", 2, 12, 3), wt("r", 2, 12, 4)]),
    row("RNN-input-size-symbolic", [node("RNN", ["x", "w", "r"], ["y", "y_h"], hidden_size=6)],
        [tensor("x", ["s", "b", "i"])], [{"s": 3, "b": 2, "i": 3}, {"s": 1, "b": 1, "i": 3}],
        [wt("w", 1, 6, 3), wt("r", 1, 6, 6)]),
]

LOSSES = [
    row("SoftmaxCrossEntropyLoss-none",
        [node("SoftmaxCrossEntropyLoss", ["x", "t"], ["loss", "logp"], reduction="none")],
        [tensor("x", ["n", 3, "d"]), tensor("t", ["n", "d"], I64)], [{"n": 2, "d": 4}, {"n": 1, "d": 1}]),
    row("SoftmaxCrossEntropyLoss-mean", [node("SoftmaxCrossEntropyLoss", ["x", "t"], ["loss"])],
        [tensor("x", ["n", 3]), tensor("t", ["n"], I64)], [{"n": 2}, {"n": 1}]),
    row("NegativeLogLikelihoodLoss-none-weight",
        [node("NegativeLogLikelihoodLoss", ["x", "t", "wc"], ["loss"], reduction="none")],
        [tensor("x", ["n", 3, "d", "e"]), tensor("t", ["n", "d", "e"], I64)],
        [{"n": 2, "d": 4, "e": 1}, {"n": 1, "d": 1, "e": 3}], [wt("wc", 3)]),
]

MISC = [
    row("Det-batched", [node("Det", ["x"], ["y"])], [tensor("x", ["b", "m", "m"])],
        [{"b": 2, "m": 3}, {"b": 1, "m": 1}, {"b": 0, "m": 2}]),
    row("Swish", [node("Swish", ["x"], ["y"])], [tensor("x", ["a", "b"])], [{"a": 2, "b": 3}, {"a": 0, "b": 1}],
        opset=24),
    row("CumProd", [node("CumProd", ["x", "axis"], ["y"])], [tensor("x", ["a", "b"])],
        [{"a": 2, "b": 3}, {"a": 1, "b": 1}], [const("axis", 1)], opset=26),
    row("BitCast", [node("BitCast", ["x"], ["y"], to=TensorProto.INT32)], [tensor("x", ["a", "b"])],
        [{"a": 2, "b": 3}, {"a": 1, "b": 0}], opset=26, outputs=[tensor("y", None, TensorProto.INT32)]),
    row("DynamicQuantizeLinear", [node("DynamicQuantizeLinear", ["x"], ["y", "scale", "zp"])],
        [tensor("x", ["a", "b"])], [{"a": 2, "b": 3}, {"a": 1, "b": 1}]),
    row("ReduceSum-axes-input-keepdims", [node("ReduceSum", ["x", "axes"], ["y"])],
        [tensor("x", ["a", 1, "c"]), tensor("axes", [1], I64)], [{"a": 2, "c": 3}, {"a": 1, "c": 1}],
        inexact="which axes are reduced is data: the dims that may be 1 are fresh symbols"),
    row("ReduceSum-empty-axes-noop", [node("ReduceSum", ["x", "axes"], ["y"], noop_with_empty_axes=1)],
        [tensor("x", ["a", "c"]), tensor("axes", [0], I64)], [{"a": 2, "c": 3}, {"a": 1, "c": 0}]),
    row("ReduceMax-empty-axes-all-keepdims0", [node("ReduceMax", ["x", "axes"], ["y"], keepdims=0)],
        [tensor("x", ["a", "c"]), tensor("axes", [0], I64)], [{"a": 2, "c": 3}, {"a": 1, "c": 1}], opset=18),
]


def _scan8_body() -> onnx.GraphProto:
    """One batch entry: the state plus the slice is the new state, and the scan output."""
    return helper.make_graph(
        [node("Add", ["s_in", "x_in"], ["s_out"]), node("Identity", ["s_out"], ["y_out"])],
        "body",
        [tensor("s_in", [2]), tensor("x_in", [2])],
        [tensor("s_out", [2]), tensor("y_out", [2])],
    )


SCAN8 = [
    row("Scan-8-batched", [node("Scan", ["", "s0", "x"], ["s", "ys"], body=_scan8_body(), num_scan_inputs=1)],
        [tensor("s0", ["b", 2]), tensor("x", ["b", "t", 2])], [{"b": 2, "t": 3}, {"b": 1, "t": 1}, {"b": 3, "t": 0}],
        opset=8),
]


def words(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """String inputs: a few words with a space, so splitting gives two parts."""
    del name, dtype
    return np.full(shape, "ab cd", dtype=object)


S = TensorProto.STRING
STRINGS = [
    row("StringConcat-broadcast", [node("StringConcat", ["x", "y"], ["z"])],
        [tensor("x", ["a", "b"], S), tensor("y", ["b"], S)], [{"a": 2, "b": 3}, {"a": 1, "b": 1}], feed=words,
        opset=20),
    row("RegexFullMatch", [node("RegexFullMatch", ["x"], ["y"], pattern="ab.*")],
        [tensor("x", ["a", "b"], S)], [{"a": 2, "b": 3}, {"a": 0, "b": 1}], feed=words, opset=20),
    row("StringSplit-rank-kept", [node("StringSplit", ["x"], ["y", "n"], delimiter=" ")],
        [tensor("x", ["a", "b"], S)], [{"a": 2, "b": 3}, {"a": 1, "b": 1}], feed=words, opset=20,
        inexact="the most substrings of any string is data"),
    row("StringNormalizer-one-row", [node("StringNormalizer", ["x"], ["y"], case_change_action="UPPER", locale="C")],
        [tensor("x", [1, "c"], S)], [{"c": 3}, {"c": 1}], feed=words, outputs=[tensor("y", None, S)],
        inexact="empty strings are dropped: how many stay is data"),
    row("StringNormalizer-stopwords", [node("StringNormalizer", ["x"], ["y"], stopwords=["ab cd"], locale="C")],
        [tensor("x", ["c"], S)], [{"c": 3}, {"c": 1}], feed=words, outputs=[tensor("y", None, S)],
        inexact="which words are dropped is data"),
    row("TfIdfVectorizer", [node("TfIdfVectorizer", ["x"], ["y"], mode="TF", min_gram_length=1, max_gram_length=1,
                                 max_skip_count=0, ngram_counts=[0], ngram_indexes=[0, 1, 2], pool_int64s=[0, 1, 2])],
        [tensor("x", ["n", "c"], I64)], [{"n": 2, "c": 4}, {"n": 1, "c": 1}]),
]


def _ml_rows() -> list[ParameterSet]:
    """Batch ``n`` of ``f`` features; onnxruntime runs the ML ops at opset 3 of ai.onnx.ml."""
    rows = [
        ("ml-Binarizer", node("Binarizer", ["x"], ["y"], domain=ML), [tensor("x", ["n", "f"])], ()),
        ("ml-Scaler", node("Scaler", ["x"], ["y"], domain=ML, offset=[0.5], scale=[2.0]),
         [tensor("x", ["n", "f"])], ()),
        ("ml-LinearRegressor", node("LinearRegressor", ["x"], ["y"], domain=ML, coefficients=[1.0] * 6, targets=2),
         [tensor("x", ["n", 3])], ()),
        ("ml-ArrayFeatureExtractor", node("ArrayFeatureExtractor", ["x", "i"], ["y"], domain=ML),
         [tensor("x", ["n", "f"])], (const("i", [0, 1]),)),
        ("ml-OneHotEncoder", node("OneHotEncoder", ["x"], ["y"], domain=ML, cats_int64s=[0, 1, 2]),
         [tensor("x", ["n", "f"], I64)], ()),
    ]
    samples: list[dict[str, object]] = [{"n": 2, "f": 3}, {"n": 1, "f": 2}, {"n": 0, "f": 3}]
    return [
        pytest.param(MLRow([n], inputs, samples, inits, outputs=[tensor("y", None)]), id=rid)
        for rid, n, inputs, inits in rows
    ]


ROWS = ATTENTION + RECURRENT + LOSSES + MISC + STRINGS + SCAN8
# New default-domain ops no row above can hold, and where they are checked instead.
_NO_KERNEL = (
    "onnxruntime 1.32 has no kernel for it: checked by tests/e2e/test_onnx_node_tests.py (ONNX's expected outputs)"
)
ELSEWHERE = {
    **{("", op): _NO_KERNEL for op in ("CausalConvWithState", "LinearAttention", "SwiGLU", "ImageDecoder")},
    **{("", op): "test_optional_ops_pass_their_element_through (an optional is no tensor)"
       for op in ("Optional", "OptionalGetElement", "OptionalHasElement")},
    ("", "SequenceMap"): "tests/e2e/test_onnx_node_tests.py (sequence values)",
}


@pytest.mark.parametrize("r", ROWS + _ml_rows())
def test_new_op_rules_against_onnxruntime(r: Row) -> None:
    run_row(r)


def test_optional_ops_pass_their_element_through() -> None:
    """An optional (no tensor, so no row of the table above) gives back its element's shape."""
    nodes = [node("Optional", ["x"], ["o"]), node("OptionalGetElement", ["o"], ["y"]),
             node("OptionalHasElement", ["o"], ["h"])]
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", None), tensor("h", None, TensorProto.BOOL)],
                       opset=18)
    report = assert_exact(check(model, [{"a": 2, "b": 3}, {"a": 1, "b": 0}], values=["y", "h"]))
    assert report.checked_dims == 2 * 2 and report.checked_elements == 2  # h is tracked: it holds an element
    assert [str(d) for d in report.analysis.shape("y") or ()] == ["a", "b"]


def test_a_rule_with_until_serves_only_its_opsets() -> None:
    """Scan-8 has its own rule; opset 9 and the newest get control flow's."""
    from symshape.rules.onnx.control_flow import scan
    from symshape.rules.onnx.scan8 import scan8
    from symshape.rules.registry import lookup

    assert lookup("", "Scan", 8) is scan8
    assert lookup("", "Scan", 9) is scan
    assert lookup("", "Scan", 0) is scan
    assert lookup("", "Scan", 21) is scan
