"""The shape constraint graph (seed 000's constraint IR, as data).

It owns the symbols and their provenance, the solved equalities (bindings ``symbol := expr``,
kept fully substituted), the residual equations it could not solve (``a*b == c*d`` from
reshapes), the inequality / divisibility predicates, and the guards: assumptions the analysis
had to make to go on, each with its origin. A contradiction raises `ContradictionError` naming
the origins of both constraints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from symshape.errors import ContradictionError
from symshape.expr import (
    Dim,
    Expr,
    Sym,
    add,
    content,
    degree_in,
    from_terms,
    mul,
    subs,
    sym,
)
from symshape.facts import Bound, Facts

KIND_ORDER = {"input": 0, "user": 1, "derived": 2, "data": 3}


@dataclass(frozen=True)
class Origin:
    """Where a symbol or constraint comes from: an op (type and name), the rule, a detail."""

    op_type: str
    op_name: str
    rule: str = ""
    detail: str = ""

    def __str__(self) -> str:
        text = f"{self.op_type} '{self.op_name}'" if self.op_name else self.op_type
        if self.rule:
            text += f" ({self.rule})"
        return text


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


@dataclass
class Residual:
    """An equation ``expr == 0`` that could not be solved for any symbol yet."""

    expr: Dim
    origin: Origin


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
        self._canon: dict[Expr, Dim] = {}
        self._canon_key = (-1, -1)
        self._guard_keys: set[tuple[str, str, str, str]] = set()
        self.version = 0

    # ---------------------------------------------------------------- symbols
    def add_symbol(
        self,
        name: str,
        kind: str,
        origin: Origin,
        *,
        lo: Bound = 0,
        hi: Bound = None,
    ) -> Expr:
        """Declare ``name`` (idempotent) with ``lo <= name <= hi``; returns its expression."""
        if name not in self.symbols:
            self.symbols[name] = SymbolInfo(name, kind, origin, len(self.symbols))
            self.facts.restrict(name, lo=lo, hi=hi)
            self._fact_origin[name] = origin
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
        key = (self.version, self.facts.version)
        if key != self._canon_key:
            self._canon.clear()
            self._canon_key = key
        out = self._canon.get(d)
        if out is None:
            out = self.facts.simplify(subs(d, self._bind))
            if isinstance(out, Expr) and any(n in self._bind for n in out.free):
                out = self.facts.simplify(subs(out, self._bind))
            self._canon[d] = out
        return out

    # ------------------------------------------------------------- equations
    def eq(self, a: Dim, b: Dim, origin: Origin, what: tuple[str, str] | None = None) -> None:
        """Record ``a == b`` (a fact of the program); raise on a contradiction."""
        ca, cb = self.canon(a), self.canon(b)
        if ca is cb:
            return
        self._solve(add(ca, mul(cb, -1)), origin, (a, b, what))

    def _solve(self, d: Dim, origin: Origin, ctx: tuple[Dim, Dim, tuple[str, str] | None]) -> None:
        d = self.canon(d)
        if isinstance(d, int):
            if d != 0:
                self._contradiction(origin, ctx)
            return
        if self.facts.prove_eq(d, 0) is False:
            self._contradiction(origin, ctx)
        d = self._cancel(d)
        if isinstance(d, int):
            if d != 0:
                self._contradiction(origin, ctx)
            return
        for name in self._elimination_order(d):
            found = degree_in(d, name)
            if found is None:
                continue
            coeff, rest = found
            if content(rest) % coeff == 0:
                value = from_terms({m: -c // coeff for m, c in rest.terms}) if isinstance(
                    rest, Expr
                ) else -rest // coeff
                self._bind_symbol(name, value, origin, ctx)
                return
        self._learn_divisibility(d, origin)
        self.residuals.append(Residual(d, origin))

    def _elimination_order(self, d: Expr) -> list[str]:
        """Derived symbols first (newest first), then user and input names (newest first)."""
        names = [n for n in d.free if n in self.symbols]
        names.sort(key=lambda n: (-KIND_ORDER[self.symbols[n].kind], -self.symbols[n].index))
        return names

    def _cancel(self, d: Expr) -> Dim:
        """Divide out the coefficient gcd and common atoms known to be non-zero."""
        g = content(d)
        terms = {m: c // g for m, c in d.terms} if g > 1 else dict(d.terms)
        while True:
            common: set[object] | None = None
            for mono in terms:
                common = set(mono) if common is None else common & set(mono)
            if not common:
                break
            atom = next(a for a in sorted(common, key=lambda a: a.order))  # type: ignore[attr-defined]
            atom_dim = from_terms({(atom,): 1})  # type: ignore[dict-item]
            if not self.facts.prove_nonzero(atom_dim):
                break
            terms = {_drop_one(m, atom): c for m, c in terms.items()}
        return from_terms(terms)

    def _learn_divisibility(self, d: Expr, origin: Origin) -> None:
        """From ``c*s + k*R == 0`` learn ``k/gcd(c, k) | s`` for any symbol term ``s``."""
        for mono, coeff in d.terms:
            if len(mono) == 1 and isinstance(mono[0], Sym):
                rest = add(d, from_terms({mono: -coeff}))
                k = content(rest)
                k //= math.gcd(k, abs(coeff)) if k else 1
                if k > 1:
                    name = mono[0].name
                    self.facts.restrict(name, divisor=k)
                    self.predicates.append(Predicate(sym(name), "divisible", k, origin))

    def _bind_symbol(
        self, name: str, value: Dim, origin: Origin, ctx: tuple[Dim, Dim, tuple[str, str] | None]
    ) -> None:
        facts = self.facts.get(name)
        if isinstance(value, int):
            if not facts.admits(value):
                self._contradiction(origin, ctx, extra=f"'{name}' has range {_range(facts)}")
        else:
            other = _single_symbol(value)
            if other is not None:
                self.facts.set(other, self.facts.get(other).merged(facts))
            else:
                lo, hi = self.facts.bounds(value)
                if (facts.lo is not None and hi is not None and hi < facts.lo) or (
                    facts.hi is not None and lo is not None and lo > facts.hi
                ):
                    self._contradiction(origin, ctx, extra=f"'{name}' has range {_range(facts)}")
        self._bind[name] = value
        self._bind_origin[name] = origin
        for user in self._users.pop(name, set()):
            self._bind[user] = self.facts.simplify(subs(self._bind[user], {name: value}))
            self._track_users(user)
        self._track_users(name)
        self.version += 1
        self._recheck_residuals(name)

    def _track_users(self, name: str) -> None:
        value = self._bind[name]
        if isinstance(value, Expr):
            for s in value.free:
                self._users.setdefault(s, set()).add(name)

    def _recheck_residuals(self, changed: str) -> None:
        pending = [r for r in self.residuals if isinstance(r.expr, Expr) and changed in r.expr.free]
        if not pending:
            return
        self.residuals = [r for r in self.residuals if r not in pending]
        for r in pending:
            self._solve(r.expr, r.origin, (r.expr, 0, None))

    def _recheck_all(self) -> None:
        """New facts may let a residual cancel a factor or close: try them all again."""
        pending, self.residuals = self.residuals, []
        for r in pending:
            self._solve(r.expr, r.origin, (r.expr, 0, None))

    # ------------------------------------------------------------ predicates
    def assume_range(self, d: Dim, lo: Bound, hi: Bound, origin: Origin) -> None:
        """Record ``lo <= d <= hi`` as a fact; a single symbol's range is tightened."""
        c = self.canon(d)
        name = _single_symbol(c)
        if name is not None:
            new = self.facts.restrict(name, lo=lo, hi=hi)
            if new.lo is not None and new.hi is not None and new.lo > new.hi:
                raise ContradictionError(
                    f"{origin}: '{d}' must lie in [{lo}, {hi}], but {self._fact_source(name)} "
                    f"already bounds it to {_range(self.facts.get(name))}"
                )
            self._fact_origin[name] = origin
            self._recheck_all()
            return
        blo, bhi = self.facts.bounds(c)
        if (lo is not None and bhi is not None and bhi < lo) or (
            hi is not None and blo is not None and blo > hi
        ):
            raise ContradictionError(f"{origin}: '{c}' must lie in [{lo}, {hi}] but is in [{blo}, {bhi}]")
        if lo is not None:
            self.predicates.append(Predicate(lo, "<=", c, origin))
        if hi is not None:
            self.predicates.append(Predicate(c, "<=", hi, origin))

    def assume_divisible(self, d: Dim, k: int, origin: Origin) -> None:
        """Record ``k | d`` as a fact."""
        c = self.canon(d)
        name = _single_symbol(c)
        if name is not None:
            self.facts.restrict(name, divisor=k)
            self._recheck_all()
        elif isinstance(c, int) and c % k:
            raise ContradictionError(f"{origin}: {c} is not divisible by {k}")
        self.predicates.append(Predicate(c, "divisible", k, origin))

    def guard(self, lhs: Dim, rel: str, rhs: Dim, origin: Origin, reason: str = "") -> None:
        """Record an assumption the analysis made (deduplicated)."""
        key = (str(lhs), rel, str(rhs), str(origin))
        if key not in self._guard_keys:
            self._guard_keys.add(key)
            self.guards.append(Guard(lhs, rel, rhs, origin, reason))

    # --------------------------------------------------------------- errors
    def _fact_source(self, name: str) -> str:
        origin = self._fact_origin.get(name)
        return str(origin) if origin else "an earlier fact"

    def _contradiction(
        self,
        origin: Origin,
        ctx: tuple[Dim, Dim, tuple[str, str] | None],
        extra: str = "",
    ) -> None:
        a, b, what = ctx
        ca, cb = self.canon(a), self.canon(b)
        left = _describe(what[0] if what else None, a, ca)
        right = _describe(what[1] if what else None, b, cb)
        sources = []
        for d in (a, b):
            if isinstance(d, Expr):
                for name in sorted(d.free):
                    bound = self.binding(name)
                    if bound is not None:
                        sources.append(f"'{name}' = '{bound[0]}' since {bound[1]}")
                    elif name in self._fact_origin:
                        sources.append(f"'{name}' in {_range(self.facts.get(name))} since {self._fact_source(name)}")
        why = f"; {extra}" if extra else ""
        since = f" ({'; '.join(sources)})" if sources else ""
        raise ContradictionError(f"{origin}: {left} must equal {right}{why}{since}")


def _describe(what: str | None, raw: Dim, canon: Dim) -> str:
    shown = str(canon) if raw is canon or str(raw) == str(canon) else f"{raw} = {canon}"
    return f"{what} ({shown})" if what else f"'{shown}'"


def _range(f: object) -> str:
    lo = getattr(f, "lo", None)
    hi = getattr(f, "hi", None)
    return f"[{'-inf' if lo is None else lo}, {'inf' if hi is None else hi}]"


def _single_symbol(d: Dim) -> str | None:
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        if coeff == 1 and len(mono) == 1 and isinstance(mono[0], Sym):
            return mono[0].name
    return None


def _drop_one(mono: tuple[object, ...], atom: object) -> tuple[object, ...]:
    out = list(mono)
    out.remove(atom)
    return tuple(out)
