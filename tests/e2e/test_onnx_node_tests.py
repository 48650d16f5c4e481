"""ONNX's backend node tests as part of the suite, with their expected outputs as the oracle.

scripts/node_tests.py analyzes each of the cases the ``onnx`` package generates, as shipped and
with every input dim made a symbol, and counts every output dim as exact, wrong, unresolved or
an error. Nothing may be wrong and nothing may raise; the exact fraction may only go up (the
floors below are what the rules reach today; raise them when the rules improve). Dims that
depend on the *values* of a test's inputs (a Reshape's target given as an input) cannot be
exact here: they are the bulk of what stays unresolved (``scripts/node_tests_tools.py
--ceiling`` counts them per op).

scripts/node_tests_tools.py scores onnx's, onnxruntime's and onnx-shape-inference's inference on
the same cases and dims; symshape must stay ahead of the best of them per dim, in both variants.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.paths import ROOT

SCRIPT = ROOT / "scripts" / "node_tests.py"
TOOLS_SCRIPT = SCRIPT.with_name("node_tests_tools.py")
FLOORS = {"shipped": 0.880, "symbolic": 0.857}  # the exact fraction reached; a ratchet


def _script(path: Path = SCRIPT) -> ModuleType:
    if path.stem in sys.modules:
        return sys.modules[path.stem]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return _script()


@pytest.fixture(scope="module")
def cases(script: ModuleType) -> list[Any]:
    found = script.node_cases()
    assert len(found) > 1500  # the generators ran
    return found


@pytest.fixture(scope="module")
def measured(script: ModuleType, cases: list[Any]) -> dict[str, Any]:
    """Per variant, the per-op tallies (measured once for the tests below)."""
    return {}


def _measure(script: ModuleType, cases: list[Any], measured: dict[str, Any], variant: str) -> Any:
    if variant not in measured:
        measured[variant] = script.measure(variant, cases)
    return measured[variant]


@pytest.mark.parametrize("variant", ["shipped", "symbolic"])
def test_node_tests_nothing_wrong_nothing_raises(
    script: ModuleType, cases: list[Any], measured: dict[str, Any], variant: str
) -> None:
    per_op = _measure(script, cases, measured, variant)
    total = script.overall(per_op)
    wrong = [x for t in per_op.values() for x in t.examples.get("wrong", [])]
    errors = [x for t in per_op.values() for x in t.examples.get("error", [])]
    assert total.counts["wrong"] == 0, wrong
    assert total.counts["error"] == 0, errors
    assert total.fraction() >= FLOORS[variant], "\n".join(script.report(variant, per_op, ops=False, show=None))


@pytest.mark.parametrize("variant", ["shipped", "symbolic"])
def test_node_tests_no_guard_that_the_shipped_sizes_break(
    script: ModuleType, cases: list[Any], measured: dict[str, Any], variant: str
) -> None:
    per_op = _measure(script, cases, measured, variant)
    broken = [x for t in per_op.values() for x in t.examples.get("broken", [])]
    assert script.overall(per_op).broken == 0, broken


def test_the_scoring_catches_a_wrong_dim(script: ModuleType, cases: list[Any]) -> None:
    """The oracle is the expected outputs: a claim that differs from them counts as wrong."""
    from symshape.api import analyze_onnx

    case = next(c for c in cases if c.name == "test_transpose_default")
    model = script.variant(case.model, "symbolic")
    analysis = analyze_onnx(model)
    tally = script.Tally()
    expected = tuple(int(d) for d in case.data_sets[0][1][0].shape)
    env = script.bindings(model, {vi.name: x for vi, x in zip(model.graph.input, case.data_sets[0][0], strict=True)})
    script.score_output(analysis, model.graph.output[0].name, expected, env, tally)
    assert tally.counts["exact"] == len(expected)
    script.score_output(analysis, model.graph.output[0].name, (*expected[:-1], expected[-1] + 1), env, tally)
    assert tally.counts["wrong"] == 1


@pytest.mark.needs_bench
@pytest.mark.parametrize("variant", ["shipped", "symbolic"])
def test_node_tests_ahead_of_the_other_tools(cases: list[Any], variant: str) -> None:
    """More dims exact than the best of onnx, onnxruntime and onnx-shape-inference per dim, and
    symshape's scoring here agrees with scripts/node_tests.py's (no wrong dim, no error)."""
    tools = _script(TOOLS_SCRIPT)
    result = tools.measure(variant, cases, ["symshape", *tools.OTHERS])
    counts = result["counts"]
    table = "\n".join(tools.report(variant, result, gaps=True, show=None))
    assert counts["symshape"]["wrong"] == 0 and counts["symshape"]["error"] == 0, table
    assert counts["symshape"]["exact"] > counts["best"]["exact"], table


@pytest.mark.parametrize(
    ("dim", "size", "expected"),
    [
        (6, 6, "exact"),
        (5, 6, "wrong"),
        ("in0_d1*2", 6, "exact"),  # an expression over the input symbols, evaluated at the binding
        ("2*in0_d1 + 1", 6, "wrong"),
        ("floor(in0_d1/2) + 1", 2, "exact"),
        ("in0_d1/3", 1, "exact"),  # true division (ORT writes it): exact where it evaluates right
        ("unk__3", 6, "unresolved"),  # a name the tool invented: not a function of the inputs
        ("in0_d1*unk__3", 6, "unresolved"),
        (None, 6, "unresolved"),
    ],
)
def test_the_other_tools_dims_are_scored_like_symshapes(dim: Any, size: int, expected: str) -> None:
    tools = _script(TOOLS_SCRIPT)
    assert tools.verdict(dim, size, {"in0_d1": 3}) == expected
