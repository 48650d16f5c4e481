"""Per-symbol facts and the decisions built on them (bounds, ``prove_*``, fact-aware simplify).

This module imports `symshape.expr`, never the reverse. A `Facts` object is passed explicitly to
whoever needs decisions; its ``version`` changes with every new fact, which drops the caches.

A symbol with no recorded facts is an unconstrained integer. The constraint graph declares every
dimension symbol with ``lo = 0`` (empty tensors are legal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from symshape.expr import (
    Atom,
    Dim,
    Expr,
    FloorDiv,
    MaxAtom,
    MinAtom,
    ModAtom,
    Sym,
    add,
    exact_div,
    floordiv,
    map_atoms,
    mod,
    mul,
    smax,
    smin,
)

Bound = int | None  # None is -inf as a lower bound, +inf as an upper bound


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
        self._bounds: dict[Dim, tuple[Bound, Bound]] = {}
        self._simplified: dict[Expr, Dim] = {}

    def copy(self) -> Facts:
        """An independent copy (for trying hypotheses)."""
        out = Facts()
        out._facts = dict(self._facts)
        out.version = self.version
        return out

    def __contains__(self, name: str) -> bool:
        return name in self._facts

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

    # ----------------------------------------------------------------- bounds
    def bounds(self, d: Dim) -> tuple[Bound, Bound]:
        """Interval bounds ``(lo, hi)`` of ``d``; None means unbounded on that side."""
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

    def _mono_bounds(self, mono: tuple[Atom, ...]) -> tuple[Bound, Bound]:
        acc: tuple[Bound, Bound] = (1, 1)
        for atom in mono:
            acc = _interval_mul(acc, self._atom_bounds(atom))
        return acc

    def _atom_bounds(self, atom: Atom) -> tuple[Bound, Bound]:
        if isinstance(atom, Sym):
            f = self.get(atom.name)
            return f.lo, f.hi
        if isinstance(atom, FloorDiv):
            return self._floordiv_bounds(atom.num, atom.den)
        if isinstance(atom, ModAtom):
            dlo, dhi = self.bounds(atom.den)
            if dlo is not None and dlo > 0:
                nlo, nhi = self.bounds(atom.num)
                top = None if dhi is None else dhi - 1
                if nlo is not None and nlo >= 0:
                    return 0, _max_bound(nhi, top, low=False)
                return 0, top
            return None, None
        args = [self.bounds(a) for a in atom.args]  # type: ignore[attr-defined]
        los = [b[0] for b in args]
        his = [b[1] for b in args]
        if isinstance(atom, MaxAtom):
            lo = max((x for x in los if x is not None), default=None)
            hi = None if any(x is None for x in his) else max(his)  # type: ignore[type-var]
            return lo, hi
        assert isinstance(atom, MinAtom)
        lo = None if any(x is None for x in los) else min(los)  # type: ignore[type-var]
        hi = min((x for x in his if x is not None), default=None)
        return lo, hi

    def _floordiv_bounds(self, num: Dim, den: Dim) -> tuple[Bound, Bound]:
        nlo, nhi = self.bounds(num)
        dlo, dhi = self.bounds(den)
        if dlo is None or dlo <= 0:
            return None, None
        if nlo is not None and nlo >= 0:
            lo = 0 if dhi is None else nlo // dhi
            hi = None if nhi is None else nhi // dlo
            return lo, hi
        if isinstance(den, int):
            return (None if nlo is None else nlo // den), (None if nhi is None else nhi // den)
        return None, None

    # -------------------------------------------------------------- decisions
    def prove_ge(self, d: Dim, k: int = 0) -> bool:
        """True when ``d >= k`` is proven (False means *not proven*, not *false*)."""
        lo, _ = self.bounds(d)
        return lo is not None and lo >= k

    def prove_le(self, d: Dim, k: int) -> bool:
        """True when ``d <= k`` is proven."""
        _, hi = self.bounds(d)
        return hi is not None and hi <= k

    def prove_nonzero(self, d: Dim) -> bool:
        """True when ``d != 0`` is proven from bounds."""
        lo, hi = self.bounds(d)
        return (lo is not None and lo > 0) or (hi is not None and hi < 0)

    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """True (proven equal), False (proven different) or None (unknown)."""
        if a is b:
            return True
        diff = self.simplify(add(a, mul(b, -1)))
        if isinstance(diff, int):
            return diff == 0
        if self.prove_nonzero(diff):
            return False
        g, const = self._term_gcd(diff)
        return False if g > 1 and const % g else None

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
        """True when ``k`` provably divides ``d``."""
        if k in (1, -1):
            return True
        return self.divisor_of(d) % k == 0

    # ---------------------------------------------------------------- simplify
    def simplify(self, d: Dim) -> Dim:
        """Apply the fact-aware rules to every compound atom, bottom-up (cached)."""
        if isinstance(d, int):
            return d
        done = self._simplified.get(d)
        if done is None:
            if all(isinstance(a, Sym) for a in d.atoms):
                done = d
            else:
                done = map_atoms(d, self._simplify_atom)
            self._simplified[d] = done
        return done

    def _simplify_atom(self, atom_expr: Dim) -> Dim:
        assert isinstance(atom_expr, Expr)
        atom = atom_expr.terms[0][0][0]
        if isinstance(atom, Sym):
            return atom_expr
        rebuilt = atom.rebuild(self.simplify)
        if isinstance(rebuilt, int) or rebuilt is not atom_expr and not _is_single_atom(rebuilt):
            return rebuilt
        atom = rebuilt.terms[0][0][0]
        for rule in _ATOM_RULES:
            out = rule(self, atom)
            if out is not None:
                return out
        return rebuilt


def _is_single_atom(d: Expr) -> bool:
    return len(d.terms) == 1 and d.terms[0][1] == 1 and len(d.terms[0][0]) == 1


_NONE = SymbolFacts()


def _scale(b: tuple[Bound, Bound], k: int) -> tuple[Bound, Bound]:
    lo, hi = b
    if k >= 0:
        return (None if lo is None else lo * k), (None if hi is None else hi * k)
    return (None if hi is None else hi * k), (None if lo is None else lo * k)


def _interval_mul(a: tuple[Bound, Bound], b: tuple[Bound, Bound]) -> tuple[Bound, Bound]:
    alo, ahi = a
    blo, bhi = b
    if alo is not None and blo is not None and alo >= 0 and blo >= 0:
        hi = None if ahi is None or bhi is None else ahi * bhi
        return alo * blo, hi
    if None in (alo, ahi, blo, bhi):
        return None, None
    products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]  # type: ignore[operator]
    return min(products), max(products)


# Fact-aware atom rules, one per line with its identity. Each returns a Dim or None (no change).
def _floordiv_exact(f: Facts, atom: Atom) -> Dim | None:
    """(a*b)//b -> a when b >= 1."""
    if isinstance(atom, FloorDiv) and not isinstance(atom.den, int) and f.prove_ge(atom.den, 1):
        return exact_div(atom.num, atom.den)
    return None


def _floordiv_small(f: Facts, atom: Atom) -> Dim | None:
    """n//d -> 0 when 0 <= n < d."""
    if isinstance(atom, FloorDiv):
        nlo, nhi = f.bounds(atom.num)
        dlo, _ = f.bounds(atom.den)
        if nlo is not None and nlo >= 0 and nhi is not None and dlo is not None and nhi < dlo:
            return 0
    return None


def _mod_divisible(f: Facts, atom: Atom) -> Dim | None:
    """Mod(n, k) -> 0 when k | n (from divisor facts)."""
    if isinstance(atom, ModAtom) and isinstance(atom.den, int) and f.divides(atom.den, atom.num):
        return 0
    if isinstance(atom, ModAtom) and not isinstance(atom.den, int) and f.prove_ge(atom.den, 1):
        return 0 if exact_div(atom.num, atom.den) is not None else None
    return None


def _mod_small(f: Facts, atom: Atom) -> Dim | None:
    """Mod(n, d) -> n when 0 <= n < d."""
    if isinstance(atom, ModAtom):
        nlo, nhi = f.bounds(atom.num)
        dlo, _ = f.bounds(atom.den)
        if nlo is not None and nlo >= 0 and nhi is not None and dlo is not None and nhi < dlo:
            return atom.num
    return None


def _minmax_dominated(f: Facts, atom: Atom) -> Dim | None:
    """Max(a, b) -> a when a >= b is proven (Min likewise)."""
    if not isinstance(atom, (MaxAtom, MinAtom)):
        return None
    is_max = isinstance(atom, MaxAtom)
    args = list(atom.args)
    kept: list[Dim] = []
    for i, a in enumerate(args):
        beaten = False
        for j, b in enumerate(args):
            if i == j:
                continue
            diff = add(b, mul(a, -1)) if is_max else add(a, mul(b, -1))
            # b dominates a; when each dominates the other (equal), keep the earlier one
            if f.prove_ge(diff, 0) and not (i < j and f.prove_ge(mul(diff, -1), 0)):
                beaten = True
                break
        if not beaten:
            kept.append(a)
    if len(kept) == len(args):
        return None
    return smax(*kept) if is_max else smin(*kept)


_ATOM_RULES = (_floordiv_exact, _floordiv_small, _mod_divisible, _mod_small, _minmax_dominated)

__all__ = ["Bound", "Facts", "SymbolFacts", "floordiv", "mod"]
