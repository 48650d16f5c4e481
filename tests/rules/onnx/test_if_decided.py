"""An If whose branches differ in rank or shape: exact when the condition is proven (a tracked
constant, a size relation the facts decide, or an input's value given with ``--value``), else
unknown with a warning that names the fact that would decide it. onnxruntime is the oracle.

Two idioms from deployed models: ``If(Equal(Shape(x)[1], 1), Squeeze, Identity)`` (an exporter's
"squeeze if the size is 1") and a voice model's 8 kHz / 16 kHz paths picked on its ``sr`` input.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from click.testing import CliRunner
from onnx import TensorProto, helper

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from symshape.app.cli import main
from symshape.engine.userfacts import parse_value
from symshape.errors import UserFactError
from symshape.tools.verify.inputs import given_values
from tests.oracle import assert_exact, check, const, make_model, rand, tensor


def squeeze_if_one() -> onnx.ModelProto:
    then = helper.make_graph([helper.make_node("Squeeze", ["x", "one"], ["o"])], "then", [], [tensor("o", None)],
                             [const("one", [1])])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["o"])], "else", [], [tensor("o", None)])
    nodes = [helper.make_node("Shape", ["x"], ["s"], start=1, end=2), helper.make_node("Squeeze", ["s"], ["s0"]),
             helper.make_node("Equal", ["s0", "c1"], ["c"]),
             helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other),
             helper.make_node("Neg", ["y"], ["z"])]
    return make_model(nodes, [tensor("x", ["a", "b", "c"])], initializers=[const("c1", 1)])


def by_rate() -> onnx.ModelProto:
    """16 kHz: frames of 512 samples; else (8 kHz): frames of 256."""
    def frames(name: str, width: int) -> onnx.GraphProto:
        return helper.make_graph([helper.make_node("Reshape", ["x", f"shape{width}"], ["o"])], name, [],
                                 [tensor("o", None)], [const(f"shape{width}", [0, -1, width])])
    nodes = [helper.make_node("Equal", ["sr", "k16"], ["c"]),
             helper.make_node("If", ["c"], ["y"], then_branch=frames("k16", 512), else_branch=frames("k8", 256))]
    return make_model(nodes, [tensor("x", ["b", "n"]), tensor("sr", [], TensorProto.INT64)],
                      initializers=[const("k16", 16000)])


@pytest.mark.parametrize(("facts", "dims"), [(["b >= 2"], ("a", "b", "c")), (["b == 1"], ("a", "c")),
                                             (["b=3..7"], ("a", "b", "c"))])
def test_a_size_fact_decides_squeeze_if_one(facts: list[str], dims: tuple[str, ...]) -> None:
    b = 1 if "b == 1" in facts else 3
    report = assert_exact(check(squeeze_if_one(), [{"a": 2, "b": b, "c": 4}, {"a": 1, "b": b, "c": 1},
                                                     {"a": 0, "b": b, "c": 5}], facts=facts))
    assert report.analysis.shape("z") == tuple(sym(d) for d in dims)
    assert not report.analysis.warnings


def test_an_undecided_condition_names_the_fact_that_would_decide_it() -> None:
    result = analyze_onnx(squeeze_if_one())
    assert any("the condition 'b - 1 == 0' decides" in w.message for w in result.warnings)


def test_the_value_of_an_input_decides_the_path() -> None:
    model = by_rate()
    undecided = analyze_onnx(model)
    assert any("the values of 'sr' decide (give them: --value sr=...)" in w.message for w in undecided.warnings)
    for sr, width in ((16000, 512), (8000, 256)):
        samples = [{"x": rand(b, n), "sr": np.array(sr, np.int64)} for b, n in ((1, 2048), (2, 4096), (3, 1024))]
        report = assert_exact(check(model, samples, analysis=analyze_onnx(model, facts=[parse_value(f"sr={sr}")])))
        y = report.analysis.shape("y")
        assert y is not None and y[0] == sym("b") and y[2] == width  # y[1] checked at each run
        assert not report.analysis.warnings


def test_verify_feeds_the_given_value(tmp_path: Path) -> None:
    path = tmp_path / "vad.onnx"
    onnx.save(by_rate(), path)
    result = CliRunner().invoke(main, ["verify", str(path), "--value", "sr=16000", "--size", "n=512,1024,4096"])
    assert result.exit_code == 0 and " 0 wrong" in result.output, result.output
    assert given_values(analyze_onnx(by_rate(), facts=[parse_value("sr=16000")]))["sr"].tolist() == 16000


@pytest.mark.parametrize(("item", "match"), [("nope=3", "no such input"), ("x=3", "element type is float32"),
                                             ("sr=1,2", "2 values for an input of shape"),
                                             ("sr", "not an input's value")])
def test_a_bad_value_fact_is_a_user_fact_error(item: str, match: str) -> None:
    with pytest.raises(UserFactError, match=match):
        analyze_onnx(by_rate(), facts=[parse_value(item)])
