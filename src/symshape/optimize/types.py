"""Element types for `optimize`: onnx's inference, in a child interpreter started early.

`symshape.onnx.reader.elem_types` with ``isolated=True`` runs onnx's shape inference in a child
(its C++ aborts on some malformed models) and waits for it. The child spends most of its time
starting and importing onnx, so `optimize_file` starts it before the analysis and collects the
types after: the two run side by side. The types read are the same: declared value_info and
graph inputs/outputs first, then the inferred ones (sent back as ``name<TAB>type`` lines, cheaper
to read than value_info protos), then the initializers.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import onnx

# The child: one "name<TAB>type" line per inferred value (a name holding a newline is left out).
_INFER = r"""
import sys, onnx
model = onnx.ModelProto.FromString(sys.stdin.buffer.read())
inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
lines = [f"{vi.name}\t{vi.type.tensor_type.elem_type}" for vi in [*inferred.graph.value_info, *inferred.graph.output]
         if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type and "\n" not in vi.name]
sys.stdout.buffer.write("\n".join(lines).encode())
"""


class TypeInference:
    """onnx's element-type inference of ``model``, running in a child from construction."""

    def __init__(self, model: onnx.ModelProto) -> None:
        self._model = model
        self._answer: bytes | None = None
        self._talk = threading.Thread(target=self._run, args=(model.SerializeToString(),), daemon=True)
        self._talk.start()

    def _run(self, payload: bytes) -> None:
        """Feed the model to the child and keep its answer (a thread: it only waits on pipes)."""
        try:
            done = subprocess.run([sys.executable, "-c", _INFER], input=payload, capture_output=True,  # noqa: S603
                                  timeout=600, check=False)
        except (OSError, ValueError, subprocess.TimeoutExpired):  # ValueError: a model over 2 GB
            return
        if done.returncode == 0:
            self._answer = done.stdout

    def types(self) -> dict[str, int]:
        """The element types by value name (declared and initializer types alone when the child failed)."""
        self._talk.join()
        graph = self._model.graph
        types: dict[str, int] = {}
        for vi in [*graph.value_info, *graph.output, *graph.input]:
            if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
                types.setdefault(vi.name, vi.type.tensor_type.elem_type)
        for line in (self._answer or b"").decode().splitlines():
            name, _, elem_type = line.rpartition("\t")
            types.setdefault(name, int(elem_type))
        for t in graph.initializer:
            types.setdefault(t.name, t.data_type)
        return types
