"""``symshape verify --sizes-around-guards``: sizes just inside and just outside every printed
guard, run by onnxruntime (the oracle: whether the model accepts a size is its answer, not ours).

A guard whose breaking size onnxruntime refuses is needed; one a size the model accepts breaks
is a failure. The mechanism is tested with guards added to real analyses (so the tests do not
depend on which guards today's rules print), the verdicts on real models, and the issue 14
cases where symshape used to print an avoidable guard (now exact: none broken).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import onnx
import pytest
from click.testing import CliRunner
from onnx import helper

from symshape.algebra.expr import Dim, smin, sym
from symshape.api import analyze_onnx
from symshape.app.cli import main
from symshape.engine.provenance import Guard as GraphGuard
from symshape.engine.provenance import Origin
from symshape.engine.result import Analysis
from symshape.tools.verify import assignments, check, make_feeds
from symshape.tools.verify.around import (
    BROKEN,
    NEEDED,
    UNBROKEN,
    UNCHECKED,
    Probe,
    check_around_guards,
    guard_sides,
    printed_guards,
    probe,
)
from symshape.tools.verify.run import attempt
from tests.e2e.test_models import CASES, MODELS
from tests.oracle import const, make_model, tensor, weight

N = helper.make_node
n, a = sym("n"), sym("a")


def _relu(dims: list[int | str]) -> onnx.ModelProto:
    return make_model([N("Relu", ["x"], ["y"])], [tensor("x", dims)], ["y"])


def _with_guard(analysis: Analysis, lhs: Dim, rel: str, rhs: Dim) -> Analysis:
    """``analysis`` with one more listed guard (as a rule would add it)."""
    analysis.graph.guards.append(GraphGuard(lhs, rel, rhs, Origin("Test", "added")))
    return analysis


def _probes(model: onnx.ModelProto, analysis: Analysis) -> list[Probe]:
    """Each listed guard probed around the first ordinary assignment."""
    return check_around_guards(model, analysis, assignments(analysis, n=1, edge=False)[0])[0]


# ------------------------------------------------------------------ the sides of a guard


def test_a_lower_bound_is_tried_at_the_bound_and_one_below():
    model = _relu(["n", 3])
    (p,) = _probes(model, _with_guard(analyze_onnx(model), n, ">=", 10))
    assert p.sides.holds == {"n": 10} and p.sides.breaks[0] == {"n": 9}
    assert p.holds_error == "" and p.tried == (({"n": 9}, ""),)  # onnxruntime runs both
    assert p.verdict == BROKEN and "BROKEN by a size the model accepts" in p.line()


def test_an_equality_is_tried_at_the_value_and_next_to_it():
    model = _relu(["n", 3])
    (p,) = _probes(model, _with_guard(analyze_onnx(model), n, "==", 7))
    assert p.sides.holds == {"n": 7} and p.sides.breaks[0]["n"] in (6, 8)
    assert p.verdict == BROKEN


def test_sizes_keep_the_symbols_divisor():
    model = _relu(["n", 3])
    analysis = _with_guard(analyze_onnx(model, facts=["Mod(n, 4) == 0"]), n, ">=", 10)
    (p,) = _probes(model, analysis)
    assert p.sides.holds == {"n": 12} and p.sides.breaks[0] == {"n": 8}


def test_sizes_keep_the_kept_predicates():
    """Reshape(x[a, b], [-1, 4]) needs 4 | a*b: both sides of a guard on ``a`` keep it, and
    onnxruntime runs them."""
    model = make_model([N("Reshape", ["x", "s"], ["y"])], [tensor("x", ["a", "b"])], ["y"], [const("s", [-1, 4])])
    analysis = _with_guard(analyze_onnx(model), a, ">=", 10)
    (p,) = _probes(model, analysis)
    assert p.sides.holds is not None
    for env in (p.sides.holds, *p.sides.breaks):
        assert env["a"] * env["b"] % 4 == 0, env
    assert p.sides.holds["a"] >= 10 > p.sides.breaks[0]["a"]
    assert p.holds_error == "" and p.verdict == BROKEN


def _unknown_broadcasts(analysis: Analysis) -> Analysis:
    """The analysis as if it did not know the broadcasts its model needs (its requirements): the
    probes then try sizes onnxruntime refuses."""
    analysis.graph.broadcasts.clear()
    return analysis


def test_a_guard_the_model_needs_is_needed():
    """x[n] + w[8]: onnxruntime refuses n = 9, so a guard 'n <= 8' is needed."""
    model = make_model([N("Add", ["x", "w"], ["y"])], [tensor("x", ["n"])], ["y"], [weight("w", [8])])
    (p,) = _probes(model, _with_guard(_unknown_broadcasts(analyze_onnx(model)), n, "<=", 8))
    assert p.sides.holds == {"n": 8} and p.sides.breaks[0] == {"n": 9}
    assert p.holds_error == "" and p.tried[0][1] and "Add" in (p.tried[0][1] or "")
    assert p.verdict == NEEDED and "needed (onnxruntime refuses the sizes that break it)" in p.line()


def test_a_guard_that_never_holds_is_broken_where_the_model_runs():
    model = _relu(["n", 3])
    (p,) = _probes(model, _with_guard(analyze_onnx(model), n, ">=", n + 1))
    assert p.sides.holds is None and p.sides.breaks and p.verdict == BROKEN


def test_a_guard_no_admitted_size_breaks():
    """``n*n != 20`` holds at every admitted n in [4, 6], but the facts' bounds ([16, 36]) do not
    prove it: it is printed, and no side breaks it."""
    model = _relu(["n", 3])
    (p,) = _probes(model, _with_guard(analyze_onnx(model, facts=["n=4..6"]), n * n, "!=", 20))
    assert p.sides.holds is not None and p.sides.breaks == () and p.verdict == UNBROKEN


def test_a_guard_the_facts_prove_is_not_printed():
    """``n != 7`` with n in [4, 6] is proven (the one decider, ``ConstraintGraph.decide``): it is
    no assumption, so it is neither printed nor probed."""
    model = _relu(["n", 3])
    analysis = _with_guard(analyze_onnx(model, facts=["n=4..6"]), n, "!=", 7)
    assert analysis.guards() == []
    assert _probes(model, analysis) == []


def test_a_guard_over_a_symbol_no_input_size_sets_is_unchecked():
    model = _relu(["n", 3])
    analysis = _with_guard(analyze_onnx(model), sym("k"), ">=", 2)
    calls: list[dict[str, int]] = []
    (g,) = printed_guards(analysis)
    p = probe(analysis, guard_sides(analysis, g, {"n": 2}), lambda env: calls.append(env) or "")
    assert p.verdict == UNCHECKED and not calls
    assert "unchecked" in p.line()


def test_a_guard_broken_only_with_another_symbol_at_1():
    """'Min(m, n) >= 1' on an Add of x[n] and y[m]: n = 0 with m = 3 is refused, but n = 0 with
    m = 1 runs (0 broadcasts with 1), so a size the model accepts breaks the guard."""
    model = make_model([N("Add", ["x", "y"], ["z"])], [tensor("x", ["n"]), tensor("y", ["m"])], ["z"])
    analysis = _unknown_broadcasts(analyze_onnx(model))
    analysis.graph.guards.clear()
    _with_guard(analysis, smin(sym("m"), n), ">=", 1)

    def run(env: dict[str, int]) -> str:
        got = attempt(model, make_feeds(analysis.program, env))
        return got if isinstance(got, str) else ""

    (g,) = printed_guards(analysis)
    p = probe(analysis, guard_sides(analysis, g, {"n": 3, "m": 3}), run)
    assert p.tried[0][1], "the nearest breaking size (one dim 0, the other 3) is refused"
    assert p.verdict == BROKEN
    ran = next(env for env, error in p.tried if error == "")
    assert sorted(ran.values()) == [0, 1]


# ------------------------------------------------------------------ the command line


def _invoke(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, ["verify", *args], catch_exceptions=False)
    return done.exit_code, done.output


def test_cli_fails_on_a_guard_an_accepted_size_breaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "relu.onnx"
    onnx.save(_relu(["n", 3]), path)
    real = analyze_onnx

    def with_guard(*args: object, **kwargs: object) -> Analysis:
        return _with_guard(real(*args, **kwargs), n, ">=", 10)

    monkeypatch.setattr("symshape.api.analyze_onnx", with_guard)
    code, out = _invoke(str(path), "--sizes-around-guards", "-n", "1", "--no-edge")
    assert code == 1, out
    assert (
        "guard 'n >= 10' (Test 'added'): holds at n=10 (runs); fails at n=9 (runs): BROKEN by a size the model accepts"
        in out
    )
    assert "1 guards checked around: 1 broken by a size the model accepts, 0 needed" in out
    code, out = _invoke(str(path), "-n", "1", "--no-edge")  # without the option: the dims alone
    assert code == 0 and "guards checked around" not in out


def test_cli_on_a_real_model_whose_requirement_is_a_range(models_dir: Path):
    """bert_ts slices its 64 position ids by seq and adds them to the token embeddings: the model
    runs only for seq <= 64, which the analysis states as seq's range (no guard is left), and
    verify's sizes respect it: every assignment runs and every dim is right."""
    code, out = _invoke(str(models_dir / "bert_ts.onnx"), "--sizes-around-guards", "-n", "2")
    assert code == 0, out
    assert "0 guards checked around: 0 broken by a size the model accepts" in out
    assert "refuses" not in out and " 0 wrong" in out, out
    assert analyze_onnx(onnx.load(str(models_dir / "bert_ts.onnx"))).symbols()["seq"]["range"] == [1, 64]


def test_cli_runs_only_sizes_that_broadcast(tmp_path: Path):
    """x[n] + y[m] needs n == m or one of them 1: of the sizes given, verify runs those (n=2,
    m=3 is never tried), and says so when the sizes given leave none."""
    path = tmp_path / "add.onnx"
    onnx.save(make_model([N("Add", ["x", "y"], ["z"])], [tensor("x", ["n"]), tensor("y", ["m"])], ["z"]), path)
    code, out = _invoke(str(path), "--size", "n=2,4", "--size", "m=3,4", "-n", "2", "--no-edge")
    assert "m=3, n=2" not in out and "m=4, n=4: 3 dims, 3 correct, 0 wrong" in out and code == 0, out
    done = CliRunner().invoke(main, ["verify", str(path), "--size", "n=2", "--size", "m=3", "--no-edge"])
    assert done.exit_code != 0 and "no assignment of the input symbols satisfies" in str(done.exception)


def test_cli_reports_sizes_onnxruntime_refuses_and_goes_on(tmp_path: Path):
    """Reshape(x[h], s) where the int64 input ``s`` is filled with 1s (a name with ``mask``): only
    h = 1 runs, a constraint on data symshape cannot see. verify says so on one line per size,
    runs the next one, and fails cleanly when none runs."""
    path = tmp_path / "reshape.onnx"
    inputs = [tensor("x", ["h"]), tensor("shape_mask", [1], onnx.TensorProto.INT64)]
    onnx.save(make_model([N("Reshape", ["x", "shape_mask"], ["y"])], inputs, ["y"]), path)
    code, out = _invoke(str(path), "--size", "h=2,1", "-n", "2", "--no-edge")
    assert "h=2: onnxruntime refuses these sizes (Reshape '' fails: " in out, out
    assert "h=1: " in out and ", 0 wrong" in out and code == 0
    done = CliRunner().invoke(main, ["verify", str(path), "--size", "h=2", "--no-edge"])
    assert done.exit_code == 1 and "onnxruntime refuses every assignment tried (1)" in str(done.exception)


def test_cli_on_a_dim_param_that_is_not_a_name(tmp_path: Path):
    """A declared dim 'sequence length' is the analysis's symbol sequence_length; the feeds use it."""
    path = tmp_path / "relu.onnx"
    onnx.save(_relu(["sequence length", 3]), path)
    code, out = _invoke(str(path), "-n", "2", "--no-edge")
    assert code == 0 and "sequence_length=2: 4 dims, 4 correct, 0 wrong" in out, out


# ------------------------------------------------------------------ real models and the goal


def test_assignments_keep_a_reshapes_divisibility():
    """Reshape(x[a, b], [-1, 4]) needs 4 | a*b: every assignment keeps it, and onnxruntime runs
    every one (before, 5 x 7 was picked and the run failed)."""
    model = make_model([N("Reshape", ["x", "s"], ["y"])], [tensor("x", ["a", "b"])], ["y"], [const("s", [-1, 4])])
    analysis = analyze_onnx(model)
    envs = assignments(analysis, n=3)
    assert len(envs) >= 4
    for env in envs:
        assert not isinstance(attempt(model, make_feeds(analysis.program, env)), str), env


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.file)
def test_no_guard_of_the_test_models_is_broken_by_an_accepted_size(case: object):
    """Issue 14's criterion on the committed models: every printed guard is needed."""
    from tests.e2e.test_models import Case

    assert isinstance(case, Case)
    analysis = analyze_onnx(MODELS / case.file, facts=list(case.facts))
    base = assignments(analysis, n=1, edge=False, values=case.values)[0]
    probes, report = check_around_guards(MODELS / case.file, analysis, base)
    assert [p.line() for p in probes if p.verdict != NEEDED] == []
    assert not report.wrong and not report.wrong_elements


def _slice(dims: list[int | str], starts: int, ends: int, axis: int, step: int = 1) -> onnx.ModelProto:
    inits = [const("s", [starts]), const("e", [ends]), const("x_axis", [axis]), const("st", [step])]
    return make_model([N("Slice", ["x", "s", "e", "x_axis", "st"], ["y"])], [tensor("x", dims)], ["y"], inits)


def _shape_plus_one() -> onnx.ModelProto:
    nodes = [N("Shape", ["x"], ["sh"]), N("Add", ["sh", "one"], ["e"]), N("Slice", ["x", "z", "e", "ax"], ["y"])]
    return make_model(nodes, [tensor("x", ["n"])], ["y"], [const("one", [1]), const("z", [0]), const("ax", [0])])


AVOIDABLE: list[tuple[str, Callable[[], onnx.ModelProto]]] = [
    ("x[:, :1000]", lambda: _slice(["b", "seq"], 0, 1000, 1)),
    ("x[-3:]", lambda: _slice(["seq"], -3, 2**62, 0)),
    ("x[::-2]", lambda: _slice(["seq"], -1, -(2**62), 0, -2)),
    ("x[:Shape(x) + 1]", _shape_plus_one),
    ("x[n] + y[m]", lambda: make_model([N("Add", ["x", "y"], ["z"])], [tensor("x", ["n"]), tensor("y", ["m"])], ["z"])),
]


@pytest.mark.parametrize(("name", "build"), AVOIDABLE, ids=[n for n, _ in AVOIDABLE])
def test_no_printed_guard_is_broken_by_an_accepted_size(name: str, build: Callable[[], onnx.ModelProto]):
    """The goal: a clamp, a reversed slice or a 0-vs-1 broadcast is exact (Min, Max, piecewise),
    so no guard of these is broken by a size the model accepts, and every dim is right at every
    size tried (ordinary, edge, and around whatever guard is left)."""
    model = build()
    analysis = analyze_onnx(model)
    ran = []
    for env in assignments(analysis, n=3):
        observed = attempt(model, make_feeds(analysis.program, env))
        if not isinstance(observed, str):
            ran.append(env)
            assert check(analysis, observed, env).wrong == [], (name, env)
    probes, report = check_around_guards(model, analysis, ran[0])
    assert [p.line() for p in probes if p.verdict == BROKEN] == [], name
    assert report.wrong == [], name
