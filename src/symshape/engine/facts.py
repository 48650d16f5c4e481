# pyright: strict
"""Per-symbol facts and the decisions built on them (bounds, ``prove_*``, fact-aware simplify).

This module imports `symshape.algebra.expr`, never the reverse. A `Facts` object is passed explicitly to
whoever needs decisions; its ``version`` changes with every new fact, which drops the caches.

A symbol with no recorded facts is an unconstrained integer. The constraint graph declares every
dimension symbol with ``lo = 0`` (empty tensors are legal).

Three layers: interval arithmetic (`symshape.algebra.intervals`) gives the bounds of an expression from
its symbols' ranges; the decisions here (``prove_ge``, ``prove_eq``, ``divides``) read bounds and
divisors; `simplify` applies the fact-aware rewrite tables of `symshape.engine.fact_rules`
(`ATOM_RULES`, `EXPR_RULES`, re-exported here), which ask these decisions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from symshape.algebra.expr import (
    Atom,
    Dim,
    Expr,
    FloorDiv,
    MaxAtom,
    ModAtom,
    Mono,
    NaryAtom,
    Sym,
    add,
    expand_mod,
    floordiv,
    map_atoms,
    mod,
    mul,
    single_atom,
)
from symshape.algebra.intervals import (
    Bound,
    Interval,
    add_intervals,
    floor_divide,
    maximum,
    minimum,
    modulo,
    multiply,
    scale,
    tighter,
)
from symshape.engine.fact_rules import ATOM_RULES, EXPR_RULES, contract_mod


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
            lo=tighter(self.lo, other.lo, low=True),
            hi=tighter(self.hi, other.hi, low=False),
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
            total: Interval = (0, 0)
            for mono, coeff in d.terms:
                total = add_intervals(total, scale(self._mono_bounds(mono), coeff))
            cached = self._bounds[d] = total
        return cached

    def tight_bounds(self, d: Dim) -> Interval:
        """The bounds of ``d`` intersected with those of its form with ``n - k*floor(n/k)``
        contracted to ``Mod(n, k)`` (both sound; the second is tight where the first is not).

        Deliberately not the full `simplify`: the rules ask for bounds of new differences all the
        time, and simplifying each of those would multiply the cost of every rule check."""
        lo, hi = self.bounds(d)
        if isinstance(d, int) or not any(isinstance(a, FloorDiv) for a in d.atoms):
            return lo, hi
        s = contract_mod(d)
        if s is d:
            return lo, hi
        slo, shi = self.bounds(s)
        return tighter(lo, slo, low=True), tighter(hi, shi, low=False)

    def _mono_bounds(self, mono: Mono) -> Interval:
        acc: Interval = (1, 1)
        for atom in mono:
            acc = multiply(acc, self._atom_bounds(atom))
        return acc

    def _atom_bounds(self, atom: Atom) -> Interval:
        if isinstance(atom, Sym):
            f = self.get(atom.name)
            return f.lo, f.hi
        if isinstance(atom, FloorDiv):
            return floor_divide(self.bounds(atom.num), self.bounds(atom.den))
        if isinstance(atom, ModAtom):
            return modulo(self.bounds(atom.num), self.bounds(atom.den))
        if not isinstance(atom, NaryAtom):
            return None, None
        args = [self.bounds(a) for a in atom.args]
        return maximum(args) if isinstance(atom, MaxAtom) else minimum(args)

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
        """``d`` with every ``Mod`` written as floors (`symshape.algebra.expr.expand_mod`), at every depth,
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
        try:
            rebuilt = atom.rebuild(again)
        except ZeroDivisionError:  # a denominator the facts prove 0: undefined, left as written
            return atom_expr
        atom = single_atom(rebuilt)
        if atom is None or isinstance(atom, Sym):
            return rebuilt if rebuilt is atom_expr else again(rebuilt)
        for rule in ATOM_RULES:
            out = rule(self, atom)
            if out is not None:
                return again(out)
        return rebuilt


_NONE = SymbolFacts()


__all__ = ["ATOM_RULES", "EXPR_RULES", "Bound", "Facts", "Interval", "SymbolFacts", "floordiv", "mod"]
