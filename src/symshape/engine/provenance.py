# pyright: strict
"""Provenance: where a symbol or constraint came from, and the records of the constraint graph
that carry it (symbols, guards, kept predicates, residual equations).

Every constraint keeps its `Origin`, so a contradiction can name both sides' sources and a guard
can say which op needed it (DESIGN: provenance everywhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from symshape.algebra.expr import Dim

Ctx = tuple[Dim, Dim, tuple[str, str] | None]  # the two sides as given, and how to name them
Rel = Literal["==", "!=", "<=", "<", ">=", ">"]
"""How two dims compare in a guard or a decision."""
PredicateRel = Literal["<=", "<", "divisible"]
"""How the two sides of a kept predicate relate (``divisible``: rhs divides lhs)."""
SymbolKind = Literal["input", "user", "derived", "data"]
"""Where a symbol comes from: a graph input's dim, a user fact, a rule, or a data-dependent value."""


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
    kind: SymbolKind
    origin: Origin
    index: int


@dataclass(frozen=True)
class Guard:
    """An assumption the analysis needed: ``lhs rel rhs`` (rel is ``==``, ``>=``, ``!=``)."""

    lhs: Dim
    rel: Rel
    rhs: Dim
    origin: Origin
    reason: str = ""


@dataclass(frozen=True)
class Predicate:
    """A kept predicate: ``lhs rel rhs`` with rel ``<=``, ``<`` or ``divisible`` (rhs | lhs)."""

    lhs: Dim
    rel: PredicateRel
    rhs: Dim
    origin: Origin


@dataclass(frozen=True)
class Broadcast:
    """Two dims an op broadcasts together (numpy rules): valid when they are equal or one is 1.
    The result is exact for every valid broadcast (`symshape.rules.shared.common.broadcast_dim`),
    so this is no guard: it is what the program requires to run, kept for the run-time checks
    and for the sizes ``verify`` picks."""

    lhs: Dim
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


__all__ = [
    "Broadcast", "Ctx", "Guard", "Origin", "Predicate", "PredicateRel", "Rel", "Residual", "SymbolInfo", "SymbolKind",
]


def holds(lhs: int, rel: str, rhs: int) -> bool:
    """Whether a guard's or predicate's relation holds between two sizes."""
    return {
        "==": lhs == rhs,
        "!=": lhs != rhs,
        ">=": lhs >= rhs,
        ">": lhs > rhs,
        "<=": lhs <= rhs,
        "<": lhs < rhs,
        "divisible": rhs != 0 and lhs % rhs == 0,
        "broadcasts": lhs == rhs or lhs == 1 or rhs == 1,
    }[rel]
