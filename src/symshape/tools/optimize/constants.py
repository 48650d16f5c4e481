"""``Constant`` nodes with a tensor ``value`` become initializers: the same tensor, no node to
schedule (what onnxslim and onnxsim do too). A Constant that writes a graph output stays."""

from __future__ import annotations

import onnx

from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.summary import Summary


def constants_to_initializers(view: GraphView, summary: Summary) -> None:
    """Move every eligible Constant of the main graph into ``view.graph.initializer``."""
    outputs = {o.name for o in view.graph.output}
    kept: list[Node] = []
    moved: list[onnx.TensorProto] = []
    for node in view.nodes:
        attrs = list(node.attribute)
        if (
            node.op_type == "Constant"
            and node.domain in ("", "ai.onnx")
            and len(attrs) == 1
            and attrs[0].name == "value"
            and node.output[0] not in outputs
        ):
            tensor = onnx.TensorProto()
            tensor.CopyFrom(attrs[0].t)
            tensor.name = node.output[0]
            moved.append(tensor)
            continue
        kept.append(node)
    if moved:
        del view.nodes[:]
        view.nodes.extend(kept)
        view.graph.initializer.extend(moved)
        summary.bypassed["Constant (now an initializer)"] += len(moved)
