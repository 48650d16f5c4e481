"""What the analysis requires of the input sizes, evaluated at one assignment of the input symbols.

Every item the analysis holds about the inputs is a condition with an origin: each symbol's range
and divisor, each kept predicate (``1 <= floor(h/8)*floor(w/8) + 1`` from a Reshape), each unsolved
equation, each user fact and each listed guard. `evaluate_items` fills the sizes in and returns the
conditions that fail, with the numbers and what to change; items over symbols the assignment does
not fix (data-dependent or fresh symbols) are counted as unchecked.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from symshape.algebra.expr import Dim, Expr, add, evaluate_defined, free_symbols, sym
from symshape.engine.constraints import ConstraintGraph
from symshape.engine.contradictions import USER_FACT as USER_ORIGIN
from symshape.engine.facts import SymbolFacts
from symshape.engine.program import Program
from symshape.engine.provenance import Origin, holds
from symshape.engine.userfacts import Divisible, Fact, Range, Relation


class Analysis(Protocol):
    """What the checks read of `symshape.engine.result.Analysis` (which imports this package for its
    ``check`` methods, so this package may not import it)."""

    program: Program
    graph: ConstraintGraph

    def public(self, d: Dim) -> Dim:
        """``d`` canonical, with public symbol names."""
        ...

    def shape_or_none(self, value: str) -> tuple[Dim, ...] | None:
        """The dims of ``value`` (None when unknown or not a value)."""
        ...

    def guards(self) -> list[tuple[str, str, str]]:
        """The listed guards: ``(condition, origin, reason)``."""
        ...


BINDING, SHAPE, RANGE, DIVISOR, RELATION, EQUATION, USER_FACT, GUARD = (
    "binding",
    "shape",
    "range",
    "divisor",
    "relation",
    "equation",
    "user fact",
    "guard",
)


@dataclass(frozen=True)
class Violation:
    """One failing item: its kind, the op (or input, or user fact) it comes from, the condition
    over symbols, the condition with the sizes filled in, and what to change."""

    kind: str
    origin: str
    condition: str
    numbers: str
    fix: str
    pin: tuple[tuple[str, int], ...] = ()
    """For a symbol's range or divisor: the symbol and its size (to find the op that needs it)."""
    detail: str = ""
    """What the analysis says when the symbol is pinned to that size ("" when not asked)."""

    def line(self) -> str:
        """``range seq <= 64: 600 <= 64 (Add (node 'a')); give seq a size in [1, 64]``."""
        text = f"{self.kind} {self.condition}: {self.numbers} ({self.origin}); {self.fix}"
        return f"{text}\n      because {self.detail}" if self.detail else text


@dataclass(frozen=True)
class Item:
    """A condition ``lhs rel rhs`` (public symbol names) of some kind, from ``origin``."""

    kind: str
    origin: str
    lhs: Dim
    rel: str
    rhs: Dim
    reason: str = ""
    alias: str = ""
    """Another text of the same condition (an equation ``Mod(a*b, 4) == 0`` kept next to the
    predicate it teaches), so the condition is checked once."""

    @property
    def free(self) -> frozenset[str]:
        """The symbols the condition mentions."""
        return free_symbols(self.lhs) | free_symbols(self.rhs)

    def new(self, seen: set[str]) -> bool:
        """Whether neither text of the condition is in ``seen`` (then both are added)."""
        texts = {self.condition(), self.alias} - {""}
        if texts & seen:
            return False
        seen.update(texts)
        return True

    def condition(self) -> str:
        """The condition as text (``seq <= 64``, ``Mod(h*w, 4) == 0``)."""
        if self.rel == "divisible":
            return f"Mod({self.lhs}, {self.rhs}) == 0"
        if self.rel == "broadcasts":
            return f"{self.lhs} and {self.rhs} broadcast (equal, or one is 1)"
        return f"{self.lhs} {self.rel} {self.rhs}"

    def violation(self, env: Mapping[str, int]) -> Violation | None:
        """The violation at ``env`` (None when the condition holds); every symbol must have a value."""
        a, b = evaluate_defined(self.lhs, env), evaluate_defined(self.rhs, env)
        if a is not None and b is not None and holds(a, self.rel, b):
            return None
        if self.rel == "divisible":
            numbers = f"{a} % {b} == {a % b if a is not None and b else '?'}"
        elif self.rel == "broadcasts":
            numbers = f"{'?' if a is None else a} and {'?' if b is None else b}"
        else:
            numbers = f"{'?' if a is None else a} {self.rel} {'?' if b is None else b}"
        return Violation(self.kind, self.origin, self.condition(), numbers, self.fix())

    def fix(self) -> str:
        """What to change when the condition fails."""
        if self.kind == USER_FACT:
            return f"choose sizes with {self.condition()}, or drop the fact if the model does not need it"
        why = f" ({self.reason})" if self.reason else ""
        return f"choose sizes with {self.condition()}{why}"


@dataclass(frozen=True)
class Unchecked:
    """An item the assignment cannot decide: it mentions data-dependent or fresh symbols."""

    kind: str
    origin: str
    condition: str
    symbols: tuple[str, ...]


def evaluate_items(
    analysis: Analysis, env: Mapping[str, int], where: Mapping[str, str], facts: Sequence[Fact] = ()
) -> tuple[list[Violation], int, list[Unchecked]]:
    """Violations at ``env`` (input and user symbols), how many items were checked, and the items
    that mention other symbols. ``where`` names a place each symbol's size was read from
    (``input 'input_ids' dim 1``), for the fixes of ranges and divisors. The user ``facts`` the
    analysis was given are checked first, so a range they set is named as theirs."""
    violations: list[Violation] = []
    unchecked: list[Unchecked] = []
    checked = 0
    seen: set[str] = set()

    def evaluate(item: Item) -> None:
        nonlocal checked
        cond = item.condition()
        if not item.new(seen):
            return
        missing = item.free - env.keys()
        if missing:
            unchecked.append(Unchecked(item.kind, item.origin, cond, tuple(sorted(missing))))
            return
        checked += 1
        found = item.violation(env)
        if found is not None:
            violations.append(found)

    for item in fact_items(analysis, facts):
        evaluate(item)
    for name in sorted(env):
        checked += 1
        f = analysis.graph.facts.get(name)
        found = _symbol_violations(analysis, name, env[name], where.get(name, ""))
        violations.extend(v for v in found if v.condition not in seen)
        seen.update(_symbol_conditions(name, f))
    for item in relation_items(analysis):
        evaluate(item)
    return violations, checked, unchecked


def fact_items(analysis: Analysis, facts: Sequence[Fact]) -> Iterator[Item]:
    """The user ``facts`` as items over the analysis's free symbols (likely values are no requirement)."""
    for fact in facts:
        origin = f"{USER_ORIGIN} '{fact}'"
        if isinstance(fact, Range):
            s = analysis.public(sym(fact.symbol))
            if fact.lo is not None:
                yield Item(USER_FACT, origin, s, ">=", fact.lo)
            if fact.hi is not None:
                yield Item(USER_FACT, origin, s, "<=", fact.hi)
        elif isinstance(fact, Divisible):
            yield Item(USER_FACT, origin, analysis.public(fact.expr), "divisible", fact.k)
        elif isinstance(fact, Relation):
            yield Item(USER_FACT, origin, analysis.public(fact.lhs), fact.op, analysis.public(fact.rhs))


def relation_items(analysis: Analysis) -> Iterator[Item]:
    """The kept predicates, the unsolved equations, the broadcasts and the listed guards, as items."""
    graph = analysis.graph
    for p in graph.predicates:
        kind = USER_FACT if _is_user(p.origin) else RELATION
        lhs, rhs = _constant_right(analysis.public(p.lhs), analysis.public(p.rhs))
        yield Item(kind, str(p.origin), lhs, p.rel, rhs)
    for r in graph.residuals:
        lhs, rhs, _what = r.ctx()
        kind = USER_FACT if _is_user(r.origin) else EQUATION
        alias = f"{analysis.public(r.expr)} == 0"
        yield Item(kind, str(r.origin), analysis.public(lhs), "==", analysis.public(rhs), alias=alias)
    for b in graph.broadcasts.values():
        yield Item(RELATION, str(b.origin), analysis.public(b.lhs), "broadcasts", analysis.public(b.rhs))
    listed = {cond: reason for cond, _origin, reason in analysis.guards()}  # those not proven
    for g in graph.guards:
        lhs, rhs = analysis.public(g.lhs), analysis.public(g.rhs)
        cond = f"{lhs} {g.rel} {rhs}"
        if cond in listed:
            yield Item(GUARD, str(g.origin), lhs, g.rel, rhs, listed[cond])


def symbol_items(analysis: Analysis, name: str) -> Iterator[Item]:
    """The range ends and the divisor of symbol ``name``, as items."""
    f = analysis.graph.facts.get(name)
    s = sym(name)
    for part, kind, rel, value in (("lo", RANGE, ">=", f.lo), ("hi", RANGE, "<=", f.hi),
                                   ("divisor", DIVISOR, "divisible", f.divisor)):
        if value is None or part == "lo" and value <= 0 or part == "divisor" and value == 1:
            continue  # no bound (a size is never negative)
        user, source = _bound_source(analysis, name, part, value)
        yield Item(USER_FACT if user else kind, source, s, rel, value)


def _symbol_violations(analysis: Analysis, name: str, value: int, where: str) -> list[Violation]:
    """The range and divisor of symbol ``name`` at ``value``."""
    graph = analysis.graph
    f = graph.facts.get(name)
    at = f" ({where})" if where else ""
    out: list[Violation] = []
    span = f"[{'-inf' if f.lo is None else f.lo}, {'inf' if f.hi is None else f.hi}]"
    if f.lo is not None and value < f.lo:
        user, source = _bound_source(analysis, name, "lo", f.lo)
        out.append(
            Violation(
                USER_FACT if user else RANGE,
                source,
                f"{name} >= {f.lo}",
                f"{value} >= {f.lo}",
                f"give {name}{at} a size in {span}",
                ((name, value),),
            )
        )
    if f.hi is not None and value > f.hi:
        user, source = _bound_source(analysis, name, "hi", f.hi)
        out.append(
            Violation(
                USER_FACT if user else RANGE,
                source,
                f"{name} <= {f.hi}",
                f"{value} <= {f.hi}",
                f"give {name}{at} a size in {span}",
                ((name, value),),
            )
        )
    if f.divisor != 1 and value % f.divisor:
        user, source = _bound_source(analysis, name, "divisor", f.divisor)
        out.append(
            Violation(
                USER_FACT if user else DIVISOR,
                source,
                f"Mod({name}, {f.divisor}) == 0",
                f"{value} % {f.divisor} == {value % f.divisor}",
                f"give {name}{at} a multiple of {f.divisor}",
                ((name, value),),
            )
        )
    return out


def _bound_source(analysis: Analysis, name: str, part: str, value: int) -> tuple[bool, str]:
    """Whether a user fact is the cause of one bound of ``name``, and its source as text: the
    constraint that asked for that bound; a bound the divisor rounded (``seq >= 8`` from ``seq >=
    1`` and a multiple of 8) names the divisor's source first."""
    parts = {p: (origin, asked) for p, origin, asked in analysis.graph.part_origins(name)}
    if part not in parts:
        origin = analysis.graph.fact_origin(name)
        text = f"the facts on {name}, last narrowed by {origin}" if origin is not None else f"symbol '{name}'"
        return origin is not None and _is_user(origin), text
    origin, asked = parts[part]
    if part != "divisor" and asked != value and "divisor" in parts:
        divisor_origin, k = parts["divisor"]
        sign = ">=" if part == "lo" else "<="
        text = f"{divisor_origin} (a multiple of {k}) with {origin} ({name} {sign} {asked})"
        return _is_user(divisor_origin) or _is_user(origin), text
    return _is_user(origin), str(origin)


def _symbol_conditions(name: str, f: SymbolFacts) -> list[str]:
    """The predicate texts a symbol's own range and divisor already cover (not checked twice)."""
    out = [f"Mod({name}, {f.divisor}) == 0"]
    if f.lo is not None:
        out.append(f"{f.lo} <= {name}")
    if f.hi is not None:
        out.append(f"{name} <= {f.hi}")
    return out


def _constant_right(lhs: Dim, rhs: Dim) -> tuple[Dim, Dim]:
    """``m + n - 12 <= 0`` as ``m + n <= 12`` (how a kept predicate reads best)."""
    if rhs != 0 or not isinstance(lhs, Expr):
        return lhs, rhs
    c = sum(coeff for mono, coeff in lhs.terms if not mono)
    return (add(lhs, -c), -c) if c else (lhs, rhs)


def _is_user(origin: Origin) -> bool:
    return origin.op_type == USER_ORIGIN
