"""Every operation of `symshape.algebra.expr` against plain integer evaluation, with negative values, zero
and negative denominators (symbolic ones too), and the canonical form's invariants.

``tests/algebra/test_expr.py`` checks whole construction trees whose denominators are positive; here each
operation is checked on its own, over denominators of any sign, and the floor semantics are
checked against `fractions.Fraction` rather than against Python's own ``//``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import (
    Dim,
    Expr,
    FloorDiv,
    ModAtom,
    Sym,
    add,
    as_symbol,
    atoms_deep,
    ceildiv,
    content,
    degree_in,
    evaluate,
    exact_div,
    expand_mod,
    floordiv,
    from_terms,
    map_atoms,
    mod,
    mono_key,
    mul,
    product,
    single_atom,
    smax,
    smin,
    subs,
    sym,
    terms_of,
)
from tests._expr_trees import Tree, text
from tests.prop_strategies import NAMES, PROP, any_trees, defined_at, try_build

OPS = settings(PROP, max_examples=100)  # many cheap checks; keeps this file within its share of the budget
x, y, z = sym("x"), sym("y"), sym("z")
# Assignments with every sign, zero and one well represented.
envs = st.fixed_dictionaries({n: st.one_of(st.sampled_from([0, 1, -1]), st.integers(-30, 30)) for n in NAMES})
big = st.integers(-(10**12), 10**12)


def _built(tree: Tree) -> Dim:
    d = try_build(tree)
    assume(d is not None)
    assert d is not None
    return d


def _value(tree: Tree, env: dict[str, int]) -> int:
    v = defined_at(tree, env)
    assume(v is not None)
    assert v is not None
    return v


# ------------------------------------------------------------------ floor semantics, not C's
def _floor(n: int, k: int) -> int:
    return math.floor(Fraction(n, k))


@given(big, big.filter(bool))
@OPS
def test_floordiv_mod_ceildiv_of_constants_follow_the_mathematical_floor(n: int, k: int) -> None:
    assert floordiv(n, k) == _floor(n, k)
    assert mod(n, k) == n - k * _floor(n, k)
    assert ceildiv(n, k) == math.ceil(Fraction(n, k))
    assert (mod(n, k) == 0 or (mod(n, k) > 0) == (k > 0)), "the remainder has the divisor's sign"


@given(st.integers(-50, 50), st.integers(-9, 9).filter(bool), st.integers(-9, 9), st.integers(-9, 9))
@OPS
def test_symbolic_floor_mod_ceil_follow_the_mathematical_floor(n: int, k: int, a: int, b: int) -> None:
    """``floor((a*x + b)/k)`` and friends at a point, against Fraction arithmetic."""
    num = a * x + b
    at = a * n + b
    env = {"x": n}
    assert evaluate(floordiv(num, k), env) == _floor(at, k), (str(floordiv(num, k)), n)
    assert evaluate(mod(num, k), env) == at - k * _floor(at, k), (str(mod(num, k)), n)
    assert evaluate(ceildiv(num, k), env) == math.ceil(Fraction(at, k)), (str(ceildiv(num, k)), n)


@pytest.mark.parametrize(
    ("built", "at", "floor_value", "c_truncation"),
    [
        (lambda: floordiv(x, 2), -7, -4, -3),
        (lambda: floordiv(-x, 2), 7, -4, -3),
        (lambda: floordiv(x, -2), 7, -4, -3),
        (lambda: mod(x, 3), -7, 2, -1),
        (lambda: mod(x, -3), 7, -2, 1),
        (lambda: ceildiv(x, 2), 7, 4, 3),
        (lambda: floordiv(x, y), -7, -4, -3),  # with y = 2
        (lambda: mod(x, y), -7, 1, -1),
    ],
)
def test_negative_operands_take_the_floor_not_the_truncation(built, at: int, floor_value: int, c_truncation: int):
    d = built()
    assert evaluate(d, {"x": at, "y": 2}) == floor_value != c_truncation, str(d)


# ------------------------------------------------------------------ each operation on its own
@given(any_trees, any_trees, envs)
@OPS
def test_add_sub_mul_neg_evaluate_like_integers(t1: Tree, t2: Tree, env: dict[str, int]) -> None:
    p, q = _built(t1), _built(t2)
    u, v = _value(t1, env), _value(t2, env)
    assert evaluate(add(p, q), env) == u + v
    assert evaluate(p - q, env) == u - v
    assert evaluate(mul(p, q), env) == u * v
    assert evaluate(-p, env) == -u
    assert evaluate(product([p, q, p]), env) == u * v * u


@given(any_trees, any_trees, envs)
@OPS
def test_division_by_any_expression_evaluates_like_integers(t1: Tree, t2: Tree, env: dict[str, int]) -> None:
    """Denominators of either sign; a literal 0 is rejected, a 0 at the point is undefined."""
    p, q = _built(t1), _built(t2)
    if isinstance(q, int) and q == 0:
        for op in (floordiv, mod, ceildiv):
            with pytest.raises(ZeroDivisionError):
                op(p, q)
        assert exact_div(p, q) is None
        return
    u, v = _value(t1, env), _value(t2, env)
    assume(v != 0)
    assert evaluate(floordiv(p, q), env) == _floor(u, v), (str(p), str(q), env)
    assert evaluate(mod(p, q), env) == u - v * _floor(u, v), (str(p), str(q), env)
    assert evaluate(ceildiv(p, q), env) == math.ceil(Fraction(u, v)), (str(p), str(q), env)


@given(st.lists(any_trees, min_size=1, max_size=4), envs)
@OPS
def test_smax_smin_evaluate_like_integers(ts: list[Tree], env: dict[str, int]) -> None:
    ds = [_built(t) for t in ts]
    vs = [_value(t, env) for t in ts]
    assert evaluate(smax(*ds), env) == max(vs)
    assert evaluate(smin(*ds), env) == min(vs)


@given(any_trees, any_trees, any_trees)
@OPS
def test_smax_smin_are_commutative_associative_idempotent_as_objects(t1: Tree, t2: Tree, t3: Tree) -> None:
    """Hash-consing: the laws hold as identity, not just in value."""
    p, q, r = _built(t1), _built(t2), _built(t3)
    for op in (smax, smin):
        assert _same(op(p, q), op(q, p)), (op.__name__, str(p), str(q))
        assert _same(op(p, p), p), (op.__name__, str(p))
        assert _same(op(op(p, q), r), op(p, op(q, r))), (op.__name__, str(p), str(q), str(r))
        assert _same(op(p, q, r), op(r, q, p))


def _same(p: Dim, q: Dim) -> bool:
    return p is q if isinstance(p, Expr) or isinstance(q, Expr) else p == q


def test_smax_smin_of_nothing_is_rejected():
    with pytest.raises(ValueError, match="no arguments"):
        smax()
    with pytest.raises(ValueError, match="no arguments"):
        smin()


# Denominators with a substitution that makes them the literal 0 (x - y by a symbol, not a value).
ZEROED: list[tuple[Dim, dict[str, Dim]]] = [
    (x, {"x": 0}),
    (y, {"y": 0, "z": 3}),
    (x - y, {"x": y}),
    (x * y - 1, {"x": 1, "y": 1}),
    (y + 2, {"y": -2}),
]


@given(any_trees, st.sampled_from(ZEROED), envs)
@OPS
def test_a_zero_divisor_appearing_by_substitution_is_rejected(
    tree: Tree, zeroed: tuple[Expr, dict[str, Dim]], env: dict[str, int]
) -> None:
    """``subs`` re-simplifies: a denominator that becomes the literal 0 raises ZeroDivisionError,
    and one that stays symbolic keeps the value of the substituted expression."""
    den, mapping = zeroed
    num = _built(tree)
    d = floordiv(num, den) + mod(num, den)
    assume(any(isinstance(a, (FloorDiv, ModAtom)) and a.den is den for a in atoms_deep(d)))
    with pytest.raises(ZeroDivisionError):
        subs(d, mapping)
    u = _value(tree, env)
    v = evaluate(den, env)
    assume(v != 0)
    assert evaluate(d, env) == _floor(u, v) + u - v * _floor(u, v)


# ------------------------------------------------------------------ whole-expression operations
@given(any_trees, st.dictionaries(st.sampled_from(NAMES), any_trees, max_size=3), envs)
@OPS
def test_subs_evaluates_like_substituting_values(tree: Tree, mapping: dict[str, Tree], env: dict[str, int]) -> None:
    """A ZeroDivisionError from ``subs`` (a denominator became the literal 0) is only allowed
    where the tree, evaluated at the substituted values, divides by 0 too."""
    d = _built(tree)
    replaced = {n: _built(t) for n, t in mapping.items()}
    inner = dict(env)
    inner.update({n: _value(t, env) for n, t in mapping.items()})
    expected = defined_at(tree, inner)
    try:
        out = subs(d, replaced)
    except ZeroDivisionError:
        assert expected is None, (text(tree), {n: str(v) for n, v in replaced.items()}, env)
        return
    if expected is not None:
        assert evaluate(out, env) == expected, (text(tree), {n: str(v) for n, v in replaced.items()}, str(out), env)


@given(any_trees, envs)
@OPS
def test_subs_of_unmentioned_symbols_is_the_same_object(tree: Tree, env: dict[str, int]) -> None:
    d = _built(tree)
    assert subs(d, {"w": 5, "unused": x}) is d
    assert subs(d, {}) is d
    if isinstance(d, Expr):
        assert subs(d, {n: sym(n) for n in d.free}) is d


@given(any_trees, envs)
@OPS
def test_map_atoms_with_values_is_evaluation(tree: Tree, env: dict[str, int]) -> None:
    d = _built(tree)
    value = _value(tree, env)
    assert map_atoms(d, lambda a: a) is d or isinstance(d, int)
    assert map_atoms(d, lambda a: evaluate(a, env)) == value


@given(any_trees, envs)
@OPS
def test_expand_mod_removes_every_mod_and_keeps_values(tree: Tree, env: dict[str, int]) -> None:
    d = _built(tree)
    e = expand_mod(d)
    assert not any(isinstance(a, ModAtom) for a in atoms_deep(e)), str(e)
    assert expand_mod(e) is e or isinstance(e, int)
    value = defined_at(tree, env)
    if value is not None:
        assert evaluate(e, env) == value, (text(tree), str(d), str(e), env)


@given(any_trees, any_trees, envs)
@OPS
def test_exact_div_quotients_are_identities_over_atoms_too(t1: Tree, t2: Tree, env: dict[str, int]) -> None:
    """Quotients over floor/mod/max atoms (``tests/algebra/test_expr.py`` checks polynomials)."""
    num, den = _built(t1), _built(t2)
    q = exact_div(num, den)
    if q is not None:
        assert evaluate(mul(q, den), env) == _value(t1, env), (str(num), str(den), str(q))
    if den != 0:
        assert exact_div(mul(num, den), den) is not None, (str(num), str(den))


@given(st.sampled_from(NAMES), st.integers(-5, 5).filter(bool), any_trees, envs)
@OPS
def test_degree_in_splits_a_linear_symbol_off(name: str, c: int, rest_tree: Tree, env: dict[str, int]) -> None:
    rest = _built(rest_tree)
    assume(not (isinstance(rest, Expr) and name in rest.free))
    d = c * sym(name) + rest
    found = degree_in(d, name)
    assert found is not None and found[0] == c, (str(d), found)
    assert found[1] is rest if isinstance(rest, Expr) else found[1] == rest


@given(any_trees, st.sampled_from(NAMES), envs)
@OPS
def test_degree_in_answers_are_identities(tree: Tree, name: str, env: dict[str, int]) -> None:
    d = _built(tree)
    found = degree_in(d, name)
    if found is None:
        return
    c, rest = found
    assert c != 0 and not (isinstance(rest, Expr) and name in rest.free), (str(d), c, str(rest))
    assert evaluate(c * sym(name) + rest, env) == _value(tree, env)


# ------------------------------------------------------------------ small queries
@given(any_trees, envs)
@OPS
def test_content_divides_every_value(tree: Tree, env: dict[str, int]) -> None:
    d = _built(tree)
    g = content(d)
    value = _value(tree, env)
    assert value == 0 if g == 0 else value % g == 0, (str(d), g, value)


@given(any_trees, envs)
@OPS
def test_free_symbols_are_all_evaluation_needs(tree: Tree, env: dict[str, int]) -> None:
    d = _built(tree)
    free = d.free if isinstance(d, Expr) else frozenset()
    assert free <= set(NAMES)
    assert {a.name for a in atoms_deep(d) if isinstance(a, Sym)} == free
    value = defined_at(tree, env)
    if value is not None:
        assert evaluate(d, {n: env[n] for n in free}) == value


@given(any_trees)
@OPS
def test_terms_round_trip_and_the_normal_form_invariants(tree: Tree) -> None:
    d = _built(tree)
    assert from_terms(terms_of(d)) is d or from_terms(terms_of(d)) == d
    if isinstance(d, int):
        return
    keys = [mono_key(m) for m, _ in d.terms]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), str(d)
    assert all(c != 0 for _, c in d.terms)
    assert not (len(d.terms) == 1 and d.terms[0][0] == ()), "a constant must be an int"
    for m, _ in d.terms:
        assert list(m) == sorted(m, key=lambda a: a.order)
    for a in atoms_deep(d):
        if isinstance(a, (FloorDiv, ModAtom)):
            assert not (isinstance(a.den, int) and a.den in (0, 1)), str(a)
            if isinstance(a.den, int) and isinstance(a.num, Expr):
                assert a.den > 1 and content(a.num) % a.den != 0, str(a)


def test_single_atom_and_as_symbol():
    assert as_symbol(x) == "x" and as_symbol(2 * x) is None and as_symbol(x + 1) is None
    assert as_symbol(floordiv(x, 2)) is None and isinstance(single_atom(floordiv(x, 2)), FloorDiv)
    assert single_atom(x * y) is None and single_atom(3) is None and single_atom(-x) is None
