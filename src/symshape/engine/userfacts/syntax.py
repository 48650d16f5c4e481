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
from collections.abc import Iterable, Sequence

from symshape.algebra.expr import Dim
from symshape.algebra.parse import MAX_DIGITS, parse_dim
from symshape.engine.userfacts.values import (
    LIKELY_FACT,
    LIKELY_OPTION,
    Fact,
    InputValue,
    Likely,
    Range,
    bad_likely,
    empty_range,
    relation,
)
from symshape.errors import ExpressionSyntaxError, UserFactError, where_fact, where_option

_REL = re.compile(r"(==|<=|>=|!=|<|>|=(?!=))")
_NAME = r"([A-Za-z_][A-Za-z0-9_.]*)"
_RANGE = re.compile(rf"^\s*{_NAME}\s*=\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$")
_LIKELY = re.compile(rf"^\s*{_NAME}\s*~=\s*([\d,\s]+)$")
_LIKELY_OPTION = re.compile(rf"^\s*{_NAME}\s*=\s*([\d,\s]+)$")
_VALUE_OPTION = re.compile(r"^\s*([^=\s][^=]*?)\s*=\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*$")


def as_facts(items: Iterable[Fact | str]) -> list[Fact]:
    """Fact values as they are, strings read with `parse_fact` (the Python API's convenience)."""
    return [parse_fact(item) if isinstance(item, str) else item for item in items]


def parse_fact(text: str) -> Fact:
    """Read one fact in ``--assume`` syntax; UserFactError / ExpressionSyntaxError say what to write."""
    if _RANGE.match(text):
        return parse_range(text, where_fact(text))
    if ".." in text:
        raise _not_a_range(where_fact(text))
    m = _LIKELY.match(text)
    values = _sizes(m.group(2), where_fact(text)) if m else ()
    if m and values:
        return Likely(m.group(1), values)
    if "~=" in text:
        raise bad_likely(where_fact(text), LIKELY_FACT)
    parts = _REL.split(text)
    if len(parts) != 3:
        raise UserFactError(
            where=where_fact(text),
            found="it is not a relation",
            expected="one relation (==, <=, <, >=, >, !=) between two expressions, a range NAME=LO..HI "
            "or likely values NAME~=V1,V2",
            fix="write e.g. 'a + b == 1024', 'seq <= 4096', 'h % 8 == 0', 'seq=1..4096' or 'seq~=128,512'",
        )
    op = "==" if parts[1] == "=" else parts[1]
    return relation(_side(parts[0], text, "left"), op, _side(parts[2], text, "right"))


def parse_range(text: str, where: str | None = None) -> Range:
    """``NAME=LO..HI`` (``--dim``; either end may be empty). ``where`` names the text in errors
    (default: the ``--dim`` value)."""
    place = where_option("--dim", text) if where is None else where
    m = _RANGE.match(text)
    if not m:
        raise _not_a_range(place)
    name = m.group(1)
    lo, hi = (None if end is None else _int(end, place) for end in (m.group(2), m.group(3)))
    if lo is not None and hi is not None and lo > hi:
        raise empty_range(place, lo, hi)
    return Range(name, lo, hi)


def parse_likely(text: str) -> Likely:
    """``NAME=V1,V2,...`` (``--likely``)."""
    m = _LIKELY_OPTION.match(text)
    values = _sizes(m.group(2), where_option("--likely", text)) if m else ()
    if not m or not values:
        raise bad_likely(where_option("--likely", text), LIKELY_OPTION)
    return Likely(m.group(1), values)


def parse_value(text: str) -> InputValue:
    """``INPUT=V1,V2,...`` (``--value``): the flattened contents of an integer graph input."""
    m = _VALUE_OPTION.match(text)
    if not m:
        raise UserFactError(
            where=where_option("--value", text),
            found="not an input's value",
            expected="INPUT=V or INPUT=V1,V2,... (integers, the input's elements in row-major order)",
            fix="write e.g. --value sr=16000",
        )
    where = where_option("--value", text)
    return InputValue(m.group(1), tuple(_int(v.strip(), where) for v in m.group(2).split(",")))


def _sizes(text: str, where: str) -> tuple[int, ...]:
    return tuple(_int(v, where) for v in re.sub(r"\s", "", text).split(",") if v)


def _int(text: str, where: str) -> int:
    """``int(text)``, or UserFactError for a number too long to be a size."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise UserFactError(
            where=where,
            found=f"a number has {len(text.lstrip('-'))} digits",
            expected=f"at most {MAX_DIGITS} digits",
            fix="give sizes as plain integers",
        )
    return int(text)


def _not_a_range(where: str) -> UserFactError:
    return UserFactError(
        where=where,
        found="it is not a range",
        expected="NAME=LO..HI with integer ends, either may be empty",
        fix="write e.g. seq=1..4096 or batch=1..",
    )


def _side(part: str, text: str, which: str) -> Dim:
    """One side of a relation; UserFactError naming the fact when it is empty or does not parse."""
    if not part.strip():
        raise UserFactError(
            where=where_fact(text),
            found=f"the {which} side of the relation is empty",
            expected="an expression on each side",
            fix="write e.g. 'seq <= 4096'",
        )
    try:
        return parse_dim(part)
    except ExpressionSyntaxError as err:
        raise ExpressionSyntaxError(
            where=where_fact(text),
            found=f"in its {which} side '{part.strip()}', {err.found}",
            expected=err.expected,
            fix=err.fix,
        ) from None


__all__ = ["as_facts", "parse_fact", "parse_likely", "parse_range", "parse_value"]


def from_options(
    assume: Sequence[str], dim: Sequence[str], likely: Sequence[str], value: Sequence[str] = ()
) -> list[Fact]:
    """``--assume FACT``, ``--dim NAME=LO..HI``, ``--likely NAME=V,..`` and ``--value INPUT=V,..``
    read into fact values (the one place the command lines read fact text)."""
    return [*(parse_fact(item) for item in assume), *(parse_range(item) for item in dim),
            *(parse_likely(item) for item in likely), *(parse_value(item) for item in value)]
