# pyright: strict
"""Interval arithmetic on integer bounds, the first layer of every decision.

A `Bound` of None is unbounded on its side (-inf as a lower bound, +inf as an upper bound). The
functions here know nothing of symbols or expressions: `symshape.engine.facts.Facts` looks up the
intervals of a term's parts and combines them with these, so each rule of the arithmetic is
stated (and checked) once.
"""

from __future__ import annotations

import math

Bound = int | None  # None is -inf as a lower bound, +inf as an upper bound
Interval = tuple[Bound, Bound]


def tighter(a: Bound, b: Bound, *, low: bool) -> Bound:
    """The tighter of two lower bounds (``low=True``: the larger) or upper bounds (the smaller)."""
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b) if low else min(a, b)


def add_intervals(a: Interval, b: Interval) -> Interval:
    """``[alo + blo, ahi + bhi]``."""
    lo = None if a[0] is None or b[0] is None else a[0] + b[0]
    hi = None if a[1] is None or b[1] is None else a[1] + b[1]
    return lo, hi


def scale(b: Interval, k: int) -> Interval:
    """``k * [lo, hi]`` (the ends swap for a negative ``k``)."""
    lo, hi = b
    if k >= 0:
        return (None if lo is None else lo * k), (None if hi is None else hi * k)
    return (None if hi is None else hi * k), (None if lo is None else lo * k)


def multiply(a: Interval, b: Interval) -> Interval:
    """The interval of ``x*y`` for ``x`` in ``a`` and ``y`` in ``b``."""
    alo, ahi = a
    blo, bhi = b
    if alo is not None and blo is not None and alo >= 0 and blo >= 0:
        hi = None if ahi is None or bhi is None else ahi * bhi
        return alo * blo, hi
    if alo is not None and ahi is not None and blo is not None and bhi is not None:
        products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return min(products), max(products)
    # half-open ends: the extreme products of the ends, with 0 * inf = 0 (the ends are attained
    # or approached by integers, so the product's range is spanned by them)
    ends = [_times(x, y) for x in ((alo, -1), (ahi, 1)) for y in ((blo, -1), (bhi, 1))]
    lo = min(ends)
    hi = max(ends)
    return (None if math.isinf(lo) else int(lo)), (None if math.isinf(hi) else int(hi))


def _times(x: tuple[Bound, int], y: tuple[Bound, int]) -> float:
    """The product of two interval ends; an unbounded end is infinite toward its side."""
    xv: float = x[1] * math.inf if x[0] is None else x[0]
    yv: float = y[1] * math.inf if y[0] is None else y[0]
    if xv == 0 or yv == 0:
        return 0
    return xv * yv


def maximum(args: list[Interval]) -> Interval:
    """The interval of ``Max`` of values in ``args``."""
    los = [b[0] for b in args]
    his = [b[1] for b in args]
    return max(_finite(los), default=None), None if None in his else max(_finite(his))


def minimum(args: list[Interval]) -> Interval:
    """The interval of ``Min`` of values in ``args``."""
    los = [b[0] for b in args]
    his = [b[1] for b in args]
    return None if None in los else min(_finite(los)), min(_finite(his), default=None)


def floor_divide(num: Interval, den: Interval) -> Interval:
    """The interval of ``floor(n/d)``; unbounded unless ``d >= 1``."""
    nlo, nhi = num
    dlo, dhi = den
    if dlo is None or dlo <= 0 or (dhi is not None and dhi < dlo):  # an empty range: no claim
        return None, None
    # For den in [dlo, dhi] (dlo >= 1), floor(n/den) is monotone in n and lies between
    # floor(n/dlo) and floor(n/dhi) (which of the two is smaller depends on the sign of n).
    if nlo is None:
        lo = None
    elif nlo >= 0:
        lo = 0 if dhi is None else nlo // dhi
    else:
        lo = nlo // dlo
    if nhi is None:
        hi = None
    elif nhi >= 0:
        hi = nhi // dlo
    else:
        hi = -1 if dhi is None else nhi // dhi
    return lo, hi


def modulo(num: Interval, den: Interval) -> Interval:
    """The interval of ``Mod(n, d)`` (floor semantics: the sign of ``d``)."""
    dlo, dhi = den
    if dlo is not None and dlo > 0:  # Mod(n, d) in [0, d - 1], and <= n when n >= 0
        nlo, nhi = num
        top = None if dhi is None else dhi - 1
        return 0, tighter(nhi, top, low=False) if nlo is not None and nlo >= 0 else top
    if dhi is not None and dhi < 0:  # Mod(n, d) in [d + 1, 0]
        return (None if dlo is None else dlo + 1), 0
    return None, None


def _finite(values: list[Bound]) -> list[int]:
    return [v for v in values if v is not None]


__all__ = [
    "Bound",
    "Interval",
    "add_intervals",
    "floor_divide",
    "maximum",
    "minimum",
    "modulo",
    "multiply",
    "scale",
    "tighter",
]
