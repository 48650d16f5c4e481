"""Common subexpression elimination: a node that repeats an earlier one (same op, attributes and
inputs, a small constant input compared by value) is replaced by it.

Exports repeat ``Range(0, seq, 1)`` and its Unsqueezes once per layer, each with its own
``Constant`` 0 and 1; once the shape values are folded these become literally the same
computation. Only deterministic standard ops without nested graphs are merged, and a node whose
output is pinned (a graph output, a capture) is kept.
"""

from __future__ import annotations

import math

import onnx
from onnx import numpy_helper

from symshape.tools.optimize.graph_edit import has_subgraph, pinned_names
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.summary import Summary

_SMALL = 64  # elements of an initializer compared by value
_RANDOM = frozenset({"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Multinomial",
                     "Bernoulli", "Dropout"})
Key = tuple[object, ...]


def merge_duplicates(view: GraphView, summary: Summary, pinned: set[str] | None = None) -> None:
    """Make readers of a repeated node's outputs read the first node's (the repeat becomes dead)."""
    pinned = pinned_names(view.graph) if pinned is None else pinned
    by_value = _constant_keys(view)
    same: dict[str, str] = {}
    seen: dict[Key, Node] = {}
    for node in view.nodes:
        for k, i in enumerate(node.input):
            if i in same:
                node.input[k] = same[i]
        if not _mergeable(node):
            continue
        key = _key(node, by_value)
        first = seen.get(key)
        if first is None:
            seen[key] = node
        elif not any(o in pinned for o in node.output):
            same.update((o, f) for o, f in zip(node.output, first.output, strict=True) if o)
            summary.bypassed[f"{node.op_type} (repeated)"] += 1


def _mergeable(node: Node) -> bool:
    return (
        node.domain in ("", "ai.onnx")
        and node.op_type not in _RANDOM
        and all(node.output)
        and not has_subgraph(node)
    )


def _key(node: Node, by_value: dict[str, Key]) -> Key:
    attrs = tuple(sorted((a.name, a.SerializeToString()) for a in node.attribute))
    inputs = tuple(by_value.get(i, i) for i in node.input)
    return (node.op_type, node.domain or "", inputs, attrs, len(node.output))


def _constant_keys(view: GraphView) -> dict[str, Key]:
    """Small initializers (not overridable inputs) by value: equal constants get equal keys."""
    inputs = {vi.name for vi in view.graph.input}
    out: dict[str, Key] = {}
    for t in view.graph.initializer:
        if t.name in inputs or math.prod(t.dims) > _SMALL or t.data_location == onnx.TensorProto.EXTERNAL:
            continue
        array = numpy_helper.to_array(t)
        out[t.name] = ("const", t.data_type, tuple(t.dims), array.tobytes())
    return out
