"""Run one fuzz check in a separate worker process, so that a runtime dying of a signal or an
abort (jax's shape refinement on a division by a 0 dim, an onnxruntime C++ assertion) ends that
check, not the whole run.

The worker is *spawned* (a fresh interpreter), never forked: a fork of a process whose jax or
onnxruntime thread pools are running copies their locks held and no threads to release them, and
the child hangs for ever (CI's pytest stopped there once). One worker serves every check; a new
one starts after a death."""

from __future__ import annotations

import atexit
import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

T = TypeVar("T")
TIMEOUT_SECONDS = 600.0  # one program at a few sizes takes seconds; more is a hang to report


class CheckTimedOut(RuntimeError):
    """The worker did not answer within ``TIMEOUT_SECONDS``: a hang, which is a finding."""


def _serve(connection: Connection) -> None:
    while True:
        try:
            check, args = connection.recv()
        except EOFError:  # the parent has gone
            return
        connection.send(check(*args))


class _Worker:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()

    def stop(self) -> None:
        self.connection.close()
        self.process.kill()
        self.process.join()


_worker: _Worker | None = None


def isolated(check: Callable[..., T], *args: Any) -> T | None:
    """``check(*args)`` computed in the worker; None if the worker died before answering.
    ``check`` must be a module-level function and ``args`` picklable. An exception inside the
    check is the check's to turn into a result: it is not caught here."""
    global _worker  # noqa: PLW0603 - one worker per process, started on first use
    if _worker is None:
        _worker = _Worker()
        atexit.register(_stop)
    _worker.connection.send((check, args))
    try:
        if not _worker.connection.poll(TIMEOUT_SECONDS):
            _stop()
            raise CheckTimedOut(f"{check.__name__} gave no answer in {TIMEOUT_SECONDS:.0f} s")
        return _worker.connection.recv()
    except (EOFError, ConnectionResetError):  # the worker died: the runtime aborted
        _stop()
        return None


def _stop() -> None:
    global _worker  # noqa: PLW0603
    if _worker is not None:
        _worker.stop()
        _worker = None
