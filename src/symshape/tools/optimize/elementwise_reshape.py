"""``Reshape(f(Reshape(x)))`` back to ``x``'s shape, with ``f`` elementwise, is ``f(x)``.

Exporters wrap a 2-D ``Gemm`` in views: ``Gemm -> Reshape [b, s, n] -> GELU -> Reshape [-1, n] ->
Gemm``. An elementwise computation pairs the same elements whatever the view, so when the region
between the two reshapes reads only the first reshape's output and constants that broadcast the
same way over both views, it may run on ``x`` itself: the region's nodes read ``x``, readers of
the second reshape read the region's result, and both reshapes go.

Conditions, each checked: every region value has the first reshape's output shape (no broadcast
grows it); every region value is read only inside the region or by the closing reshape, and none
is pinned; a constant operand is 1 in every dim except a trailing run that equals the trailing
dims of both views; the closing reshape's output has ``x``'s shape. The region's values change
shape, so their value_info is not written (`changed_shapes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim
from symshape.engine.result import Analysis
from symshape.tools.optimize.graph_edit import consumers, producers, replace_uses
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary

_STANDARD = frozenset({"", "ai.onnx"})
_UNARY = frozenset({"Relu", "Tanh", "Sigmoid", "Erf", "Exp", "Log", "Sqrt", "Neg", "Abs", "Reciprocal", "Cast",
                    "Softplus", "Sin", "Cos", "Floor", "Ceil", "Sign", "Not", "IsNaN"})
_BINARY = frozenset({"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Equal", "Less", "Greater", "And", "Or"})
_MAX_REGION = 64


def unwrap_elementwise(
    view: GraphView,
    analysis: Analysis,
    guard: GuardCheck,
    summary: Summary,
    pinned: set[str],
    made_by: dict[str, Node] | None = None,
) -> set[str]:
    """Rewrite every such region; the names of the values whose shape changed."""
    made_by = producers(view) if made_by is None else made_by
    if not any(n.op_type == "Reshape" and n.input and _elementwise_made(n.input[0], made_by) for n in view.nodes):
        return set()
    readers = consumers(view)
    overridable = {vi.name for vi in view.graph.input}
    constants = {t.name: tuple(t.dims) for t in view.graph.initializer if t.name not in overridable}
    for n in view.nodes:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            constants[n.output[0]] = tuple(n.attribute[0].t.dims)
    changed: set[str] = set()
    mapping: dict[str, str] = {}
    for closing in view.nodes:
        if closing.op_type != "Reshape" or closing.domain not in _STANDARD or closing.output[0] in pinned:
            continue
        found = _region(closing, analysis, made_by, readers, constants, pinned)
        if found is None or guard.blocked(closing.output[0]):
            continue
        opening, nodes = found
        source = opening.input[0]
        for node in nodes:
            for k, i in enumerate(node.input):
                if i == opening.output[0]:
                    node.input[k] = source
            changed.update(node.output)
        mapping[closing.output[0]] = closing.input[0]
        summary.bypassed["Reshape (closing an elementwise computation on a view)"] += 1
    replace_uses(view, mapping)
    return changed


def _region(
    closing: Node,
    analysis: Analysis,
    made_by: dict[str, Node],
    readers: dict[str, list[Node]],
    constants: dict[str, tuple[int, ...]],
    pinned: set[str],
) -> tuple[Node, list[Node]] | None:
    """The opening Reshape and the elementwise nodes between it and ``closing``, or None."""
    found = _collect(closing, made_by, constants)
    if found is None:
        return None
    nodes, operands = found
    openings = {i for i in operands if i not in constants}
    if len(openings) != 1:
        return None
    opening = made_by[openings.pop()]
    inner = opening.output[0]
    outer = analysis.shape_or_none(opening.input[0])
    view = analysis.shape_or_none(inner)
    if outer is None or view is None or analysis.same_shape(closing.output[0], opening.input[0]) is not True:
        return None
    inside = {id(n) for n in nodes} | {id(closing)}
    for node in nodes:
        for o in node.output:
            if o in pinned or analysis.same_shape(o, inner) is not True:
                return None
            if any(id(r) not in inside for r in readers.get(o, [])):
                return None
    if any(not _same_broadcast(constants[c], view, outer) for c in operands if c in constants):
        return None
    return opening, nodes


def _collect(
    closing: Node, made_by: dict[str, Node], constants: dict[str, tuple[int, ...]]
) -> tuple[list[Node], set[str]] | None:
    """The elementwise nodes up from ``closing``'s input, and the constants and Reshape outputs
    they read; None when another kind of value feeds them or the region is large."""
    start = made_by.get(closing.input[0])
    if start is None or not _elementwise(start):
        return None
    nodes: dict[int, Node] = {}
    operands: set[str] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        if id(node) in nodes:
            continue
        nodes[id(node)] = node
        if len(nodes) > _MAX_REGION or all(i in constants for i in node.input):
            return None  # a node of constants alone would keep the view's shape
        for i in node.input:
            up = made_by.get(i)
            if i in constants:
                operands.add(i)
            elif up is not None and _elementwise(up):
                todo.append(up)
            elif up is not None and up.op_type == "Reshape" and up.domain in _STANDARD:
                operands.add(i)
            else:
                return None
    return list(nodes.values()), operands


def _elementwise_made(value: str, made_by: dict[str, Node]) -> bool:
    up = made_by.get(value)
    return up is not None and _elementwise(up)


def _elementwise(node: Node) -> bool:
    if node.domain not in _STANDARD or len(node.output) != 1:
        return False
    return (node.op_type in _UNARY and len(node.input) == 1) or (node.op_type in _BINARY and len(node.input) == 2)


def _same_broadcast(dims: Sequence[Dim] | None, view: Sequence[Dim], outer: Sequence[Dim]) -> bool:
    """Whether a constant of shape ``dims`` meets the same element of itself at every flat index
    of both views: all 1s but a trailing run equal (static) to both views' trailing dims."""
    if dims is None or len(dims) > min(len(view), len(outer)):
        return False
    k = len(dims)
    while k > 0 and dims[k - 1] != 1:
        k -= 1
    ones, tail = dims[:k], dims[k:]
    if any(d != 1 for d in ones):
        return False
    if not tail:
        return True
    n = len(tail)
    return all(isinstance(d, int) for d in tail) and list(tail) == list(view[-n:]) == list(outer[-n:])
