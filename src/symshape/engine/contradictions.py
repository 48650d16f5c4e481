# pyright: strict
"""The wording of contradictions: what could not hold, and where each side came from.

DESIGN's wording, with the rule after the op as in `Origin`'s text: ``MatMul 'mm' (contraction):
dim 1 of 'x' (hidden = 768) must equal dim 0 of 'w' (512); 'hidden' = 768 since Reshape 'r'
(reshape element count)``. A symbol solved or range-restricted by another constraint is named
with that constraint's origin; a declared fact the message relies on is quoted. The constraint
graph builds the `ContradictionError` here and raises it; this module only reads the graph
(through `GraphView`), so the wording can change without touching the solver.
"""

from __future__ import annotations

from typing import Protocol

from symshape.algebra.expr import Dim, Expr, sym
from symshape.engine.facts import Bound, Facts, SymbolFacts
from symshape.engine.provenance import Ctx, Origin
from symshape.errors import ContradictionError

# The place is the origin as the constraint graph records it (``MatMul 'mm' (contraction)`` or
# ``user fact 'n <= 5'``), the same text guards use, so a contradiction and a guard name one op alike.
FIX = "check the two places it names (ops, inputs or user facts): at least one is wrong"


class GraphView(Protocol):
    """What the wording reads from the constraint graph."""

    @property
    def facts(self) -> Facts: ...

    def canon(self, d: Dim) -> Dim: ...

    def binding(self, name: str) -> tuple[Dim, Origin] | None: ...

    def fact_origin(self, name: str) -> Origin | None: ...

    def part_origins(self, name: str) -> list[tuple[str, Origin, Bound]]: ...

    def restricted(self, name: str) -> bool: ...

    def solved_to(self, value: int) -> list[str]: ...


def mismatch(graph: GraphView, origin: Origin, ctx: Ctx, extra: str = "") -> ContradictionError:
    """``<origin>: <left> must equal <right>[; extra][; sources]`` for an equation that cannot hold."""
    a, b, what = ctx
    a, b = _named_constant(graph, a), _named_constant(graph, b)
    left = _describe(what[0] if what else None, a, graph.canon(a))
    right = _describe(what[1] if what else None, b, graph.canon(b))
    why = f"; {extra}" if extra else ""
    return ContradictionError(
        where=str(origin),
        found=f"{left} must equal {right}{why}{sources_text(graph, (a, b))}",
        expected="two sides that can be equal for some input size",
        fix=FIX,
    )


def symbol_outside(name: str, facts: SymbolFacts) -> str:
    """``'n' lies in [lo, hi] and is a multiple of k``: why a value cannot be ``name``'s."""
    return f"'{name}' lies in {range_text(facts)}{divisor_text(facts)}"


def symbol_range_conflict(
    graph: GraphView, origin: Origin, d: Dim, name: str, wanted: tuple[Bound, Bound], before: SymbolFacts
) -> ContradictionError:
    """A range asked for symbol ``name`` (as ``d``) that misses the range it already has. When a
    user fact set part of that range, the error is the fact's: it is named first, then the
    program's own bound it meets, and the op that needs another range."""
    sources = fact_sources(graph, name)
    user = next((o for o, _ in sources if o.op_type == USER_FACT), None)
    if user is not None and origin.op_type != USER_FACT:
        others = [f"{o} ({what})" for o, what in sources if o != user]
        joined = f"with {' and '.join(others)}, " if others else ""
        return ContradictionError(
            where=str(user),
            found=f"{joined}it leaves '{name}' only {range_text(before)}, but {origin} needs '{d}' in "
            f"{range_text(SymbolFacts(*wanted))}",
            expected="a fact that the program's sizes can meet",
            fix="drop or correct the user fact (or check the ops it names)",
        )
    return ContradictionError(
        where=str(origin),
        found=f"'{d}' must lie in {range_text(SymbolFacts(*wanted))}, but "
        f"{fact_source(graph, name)} already bounds it to {range_text(before)}",
        expected="ranges that overlap",
        fix=FIX,
    )


def range_conflict(
    graph: GraphView, origin: Origin, shown: Dim, given: Dim, wanted: tuple[Bound, Bound], has: tuple[Bound, Bound]
) -> ContradictionError:
    """A range asked for an expression whose bounds ``has`` miss it."""
    return ContradictionError(
        where=str(origin),
        found=f"'{shown}' must lie in {range_text(SymbolFacts(*wanted))}, but it lies in "
        f"{range_text(SymbolFacts(*has))}{sources_text(graph, (given,))}",
        expected="a range that meets the bounds it has",
        fix=FIX,
    )


def divisibility_conflict(origin: Origin, d: Dim, value: int, k: int) -> ContradictionError:
    """A constant that should be a multiple of ``k`` and is not."""
    return ContradictionError(
        where=str(origin),
        found=f"'{d}' = {value} must be divisible by {k}",
        expected=f"a multiple of {k}",
        fix=FIX,
    )


def no_multiple_in_range(
    graph: GraphView, origin: Origin, d: Dim, name: str, k: int, before: SymbolFacts
) -> ContradictionError:
    """A divisor asked for symbol ``name`` (as ``d``) that no value of its range has."""
    return ContradictionError(
        where=str(origin),
        found=f"'{d}' must be divisible by {k}, but {fact_source(graph, name)} bounds it to "
        f"{range_text(before)}, which holds no multiple of {k}",
        expected=f"a range that holds a multiple of {k}",
        fix=FIX,
    )


USER_FACT = "user fact"  # the op_type of a user fact's origin (`symshape.engine.userfacts.record.apply`)


def fact_sources(graph: GraphView, name: str) -> list[tuple[Origin, str]]:
    """Each constraint that set part of the facts of ``name``, with what it asked for (``a
    multiple of 128``, ``seq <= 64``); user facts first."""
    said: dict[Origin, list[str]] = {}
    for part, origin, value in graph.part_origins(name):
        if value is None:
            continue
        text = f"a multiple of {value}" if part == "divisor" else f"{name} {'>=' if part == 'lo' else '<='} {value}"
        said.setdefault(origin, []).append(text)
    ordered = sorted(said.items(), key=lambda item: item[0].op_type != USER_FACT)
    return [(origin, ", ".join(parts)) for origin, parts in ordered]


def fact_source(graph: GraphView, name: str) -> str:
    """The origins of the facts of ``name``, as text (user facts first)."""
    origin = graph.fact_origin(name)
    return str(origin) if origin else "an earlier fact"


def facts_text(graph: GraphView, d: Dim) -> str:
    """The declared facts of the symbols in ``d`` that no other constraint set (those are
    named with their origin by `sources_text`)."""
    lo, hi = graph.facts.tight_bounds(d)
    by_range = (lo is not None and lo > 0) or (hi is not None and hi < 0)
    parts: list[str] = []
    for name in sorted(d.free) if isinstance(d, Expr) else ():
        f = graph.facts.get(name)
        shown = (f.lo is not None or f.hi is not None) if by_range else f.divisor > 1
        if not graph.restricted(name) and shown:
            parts.append(symbol_outside(name, f))
    return "; ".join(parts)


def sources_text(graph: GraphView, dims: tuple[Dim, ...]) -> str:
    """``; 'n' = 'a*b' since <origin>; 'm' in [0, 5] since <origin>`` for the symbols of
    ``dims`` that were bound or range-restricted by another constraint."""
    sources: list[str] = []
    names = sorted({n for d in dims if isinstance(d, Expr) for n in d.free})
    for name in names:
        bound = graph.binding(name)
        if bound is not None:
            value = bound[0] if isinstance(bound[0], int) else f"'{bound[0]}'"
            sources.append(f"'{name}' = {value} since {bound[1]}")
        elif graph.restricted(name):
            f = graph.facts.get(name)
            sources.append(f"'{name}' in {range_text(f)}{divisor_text(f)} since {fact_source(graph, name)}")
    return "".join(f"; {s}" for s in sources)


def range_text(f: SymbolFacts) -> str:
    """``[lo, hi]`` with infinite ends spelled out."""
    return f"[{'-inf' if f.lo is None else f.lo}, {'inf' if f.hi is None else f.hi}]"


def divisor_text(f: SymbolFacts) -> str:
    """`` and is a multiple of k`` (empty when no divisor is known)."""
    return f" and is a multiple of {f.divisor}" if f.divisor > 1 else ""


def _named_constant(graph: GraphView, d: Dim) -> Dim:
    """A rule sees canonical dims, so a declared name solved to a constant reaches it as that
    constant: give the name back (``hidden`` for 768) when exactly one input or user symbol
    was solved to ``d``, so the message can say where the constant came from."""
    if not isinstance(d, int):
        return d
    names = graph.solved_to(d)
    return sym(names[0]) if len(names) == 1 else d


def _describe(what: str | None, raw: Dim, canon: Dim) -> str:
    shown = str(canon) if raw is canon or str(raw) == str(canon) else f"{raw} = {canon}"
    return f"{what} ({shown})" if what else f"'{shown}'"


__all__ = [
    "GraphView",
    "divisibility_conflict",
    "fact_source",
    "facts_text",
    "mismatch",
    "range_conflict",
    "range_text",
    "sources_text",
    "symbol_outside",
    "symbol_range_conflict",
]
