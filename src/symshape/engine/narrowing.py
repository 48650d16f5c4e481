# pyright: strict
"""Which constraint narrowed a symbol's facts, part by part (its lower bound, upper bound and
divisor), with the value each asked for: what contradictions and failed checks name, so a bound a
user fact's divisor rounded is blamed on the fact, and ``seq <= 64`` on the op that set 64."""

from __future__ import annotations

from symshape.engine.facts import Bound, SymbolFacts
from symshape.engine.provenance import Origin

PARTS = ("divisor", "lo", "hi")


class Narrowing:
    """Per symbol: the parts of its facts a constraint narrowed, each with that constraint's
    origin and the value it asked for (a bound a divisor then rounded is kept as asked)."""

    def __init__(self) -> None:
        self._parts: dict[tuple[str, str], tuple[Origin, Bound]] = {}
        self._narrowed: set[str] = set()

    def copy(self) -> Narrowing:
        """An independent copy."""
        new = Narrowing()
        new._parts, new._narrowed = dict(self._parts), set(self._narrowed)
        return new

    def record(self, name: str, before: SymbolFacts, new: SymbolFacts, origin: Origin, asked: dict[str, Bound]) -> None:
        """``origin`` narrowed ``name`` from ``before`` to ``new``, asking for ``asked``."""
        self._narrowed.add(name)
        for part in PARTS:
            if getattr(new, part) != getattr(before, part):
                self._parts[(name, part)] = (origin, asked.get(part, getattr(new, part)))

    def parts(self, name: str) -> list[tuple[str, Origin, Bound]]:
        """The narrowed parts of ``name``: the part, the constraint's origin, the value it asked for."""
        return [(part, *self._parts[(name, part)]) for part in PARTS if (name, part) in self._parts]

    def narrowed(self, name: str) -> bool:
        """Whether a constraint other than the declaration narrowed the facts of ``name``."""
        return name in self._narrowed
