"""Declared dim labels that name nothing (``?``, ``-1``, empty) or are not plain names
(``p2o.DynamicDimension.1``): no two unknowns merged, every symbol spelled so sympy reads it back.
Checked against onnxruntime runs where sizes differ per axis (a PaddleOCR export declares its
input ``[?, 3, ?, ?]`` and runs at 48x192)."""

from __future__ import annotations

import onnx
import sympy
from onnx import helper

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from symshape.tools.annotate import annotate_model
from tests.oracle import assert_exact, check, make_model, rand, tensor, weight

CONV = helper.make_node("Conv", ["x", "w"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1])


def conv_model(dims: list[int | str | None]) -> onnx.ModelProto:
    return make_model([CONV], [tensor("x", dims)], initializers=[weight("w", [4, 3, 3, 3])])


def test_question_marks_are_three_unknowns_not_one() -> None:
    model = conv_model(["?", 3, "?", "?"])
    report = assert_exact(check(model, [{"x": rand(1, 3, 48, 192)}, {"x": rand(2, 3, 5, 1)}, {"x": rand(1, 3, 1, 7)}]))
    h, w = report.analysis.shape("y")[2:]
    assert h != w  # at 48x192 onnxruntime gives 24 and 96
    assert report.analysis.shape("x") == (sym("x_d0"), 3, sym("x_d2"), sym("x_d3"))
    warnings = [w.message for w in report.analysis.warnings]
    assert sum("'?' names no symbol" in m for m in warnings) == 3


def test_minus_one_empty_and_star_are_each_their_own_unknown() -> None:
    model = conv_model(["-1", 3, "", "*"])
    analysis = analyze_onnx(model)
    assert analysis.shape("x") == (sym("x_d0"), 3, sym("x_d2"), sym("x_d3"))
    assert_exact(check(model, [{"x": rand(2, 3, 9, 4)}, {"x": rand(1, 3, 1, 1)}]))


def test_a_non_identifier_label_gets_one_safe_spelling_shared_by_its_repeats() -> None:
    add = helper.make_node("Add", ["a", "b"], ["c"])
    label = "p2o.DynamicDimension.1"
    model = make_model([add], [tensor("a", [label, 4]), tensor("b", [label, 4])])
    analysis = analyze_onnx(model)
    assert analysis.shape("a")[0] == analysis.shape("b")[0] == sym("p2o_DynamicDimension_1")


def test_labels_that_spell_alike_stay_apart() -> None:
    """``a.b`` would be spelled ``a_b``, a label of its own here; and a label ``x_d1`` is not
    the unnamed dim 1 of ``x``."""
    nodes = [helper.make_node("Identity", [n], [f"{n}_out"]) for n in ("x", "y", "z")]
    model = make_model(nodes, [tensor("x", ["a.b", None]), tensor("y", ["a_b", "x_d1"]), tensor("z", ["a.b", "?"])],
                       outputs=["x_out", "y_out", "z_out"])
    analysis = analyze_onnx(model)
    x, y, z = analysis.shape("x"), analysis.shape("y"), analysis.shape("z")
    assert len({x[0], y[0], x[1], y[1], z[1]}) == 5
    assert z[0] == x[0]


def test_annotations_parse_back_with_sympy() -> None:
    model = conv_model(["p2o.DynamicDimension.0", 3, "p2o.DynamicDimension.1", "?"])
    assert annotate_model(model, analyze_onnx(model)) == 1
    for vi in model.graph.output:
        for d in vi.type.tensor_type.shape.dim:
            if d.dim_param:
                expr = sympy.sympify(d.dim_param, locals={"floor": sympy.floor})
                assert all(str(s).isidentifier() for s in expr.free_symbols), d.dim_param
