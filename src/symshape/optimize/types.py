"""Element types for `optimize`: onnx's inference, in a child started early.

`symshape.onnx.reader.elem_types` with ``isolated=True`` runs onnx's shape inference in a child
interpreter (its C++ aborts on some malformed models) and waits for it. That child spends most of
its time starting and importing onnx, so `optimize_file` starts one before the analysis and
collects the types after: the two run side by side. Where a fork is safe the child is a fork of
this process instead (onnx is imported and the model read already: ~0.03 s instead of ~0.3 s).
The types read are the same: declared value_info and graph inputs/outputs first, then the
inferred ones (sent back as ``name<TAB>type`` lines, cheaper to read than value_info protos),
then the initializers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import NoReturn

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
    """onnx's element-type inference of ``model``, running in a child from construction: a fork
    of this process where that is safe (no second import of onnx, no copy of the model), else a
    fresh interpreter."""

    def __init__(self, model: onnx.ModelProto) -> None:
        self._model = model
        self._answer: bytes | None = None
        if fork_safe():
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                _child(model, read, write)  # never returns
            os.close(write)
            self._talk = threading.Thread(target=self._collect, args=(pid, read), daemon=True)
        else:
            self._talk = threading.Thread(target=self._run, args=(model.SerializeToString(),), daemon=True)
        self._talk.start()

    def _collect(self, pid: int, read: int) -> None:
        """Read the forked child's answer and reap it (a thread: it only waits on a pipe)."""
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 0:
            self._answer = data

    def _run(self, payload: bytes) -> None:
        """Feed the model to a fresh interpreter and keep its answer (a thread: it only waits on pipes)."""
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


def fork_safe() -> bool:
    """Fork only on Linux, with no other thread and no runtime with native thread pools loaded
    (a fork copies their held locks with no thread to release them), as `symshape.sweep` does."""
    native = {"jaxlib", "onnxruntime"} & set(sys.modules)
    return sys.platform.startswith("linux") and not native and threading.active_count() == 1


def _child(model: onnx.ModelProto, read: int, write: int) -> NoReturn:
    """The forked child: write the inferred types to ``write`` and exit without running the
    parent's exit handlers; a failure (or onnx aborting) is a nonzero status."""
    code = 1
    try:
        os.close(read)
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
        infos = [*inferred.graph.value_info, *inferred.graph.output]
        lines = [f"{vi.name}\t{vi.type.tensor_type.elem_type}" for vi in infos
                 if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type and "\n" not in vi.name]
        with os.fdopen(write, "wb") as pipe:
            pipe.write("\n".join(lines).encode())
        code = 0
    finally:
        os._exit(code)  # noqa: B012 - the child must end here, whatever happened
