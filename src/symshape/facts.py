# pyright: strict
"""Per-symbol facts and the decisions built on them (bounds, ``prove_*``, fact-aware simplify).

This module imports `symshape.expr`, never the reverse. A `Facts` object is passed explicitly to
whoever needs decisions; its ``version`` changes with every new fact, which drops the caches.

A symbol with no recorded facts is an unconstrained integer. The constraint graph declares every
dimension symbol with ``lo = 0`` (empty tensors are legal).

The fact-aware rewrites are tables (tinygrad's habit): `ATOM_RULES` rewrite one compound atom
whose operands are already simplified, `EXPR_RULES` rewrite a whole sum. Each rule is one line
with its identity as a comment; ``tests/test_rule_tables.py`` checks every row against random
integer evaluation under the facts it needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from symshape.expr import (
    Atom,
    Dim,
    Expr,
    FloorDiv,
    MaxAtom,
    MinAtom,
    ModAtom,
    Mono,
    NaryAtom,
    Sym,
    add,
    exact_div,
    expand_mod,
    floordiv,
    from_terms,
    map_atoms,
    mod,
    mul,
    single_atom,
    smax,
    smin,
)

Bound = int | None  # None is -inf as a lower bound, +inf as an upper bound
Interval = tuple[Bound, Bound]


@dataclass(frozen=True)
class SymbolFacts:
    """What is known about one symbol: ``lo <= s <= hi``, ``divisor | s``, likely values."""

    lo: Bound = None
    hi: Bound = None
    divisor: int = 1
    likely: tuple[int, ...] = field(default=())

    def merged(self, other: SymbolFacts) -> SymbolFacts:
        """The facts of a symbol known to equal another: the intersection of both."""
        return SymbolFacts(
            lo=_max_bound(self.lo, other.lo, low=True),
            hi=_max_bound(self.hi, other.hi, low=False),
            divisor=math.lcm(self.divisor, other.divisor),
            likely=tuple(sorted(set(self.likely) | set(other.likely))),
        )

    def admits(self, value: int) -> bool:
        """Whether ``value`` satisfies the range and divisor."""
        return (
            (self.lo is None or value >= self.lo)
            and (self.hi is None or value <= self.hi)
            and value % self.divisor == 0
        )


def _max_bound(a: Bound, b: Bound, *, low: bool) -> Bound:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b) if low else min(a, b)


class Facts:
    """A store of `SymbolFacts` by symbol name, with cached interval bounds and decisions."""

    def __init__(self) -> None:
        self._facts: dict[str, SymbolFacts] = {}
        self.version = 0
        self._bounds: dict[Dim, Interval] = {}
        self._simplified: dict[Expr, Dim] = {}
        self._floor_forms: dict[Expr, Dim] = {}

    def copy(self) -> Facts:
        """An independent copy (for trying hypotheses)."""
        out = Facts()
        out._facts = dict(self._facts)
        out.version = self.version
        return out

    def __contains__(self, name: str) -> bool:
        return name in self._facts

    def names(self) -> list[str]:
        """The symbols with recorded facts, sorted."""
        return sorted(self._facts)

    def get(self, name: str) -> SymbolFacts:
        """The facts of ``name`` (unconstrained if none were recorded)."""
        return self._facts.get(name, _NONE)

    def set(self, name: str, facts: SymbolFacts) -> None:
        """Replace the facts of ``name`` and drop the caches."""
        if self._facts.get(name) != facts:
            self._facts[name] = facts
            self._changed()

    def restrict(
        self,
        name: str,
        *,
        lo: Bound = None,
        hi: Bound = None,
        divisor: int = 1,
        likely: tuple[int, ...] = (),
    ) -> SymbolFacts:
        """Intersect the facts of ``name`` with new ones; returns the result."""
        new = self.get(name).merged(SymbolFacts(lo, hi, divisor, likely))
        if new.divisor > 1:  # tighten the range to multiples of the divisor
            d = new.divisor
            lo2 = None if new.lo is None else -((-new.lo) // d) * d
            hi2 = None if new.hi is None else (new.hi // d) * d
            new = replace(new, lo=lo2, hi=hi2)
        self.set(name, new)
        return new

    def _changed(self) -> None:
        self.version += 1
        self._bounds.clear()
        self._simplified.clear()
        self._floor_forms.clear()

    # ----------------------------------------------------------------- bounds
    def bounds(self, d: Dim) -> Interval:
        """Interval bounds ``(lo, hi)`` of ``d`` as written; None means unbounded on that side."""
        if isinstance(d, int):
            return d, d
        cached = self._bounds.get(d)
        if cached is None:
            lo: Bound = 0
            hi: Bound = 0
            for mono, coeff in d.terms:
                mlo, mhi = _scale(self._mono_bounds(mono), coeff)
                lo = None if lo is None or mlo is None else lo + mlo
                hi = None if hi is None or mhi is None else hi + mhi
            cached = self._bounds[d] = (lo, hi)
        return cached

    def tight_bounds(self, d: Dim) -> Interval:
        """The bounds of ``d`` intersected with those of its form with ``n - k*floor(n/k)``
        contracted to ``Mod(n, k)`` (both sound; the second is tight where the first is not).

        Deliberately not the full `simplify`: the rules ask for bounds of new differences all the
        time, and simplifying each of those would multiply the cost of every rule check."""
        lo, hi = self.bounds(d)
        if isinstance(d, int) or not any(isinstance(a, FloorDiv) for a in d.atoms):
            return lo, hi
        s = _contract_mod(d)
        if s is d:
            return lo, hi
        slo, shi = self.bounds(s)
        return _max_bound(lo, slo, low=True), _max_bound(hi, shi, low=False)

    def _mono_bounds(self, mono: Mono) -> Interval:
        acc: Interval = (1, 1)
        for atom in mono:
            acc = _interval_mul(acc, self._atom_bounds(atom))
        return acc

    def _atom_bounds(self, atom: Atom) -> Interval:
        if isinstance(atom, Sym):
            f = self.get(atom.name)
            return f.lo, f.hi
        if isinstance(atom, FloorDiv):
            return self._floordiv_bounds(atom.num, atom.den)
        if isinstance(atom, ModAtom):
            return self._mod_bounds(atom.num, atom.den)
        if not isinstance(atom, NaryAtom):
            return None, None
        args = [self.bounds(a) for a in atom.args]
        los = [b[0] for b in args]
        his = [b[1] for b in args]
        if isinstance(atom, MaxAtom):
            return max(_finite(los), default=None), None if None in his else max(_finite(his))
        return None if None in los else min(_finite(los)), min(_finite(his), default=None)

    def _floordiv_bounds(self, num: Dim, den: Dim) -> Interval:
        nlo, nhi = self.bounds(num)
        dlo, dhi = self.bounds(den)
        if dlo is None or dlo <= 0:
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

    def _mod_bounds(self, num: Dim, den: Dim) -> Interval:
        dlo, dhi = self.bounds(den)
        if dlo is not None and dlo > 0:  # Mod(n, d) in [0, d - 1], and <= n when n >= 0
            nlo, nhi = self.bounds(num)
            top = None if dhi is None else dhi - 1
            return 0, _max_bound(nhi, top, low=False) if nlo is not None and nlo >= 0 else top
        if dhi is not None and dhi < 0:  # Mod(n, d) in [d + 1, 0]
            return (None if dlo is None else dlo + 1), 0
        return None, None

    # -------------------------------------------------------------- decisions
    def prove_ge(self, d: Dim, k: int = 0) -> bool:
        """True when ``d >= k`` is proven (False means *not proven*, not *false*)."""
        lo, _ = self.tight_bounds(d)
        return lo is not None and lo >= k

    def prove_le(self, d: Dim, k: int) -> bool:
        """True when ``d <= k`` is proven."""
        _, hi = self.tight_bounds(d)
        return hi is not None and hi <= k

    def prove_nonzero(self, d: Dim) -> bool:
        """True when ``d != 0`` is proven from bounds or divisibility."""
        lo, hi = self.tight_bounds(d)
        if (lo is not None and lo > 0) or (hi is not None and hi < 0):
            return True
        return isinstance(d, Expr) and self._misses_zero_mod(d)

    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """True (proven equal), False (proven different) or None (unknown).

        Decides on the simplified difference, then on its `floor_form`, where ``Mod(n, k)`` and
        ``n - k*floor(n/k)`` meet.
        """
        if a is b:
            return True
        diff = add(a, mul(b, -1))
        answer = self._decide_zero(self.simplify(diff))
        if answer is None and isinstance(diff, Expr):
            answer = self._decide_zero(self.floor_form(diff))
        return answer

    def _decide_zero(self, d: Dim) -> bool | None:
        if isinstance(d, int):
            return d == 0
        return False if self.prove_nonzero(d) else None

    def _misses_zero_mod(self, d: Expr) -> bool:
        """``g*X + c`` with ``c`` not a multiple of ``g`` is never 0."""
        g, const = self._term_gcd(d)
        return g > 1 and const % g != 0

    def _term_gcd(self, d: Expr) -> tuple[int, int]:
        """``(g, c)``: ``g`` divides every non-constant term (via divisor facts), ``c`` is the
        constant term."""
        g = 0
        const = 0
        for mono, coeff in d.terms:
            if not mono:
                const = coeff
                continue
            t = abs(coeff)
            for atom in mono:
                if isinstance(atom, Sym):
                    t *= self.get(atom.name).divisor
            g = math.gcd(g, t)
        return g, const

    def divisor_of(self, d: Dim) -> int:
        """The largest ``k`` this store can show divides ``d`` (0 for the constant 0)."""
        if isinstance(d, int):
            return abs(d)
        g, const = self._term_gcd(d)
        return math.gcd(g, abs(const))

    def divides(self, k: int, d: Dim) -> bool:
        """True when ``k`` provably divides ``d`` (0 divides only 0)."""
        if k == 0:
            return d == 0
        return self.divisor_of(d) % k == 0

    # ---------------------------------------------------------------- simplify
    def simplify(self, d: Dim) -> Dim:
        """Apply the fact-aware rules to every compound atom, bottom-up, then to the sum (cached)."""
        if isinstance(d, int):
            return d
        done = self._simplified.get(d)
        if done is None:
            if all(isinstance(a, Sym) for a in d.atoms):
                done = d
            else:
                done = map_atoms(d, self._simplify_atom)
                for rule in EXPR_RULES:
                    out = rule(done)
                    if out is not done:  # new atoms (Mod(c, 2) may vanish under 2 | c)
                        done = map_atoms(out, self._simplify_atom)
                if isinstance(done, Expr):
                    self._simplified.setdefault(done, done)
            self._simplified[d] = done
        return done

    def floor_form(self, d: Dim) -> Dim:
        """``d`` with every ``Mod`` written as floors (`symshape.expr.expand_mod`), at every depth,
        and the atom rules applied but no contraction back to ``Mod``: the form in which
        `prove_eq` decides what `simplify`'s mixed Mod/floor forms leave open (cached)."""
        if isinstance(d, int):
            return d
        done = self._floor_forms.get(d)
        if done is None:
            expanded = expand_mod(d)
            if all(isinstance(a, Sym) for a in d.atoms):
                done = expanded
            else:
                done = map_atoms(expanded, self._floor_atom)
            self._floor_forms[d] = done
        return done

    def _simplify_atom(self, atom_expr: Dim) -> Dim:
        return self._atom_step(atom_expr, self.simplify)

    def _floor_atom(self, atom_expr: Dim) -> Dim:
        return self._atom_step(atom_expr, self.floor_form)

    def _atom_step(self, atom_expr: Dim, again: Callable[[Dim], Dim]) -> Dim:
        """Simplify one atom's operands with ``again``, then apply the first matching atom rule."""
        atom = single_atom(atom_expr)
        if atom is None or isinstance(atom, Sym):
            return atom_expr
        rebuilt = atom.rebuild(again)
        atom = single_atom(rebuilt)
        if atom is None or isinstance(atom, Sym):
            return rebuilt if rebuilt is atom_expr else again(rebuilt)
        for rule in ATOM_RULES:
            out = rule(self, atom)
            if out is not None:
                return again(out)
        return rebuilt


_NONE = SymbolFacts()


def _finite(values: list[Bound]) -> list[int]:
    return [v for v in values if v is not None]


def _scale(b: Interval, k: int) -> Interval:
    lo, hi = b
    if k >= 0:
        return (None if lo is None else lo * k), (None if hi is None else hi * k)
    return (None if hi is None else hi * k), (None if lo is None else lo * k)


def _interval_mul(a: Interval, b: Interval) -> Interval:
    alo, ahi = a
    blo, bhi = b
    if alo is not None and blo is not None and alo >= 0 and blo >= 0:
        hi = None if ahi is None or bhi is None else ahi * bhi
        return alo * blo, hi
    if alo is None or ahi is None or blo is None or bhi is None:
        return None, None
    products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
    return min(products), max(products)


# ------------------------------------------------------------------ rule tables
# An atom rule gets the facts and one compound atom (operands simplified) and returns the
# rewritten Dim, or None when it does not apply. Each rewrite is an identity under its condition.


def _ge(f: Facts, a: Dim, b: Dim) -> bool:
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


def _floordiv_exact(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and isinstance(a.den, Expr) and f.prove_ge(a.den, 1):
        return exact_div(a.num, a.den)
    return None


def _floordiv_split(f: Facts, a: Atom) -> Dim | None:
    split = _split_by(a.num, a.den) if isinstance(a, FloorDiv) else None
    if split is None or not isinstance(a, FloorDiv) or not f.prove_nonzero(a.den):
        return None
    return add(split[0], floordiv(split[1], a.den))


def _floordiv_flip(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and isinstance(a.den, Expr) and _leading_negative(a.num):
        if f.prove_ge(a.den, 1):
            return add(mul(floordiv(add(mul(a.num, -1), -1), a.den), -1), -1)
    return None


def _floordiv_small(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and f.prove_ge(a.num, 0) and _ge(f, a.den, add(a.num, 1)):
        return 0
    return None


def _floordiv_neg_small(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, FloorDiv) and f.prove_le(a.num, -1) and _ge(f, add(a.num, a.den), 0):
        return -1
    return None


def _mod_divisible(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and isinstance(a.den, int) and f.divides(a.den, a.num):
        return 0
    return None


def _mod_exact(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and isinstance(a.den, Expr) and f.prove_nonzero(a.den):
        return 0 if exact_div(a.num, a.den) is not None else None
    return None


def _mod_split(f: Facts, a: Atom) -> Dim | None:
    split = _split_by(a.num, a.den) if isinstance(a, ModAtom) else None
    if split is None or not isinstance(a, ModAtom) or not f.prove_nonzero(a.den):
        return None
    return mod(split[1], a.den)


def _mod_small(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and f.prove_ge(a.num, 0) and _ge(f, a.den, add(a.num, 1)):
        return a.num
    return None


def _mod_neg_small(f: Facts, a: Atom) -> Dim | None:
    if isinstance(a, ModAtom) and f.prove_le(a.num, -1) and _ge(f, add(a.num, a.den), 0):
        return add(a.num, a.den)
    return None


def _minmax_dominated(f: Facts, a: Atom) -> Dim | None:
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


AtomRule = Callable[[Facts, Atom], Dim | None]
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


def _contract_mod(d: Dim) -> Dim:
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
    _contract_mod,  # n - k*floor(n/k) -> Mod(n, k)             always (k a monomial)
)

# Kept for callers of the first version of this module.
_ATOM_RULES = ATOM_RULES

__all__ = ["ATOM_RULES", "EXPR_RULES", "Bound", "Facts", "Interval", "SymbolFacts", "floordiv", "mod"]
