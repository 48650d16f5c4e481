# pyright: strict
"""Record a fact value in a constraint graph, with its origin.

A fact may only name symbols the program declares, so a typo is an error, not a new
unconstrained symbol. ``total == past + seq`` defines ``total`` (the left-hand symbol is the one
eliminated); ``seq <= 4096`` tightens the symbol's range; a relation of compound sides is kept as
a predicate of the graph.
"""

from __future__ import annotations

from collections.abc import Callable

from symshape.algebra.expr import Dim, add, as_symbol, mod, mul, sym
from symshape.algebra.parse import is_identifier
from symshape.engine.constraints import ConstraintGraph
from symshape.engine.contradictions import USER_FACT
from symshape.engine.provenance import Origin
from symshape.engine.userfacts.syntax import parse_fact
from symshape.engine.userfacts.values import Divisible, Fact, InputValue, Likely, Range, Relation, relation
from symshape.errors import UserFactError, where_fact


def apply(graph: ConstraintGraph, fact: Fact, origin: Origin | None = None) -> None:
    """Record ``fact`` in ``graph`` (origin: ``user fact '<fact>'`` unless given); raise
    `UserFactError` when it cannot be used, `ContradictionError` when it contradicts the graph."""
    origin = origin or Origin(USER_FACT, str(fact))
    for name in sorted(fact.symbols):
        _require_symbol(graph, name, fact)
    if isinstance(fact, Range):
        graph.assume_range(graph.canon(sym(fact.symbol)), fact.lo, fact.hi, origin)
    elif isinstance(fact, Divisible):
        _apply_divisible(graph, fact, origin)
    elif isinstance(fact, Likely):
        graph.facts.restrict(fact.symbol, likely=fact.values)
    elif isinstance(fact, InputValue):
        return  # about a value, not a symbol: the walk records it (`symshape.rules.walker.input_values`)
    else:
        _apply_relation(graph, fact, origin, fact)


def apply_fact(graph: ConstraintGraph, text: str) -> None:
    """`apply` of a fact in ``--assume`` syntax (a convenience for tests and interactive use)."""
    apply(graph, parse_fact(text))


def _apply_divisible(graph: ConstraintGraph, fact: Divisible, origin: Origin) -> None:
    """``Mod(expr, k) == 0``: a divisibility fact when ``Mod`` keeps ``expr`` whole, else the
    equation (``Mod(2*x, 4)`` is ``2*Mod(x, 2)``, and solving it teaches ``2 | x``)."""
    canonical = relation(mod(fact.expr, fact.k), "==", 0)
    if isinstance(canonical, Divisible):
        graph.assume_divisible(canonical.expr, canonical.k, origin)
    else:
        _apply_relation(graph, canonical, origin, fact)


def _apply_relation(graph: ConstraintGraph, fact: Relation, origin: Origin, given: Fact) -> None:
    """Record ``fact``, the relation ``given`` states (named in errors as the user wrote it)."""
    lhs, rel, rhs = fact.lhs, fact.op, fact.rhs
    if isinstance(lhs, int) and not isinstance(rhs, int):  # put the constant on the right
        lhs, rhs, rel = rhs, lhs, _FLIP.get(rel, rel)
    if as_symbol(lhs) is not None and isinstance(rhs, int) and rel in _AS_RANGE:
        lo, hi = _AS_RANGE[rel](rhs)
        graph.assume_range(lhs, lo, hi, origin)
        return
    diff: Dim = add(lhs, mul(rhs, -1))
    if rel == "==":  # 'total == past + seq' defines total: keep past and seq
        graph.eq(lhs, rhs, origin, eliminate=as_symbol(lhs))
    elif rel in _DIFF_RANGE:
        lo, hi = _DIFF_RANGE[rel]
        graph.assume_range(diff, lo, hi, origin)
    else:
        raise UserFactError(
            where=where_fact(str(given)),
            found=f"the relation '{rel}' cannot be recorded as a fact",
            expected="one of ==, <=, <, >= or >",
            fix="state what is known with one of those relations",
        )


_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}
_AS_RANGE: dict[str, Callable[[int], tuple[int | None, int | None]]] = {
    "<=": lambda k: (None, k),
    "<": lambda k: (None, k - 1),
    ">=": lambda k: (k, None),
    ">": lambda k: (k + 1, None),
}
_DIFF_RANGE: dict[str, tuple[int | None, int | None]] = {  # lhs - rhs lies in
    "<=": (None, 0),
    "<": (None, -1),
    ">=": (0, None),
    ">": (1, None),
}


def _require_symbol(graph: ConstraintGraph, name: str, fact: Fact) -> None:
    if not is_identifier(name):
        raise UserFactError(
            where=where_fact(str(fact)),
            found=f"'{name}' is not a symbol name",
            expected="a name of letters, digits, '_' and '.' that does not start with a digit",
            fix="name the symbol as the program declares it",
        )
    if name not in graph.symbols:
        known = ", ".join(sorted(n for n, i in graph.symbols.items() if i.kind == "input")) or "none"
        raise UserFactError(
            where=where_fact(str(fact)),
            found=f"names '{name}', which is not a symbol of this program",
            expected=f"one of the known input symbols: {known}",
            fix="use one of those names",
        )


__all__ = ["apply", "apply_fact"]
