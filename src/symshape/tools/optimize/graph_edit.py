"""Edits on an ONNX graph (its `GraphView`) that keep it valid: who uses a value, rewiring uses,
dead-code removal.

Names a nested graph (If/Loop/Scan body) reads from the enclosing scope are *pinned* like graph
outputs: they are never renamed or removed, because the bodies are left untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import onnx

from symshape.tools.optimize.graph_view import GraphView, Node

AnyNode = Node | onnx.NodeProto

# Ops whose removal could change what other ops compute (a shared random stream).
_KEEP_WHEN_DEAD = frozenset({"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Multinomial",
                             "Bernoulli"})
_STANDARD = frozenset({"", "ai.onnx"})
_GRAPH_TYPES = frozenset({onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS})
_GRAPH_OPS = frozenset({"If", "Loop", "Scan", "SequenceMap"})  # the standard ops that hold graphs


def subgraphs(node: AnyNode) -> Iterator[onnx.GraphProto]:
    """The graphs held in ``node``'s attributes."""
    for attr in node.attribute:
        if attr.type == onnx.AttributeProto.GRAPH:
            yield attr.g
        elif attr.type == onnx.AttributeProto.GRAPHS:
            yield from attr.graphs


def has_subgraph(node: AnyNode) -> bool:
    """Whether ``node`` holds a graph (If, Loop, Scan, ...; a standard op whose spec has no graph
    attribute cannot run one, so only those four and other domains' ops are looked at)."""
    if node.op_type not in _GRAPH_OPS and node.domain in _STANDARD:
        return False
    return any(a.type in _GRAPH_TYPES for a in node.attribute)


def outer_names(graph: onnx.GraphProto) -> set[str]:
    """Every name that a node of ``graph`` or of a nested graph reads (nested reads may be
    captures of enclosing values)."""
    names: set[str] = set()
    for node in graph.node:
        names.update(i for i in node.input if i)
        for sub in subgraphs(node):
            names |= outer_names(sub)
    return names


def pinned_names(graph: onnx.GraphProto, nodes: Iterable[AnyNode] | None = None) -> set[str]:
    """Names whose value must keep its name: graph outputs and captures of nested graphs (of
    ``nodes``, by default the graph's)."""
    pinned = {o.name for o in graph.output}
    for node in graph.node if nodes is None else nodes:
        if has_subgraph(node):
            for sub in subgraphs(node):
                pinned |= outer_names(sub)
    return pinned


def consumers(view: GraphView) -> dict[str, list[Node]]:
    """The nodes (top level) that read each value."""
    out: dict[str, list[Node]] = {}
    for node in view.nodes:
        for i in node.input:
            if i:
                out.setdefault(i, []).append(node)
    return out


def producers(view: GraphView) -> dict[str, Node]:
    """The node (top level) that writes each value."""
    return {o: node for node in view.nodes for o in node.output if o}


def replace_uses(view: GraphView, mapping: dict[str, str]) -> None:
    """Make every top-level node read ``mapping[name]`` instead of ``name`` (chains resolved)."""
    if not mapping:
        return
    for node in view.nodes:
        if mapping.keys().isdisjoint(node.input):
            continue
        node.input = [resolve(mapping, i) if i in mapping else i for i in node.input]


def resolve(mapping: dict[str, str], name: str) -> str:
    """``name`` followed through ``mapping`` to its final replacement."""
    seen = {name}
    while name in mapping:
        name = mapping[name]
        if name in seen:
            break
        seen.add(name)
    return name


def remove_dead(view: GraphView, pinned: set[str]) -> list[Node]:
    """Remove standard-domain nodes no output, no live node and no nested graph reads, and
    initializers nothing reads; returns the nodes removed. Nodes holding graphs, nodes of
    other domains and random ops are always kept. ``pinned``: `pinned_names` of the graph."""
    live = set(pinned)
    kept: list[Node] = []
    removed: list[Node] = []
    for node in reversed(view.nodes):
        op = node.op_type
        removable = (
            op not in _KEEP_WHEN_DEAD
            and op not in _GRAPH_OPS
            and node.domain in _STANDARD
            and live.isdisjoint(node.output)  # '' (a missing output) is never live
        )
        if removable:
            removed.append(node)
            continue
        kept.append(node)
        live.update(node.input)
        live.discard("")
    if removed:
        kept.reverse()
        view.nodes = kept
    graph = view.graph
    inputs = {i.name for i in graph.input}
    used = [t for t in graph.initializer if t.name in live or t.name in inputs]
    if len(used) != len(graph.initializer):
        del graph.initializer[:]
        graph.initializer.extend(used)
    removed.reverse()
    return removed
