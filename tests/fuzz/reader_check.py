"""The property every reader input must satisfy, checked in-process (a subprocess per input is
too slow for fuzzing).

`check_cli(args, inputs)` runs ``symshape ARGS`` through `symshape.app.cli.run` (the real entry
point, with its error handling) and returns None when the run ended well, else a description
of the failure:

* exit 0 (the input was valid), or exit 1 with exactly one stderr line starting ``error: ``,
  or click's own usage exit 2;
* no exception escaping (``SYMSHAPE_DEBUG=1`` makes `run` re-raise what it would print as an
  ``internal error``, so a bug is seen with its traceback);
* no run over `TIME_LIMIT` seconds (an interval timer raises `Hang`, a BaseException that no
  ``except Exception`` in the code under test can swallow);
* no input file changed (content hash, size and mtime before and after).

`check_call(fn)` is the same for a library call (``parse_dim``, ``parse_fact``): it may return
or raise a `SymshapeError` whose text is one line.
"""

from __future__ import annotations

import hashlib
import io
import os
import signal
import sys
import traceback
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from types import FrameType

from symshape.errors import SymshapeError

TIME_LIMIT = 10.0
USAGE_EXIT = 2  # click's usage errors (a bad option value), documented by click


class Hang(BaseException):  # noqa: N818 - a signal, not an error of the code under test
    """Raised by the interval timer when one input runs over `TIME_LIMIT`."""


@contextmanager
def time_limit(seconds: float = TIME_LIMIT) -> Generator[None, None, None]:
    """Raise `Hang` in the main thread when the block runs over ``seconds``."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"over {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def fingerprint(path: Path) -> tuple[str, int, int]:
    """Content hash, size and mtime of a file: any write to it changes one of them."""
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_size, st.st_mtime_ns


@contextmanager
def _debug_env() -> Generator[None, None, None]:
    old = os.environ.get("SYMSHAPE_DEBUG")
    os.environ["SYMSHAPE_DEBUG"] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ["SYMSHAPE_DEBUG"]
        else:
            os.environ["SYMSHAPE_DEBUG"] = old


def run_cli(args: Sequence[str]) -> tuple[int, str, str]:
    """``symshape ARGS`` in-process: (exit status, stdout, stderr). Exceptions that `run` lets
    through (with ``SYMSHAPE_DEBUG=1``: every unexpected one) propagate."""
    from symshape.app.cli import run

    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["symshape", *args]
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err), _debug_env():
            run()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


def check_cli(args: Sequence[str], inputs: Sequence[Path] = (), seconds: float = TIME_LIMIT) -> str | None:
    """None when ``symshape ARGS`` ends well on its inputs, else what went wrong (module doc)."""
    before = [fingerprint(p) for p in inputs]
    try:
        with time_limit(seconds):
            code, _, err = run_cli(args)
    except Hang as hang:
        return f"hang: {hang}"
    except Exception:  # noqa: BLE001 - the failure being looked for
        return "traceback:\n" + traceback.format_exc(limit=-8)
    problem = output_problem(code, err)
    if problem is None and [fingerprint(p) for p in inputs] != before:
        problem = "an input file was changed"
    return problem


def output_problem(code: int, err: str) -> str | None:
    """What is wrong with an exit status and stderr, or None (module doc)."""
    if code == 0 or code == USAGE_EXIT:
        return None
    lines = err.strip().splitlines()
    if code != 1:
        return f"exit status {code}: {err[-2000:]}"
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"not one error line ({len(lines)} lines): {err[-2000:]}"
    if "internal error" in lines[0] or "Traceback" in err:
        return f"internal error: {lines[0]}"
    return None


def check_call(fn: Callable[[], object], seconds: float = TIME_LIMIT) -> str | None:
    """None when ``fn()`` returns or raises a one-line `SymshapeError`, else what went wrong."""
    try:
        with time_limit(seconds):
            result = fn()
            str(result)  # printing the value must work too
    except Hang as hang:
        return f"hang: {hang}"
    except SymshapeError as err:
        text = str(err)
        return None if "\n" not in text else f"error of several lines: {text[:2000]}"
    except Exception:  # noqa: BLE001 - the failure being looked for
        return "traceback:\n" + traceback.format_exc(limit=-8)
    return None
