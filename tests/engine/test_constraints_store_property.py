"""The constraint graph as a store: `copy()` gives an independent graph, guards and predicates
keep their (first) origins, range and divisibility facts are the intersection of what was
assumed, and a contradiction never drops what was recorded before it.

The oracles are independent of the graph: brute force over the box, a plain intersection of the
assumed ranges and divisors, and a replay of the same items into a fresh graph.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, floordiv, mod, sym
from symshape.engine.constraints import ConstraintGraph, Guard, Origin
from symshape.errors import ContradictionError
from tests.prop_strategies import PROP, Env
from tests.prop_systems import (
    System,
    apply,
    graph_state_holds,
    item_holds,
    origin_of,
    solutions,
    systems,
)

GRAPH = settings(PROP, max_examples=100)
a, b, c, t = sym("a"), sym("b"), sym("c"), sym("t")


def snapshot(g: ConstraintGraph) -> tuple[object, ...]:
    """Everything observable about ``g``, as plain strings and values."""
    return (
        {n: str(g.canon(sym(n))) for n in sorted(g.symbols)},
        {n: (str(bd[0]), str(bd[1])) for n in sorted(g.symbols) if (bd := g.binding(n)) is not None},
        [(str(r.expr), str(r.origin)) for r in g.residuals],
        [(str(p.lhs), p.rel, str(p.rhs), str(p.origin)) for p in g.predicates],
        [(str(x.lhs), x.rel, str(x.rhs), str(x.origin), x.reason) for x in g.guards],
        {n: g.facts.get(n) for n in sorted(g.symbols)},
    )


def record(g: ConstraintGraph, system: System, start: int, stop: int) -> int | None:
    """Apply items ``start:stop``; the index of the item that raised, if one did."""
    for i in range(start, stop):
        try:
            apply(g, system.items[i], origin_of(i))
        except ContradictionError:
            return i
    return None


# ------------------------------------------------------------------ copy()
@given(systems(planted=True, max_items=6), st.data())
@GRAPH
def test_a_copy_continues_like_a_replay_and_leaves_the_original_alone(
    case: tuple[System, Env | None], data: st.DataObject
) -> None:
    system, _ = case
    cut = data.draw(st.integers(0, len(system.items)))
    g = system.graph()
    g.guard(a, ">=", 1, Origin("Op", "before", "a guard"))
    assert record(g, system, 0, cut) is None
    before = snapshot(g)
    h = g.copy()
    assert snapshot(h) == before
    assert record(h, system, cut, len(system.items)) is None
    h.guard(b, "!=", c, Origin("Op", "after", "another guard"))
    assert snapshot(g) == before, "recording into the copy changed the original"
    replay = system.graph()
    replay.guard(a, ">=", 1, Origin("Op", "before", "a guard"))
    record(replay, system, 0, len(system.items))
    replay.guard(b, "!=", c, Origin("Op", "after", "another guard"))
    assert snapshot(h) == snapshot(replay), system.describe()
    for env in system.envs():
        assert graph_state_holds(g, env) == all(item_holds(i, env) for i in system.items[:cut])
        assert graph_state_holds(h, env) == all(item_holds(i, env) for i in system.items)


@given(systems(planted=False, max_items=6))
@GRAPH
def test_a_contradiction_in_a_copy_leaves_the_original_alone(case: tuple[System, Env | None]) -> None:
    system, _ = case
    g = system.graph()
    h = g.copy()
    failed = record(h, system, 0, len(system.items))
    if failed is not None:
        assert not solutions(system, failed + 1)
    assert snapshot(g) == snapshot(system.graph())


# ------------------------------------------------------------------ nothing dropped on a contradiction
@given(systems(planted=False, max_items=6))
@GRAPH
def test_after_a_contradiction_the_graph_still_holds_everything_before_it(case: tuple[System, Env | None]) -> None:
    """The graph is left usable: whatever it admits still satisfies every earlier item (no
    residual or predicate was lost while the failing item was being solved)."""
    system, _ = case
    g = system.graph()
    failed = record(g, system, 0, len(system.items))
    if failed is None:
        return
    for env in system.envs():
        if graph_state_holds(g, env):
            assert all(item_holds(i, env) for i in system.items[:failed]), (system.describe(), failed, env)


# ------------------------------------------------------------------ guards
_GUARD_POOL: list[tuple[Dim, str, Dim]] = [
    (a, "==", b),
    (a * b, ">=", 1),
    (floordiv(a, 2), "!=", c),
    (mod(a + b, 4), "==", 0),
    (a, "==", b),  # the same relation twice in the pool
]
_ORIGINS = [Origin("Add", "add0", "broadcast"), Origin("Reshape", "r", "reshape valid"), Origin("Slice", "")]


@given(st.lists(st.tuples(st.integers(0, len(_GUARD_POOL) - 1), st.integers(0, 2), st.sampled_from(["", "why"])),
                max_size=12))
@PROP
def test_guards_are_kept_once_per_relation_and_origin_with_the_first_reason(calls: list[tuple[int, int, str]]) -> None:
    g = System((("a", 0, 3), ("b", 0, 3), ("c", 0, 3), ("t", 0, 3)), ()).graph()
    expected: dict[tuple[str, str, str, str], Guard] = {}
    half = len(calls) // 2
    for i, (k, o, reason) in enumerate(calls):
        if i == half:
            early, early_guards = g.copy(), list(g.guards)
        lhs, rel, rhs = _GUARD_POOL[k]
        g.guard(lhs, rel, rhs, _ORIGINS[o], reason)
        expected.setdefault((str(lhs), rel, str(rhs), str(_ORIGINS[o])), Guard(lhs, rel, rhs, _ORIGINS[o], reason))
    assert g.guards == list(expected.values())
    if calls:
        assert early.guards == early_guards, "a copy's guards changed with the original"
    g.clear_guards()
    assert g.guards == []
    for k, o, reason in calls:
        g.guard(*_GUARD_POOL[k], _ORIGINS[o], reason)
    assert g.guards == list(expected.values()), "guards after clear_guards are recorded afresh"


# ------------------------------------------------------------------ predicates and facts
_COMPOSITE: list[Dim] = [a + b, a * b - c, 2 * a + 3, floordiv(a + c, 2)]
Assumption = tuple[int, str, int | None, int | None, int]  # (expr index, kind, lo, hi, divisor)


@st.composite
def assumptions(draw: st.DrawFn) -> Assumption:
    k = draw(st.integers(0, len(_COMPOSITE) + 2))  # the last three are the symbols a, b, c
    if draw(st.booleans()):
        lo = draw(st.one_of(st.none(), st.integers(-3, 5)))
        return (k, "range", lo, draw(st.one_of(st.none(), st.integers(10, 20))), 1)
    return (k, "div", None, None, draw(st.sampled_from([2, 4])))  # a multiple of 4 in every range


def _target(k: int) -> Dim:
    return _COMPOSITE[k] if k < len(_COMPOSITE) else (a, b, c)[k - len(_COMPOSITE)]


@given(st.lists(assumptions(), max_size=10))
@PROP
def test_assumptions_become_facts_or_predicates_with_their_first_origin(steps: list[Assumption]) -> None:
    """A range or divisor of a single symbol intersects its facts; of a composite expression it
    becomes a predicate, kept once with the origin of the first assumption that stated it."""
    g = ConstraintGraph()
    for name in "abc":
        g.add_symbol(name, "input", Origin("input", "x", name))
    predicates: dict[tuple[str, str, str], str] = {}
    ranges = {n: (0, None, 1) for n in "abc"}  # declared dims: >= 0
    for i, (k, kind, lo, hi, div) in enumerate(steps):
        d, origin = _target(k), Origin("user fact", f"fact{i}")
        if kind == "range":
            g.assume_range(d, lo, hi, origin)
        else:
            g.assume_divisible(d, div, origin)
        if k >= len(_COMPOSITE):
            name = "abc"[k - len(_COMPOSITE)]
            rlo, rhi, rdiv = ranges[name]
            new_lo = rlo if lo is None else max(rlo, lo)
            new_hi = hi if rhi is None else rhi if hi is None else min(rhi, hi)
            ranges[name] = (new_lo, new_hi, math.lcm(rdiv, div))
            if kind == "div":
                predicates.setdefault((name, "divisible", str(div)), str(origin))
            continue
        new = [(str(lo), "<=", str(d))] * (lo is not None) + [(str(d), "<=", str(hi))] * (hi is not None)
        new = new if kind == "range" else [(str(d), "divisible", str(div))]
        for key in new:
            predicates.setdefault(key, str(origin))
    assert {(str(p.lhs), p.rel, str(p.rhs)): str(p.origin) for p in g.predicates} == predicates
    for name, (lo, hi, div) in ranges.items():
        admitted = [v for v in range(-5, 40) if g.facts.get(name).admits(v)]
        assert admitted == [v for v in range(-5, 40) if v >= lo and (hi is None or v <= hi) and v % div == 0], name
