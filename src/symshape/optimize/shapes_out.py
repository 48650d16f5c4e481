"""Write the analysis's shapes into the optimized graph, as `symshape annotate` does.

`symshape.onnx.annotate.annotate_model` reads element types with onnx's inference in a child
interpreter, whose cost grows with the graph it is sent. It only needs the graph's inputs, outputs
and value_info, so it runs here on a shell of the original graph: no nodes and no value_info, so
the child has next to nothing to read; the element types, known already, are set afterwards. The
passes keep every graph output and never change a kept value's type, so the shell's value_info
and outputs are the optimized graph's. (It is not run in a thread beside the passes: the
expression tables that both would fill are not thread-safe.)
"""

from __future__ import annotations

import onnx

from symshape.onnx.annotate import annotate_model
from symshape.result import Analysis


def write_shapes(
    graph: onnx.GraphProto, model: onnx.ModelProto, result: Analysis, types: dict[str, int], reshaped: set[str]
) -> int:
    """Give ``graph`` (the optimized ``model``) the annotated value_info of the values a node
    still writes, except those whose shape a pass changed (``reshaped``), and the annotated
    outputs; the count of values annotated."""
    shell = onnx.ModelProto(ir_version=model.ir_version, opset_import=model.opset_import)
    body = shell.graph
    body.input.extend(model.graph.input)
    body.output.extend(model.graph.output)
    count = annotate_model(shell, result)
    written = {o for n in graph.node for o in n.output} - reshaped
    kept = [vi for vi in model.graph.value_info if vi.name in written and result.shape(vi.name) is None]
    del graph.value_info[:]
    graph.value_info.extend(kept)
    for vi in body.value_info:
        if vi.name in written:
            vi.type.tensor_type.elem_type = types.get(vi.name, onnx.TensorProto.UNDEFINED)
            graph.value_info.append(vi)
    del graph.output[:]
    graph.output.extend(body.output)
    return count
