"""The attribute values both MLIR readers give the rules (xDSL's and the bindings'), in plain
Python: kept apart from `symshape.frontends.mlir.attributes` so that the bindings reader never imports
xDSL (its import alone costs ~0.6 s)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_BOUNDS = re.compile(r"#(?:stablehlo\.bounds<(.*)>|mhlo\.type_extensions<\s*bounds\s*=\s*\[(.*)\]\s*>)", re.S)


def encoding_bounds(encoding: str, rank: int) -> tuple[int | None, ...] | None:
    """The upper bound of each dim a tensor type's encoding declares (``?`` is none), or None
    when it declares none: ``#stablehlo.bounds<16, ?>`` and mhlo's ``#mhlo.type_extensions<bounds
    = [16, ?]>`` (https://openxla.org/stablehlo/dynamism). A list of the wrong length is no
    bound: the verifier refuses it, and a bound read wrong would be a false fact."""
    m = _BOUNDS.fullmatch(encoding.strip())
    if m is None:
        return None
    items = split_top(m.group(1) if m.group(1) is not None else m.group(2))
    if len(items) != rank or not all(i == "?" or i.isdigit() for i in items):
        return None
    bounds = tuple(None if i == "?" else int(i) for i in items)
    return bounds if any(b is not None for b in bounds) else None


@dataclass(frozen=True)
class DialectAttr:
    """An attribute of an unregistered dialect: ``#stablehlo.dot<...>`` -> name and fields."""

    name: str
    fields: dict[str, Any]
    text: str


def dialect_attr(name: str, body: str) -> DialectAttr:
    """``#stablehlo.dot<lhs_contracting_dimensions = [1], ...>`` and ``#stablehlo<comparison_direction GE>``."""
    text = body.strip()
    short = name.split(".", 1)[1] if "." in name else name
    if "=" not in text:
        return DialectAttr(short, {"value": text}, text)
    fields: dict[str, Any] = {}
    for part in split_top(text):
        key, _, value = part.partition("=")
        fields[key.strip()] = _field_value(value.strip())
    return DialectAttr(short, fields, text)


def split_top(text: str) -> list[str]:
    """``text`` split at the commas outside brackets, stripped, empty parts dropped."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, c in enumerate(text):
        if c in "[(<{":
            depth += 1
        elif c in "])>}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in (p.strip() for p in parts) if p]


def _field_value(text: str) -> Any:
    if text.startswith("[") and text.endswith("]"):
        items = split_top(text[1:-1])
        try:
            return [int(i) for i in items]
        except ValueError:
            return items
    try:
        return int(text)
    except ValueError:
        return text
