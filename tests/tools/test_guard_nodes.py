"""``symshape annotate --guards``: the requirements written into the model make onnxruntime fail,
naming the requirement, exactly where `symshape.tools.checking` says a requirement breaks; elsewhere the
guarded model gives the same outputs as the original (at every optimization level)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper

from symshape.api import analyze_onnx
from symshape.engine.userfacts import as_facts
from symshape.frontends.onnx.reader import elem_types
from symshape.tools.annotate import annotate_file
from symshape.tools.checking import check_shapes
from symshape.tools.guard_nodes import PREFIX, add_guard_nodes
from symshape.tools.verify import attempt, make_feeds
from tests.oracle import const, make_model, tensor
from tests.paths import MODELS
from tests.tools.checking.test_items import _conv, _float_range, _matmul, _reshape
from tests.tools.checking.test_models import STEMS, _analysis, _bad_envs, _good_envs

N = helper.make_node
LEVELS = (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_ALL)


def _typed(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy with the analysed output types written (onnxruntime loads no untyped output)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    types = elem_types(copy)
    for out in copy.graph.output:
        if not out.type.tensor_type.elem_type:
            out.type.tensor_type.elem_type = types[out.name]
    return copy


def _guarded(model: onnx.ModelProto, facts: Sequence[str] = ()) -> tuple[onnx.ModelProto, int]:
    copy = _typed(model)
    written = add_guard_nodes(copy, analyze_onnx(model, facts=facts))
    if all(o.type.tensor_type.HasField("shape") for o in model.graph.output):
        onnx.checker.check_model(copy)  # the checker needs declared output shapes
    return copy, written.written


def _run(
    model: onnx.ModelProto, feeds: Mapping[str, np.ndarray], level: ort.GraphOptimizationLevel
) -> list[np.ndarray] | str:
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    options.log_severity_level = 4
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    try:
        return [np.asarray(v) for v in session.run(None, dict(feeds))]
    except Exception as err:  # noqa: BLE001 - onnxruntime raises its own exception types
        return str(err)


def _feeds(shapes: Mapping[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    return {name: np.ones(shape, np.float32) for name, shape in shapes.items()}


def _agree(model: onnx.ModelProto, shapes: Mapping[str, tuple[int, ...]], facts: Sequence[str] = ()) -> str:
    """Run the guarded model at ``shapes``: it fails naming the check's first violation exactly
    when the check fails, else gives the original model's outputs. Returns onnxruntime's error."""
    guarded, _ = _guarded(model, facts)
    result = check_shapes(analyze_onnx(model, facts=facts), shapes, facts=as_facts(facts))
    error = ""
    for level in LEVELS:
        got = _run(guarded, _feeds(shapes), level)
        if result.ok:
            assert not isinstance(got, str), got
            want = _run(_typed(model), _feeds(shapes), level)
            assert not isinstance(want, str)
            assert [g.shape for g in got] == [w.shape for w in want]
            assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
        else:
            assert isinstance(got, str), f"the guarded model runs {shapes}, which break {result.violations}"
            assert f"Name:'{PREFIX}" in got, got
            named = got.split(f"Name:'{PREFIX}", 1)[1]
            assert any(
                named.startswith(f"{v.kind} ") and v.condition.split(" ")[-1] in named for v in result.violations
            ), (named, result.violations)
            error = got
    return error


@pytest.mark.parametrize("k", [4, 5, 0])
def test_binding_to_a_constant(k: int) -> None:
    _agree(_matmul(), {"x": (2, k)})


def test_binding_of_one_symbol_in_two_inputs() -> None:
    model = make_model([N("Add", ["a", "b"], ["y"])], [tensor("a", ["n", 3]), tensor("b", ["n", 3])], ["y"])
    assert _guarded(model)[1] == 1
    error = _agree(model, {"a": (1, 3), "b": (2, 3)})
    assert "binding input 'b' dim 0 == n" in error  # onnxruntime alone would broadcast 1 to 2
    _agree(model, {"a": (0, 3), "b": (0, 3)})


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7])
def test_range(n: int) -> None:
    error = _agree(_conv(), {"x": (1, 1, n)})
    assert (n < 3) == ("range n >= 3 (Conv (node 'Conv_0'))" in error)


@pytest.mark.parametrize("n", [0, 1, 4, 6, 12])
def test_divisor(n: int) -> None:
    _agree(_reshape(["n"]), {"x": (n,)})


@pytest.mark.parametrize(("a", "b"), [(2, 2), (3, 3), (1, 4), (0, 3), (5, 1)])
def test_kept_predicate(a: int, b: int) -> None:
    _agree(_reshape(["a", "b"]), {"x": (a, b)})


@pytest.mark.parametrize("sizes", [(3, 5), (7, 2), (6, 4), (1, 1)])
def test_user_facts(sizes: tuple[int, int]) -> None:
    model = make_model([N("Add", ["a", "b"], ["y"])], [tensor("a", ["n", "m"]), tensor("b", ["n", "m"])], ["y"])
    facts = ["n <= 6", "n + m <= 9", "Mod(m, 2) == 0"]
    _agree(model, {"a": sizes, "b": sizes}, facts)


def test_guard_is_written() -> None:
    """``n <= 2**24`` (float32 Range): too large to run past it here; the node must be there."""
    guarded, written = _guarded(_float_range())
    assert written == 1
    assert any(n.name.startswith(f"{PREFIX}guard n <= 16777216 (Range") for n in guarded.graph.node)
    ran = _run(guarded, {"x": np.ones(5, np.float32)}, LEVELS[1])
    assert not isinstance(ran, str) and ran[0].shape == (5,)


def test_data_dependent_requirements_are_left_out() -> None:
    nodes = [N("NonZero", ["x"], ["nz"]), N("Reshape", ["nz", "s"], ["y"])]
    model = make_model(nodes, [tensor("x", ["n"])], ["y"], [const("s", [-1, 2])])
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    written = add_guard_nodes(copy, analyze_onnx(model))
    assert len(written.left_out) == 2 and all("over nonzero_" in t for t in written.left_out)


def test_scalar_only_inputs_get_no_checks() -> None:
    model = make_model([N("Relu", ["x"], ["y"])], [tensor("x", [])], ["y"])
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    assert add_guard_nodes(copy, analyze_onnx(model)).written == 0
    assert len(copy.graph.node) == 1


@pytest.mark.parametrize(("seq", "bad"), [(1, False), (7, False), (64, False), (65, True), (600, True)])
def test_bert_position_table(tmp_path: Path, seq: int, bad: bool) -> None:
    out = tmp_path / "bert_guarded.onnx"
    summary = annotate_file(MODELS / "bert_ts.onnx", out, guards=True)
    assert "requirements written as run-time checks" in summary
    model = onnx.load(out)
    feeds = {i.name: np.ones((2, seq), np.int64) for i in model.graph.input}
    got = _run(model, feeds, LEVELS[1])
    if bad:
        assert isinstance(got, str)
        assert "symshape guard: range seq <= 64 (Add (node '/model/embeddings/Add_1'))" in got
    else:
        assert not isinstance(got, str) and got[0].shape == (2, seq, 32)


@pytest.mark.parametrize("stem", STEMS)
def test_exported_models(stem: str) -> None:
    """Every committed model with its requirements written: the sizes `test_check_models` finds
    within them run with the original output shapes; every size outside one raises, naming a
    requirement, also where onnxruntime alone accepts it (`ORT_LENIENT`)."""
    analysis = _analysis(stem)
    model = onnx.load(MODELS / f"{stem}.onnx")
    written = add_guard_nodes(model, analysis)
    assert written.written >= 1 and len(written.left_out) == (stem == "scripted_control_flow")
    for env in _good_envs(analysis, stem)[:4]:
        feeds = make_feeds(analysis.program, env)
        want, got = attempt(MODELS / f"{stem}.onnx", feeds), attempt(model, feeds)
        assert not isinstance(want, str) and not isinstance(got, str), got
        assert {o: got[o] for o in analysis.program.outputs} == {o: want[o] for o in analysis.program.outputs}
    for env, _names, _symbol, _size in _bad_envs(analysis, stem):
        got = attempt(model, make_feeds(analysis.program, env))
        assert isinstance(got, str) and PREFIX in got, (env, got)


def test_annotate_command_line_flag(tmp_path: Path) -> None:
    out = tmp_path / "guarded.onnx"
    ran = subprocess.run(
        [sys.executable, "-m", "symshape", "annotate", str(MODELS / "bert_ts.onnx"), "-o", str(out), "--guards"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip().endswith("; 7 requirements written as run-time checks")
    assert sum(n.name.startswith(PREFIX) for n in onnx.load(out).graph.node) == 7 * 3  # per input
