"""The integer-operation table of `symshape.rules.shared.arith` against plain Python integers.

The oracle for each operation is written here from its definition (C truncation and remainder
through ``math``-free integer steps, Python's floor ``//`` and ``%``), never from the code
under test. On constants every operation is exact; on symbolic operands with random facts a
result, when one is given, equals the oracle at every assignment the facts allow (an undecided
value must be None, never a guess); each dialect's names map to the operation its spec defines.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, evaluate, sym
from symshape.engine.facts import Facts
from symshape.rules.shared.arith import (
    ARITH_INT_OPS,
    CMPI_PREDICATES,
    COMPARISON_DIRECTIONS,
    HLO_INT_OPS,
    HLO_UNARY_INT_OPS,
    INT_OPS,
    ONNX_INT_OPS,
    SHAPE_INT_OPS,
    UNARY_INT_OPS,
    IntOp,
)
from tests._expr_trees import build, facts_and_envs, naive, polynomials, text, trees

Oracle = Callable[[int, int], int | None]


def c_div(a: int, b: int) -> int | None:
    """C division: the quotient rounded toward zero."""
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def c_rem(a: int, b: int) -> int | None:
    """C remainder: ``a - b * c_div(a, b)``, with the dividend's sign."""
    q = c_div(a, b)
    return None if q is None else a - b * q


ORACLES: dict[str, Oracle] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "trunc_div": c_div,
    "floor_div": lambda a, b: None if b == 0 else a // b,
    "ceil_div": lambda a, b: None if b == 0 else -(-a // b),
    "rem": c_rem,
    "mod": lambda a, b: None if b == 0 else a % b,
    "max": max,
    "min": min,
    "eq": lambda a, b: int(a == b),
    "ne": lambda a, b: int(a != b),
    "lt": lambda a, b: int(a < b),
    "le": lambda a, b: int(a <= b),
    "gt": lambda a, b: int(a > b),
    "ge": lambda a, b: int(a >= b),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}
UNARY_ORACLES: dict[str, Callable[[int], int]] = {"neg": lambda a: -a, "abs": abs, "sign": lambda a: (a > 0) - (a < 0)}


def test_every_operation_has_an_oracle():
    assert set(ORACLES) == set(INT_OPS)
    assert set(UNARY_ORACLES) == set(UNARY_INT_OPS)


@given(st.integers(-40, 40), st.integers(-9, 9))
@settings(max_examples=300, deadline=None)
def test_constants_are_exact(a: int, b: int):
    facts = Facts()
    for name, oracle in ORACLES.items():
        got = INT_OPS[name](facts, a, b)
        assert got == oracle(a, b), (name, a, b, got)
    for name, unary_oracle in UNARY_ORACLES.items():
        assert UNARY_INT_OPS[name](facts, a) == unary_oracle(a), (name, a)


def _check_symbolic(op: IntOp, oracle: Oracle, a_tree: tuple, b_tree: tuple, facts: Facts, envs: list) -> None:
    """When ``op`` gives a value, it matches the oracle at every ``env`` the facts allow."""
    got = op(facts, build(a_tree), build(b_tree))
    for env in envs if got is not None else ():
        want = oracle(naive(a_tree, env), naive(b_tree, env))
        assert want is not None, f"a value {got} where the op is undefined: {text(a_tree)}, {text(b_tree)} at {env}"
        assert evaluate(got, env) == want, (text(a_tree), text(b_tree), str(got), env)


@given(st.one_of(polynomials, trees), st.one_of(polynomials, trees), facts_and_envs())
@settings(max_examples=300, deadline=None)
def test_symbolic_results_are_never_wrong(a_tree, b_tree, fe):
    facts, envs = fe
    for name, oracle in ORACLES.items():
        _check_symbolic(INT_OPS[name], oracle, a_tree, b_tree, facts, envs)
    for name, unary_oracle in UNARY_ORACLES.items():
        got = UNARY_INT_OPS[name](facts, build(a_tree))
        for env in envs if got is not None else ():
            assert evaluate(got, env) == unary_oracle(naive(a_tree, env)), (name, text(a_tree), str(got), env)


# The decided cases give a value and the undecided ones None: x >= 0, n >= 1, s of unknown sign (a
# truncating division of it is exact piecewise),
# m negative (with a lower bound: `Facts` keeps no bound of a symbol bounded only above).
def _facts() -> Facts:
    f = Facts()
    f.restrict("x", lo=0)
    f.restrict("n", lo=1)
    f.restrict("s")
    f.restrict("m", lo=-100, hi=-1)
    return f


x, n, s, m = sym("x"), sym("n"), sym("s"), sym("m")
DECIDED: list[tuple[str, Dim, Dim]] = [
    ("trunc_div", x, n), ("trunc_div", -x, n), ("trunc_div", x, m), ("floor_div", s, n), ("floor_div", s, m),
    ("ceil_div", s, 2), ("ceil_div", s, m), ("rem", x, n), ("rem", -x, 3), ("rem", x, m), ("mod", s, n),
    ("mod", s, -4), ("mod", s, m), ("lt", m, x), ("ge", n, 1), ("ne", n, 0), ("max", s, x), ("eq", x, x),
    ("trunc_div", s, 2), ("rem", s, 2), ("trunc_div", s, m), ("rem", s, n),  # unknown sign: piecewise
]
UNDECIDED: list[tuple[str, Dim, Dim]] = [
    ("trunc_div", x, s), ("floor_div", x, s), ("floor_div", x, x), ("ceil_div", n, s),
    ("rem", x, x), ("mod", x, s), ("mod", n, x), ("lt", s, x), ("eq", x, n), ("and", x, 1),
]


@pytest.mark.parametrize(("name", "a", "b"), DECIDED, ids=[f"{r[0]}({r[1]}, {r[2]})" for r in DECIDED])
def test_decided_cases_give_a_value(name: str, a: Dim, b: Dim):
    f = _facts()
    got = INT_OPS[name](f, a, b)
    assert got is not None
    envs = ({"x": 0, "n": 1, "s": -5, "m": -1}, {"x": 7, "n": 3, "s": 4, "m": -2}, {"x": 2, "n": 5, "s": 0, "m": -7})
    for env in envs:
        assert evaluate(got, env) == ORACLES[name](evaluate(a, env), evaluate(b, env)), env


@pytest.mark.parametrize(("name", "a", "b"), UNDECIDED, ids=[f"{r[0]}({r[1]}, {r[2]})" for r in UNDECIDED])
def test_undecided_cases_give_none(name: str, a: Dim, b: Dim):
    assert INT_OPS[name](_facts(), a, b) is None


# Each dialect's name for an operation, checked on constants against that dialect's spec.
SPEC: list[tuple[dict[str, IntOp], str, Oracle]] = [
    (ONNX_INT_OPS, "Div", c_div),  # https://onnx.ai/onnx/operators/onnx__Div.html: integer division truncates
    (ONNX_INT_OPS, "Max", max),
    (ONNX_INT_OPS, "LessOrEqual", lambda a, b: int(a <= b)),
    (HLO_INT_OPS, "divide", c_div),  # https://openxla.org/stablehlo/spec#divide: rounds toward zero
    (HLO_INT_OPS, "remainder", c_rem),  # https://openxla.org/stablehlo/spec#remainder: sign of the dividend
    (HLO_INT_OPS, "subtract", lambda a, b: a - b),
    (COMPARISON_DIRECTIONS, "NE", lambda a, b: int(a != b)),
    (COMPARISON_DIRECTIONS, "GT", lambda a, b: int(a > b)),
    (ARITH_INT_OPS, "divsi", c_div),  # https://mlir.llvm.org/docs/Dialects/ArithOps/#arithdivsi-arithdivsiop
    (ARITH_INT_OPS, "floordivsi", lambda a, b: None if b == 0 else a // b),
    (ARITH_INT_OPS, "ceildivsi", lambda a, b: None if b == 0 else -(-a // b)),
    (ARITH_INT_OPS, "remsi", c_rem),
    (ARITH_INT_OPS, "minsi", min),
    (SHAPE_INT_OPS, "div", lambda a, b: None if b == 0 else a // b),  # shape.div rounds toward -inf
]


@given(st.integers(-30, 30), st.integers(-7, 7))
@settings(max_examples=200, deadline=None)
def test_dialect_names_follow_their_spec(a: int, b: int):
    for table, name, oracle in SPEC:
        assert table[name](Facts(), a, b) == oracle(a, b), (name, a, b)


UNSIGNED = ["divui", "ceildivui", "remui", "maxui", "minui"]


@given(st.integers(-30, 30), st.integers(-7, 7))
@settings(max_examples=200, deadline=None)
def test_unsigned_ops_agree_only_on_non_negative_values(a: int, b: int):
    for name in UNSIGNED:
        got = ARITH_INT_OPS[name](Facts(), a, b)
        signed = ARITH_INT_OPS[name.replace("ui", "si")](Facts(), a, b)
        assert got == (signed if a >= 0 and b >= 0 else None), (name, a, b)


@given(st.integers(-30, 30), st.integers(-30, 30))
def test_cmpi_predicates(a: int, b: int):
    unsigned = a >= 0 and b >= 0
    want = [a == b, a != b, a < b, a <= b, a > b, a >= b, a < b, a <= b, a > b, a >= b]
    for k, expected in enumerate(want):
        got = CMPI_PREDICATES[k](Facts(), a, b)
        assert got == (int(expected) if k < 6 or unsigned else None), (k, a, b)


def test_hlo_unary_names():
    f = _facts()
    assert HLO_UNARY_INT_OPS["negate"](f, 3) == -3
    assert HLO_UNARY_INT_OPS["sign"](f, m) == -1
    assert HLO_UNARY_INT_OPS["abs"](f, s) is None
