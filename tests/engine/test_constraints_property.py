"""The constraint graph against brute force: random small systems (linear equations, reshape
products, scaled and floor equations, mods, ranges, divisibility) over symbols with finite ranges.

* a contradiction is raised only when no assignment in the box satisfies the items so far, and
  its message names one of those items' origins;
* a system with a planted solution never raises;
* what the graph keeps (facts, bindings, residuals, predicates) is satisfied by *exactly* the
  brute-force solutions: nothing is invented, nothing is dropped;
* canonical forms and the decisions the rules ask on them hold at every solution.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import evaluate, sym
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.errors import ContradictionError
from tests.prop_strategies import PROP, Env
from tests.prop_systems import (
    KINDS,
    Item,
    System,
    apply,
    boxes,
    graph_state_holds,
    item_holds,
    origin_of,
    sides,
    solutions,
    systems,
)

GRAPH = settings(PROP, max_examples=120)


def build_graph(system: System) -> tuple[ConstraintGraph, int | None, ContradictionError | None]:
    """Record every item; returns the graph, the index of the item that raised, and the error."""
    g = system.graph()
    for i, item in enumerate(system.items):
        try:
            apply(g, item, origin_of(i))
        except ContradictionError as err:
            return g, i, err
    return g, None, None


def _check_contradiction(system: System, failed: int, err: ContradictionError) -> None:
    assert not solutions(system, failed + 1), ("raised, but brute force finds a solution", system.describe())
    named = {int(n) for n in re.findall(r"Op 'item(\d+)'", str(err))}
    assert named and max(named) <= failed, (str(err), failed)


# ------------------------------------------------------------------ contradictions are sound
@given(systems(planted=False))
@GRAPH
def test_a_contradiction_means_brute_force_finds_no_solution(case: tuple[System, Env | None]) -> None:
    system, _ = case
    g, failed, err = build_graph(system)
    if err is not None:
        assert failed is not None
        _check_contradiction(system, failed, err)


@given(systems(planted=True))
@GRAPH
def test_a_system_with_a_solution_never_contradicts(case: tuple[System, Env | None]) -> None:
    system, env = case
    assert env is not None
    g, failed, err = build_graph(system)
    assert err is None, (str(err), system.describe(), env)
    assert graph_state_holds(g, env), (system.describe(), env)


# ------------------------------------------------------------------ the kept state is exact
@given(st.one_of(systems(planted=True), systems(planted=False)))
@GRAPH
def test_the_kept_state_has_exactly_the_brute_force_solutions(case: tuple[System, Env | None]) -> None:
    """Bindings, residuals, predicates and facts together: no solution lost, no extra one let in
    (a residual dropped unsoundly would let an assignment through that breaks an item)."""
    system, _ = case
    g, failed, err = build_graph(system)
    if err is not None:
        return
    for env in system.envs():
        expected = all(item_holds(item, env) for item in system.items)
        assert graph_state_holds(g, env) == expected, (system.describe(), env, expected, _state(g))


def _state(g: ConstraintGraph) -> str:
    binds = {n: str(b[0]) for n in g.symbols if (b := g.binding(n)) is not None}
    facts = {n: g.facts.get(n) for n in g.symbols}
    preds = [(str(p.lhs), p.rel, str(p.rhs)) for p in g.predicates]
    return f"bindings={binds} residuals={[str(r.expr) for r in g.residuals]} predicates={preds} facts={facts}"


@given(systems(planted=True))
@GRAPH
def test_canonical_forms_take_each_symbols_value_at_every_solution(case: tuple[System, Env | None]) -> None:
    system, _ = case
    g, _, err = build_graph(system)
    assert err is None
    for env in solutions(system):
        for name in KINDS:
            assert evaluate(g.canon(sym(name)), env) == env[name], (name, str(g.canon(sym(name))), env)
        for d in sides(system):
            assert evaluate(g.canon(d), env) == evaluate(d, env), (str(d), str(g.canon(d)), env)


@given(systems(planted=True), st.data())
@GRAPH
def test_decisions_on_canonical_forms_hold_at_every_solution(
    case: tuple[System, Env | None], data: st.DataObject
) -> None:
    """What a rule asks (``prove_eq``/``prove_ge`` on canonical forms, bounds) under the graph's
    facts, checked at every solution of the system."""
    system, _ = case
    g, _, err = build_graph(system)
    assert err is None
    found = solutions(system)
    exprs = [*sides(system), *(sym(n) for n in KINDS)]
    for _ in range(6):
        p, q = data.draw(st.sampled_from(exprs)), data.draw(st.sampled_from(exprs))
        cp, cq = g.canon(p), g.canon(q)
        answer = g.facts.prove_eq(cp, cq)
        pairs = [(evaluate(p, env), evaluate(q, env)) for env in found]
        if answer is True:
            assert all(u == v for u, v in pairs), (str(p), str(q), str(cp), str(cq), system.describe())
        if answer is False:
            assert all(u != v for u, v in pairs), (str(p), str(q), str(cp), str(cq), system.describe())
        if g.facts.prove_ge(cp - cq, 0):
            assert all(u >= v for u, v in pairs), (str(p), str(q), system.describe())
        lo, hi = g.facts.tight_bounds(cp)
        assert all((lo is None or lo <= u) and (hi is None or u <= hi) for u, _ in pairs), (str(cp), lo, hi)


# ------------------------------------------------------------------ where contradictions are exact
_SAME_SYMBOL = st.sampled_from(list(KINDS)).map(sym)


@st.composite
def simple_items(draw: st.DrawFn) -> Item:
    """Equalities between symbols, ``k*s + c == d``, and ranges of one symbol."""
    s1, s2 = draw(_SAME_SYMBOL), draw(_SAME_SYMBOL)
    form = draw(st.sampled_from(["same", "linear", "range"]))
    if form == "same":
        return ("eq", s1, s2)
    if form == "linear":
        return ("eq", draw(st.integers(1, 4)) * s1 + draw(st.integers(-3, 3)), draw(st.integers(-3, 9)))
    lo = draw(st.one_of(st.none(), st.integers(-1, 5)))
    return ("range", s1, lo, draw(st.one_of(st.none(), st.integers(-1, 7))))


@given(boxes(), st.lists(simple_items(), min_size=1, max_size=6))
@settings(PROP, max_examples=300)
def test_simple_systems_contradict_exactly_when_there_is_no_solution(
    box: tuple[tuple[str, int, int], ...], items: list[Item]
) -> None:
    """For symbol equalities, one-symbol linear equations and one-symbol ranges the graph is
    complete: it raises at the first item after which brute force finds no solution."""
    system = System(box, tuple(items))
    _, failed, err = build_graph(system)
    first_empty = next((i for i in range(len(items)) if not solutions(system, i + 1)), None)
    assert failed == first_empty, (system.describe(), str(err))
    if err is not None:
        assert failed is not None
        _check_contradiction(system, failed, err)


def expect(got: object, *, best: object, current: object) -> None:
    """Known imprecision (STYLE A12): pin ``current``; ``best`` is what the graph should reach."""
    assert got == current, f"got {got}; update the test (best={best}, current={current})"


def _outcome(system: System) -> str:
    _, _, err = build_graph(system)
    return "contradiction" if err else "accepted"


@pytest.mark.parametrize(
    ("name", "box", "items"),
    [
        # a := b - 1 in [2, 2] gives a == 3, c := b + 2 == a + 1 gives a <= 2: both kept as
        # predicates, never intersected.
        ("offsets through a fixed symbol", (("a", 1, 3), ("b", 2, 2), ("c", 2, 3), ("t", 2, 4)),
         (("eq", sym("a"), sym("b") + 1), ("eq", sym("c"), sym("b") + 2))),
        # t := floor((2b + 2)/3) with 3 | 2b + 2 kept as a predicate; t = 1 needs b = 1/2.
        ("a scaled derived symbol", (("a", 0, 3), ("b", 0, 2), ("c", 2, 3), ("t", 1, 1)),
         (("eq", 3 * sym("t"), 2 * sym("b") + 2),)),
        ("a divisibility no value meets", (("a", 0, 2), ("b", 2, 6), ("c", 2, 4), ("t", 0, 2)),
         (("div", 3 * sym("t") - 2, 3),)),
        ("a product with no factorization", (("a", 0, 1), ("b", 2, 4), ("c", 1, 5), ("t", 0, 1)),
         (("eq", sym("c") * sym("c"), 8),)),
    ],
)
def test_known_missed_contradictions(
    name: str, box: tuple[tuple[str, int, int], ...], items: tuple[Item, ...]
) -> None:
    system = System(box, items)
    assert not solutions(system), name  # the oracle: no assignment satisfies the items
    g, _, _ = build_graph(system)
    assert not any(graph_state_holds(g, env) for env in system.envs()), name  # nothing let through
    expect(_outcome(system), best="contradiction", current="accepted")


def test_a_divisibility_no_value_of_the_range_meets_is_a_contradiction() -> None:
    g = System((("a", 0, 4), ("b", 0, 4), ("c", 1, 2), ("t", 0, 4)), ()).graph()
    with pytest.raises(ContradictionError):
        g.assume_divisible(sym("c"), 3, Origin("user fact", "c % 3 == 0"))
