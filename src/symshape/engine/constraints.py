# pyright: strict
"""The shape constraint graph (the constraint IR, as data).

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

A contradiction raises `ContradictionError` naming both origins, worded by
`symshape.engine.contradictions`; the records the graph keeps (`Origin`, `Guard`, `Predicate`,
`Residual`) are in `symshape.engine.provenance` (re-exported here).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import symshape.engine.contradictions as say
from symshape.algebra.expr import Dim, Expr, add, as_symbol, content, degree_in, floordiv, mul, subs, sym
from symshape.engine.equations import cancel, divisibility_lessons, exact_quotient
from symshape.engine.facts import Bound, Facts, SymbolFacts
from symshape.engine.narrowing import Narrowing
from symshape.engine.nonneg import prove_nonneg
from symshape.engine.provenance import Broadcast, Ctx, Guard, Origin, Predicate, Rel, Residual, SymbolInfo, SymbolKind
from symshape.errors import ContradictionError

KIND_ORDER = {"input": 0, "user": 1, "derived": 2, "data": 3}
_MAX_RECHECK_ROUNDS = 16


@dataclass
class ConstraintGraph:
    """Symbols, facts, bindings, residual equations, predicates and guards."""

    facts: Facts = field(default_factory=Facts)
    symbols: dict[str, SymbolInfo] = field(default_factory=dict[str, SymbolInfo])
    residuals: list[Residual] = field(default_factory=list[Residual])
    predicates: list[Predicate] = field(default_factory=list[Predicate])
    guards: list[Guard] = field(default_factory=list[Guard])
    broadcasts: dict[frozenset[Dim], Broadcast] = field(default_factory=dict[frozenset[Dim], Broadcast])
    """The broadcasts the program needs, by their pair of dims (each pair once, with its first origin)."""

    def __post_init__(self) -> None:
        self._bind: dict[str, Dim] = {}
        self._bind_origin: dict[str, Origin] = {}
        self._users: dict[str, set[str]] = {}
        self._fact_origin: dict[str, Origin] = {}
        self._narrowing = Narrowing()
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
        new.broadcasts = dict(self.broadcasts)
        new._bind, new._bind_origin = dict(self._bind), dict(self._bind_origin)
        new._users = {k: set(v) for k, v in self._users.items()}
        new._fact_origin, new._narrowing = dict(self._fact_origin), self._narrowing.copy()
        new._canon, new._guard_keys = {}, set(self._guard_keys)
        new._canon_version = new._canon_facts_version = -1
        return new

    # ---------------------------------------------------------------- symbols
    def add_symbol(self, name: str, kind: SymbolKind, origin: Origin, *, lo: Bound = 0, hi: Bound = None) -> Expr:
        """Declare ``name`` (idempotent) with ``lo <= name <= hi``; returns its expression."""
        if name not in self.symbols:
            checked = self._facts_seen == self.facts.version
            self.symbols[name] = SymbolInfo(name, kind, origin, len(self.symbols))
            self.facts.restrict(name, lo=lo, hi=hi)
            self._fact_origin[name] = origin
            if checked:  # a new symbol is in no residual: nothing to re-check for it
                self._facts_seen = self.facts.version
        return sym(name)

    def fresh(self, origin: Origin, *, kind: SymbolKind = "derived", lo: Bound = 0, hi: Bound = None) -> Expr:
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

    def bindings(self) -> list[tuple[str, Dim, Origin]]:
        """Every solved equality ``name := value`` with the origin of the equation that forced it
        (the checks a shape function makes, `symshape.tools.mlir_passes.shape_checks`)."""
        return [(n, v, self._bind_origin[n]) for n, v in self._bind.items()]

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
    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """Decide ``a == b``: the facts' answer on the canonical forms, else True when a residual
        equation the graph keeps (``a*b == c*d``) says it. The one decider of equalities that
        rules, results and passes share."""
        a, b = self.canon(a), self.canon(b)
        answer = self.facts.prove_eq(a, b)
        if answer is None and self.residuals:
            diff = self.canon(add(a, mul(b, -1)))
            negated = mul(diff, -1)
            for r in self.residuals:
                known = self.canon(r.expr)
                if known is diff or known is negated:
                    return True
        return answer

    def decide(self, lhs: Dim, rel: Rel, rhs: Dim) -> bool | None:
        """Whether ``lhs rel rhs`` (``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``) is proven (True),
        refuted (False) or open (None), inequalities through `prove_nonneg` (the facts' bounds,
        then the relations between atoms they miss). The one decider of guards and predicates
        that rules, results and passes share."""
        if rel in ("==", "!="):
            same = self.prove_eq(lhs, rhs)
            return None if same is None else same == (rel == "==")

        def prove(d: Dim) -> bool:
            return prove_nonneg(self, d)

        big, small = (lhs, rhs) if rel in (">=", ">") else (rhs, lhs)
        gap = add(big, mul(small, -1))
        strict = rel in (">", "<")
        if prove(self.canon(add(gap, -1) if strict else gap)):
            return True
        if prove(self.canon(mul(gap, -1) if strict else add(mul(gap, -1), -1))):
            return False
        return None

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
            raise say.mismatch(self, origin, ctx, say.facts_text(self, d))
        if decided or isinstance(d, int):
            return
        d = cancel(d, self.facts)
        if isinstance(d, int):
            if d:
                raise say.mismatch(self, origin, ctx)
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
                self._bind_symbol(name, exact_quotient(rest, -coeff), origin, ctx)
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

    def _learn_divisibility(self, d: Expr, origin: Origin) -> bool:
        """Learn ``k | s`` from ``c*s + k*R == 0`` or ``c*Mod(a*s, k) == 0``; True when learned."""
        lessons, kept = divisibility_lessons(d)
        if kept is not None:
            self._predicate(Predicate(kept[0], "divisible", kept[1], origin))
        learned = False
        for name, k in lessons:
            learned |= self._learn(name, k, origin)
        return learned

    def _learn(self, name: str, k: int, origin: Origin) -> bool:
        if k <= 1 or self.facts.get(name).divisor % k == 0:
            return False
        self.facts.restrict(name, divisor=k)
        self._predicate(Predicate(sym(name), "divisible", k, origin))
        return True

    def require_broadcast(self, a: Dim, b: Dim, origin: Origin) -> None:
        """Keep the requirement that ``a`` and ``b`` broadcast (`Broadcast`), once per pair."""
        self.broadcasts.setdefault(frozenset((a, b)), Broadcast(a, b, origin))

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
            raise say.mismatch(self, origin, ctx, say.symbol_outside(name, facts))

    def _track_users(self, name: str) -> None:
        value = self._bind[name]
        if isinstance(value, Expr):
            for s in value.free:
                self._users.setdefault(s, set()).add(name)

    def _recheck_residuals(self, changed: str) -> None:
        pending = [r for r in self.residuals if isinstance(r.expr, Expr) and changed in r.expr.free]
        if pending:
            self._resolve(pending)

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
                raise say.symbol_range_conflict(self, origin, d, name, (lo, hi), before)
            if new != before:
                self._fact_origin[name] = origin
                self._narrowing.record(name, before, new, origin, {"lo": lo, "hi": hi})
            self.recheck()
            return
        blo, bhi = self.facts.tight_bounds(c)
        if (lo is not None and bhi is not None and bhi < lo) or (hi is not None and blo is not None and blo > hi):
            raise say.range_conflict(self, origin, c, d, (lo, hi), (blo, bhi))
        if lo is not None:
            self._predicate(Predicate(lo, "<=", c, origin))
        if hi is not None:
            self._predicate(Predicate(c, "<=", hi, origin))

    def assume_divisible(self, d: Dim, k: int, origin: Origin) -> None:
        """Record ``k | d`` as a fact."""
        c = self.canon(d)
        name = as_symbol(c)
        if name is not None:
            before = self.facts.get(name)
            new = self.facts.restrict(name, divisor=k)
            if new.lo is not None and new.hi is not None and new.lo > new.hi:
                self.facts.set(name, before)
                raise say.no_multiple_in_range(self, origin, d, name, k, before)
            if before.divisor % k:
                self._fact_origin[name] = origin
                self._narrowing.record(name, before, new, origin, {"divisor": k})
            self.recheck()
        elif isinstance(c, int) and c % k:
            raise say.divisibility_conflict(origin, d, c, k)
        self._predicate(Predicate(c, "divisible", k, origin))

    def guard(self, lhs: Dim, rel: Rel, rhs: Dim, origin: Origin, reason: str = "") -> None:
        """Record an assumption the analysis made (deduplicated)."""
        key = (str(lhs), rel, str(rhs), str(origin))
        if key not in self._guard_keys:
            self._guard_keys.add(key)
            self.guards.append(Guard(lhs, rel, rhs, origin, reason))

    def clear_guards(self) -> None:
        """Forget every recorded guard (a new walk of the program records them afresh)."""
        self.guards.clear()
        self._guard_keys.clear()

    # ------------------------------------------------- what the wording reads
    def part_origins(self, name: str) -> list[tuple[str, Origin, Bound]]:
        """`symshape.engine.narrowing.Narrowing.parts` of ``name``."""
        return self._narrowing.parts(name)

    def fact_origin(self, name: str) -> Origin | None:
        """The origin of the latest constraint that set the facts of ``name``."""
        return self._fact_origin.get(name)

    def restricted(self, name: str) -> bool:
        """Whether a constraint other than the declaration narrowed the facts of ``name``."""
        return self._narrowing.narrowed(name)

    def solved_to(self, value: int) -> list[str]:
        """The input and user symbols solved to the constant ``value``."""
        kinds = ("input", "user")
        return [n for n, v in self._bind.items() if isinstance(v, int) and v == value and self.symbols[n].kind in kinds]


__all__ = ["KIND_ORDER", "ConstraintGraph", "Guard", "Origin", "Predicate", "Residual", "SymbolInfo"]
