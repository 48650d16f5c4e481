# pyright: strict
"""Piecewise integer functions written exactly with ``Max``/``Min``/floor: clamps, sign tests,
C-style (truncating) division and remainder, and moving sums into ``Max``/``Min``.

Every function here is an identity for *all* integers (no facts): a choice a program makes
validly either way (a clamp, a negative index counted from the end, rounding toward zero) is an
exact expression, and `symshape.engine.facts.Facts.simplify` later drops the branches the symbols'
ranges rule out. ``tests/algebra/test_piecewise.py`` checks each against plain integers.
"""

from __future__ import annotations

from symshape.algebra.atoms import MaxAtom, MinAtom, smax, smin
from symshape.algebra.core import Dim, Expr, FloorDiv, add, atom_expr, floordiv, mod, mul, single_atom


def is_negative(v: Dim) -> Dim:
    """``1`` when ``v < 0`` else ``0``: ``Min(Max(-v, 0), 1)`` for integers."""
    if isinstance(v, int):
        return int(v < 0)
    return smin(smax(mul(v, -1), 0), 1)


def is_positive(v: Dim) -> Dim:
    """``1`` when ``v > 0`` else ``0``: ``Min(Max(v, 0), 1)``."""
    if isinstance(v, int):
        return int(v > 0)
    return smin(smax(v, 0), 1)


def from_end(v: Dim, n: Dim, *, nonpositive: bool = False) -> Dim:
    """An index counted from the end when negative (``v + n`` if ``v < 0`` else ``v``).

    With ``nonpositive`` (the caller proved ``v <= 0``) it is written ``(n + v)*Min(-v, 1)``,
    an identity for every ``v <= 0`` in which ``v = -n`` visibly gives 0."""
    if nonpositive and not isinstance(v, int):
        return mul(add(n, v), smin(mul(v, -1), 1))
    return add(v, mul(n, is_negative(v)))


def clamp(v: Dim, lo: Dim, hi: Dim) -> Dim:
    """``Min(Max(v, lo), hi)``: ``v`` clamped to ``[lo, hi]`` (``hi`` when ``lo > hi``)."""
    return smin(smax(v, lo), hi)


def trunc_div(a: Dim, b: Dim) -> Dim:
    """``a / b`` rounded toward zero, for ``b > 0`` symbolic or any non-zero constant ``b``:
    ``floor(Max(a, 0)/b) - floor(Max(-a, 0)/b)`` (a negative constant divisor flips the sign)."""
    if isinstance(b, int) and b < 0:
        return mul(trunc_div(a, -b), -1)
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // b
        return q if a >= 0 else -q
    return add(floordiv(smax(a, 0), b), mul(floordiv(smax(mul(a, -1), 0), b), -1))


def trunc_rem(a: Dim, b: Dim) -> Dim:
    """C's ``a % b`` (the sign of the dividend), for ``b > 0`` symbolic or any non-zero constant:
    ``Mod(Max(a, 0), |b|) - Mod(Max(-a, 0), |b|)``."""
    if isinstance(b, int) and b < 0:
        b = -b
    if isinstance(a, int) and isinstance(b, int):
        r = abs(a) % b
        return r if a >= 0 else -r
    return add(mod(smax(a, 0), b), mul(mod(smax(mul(a, -1), 0), b), -1))


def distribute(d: Dim) -> Dim:
    """``d`` with its sum moved into one ``Max``/``Min`` it holds linearly:
    ``c*Max(x, y) + r -> Max(c*x + r, c*y + r)`` (``Min`` for ``c < 0``), so that
    ``n - Max(n - 3, 0)`` reads ``Min(3, n)``; ``d`` itself when no such atom exists."""
    if not isinstance(d, Expr):
        return d
    for mono, coeff in d.terms:
        atom = mono[0] if len(mono) == 1 else None
        if isinstance(atom, (MaxAtom, MinAtom)):
            rest = add(d, mul(atom_expr(atom), -coeff))
            args = [add(mul(a, coeff), rest) for a in atom.args]
            is_max = isinstance(atom, MaxAtom) == (coeff > 0)
            return smax(*args) if is_max else smin(*args)
    return d


def spread(d: Dim, depth: int = 4) -> Dim:
    """``d`` with sums and floors by a positive constant moved into its ``Max``/``Min`` atoms, at
    every level up to ``depth``: ``Max(0, Max(0, n - 1) - Min(1, n)) -> Max(0, -1, -n, n - 2)``
    (then facts prune it to ``Max(0, n - 2)``), ``floor(Max(x, y)/k) -> Max(floor(x/k), floor(y/k))``
    (floor is monotone)."""
    if isinstance(d, int) or depth == 0:
        return d
    atom = single_atom(d)
    if isinstance(atom, FloorDiv) and isinstance(atom.den, int) and atom.den > 0:
        inner = minmax_args(spread(atom.num, depth - 1))
        if inner is not None:
            k = atom.den
            floors = [spread(floordiv(a, k), depth - 1) for a in inner[1]]
            return smax(*floors) if inner[0] else smin(*floors)
        return d
    parts = minmax_args(distribute(d))
    if parts is None:
        return d
    is_max, args = parts
    out = [spread(a, depth - 1) for a in args]
    return smax(*out) if is_max else smin(*out)


def minmax_args(d: Dim) -> tuple[bool, tuple[Dim, ...]] | None:
    """``(is_max, args)`` when ``d`` is exactly one ``Max``/``Min`` atom, else None."""
    atom = single_atom(d)
    if isinstance(atom, (MaxAtom, MinAtom)):
        return isinstance(atom, MaxAtom), atom.args
    return None


__all__ = [
    "clamp",
    "distribute",
    "from_end",
    "is_negative",
    "is_positive",
    "minmax_args",
    "spread",
    "trunc_div",
    "trunc_rem",
]
