# pyright: strict
"""Checks of a parsed ModelProto for what protobuf parsing lets through.

ONNX's schema is proto2, which does not validate strings: a name that is not UTF-8 comes back
as ``bytes`` (with the upb runtime) and would break every use of it later. An opset version
below 1 would pick the oldest form of every rule (version 0 is how symshape spells "newest"),
and one beyond 32 bits cannot be looked up in ONNX's schema tables. Both are malformed input.
"""

from __future__ import annotations

from collections.abc import Iterable

import onnx

from symshape.errors import FIX_MODEL, ModelError, where_graph

MAX_OPSET = 2**31 - 1


def check_opsets(model: onnx.ModelProto, where: str) -> None:
    """ModelError when an ``opset_import`` version is not in ``[1, MAX_OPSET]``."""
    for o in model.opset_import:
        _require_text(o.domain, where, "an opset_import domain")
        if not 1 <= o.version <= MAX_OPSET:
            domain = o.domain or "ai.onnx"
            raise ModelError(
                where=where,
                found=f"the opset_import of domain '{domain}' has version {o.version}",
                expected=f"a version from 1 to {MAX_OPSET}",
                fix=FIX_MODEL,
            )


def check_text(graph: onnx.GraphProto) -> None:
    """ModelError naming the first name in ``graph`` (or a subgraph) that is not UTF-8 text."""
    where = where_graph(_shown(graph.name))
    _require_text(graph.name, where, "the graph name")
    for vi in [*graph.input, *graph.output, *graph.value_info]:
        _require_text(vi.name, where, "a value name")
        t = vi.type
        while t.HasField("optional_type"):
            t = t.optional_type.elem_type
        if t.HasField("tensor_type"):
            _require_all((d.dim_param for d in t.tensor_type.shape.dim), where, f"a dim_param of '{_shown(vi.name)}'")
    _require_all((t.name for t in graph.initializer), where, "an initializer name")
    for index, node in enumerate(graph.node):
        what = f"node #{index}"
        _require_all((node.name, node.op_type, node.domain), where, f"the name, op type or domain of {what}")
        _require_all(node.input, where, f"an input name of {what}")
        _require_all(node.output, where, f"an output name of {what}")
        for a in node.attribute:
            _require_all((a.name, a.ref_attr_name, a.t.name), where, f"an attribute name of {what}")
            if a.HasField("g"):
                check_text(a.g)
            for g in a.graphs:
                check_text(g)


def _shown(name: str | bytes) -> str:
    return name if isinstance(name, str) else name.decode("utf-8", "replace")


def _require_all(texts: Iterable[str | bytes], where: str, what: str) -> None:
    for text in texts:
        _require_text(text, where, what)


def _require_text(text: str | bytes, where: str, what: str) -> None:
    if not isinstance(text, str):
        raise ModelError(
            where=where,
            found=f"{what} is not UTF-8 text ({bytes(text)[:60]!r})",
            expected="names in UTF-8 (the file may be corrupted)",
            fix=FIX_MODEL,
        )
