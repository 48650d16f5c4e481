"""Printing round-trips, with sympy as the independent oracle.

* our canonical text parses back to the very same object (hash-consing), for any denominators;
* sympy reads our text and gets the same value at every point (negative values included);
* sympy's own algebra agrees with our polynomial normal form (an identity, not a sample);
* our parser reads what *sympy* prints (``floor(x/2 + 1/2)``, ``ceiling(x/4 - 3/4)``,
  ``Mod(2 - x, 3)``) and gets sympy's value, and two printings of one polynomial meet in one
  object.
"""

from __future__ import annotations

import random

import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, Expr, evaluate, mul, sym
from symshape.algebra.parse import parse_dim
from tests._expr_trees import Tree, build, text
from tests.prop_strategies import NAMES, PROP, any_trees, defined_at, polys, try_build

SYMBOLS = {n: sympy.Symbol(n, integer=True) for n in NAMES}
LOCALS = {**SYMBOLS, "floor": sympy.floor, "ceiling": sympy.ceiling, "Mod": sympy.Mod, "Max": sympy.Max,
          "Min": sympy.Min}
points = st.lists(st.fixed_dictionaries({n: st.integers(-9, 9) for n in NAMES}), min_size=1, max_size=3)
SYMPY = settings(PROP, max_examples=60)  # sympy is slow: fewer examples, same profile


def to_sympy(t: Tree) -> sympy.Expr:
    """The tree built with sympy's own constructors (independent of symshape)."""
    if t[0] == "sym":
        return SYMBOLS[t[1]]
    if t[0] == "int":
        return sympy.Integer(t[1])
    kids = [to_sympy(c) for c in t[1:]]
    ops = {
        "add": lambda a, b: a + b,
        "sub": lambda a, b: a - b,
        "mul": lambda a, b: a * b,
        "neg": lambda a: -a,
        "fdiv": lambda a, b: sympy.floor(a / b),
        "mod": sympy.Mod,
        "cdiv": lambda a, b: sympy.ceiling(a / b),
        "max": sympy.Max,
        "min": sympy.Min,
    }
    return ops[t[0]](*kids)


def sympy_at(e: sympy.Expr, env: dict[str, int]) -> int:
    """The value of ``e`` at ``env``. ``xreplace`` rebuilds every node, so Max/Min re-evaluate;
    ``subs`` (sympy 1.14) answers 0 for ``Min(x, Max(-1, Min(-2, y)))`` at ``x = y = 0``."""
    value = e.xreplace({SYMBOLS[n]: sympy.Integer(v) for n, v in env.items()}).doit()
    assert value.is_Integer, (str(e), env, value)
    return int(value)


def _built(tree: Tree) -> Dim:
    d = try_build(tree)
    assume(d is not None)
    assert d is not None
    return d


def _same(p: Dim, q: Dim) -> bool:
    return p is q if isinstance(p, Expr) or isinstance(q, Expr) else p == q


# ------------------------------------------------------------------ our text, parsed by us
@given(any_trees)
@PROP
def test_printed_form_parses_back_to_the_same_object(tree: Tree) -> None:
    d = _built(tree)
    back = parse_dim(str(d))
    assert _same(back, d), (text(tree), str(d), str(back))


@given(polys, st.integers(2, 5), st.integers(-(10**15), 10**15))
@PROP
def test_powers_and_large_coefficients_round_trip(tree: Tree, power: int, coeff: int) -> None:
    d = mul(_built(tree), coeff)
    for _ in range(power - 1):
        d = mul(d, sym("x") + 1)
    assert _same(parse_dim(str(d)), d), str(d)


@given(st.lists(st.tuples(st.integers(-20, 20).filter(bool), st.lists(st.sampled_from(NAMES), max_size=3)),
                min_size=1, max_size=6), st.randoms(use_true_random=False))
@PROP
def test_every_order_of_the_written_terms_meets_in_one_object(terms: list[tuple[int, list[str]]],
                                                              rng: random.Random) -> None:
    written = [f"{c}*{'*'.join(names)}" if names else str(c) for c, names in terms]
    first = parse_dim(" + ".join(written))
    for _ in range(3):
        rng.shuffle(written)
        shuffled = [" * ".join(rng.sample(w.split("*"), len(w.split("*")))) for w in written]
        assert _same(parse_dim(" + ".join(shuffled)), first), (written, shuffled)


# ------------------------------------------------------------------ our text, read by sympy
@given(any_trees, points)
@SYMPY
def test_sympy_reads_our_text_with_the_same_value(tree: Tree, envs: list[dict[str, int]]) -> None:
    d = _built(tree)
    read = sympy.sympify(str(d), locals=LOCALS)
    for env in envs:
        value = defined_at(tree, env)
        if value is not None:
            assert sympy_at(read, env) == value, (text(tree), str(d), env)


@given(polys)
@SYMPY
def test_polynomial_normal_form_is_sympys_expansion(tree: Tree) -> None:
    """An algebraic identity: sympy's expansion of the tree equals our printed normal form."""
    d = build(tree)
    ours = sympy.sympify(str(d), locals=LOCALS)
    assert sympy.expand(ours - to_sympy(tree)) == 0, (text(tree), str(d))


# ------------------------------------------------------------------ sympy's text, read by us
@given(polys)
@SYMPY
def test_sympys_printings_of_one_polynomial_meet_in_one_object(tree: Tree) -> None:
    e = to_sympy(tree)
    expanded = parse_dim(str(sympy.expand(e)))
    assert _same(parse_dim(str(e)), expanded), (str(e), str(sympy.expand(e)))
    assert _same(expanded, build(tree)), (text(tree), str(expanded))
    factored = sympy.factor(e)
    assert _same(parse_dim(str(factored)), expanded), str(factored)


@given(any_trees, points)
@SYMPY
def test_we_read_sympys_printing_with_sympys_value(tree: Tree, envs: list[dict[str, int]]) -> None:
    assume(try_build(tree) is not None)
    e = to_sympy(tree)
    assume(e.is_finite is not False and not e.has(sympy.zoo, sympy.nan))
    ours = parse_dim(str(e))
    for env in envs:
        value = defined_at(tree, env)
        if value is not None:
            assert evaluate(ours, env) == value, (text(tree), str(e), str(ours), env)
            assert sympy_at(e, env) == value, (text(tree), str(e), env)


def test_sympy_spellings_of_floor_and_ceiling_divisions():
    """Forms sympy prints for integer divisions, each read back to our canonical form."""
    x, y = SYMBOLS["x"], SYMBOLS["y"]
    cases = [
        (sympy.floor((x + 1) / 2), "floor((x + 1)/2)"),
        (sympy.ceiling((x - 3) / 4), "floor(x/4)"),
        (sympy.floor(-x / 3), "-floor((x + 2)/3)"),
        (sympy.Mod(-x + 2, 3), "Mod(-x + 2, 3)"),
        (sympy.floor(sympy.floor(x / 2) / 3), "floor(x/6)"),
        (sympy.floor(x / y), "floor(x/y)"),
        (sympy.Max(x, y + 1), "Max(x, y + 1)"),
    ]
    for e, canonical in cases:
        assert _same(parse_dim(str(e)), parse_dim(canonical)), (str(e), canonical)
        for vx in range(-7, 8):
            for vy in (1, 2, 5):
                env = {"x": vx, "y": vy}
                assert evaluate(parse_dim(str(e)), env) == sympy_at(e, env), (str(e), env)
