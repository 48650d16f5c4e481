"""What `optimize_model` did, and the shape-computation node count it is judged by."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import onnx

from symshape.frontends.onnx.reader import elem_types

_INTEGER_TYPES = frozenset({
    onnx.TensorProto.INT64, onnx.TensorProto.INT32, onnx.TensorProto.INT16, onnx.TensorProto.INT8,
    onnx.TensorProto.UINT64, onnx.TensorProto.UINT32, onnx.TensorProto.UINT16, onnx.TensorProto.UINT8,
    onnx.TensorProto.BOOL,
})
_ROOTS = frozenset({"Shape", "Size"})


def shape_nodes(model: onnx.ModelProto, types: dict[str, int] | None = None) -> int:
    """``Shape``/``Size`` nodes plus integer-valued nodes fed only by them and by constants (with at
    least one input from such a node): the shape computation a model does at run time. ``types``:
    the element types by value name (default: `symshape.frontends.onnx.reader.elem_types`)."""
    graph = model.graph
    types = elem_types(model) if types is None else types
    constants = {t.name for t in graph.initializer}
    shapeish: set[str] = set()
    count = 0
    for node in graph.node:
        if node.op_type == "Constant":
            constants.update(node.output)
            continue
        inputs = [i for i in node.input if i]
        fed = node.op_type in _ROOTS or (
            inputs
            and all(i in shapeish or i in constants for i in inputs)
            and any(i in shapeish for i in inputs)
            and all(types.get(o) in _INTEGER_TYPES for o in node.output if o)
        )
        if fed:
            shapeish.update(node.output)
            count += 1
    return count


@dataclass
class Summary:
    """Counts before and after, what was removed or added by kind, and the guards in play."""

    nodes_before: int = 0
    nodes_after: int = 0
    shape_nodes_before: int = 0
    shape_nodes_after: int = 0
    values_folded: int = 0
    constants_made: int = 0
    chains_made: int = 0
    removed: Counter[str] = field(default_factory=Counter[str])
    bypassed: Counter[str] = field(default_factory=Counter[str])
    annotated: int = 0
    guards: list[str] = field(default_factory=list[str])
    refused_for_guards: int = 0
    fold_skipped: bool = False
    reshaped: set[str] = field(default_factory=set[str])  # values whose shape a pass changed (not annotated)

    def lines(self) -> list[str]:
        """A human summary, one fact per line."""
        out = [
            f"nodes: {self.nodes_before} -> {self.nodes_after}; shape-computation nodes: "
            f"{self.shape_nodes_before} -> {self.shape_nodes_after}",
            f"{self.values_folded} shape values replaced ({self.constants_made} by constants, "
            f"{self.chains_made} by a computation from the input shapes)",
        ]
        if self.fold_skipped:
            out[1] = "shape values left as computed: the model's own shape computation is already smaller"
        if self.bypassed:
            out.append("redundant nodes removed: " + ", ".join(f"{k} {v}" for k, v in sorted(self.bypassed.items())))
        if self.removed:
            out.append("dead nodes removed: " + ", ".join(f"{k} {v}" for k, v in self.removed.most_common()))
        out.append(f"{self.annotated} values annotated with their shapes")
        if self.guards:
            out.append(
                f"{len(self.guards)} guards listed by the analysis; {self.refused_for_guards} rewrites refused "
                f"because they would rest on them: " + "; ".join(self.guards)
                + " (when every input meets them, say so with --dim/--assume and optimize again)"
            )
        else:
            out.append("no guard relied on: every rewrite is proven")
        return out
