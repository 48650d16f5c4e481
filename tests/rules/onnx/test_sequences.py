"""Sequence ops against onnxruntime: SplitToSequence / ConcatFromSequence round trips, lengths
feeding Range and ConstantOfShape, SequenceAt at negative and unknown positions, insert and erase.

Each model is run at several sizes (1 included) by `tests.oracle.check_model`, which
compares every tensor dim and tracked element the analysis claims with what onnxruntime computes.
Sequence values themselves are not tensors: the analysis gives them no shape.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import ModelError
from symshape.frontends.onnx.reader import elem_types
from tests.oracle import check_model, make_model, rand, tensor

F, I64 = TensorProto.FLOAT, TensorProto.INT64  # element types of inputs and outputs
OPSET = 17


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: Sequence[str]) -> onnx.ModelProto:
    model = make_model(nodes, inputs, [], opset=OPSET)
    model.ir_version = 9
    types = elem_types(model)
    model.graph.output.extend(tensor(o, None, types.get(o, F)) for o in outputs)
    return model


def _i64(name: str, values: int | list[int]) -> onnx.NodeProto:
    dims = [] if isinstance(values, int) else [len(values)]
    vals = [values] if isinstance(values, int) else values
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(name + "_v", I64, dims, vals))


def _dims(result: Analysis, name: str) -> list[str]:
    shape = result.shape(name)
    assert shape is not None, f"no shape for {name}"
    return [str(d) for d in shape]


def test_split_dynamic_dim_and_concat_back() -> None:
    """Split b into b pieces of width 1 and concatenate them again: [a, b] comes back."""
    nodes = [
        helper.make_node("SplitToSequence", ["x"], ["s"], axis=1),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=1),
        helper.make_node("SequenceLength", ["s"], ["n"]),
        helper.make_node("SequenceAt", ["s", "k"], ["z"]),
        _i64("k", -1),
    ]
    nodes = [nodes[-1], *nodes[:-1]]
    model = _model(nodes, [tensor("x", ["a", "b"])], ["y", "n", "z"])
    result, _ = check_model(model, [{"x": rand(a, b)} for a, b in [(2, 3), (1, 1), (4, 1), (1, 5)]])
    assert _dims(result, "y") == ["a", "b"]
    assert _dims(result, "z") == ["a", "1"]
    assert [str(e) for e in result.elements("n") or ()] == ["b"]
    assert result.shape("s") is None  # a sequence has no tensor shape
    assert not any(u.value == "s" for u in result.unresolved)


def test_split_by_computed_sizes() -> None:
    """Sizes [2, b - 2] read from the shape: two pieces, the second (a, b - 2)."""
    nodes = [
        helper.make_node("Shape", ["x"], ["sh"], start=1),
        _i64("two", [2]),
        helper.make_node("Sub", ["sh", "two"], ["rest"]),
        helper.make_node("Concat", ["two", "rest"], ["sizes"], axis=0),
        helper.make_node("SplitToSequence", ["x", "sizes"], ["s"], axis=1),
        _i64("one", 1),
        helper.make_node("SequenceAt", ["s", "one"], ["z"]),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=1),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"])], ["z", "y"])
    result, _ = check_model(model, [{"x": rand(a, b)} for a, b in [(2, 3), (1, 2), (3, 7)]])
    assert _dims(result, "z") == ["a", "b - 2"]
    assert _dims(result, "y") == ["a", "b"]


def test_scalar_split_static_dim_has_a_short_last_piece() -> None:
    nodes = [
        _i64("three", 3),
        helper.make_node("SplitToSequence", ["x", "three"], ["s"], axis=1),
        _i64("last", -1),
        helper.make_node("SequenceAt", ["s", "last"], ["z"]),
        _i64("first", 0),
        helper.make_node("SequenceAt", ["s", "first"], ["w"]),
        helper.make_node("SequenceLength", ["s"], ["n"]),
    ]
    model = _model(nodes, [tensor("x", ["a", 7])], ["z", "w", "n"])
    result, _ = check_model(model, [{"x": rand(a, 7)} for a in (1, 3)])
    assert _dims(result, "z") == ["a", "1"]
    assert _dims(result, "w") == ["a", "3"]
    assert result.elements("n") == (3,)


def test_scalar_split_of_a_divisible_dynamic_dim() -> None:
    """With b divisible by 2 (a user fact) all pieces are (a, 2) and there are b/2 of them."""
    nodes = [
        _i64("two", 2),
        helper.make_node("SplitToSequence", ["x", "two"], ["s"], axis=1),
        helper.make_node("SequenceAt", ["s", "p"], ["z"]),
        helper.make_node("SequenceLength", ["s"], ["n"]),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"]), tensor("p", [], I64)], ["z", "n"])
    samples = [{"x": rand(a, b), "p": np.array(p, np.int64)} for a, b, p in [(1, 2, 0), (3, 6, -1), (2, 8, 2)]]
    result, _ = check_model(model, samples, facts=["b % 2 == 0"])
    assert _dims(result, "z") == ["a", "2"]
    assert [str(e) for e in result.elements("n") or ()] == ["floor(b/2)"]


def test_length_feeds_range_and_constant_of_shape() -> None:
    nodes = [
        helper.make_node("SplitToSequence", ["x"], ["s"], axis=0, keepdims=0),
        helper.make_node("SequenceLength", ["s"], ["n"]),
        _i64("zero", 0),
        _i64("step", 1),
        helper.make_node("Range", ["zero", "n", "step"], ["r"]),
        _i64("ax", [0]),
        helper.make_node("Unsqueeze", ["n", "ax"], ["n1"]),
        helper.make_node("ConstantOfShape", ["n1"], ["c"]),
        helper.make_node("SequenceAt", ["s", "zero"], ["row"]),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"])], ["r", "c", "row"])
    result, _ = check_model(model, [{"x": rand(a, b)} for a, b in [(1, 1), (3, 2), (5, 4)]])
    assert _dims(result, "r") == ["a"]
    assert _dims(result, "c") == ["a"]
    assert _dims(result, "row") == ["b"]
    assert _dims(result, "n1") == ["1"]


def test_construct_at_negative_positions_insert_and_erase() -> None:
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "y", "x"], ["s"]),
        _i64("m2", -2),
        helper.make_node("SequenceAt", ["s", "m2"], ["at_y"]),
        _i64("m3", -3),
        helper.make_node("SequenceAt", ["s", "m3"], ["at_x"]),
        _i64("zero", 0),
        helper.make_node("SequenceInsert", ["s", "y", "zero"], ["s2"]),
        helper.make_node("SequenceErase", ["s2"], ["s3"]),  # drops the last x
        helper.make_node("SequenceErase", ["s3", "m2"], ["s4"]),  # drops the first x: [y, y]
        helper.make_node("SequenceLength", ["s4"], ["n"]),
        helper.make_node("ConcatFromSequence", ["s4"], ["cat"], axis=-1),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c", "b"])], ["at_y", "at_x", "n", "cat"])
    samples = [{"x": rand(a, b), "y": rand(c, b)} for a, b, c in [(2, 3, 4), (1, 1, 1), (3, 2, 1)]]
    result, _ = check_model(model, samples)
    assert _dims(result, "at_y") == ["c", "b"]
    assert _dims(result, "at_x") == ["a", "b"]
    assert result.elements("n") == (2,)
    assert _dims(result, "cat") == ["c", "2*b"]


def test_construct_then_stack_with_new_axis() -> None:
    """Stacking needs equal shapes: a fact that ties c to a and d to b."""
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "y"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["z"], axis=1, new_axis=1),
        helper.make_node("SequenceEmpty", [], ["e"]),
        helper.make_node("SequenceInsert", ["e", "x"], ["e1"]),
        helper.make_node("ConcatFromSequence", ["e1"], ["w"], axis=-1, new_axis=1),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c", "d"])], ["z", "w"])
    samples = [{"x": rand(a, b), "y": rand(a, b)} for a, b in [(2, 3), (1, 1), (1, 4)]]
    result, _ = check_model(model, samples)
    assert _dims(result, "z") == ["a", "2", "b"]
    assert _dims(result, "w") == ["a", "b", "1"]
    assert result.same_dim(("x", 0), ("y", 0)) is True
    assert result.same_dim(("x", 1), ("y", 1)) is True


def test_stacked_shape_tensors_keep_their_elements() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["sx"]),
        helper.make_node("Shape", ["y"], ["sy"]),
        helper.make_node("SequenceConstruct", ["sx", "sy"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["nc"], axis=0),
        helper.make_node("ConcatFromSequence", ["s"], ["ns"], axis=0, new_axis=1),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c", "d"])], ["nc", "ns"])
    samples = [{"x": rand(a, b), "y": rand(c, d)} for a, b, c, d in [(2, 3, 1, 5), (1, 1, 1, 1)]]
    result, _ = check_model(model, samples)
    assert [str(e) for e in result.elements("nc") or ()] == ["a", "b", "c", "d"]
    assert [str(e) for e in result.elements("ns") or ()] == ["a", "b", "c", "d"]
    assert _dims(result, "ns") == ["2", "2"]


def test_concat_of_elements_of_different_rank_is_a_model_error() -> None:
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "y"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["z"], axis=0),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c"])], ["z"])
    with pytest.raises(ModelError, match="sequence element 1 has rank 1, element 0 has 2"):
        analyze_onnx(model)


def test_unknown_position_of_elements_that_differ_warns() -> None:
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "y"], ["s"]),
        helper.make_node("SequenceAt", ["s", "p"], ["z"]),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c", "b"]), tensor("p", [], I64)], ["z"])
    result = analyze_onnx(model)
    assert [w.op_type for w in result.warnings] == ["SequenceAt"]
    assert any(u.value == "z" for u in result.unresolved)


def test_constant_position_out_of_range_is_a_model_error() -> None:
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
        _i64("k", 2),
        helper.make_node("SequenceAt", ["s", "k"], ["z"]),
    ]
    model = _model(nodes, [tensor("x", ["a"])], ["z"])
    with pytest.raises(ModelError, match="position 2 is out of range for a sequence of 2 elements"):
        analyze_onnx(model)


def test_position_on_an_unknown_length_is_a_fact() -> None:
    """SequenceAt(s, 2) on the b pieces of x needs b >= 3: the range of b records it."""
    nodes = [
        helper.make_node("SplitToSequence", ["x"], ["s"], axis=1, keepdims=0),
        _i64("k", 2),
        helper.make_node("SequenceAt", ["s", "k"], ["z"]),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"])], ["z"])
    result, _ = check_model(model, [{"x": rand(a, b)} for a, b in [(1, 3), (2, 5)]])
    assert _dims(result, "z") == ["a"]
    assert result.symbols()["b"]["range"][0] == 3


def test_loop_body_reads_an_outer_sequence() -> None:
    """A Loop over the rows of x, as a sequence: each iteration takes element i (an unknown
    position, but all rows share the shape [b]) and scans it out: [a, b] again."""
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("SequenceAt", ["s", "i"], ["row"]),
        ],
        "body",
        [tensor("i", [], I64), tensor("cond_in", [], TensorProto.BOOL)],
        [tensor("cond_out", [], TensorProto.BOOL), tensor("row", None)],
    )
    nodes = [
        helper.make_node("SplitToSequence", ["x"], ["s"], axis=0, keepdims=0),
        helper.make_node("SequenceLength", ["s"], ["n"]),
        helper.make_node("Loop", ["n", ""], ["rows"], body=body),
    ]
    model = _model(nodes, [tensor("x", ["a", "b"])], ["rows"])
    result, _ = check_model(model, [{"x": rand(a, b)} for a, b in [(1, 1), (3, 2), (2, 5)]])
    assert _dims(result, "rows") == ["a", "b"]
