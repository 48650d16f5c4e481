"""Write the analysis's shapes into the optimized graph, as `symshape annotate` does.

`symshape.tools.annotate.annotate_model` only needs the graph's inputs, outputs and value_info, so
it runs on a shell of the original graph (no nodes, no value_info) with no element types (they
are known here, and set after). Where a fork is safe (`symshape.forking.fork_safe`) it
runs in a forked child while the passes run, and its result comes back through a pipe; a thread
would not do, the expression tables both would fill are not thread-safe. The passes keep every
graph output and never change a kept value's type, so the shell's value_info and outputs are the
optimized graph's.
"""

from __future__ import annotations

import os
import threading
from typing import NoReturn

import onnx

from symshape.engine.result import Analysis
from symshape.forking import fork_safe
from symshape.tools.annotate import annotate_model

_COUNT_BYTES = 8


class ShapeWriter:
    """`annotate_model` on a shell of ``model``: started at construction in a forked child where
    that is safe, else run by `write_into`."""

    def __init__(self, model: onnx.ModelProto, result: Analysis) -> None:
        self._model = model
        self._result = result
        self._shell = onnx.ModelProto(ir_version=model.ir_version, opset_import=model.opset_import)
        self._shell.graph.input.extend(model.graph.input)
        self._shell.graph.output.extend(model.graph.output)
        self._answer: bytes | None = None
        self._talk: threading.Thread | None = None
        if fork_safe():
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                _child(self._shell, result, read, write)  # never returns
            os.close(write)
            self._talk = threading.Thread(target=self._collect, args=(pid, read), daemon=True)
            self._talk.start()

    def _collect(self, pid: int, read: int) -> None:
        """Read the child's answer and reap it (a thread: it only waits on a pipe)."""
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 0 and len(data) >= _COUNT_BYTES:
            self._answer = data

    def write_into(self, graph: onnx.GraphProto, types: dict[str, int], reshaped: set[str]) -> int:
        """Give ``graph`` (the optimized model) the annotated value_info of the values a node still
        writes, except those whose shape a pass changed (``reshaped``), and the annotated
        outputs; the count of values annotated."""
        if self._talk is not None:
            self._talk.join()
        if self._answer is not None:
            count = int.from_bytes(self._answer[:_COUNT_BYTES], "little")
            shell = onnx.ModelProto.FromString(self._answer[_COUNT_BYTES:])
        else:  # no fork, or the child failed: here, then
            shell = self._shell
            count = annotate_model(shell, self._result, types={}, untyped=True)
        written = {o for n in graph.node for o in n.output} - reshaped
        known = self._result.shape_or_none
        kept = [vi for vi in self._model.graph.value_info if vi.name in written and known(vi.name) is None]
        del graph.value_info[:]
        graph.value_info.extend(kept)
        for vi in shell.graph.value_info:
            if vi.name in written and types.get(vi.name, onnx.TensorProto.UNDEFINED):
                # a value of unknown element type is left out: onnxruntime refuses elem_type 0
                vi.type.tensor_type.elem_type = types[vi.name]
                graph.value_info.append(vi)
        del graph.output[:]
        graph.output.extend(shell.graph.output)
        return count


def _child(shell: onnx.ModelProto, result: Analysis, read: int, write: int) -> NoReturn:
    """The forked child: annotate the shell, send the count and the shell, exit without running
    the parent's exit handlers; any failure is a nonzero status (the parent then annotates)."""
    code = 1
    try:
        os.close(read)
        count = annotate_model(shell, result, types={}, untyped=True)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(count.to_bytes(_COUNT_BYTES, "little") + shell.SerializeToString())
        code = 0
    finally:
        os._exit(code)  # noqa: B012 - the child must end here, whatever happened
