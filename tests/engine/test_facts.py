"""Facts and decisions: bounds are sound, ``prove_*`` never claims a falsehood, ``simplify`` keeps
values, edge sizes 0 and 1. The oracle is plain evaluation of the construction tree at random
assignments that satisfy the declared facts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, ceildiv, evaluate, expand_mod, floordiv, mod, smax, smin, sym
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.facts import Facts, SymbolFacts
from tests._expr_trees import build, facts_and_envs, naive, text, trees

a, b, c, n, m = sym("a"), sym("b"), sym("c"), sym("n"), sym("m")
ORIGIN = Origin("input", "x", "dim 0")


def _within(value: int, bounds: tuple[int | None, int | None]) -> bool:
    lo, hi = bounds
    return (lo is None or lo <= value) and (hi is None or value <= hi)


@given(trees, facts_and_envs())
@settings(max_examples=250, deadline=None)
def test_bounds_are_sound(tree, fe):
    f, envs = fe
    d = build(tree)
    for env in envs:
        value = naive(tree, env)
        assert _within(value, f.bounds(d)), (text(tree), str(d), env, f.bounds(d))
        assert _within(value, f.tight_bounds(d)), (text(tree), str(d), env, f.tight_bounds(d))


@given(trees, facts_and_envs())
@settings(max_examples=250, deadline=None)
def test_simplify_preserves_values_under_the_facts(tree, fe):
    f, envs = fe
    d = build(tree)
    s = f.simplify(d)
    for env in envs:
        assert evaluate(s, env) == naive(tree, env), (text(tree), str(d), str(s), env)


@given(trees, st.integers(-3, 3), facts_and_envs())
@settings(max_examples=250, deadline=None)
def test_prove_ge_le_nonzero_divides_never_claim_something_false(tree, k, fe):
    f, envs = fe
    d = build(tree)
    values = [naive(tree, env) for env in envs]
    if f.prove_ge(d, k):
        assert all(v >= k for v in values), (str(d), k, values)
    if f.prove_le(d, k):
        assert all(v <= k for v in values), (str(d), k, values)
    if f.prove_nonzero(d):
        assert all(v != 0 for v in values), (str(d), values)
    for q in (2, 3, 4):
        if f.divides(q, d):
            assert all(v % q == 0 for v in values), (str(d), q, values)


@given(trees, trees, facts_and_envs())
@settings(max_examples=250, deadline=None)
def test_prove_eq_never_claims_something_false(t1, t2, fe):
    f, envs = fe
    d1, d2 = build(t1), build(t2)
    answer = f.prove_eq(d1, d2)
    pairs = [(naive(t1, env), naive(t2, env)) for env in envs]
    if answer is True:
        assert all(x == y for x, y in pairs), (str(d1), str(d2), pairs)
    if answer is False:
        assert all(x != y for x, y in pairs), (str(d1), str(d2), pairs)


@given(trees, facts_and_envs())
@settings(max_examples=200, deadline=None)
def test_prove_eq_sees_through_mod_and_simplify(tree, fe):
    f, _ = fe
    d = build(tree)
    assert f.prove_eq(d, expand_mod(d)) is True, str(d)
    assert f.prove_eq(f.simplify(d), d) is True, str(d)


# ------------------------------------------------------------------ the normal forms DESIGN asks
def test_mod_and_its_floor_form_are_equal():
    f = Facts()  # no facts at all: these are identities over all integers
    for k in (2, 3, 8):
        assert f.prove_eq(n - k * floordiv(n, k), mod(n, k)) is True
        assert f.prove_eq(mod(-n, k), k * ceildiv(n, k) - n) is True


def test_swin_padding_forms_are_equal():
    f = Facts()
    h, w = sym("H"), sym("w")
    for k in (4, 7):
        padded = h + mod(-h, k)
        assert f.prove_eq(padded, k * ceildiv(h, k)) is True
        assert f.prove_eq(padded, k * floordiv(h + k - 1, k)) is True
        assert f.prove_eq(h + mod(k - mod(h, k), k), padded) is True  # (w - H % w) % w
    assert f.prove_eq(h + mod(-h, w), w * ceildiv(h, w)) is True  # an identity for any w != 0
    assert f.prove_eq(h + mod(-h, w), w * floordiv(h + w - 1, w)) is None  # false for w < 0
    f.restrict("w", lo=1)
    assert f.prove_eq(h + mod(-h, w), w * floordiv(h + w - 1, w)) is True


def test_mod_contracts_for_tight_bounds():
    f = Facts()
    assert f.simplify(c - 2 * floordiv(c, 2)) is mod(c, 2)
    assert f.bounds(f.simplify(c - 2 * floordiv(c, 2))) == (0, 1)
    f.restrict("c", divisor=2)
    assert f.simplify(c - 2 * floordiv(c, 2)) == 0


def test_cache_is_dropped_when_facts_change():
    f = Facts()
    assert f.bounds(a + b) == (None, None)
    version = f.version
    f.restrict("a", lo=0)
    f.restrict("b", lo=2, hi=5)
    assert f.version > version
    assert f.bounds(a + b) == (2, None)
    copy = f.copy()
    copy.restrict("a", hi=3)
    assert copy.bounds(a + b) == (2, 8) and f.bounds(a + b) == (2, None)


def test_symbol_facts_merge_and_admit():
    s = SymbolFacts(lo=0, hi=10, divisor=2).merged(SymbolFacts(lo=3, divisor=3))
    assert (s.lo, s.hi, s.divisor) == (3, 10, 6)
    assert s.admits(6) and not s.admits(4) and not s.admits(12)
    f = Facts()
    assert f.restrict("n", lo=1, hi=10, divisor=4) == SymbolFacts(lo=4, hi=8, divisor=4)


# ------------------------------------------------------------------ edge sizes 0 and 1 (X7)
def _dims(*names: str) -> ConstraintGraph:
    g = ConstraintGraph()
    for name in names:
        g.add_symbol(name, "input", ORIGIN)
    return g


def test_dims_are_non_negative_by_default_and_may_be_0_or_1():
    f = _dims("n", "m").facts
    assert f.get("n") == SymbolFacts(lo=0)
    assert f.prove_ge(n, 0) and not f.prove_ge(n, 1)
    assert not f.prove_nonzero(n) and not f.prove_nonzero(n - 1)
    assert f.prove_eq(n, 0) is None and f.prove_eq(n, 1) is None and f.prove_eq(n, -1) is False
    assert f.prove_ge(n * m, 0) and not f.prove_ge(n * m, 1)


def test_simplifications_that_need_a_non_zero_size_wait_for_it():
    g = _dims("n", "m")
    f = g.facts
    kept: list[Dim] = [floordiv(n * m, m), mod(n * m + 1, m), floordiv(n + m, m), floordiv(n, n + m), smax(n, 1)]
    assert [f.simplify(d) for d in kept] == kept  # m or n may be 0: nothing to cancel
    assert f.simplify(smax(n, 0)) is n and f.simplify(smin(n, 0)) == 0
    g.assume_range(m, 1, None, Origin("user fact", "m >= 1"))
    assert f.simplify(floordiv(n * m, m)) is n
    assert f.simplify(mod(n * m + 1, m)) is mod(1, m)
    assert f.simplify(floordiv(n + m, m)) is floordiv(n, m) + 1
    assert f.simplify(floordiv(n, n + m)) == 0  # 0 <= n < n + m once m >= 1


def test_edge_values_zero_and_one_satisfy_what_is_proven():
    g = _dims("n", "m")
    f = g.facts
    exprs = [n * m, floordiv(n, 2), mod(n, 3), smax(n - 1, 0), ceildiv(n, 4), n - m, smin(n, m)]
    for d in exprs:
        lo, hi = f.tight_bounds(d)
        for env in ({"n": 0, "m": 0}, {"n": 1, "m": 0}, {"n": 0, "m": 1}, {"n": 1, "m": 1}):
            assert _within(evaluate(d, env), (lo, hi)), (str(d), env)
