"""The piecewise algebra (``symshape.algebra.piecewise``) and the decisions that simplify it, each
checked against plain integer evaluation (hypothesis): clamps and negative indices, truncating
division and C's remainder next to floor division and Python's ``%``, moving sums into
``Max``/``Min``, ``Min``/``Max`` under symbol ranges, and the float32 premise of exact
ceil/floor of a quotient of sizes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, evaluate, floordiv, mod, smax, smin, sym
from symshape.algebra.piecewise import (
    clamp,
    distribute,
    from_end,
    is_negative,
    is_positive,
    spread,
    trunc_div,
    trunc_rem,
)
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.context import OpContext, State
from symshape.engine.facts import Facts
from symshape.engine.nonneg import prove_nonneg
from symshape.engine.program import Op, Program
from symshape.rules.shared.relations import tidy

a, b, n = sym("a"), sym("b"), sym("n")
ints = st.integers(-40, 40)
pos = st.integers(1, 12)


def c_trunc(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


@settings(max_examples=300, deadline=None)
@given(ints, ints, ints)
def test_sign_tests_clamp_and_from_end_match_integers(x: int, lo: int, hi: int) -> None:
    env = {"a": x, "n": abs(lo), "b": hi}
    assert evaluate(is_negative(a), env) == int(x < 0)
    assert evaluate(is_positive(a), env) == int(x > 0)
    assert evaluate(from_end(a, n), env) == (x + abs(lo) if x < 0 else x)
    want = lo if x < lo else hi if x > hi else x  # C's clamp when lo <= hi
    got = evaluate(clamp(a, lo, b), env)
    assert got == (want if lo <= hi else hi)


@settings(max_examples=300, deadline=None)
@given(ints, st.integers(-12, 12).filter(lambda k: k != 0), pos)
def test_trunc_div_and_c_remainder_match_c(x: int, k: int, y: int) -> None:
    env = {"a": x, "b": y}
    assert evaluate(trunc_div(a, k), env) == c_trunc(x, k)  # constant divisor, either sign
    assert evaluate(trunc_div(a, b), env) == c_trunc(x, y)  # symbolic divisor >= 1
    assert evaluate(trunc_rem(a, k), env) == int(math.fmod(x, k))  # ONNX Mod fmod=1
    assert evaluate(trunc_rem(a, b), env) == int(math.fmod(x, y))
    assert evaluate(mod(a, k), env) == x % k  # ONNX Mod fmod=0: the divisor's sign
    assert evaluate(floordiv(a, k), env) == x // k


@settings(max_examples=200, deadline=None)
@given(ints, ints, ints, st.integers(-3, 3), st.integers(1, 4))
def test_distribute_and_spread_are_identities(x: int, y: int, z: int, c: int, k: int) -> None:
    env = {"a": x, "b": y, "n": z}
    exprs: list[Dim] = [
        n - smax(n - 3, 0),
        c * smax(a, b) + n,
        smax(0, smax(0, n - 1) - smin(1, n)),
        floordiv(smin(a, b) + k - 1, k) + c * smax(a, n),
        smin(2, n - 1) - c * smin(a, smax(b, 0)),
    ]
    for e in exprs:
        assert evaluate(distribute(e), env) == evaluate(e, env), e
        assert evaluate(spread(e), env) == evaluate(e, env), e


def _facts(**ranges: tuple[int | None, int | None]) -> Facts:
    f = Facts()
    for name, (lo, hi) in ranges.items():
        f.restrict(name, lo=lo, hi=hi)
    return f


def test_min_max_under_ranges_read_as_the_symbol() -> None:
    """``--dim seq=..512`` turns ``Min(seq, 1000)`` into ``seq``; ``seq >= 1000`` into 1000."""
    seq = sym("seq")
    assert _facts(seq=(0, 512)).simplify(smin(seq, 1000)) is seq
    assert _facts(seq=(1000, None)).simplify(smin(seq, 1000)) == 1000
    assert _facts(seq=(0, None)).simplify(smax(seq - 3, 0) + smin(seq, 3)) is not seq  # not decidable
    assert _facts(seq=(3, None)).simplify(smax(seq - 3, 0)) == seq - 3
    assert _facts(a=(0, None)).simplify(trunc_div(a, 3)) is floordiv(a, 3)  # non-negative: a floor
    assert _facts(a=(None, -1)).simplify(trunc_div(a, 3)) == -floordiv(-a, 3)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(0, 30), st.integers(-5, 5), st.integers(0, 20))
def test_min_max_simplified_under_ranges_keep_their_value(lo: int, span: int, c: int, x: int) -> None:
    hi = lo + span
    f = _facts(a=(lo, hi), b=(0, None))
    env = {"a": min(lo + x, hi), "b": x}
    for e in (smin(a, 1000), smax(a - c, 0), smin(smax(a + c, 0), b), smax(a, b) - smin(a, c), trunc_div(a - c, 2)):
        assert evaluate(f.simplify(e), env) == evaluate(e, env), e


def _ctx(**ranges: tuple[int | None, int | None]) -> OpContext:
    graph = ConstraintGraph()
    for name, (lo, hi) in ranges.items():
        graph.add_symbol(name, "input", Origin("test", "t"), lo=lo, hi=hi)
    return OpContext(State(graph), Program("test", [], [], {}, []), Op("", "Slice", "t", [], []))


CASES: list[Dim] = [
    n - floordiv(n, 3),
    n - floordiv(n + 1, 2),
    smin(3, n) - smin(1, n),
    smax(0, n - 1) - smin(1, n),
    n - smax(n - 3, 0),
    smin(n + 1, n) - n,
    2 - smin(a, 2),
    smax(a, 5) - n,
]


@pytest.mark.parametrize("d", CASES, ids=str)
def test_prove_nonneg_and_tidy_are_sound(d: Dim) -> None:
    ctx = _ctx(n=(0, None), a=(0, None))
    values = [evaluate(d, {"n": x, "a": y}) for x in range(0, 40) for y in range(0, 12)]
    if prove_nonneg(ctx, d):
        assert min(values) >= 0, d
    t = tidy(ctx, d)
    assert [evaluate(t, {"n": x, "a": y}) for x in range(0, 40) for y in range(0, 12)] == values
    assert len(str(t)) <= len(str(d))


def test_tidy_reads_clamped_lengths_simply() -> None:
    ctx = _ctx(n=(0, None))
    assert str(tidy(ctx, n - smax(n - 3, 0))) == "Min(3, n)"
    assert str(tidy(ctx, smax(0, smax(0, n - 1) - smin(1, n)))) == "Max(0, n - 2)"
    assert tidy(ctx, smin(n + 1, n)) is n
    assert prove_nonneg(ctx, n - floordiv(n + 1, 2))  # the last of two Split chunks


def test_a_guard_the_facts_prove_false_is_refused() -> None:
    """``n >= n + 1`` can never hold: the rule gives up instead of printing it."""
    from symshape.engine.context import GiveUp

    def refused(lhs: Dim, rel: str, rhs: Dim) -> bool:
        ctx = _ctx(n=(0, None))
        try:
            ctx.guard(lhs, rel, rhs, "slice bounds", "")
        except GiveUp as e:
            assert "can never hold" in str(e) and ctx.graph.guards == []
            return True
        assert len(ctx.graph.guards) == 1
        return False

    assert refused(n, ">=", n + 1)
    assert refused(n, "<", 0) and refused(n + 1, "==", n) and refused(n, "!=", n)
    assert not refused(n, ">=", 1) and not refused(n, "<=", 5) and not refused(n, "==", 3)
    with pytest.raises(GiveUp, match="can never hold"):
        _ctx(n=(0, None)).guard(n, ">=", n + 1, "slice bounds", "")


@settings(max_examples=400, deadline=None)
@given(st.integers(-(2**24) + 1, 2**24 - 1), st.integers(1, 1000))
def test_float32_quotient_of_sizes_rounds_like_the_rational(x: int, k: int) -> None:
    """The premise of exact float shape arithmetic: below 2**24, ceil/floor/trunc of the float32
    quotient ``x/k`` are those of the rational ``x/k``."""
    q = np.float32(x) / np.float32(k)
    assert int(np.ceil(q)) == -((-x) // k)
    assert int(np.floor(q)) == x // k
    assert int(np.trunc(q)) == c_trunc(x, k)
