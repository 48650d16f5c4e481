# pyright: strict
"""The ``--assume`` syntax, read once at the edge into fact values.

``a + b == 1024``, ``seq <= 4096``, ``batch >= 1``, ``Mod(h, 8) == 0``, ``h % 8 == 0`` (a
`Relation`, or `Divisible` for ``... == 0`` of a ``Mod``), ``seq=1..4096`` (a `Range`, either end
may be empty), ``seq~=128,512`` (`Likely` values). ``--dim NAME=LO..HI`` and ``--likely
NAME=V1,V2`` have their own readers. Only the command line and the string convenience of the
Python API (`as_facts`) call these; everything inside symshape hands over values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from symshape.errors import ExpressionSyntaxError, UserFactError
from symshape.expr import Dim
from symshape.parse import parse_dim
from symshape.userfacts.values import Fact, Likely, Range, empty_range, likely_syntax, relation

_REL = re.compile(r"(==|<=|>=|!=|<|>|=(?!=))")
_NAME = r"([A-Za-z_][A-Za-z0-9_.]*)"
_RANGE = re.compile(rf"^\s*{_NAME}\s*=\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$")
_LIKELY = re.compile(rf"^\s*{_NAME}\s*~=\s*([\d,\s]+)$")
_LIKELY_OPTION = re.compile(rf"^\s*{_NAME}\s*=\s*([\d,\s]+)$")


def as_facts(items: Iterable[Fact | str]) -> list[Fact]:
    """Fact values as they are, strings read with `parse_fact` (the Python API's convenience)."""
    return [parse_fact(item) if isinstance(item, str) else item for item in items]


def parse_fact(text: str) -> Fact:
    """Read one fact in ``--assume`` syntax; UserFactError / ExpressionSyntaxError say what to write."""
    if _RANGE.match(text):
        return parse_range(text)
    if ".." in text:
        raise _not_a_range(text)
    m = _LIKELY.match(text)
    values = _sizes(m.group(2)) if m else ()
    if m and values:
        return Likely(m.group(1), values)
    if "~=" in text:
        raise UserFactError(likely_syntax(text))
    parts = _REL.split(text)
    if len(parts) != 3:
        raise UserFactError(
            f"user fact '{text}' is not a relation; write 'a + b == 1024', 'seq <= 4096', "
            "'h % 8 == 0', 'seq=1..4096' or 'seq~=128,512'"
        )
    op = "==" if parts[1] == "=" else parts[1]
    return relation(_side(parts[0], text, "left"), op, _side(parts[2], text, "right"))


def parse_range(text: str) -> Range:
    """``NAME=LO..HI`` (``--dim``; either end may be empty)."""
    m = _RANGE.match(text)
    if not m:
        raise _not_a_range(text)
    name, lo, hi = m.group(1), m.group(2), m.group(3)
    if lo is not None and hi is not None and int(lo) > int(hi):
        raise UserFactError(empty_range(text, int(lo), int(hi)))
    return Range(name, None if lo is None else int(lo), None if hi is None else int(hi))


def parse_likely(text: str) -> Likely:
    """``NAME=V1,V2,...`` (``--likely``)."""
    m = _LIKELY_OPTION.match(text)
    values = _sizes(m.group(2)) if m else ()
    if not m or not values:
        raise UserFactError(likely_syntax(text))
    return Likely(m.group(1), values)


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.replace(" ", "").split(",") if v)


def _not_a_range(text: str) -> UserFactError:
    return UserFactError(
        f"user fact '{text}' is not a range; write NAME=LO..HI with integer ends, either may be empty "
        "(seq=1..4096, batch=1..)"
    )


def _side(part: str, text: str, which: str) -> Dim:
    """One side of a relation; UserFactError naming the fact when it is empty or does not parse."""
    if not part.strip():
        raise UserFactError(f"user fact '{text}': the {which} side of the relation is empty; write e.g. 'seq <= 4096'")
    try:
        return parse_dim(part)
    except ExpressionSyntaxError as err:
        raise ExpressionSyntaxError(f"user fact '{text}': {err.args[0]}") from None


__all__ = ["as_facts", "parse_fact", "parse_likely", "parse_range"]
