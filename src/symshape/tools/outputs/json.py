"""The ``symshape.analysis/1`` JSON document (its schema is in the README's "JSON output")."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TextIO

from symshape.algebra.expr import Dim
from symshape.tools.outputs import OutputOptions, output_format

if TYPE_CHECKING:
    from symshape.engine.result import Analysis

FORMAT = "symshape.analysis/1"


@output_format("json")
def write_json(result: Analysis, out: TextIO, options: OutputOptions) -> None:
    """The document with one line per top-level key and per value, and a final newline.

    Each line is encoded by json's C encoder (``indent`` takes its pure-Python path, which was
    half the whole-process time of a 25k-node model)."""
    doc = document(result)
    lines = ["{"]
    for k, (key, item) in enumerate(doc.items()):
        comma = "," if k < len(doc) - 1 else ""
        if key == "values" and item:
            rows = [f"  {json.dumps(name)}: {json.dumps(entry)}" for name, entry in item.items()]
            lines += [' "values": {', ",\n".join(rows), f" }}{comma}"]
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(item)}{comma}")
    out.write("\n".join(lines) + "\n}\n")


def document(result: Analysis) -> dict[str, Any]:
    """The document as plain data (`write_json` prints it)."""
    values: dict[str, Any] = {}
    for name in result.value_names():
        entry: dict[str, Any] = {"dims": [_jdim(d) for d in result.shape_or_none(name) or ()]}
        els = result.elements(name)
        if els is not None:
            entry["elements"] = [_jdim(d) for d in els]
        values[name] = entry
    text = result.public_text
    return {
        "format": FORMAT,
        "source": result.source,
        "symbols": {
            k: {key: v[key] for key in ("range", "divisor", "likely", "origin")} for k, v in result.symbols().items()
        },
        "facts": result.user_relations(),
        "values": values,
        "classes": [[[v, a] for v, a in c] for c in result.classes()],
        "guards": [{"condition": c, "origin": o, "reason": r} for c, o, r in result.guards()],
        "unresolved": [[u.value, u.axis, text(u.reason)] for u in result.unresolved],
        "causes": [
            {
                "op": g.cause.op_name,
                "op_type": g.cause.op_type,
                "reason": text(g.cause.reason),
                "fact": None if g.cause.fact is None else text(g.cause.fact),
                "symbols": list(g.symbols),
                "dims": [[v, a] for v, a in g.dims],
            }
            for g in result.causes()
        ],
        "warnings": [{"op": w.op_name, "op_type": w.op_type, "message": text(w.message)} for w in result.warnings],
        **({"notes": list(result.notes)} if result.notes else {}),
    }


def _jdim(d: Dim) -> int | str:
    return d if isinstance(d, int) else str(d)
