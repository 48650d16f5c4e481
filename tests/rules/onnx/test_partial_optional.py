"""An optional-typed graph input keeps its element's tensor type, so OptionalGetElement on it
has the element's shape. Truth from onnxruntime."""

from __future__ import annotations

from onnx import TensorProto, helper

from tests.oracle import assert_exact, check, make_model, rand, tensor


def test_optional_graph_input_keeps_its_tensor_type() -> None:
    elem = helper.make_tensor_type_proto(TensorProto.FLOAT, ["n", 3])
    opt = helper.make_value_info("o", helper.make_optional_type_proto(elem))
    nodes = [helper.make_node("OptionalGetElement", ["o"], ["t"]), helper.make_node("Relu", ["t"], ["y"])]
    # x binds n for the oracle, which reads sizes from plain tensor inputs only; the claim on t
    # and y comes from the optional's declared element type
    model = make_model([*nodes, helper.make_node("Shape", ["x"], ["xs"])], [opt, tensor("x", ["n"])], ["y", "xs"])
    report = assert_exact(check(model, [{"o": rand(n, 3), "x": rand(n)} for n in (1, 4, 0)]))
    assert [str(d) for d in report.analysis.shape("y")] == ["n", "3"]
