# pyright: strict
"""The shape constraint graph (seed 000's constraint IR, as data).

It owns the symbols and their provenance, the solved equalities (bindings ``symbol := expr``,
kept fully substituted), the residual equations it could not solve (``a*b == c*d`` from
reshapes), the inequality / divisibility predicates, and the guards: assumptions the analysis
had to make to go on, each with its origin.

Solving ``e1 == e2``: substitute the bindings, simplify under the facts, divide out the
coefficient gcd and every common factor *proven* non-zero, then bind one symbol whose
coefficient is linear: data and derived symbols first (newest first), input and user names last,
so results stay in the names the user knows. A derived symbol with a coefficient that does not
divide the rest (``2*t == n``) is bound to ``floor(n/2)`` and ``2 | n`` is learned. What cannot
be solved stays a residual, re-solved whenever a symbol in it is bound or a fact changes; a
residual ``k*Mod(s, m) == 0`` (from ``s == m*floor(s/m)``) teaches ``m | s``.

A contradiction raises `ContradictionError` naming both origins, e.g. ``MatMul 'mm' (contraction):
dim 1 of 'x' (hidden = 768) must equal dim 0 of 'w' (512); 'hidden' = 768 since Reshape 'r'
(reshape element count)``: DESIGN's wording, with the rule after the op as in `Origin`'s text.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import NoReturn

from symshape.errors import ContradictionError
from symshape.expr import (
    Atom,
    Dim,
    Expr,
    ModAtom,
    Mono,
    add,
    as_symbol,
    content,
    degree_in,
    floordiv,
    from_terms,
    mul,
    subs,
    sym,
)
from symshape.facts import Bound, Facts, SymbolFacts

KIND_ORDER = {"input": 0, "user": 1, "derived": 2, "data": 3}
_MAX_RECHECK_ROUNDS = 16
Ctx = tuple[Dim, Dim, tuple[str, str] | None]  # the two sides as given, and how to name them


@dataclass(frozen=True)
class Origin:
    """Where a symbol or constraint comes from: an op (type and name), the rule, a detail."""

    op_type: str
    op_name: str
    rule: str = ""
    detail: str = ""

    def __str__(self) -> str:
        text = self.where()
        if self.rule:
            text += f" ({self.rule})"
        return text

    def where(self) -> str:
        """``Type 'name'`` (or just the type), without the rule."""
        return f"{self.op_type} '{self.op_name}'" if self.op_name else self.op_type


@dataclass
class SymbolInfo:
    """A symbol: its kind (input, user, derived, data), where it was made, its creation index."""

    name: str
    kind: str
    origin: Origin
    index: int


@dataclass(frozen=True)
class Guard:
    """An assumption the analysis needed: ``lhs rel rhs`` (rel is ``==``, ``>=``, ``!=``)."""

    lhs: Dim
    rel: str
    rhs: Dim
    origin: Origin
    reason: str = ""


@dataclass(frozen=True)
class Predicate:
    """A kept predicate: ``lhs rel rhs`` with rel ``<=``, ``<`` or ``divisible`` (rhs | lhs)."""

    lhs: Dim
    rel: str
    rhs: Dim
    origin: Origin


@dataclass(frozen=True)
class Residual:
    """An equation ``expr == 0`` that could not be solved for any symbol yet.

    ``lhs``, ``rhs`` and ``what`` keep the equation as first stated, for messages.
    """

    expr: Dim
    origin: Origin
    lhs: Dim | None = None
    rhs: Dim | None = None
    what: tuple[str, str] | None = None

    def ctx(self) -> Ctx:
        """The equation as first stated (``expr == 0`` when unknown)."""
        if self.lhs is None or self.rhs is None:
            return (self.expr, 0, self.what)
        return (self.lhs, self.rhs, self.what)


@dataclass
class ConstraintGraph:
    """Symbols, facts, bindings, residual equations, predicates and guards."""

    facts: Facts = field(default_factory=Facts)
    symbols: dict[str, SymbolInfo] = field(default_factory=dict[str, SymbolInfo])
    residuals: list[Residual] = field(default_factory=list[Residual])
    predicates: list[Predicate] = field(default_factory=list[Predicate])
    guards: list[Guard] = field(default_factory=list[Guard])

    def __post_init__(self) -> None:
        self._bind: dict[str, Dim] = {}
        self._bind_origin: dict[str, Origin] = {}
        self._users: dict[str, set[str]] = {}
        self._fact_origin: dict[str, Origin] = {}
        self._range_set: set[str] = set()
        self._canon: dict[Expr, Dim] = {}
        self._canon_version = -1
        self._canon_facts_version = -1
        self._guard_keys: set[tuple[str, str, str, str]] = set()
        self._facts_seen = self.facts.version
        self.version = 0

    def copy(self) -> ConstraintGraph:
        """An independent copy (expressions are shared: they are immutable)."""
        new = copy.copy(self)
        new.facts = self.facts.copy()
        new.symbols, new.residuals = dict(self.symbols), list(self.residuals)
        new.predicates, new.guards = list(self.predicates), list(self.guards)
        new._bind, new._bind_origin = dict(self._bind), dict(self._bind_origin)
        new._users = {k: set(v) for k, v in self._users.items()}
        new._fact_origin, new._range_set = dict(self._fact_origin), set(self._range_set)
        new._canon, new._guard_keys = {}, set(self._guard_keys)
        new._canon_version = new._canon_facts_version = -1
        return new

    # ---------------------------------------------------------------- symbols
    def add_symbol(self, name: str, kind: str, origin: Origin, *, lo: Bound = 0, hi: Bound = None) -> Expr:
        """Declare ``name`` (idempotent) with ``lo <= name <= hi``; returns its expression."""
        if name not in self.symbols:
            checked = self._facts_seen == self.facts.version
            self.symbols[name] = SymbolInfo(name, kind, origin, len(self.symbols))
            self.facts.restrict(name, lo=lo, hi=hi)
            self._fact_origin[name] = origin
            if checked:  # a new symbol is in no residual: nothing to re-check for it
                self._facts_seen = self.facts.version
        return sym(name)

    def fresh(self, origin: Origin, *, kind: str = "derived", lo: Bound = 0, hi: Bound = None) -> Expr:
        """A new symbol for a value the rules cannot express (renamed canonically on output)."""
        name = f"_t{len(self.symbols)}"
        while name in self.symbols:
            name += "_"
        return self.add_symbol(name, kind, origin, lo=lo, hi=hi)

    def binding(self, name: str) -> tuple[Dim, Origin] | None:
        """The value ``name`` was solved to, and the origin of that equation."""
        if name in self._bind:
            return self._bind[name], self._bind_origin[name]
        return None

    # ------------------------------------------------------------ canonical
    def canon(self, d: Dim) -> Dim:
        """``d`` with every solved symbol substituted and the fact-aware rules applied."""
        if isinstance(d, int):
            return d
        if self.version != self._canon_version or self.facts.version != self._canon_facts_version:
            self._canon.clear()
            self._canon_version = self.version
            self._canon_facts_version = self.facts.version
        out = self._canon.get(d)
        if out is None:
            out = self.facts.simplify(subs(d, self._bind))
            if isinstance(out, Expr) and any(n in self._bind for n in out.free):
                out = self.facts.simplify(subs(out, self._bind))
            self._canon[d] = out
        return out

    # ------------------------------------------------------------- equations
    def eq(
        self,
        a: Dim,
        b: Dim,
        origin: Origin,
        what: tuple[str, str] | None = None,
        *,
        eliminate: str | None = None,
    ) -> None:
        """Record ``a == b`` (a fact of the program); raise on a contradiction.

        ``what`` names the two sides for messages, e.g. ``("dim 1 of 'x'", "dim 0 of 'w'")``.
        ``eliminate`` names the symbol to solve for first (a user fact ``total == past + seq``
        defines ``total``), before the usual elimination order.
        """
        ca, cb = self.canon(a), self.canon(b)
        if ca is not cb:
            self._solve(add(ca, mul(cb, -1)), origin, (a, b, what), eliminate)
        self.recheck()

    def recheck(self) -> None:
        """Re-solve every residual if a fact changed since the last check (new facts may let a
        residual cancel a factor, close, or contradict)."""
        for _ in range(_MAX_RECHECK_ROUNDS):
            if self._facts_seen == self.facts.version:
                return
            self._facts_seen = self.facts.version
            self._resolve(self.residuals)

    def _resolve(self, pending: list[Residual]) -> None:
        """Take ``pending`` out of the residuals and solve each again; on a contradiction the
        ones not reached yet are put back, so the graph stays whole for the caller."""
        taken = {id(r) for r in pending}
        self.residuals = [r for r in self.residuals if id(r) not in taken]
        for i, r in enumerate(pending):
            try:
                self._solve(r.expr, r.origin, r.ctx())
            except ContradictionError:
                self.residuals.extend(pending[i:])
                raise

    def _solve(self, d: Dim, origin: Origin, ctx: Ctx, eliminate: str | None = None) -> None:
        d = self.canon(d)
        decided = self.facts.prove_eq(d, 0)
        if decided is False:
            self._contradiction(origin, ctx, self._facts_text(d))
        if decided or isinstance(d, int):
            return
        d = self._cancel(d)
        if isinstance(d, int):
            if d:
                self._contradiction(origin, ctx)
            return
        if self._solve_linear(d, origin, ctx, eliminate):
            return
        if self._learn_divisibility(d, origin):
            d = self.canon(d)
            if isinstance(d, int) or self.facts.prove_eq(d, 0):
                return
        if not any(r.expr is d for r in self.residuals):  # one per equation (the first origin)
            self.residuals.append(Residual(d, origin, ctx[0], ctx[1], ctx[2]))

    def _solve_linear(self, d: Expr, origin: Origin, ctx: Ctx, first: str | None = None) -> bool:
        """Bind the first symbol (``first``, then elimination order) that ``d`` is linear in."""
        order = self._elimination_order(d)
        if first in order:
            order.remove(first)
            order.insert(0, first)
        for name in order:
            found = degree_in(d, name)
            if found is None:
                continue
            coeff, rest = found  # coeff*name + rest == 0
            if content(rest) % coeff == 0:
                self._bind_symbol(name, _exact_quotient(rest, -coeff), origin, ctx)
                return True
            if self.symbols[name].kind in ("derived", "data"):
                return self._bind_floor(name, coeff, rest, origin, ctx)
        return False

    def _bind_floor(self, name: str, coeff: int, rest: Dim, origin: Origin, ctx: Ctx) -> bool:
        """``coeff*name == -rest`` with ``coeff`` not dividing ``rest``: ``name := floor(-rest/coeff)``
        and ``coeff | rest`` is learned (from the residual ``Mod(-rest, coeff) == 0``)."""
        value = floordiv(mul(rest, -1), coeff)
        self._bind_symbol(name, value, origin, ctx)
        self._solve(add(mul(value, coeff), rest), origin, ctx)
        return True

    def _elimination_order(self, d: Expr) -> list[str]:
        """Data and derived symbols first (newest first), then user and input names (newest first)."""
        names = [n for n in d.free if n in self.symbols]
        names.sort(key=lambda n: (-KIND_ORDER.get(self.symbols[n].kind, 2), -self.symbols[n].index))
        return names

    def _cancel(self, d: Expr) -> Dim:
        """Divide out the coefficient gcd (signed, so the leading coefficient is positive: ``d == 0``
        and ``-d == 0`` are one equation) and every common factor proven non-zero."""
        g = content(d) if d.terms[0][1] > 0 else -content(d)
        terms: dict[Mono, int] = {m: c // g for m, c in d.terms}
        common = set(d.terms[0][0])
        for mono in terms:
            common &= set(mono)
        for atom in sorted(common, key=lambda a: a.order):
            if self.facts.prove_nonzero(from_terms({(atom,): 1})):
                while all(atom in m for m in terms):
                    terms = {_drop_one(m, atom): c for m, c in terms.items()}
        return from_terms(terms)

    def _learn_divisibility(self, d: Expr, origin: Origin) -> bool:
        """Learn ``k | s`` from ``c*s + k*R == 0`` or ``c*Mod(a*s, k) == 0``; True when learned."""
        learned = False
        atom = d.terms[0][0][0] if len(d.terms) == 1 and len(d.terms[0][0]) == 1 else None
        if isinstance(atom, ModAtom) and isinstance(atom.den, int):
            found = _scaled_symbol(atom.num)
            if found is not None:
                a, name = found
                learned |= self._learn(name, atom.den // math.gcd(a, atom.den), origin)
            else:
                self._predicate(Predicate(atom.num, "divisible", atom.den, origin))
            return learned
        for mono, coeff in d.terms:
            name = as_symbol(from_terms({mono: 1}))
            if name is not None:
                k = content(add(d, from_terms({mono: -coeff})))
                learned |= self._learn(name, k // math.gcd(k, abs(coeff)) if k else 1, origin)
        return learned

    def _learn(self, name: str, k: int, origin: Origin) -> bool:
        if k <= 1 or self.facts.get(name).divisor % k == 0:
            return False
        self.facts.restrict(name, divisor=k)
        self._predicate(Predicate(sym(name), "divisible", k, origin))
        return True

    def _predicate(self, p: Predicate) -> None:
        """Keep ``p`` unless the same relation is already kept (its first origin stays)."""
        if not any(q.rel == p.rel and q.lhs == p.lhs and q.rhs == p.rhs for q in self.predicates):
            self.predicates.append(p)

    def _bind_symbol(self, name: str, value: Dim, origin: Origin, ctx: Ctx) -> None:
        facts = self.facts.get(name)
        self._check_range(name, value, facts, origin, ctx)
        other = as_symbol(value)
        if other is not None:
            self.facts.set(other, self.facts.get(other).merged(facts))
        elif isinstance(value, Expr):
            if facts.lo is not None and not self.facts.prove_ge(value, facts.lo):
                self._predicate(Predicate(facts.lo, "<=", value, self._fact_origin.get(name, origin)))
            if facts.hi is not None and not self.facts.prove_le(value, facts.hi):
                self._predicate(Predicate(value, "<=", facts.hi, self._fact_origin.get(name, origin)))
        self._bind[name] = value
        self._bind_origin[name] = origin
        for user in sorted(self._users.pop(name, set())):
            self._bind[user] = self.facts.simplify(subs(self._bind[user], {name: value}))
            self._track_users(user)
        self._track_users(name)
        self.version += 1
        self._recheck_residuals(name)

    def _check_range(self, name: str, value: Dim, facts: SymbolFacts, origin: Origin, ctx: Ctx) -> None:
        if isinstance(value, int):
            ok = facts.admits(value)
        else:
            lo, hi = self.facts.bounds(value)
            ok = not (facts.lo is not None and hi is not None and hi < facts.lo) and not (
                facts.hi is not None and lo is not None and lo > facts.hi
            )
        if not ok:
            self._contradiction(origin, ctx, extra=f"'{name}' lies in {_range(facts)}{_div(facts)}")

    def _track_users(self, name: str) -> None:
        value = self._bind[name]
        if isinstance(value, Expr):
            for s in value.free:
                self._users.setdefault(s, set()).add(name)

    def _recheck_residuals(self, changed: str) -> None:
        pending = [r for r in self.residuals if isinstance(r.expr, Expr) and changed in r.expr.free]
        if pending:
            self._resolve(pending)

    def _recheck_all(self) -> None:
        """Re-solve every residual now (kept for callers of the first version; see `recheck`)."""
        self._facts_seen = -1
        self.recheck()

    # ------------------------------------------------------------ predicates
    def assume_range(self, d: Dim, lo: Bound, hi: Bound, origin: Origin) -> None:
        """Record ``lo <= d <= hi`` as a fact; a single symbol's range is tightened."""
        c = self.canon(d)
        name = as_symbol(c)
        if name is not None:
            before = self.facts.get(name)
            new = self.facts.restrict(name, lo=lo, hi=hi)
            if new.lo is not None and new.hi is not None and new.lo > new.hi:
                self.facts.set(name, before)
                raise ContradictionError(
                    f"{origin}: '{d}' must lie in {_range(SymbolFacts(lo, hi))}, but "
                    f"{self._fact_source(name)} already bounds it to {_range(before)}"
                )
            if new != before:
                self._fact_origin[name] = origin
                self._range_set.add(name)
            self.recheck()
            return
        blo, bhi = self.facts.tight_bounds(c)
        if (lo is not None and bhi is not None and bhi < lo) or (hi is not None and blo is not None and blo > hi):
            raise ContradictionError(
                f"{origin}: '{c}' must lie in {_range(SymbolFacts(lo, hi))}, but it lies in "
                f"{_range(SymbolFacts(blo, bhi))}{self._sources_text((d,))}"
            )
        if lo is not None:
            self._predicate(Predicate(lo, "<=", c, origin))
        if hi is not None:
            self._predicate(Predicate(c, "<=", hi, origin))

    def assume_divisible(self, d: Dim, k: int, origin: Origin) -> None:
        """Record ``k | d`` as a fact."""
        c = self.canon(d)
        name = as_symbol(c)
        if name is not None:
            if self.facts.get(name).divisor % k:
                self._fact_origin[name] = origin
                self._range_set.add(name)
            self.facts.restrict(name, divisor=k)
            self.recheck()
        elif isinstance(c, int) and c % k:
            raise ContradictionError(f"{origin}: '{d}' = {c} must be divisible by {k}")
        self._predicate(Predicate(c, "divisible", k, origin))

    def guard(self, lhs: Dim, rel: str, rhs: Dim, origin: Origin, reason: str = "") -> None:
        """Record an assumption the analysis made (deduplicated)."""
        key = (str(lhs), rel, str(rhs), str(origin))
        if key not in self._guard_keys:
            self._guard_keys.add(key)
            self.guards.append(Guard(lhs, rel, rhs, origin, reason))

    def clear_guards(self) -> None:
        """Forget every recorded guard (a new walk of the program records them afresh)."""
        self.guards.clear()
        self._guard_keys.clear()

    # --------------------------------------------------------------- errors
    def _fact_source(self, name: str) -> str:
        origin = self._fact_origin.get(name)
        return str(origin) if origin else "an earlier fact"

    def _facts_text(self, d: Dim) -> str:
        """The declared facts of the symbols in ``d`` that no other constraint set (those are
        named with their origin by `_sources_text`)."""
        lo, hi = self.facts.tight_bounds(d)
        by_range = (lo is not None and lo > 0) or (hi is not None and hi < 0)
        parts: list[str] = []
        for name in sorted(d.free) if isinstance(d, Expr) else ():
            f = self.facts.get(name)
            shown = (f.lo is not None or f.hi is not None) if by_range else f.divisor > 1
            if name not in self._range_set and shown:
                parts.append(f"'{name}' lies in {_range(f)}{_div(f)}")
        return "; ".join(parts)

    def _sources_text(self, dims: tuple[Dim, ...]) -> str:
        """``; 'n' = 'a*b' since <origin>; 'm' in [0, 5] since <origin>`` for the symbols of
        ``dims`` that were bound or range-restricted by another constraint."""
        sources: list[str] = []
        names = sorted({n for d in dims if isinstance(d, Expr) for n in d.free})
        for name in names:
            bound = self.binding(name)
            if bound is not None:
                value = bound[0] if isinstance(bound[0], int) else f"'{bound[0]}'"
                sources.append(f"'{name}' = {value} since {bound[1]}")
            elif name in self._range_set:
                f = self.facts.get(name)
                sources.append(f"'{name}' in {_range(f)}{_div(f)} since {self._fact_source(name)}")
        return "".join(f"; {s}" for s in sources)

    def _contradiction(self, origin: Origin, ctx: Ctx, extra: str = "") -> NoReturn:
        a, b, what = ctx
        a, b = self._named_constant(a), self._named_constant(b)
        left = _describe(what[0] if what else None, a, self.canon(a))
        right = _describe(what[1] if what else None, b, self.canon(b))
        why = f"; {extra}" if extra else ""
        raise ContradictionError(f"{origin}: {left} must equal {right}{why}{self._sources_text((a, b))}")

    def _named_constant(self, d: Dim) -> Dim:
        """A rule sees canonical dims, so a declared name solved to a constant reaches it as that
        constant: give the name back (``hidden`` for 768) when exactly one input or user symbol
        was solved to ``d``, so the message can say where the constant came from."""
        if not isinstance(d, int):
            return d
        names = [
            n
            for n, v in self._bind.items()
            if isinstance(v, int) and v == d and self.symbols[n].kind in ("input", "user")
        ]
        return sym(names[0]) if len(names) == 1 else d


def _exact_quotient(rest: Dim, by: int) -> Dim:
    """``rest / by`` where ``by`` divides every coefficient of ``rest``."""
    if isinstance(rest, int):
        return rest // by
    return from_terms({m: c // by for m, c in rest.terms})


def _scaled_symbol(d: Dim) -> tuple[int, str] | None:
    """``(a, name)`` when ``d`` is ``a*name``."""
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        name = as_symbol(from_terms({mono: 1}))
        if name is not None:
            return abs(coeff), name
    return None


def _describe(what: str | None, raw: Dim, canon: Dim) -> str:
    shown = str(canon) if raw is canon or str(raw) == str(canon) else f"{raw} = {canon}"
    return f"{what} ({shown})" if what else f"'{shown}'"


def _range(f: SymbolFacts) -> str:
    return f"[{'-inf' if f.lo is None else f.lo}, {'inf' if f.hi is None else f.hi}]"


def _div(f: SymbolFacts) -> str:
    return f" and is a multiple of {f.divisor}" if f.divisor > 1 else ""


def _drop_one(mono: Mono, atom: Atom) -> Mono:
    out = list(mono)
    out.remove(atom)
    return tuple(out)
