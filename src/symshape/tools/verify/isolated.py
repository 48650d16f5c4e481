"""Run onnxruntime in a child process, one item (an input size) after another, so that a crash
inside it is a result for that size and not the end of the command: onnxruntime 1.32 aborts
("terminate called without an active exception") on some published models at batch 0 and
segfaults on a quantized LLaMA, which would otherwise kill ``verify`` or ``optimize --verify``.

The child builds its state once (``setup``: sessions), then runs ``work`` per item and sends each
result back before the next starts; when it dies, the item it was on gets a `Crashed`, and a new
child goes on with the rest. A `SymshapeError` raised in the child is raised again here.
"""

from __future__ import annotations

import signal
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from symshape.errors import SymshapeError
from symshape.forking import child_context


@dataclass(frozen=True)
class Crashed:
    """The child died while running one item: its exit code (minus a signal number)."""

    exitcode: int | None

    def text(self) -> str:
        """``onnxruntime itself crashed: SIGABRT``, on one line."""
        code = self.exitcode
        if code is not None and code < 0:
            try:
                how = signal.Signals(-code).name
            except ValueError:
                how = f"signal {-code}"
        else:
            how = f"exit status {code}"
        return f"onnxruntime itself crashed: {how}"


def run_each(
    setup: Callable[[Any], Any], work: Callable[[Any, Any], Any], arg: Any, items: Sequence[Any]
) -> Iterator[Any]:
    """``work(setup(arg), item)`` for each item, in order, in a child process; a `Crashed` for
    an item whose run killed the child. ``setup`` and ``work`` are module-level functions and
    every argument and result is picklable (a fresh interpreter may run them)."""
    done = 0
    while done < len(items):
        results = _child_results(setup, work, arg, items[done:])
        for result in results:
            yield result
            done += 1


def _child_results(
    setup: Callable[[Any], Any], work: Callable[[Any, Any], Any], arg: Any, items: Sequence[Any]
) -> Iterator[Any]:
    ctx = child_context()
    ours, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_serve, args=(theirs, setup, work, arg, items), daemon=True)
    child.start()
    theirs.close()
    try:
        for _ in items:
            try:
                kind, payload = ours.recv()
            except EOFError:
                child.join()
                yield Crashed(child.exitcode)
                return
            if kind == "error":
                raise _error(payload)
            if kind == "bug":
                raise RuntimeError(f"in the child running onnxruntime:\n{payload}")
            yield payload
    finally:
        ours.close()
        child.join(timeout=5)
        if child.is_alive():
            child.kill()


def _serve(conn: Connection, setup: Callable[[Any], Any], work: Callable[[Any, Any], Any], arg: Any,
           items: Sequence[Any]) -> None:
    try:
        state = setup(arg)
        for item in items:
            conn.send(("result", work(state, item)))
    except SymshapeError as err:
        conn.send(("error", (type(err).__name__, err.where, err.found, err.expected, err.fix)))
    except Exception as err:  # noqa: BLE001 - a bug here is reported by the parent, with its trace
        conn.send(("bug", "".join(traceback.format_exception(err))))
    finally:
        conn.close()


def _error(parts: tuple[str, str, str, str, str]) -> SymshapeError:
    """The child's error again, of its class (every `SymshapeError` carries its four parts)."""
    name, where, found, expected, fix = parts
    kinds = {SymshapeError.__name__: SymshapeError, **{k.__name__: k for k in _subclasses(SymshapeError)}}
    return kinds.get(name, SymshapeError)(where=where, found=found, expected=expected, fix=fix)


def _subclasses(kind: type[SymshapeError]) -> list[type[SymshapeError]]:
    return [k for sub in kind.__subclasses__() for k in (sub, *_subclasses(sub))]
