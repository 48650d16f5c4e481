# pyright: strict
"""The fact-aware rewrite tables (tinygrad's habit): one rule per line, its identity as a comment.

An atom rule gets a `Decider` (the `symshape.engine.facts.Facts` store) and one compound atom whose
operands are already simplified, and returns the rewritten Dim, or None when it does not apply;
each rewrite is an identity under its condition. An expression rule rewrites a whole sum.
``tests/engine/test_fact_rules.py`` checks every row against random integer evaluation under the
facts it needs. The tables import `symshape.algebra.expr` only; the store that drives them imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from symshape.algebra.expr import (
    Atom,
    Dim,
    Expr,
    FloorDiv,
    MaxAtom,
    MinAtom,
    ModAtom,
    Mono,
    add,
    exact_div,
    floordiv,
    from_terms,
    mod,
    mul,
    smax,
    smin,
)


class Decider(Protocol):
    """The decisions a rule may ask for (`symshape.engine.facts.Facts` provides them)."""

    def prove_ge(self, d: Dim, k: int = 0) -> bool: ...

    def prove_le(self, d: Dim, k: int) -> bool: ...

    def prove_nonzero(self, d: Dim) -> bool: ...

    def divides(self, k: int, d: Dim) -> bool: ...


def _ge(f: Decider, a: Dim, b: Dim) -> bool:
    """``a >= b`` is proven."""
    return f.prove_ge(add(a, mul(b, -1)), 0)


def _split_by(num: Dim, den: Dim) -> tuple[Dim, Dim] | None:
    """``num = den*q + r`` with ``den`` a single monomial ``c*m``: ``q`` collects the terms whose
    monomial contains ``m`` and whose coefficient ``c`` divides; None when there are none."""
    if not isinstance(den, Expr) or len(den.terms) != 1 or isinstance(num, int):
        return None
    dm, dc = den.terms[0]
    q: dict[Mono, int] = {}
    r: dict[Mono, int] = {}
    for m, c in num.terms:
        rest = list(m)
        for atom in dm:
            if atom not in rest:
                break
            rest.remove(atom)
        else:
            if c % dc == 0:
                q[tuple(rest)] = c // dc
                continue
        r[m] = c
    return (from_terms(q), from_terms(r)) if q else None


def _leading_negative(d: Dim) -> bool:
    return d < 0 if isinstance(d, int) else d.terms[0][1] < 0


def _floordiv_exact(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and isinstance(a.den, Expr) and f.prove_ge(a.den, 1):
        return exact_div(a.num, a.den)
    return None


def _floordiv_split(f: Decider, a: Atom) -> Dim | None:
    split = _split_by(a.num, a.den) if isinstance(a, FloorDiv) else None
    if split is None or not isinstance(a, FloorDiv) or not f.prove_nonzero(a.den):
        return None
    return add(split[0], floordiv(split[1], a.den))


def _floordiv_flip(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and isinstance(a.den, Expr) and _leading_negative(a.num):
        if f.prove_ge(a.den, 1):
            return add(mul(floordiv(add(mul(a.num, -1), -1), a.den), -1), -1)
    return None


def _floordiv_small(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and f.prove_ge(a.num, 0) and _ge(f, a.den, add(a.num, 1)):
        return 0
    return None


def _floordiv_neg_small(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and f.prove_le(a.num, -1) and _ge(f, add(a.num, a.den), 0):
        return -1
    return None


def _mod_divisible(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and isinstance(a.den, int) and f.divides(a.den, a.num):
        return 0
    return None


def _mod_exact(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and isinstance(a.den, Expr) and f.prove_nonzero(a.den):
        return 0 if exact_div(a.num, a.den) is not None else None
    return None


def _mod_split(f: Decider, a: Atom) -> Dim | None:
    split = _split_by(a.num, a.den) if isinstance(a, ModAtom) else None
    if split is None or not isinstance(a, ModAtom) or not f.prove_nonzero(a.den):
        return None
    return mod(split[1], a.den)


def _mod_small(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and f.prove_ge(a.num, 0) and _ge(f, a.den, add(a.num, 1)):
        return a.num
    return None


def _mod_neg_small(f: Decider, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and f.prove_le(a.num, -1) and _ge(f, add(a.num, a.den), 0):
        return add(a.num, a.den)
    return None


def _minmax_dominated(f: Decider, a: Atom) -> Dim | None:
    if not isinstance(a, (MaxAtom, MinAtom)):
        return None
    is_max = isinstance(a, MaxAtom)
    kept: list[Dim] = []
    for i, x in enumerate(a.args):
        beaten = False
        for j, y in enumerate(a.args):
            # y dominates x (for Max: y >= x); when both dominate (equal) the earlier one stays
            if i != j and (_ge(f, y, x) if is_max else _ge(f, x, y)):
                if not (i < j and (_ge(f, x, y) if is_max else _ge(f, y, x))):
                    beaten = True
                    break
        if not beaten:
            kept.append(x)
    if len(kept) == len(a.args):
        return None
    return smax(*kept) if is_max else smin(*kept)


AtomRule = Callable[[Decider, Atom], Dim | None]
ATOM_RULES: tuple[AtomRule, ...] = (
    _floordiv_exact,  # floor((q*d)/d) -> q                     when d >= 1
    _floordiv_split,  # floor((d*q + r)/d) -> q + floor(r/d)    when d != 0 (d one monomial)
    _floordiv_flip,  # floor(n/d) -> -floor((-n - 1)/d) - 1     when d >= 1, n leads negative
    _floordiv_small,  # floor(n/d) -> 0                          when 0 <= n < d
    _floordiv_neg_small,  # floor(n/d) -> -1                     when -d <= n < 0
    _mod_divisible,  # Mod(n, k) -> 0                           when k | n (divisor facts)
    _mod_exact,  # Mod(q*d, d) -> 0                            when d != 0
    _mod_split,  # Mod(d*q + r, d) -> Mod(r, d)                when d != 0 (d one monomial)
    _mod_small,  # Mod(n, d) -> n                              when 0 <= n < d
    _mod_neg_small,  # Mod(n, d) -> n + d                      when -d <= n < 0
    _minmax_dominated,  # Max(a, b) -> a, Min(a, b) -> b        when a >= b
)


def contract_mod(d: Dim) -> Dim:
    """Rewrite ``m*n - m*k*floor(n/k)`` inside ``d`` as ``m*Mod(n, k)`` when it shortens ``d``
    (``k`` a constant or a single monomial ``c*u``; an identity wherever the floor is defined)."""
    while isinstance(d, Expr):
        shorter = _contract_once(d)
        if shorter is None:
            break
        d = shorter
    return d


def _contract_once(d: Expr) -> Dim | None:
    for mono, coeff in d.terms:
        for atom in mono:
            m = _mod_multiplier(mono, coeff, atom)
            if m is None or not isinstance(atom, FloorDiv):
                continue
            k, n = atom.den, atom.num
            expanded = add(mul(from_terms({(atom,): 1}), k), mul(n, -1))  # k*floor(n/k) - n
            cand = add(add(d, mul(expanded, m)), mul(mod(n, k), m))
            if isinstance(cand, int) or len(cand.terms) < len(d.terms):
                return cand
    return None


def _mod_multiplier(mono: Mono, coeff: int, atom: Atom) -> int | None:
    """``m`` when the term ``coeff*mono`` is ``-m*k*floor(n/k)`` for the floor ``atom``."""
    if not isinstance(atom, FloorDiv):
        return None
    rest = list(mono)
    rest.remove(atom)
    den = atom.den
    if isinstance(den, int):
        unit, scale = (), den
    else:
        if len(den.terms) != 1:
            return None
        unit, scale = den.terms[0]
    if tuple(rest) != unit or coeff % scale:
        return None
    return -coeff // scale


ExprRule = Callable[[Dim], Dim]
EXPR_RULES: tuple[ExprRule, ...] = (
    contract_mod,  # n - k*floor(n/k) -> Mod(n, k)             always (k a monomial)
)


__all__ = ["ATOM_RULES", "EXPR_RULES", "AtomRule", "Decider", "ExprRule", "contract_mod"]
