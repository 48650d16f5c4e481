"""Random constraint systems for the graph's property tests, with their brute-force solutions.

A system is a box (each symbol's kind and finite range, declared with ``add_symbol``) and a list
of items: equations (linear, products as from reshapes, scaled as from ``-1``, floors, mods),
ranges and divisibilities. `solutions` enumerates the box; `graph_state_holds` checks an
assignment against what a `ConstraintGraph` kept (facts, bindings, residuals, predicates), so a
test can compare the two sets exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from symshape.algebra.expr import Dim, Expr, evaluate, floordiv, mod, sym
from symshape.engine.constraints import ConstraintGraph, Origin
from tests.prop_strategies import Env, holds

# name -> kind; inputs keep their names, the derived symbol is eliminated first.
KINDS = {"a": "input", "b": "input", "c": "user", "t": "derived"}
Item = tuple[object, ...]  # ("eq", lhs, rhs) | ("range", d, lo, hi) | ("div", d, k)


@dataclass(frozen=True)
class System:
    """Symbols with finite ranges and the items to record, in order."""

    box: tuple[tuple[str, int, int], ...]
    items: tuple[Item, ...]

    def envs(self) -> list[Env]:
        names = [n for n, _, _ in self.box]
        ranges = [range(lo, hi + 1) for _, lo, hi in self.box]
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*ranges)]

    def graph(self) -> ConstraintGraph:
        g = ConstraintGraph()
        for name, lo, hi in self.box:
            g.add_symbol(name, KINDS[name], Origin("input", "x", name), lo=lo, hi=hi)
        return g

    def describe(self) -> str:
        return "; ".join(item_text(i) for i in self.items) + " | " + str(self.box)


def origin_of(i: int) -> Origin:
    """A distinct origin per item, so messages can be traced back to it."""
    return Origin("Op", f"item{i}", "rule")


def item_text(item: Item) -> str:
    if item[0] == "eq":
        return f"{item[1]} == {item[2]}"
    if item[0] == "range":
        return f"{item[2]} <= {item[1]} <= {item[3]}"
    return f"{item[2]} | {item[1]}"


def item_holds(item: Item, env: Env) -> bool:
    kind = item[0]
    if kind == "eq":
        return _ev(item[1], env) == _ev(item[2], env)
    if kind == "range":
        value, lo, hi = _ev(item[1], env), item[2], item[3]
        return (lo is None or value >= lo) and (hi is None or value <= hi)
    return _ev(item[1], env) % _int(item[2]) == 0


def apply(g: ConstraintGraph, item: Item, origin: Origin) -> None:
    """Record ``item`` in ``g`` through the public API."""
    kind = item[0]
    if kind == "eq":
        g.eq(_dim(item[1]), _dim(item[2]), origin)
    elif kind == "range":
        lo, hi = item[2], item[3]
        assert lo is None or isinstance(lo, int)
        assert hi is None or isinstance(hi, int)
        g.assume_range(_dim(item[1]), lo, hi, origin)
    else:
        g.assume_divisible(_dim(item[1]), _int(item[2]), origin)


def solutions(system: System, upto: int | None = None) -> list[Env]:
    """Every assignment in the box satisfying the first ``upto`` items (all by default)."""
    items = system.items if upto is None else system.items[:upto]
    return [env for env in system.envs() if all(item_holds(i, env) for i in items)]


def sides(system: System) -> list[Dim]:
    """Every expression the items mention (both sides of equations, ranged and divided ones)."""
    out: list[Dim] = []
    for item in system.items:
        out.extend(_dim(side) for side in (item[1:3] if item[0] == "eq" else item[1:2]))
    return out


def graph_state_holds(g: ConstraintGraph, env: Env) -> bool:
    """Whether ``env`` satisfies everything ``g`` kept: facts, bindings, residuals, predicates."""
    for name in g.symbols:
        if not g.facts.get(name).admits(env[name]):
            return False
        bound = g.binding(name)
        if bound is not None and evaluate(bound[0], env) != env[name]:
            return False
    if any(evaluate(r.expr, env) != 0 for r in g.residuals):
        return False
    return all(holds(p.rel, evaluate(p.lhs, env), evaluate(p.rhs, env)) for p in g.predicates)


def _ev(d: object, env: Env) -> int:
    return evaluate(_dim(d), env)


def _dim(d: object) -> Dim:
    assert isinstance(d, int | Expr)
    return d


def _int(k: object) -> int:
    assert isinstance(k, int)
    return k


# ------------------------------------------------------------------ strategies
@st.composite
def boxes(draw: st.DrawFn) -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    for name in KINDS:
        lo = draw(st.integers(0, 2))
        out.append((name, lo, lo + draw(st.integers(0, 4))))
    return tuple(out)


_S = st.sampled_from(list(KINDS)).map(sym)
_C = st.integers(-3, 3)


@st.composite
def linear_sides(draw: st.DrawFn) -> Dim:
    out: Dim = draw(st.integers(-4, 6))
    for s in draw(st.lists(_S, max_size=3)):
        out = out + draw(_C) * s
    return out


@st.composite
def raw_items(draw: st.DrawFn) -> Item:
    """One item before planting: any of the forms the rules record."""
    s1, s2, s3, s4 = (draw(_S) for _ in range(4))
    k = draw(st.sampled_from([2, 3, 4]))
    form = draw(st.sampled_from(["linear", "product", "product", "scaled", "floor", "mod", "range", "div"]))
    if form == "linear":
        return ("eq", draw(linear_sides()), draw(linear_sides()))
    if form == "product":  # reshape element counts: a*b == c*t, a*b == c, a*b == 6
        rhs = draw(st.sampled_from([s3 * s4, s3, draw(st.integers(0, 12))]))
        return ("eq", s1 * s2, rhs)
    if form == "scaled":
        return ("eq", k * s1, s2 + draw(st.integers(-2, 2)))
    if form == "floor":  # Reshape(-1): s == k*floor(s/k), or a derived floor
        return ("eq", s1, k * floordiv(s1, k)) if draw(st.booleans()) else ("eq", s2, floordiv(s1 + s3, k))
    if form == "mod":
        return ("eq", mod(s1 + draw(st.integers(0, 1)) * s2, k), draw(st.integers(0, k - 1)))
    if form == "range":
        lo = draw(st.one_of(st.none(), st.integers(-2, 8)))
        return ("range", draw(linear_sides()), lo, draw(st.one_of(st.none(), st.integers(-2, 10))))
    return ("div", draw(linear_sides()), k)


def plant(item: Item, env: Env) -> Item:
    """The item shifted by a constant so that it holds at ``env``."""
    kind = item[0]
    if kind == "eq":
        lhs, rhs = _dim(item[1]), _dim(item[2])
        return ("eq", lhs, rhs + (evaluate(lhs, env) - evaluate(rhs, env)))
    if kind == "range":
        value = _ev(item[1], env)
        lo, hi = item[2], item[3]
        new_lo = None if lo is None else min(_int(lo), value)
        return ("range", item[1], new_lo, None if hi is None else max(_int(hi), value))
    d, k = _dim(item[1]), _int(item[2])
    return ("div", d - evaluate(d, env) % k, k)


@st.composite
def systems(draw: st.DrawFn, planted: bool, max_items: int = 5) -> tuple[System, Env | None]:
    """A system and, when ``planted``, an assignment in its box where every item holds."""
    box = draw(boxes())
    raw: Sequence[Item] = draw(st.lists(raw_items(), min_size=1, max_size=max_items))
    if not planted:
        return System(box, tuple(raw)), None
    env = {n: draw(st.integers(lo, hi)) for n, lo, hi in box}
    return System(box, tuple(plant(i, env) for i in raw)), env
