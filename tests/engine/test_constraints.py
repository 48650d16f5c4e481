"""The constraint graph: solving, residual product equations, cancellation only of non-zero
factors, learned divisibility, contradictions naming both origins, determinism."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Expr, evaluate, floordiv, mod, sym
from symshape.engine.constraints import ConstraintGraph, Origin, Predicate
from symshape.errors import ContradictionError

a, b, c, d, n = sym("a"), sym("b"), sym("c"), sym("d"), sym("n")
RESHAPE = Origin("Reshape", "r", "reshape element count")
MATMUL = Origin("MatMul", "layer0/attn/MatMul", "contraction")


def graph(*inputs: str) -> ConstraintGraph:
    g = ConstraintGraph()
    for name in inputs:
        g.add_symbol(name, "input", Origin("input", "x", name))
    return g


def residual_exprs(g: ConstraintGraph) -> list[str]:
    return [str(r.expr) for r in g.residuals]


# ------------------------------------------------------------------ linear solving
def test_linear_equalities_are_solved_and_substituted():
    g = graph("a", "b")
    t = g.fresh(RESHAPE)
    g.eq(t, a + 1, RESHAPE)
    assert g.canon(t) is a + 1
    g.eq(2 * t, b, RESHAPE)  # b = 2a + 2: an input bound to inputs
    assert g.canon(b) is 2 * a + 2
    assert g.canon(t * b) is g.canon((a + 1) * (2 * a + 2))
    assert not g.residuals


def test_derived_symbols_are_eliminated_before_input_names():
    g = graph("a")
    t = g.fresh(RESHAPE)
    g.eq(a, t, RESHAPE)  # either way round, the input name stays
    assert g.canon(t) is a and g.canon(a) is a
    u = g.fresh(RESHAPE)
    g.eq(u + 3, a, RESHAPE)
    assert g.canon(u) is a - 3


def test_between_inputs_the_newer_name_goes():
    g = graph("a", "b")
    g.eq(b, a, RESHAPE)
    assert g.canon(b) is a and g.canon(a) is a


def test_a_derived_symbol_with_a_coefficient_becomes_a_floor_and_teaches_divisibility():
    g = graph("n")
    t = g.fresh(RESHAPE)
    g.eq(2 * t, n, RESHAPE)
    assert g.canon(t) is floordiv(n, 2)
    assert g.canon(n) is n  # the input name is kept
    assert g.facts.get("n").divisor == 2
    assert Predicate(n, "divisible", 2, RESHAPE) in g.predicates


def test_chains_of_bindings_stay_fully_substituted():
    g = graph("a")
    ts = [g.fresh(RESHAPE) for _ in range(5)]
    for left, right in zip(ts, ts[1:], strict=False):
        g.eq(left, right + 1, RESHAPE)
    g.eq(ts[-1], a, RESHAPE)
    assert [g.canon(t) for t in ts] == [a + 4, a + 3, a + 2, a + 1, a]
    for name in ("_t1", "_t2"):
        value = g.binding(name)
        assert value is not None and isinstance(value[0], Expr) and value[0].free == {"a"}


# ------------------------------------------------------------------ residual product equations
def test_product_equations_are_kept_and_renormalized_as_bindings_grow():
    g = graph("a", "b", "c", "d")
    g.eq(a * b, c * d, RESHAPE)
    assert residual_exprs(g) == [str(a * b - c * d)]
    g.eq(c, a, MATMUL)  # a*b == a*d, but a may be 0: nothing cancels
    assert residual_exprs(g) == [str(a * b - a * d)]
    assert g.canon(d) is d
    g.assume_range(a, 1, None, Origin("user fact", "a >= 1"))  # a facts change re-checks it
    assert not g.residuals
    assert g.canon(d) is b


def test_the_same_residual_is_kept_once_with_its_first_origin():
    g = graph("a", "b", "c", "d")
    g.eq(a * b, c * d, RESHAPE)
    g.eq(c * d, a * b, MATMUL)
    g.eq(2 * a * b, 2 * c * d, MATMUL)
    assert residual_exprs(g) == [str(a * b - c * d)] and g.residuals[0].origin == RESHAPE


def test_cancellation_only_of_factors_proven_non_zero():
    g = graph("a", "b", "c")
    g.eq(a * b, c * b, RESHAPE)
    assert residual_exprs(g) == [str(a * b - b * c)]  # b may be 0: a and c stay apart
    assert g.canon(c) is c
    g2 = graph("a", "b", "c")
    g2.assume_range(b, 1, None, Origin("user fact", "b >= 1"))
    g2.eq(a * b, c * b, RESHAPE)
    assert not g2.residuals and g2.canon(c) is a


def test_every_non_zero_common_factor_cancels_even_after_a_possibly_zero_one():
    g = graph("a", "b", "c", "d")
    g.assume_range(b, 1, None, Origin("user fact", "b >= 1"))
    g.eq(a * b * c, a * b * d, RESHAPE)  # a may be 0, b may not
    assert residual_exprs(g) == [str(a * c - a * d)]


def test_a_residual_closes_when_a_binding_makes_it_an_identity():
    g = graph("a", "b", "c")
    g.eq(a * b, c, RESHAPE)  # solvable for c: a binding, not a residual
    assert g.canon(c) is a * b
    g.eq(a * b * 2, 2 * c, MATMUL)
    assert not g.residuals


def test_divisibility_learned_from_a_floor_equation():
    g = graph("c")
    g.eq(c, 2 * floordiv(c, 2), RESHAPE)  # from Reshape(-1): c == 2*floor(c/2)
    assert g.facts.get("c").divisor == 2
    assert Predicate(c, "divisible", 2, RESHAPE) in g.predicates
    assert not g.residuals  # Mod(c, 2) == 0 is now proven
    assert g.facts.prove_eq(2 * floordiv(c, 2), c) is True


def test_divisibility_learned_from_a_linear_residual():
    g = graph("a", "b")
    g.eq(3 * a, 6 * b + 3, RESHAPE)  # a == 2b + 1 after the gcd; bound, nothing to learn
    assert g.canon(a) is 2 * b + 1
    g2 = graph("a", "b")
    g2.eq(a * a, 4 * b, RESHAPE)  # nothing linear; a residual, nothing learned about a
    assert residual_exprs(g2) == [str(a * a - 4 * b)]


def test_a_mod_residual_teaches_divisibility():
    g = graph("n")
    g.eq(mod(3 * n, 4), 0, RESHAPE)
    assert g.facts.get("n").divisor == 4 and not g.residuals


# ------------------------------------------------------------------ contradictions
def test_contradiction_names_both_origins():
    g = graph("hidden")
    g.eq(sym("hidden"), 768, RESHAPE)
    expected = (
        r"^MatMul 'layer0/attn/MatMul' \(contraction\): dim 1 of 'x' \(hidden = 768\) must equal "
        r"dim 0 of 'w' \(512\); 'hidden' = 768 since Reshape 'r' \(reshape element count\), "
        r"expected two sides that can be equal for some input size; check the two places it names "
        r"\(ops, inputs or user facts\): at least one is wrong \(run `symshape explain contradictionerror`\)$"
    )
    with pytest.raises(ContradictionError, match=expected):
        g.eq(sym("hidden"), 512, MATMUL, ("dim 1 of 'x'", "dim 0 of 'w'"))


def test_contradiction_between_constants_recovers_the_declared_name():
    # Rules see canonical dims: 'hidden' reaches the MatMul rule as 768 already.
    g = graph("hidden", "batch")
    g.eq(sym("hidden"), 768, RESHAPE)
    expected = (
        r"^MatMul 'layer0/attn/MatMul' \(contraction\): dim 1 of 'x' \(hidden = 768\) must equal "
        r"dim 0 of 'w' \(512\); 'hidden' = 768 since Reshape 'r' \(reshape element count\)"
    )
    with pytest.raises(ContradictionError, match=expected):
        g.eq(768, 512, MATMUL, ("dim 1 of 'x'", "dim 0 of 'w'"))
    g.eq(sym("batch"), 768, RESHAPE)  # two names for 768: no guessing
    with pytest.raises(ContradictionError, match=r"dim 1 of 'x' \(768\) must equal dim 0 of 'w' \(512\), expected"):
        g.eq(768, 512, MATMUL, ("dim 1 of 'x'", "dim 0 of 'w'"))


def test_contradiction_with_a_user_range_names_the_fact():
    g = graph("n")
    g.assume_range(n, None, 5, Origin("user fact", "n <= 5"))
    expected = (
        r"^Concat 'cat' \(concat non-axis dim\): 'n' must equal '7'; "
        r"'n' in \[0, 5\] since user fact 'n <= 5', expected two sides that can be equal .*"
        r"\(run `symshape explain contradictionerror`\)$"
    )
    with pytest.raises(ContradictionError, match=expected):
        g.eq(n, 7, Origin("Concat", "cat", "concat non-axis dim"))


def test_contradiction_found_while_rechecking_a_residual_names_both_origins():
    g = graph("a", "b")
    g.eq(a * b, 6, RESHAPE)
    assert residual_exprs(g) == [str(a * b - 6)]
    expected = (
        r"^Reshape 'r' \(reshape element count\): 'a\*b = 4\*b' must equal '6'; "
        r"'a' = 4 since MatMul 'layer0/attn/MatMul' \(contraction\)"
    )
    with pytest.raises(ContradictionError, match=expected):
        g.eq(a, 4, MATMUL)


def test_a_contradiction_while_rechecking_keeps_the_other_residuals():
    g = graph("a", "b", "c", "d")
    g.eq(a * b, 6, RESHAPE)
    g.eq(a * c, 5, RESHAPE)
    g.eq(c * d, a * d, RESHAPE)
    with pytest.raises(ContradictionError):
        g.eq(a, 4, MATMUL)  # a*b == 6 fails first; the others must still be there
    assert len(g.residuals) == 3


def test_conflicting_ranges_name_the_earlier_fact():
    g = graph("n")
    g.assume_range(n, 8, None, Origin("user fact", "n >= 8"))
    expected = (
        r"^user fact 'n <= 5': 'n' must lie in \[-inf, 5\], but user fact 'n >= 8' already bounds it to "
        r"\[8, inf\]"
    )
    with pytest.raises(ContradictionError, match=expected):
        g.assume_range(n, None, 5, Origin("user fact", "n <= 5"))
    assert g.facts.get("n").lo == 8 and g.facts.get("n").hi is None  # left as it was


def test_parity_contradiction():
    g = graph("n")
    g.assume_divisible(n, 2, Origin("user fact", "2 | n"))
    expected = r"'n' must equal '2\*b \+ 1'; 'n' in \[0, inf\] and is a multiple of 2 since user fact '2 \| n'"
    with pytest.raises(ContradictionError, match=expected):
        g.add_symbol("b", "input", Origin("input", "y", "b"))
        g.eq(n, 2 * b + 1, RESHAPE)


def test_negative_dims_contradict_the_default_range():
    g = graph("a")
    with pytest.raises(ContradictionError, match=r"'a' must equal '-1'; 'a' lies in \[0, inf\], expected"):
        g.eq(a, -1, RESHAPE)


# ------------------------------------------------------------------ soundness (random)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(-2, 2), st.integers(1, 3)),
                min_size=1, max_size=6),
       st.dictionaries(st.sampled_from("abcd"), st.integers(0, 6), min_size=4, max_size=4))
@settings(max_examples=150, deadline=None)
def test_solutions_satisfy_every_equation(equations, env):
    """Equations built to hold at ``env``: after solving, every symbol's canonical value must
    evaluate to its value at ``env`` and no contradiction may be raised."""
    names = "abcd"
    g = graph(*names)
    syms = [sym(x) for x in names]
    for i, j, k, coeff in equations:
        lhs = coeff * syms[i] + k * syms[j]
        rhs_value = coeff * env[names[i]] + k * env[names[j]]
        g.eq(lhs, rhs_value - env[names[(i + 1) % 4]] + syms[(i + 1) % 4], RESHAPE)
    for s, x in zip(syms, names, strict=True):
        assert evaluate(g.canon(s), env) == env[x]


@given(st.lists(st.tuples(st.integers(1, 3), st.lists(st.integers(-2, 2), min_size=4, max_size=4), st.integers(0, 9)),
                min_size=1, max_size=5),
       st.dictionaries(st.sampled_from("abcd"), st.integers(0, 9), min_size=4, max_size=4))
@settings(max_examples=150, deadline=None)
def test_derived_symbols_solve_to_their_values(equations, env):
    """``k*t == L(a..d) + const`` built to hold at ``env`` with ``t = value``: every derived symbol
    must come out as an expression in the inputs that evaluates to its value, learned
    divisibility must hold at ``env``, and the inputs must stay free."""
    g = graph("a", "b", "c", "d")
    inputs = [sym(x) for x in "abcd"]
    expected = {}
    for k, coeffs, value in equations:
        t = g.fresh(RESHAPE)
        linear = sum((q * s for q, s in zip(coeffs, inputs, strict=True)), start=0)
        at_env = sum(q * env[x] for q, x in zip(coeffs, "abcd", strict=True))
        g.eq(k * t, linear + (k * value - at_env), RESHAPE)
        expected[t] = value
    for t, value in expected.items():
        solved = g.canon(t)
        assert not (isinstance(solved, Expr) and solved.free - set("abcd")), str(solved)
        assert evaluate(solved, env) == value, (str(solved), env)
    for x in "abcd":
        assert g.canon(sym(x)) is sym(x)
        assert env[x] % g.facts.get(x).divisor == 0


# ------------------------------------------------------------------ determinism
_SCRIPT = textwrap.dedent(
    """
    from symshape.engine.constraints import ConstraintGraph, Origin
    from symshape.algebra.expr import floordiv, sym
    g = ConstraintGraph()
    o = Origin("Op", "o", "rule")
    names = ["n%d" % i for i in range(12)]
    for x in names:
        g.add_symbol(x, "input", o)
    s = [sym(x) for x in names]
    ts = [g.fresh(o) for _ in range(12)]
    for i in range(11):
        g.eq(ts[i] * s[i], s[i + 1] * ts[i + 1], o)
        g.eq(ts[i] + s[(i * 5) % 12], s[(i * 7) % 12] + 1, o)
    g.eq(2 * ts[11], s[3], o)
    g.eq(floordiv(s[4], 4) * 4, s[4], o)
    print([str(g.canon(t)) for t in ts])
    print([str(r.expr) for r in g.residuals])
    print([(str(p.lhs), p.rel, str(p.rhs)) for p in g.predicates])
    print({x: g.facts.get(x) for x in names})
    """
)


def test_results_do_not_depend_on_the_hash_seed():
    outputs = set()
    for seed in ("0", "1", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": seed, "PATH": ""},
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1, outputs


def test_copy_is_independent():
    g = graph("a", "b")
    g.eq(a * b, 6, RESHAPE)
    h = g.copy()
    h.eq(a, 2, MATMUL)
    assert g.canon(b) is b and h.canon(b) == 3
    assert residual_exprs(g) == [str(a * b - 6)] and not h.residuals
