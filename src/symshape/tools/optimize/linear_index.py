"""A ``Gather`` whose indices are the row-major position of each index is a ``Reshape``.

Exporters vectorize ``mask[batch_idx, kv_idx]`` as ``Gather(Flatten(mask), b * seq + s)`` with
``b`` and ``s`` broadcast ``Range`` tensors. The index tensor is then an affine function of its
own coordinates, ``value[i] = c + sum(coef[k] * i[k])``. When ``c == 0`` and each ``coef[k]`` is the
row-major stride of axis ``k`` (axes of static size 1 excepted), and the data's first dim is the
index tensor's element count, element ``i`` gathers row ``linear(i)``: exactly
``Reshape(data, indices.shape + data.shape[1:])``. The Gather becomes that Reshape and the index
computation (Range, Unsqueeze, Mul, Add) dies.

`Affine` values are tracked through ``Range`` (known start and delta), ``Unsqueeze`` (known axes),
``Add``/``Sub`` of two tracked values and ``Mul`` by a known scalar, under broadcasting where each
operand dim is proven equal to the output's or is a static 1, on int32/int64 tensors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import onnx

from symshape.algebra.expr import Dim, add, mul, product
from symshape.engine.result import Analysis
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary
from symshape.tools.optimize.targets import proven_equal

_STANDARD = frozenset({"", "ai.onnx"})
_TRACKED = frozenset({"Range", "Unsqueeze", "Add", "Sub", "Mul"})
_INDEX_TYPES = frozenset({onnx.TensorProto.INT64, onnx.TensorProto.INT32})


@dataclass(frozen=True)
class Affine:
    """``value[i] = const + sum(coefs[k] * i[k])`` over the tensor's coordinates ``i``."""

    const: Dim
    coefs: tuple[Dim, ...]


class _Tracker:
    """Affine values of the graph's integer tensors, node by node."""

    def __init__(self, analysis: Analysis, types: dict[str, int]) -> None:
        self.analysis = analysis
        self.types = types
        self.values: dict[str, Affine] = {}

    def visit(self, node: Node) -> None:
        if node.op_type not in _TRACKED or node.domain not in _STANDARD or len(node.output) != 1:
            return
        if self.types.get(node.output[0]) not in _INDEX_TYPES:
            return
        out = node.output[0]
        shape = self.analysis.shape_or_none(out)
        if shape is None:
            return
        value: Affine | None = None
        if node.op_type == "Range" and len(node.input) == 3:
            start, delta = self._scalar(node.input[0]), self._scalar(node.input[2])
            value = None if start is None or delta is None or len(shape) != 1 else Affine(start, (delta,))
        elif node.op_type == "Unsqueeze" and len(node.input) == 2:
            value = self._unsqueeze(node.input[0], node.input[1], len(shape))
        elif node.op_type in ("Add", "Sub", "Mul") and len(node.input) == 2:
            value = self._binary(node.op_type, node.input[0], node.input[1], shape)
        if value is not None:
            self.values[out] = value

    def _scalar(self, name: str) -> Dim | None:
        elements = self.analysis.elements(name)
        return elements[0] if elements is not None and len(elements) == 1 else None

    def _unsqueeze(self, data: str, axes_name: str, rank: int) -> Affine | None:
        inner, axes = self.values.get(data), self.analysis.elements(axes_name)
        if inner is None or axes is None or not all(isinstance(a, int) for a in axes):
            return None
        inserted = {a + rank if isinstance(a, int) and a < 0 else a for a in axes}
        if len(inserted) != len(axes) or rank != len(inner.coefs) + len(axes):
            return None
        old = iter(inner.coefs)
        return Affine(inner.const, tuple(0 if k in inserted else next(old) for k in range(rank)))

    def _operand(self, name: str, shape: Sequence[Dim]) -> Affine | None:
        """``name`` as an affine value over the output's coordinates (broadcast), or None."""
        dims = self.analysis.shape_or_none(name)
        if dims is None or len(dims) > len(shape):
            return None
        own = self.values.get(name)
        if own is None:
            elements = self.analysis.elements(name)
            if elements is None or len(set(elements)) != 1:
                return None
            own = Affine(elements[0], (0,) * len(dims))
        lead = len(shape) - len(dims)
        coefs: list[Dim] = [0] * lead
        for d, out_dim, c in zip(dims, shape[lead:], own.coefs, strict=True):
            if d == 1:
                coefs.append(0)  # broadcast: the coordinate is always 0
            elif proven_equal(self.analysis, d, out_dim):
                coefs.append(c)
            else:
                return None
        return Affine(own.const, tuple(coefs))

    def _binary(self, op: str, left: str, right: str, shape: Sequence[Dim]) -> Affine | None:
        a, b = self._operand(left, shape), self._operand(right, shape)
        if a is None or b is None:
            return None
        if op == "Mul":
            if all(c == 0 for c in b.coefs):
                return Affine(mul(a.const, b.const), tuple(mul(c, b.const) for c in a.coefs))
            if all(c == 0 for c in a.coefs):
                return Affine(mul(b.const, a.const), tuple(mul(c, a.const) for c in b.coefs))
            return None
        sign = 1 if op == "Add" else -1
        return Affine(add(a.const, mul(b.const, sign)),
                      tuple(add(x, mul(y, sign)) for x, y in zip(a.coefs, b.coefs, strict=True)))


def gathers_to_reshapes(
    view: GraphView,
    analysis: Analysis,
    types: dict[str, int],
    guard: GuardCheck,
    emitter: Emitter,
    summary: Summary,
) -> bool:
    """Turn every Gather of a row-major position index into a Reshape; whether any was."""
    tracker = _Tracker(analysis, types)
    changed = False
    for node in view.nodes:
        if node.op_type == "Gather" and node.domain in _STANDARD and len(node.input) == 2:
            target = _reshape_target(node, tracker, analysis, emitter)
            if target is None:
                continue
            if guard.blocked(node.output[0]):
                summary.refused_for_guards += 1
                continue
            data = node.input[0]
            del node.input[:]
            node.input.extend([data, target])
            del node.attribute[:]
            node.op_type = "Reshape"
            summary.bypassed["Gather (a reshape: its indices are their own positions)"] += 1
            changed = True
        else:
            tracker.visit(node)
    return changed


def _reshape_target(node: Node, tracker: _Tracker, analysis: Analysis, emitter: Emitter) -> str | None:
    """The target of the Reshape that ``node`` (a Gather) equals, or None."""
    if any(a.name == "axis" and a.i != 0 for a in node.attribute):
        return None
    data, indices = node.input
    index = tracker.values.get(indices)
    shape, data_dims = analysis.shape_or_none(indices), analysis.shape_or_none(data)
    out_dims = analysis.shape_or_none(node.output[0])
    if index is None or shape is None or not data_dims or out_dims is None or index.const != 0:
        return None
    stride: Dim = 1
    for d, c in zip(reversed(shape), reversed(index.coefs), strict=True):
        if d != 1 and not proven_equal(analysis, c, stride):
            return None
        stride = mul(stride, d)
    if not proven_equal(analysis, data_dims[0], product(shape)):
        return None
    return emitter.vector(list(out_dims))
