"""Run one fuzz check in a forked child, so that a runtime dying of a signal or an abort
(jax's shape refinement on a division by a 0 dim, an onnxruntime C++ assertion) ends that
check, not the whole run."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def forked(check: Callable[[], T]) -> T | None:
    """``check()`` computed in a child process; None if the child died before answering. An
    exception inside the child is the child's to turn into a result: it is not re-raised here."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, exit without running the parent's cleanup
        os.close(read)
        try:
            result = check()
            with os.fdopen(write, "wb") as pipe:
                pickle.dump(result, pipe)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data or os.waitstatus_to_exitcode(status) != 0:
        return None
    return pickle.loads(data)  # noqa: S301 - our own child's result
