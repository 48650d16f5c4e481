"""Merge ``Unsqueeze(Unsqueeze(x, a1), a2)`` into one ``Unsqueeze(x, a)``.

Exporters insert one axis at a time (``mask[:, None, None, :]`` is three Unsqueezes). The merged
axes come from replaying the inserts on the input's rank, so no shape fact is needed beyond the
rank; the inner node must have no other reader (and not be a pinned name).
"""

from __future__ import annotations

import onnx
from onnx import numpy_helper

from symshape.engine.result import Analysis
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.graph_edit import consumers, pinned_names, producers
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.summary import Summary

MIN_OPSET_AXES_INPUT = 13  # Unsqueeze reads its axes from an input from opset 13


def merge_unsqueezes(
    view: GraphView,
    analysis: Analysis,
    emitter: Emitter,
    summary: Summary,
    pinned: set[str] | None = None,
    made_by: dict[str, Node] | None = None,
) -> None:
    """Fold every Unsqueeze fed by a single-reader Unsqueeze into one (opset >= 13 graphs)."""
    pinned = pinned_names(view.graph) if pinned is None else pinned
    readers = consumers(view)
    made_by = producers(view) if made_by is None else made_by
    constants = _constants(view)
    for node in view.nodes:
        if node.op_type != "Unsqueeze" or node.domain not in ("", "ai.onnx") or len(node.input) != 2:
            continue
        inner = made_by.get(node.input[0])
        if inner is None or inner.op_type != "Unsqueeze" or len(inner.input) != 2:
            continue
        mid = inner.output[0]
        rank = analysis.shape_or_none(inner.input[0])
        first, second = constants.get(inner.input[1]), constants.get(node.input[1])
        if mid in pinned or len(readers.get(mid, [])) != 1 or rank is None or first is None or second is None:
            continue
        axes = merged_axes(len(rank), [first, second])
        if axes is None:
            continue
        node.input[0] = inner.input[0]
        node.input[1] = emitter.constant(axes, [len(axes)])
        constants[node.input[1]] = axes
        summary.bypassed["Unsqueeze (merged)"] += 1


def merged_axes(rank: int, steps: list[list[int]]) -> list[int] | None:
    """The axes one Unsqueeze of a rank-``rank`` input takes to do ``steps`` in turn (None for
    invalid axes, which the model itself would reject)."""
    marks = [False] * rank
    for axes in steps:
        size = len(marks) + len(axes)
        norm = sorted(a + size if a < 0 else a for a in axes)
        if len(set(norm)) != len(norm) or any(not 0 <= a < size for a in norm):
            return None
        old = iter(marks)
        marks = [True if k in norm else next(old) for k in range(size)]
    return [k for k, new in enumerate(marks) if new]


def _constants(view: GraphView) -> dict[str, list[int]]:
    """1-D int64 initializers and Constant outputs that an Unsqueeze reads as axes, by name."""
    inputs = {vi.name for vi in view.graph.input}
    axes = {n.input[1] for n in view.nodes if n.op_type == "Unsqueeze" and len(n.input) == 2}
    tensors = [t for t in view.graph.initializer if t.name in axes and t.name not in inputs]
    out: dict[str, list[int]] = {}
    for t in tensors:
        if t.data_type == onnx.TensorProto.INT64 and len(t.dims) == 1:
            out[t.name] = [int(v) for v in numpy_helper.to_array(t)]
    for node in view.nodes:
        if node.op_type != "Constant" or node.output[0] not in axes:
            continue
        if node.attribute and node.attribute[0].name == "value":
            t = node.attribute[0].t
            if t.data_type == onnx.TensorProto.INT64 and len(t.dims) == 1:
                out[node.output[0]] = [int(v) for v in numpy_helper.to_array(t)]
    return out
