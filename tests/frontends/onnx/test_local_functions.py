"""Model-local functions (``FunctionProto``): each call site is analyzed through the function's
body, as onnx's inliner expands it (nested functions, attribute references, overloads), against
onnxruntime runs; the call sites' outputs keep their names, values inside a body are named as
inlined."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from symshape.errors import ModelError
from symshape.tools.annotate import annotate_model
from tests.oracle import IR_VERSION, assert_exact, check

OPSETS = [helper.make_opsetid("", 18), helper.make_opsetid("local", 1)]


def ref(name: str, kind: int, to: str) -> onnx.AttributeProto:
    attr = helper.make_attribute_ref(name, kind)
    attr.ref_attr_name = to
    return attr


def function(name: str, inputs: list[str], outputs: list[str], nodes: list[onnx.NodeProto],
             attributes: tuple[str, ...] = (), overload: str = "") -> onnx.FunctionProto:
    fn = helper.make_function("local", name, inputs, outputs, nodes, OPSETS, attributes=list(attributes))
    fn.overload = overload
    return fn


def model(nodes: list[onnx.NodeProto], functions: list[onnx.FunctionProto], out: str = "z") -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["a", "b"])],
                              [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)])
    m = helper.make_model(graph, opset_imports=OPSETS, functions=functions)
    m.ir_version = IR_VERSION
    return m


SAMPLES = [{"a": 2, "b": 3}, {"a": 1, "b": 1}, {"a": 0, "b": 4}, {"a": 5, "b": 0}]


def test_nested_functions_with_attribute_references() -> None:
    """``Outer(x, ax)`` = ``Concat([Swap(x), Swap(x)], axis=ax)``, called with ax 0 then 1."""
    swap = function("Swap", ["t"], ["u"], [helper.make_node("Transpose", ["t"], ["u"], perm=[1, 0])])
    concat = helper.make_node("Concat", ["s", "s"], ["y"])
    concat.attribute.append(ref("axis", onnx.AttributeProto.INT, "ax"))
    outer = function("Outer", ["x"], ["y"], [helper.make_node("Swap", ["x"], ["s"], domain="local"), concat],
                     attributes=("ax",))
    m = model([helper.make_node("Outer", ["x"], ["y"], domain="local", ax=0),
               helper.make_node("Outer", ["y"], ["z"], domain="local", ax=1)], [swap, outer])
    report = assert_exact(check(m, SAMPLES))
    a, b = sym("a"), sym("b")
    assert report.analysis.shape("y") == (2 * b, a)  # x [a, b] -> swapped [b, a] -> stacked on axis 0
    assert report.analysis.shape("z") == (a, 4 * b)
    assert not report.analysis.warnings


def test_overloads_pick_their_own_body() -> None:
    """Two functions ``Pick`` told apart by ``overload`` (IR 10): one flattens, one doubles a row."""
    flat = function("Pick", ["t"], ["u"], [helper.make_node("Flatten", ["t"], ["u"], axis=0)], overload="flat")
    rows = function("Pick", ["t"], ["u"], [helper.make_node("Concat", ["t", "t"], ["u"], axis=0)], overload="rows")
    first = helper.make_node("Pick", ["x"], ["f"], domain="local")
    first.overload = "flat"
    second = helper.make_node("Pick", ["x"], ["r"], domain="local")
    second.overload = "rows"
    m = model([first, second, helper.make_node("Identity", ["r"], ["z"])], [flat, rows])
    report = assert_exact(check(m, SAMPLES))
    assert report.analysis.shape("f") == (1, sym("a") * sym("b"))
    assert report.analysis.shape("z") == (2 * sym("a"), sym("b"))


def test_a_call_to_a_function_the_model_lacks_is_no_crash() -> None:
    m = model([helper.make_node("Missing", ["x"], ["z"], domain="local")], [
        function("Other", ["t"], ["u"], [helper.make_node("Identity", ["t"], ["u"])])])
    result = analyze_onnx(m)
    assert any("no rule for local.Missing" in w.message for w in result.warnings)


def test_a_malformed_function_body_is_a_model_error() -> None:
    broken = function("Bad", ["t"], ["u"], [helper.make_node("Relu", ["nowhere"], ["u"])])
    m = model([helper.make_node("Bad", ["x"], ["z"], domain="local")], [broken])
    with pytest.raises(ModelError):
        analyze_onnx(m)


def test_annotate_writes_only_the_graphs_own_values() -> None:
    """The call sites' outputs get shapes; names inside the inlined bodies are not the graph's."""
    swap = function("Swap", ["t"], ["u"], [helper.make_node("Transpose", ["t"], ["u"], perm=[1, 0])])
    m = model([helper.make_node("Swap", ["x"], ["y"], domain="local"), helper.make_node("Neg", ["y"], ["z"])], [swap])
    assert annotate_model(m, analyze_onnx(m), types={"y": TensorProto.FLOAT}) == 2
    assert [vi.name for vi in m.graph.value_info] == ["y"]
    dims = [d.dim_param for d in m.graph.value_info[0].type.tensor_type.shape.dim]
    assert dims == ["b", "a"]
