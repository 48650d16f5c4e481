"""The helpers behind exact window and branch sizes, checked against plain integer evaluation:
`trunc_div` (onnxruntime's pooling division), `least_symbol_value` (a window fit as a range on the
input symbol), `nondecreasing`, and `piecewise` (an If on a size comparison)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, add, evaluate, floordiv, mul, smax, smin, sym
from symshape.algebra.parse import parse_dim
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.context import OpContext, State
from symshape.engine.program import Op, Program
from symshape.rules.shared.fit import least_symbol_value, nondecreasing, trunc_div
from symshape.rules.shared.piecewise import piecewise


def _ctx(lo: int | None = 0) -> OpContext:
    graph = ConstraintGraph()
    for name in ("h", "w"):
        graph.add_symbol(name, "input", Origin("test", "t"), lo=lo)
    return OpContext(State(graph), Program("test", [], [], {}, []), Op("", "MaxPool", "t", [], []))


def _c_trunc(n: int, k: int) -> int:
    """C's integer division, as onnxruntime computes a pooling size."""
    q = abs(n) // k
    return q if n >= 0 else -q


@settings(max_examples=300, deadline=None)
@given(st.integers(-12, 12), st.integers(1, 6), st.integers(-40, 40))
def test_trunc_div_is_c_division_for_every_integer(shift: int, k: int, h: int) -> None:
    ctx = _ctx(lo=None)  # h of any sign: the identity form is used
    n = add(sym("h"), shift)
    d = trunc_div(ctx, n, k)
    assert evaluate(d, {"h": h}) == _c_trunc(h + shift, k)


def test_trunc_div_is_a_plain_floor_when_the_numerator_is_known_non_negative() -> None:
    ctx = _ctx(lo=0)
    assert trunc_div(ctx, add(sym("h"), 3), 2) is floordiv(add(sym("h"), 3), 2)
    assert "Max" in str(trunc_div(ctx, add(sym("h"), -3), 2))


MONOTONE = st.sampled_from(
    [
        lambda h: add(floordiv(add(h, 7), 8), -4),  # three stride-2 layers then a dilated 3x3
        lambda h: add(mul(h, 2), -9),
        lambda h: add(floordiv(add(floordiv(add(h, 1), 2), 1), 2), -3),
        lambda h: smax(add(h, -20), floordiv(h, 3)),
        lambda h: add(smin(h, 50), -30),
    ]
)


@settings(max_examples=200, deadline=None)
@given(MONOTONE, st.integers(-5, 30))
def test_least_symbol_value_is_the_exact_threshold(make: Callable[[Dim], Dim], lo: int) -> None:
    ctx = _ctx()
    d = make(sym("h"))
    assert not isinstance(d, int)
    assert nondecreasing(d)
    values = {v: evaluate(d, {"h": v}) for v in range(0, 400)}
    found = least_symbol_value(ctx, d, lo)
    if found is None:  # no size reaches lo (Min caps it)
        assert all(x < lo for x in values.values())
        return
    name, least = found
    assert name == "h"
    assert all((x >= lo) == (v >= least) for v, x in values.items())


def test_mod_and_negative_coefficients_are_not_monotone() -> None:
    h = sym("h")
    assert not nondecreasing(add(mul(h, -1), 10))
    assert not nondecreasing(h % 8)
    assert not nondecreasing(mul(h, h))


PARTS = st.sampled_from(["h", "w", "5", "2*h", "h + w", "h - 3", "0"])


def _dim(text: str) -> Dim:
    return parse_dim(text)


@settings(max_examples=300, deadline=None)
@given(PARTS, PARTS, st.sampled_from(["h - 6", "w - h", "h - w - 1", "5 - h", "h"]))
def test_piecewise_is_the_branch_the_condition_picks(then: str, other: str, cond: str) -> None:
    ctx = _ctx()
    t, e, p = _dim(then), _dim(other), _dim(cond)
    d = piecewise(ctx, p, t, e)
    for h in range(0, 12):
        for w in range(0, 12):
            env = {"h": h, "w": w}
            want = evaluate(t, env) if evaluate(p, env) >= 0 else evaluate(e, env)
            assert evaluate(d, env) == want, (str(d), env)
