"""User facts: ``a + b == 1024``, ``seq <= 4096``, ``batch >= 1``, ``Mod(h, 8) == 0``,
``h % 8 == 0``, ``seq=1..4096`` (a range), ``seq~=128,512`` (likely values).

The same syntax serves ``--assume`` on the command line and ``facts=`` in the Python API. A
fact may only name symbols the program declares (or that an earlier fact introduced with
``name=LO..HI``), so a typo is an error, not a new unconstrained symbol.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from symshape.constraints import ConstraintGraph, Origin
from symshape.errors import ExpressionSyntaxError, UserFactError
from symshape.expr import Dim, Expr, ModAtom, add, as_symbol, mul
from symshape.parse import is_identifier, parse_dim

_REL = re.compile(r"(==|<=|>=|!=|<|>|=(?!=))")
_RANGE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$")
_LIKELY = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*~=\s*([\d,\s]+)$")


def apply_fact(graph: ConstraintGraph, text: str) -> None:
    """Apply one user fact to ``graph``; raise `UserFactError` when it cannot be used."""
    origin = Origin("user fact", text)
    m = _RANGE.match(text)
    if m:
        _apply_range(graph, m, text, origin)
        return
    if ".." in text:
        raise UserFactError(
            f"user fact '{text}' is not a range; write NAME=LO..HI with integer ends, either may be empty "
            "(seq=1..4096, batch=1..)"
        )
    m = _LIKELY.match(text)
    if m and _apply_likely(graph, m, text):
        return
    if "~=" in text:
        raise UserFactError(
            f"user fact '{text}': likely values are NAME=V1,V2,... with integers >= 0 (--likely seq=128,512)"
        )
    parts = _REL.split(text)
    if len(parts) != 3:
        raise UserFactError(
            f"user fact '{text}' is not a relation; write 'a + b == 1024', 'seq <= 4096', "
            "'h % 8 == 0', 'seq=1..4096' or 'seq~=128,512'"
        )
    lhs, rel, rhs = _side(parts[0], text, "left"), parts[1], _side(parts[2], text, "right")
    for d in (lhs, rhs):
        if isinstance(d, Expr):
            for name in d.free:
                _require_symbol(graph, name, text)
    _apply_relation(graph, lhs, rel, rhs, origin)


def _apply_range(graph: ConstraintGraph, m: re.Match[str], text: str, origin: Origin) -> None:
    """``NAME=LO..HI`` (either end may be empty)."""
    name, lo, hi = m.group(1), m.group(2), m.group(3)
    _require_symbol(graph, name, text)
    if lo is not None and hi is not None and int(lo) > int(hi):
        raise UserFactError(f"user fact '{text}': the range {lo}..{hi} is empty; write LO..HI with LO <= HI")
    graph.assume_range(
        graph.canon(parse_dim(name)), None if lo is None else int(lo), None if hi is None else int(hi), origin
    )


def _apply_likely(graph: ConstraintGraph, m: re.Match[str], text: str) -> bool:
    """``NAME~=V1,V2,...``; False when no value is listed."""
    name = m.group(1)
    _require_symbol(graph, name, text)
    values = tuple(int(v) for v in m.group(2).replace(" ", "").split(",") if v)
    if values:
        graph.facts.restrict(name, likely=values)
    return bool(values)


def _side(part: str, text: str, which: str) -> Dim:
    """One side of a relation; UserFactError naming the fact when it is empty or does not parse."""
    if not part.strip():
        raise UserFactError(f"user fact '{text}': the {which} side of the relation is empty; write e.g. 'seq <= 4096'")
    try:
        return parse_dim(part)
    except ExpressionSyntaxError as err:
        raise ExpressionSyntaxError(f"user fact '{text}': {err.args[0]}") from None


def _apply_relation(graph: ConstraintGraph, lhs: Dim, rel: str, rhs: Dim, origin: Origin) -> None:
    divisor = _mod_zero(lhs, rhs) if rel in ("==", "=") else None
    if divisor is not None:
        graph.assume_divisible(divisor[0], divisor[1], origin)
        return
    if isinstance(lhs, int) and not isinstance(rhs, int):  # put the constant on the right
        lhs, rhs, rel = rhs, lhs, _FLIP.get(rel, rel)
    if as_symbol(lhs) is not None and isinstance(rhs, int) and rel in _AS_RANGE:
        lo, hi = _AS_RANGE[rel](rhs)
        graph.assume_range(lhs, lo, hi, origin)
        return
    diff = add(lhs, mul(rhs, -1))
    if rel in ("==", "="):  # 'total == past + seq' defines total: keep past and seq
        graph.eq(lhs, rhs, origin, eliminate=as_symbol(lhs))
    elif rel == "<=":
        graph.assume_range(diff, None, 0, origin)
    elif rel == "<":
        graph.assume_range(diff, None, -1, origin)
    elif rel == ">=":
        graph.assume_range(diff, 0, None, origin)
    elif rel == ">":
        graph.assume_range(diff, 1, None, origin)
    else:
        raise UserFactError(f"user fact relation '{rel}' is not supported; use ==, <=, <, >= or >")


_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}
_AS_RANGE: dict[str, Callable[[int], tuple[int | None, int | None]]] = {
    "<=": lambda k: (None, k),
    "<": lambda k: (None, k - 1),
    ">=": lambda k: (k, None),
    ">": lambda k: (k + 1, None),
}


def _mod_zero(lhs: Dim, rhs: Dim) -> tuple[Dim, int] | None:
    """``Mod(x, k) == 0`` -> ``(x, k)``."""
    if rhs != 0 or not isinstance(lhs, Expr) or len(lhs.terms) != 1:
        return None
    mono, coeff = lhs.terms[0]
    if coeff == 1 and len(mono) == 1 and isinstance(mono[0], ModAtom) and isinstance(mono[0].den, int):
        return mono[0].num, mono[0].den
    return None


def _require_symbol(graph: ConstraintGraph, name: str, text: str) -> None:
    if not is_identifier(name):
        raise UserFactError(f"user fact '{text}': '{name}' is not a symbol name")
    if name not in graph.symbols:
        known = ", ".join(sorted(n for n, i in graph.symbols.items() if i.kind == "input")) or "none"
        raise UserFactError(
            f"user fact '{text}' names '{name}', which is not a symbol of this program; known input symbols: {known}"
        )
