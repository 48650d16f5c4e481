"""Decisions checked by brute force: for random *finite* facts and random expressions, every claim
`symshape.engine.facts.Facts` makes (bounds, ``prove_*``, ``divides``, ``simplify``, ``floor_form``) is
confirmed at every assignment that satisfies the facts, where the expression is defined.

``tests/engine/test_facts.py`` samples a few assignments of unbounded facts; here the domains are small
enough to enumerate, so a claim that fails anywhere fails the test.
"""

from __future__ import annotations

import math

from hypothesis import assume, given
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, Expr, evaluate, floordiv, mod, smax, smin, sym
from symshape.engine.facts import Facts
from tests._expr_trees import Tree, text
from tests.prop_strategies import (
    NAMES,
    PROP,
    Spec,
    any_trees,
    defined_at,
    specs,
    try_build,
    values_of,
)


def _case(tree: Tree, spec: Spec) -> tuple[Dim, Facts, list[int]]:
    """The built expression, the facts, and every value it takes under them."""
    d = try_build(tree)
    assume(d is not None)
    assert d is not None
    values = [v for _, v in values_of(tree, spec.envs())]
    assume(values)
    return d, spec.facts(), values


def _inside(value: int, bounds: tuple[int | None, int | None]) -> bool:
    lo, hi = bounds
    return (lo is None or lo <= value) and (hi is None or value <= hi)


# ------------------------------------------------------------------ bounds
@given(any_trees, specs())
@PROP
def test_bounds_and_tight_bounds_contain_every_value(tree: Tree, spec: Spec) -> None:
    d, f, values = _case(tree, spec)
    loose, tight = f.bounds(d), f.tight_bounds(d)
    lo, hi = min(values), max(values)
    assert _inside(lo, loose) and _inside(hi, loose), (text(tree), str(d), spec, loose, (lo, hi))
    assert _inside(lo, tight) and _inside(hi, tight), (text(tree), str(d), spec, tight, (lo, hi))


@given(any_trees, specs())
@PROP
def test_tight_bounds_are_never_looser_than_bounds(tree: Tree, spec: Spec) -> None:
    d, f, _ = _case(tree, spec)
    (llo, lhi), (tlo, thi) = f.bounds(d), f.tight_bounds(d)
    assert llo is None or (tlo is not None and tlo >= llo), (str(d), spec)
    assert lhi is None or (thi is not None and thi <= lhi), (str(d), spec)


@st.composite
def linear_forms(draw: st.DrawFn) -> tuple[dict[str, int], int]:
    """``sum(c_s * s) + k`` with each symbol at most once (coefficients may be negative)."""
    used = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))
    return {n: draw(st.integers(-4, 4).filter(bool)) for n in used}, draw(st.integers(-6, 6))


def _linear(coeffs: dict[str, int], k: int) -> Dim:
    out: Dim = k
    for name, c in coeffs.items():
        out = out + c * sym(name)
    return out


@given(linear_forms(), specs())
@PROP
def test_bounds_of_a_linear_form_over_distinct_symbols_are_exact(form: tuple[dict[str, int], int], spec: Spec) -> None:
    """Interval arithmetic is exact when each symbol occurs once (the extremes are corners)."""
    coeffs, k = form
    d = _linear(coeffs, k)
    values = [evaluate(d, env) for env in spec.envs()]
    f = spec.facts()
    assert f.bounds(d) == (min(values), max(values)), (str(d), spec)
    assert f.prove_ge(d, min(values)) and not f.prove_ge(d, min(values) + 1)
    assert f.prove_le(d, max(values)) and not f.prove_le(d, max(values) - 1)


@st.composite
def independent_pairs(draw: st.DrawFn) -> tuple[tuple[dict[str, int], int], tuple[dict[str, int], int]]:
    """Two linear forms over disjoint, non-empty sets of symbols."""
    order = draw(st.permutations(NAMES))
    cut = draw(st.integers(1, len(NAMES) - 1))
    coeff = st.integers(-4, 4).filter(bool)
    first = ({n: draw(coeff) for n in order[:cut]}, draw(st.integers(-6, 6)))
    second = ({n: draw(coeff) for n in order[cut:]}, draw(st.integers(-6, 6)))
    return first, second


@given(independent_pairs(), st.booleans(), specs())
@PROP
def test_bounds_of_max_and_min_of_independent_forms_are_exact(
    pair: tuple[tuple[dict[str, int], int], tuple[dict[str, int], int]], is_max: bool, spec: Spec
) -> None:
    """Independent arguments reach their extremes together, so the interval rule is exact."""
    d = (smax if is_max else smin)(_linear(*pair[0]), _linear(*pair[1]))
    values = [evaluate(d, env) for env in spec.envs()]
    assert spec.facts().bounds(d) == (min(values), max(values)), (str(d), spec)


# ------------------------------------------------------------------ prove_ge / prove_le / nonzero
@given(any_trees, specs())
@PROP
def test_prove_ge_and_prove_le_never_claim_a_falsehood(tree: Tree, spec: Spec) -> None:
    d, f, values = _case(tree, spec)
    lo, hi = min(values), max(values)
    for k in {lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, 0}:
        if f.prove_ge(d, k):
            assert lo >= k, (text(tree), str(d), spec, k, lo)
        if f.prove_le(d, k):
            assert hi <= k, (text(tree), str(d), spec, k, hi)


@given(any_trees, specs(), st.integers(-3, 3))
@PROP
def test_prove_ge_and_prove_le_are_monotone_in_the_constant(tree: Tree, spec: Spec, k: int) -> None:
    d, f, _ = _case(tree, spec)
    if f.prove_ge(d, k):
        assert f.prove_ge(d, k - 1)
    if f.prove_le(d, k):
        assert f.prove_le(d, k + 1)


@given(any_trees, specs())
@PROP
def test_prove_nonzero_never_claims_a_falsehood(tree: Tree, spec: Spec) -> None:
    d, f, values = _case(tree, spec)
    if f.prove_nonzero(d):
        assert 0 not in values, (text(tree), str(d), spec)


# ------------------------------------------------------------------ divisibility
@given(any_trees, specs())
@PROP
def test_divides_and_divisor_of_never_claim_a_falsehood(tree: Tree, spec: Spec) -> None:
    d, f, values = _case(tree, spec)
    g = f.divisor_of(d)
    if g:
        assert all(v % g == 0 for v in values), (text(tree), str(d), spec, g)
    else:
        assert set(values) == {0}, (str(d), spec)
    for k in range(1, 7):
        if f.divides(k, d):
            assert all(v % k == 0 for v in values), (text(tree), str(d), spec, k)
    if f.divides(0, d):
        assert set(values) == {0}


@given(st.sampled_from(NAMES), st.integers(1, 4), st.integers(-6, 6), specs())
@PROP
def test_divisor_facts_are_used_and_sound(name: str, coeff: int, const: int, spec: Spec) -> None:
    """``coeff*s + const`` under ``div | s``: divisible by ``gcd(coeff*div, const)``, proven."""
    d = coeff * sym(name) + const
    f = spec.facts()
    div = f.get(name).divisor
    expected = math.gcd(coeff * div, abs(const))
    assert f.divides(expected, d)
    assert all(evaluate(d, env) % expected == 0 for env in spec.envs())


# ------------------------------------------------------------------ prove_eq
@given(any_trees, any_trees, specs())
@PROP
def test_prove_eq_never_claims_a_falsehood(t1: Tree, t2: Tree, spec: Spec) -> None:
    d1, d2 = try_build(t1), try_build(t2)
    assume(d1 is not None and d2 is not None)
    assert d1 is not None and d2 is not None
    f = spec.facts()
    answer = f.prove_eq(d1, d2)
    pairs = [(v1, v2) for env in spec.envs() if (v1 := defined_at(t1, env)) is not None
             if (v2 := defined_at(t2, env)) is not None]
    if answer is True:
        assert all(v1 == v2 for v1, v2 in pairs), (text(t1), text(t2), str(d1), str(d2), spec)
    if answer is False:
        assert all(v1 != v2 for v1, v2 in pairs), (text(t1), text(t2), str(d1), str(d2), spec)


@given(any_trees, st.integers(-3, 3), specs())
@PROP
def test_prove_eq_against_a_shifted_copy(tree: Tree, shift: int, spec: Spec) -> None:
    """``d`` against ``d + shift`` (an identity only for shift 0), and against a constant."""
    d, f, values = _case(tree, spec)
    answer = f.prove_eq(d, d + shift)
    assert answer is (shift == 0)  # decided by the difference, a constant
    for k in {min(values), max(values), 0}:
        answer = f.prove_eq(d, k)
        if answer is True:
            assert set(values) == {k}, (str(d), spec, k)
        if answer is False:
            assert k not in values, (str(d), spec, k)


# ------------------------------------------------------------------ simplify / floor_form
@given(any_trees, specs())
@PROP
def test_simplify_and_floor_form_keep_every_value(tree: Tree, spec: Spec) -> None:
    d, f, _ = _case(tree, spec)
    simple, floors = f.simplify(d), f.floor_form(d)
    for env, value in values_of(tree, spec.envs()):
        assert evaluate(simple, env) == value, (text(tree), str(d), str(simple), spec, env)
        assert evaluate(floors, env) == value, (text(tree), str(d), str(floors), spec, env)


@given(any_trees, specs())
@PROP
def test_simplify_is_idempotent_and_proven_equal(tree: Tree, spec: Spec) -> None:
    d, f, _ = _case(tree, spec)
    simple = f.simplify(d)
    again = f.simplify(simple)
    for env, value in values_of(tree, spec.envs()):
        assert evaluate(again, env) == value
    assert f.prove_eq(d, simple) is not False
    if isinstance(simple, int):
        assert f.prove_eq(d, simple) is True


@given(any_trees, specs())
@PROP
def test_a_constant_simplification_is_the_only_value(tree: Tree, spec: Spec) -> None:
    d, f, values = _case(tree, spec)
    simple = f.simplify(d)
    if isinstance(simple, int):
        assert set(values) == {simple}, (text(tree), str(d), spec, simple)


# ------------------------------------------------------------------ caches follow the facts
def _narrower(data: st.DataObject, spec: Spec) -> Spec:
    """A non-empty sub-spec of ``spec``: each symbol keeps a sub-range of its values."""
    ranges: list[tuple[str, int, int, int]] = []
    for name, _, _, div in spec.ranges:
        values = spec.values(name)
        i = data.draw(st.integers(0, len(values) - 1))
        j = data.draw(st.integers(i, len(values) - 1))
        ranges.append((name, values[i], values[j], div))
    return Spec(tuple(ranges))


Answers = tuple[tuple[int | None, int | None], tuple[int | None, int | None], Dim, bool]


def _ask(f: Facts, d: Dim) -> Answers:
    return f.bounds(d), f.tight_bounds(d), f.simplify(d), f.prove_nonzero(d)


@given(any_trees, specs(), st.data())
@PROP
def test_decisions_follow_facts_that_change_in_place(tree: Tree, wide: Spec, data: st.DataObject) -> None:
    """Ask under narrow facts, widen them in place with ``set``, ask, narrow them again with
    ``restrict``, ask: a cached answer kept across a change would be wrong on the wider domain."""
    d = try_build(tree)
    assume(d is not None)
    assert d is not None
    narrow = _narrower(data, wide)
    f = narrow.facts()
    asked = [(narrow.envs(), _ask(f, d))]
    widened = wide.facts()
    for name in NAMES:
        f.set(name, widened.get(name))
    asked.append((wide.envs(), _ask(f, d)))
    for name, lo, hi, div in narrow.ranges:
        f.restrict(name, lo=lo, hi=hi, divisor=div)
    asked.append((narrow.envs(), _ask(f, d)))
    for domain, (bounds, tight, simple, nonzero) in asked:
        for env, value in values_of(tree, domain):
            assert _inside(value, bounds) and _inside(value, tight), (str(d), bounds, tight, env)
            assert evaluate(simple, env) == value, (str(d), str(simple), env)
            assert not (nonzero and value == 0), (str(d), env)


@given(any_trees, specs(), st.sampled_from(NAMES), st.data())
@PROP
def test_a_copy_answers_for_its_own_facts(tree: Tree, spec: Spec, name: str, data: st.DataObject) -> None:
    """Pinning a symbol in a copy changes the copy's answers only; the original keeps its own."""
    d, _, _ = _case(tree, spec)  # defined somewhere under the facts
    assume(isinstance(d, Expr))
    pin = data.draw(st.sampled_from(spec.values(name)))
    f = spec.facts()
    before = (f.bounds(d), f.tight_bounds(d), f.simplify(d))
    pinned = f.copy()
    pinned.restrict(name, lo=pin, hi=pin)
    after = (pinned.bounds(d), pinned.simplify(d))
    assert (f.bounds(d), f.tight_bounds(d), f.simplify(d)) == before
    fresh = spec.facts()
    assert (fresh.bounds(d), fresh.tight_bounds(d), fresh.simplify(d)) == before
    assert all(f.get(n) == fresh.get(n) for n in NAMES), "restricting the copy changed the original"
    fresh_question = 7 * sym(name) + 1  # not cached: answered from the original's current facts
    assert all(_inside(7 * v + 1, f.bounds(fresh_question)) for v in spec.values(name))
    domain = [env for env in spec.envs() if env[name] == pin]
    for env, value in values_of(tree, domain):
        assert _inside(value, after[0]) and evaluate(after[1], env) == value, (str(d), name, pin, env)


def test_bounds_after_an_empty_restriction_do_not_crash() -> None:
    """An empty range (lo > hi) bounds a floor by no claim rather than dividing by its end 0."""
    f = Facts()
    f.restrict("x", lo=0, hi=0)
    f.restrict("x", lo=1, hi=1)  # empty: no x is both 0 and 1
    x = sym("x")
    assert f.bounds(floordiv(x, x)) == (None, None)


def test_a_denominator_proven_zero_does_not_crash_the_decisions() -> None:
    """floor(b/3) is 0 for 0 <= b <= 2: an atom over it is undefined and is left as written."""
    f = Facts()
    f.restrict("b", lo=0, hi=2)
    a, b = sym("a"), sym("b")
    assert f.prove_eq(floordiv(a, floordiv(b, 3)), 0) is not True
    assert f.simplify(mod(a, floordiv(b, 3))) is mod(a, floordiv(b, 3))
