# pyright: strict
"""Fact values: what a user, a frontend or loaded constraint IR states about the input symbols.

Four kinds, frozen and hashable, over `symshape.algebra.expr.Dim` expressions:

* `Range` ``lo <= symbol <= hi`` (``seq=1..4096``),
* `Divisible` ``k | expr`` (``Mod(h, 8) == 0``),
* `Likely` values of a symbol (``seq~=128,512``), a hint for verification and printing,
* `Relation` ``lhs op rhs`` (``a + b == 1024``, ``seq <= 4096``);

and `InputValue`, the contents of an integer graph input (``--value sr=16000``), which decides
the path a model takes on that value (an ``If`` on ``sr == 16000``).

Inside symshape facts travel as these values. ``str(fact)`` prints the ``--assume`` syntax for
messages and JSON only; `symshape.engine.userfacts.syntax` is the one reader of that syntax, used at the
edge (the command line and the string convenience of the Python API). A value is in canonical
form when reading its text gives it back: a relation ``Mod(x, k) == 0`` is the `Divisible` fact,
and a `Divisible` keeps the operand ``Mod`` keeps (``Mod(a + 8, 8)`` is ``Mod(a, 8)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from symshape.algebra.expr import Dim, Expr, ModAtom, free_symbols
from symshape.errors import UserFactError, where_fact

OPS = ("==", "<=", "<", ">=", ">", "!=")
"""The relations a `Relation` may state."""


@dataclass(frozen=True)
class Range:
    """``lo <= symbol <= hi``; None leaves that side open."""

    symbol: str
    lo: int | None = None
    hi: int | None = None

    def __post_init__(self) -> None:
        if self.lo is not None and self.hi is not None and self.lo > self.hi:
            raise empty_range(where_fact(str(self)), self.lo, self.hi)

    def __str__(self) -> str:
        return f"{self.symbol}={_end(self.lo)}..{_end(self.hi)}"

    @property
    def symbols(self) -> frozenset[str]:
        """The symbol names the fact mentions."""
        return frozenset((self.symbol,))


@dataclass(frozen=True)
class Divisible:
    """``k`` divides ``expr`` (``k >= 1``)."""

    expr: Dim
    k: int

    def __post_init__(self) -> None:
        if self.k < 1:
            raise UserFactError(
                where=where_fact(str(self)),
                found=f"the divisor {self.k} is not positive",
                expected="a divisor >= 1",
                fix="write e.g. 'Mod(h, 8) == 0'",
            )

    def __str__(self) -> str:
        return f"Mod({self.expr}, {self.k}) == 0"

    @property
    def symbols(self) -> frozenset[str]:
        """The symbol names the fact mentions."""
        return free_symbols(self.expr)


@dataclass(frozen=True)
class Likely:
    """Sizes ``symbol`` is likely to take (non-negative, at least one)."""

    symbol: str
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.values or any(v < 0 for v in self.values):
            raise bad_likely(where_fact(str(self)), LIKELY_FACT)

    def __str__(self) -> str:
        return f"{self.symbol}~={','.join(str(v) for v in self.values)}"

    @property
    def symbols(self) -> frozenset[str]:
        """The symbol names the fact mentions."""
        return frozenset((self.symbol,))


@dataclass(frozen=True)
class Relation:
    """``lhs op rhs`` with ``op`` one of `OPS`."""

    lhs: Dim
    op: str
    rhs: Dim

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise UserFactError(
                where=where_fact(str(self)),
                found=f"the relation '{self.op}' is unknown",
                expected=f"one of {', '.join(OPS)}",
                fix="write the relation with one of those",
            )

    def __str__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"

    @property
    def symbols(self) -> frozenset[str]:
        """The symbol names the fact mentions."""
        return free_symbols(self.lhs) | free_symbols(self.rhs)


@dataclass(frozen=True)
class InputValue:
    """The contents of graph input ``input``, flattened (``--value sr=16000``)."""

    input: str
    values: tuple[int, ...]

    def __str__(self) -> str:
        return f"--value {self.input}={','.join(str(v) for v in self.values)}"

    @property
    def symbols(self) -> frozenset[str]:
        """No symbol: the fact is about a value, recorded by the walk (`symshape.rules.walker`)."""
        return frozenset()


Fact = Range | Divisible | Likely | Relation | InputValue
"""Any fact value; `symshape.engine.userfacts.record.apply` records one in a constraint graph."""


def relation(lhs: Dim, op: str, rhs: Dim) -> Divisible | Relation:
    """The canonical fact for ``lhs op rhs``: `Divisible` for ``Mod(x, k) == 0``, else `Relation`."""
    if op == "==" and rhs == 0 and isinstance(lhs, Expr) and len(lhs.terms) == 1:
        mono, coeff = lhs.terms[0]
        atom = mono[0] if len(mono) == 1 else None
        if coeff == 1 and isinstance(atom, ModAtom) and isinstance(atom.den, int) and atom.den > 0:
            return Divisible(atom.num, atom.den)
    return Relation(lhs, op, rhs)


LIKELY_FACT = "NAME~=V1,V2,..."
"""How likely values are written as a fact (``--assume``); ``--likely`` takes ``NAME=V1,V2,...``."""
LIKELY_OPTION = "NAME=V1,V2,..."


def empty_range(where: str, lo: int, hi: int) -> UserFactError:
    """The error for a range whose ends are the wrong way round (``where``: the fact or option)."""
    return UserFactError(
        where=where,
        found=f"the range {lo}..{hi} is empty",
        expected="LO..HI with LO <= HI",
        fix="write the smaller end first",
    )


def bad_likely(where: str, form: str) -> UserFactError:
    """The error for likely values that are not a list of sizes, written in ``form``."""
    return UserFactError(
        where=where,
        found="the likely values are not a list of sizes",
        expected=f"{form} with integers >= 0",
        fix="write e.g. --likely seq=128,512 or --assume 'seq~=128,512'",
    )


def _end(bound: int | None) -> str:
    return "" if bound is None else str(bound)


__all__ = ["OPS", "Divisible", "Fact", "InputValue", "Likely", "Range", "Relation", "relation"]
