"""The user's ``Dim`` names for torch's symbols, where the program still knows them.

``torch.export.export(..., dynamic_shapes={0: Dim("batch")})`` names its symbol ``s77``; the
in-memory program's shape env maps the symbol to its input sources and each source to the
``Dim`` name (``source_name_to_debug_name``). A saved ``.pt2`` keeps neither, so its dims keep
torch's names. A name two symbols would share is not used.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_SYMBOL = re.compile(r"\b[su]\d+\b")


def _shape_env(ep: Any) -> Any:
    for node in ep.graph.nodes:
        val = node.meta.get("val") if node.op == "placeholder" else None
        for d in getattr(val, "shape", ()):
            env = getattr(getattr(d, "node", None), "shape_env", None)
            if env is not None:
                return env
    return None


def dim_names(ep: Any) -> dict[str, str]:
    """Torch symbol -> the user's ``Dim`` name, for the symbols of ``ep.range_constraints``."""
    env = _shape_env(ep)
    debug: dict[str, str] = getattr(env, "source_name_to_debug_name", None) or {}
    sources: dict[Any, list[Any]] = getattr(env, "var_to_sources", None) or {}
    found: dict[str, str] = {}
    for sym in ep.range_constraints:
        names = {debug.get(_source_name(s)) for s in sources.get(sym, ())} - {None}
        if len(names) == 1:
            found[str(sym)] = str(names.pop())
    taken = Counter(found.values())
    used = {str(s) for s in ep.range_constraints}
    return {k: v for k, v in found.items() if taken[v] == 1 and v not in used and v.isidentifier()}


def renamed(text: str, names: dict[str, str]) -> str:
    """``text`` with torch's symbols replaced by their names."""
    return _SYMBOL.sub(lambda m: names.get(m.group(0), m.group(0)), text) if names else text


def _source_name(source: Any) -> str:
    name = source.name  # a property in torch 2.13, a method before
    return str(name() if callable(name) else name)
