# pyright: strict
"""Monomials and term maps over any ordered atoms: ordering, products, division by a constant,
printing.

A polynomial's bookkeeping does not depend on what its atoms mean, only on each atom's
``order`` (a deterministic sort key), its text, and atoms being interned (a repeated atom in a
monomial is a power). So it sits below the algebra, generic over the atom type: a **monomial** is
a tuple of atoms sorted by ``order``, a **term map** is ``{monomial: coefficient}``, and the
empty monomial holds the constant.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

MonoKey = tuple[int, tuple[tuple[int, str], ...]]


class Ordered(Protocol):
    """What a monomial needs of an atom: a deterministic sort key, and the key of the monomial
    made of the atom alone (`solo_key`, kept on the atom: a cache keyed by monomials would keep
    their atoms alive)."""

    __slots__ = ()

    @property
    def order(self) -> tuple[int, str]:
        """Kind first, then the printed text."""
        ...

    @property
    def solo_key(self) -> MonoKey:
        """``mono_key((atom,))``, computed once by `solo_key`."""
        ...


A = TypeVar("A", bound=Ordered)


def solo_key(order: tuple[int, str]) -> MonoKey:
    """The sort key of a monomial of one atom with this ``order`` (see `mono_key`)."""
    return (-1, (order,))


def mono_key(mono: tuple[Ordered, ...]) -> MonoKey:
    """The sort key of a monomial among a polynomial's terms: higher degree first, then atom
    order (the constant, degree 0, sorts last)."""
    return term_key((mono, 1))


def term_key(term: tuple[tuple[Ordered, ...], int]) -> MonoKey:
    """The sort key of a ``(monomial, coefficient)`` term: its monomial's `mono_key`."""
    mono = term[0]
    if len(mono) == 1:
        return mono[0].solo_key
    return (-len(mono), tuple([a.order for a in mono]))


def mono_mul(m1: tuple[A, ...], m2: tuple[A, ...]) -> tuple[A, ...]:
    """The product of two monomials (their atoms merged in order)."""
    if not m1:
        return m2
    if not m2:
        return m1
    return tuple(sorted(m1 + m2, key=lambda a: a.order))


def coeff_gcd(terms: Iterable[tuple[object, int]]) -> int:
    """The gcd of the coefficients (0 for no terms)."""
    g = 0
    for _, c in terms:
        g = math.gcd(g, c)
    return g


def split_multiple(terms: Mapping[tuple[A, ...], int], k: int) -> tuple[dict[tuple[A, ...], int], ...]:
    """``d = k*q + r`` term-wise (k > 0): ``q`` gets each coefficient divisible by ``k``, ``r``
    the rest; the constant remainder lies in ``[0, k)``. Returns the term maps ``(q, r)``."""
    q: dict[tuple[A, ...], int] = {}
    r: dict[tuple[A, ...], int] = {}
    for m, c in terms.items():
        if not m:
            q[m], r[m] = divmod(c, k)
        elif c % k == 0:
            q[m] = c // k
        else:
            r[m] = c
    return q, r


def format_terms(terms: Iterable[tuple[Sequence[object], int]]) -> str:
    """Sympy-compatible text of sorted terms (``2*a*b**2 - floor(c/2) + 3``): the ``dim_param``
    convention of onnxruntime's symbolic shape inference, and the sort key of expressions."""
    parts: list[str] = []
    for i, (mono, coeff) in enumerate(terms):
        mag = abs(coeff)
        if mono:
            body = _format_mono(mono)
            text = body if mag == 1 else f"{mag}*{body}"
        else:
            text = str(mag)
        if i == 0:
            parts.append(f"-{text}" if coeff < 0 else text)
        else:
            parts.append(f" {'-' if coeff < 0 else '+'} {text}")
    return "".join(parts)


def _format_mono(mono: Sequence[object]) -> str:
    """``a*b**2`` for ``(a, b, b)``: a run of the same (interned) atom is a power."""
    pieces: list[str] = []
    i = 0
    while i < len(mono):
        j = i
        while j < len(mono) and mono[j] is mono[i]:
            j += 1
        text = str(mono[i])
        pieces.append(text if j - i == 1 else f"{text}**{j - i}")
        i = j
    return "*".join(pieces)
