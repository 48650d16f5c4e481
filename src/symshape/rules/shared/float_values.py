"""Float shape arithmetic as exact rationals (TorchScript exports: ``Cast(int -> float) -> Div ->
Ceil/Floor -> Mul -> Cast(float -> int)`` on sizes, for interpolation sizes and patch grids).

A float element is tracked as ``num/den`` (``num`` a dim, ``den >= 1`` an int) in the walk's side
table ``float_rationals``. Why it is exact: below ``2**24`` every integer is a float32, a
quotient by a power of two is exact, and any other correctly rounded quotient ``n/k``
(``|n| < 2**24``) lies within half a unit in the last place, less than ``1/k``, of its true
value, so it never reaches the integer that ceil, floor or truncation would pick differently.
So a value that took one inexact division (``rounded``) may only be rounded to an integer next.
Where the claim depends on it, each numerator's magnitude below ``2**24`` (float32; ``2**53``
for float64) is a listed guard: the one place float32 stops representing sizes exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from symshape.algebra.expr import Dim, as_symbol, ceildiv, floordiv, mul
from symshape.algebra.piecewise import trunc_div
from symshape.engine.context import OpContext
from symshape.engine.facts import Facts
from symshape.engine.nonneg import prove_nonneg

TABLE = "float_rationals"
EXACT_BELOW = {"float32": 2**24, "float": 2**24, "float64": 2**53, "double": 2**53}
CAST_TO = {1: "float32", 11: "float64"}  # onnx.TensorProto FLOAT, DOUBLE


@dataclass(frozen=True)
class Rational:
    """``num/den`` held in a float of the given ``limit`` (integers exact below it); ``rounded``
    once an inexact division produced it; ``nums`` are the numerators its exactness rests on."""

    num: Dim
    den: int
    limit: int
    rounded: bool = False
    nums: tuple[Dim, ...] = ()


def _table(ctx: OpContext) -> dict[str, tuple[Rational, ...]]:
    table = ctx.state.tables.get(TABLE)
    if table is None:
        table = ctx.state.tables[TABLE] = dict[str, tuple[Rational, ...]]()
    return cast("dict[str, tuple[Rational, ...]]", table)


def float_limit(ctx: OpContext, inputs: list[int]) -> int | None:
    """The exact-integer limit when the op computes in floats (a float input or output type, or
    an input tracked here), else None."""
    table = _table(ctx)
    for i in inputs:
        known = table.get(ctx.op.inputs[i])
        if known:
            return known[0].limit
    for dtype in (ctx.output_dtype(0), *(ctx.dtype(i) for i in inputs)):
        if dtype in EXACT_BELOW:
            return EXACT_BELOW[dtype]
    return None


def tracked(ctx: OpContext, i: int) -> tuple[Rational, ...] | None:
    """The rationals recorded for input ``i`` (None for a constant or an untracked value)."""
    return _table(ctx).get(ctx.op.inputs[i]) if ctx.has_input(i) else None


def rationals(ctx: OpContext, i: int, limit: int) -> tuple[Rational, ...] | None:
    """The rationals of float input ``i``: tracked ones, integer elements, or a float constant
    whose float value is an exact dyadic fraction (``0.5``, ``2.0``)."""
    if not ctx.has_input(i):
        return None
    known = _table(ctx).get(ctx.op.inputs[i])
    if known is not None:
        return known
    els = ctx.elements(i)
    if els is not None:
        return tuple(Rational(e, 1, limit, nums=(e,)) for e in els)
    floats = ctx.const_floats(i)
    if floats is None:
        return None
    out: list[Rational] = []
    for f in floats:
        q = Fraction(f)
        if q.denominator > 2**20 or abs(q.numerator) >= limit:
            return None
        out.append(Rational(q.numerator, q.denominator, limit))
    return tuple(out)


def _bound(ctx: OpContext, assumed: Facts, n: Dim, top: int) -> None:
    """Guard ``-top <= n <= top`` where neither the facts nor the guards so far prove it."""
    name = as_symbol(n)
    for side in (1, -1):
        if assumed.prove_le(mul(n, side), top) or prove_nonneg(ctx, ctx.canon(top - mul(n, side))):
            continue
        rel, rhs = ("<=", top) if side == 1 else (">=", -top)
        ctx.guard(n, rel, rhs, "float shape arithmetic", f"'{n}' is an exact float (at most {top} in magnitude)")
        if name is not None:
            assumed.restrict(name, hi=top) if side == 1 else assumed.restrict(name, lo=-top)


def broadcast(op: str, a: tuple[Rational, ...], b: tuple[Rational, ...]) -> tuple[Rational, ...] | None:
    """``combine`` over two vectors of equal length, or a scalar and a vector."""
    if len(a) != len(b) and 1 not in (len(a), len(b)):
        return None
    n = 0 if 0 in (len(a), len(b)) else max(len(a), len(b))  # an empty side broadcasts to empty
    out: list[Rational] = []
    for k in range(n):
        r = combine(op, a[k if len(a) > 1 else 0], b[k if len(b) > 1 else 0])
        if r is None:
            return None
        out.append(r)
    return tuple(out)


def record_cast(ctx: OpContext) -> None:
    """A Cast of tracked integers to float32 or float64: integers held as floats."""
    els = ctx.elements(0)
    to = ctx.attr("to")
    if els is not None and to in CAST_TO:
        limit = EXACT_BELOW[CAST_TO[to]]
        record(ctx, tuple(Rational(e, 1, limit, nums=(e,)) for e in els))


def record(ctx: OpContext, values: tuple[Rational, ...] | None) -> None:
    """Remember the rationals of output 0."""
    if values is not None and ctx.op.outputs and ctx.op.outputs[0]:
        _table(ctx)[ctx.op.outputs[0]] = values


def combine(op: str, a: Rational, b: Rational) -> Rational | None:
    """``a op b`` for Add, Sub, Mul, Div (None when it may not be exact or a divisor may be 0)."""
    if a.rounded or b.rounded:
        return None
    nums = a.nums + b.nums
    if op in ("Add", "Sub"):
        sign = 1 if op == "Add" else -1
        num = mul(a.num, b.den) + mul(mul(b.num, a.den), sign)
        return Rational(num, a.den * b.den, a.limit, False, (*nums, num))
    if op == "Mul":
        num = mul(a.num, b.num)
        return Rational(num, a.den * b.den, a.limit, False, (*nums, num))
    if op == "Div" and isinstance(b.num, int) and b.num != 0:
        num = mul(mul(a.num, b.den), 1 if b.num > 0 else -1)
        den = a.den * abs(b.num)
        dyadic = den & (den - 1) == 0
        return Rational(num, den, a.limit, not dyadic, (*nums, num))
    return None


def to_int(ctx: OpContext, q: Rational, how: str) -> Dim:
    """``q`` rounded by ``how`` (``floor``, ``ceil``, ``trunc``), with the guards its float
    exactness needs: every numerator it rests on at most the float's exact-integer limit in
    magnitude, stated on the symbol first (``seq <= 16777216``), and on a compound numerator
    only when that does not already follow."""
    assumed = ctx.facts.copy()
    for g in ctx.graph.guards:  # the float limits already guarded on symbols hold here too
        name = as_symbol(g.lhs)
        if name is not None and isinstance(g.rhs, int) and g.rel in ("<=", ">="):
            assumed.restrict(name, hi=g.rhs) if g.rel == "<=" else assumed.restrict(name, lo=g.rhs)
    for n in sorted({str(n): n for n in q.nums if not isinstance(n, int)}.values(), key=lambda n: len(str(n))):
        _bound(ctx, assumed, n, q.limit)
    if q.den == 1:
        return q.num
    if how == "floor":
        return floordiv(q.num, q.den)
    if how == "ceil":
        return ceildiv(q.num, q.den)
    return trunc_div(q.num, q.den)


__all__ = [
    "CAST_TO",
    "EXACT_BELOW",
    "Rational",
    "broadcast",
    "combine",
    "float_limit",
    "rationals",
    "record",
    "record_cast",
    "to_int",
    "tracked",
]
