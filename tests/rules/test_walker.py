"""The walk calls each op's rule once, and again only for an op whose watched facts changed.

An exported 96-layer decoder once cost 44,006 rule calls for 22,003 nodes: a fact learned late
(a Reshape's ``-1`` needs ``seq >= 1``) changed a symbol one early op watched, and the whole
program was walked a second time. Now only that op runs again (and what its new result changes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from onnx import helper

import symshape.rules.walker
from symshape.api import analyze_onnx
from symshape.engine.context import State
from symshape.engine.program import Op, Program
from tests.conftest import MODELS_DIR
from tests.oracle import check_model, const, make_model, tensor


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Rule calls per op name, counted at the walker's one entry to a rule."""
    counted: Counter[str] = Counter()
    run = symshape.rules.walker.run_op

    def counting(program: Program, state: State, op: Op) -> None:
        counted[op.name] += 1
        run(program, state, op)

    monkeypatch.setattr(symshape.rules.walker, "run_op", counting)
    yield counted


def test_a_chain_calls_each_rule_once(calls: Counter[str]) -> None:
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"),
        helper.make_node("Relu", ["y"], ["r"], name="relu"),
        helper.make_node("Shape", ["r"], ["s"], name="shape"),
        helper.make_node("Reshape", ["r", "flat"], ["z"], name="reshape"),
    ]
    model = make_model(nodes, [tensor("x", ["b", "k"]), tensor("w", ["k", 8])], None, [const("flat", [-1])])
    result = analyze_onnx(model)
    assert str(result.shape("z")[0]) == "8*b"
    assert calls == Counter({"mm": 1, "relu": 1, "shape": 1, "reshape": 1})


def test_only_the_op_whose_watched_fact_changed_runs_again(calls: Counter[str]) -> None:
    """Gemm's bias ``c`` may be 1 or 4, so Gemm watches it; the Reshape later needs ``c >= 1``.
    Gemm runs again (its result is the same), no other op does."""
    nodes = [
        helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="gemm"),
        helper.make_node("Shape", ["c"], ["sc"], name="shape"),
        helper.make_node("Concat", ["minus1", "sc"], ["target"], axis=0, name="concat"),
        helper.make_node("Reshape", ["x", "target"], ["z"], name="reshape"),
    ]
    inputs = [tensor("a", ["m", 3]), tensor("b", [3, 4]), tensor("c", ["c"]), tensor("x", ["p", "c"])]
    model = make_model(nodes, inputs, ["y", "z"], [const("minus1", [-1])])
    result, _ = check_model(model, [{"m": 2, "c": 4, "p": 3}, {"m": 1, "c": 1, "p": 5}])
    assert result.graph.facts.get("c").lo == 1  # the late fact that made Gemm stale
    assert calls == Counter({"gemm": 2, "shape": 1, "concat": 1, "reshape": 1})


def test_an_exported_model_runs_about_one_rule_per_node(calls: Counter[str]) -> None:
    import onnx

    model = onnx.load(str(MODELS_DIR / "bert_ts.onnx"))
    analyze_onnx(model)
    nodes = len(model.graph.node)
    assert nodes <= sum(calls.values()) <= nodes + nodes // 20
    assert all(n <= 2 for n in calls.values())
