"""Replace shape values the analysis knows by constants or by their smallest computation.

Only values at the *frontier* are emitted: those read by a node that is not itself folded away.
Their old computation becomes dead and `graph_edit.remove_dead` takes it out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import onnx

from symshape.algebra.expr import Dim
from symshape.engine.result import Analysis
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.graph_edit import consumers, pinned_names, replace_uses
from symshape.tools.optimize.graph_view import GraphView
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary

_INT_TYPES = frozenset({
    onnx.TensorProto.INT64, onnx.TensorProto.INT32, onnx.TensorProto.INT16, onnx.TensorProto.INT8,
    onnx.TensorProto.UINT64, onnx.TensorProto.UINT32, onnx.TensorProto.UINT16, onnx.TensorProto.UINT8,
})


@dataclass(frozen=True)
class Known:
    """A value the analysis knows element by element, with its static shape and element type."""

    elements: tuple[Dim, ...]
    dims: tuple[int, ...]
    elem_type: int


def known_values(
    view: GraphView,
    analysis: Analysis,
    types: dict[str, int],
    guard: GuardCheck,
    summary: Summary,
    pinned: set[str] | None = None,
) -> dict[str, Known]:
    """Node outputs that can be replaced exactly: static ones of an integer or bool type, and
    symbolic int64 scalars and vectors; never a pinned name, a Constant's output or a value
    that may rest on a guard."""
    pinned = pinned_names(view.graph) if pinned is None else pinned
    out: dict[str, Known] = {}
    for node in view.nodes:
        if node.op_type == "Constant":
            continue
        for o in node.output:
            if not o or o in pinned:
                continue
            elements = analysis.elements(o)
            dims = analysis.shape_or_none(o)
            if elements is None or dims is None or not all(isinstance(d, int) for d in dims):
                continue
            static_dims = tuple(d for d in dims if isinstance(d, int))
            elem_type = types.get(o, 0)
            if math.prod(static_dims) != len(elements) or not _replaceable(elements, static_dims, elem_type):
                continue
            if guard.blocked(o):
                summary.refused_for_guards += 1
                continue
            out[o] = Known(elements, static_dims, elem_type)
    return out


def _replaceable(elements: tuple[Dim, ...], dims: tuple[int, ...], elem_type: int) -> bool:
    if all(isinstance(e, int) for e in elements):
        if elem_type == onnx.TensorProto.BOOL:
            return all(e in (0, 1) for e in elements)
        return elem_type in _INT_TYPES
    return elem_type == onnx.TensorProto.INT64 and len(dims) <= 1


def fold_values(view: GraphView, known: dict[str, Known], emitter: Emitter, summary: Summary) -> None:
    """Emit every frontier value of ``known`` and make its readers read the new value."""
    readers = consumers(view)
    folded = {id(node) for node in view.nodes if node.output and all(o in known for o in node.output if o)}
    mapping: dict[str, str] = {}
    for name, value in known.items():
        if all(id(reader) in folded for reader in readers.get(name, [])):
            continue  # read only by nodes that go away themselves (or by none)
        made = _emit(value, emitter)
        if made is None:
            continue
        mapping[name] = made
        summary.values_folded += 1
        if all(isinstance(e, int) for e in value.elements):
            summary.constants_made += 1
        else:
            summary.chains_made += 1
    replace_uses(view, mapping)


def _emit(value: Known, emitter: Emitter) -> str | None:
    ints = [e for e in value.elements if isinstance(e, int)]
    if len(ints) == len(value.elements):
        return emitter.constant(ints, value.dims, value.elem_type)
    if not value.dims:
        return emitter.scalar(value.elements[0])
    return emitter.vector(value.elements)
