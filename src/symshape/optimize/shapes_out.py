"""Write the analysis's shapes into the optimized graph, as `symshape annotate` does.

`symshape.onnx.annotate.annotate_model` reads element types with onnx's inference in a child
interpreter, whose cost grows with the graph. It only needs the graph's inputs, outputs and
value_info, so it runs here on a shell of the original graph: no nodes, and every analyzed value's
element type declared (known already), so the child has nothing to infer. The passes keep every
graph output and never change a kept value's type, so the shell's value_info and outputs are the
optimized graph's. (It is not run in a thread beside the passes: the expression tables that both
would fill are not thread-safe.)
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
    body.value_info.extend(model.graph.value_info)
    declared = {vi.name for vi in body.value_info} | {vi.name for vi in body.output}
    for name in result.value_names():
        if name not in declared and name in types and result.shape(name) is not None:
            body.value_info.append(onnx.helper.make_tensor_value_info(name, types[name], None))
    count = annotate_model(shell, result)
    written = {o for n in graph.node for o in n.output} - reshaped
    del graph.value_info[:]
    graph.value_info.extend(vi for vi in body.value_info if vi.name in written)
    del graph.output[:]
    graph.output.extend(body.output)
    return count
