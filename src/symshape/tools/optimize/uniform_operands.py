"""A ``ConstantOfShape`` operand that does not set the result's shape becomes a scalar.

``Min(relative_positions, ConstantOfShape([n, n], value=k))`` pairs every element with ``k``;
so does ``Min(relative_positions, k)`` with a 0-D ``k``, by broadcasting. When the op's output
shape is proven equal to another operand's, the filled tensor adds nothing to the shape, and the
scalar computes the same elements: the ``ConstantOfShape`` and the shape computation feeding it
go. Elementwise ops with two inputs, and ``Where``'s branches.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper

from symshape.engine.result import Analysis
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary

_STANDARD = frozenset({"", "ai.onnx"})
_BINARY = frozenset({"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Equal", "Less", "LessOrEqual", "Greater",
                     "GreaterOrEqual", "And", "Or", "Xor", "Mod", "BitwiseAnd", "BitwiseOr", "BitwiseXor"})


def scalar_fills(view: GraphView, analysis: Analysis, guard: GuardCheck, emitter: Emitter,
                 summary: Summary) -> None:
    """Read a scalar instead of every ConstantOfShape operand that does not set the shape."""
    made_by = {n.output[0]: n for n in view.nodes if n.op_type == "ConstantOfShape" and n.output}
    if not made_by:
        return
    scalars: dict[str, str] = {}
    for node in view.nodes:
        for k in _operand_slots(node):
            fill = made_by.get(node.input[k])
            if fill is None or fill.domain not in _STANDARD:
                continue
            others = [i for j, i in enumerate(node.input) if j != k]
            if not any(analysis.same_shape(node.output[0], i) is True for i in others):
                continue
            if guard.blocked(node.output[0]):
                summary.refused_for_guards += 1
                continue
            name = scalars.get(fill.output[0]) or _scalar(fill, emitter)
            if name is None:
                continue
            scalars[fill.output[0]] = name
            node.input[k] = name
            summary.bypassed["ConstantOfShape (a scalar operand)"] += 1


def _operand_slots(node: Node) -> list[int]:
    """The inputs of ``node`` that a broadcast scalar may stand for."""
    if node.domain not in _STANDARD or len(node.output) != 1:
        return []
    if node.op_type in _BINARY and len(node.input) == 2:
        return [0, 1]
    if node.op_type == "Where" and len(node.input) == 3:
        return [1, 2]
    return []


def _scalar(fill: Node, emitter: Emitter) -> str | None:
    """A 0-D initializer holding ``fill``'s value (ONNX's default: float 0.0); None for a value
    that is not one element (a malformed model)."""
    value = next((a.t for a in fill.attribute if a.name == "value"), None)
    if value is not None and (value.data_location == onnx.TensorProto.EXTERNAL or int(np.prod(value.dims)) != 1):
        return None
    array = np.zeros((), np.float32) if value is None else numpy_helper.to_array(value).reshape(())
    name = emitter.fresh("fill")
    emitter.initializers.append(numpy_helper.from_array(np.asarray(array), name))
    return name
