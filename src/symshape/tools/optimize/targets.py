"""Shape operands written relative to the data: more of them become constants.

ONNX lets a shape operand refer to the data's own dims:

- ``Reshape`` (``allowzero`` 0): a target element ``0`` copies the input's dim at that index. An
  element proven equal to the input's dim at its index becomes ``0``: ``[batch, seq, 32] ->
  [batch, seq, 4, 8]`` reads ``[0, 0, 4, 8]``. The output shape is the same element for element,
  so a ``-1`` elsewhere is resolved the same way too.
- ``Expand``: a shape element ``1`` keeps the operand's dim (broadcasting). An element proven
  equal to the operand's dim at its right-aligned position becomes ``1``.

A target that becomes fully static is a constant, and the computation of the old one may die (a
partly static one is left: a new vector would cost a node of its own). A node whose output may
rest on a guard is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim
from symshape.engine.result import Analysis
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.graph_view import GraphView
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary

_STANDARD = frozenset({"", "ai.onnx"})


def relax_targets(view: GraphView, analysis: Analysis, guard: GuardCheck, emitter: Emitter,
                  summary: Summary) -> None:
    """Rewrite the shape operand of every Reshape and Expand whose elements the analysis knows."""
    for node in view.nodes:
        if node.op_type not in ("Reshape", "Expand") or node.domain not in _STANDARD or len(node.input) != 2:
            continue
        data, target = node.input
        elements, dims = analysis.elements(target), analysis.shape_or_none(data)
        if elements is None or dims is None or all(isinstance(e, int) for e in elements):
            continue
        if node.op_type == "Reshape":
            if any(a.name == "allowzero" and a.i for a in node.attribute):
                continue
            relaxed = _relative(analysis, elements, dims, offset=0, marker=0)
        else:
            relaxed = _relative(analysis, elements, dims, offset=len(elements) - len(dims), marker=1)
        if relaxed is None:
            continue
        if guard.blocked(node.output[0]):
            summary.refused_for_guards += 1
            continue
        ints = [e for e in relaxed if isinstance(e, int)]
        if len(ints) == len(relaxed):
            node.input[1] = emitter.constant(ints, [len(ints)])
            summary.bypassed[f"{node.op_type} target (now a constant relative to the input)"] += 1


def _relative(
    analysis: Analysis, elements: Sequence[Dim], dims: Sequence[Dim], *, offset: int, marker: int
) -> list[Dim] | None:
    """``elements`` with each symbolic one proven equal to ``dims[k - offset]`` replaced by
    ``marker``; None when none is."""
    out = list(elements)
    changed = False
    for k, e in enumerate(elements):
        j = k - offset
        if isinstance(e, int) or not 0 <= j < len(dims):
            continue
        if proven_equal(analysis, e, dims[j]):
            out[k] = marker
            changed = True
    return out if changed else None


def proven_equal(analysis: Analysis, a: Dim, b: Dim) -> bool:
    """Whether ``a == b`` is proven (identity, or the facts)."""
    if a is b:
        return True
    return analysis.graph.facts.prove_eq(analysis.private(a), analysis.private(b)) is True
