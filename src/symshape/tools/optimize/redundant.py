"""Remove nodes the analysis proves compute their input unchanged.

Bypassed: ``Identity``; ``Cast`` to the input's own type; ``Expand``, ``Tile``, ``Reshape``,
``Flatten``, ``Squeeze``, ``Unsqueeze`` whose output shape is proven equal to the input's (a
chain of reshape-like ops back to an operand of the same shape: Squeeze/Unsqueeze pairs that
cancel); ``Where`` whose condition is a proven constant and whose chosen branch has the output's
shape; ``Max``/``Min``/``And``/``Or`` of one value with itself; integer and bool ``And``/``Or``/``Mul``/
``Add``/``Sub`` with a neutral constant; float ``Mul``/``Div`` by 1.0 of an arithmetic result (not
``Add`` of 0.0: ``-0.0 + 0.0`` is ``+0.0``). Readers then read the input. A graph
output keeps its name: the input is renamed to it when that is safe, else the node stays.
"""

from __future__ import annotations

import math

import numpy as np
import onnx
from onnx import numpy_helper

from symshape.engine.program import MAX_TRACKED
from symshape.engine.result import Analysis
from symshape.tools.optimize.graph_edit import pinned_names, producers
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary

_RESHAPES = frozenset({"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"})
_SAME_SHAPE = frozenset({"Expand", "Tile"}) | _RESHAPES
_IDEMPOTENT = frozenset({"Max", "Min", "And", "Or"})
_STANDARD = frozenset({"", "ai.onnx"})
_NEUTRAL = {"And": 1, "Or": 0, "Mul": 1, "Add": 0, "Sub": 0}
_EXACT_TYPES = frozenset({  # x*1 and x+0 are x bit for bit (not so for -0.0 + 0.0 in floats)
    onnx.TensorProto.INT64, onnx.TensorProto.INT32, onnx.TensorProto.INT16, onnx.TensorProto.INT8,
    onnx.TensorProto.UINT64, onnx.TensorProto.UINT32, onnx.TensorProto.UINT16, onnx.TensorProto.UINT8,
    onnx.TensorProto.BOOL,
})
_FLOAT_TYPES = frozenset({onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16,
                          onnx.TensorProto.BFLOAT16})
# Ops whose float results come out of IEEE arithmetic on every element: never a signaling NaN.
_ARITHMETIC = frozenset({"Add", "Sub", "Mul", "Div", "MatMul", "Gemm", "Sqrt", "Reciprocal", "Pow", "Exp", "Log",
                         "Tanh", "Sigmoid", "Erf", "Softmax", "ReduceMean", "LayerNormalization"})


def bypass_redundant(
    view: GraphView,
    analysis: Analysis,
    types: dict[str, int],
    guard: GuardCheck,
    summary: Summary,
    pinned: set[str] | None = None,
    made_by: dict[str, Node] | None = None,
) -> None:
    """Rewire the readers of every proven no-op node to its input (dead nodes are left for
    `graph_edit.remove_dead`)."""
    pinned = pinned_names(view.graph) if pinned is None else pinned
    inputs = {vi.name for vi in view.graph.input} | {t.name for t in view.graph.initializer}
    made_by = producers(view) if made_by is None else made_by  # kept current: outputs renamed here
    overridable = {vi.name for vi in view.graph.input}
    small = {t.name: t for t in view.graph.initializer
             if math.prod(t.dims) <= MAX_TRACKED and t.name not in overridable}
    alias: dict[str, str] = {}  # a bypassed output -> the value it equals
    renamed: dict[str, str] = {}  # a value -> the pinned name it now carries
    for node in view.nodes:
        _read_current(node, alias, renamed)
        if node.domain not in _STANDARD or len(node.output) != 1 or not node.output[0]:
            continue
        out = node.output[0]
        source = _same_value(node, analysis, types, made_by, small)
        if source is None:
            continue
        if guard.blocked(out):
            summary.refused_for_guards += 1
        elif out not in pinned:
            alias[out] = source
            summary.bypassed[node.op_type] += 1
        elif source not in pinned and source not in inputs and source in made_by and source not in renamed:
            _take_name(node, source, made_by, renamed)
            summary.bypassed[node.op_type] += 1
        # else: keep the node: the output name must stay and the input cannot take it
    if renamed:  # readers of a renamed value placed before the bypassed node
        for node in view.nodes:
            _read_current(node, {}, renamed)


def _read_current(node: Node, alias: dict[str, str], renamed: dict[str, str]) -> None:
    """Point ``node``'s inputs at the values they now are (bypassed, then renamed)."""
    if alias.keys().isdisjoint(node.input) and renamed.keys().isdisjoint(node.input):
        return
    for k, i in enumerate(node.input):
        if i in alias or i in renamed:
            current = alias.get(i, i)
            node.input[k] = renamed.get(current, current)


def _take_name(
    node: Node, source: str, made_by: dict[str, Node], renamed: dict[str, str]
) -> None:
    """Bypass ``node`` whose output is a pinned name: ``source``'s producer writes that name
    instead (readers follow through ``renamed``) and ``node`` writes a name nothing reads."""
    out = node.output[0]
    producer = made_by.pop(source)
    for k, o in enumerate(producer.output):
        if o == source:
            producer.output[k] = out
    made_by[out] = producer
    renamed[source] = out
    node.output[0] = f"{out}/symshape_bypassed"


def _same_value(
    node: Node,
    analysis: Analysis,
    types: dict[str, int],
    made_by: dict[str, Node],
    small: dict[str, onnx.TensorProto],
) -> str | None:
    """The input that ``node``'s output provably equals, or None."""
    op = node.op_type
    out = node.output[0]
    ins = [i for i in node.input]
    if not ins or not ins[0]:
        return None
    if op == "Identity":
        return ins[0]
    if op == "Cast":
        to = next((a.i for a in node.attribute if a.name == "to"), None)
        src_type = types.get(ins[0])
        return ins[0] if to is not None and src_type is not None and to == src_type == types.get(out) else None
    if op in _SAME_SHAPE:
        return _reshape_source(node, analysis, made_by) if op in _RESHAPES else _if_same(analysis, out, ins[0])
    if op == "Where" and len(ins) == 3:
        return _where_branch(ins, out, analysis, small)
    if op in _IDEMPOTENT and len(set(ins)) == 1:
        return _if_same(analysis, out, ins[0])
    if op in _NEUTRAL and len(ins) == 2 and types.get(out) in _EXACT_TYPES:
        return _neutral_operand(op, ins, out, analysis, small)
    if op in ("Mul", "Div") and len(ins) == 2 and types.get(out) in _FLOAT_TYPES:
        return _float_unit_operand(op, ins, out, analysis, small, made_by)
    return None


def _float_unit_operand(
    op: str,
    ins: list[str],
    out: str,
    analysis: Analysis,
    small: dict[str, onnx.TensorProto],
    made_by: dict[str, Node],
) -> str | None:
    """``x`` for ``Mul(x, 1.0)`` (either order) and ``Div(x, 1.0)`` when the output has ``x``'s shape
    and ``x`` is computed by an arithmetic op. IEEE 754 makes ``x * 1`` and ``x / 1`` exactly ``x``
    (signed zeros, infinities and quiet NaNs included) except for a signaling NaN, which they
    quiet; an arithmetic op never delivers a signaling NaN (an input or a weight might)."""
    for k in (1, 0) if op == "Mul" else (1,):
        unit = small.get(ins[k])
        producer = made_by.get(ins[1 - k])
        if unit is None or producer is None or producer.op_type not in _ARITHMETIC or producer.domain not in _STANDARD:
            continue
        if bool(np.all(numpy_helper.to_array(unit) == 1.0)):
            return _if_same(analysis, out, ins[1 - k])
    return None


def _where_branch(ins: list[str], out: str, analysis: Analysis, small: dict[str, onnx.TensorProto]) -> str | None:
    """The branch a proven-constant condition always takes, when it has the output's shape."""
    cond = _elements(ins[0], analysis, small)
    if not cond:
        return None
    if all(c == 1 for c in cond):
        return _if_same(analysis, out, ins[1])
    if all(c == 0 for c in cond):
        return _if_same(analysis, out, ins[2])
    return None


def _neutral_operand(
    op: str, ins: list[str], out: str, analysis: Analysis, small: dict[str, onnx.TensorProto]
) -> str | None:
    """``x`` for ``And(x, true)``, ``Or(x, false)``, ``Mul(x, 1)``, ``Add(x, 0)`` (either order) and
    ``Sub(x, 0)`` on integers and bools, when the output has ``x``'s shape."""
    unit = _NEUTRAL[op]
    for k in (1, 0) if op != "Sub" else (1,):
        values = _elements(ins[k], analysis, small)
        if values and all(v == unit for v in values):
            return _if_same(analysis, out, ins[1 - k])
    return None


def _elements(name: str, analysis: Analysis, small: dict[str, onnx.TensorProto]) -> tuple[object, ...] | None:
    """The elements of ``name``: the analysis's, or a small initializer's (folding made it)."""
    if name in small:
        return tuple(int(v) for v in numpy_helper.to_array(small[name]).reshape(-1))
    return analysis.elements(name)


def _if_same(analysis: Analysis, out: str, source: str) -> str | None:
    return source if analysis.same_shape(out, source) is True else None


def _reshape_source(node: Node, analysis: Analysis, made_by: dict[str, Node]) -> str | None:
    """The farthest value up a chain of reshape-like ops (row-major order kept) with the same
    shape as ``node``'s output: that chain computes it unchanged."""
    out = node.output[0]
    found: str | None = None
    current: Node | None = node
    for _ in range(8):
        if current is None or current.op_type not in _RESHAPES or current.domain not in _STANDARD:
            break
        data = current.input[0] if current.input else ""
        if not data:
            break
        if analysis.same_shape(out, data) is True:
            found = data
        current = made_by.get(data)
    return found
