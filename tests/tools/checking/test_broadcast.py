"""Broadcasting two symbolic dims requires them to be equal or one of them 1: ``check`` lists that
requirement (a published text-detection model adds a ``floor((w+3)/4)``-wide map to an upsampled
``2*Max(...)``-wide one: at w=5 that is 2 and 8, which onnxruntime refuses, and ``check`` said
"0 violated"), and ``verify`` picks only sizes that meet it. onnxruntime is the oracle: at every
size of a grid, it runs the model exactly when the check passes."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import onnx
import pytest
from click.testing import CliRunner
from onnx import TensorProto, helper

from symshape.api import analyze_onnx, check_shapes
from symshape.app.cli import main
from symshape.tools.verify import attempt
from tests.oracle import make_model, tensor

pytest.importorskip("onnxruntime")


def two_symbols() -> onnx.ModelProto:
    return make_model([helper.make_node("Add", ["x", "y"], ["z"])], [tensor("x", ["a"]), tensor("y", ["b"])],
                      [tensor("z", None)])


def against_a_constant() -> onnx.ModelProto:
    four = helper.make_tensor("four", TensorProto.FLOAT, [4], [1.0, 2.0, 3.0, 4.0])
    return make_model([helper.make_node("Mul", ["x", "four"], ["z"])], [tensor("x", [2, "a"])], [tensor("z", None)],
                      initializers=[four])


def strided_sum() -> onnx.ModelProto:
    """``x[::2] + x[::4]``: lengths ``ceil(n/2)`` and ``ceil(n/4)``, which broadcast for n <= 2
    only (and n = 0... where both are 0)."""
    consts = [helper.make_tensor(n, TensorProto.INT64, [1], [v]) for n, v in
              (("zero", 0), ("big", 1 << 30), ("two", 2), ("four", 4))]
    nodes = [helper.make_node("Slice", ["x", "zero", "big", "zero", "two"], ["h"]),
             helper.make_node("Slice", ["x", "zero", "big", "zero", "four"], ["q"]),
             helper.make_node("Add", ["h", "q"], ["z"])]
    return make_model(nodes, [tensor("x", ["n"])], [tensor("z", None)], initializers=consts)


CASES = {
    "two_symbols": (two_symbols, lambda s: {"x": (s[0],), "y": (s[1],)}, list(itertools.product(range(6), repeat=2))),
    "against_a_constant": (against_a_constant, lambda s: {"x": (2, s[0])}, [(v,) for v in range(9)]),
    "strided_sum": (strided_sum, lambda s: {"x": (s[0],)}, [(v,) for v in range(12)]),
}


@pytest.mark.parametrize("name", CASES)
def test_check_passes_exactly_where_onnxruntime_runs(name: str) -> None:
    build, shapes_at, grid = CASES[name]
    model = build()
    analysis = analyze_onnx(model)
    for sizes in grid:
        shapes = shapes_at(sizes)
        feeds = {k: np.ones(v, np.float32) for k, v in shapes.items()}
        runs = not isinstance(attempt(model, feeds), str)
        result = check_shapes(analysis, shapes)
        assert result.ok == runs, (sizes, runs, result.text())
        if not runs:
            assert any("broadcast (equal, or one is 1)" in v.line() for v in result.violations), result.text()


def test_the_violation_names_the_op_and_the_sizes() -> None:
    model = two_symbols()
    text = check_shapes(analyze_onnx(model), {"x": (3,), "y": (5,)}).text()
    assert "a and b broadcast (equal, or one is 1): 3 and 5" in text
    assert "Add" in text


@pytest.mark.parametrize("name", ["two_symbols", "against_a_constant"])
def test_verify_picks_only_sizes_that_broadcast(name: str, tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(CASES[name][0](), path)
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "refuses" not in result.output and ", 0 wrong" in result.output
