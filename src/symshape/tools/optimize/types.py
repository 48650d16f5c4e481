"""Element types for `optimize`: onnx's inference, in a child started early.

`symshape.frontends.onnx.reader.elem_types` with ``isolated=True`` runs onnx's shape inference in a child
interpreter (its C++ aborts on some malformed models) and waits for it. That child spends most of
its time starting and importing onnx, so `optimize_file` starts one before the analysis and
collects the types after: the two run side by side. Where a fork is safe the child is a fork of
this process instead (onnx is imported and the model read already: ~0.03 s instead of ~0.3 s).
The types read are the same (`symshape.frontends.onnx.reader.merge_types` of the child's
`encode_types` answer).
"""

from __future__ import annotations

import os
import threading
from typing import NoReturn

import onnx

from symshape.forking import fork_safe
from symshape.frontends.onnx.reader import decode_types, encode_types, infer_in_child, inferred_types, merge_types


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
        self._answer = infer_in_child(payload)

    def types(self) -> dict[str, int]:
        """The element types by value name (declared and initializer types alone when the child failed)."""
        self._talk.join()
        return merge_types(self._model, decode_types(self._answer or b""))


def _child(model: onnx.ModelProto, read: int, write: int) -> NoReturn:
    """The forked child: write the inferred types to ``write`` and exit without running the
    parent's exit handlers; a failure (or onnx aborting) is a nonzero status."""
    code = 1
    try:
        os.close(read)
        answer = encode_types(inferred_types(model))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(answer)
        code = 0
    finally:
        os._exit(code)  # noqa: B012 - the child must end here, whatever happened
