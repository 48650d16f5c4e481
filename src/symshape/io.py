"""Files in and out: an unreadable input is a one-line error; outputs are written atomically (never
half-written) and never replace an input."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from symshape.errors import ModelError, OutputError, where_file, where_output

_CHOOSE = "choose another output path"


def read_file_bytes(path: str | Path, expected: str) -> bytes:
    """The bytes of ``path``; ModelError naming ``expected`` when it cannot be read."""
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise ModelError(
            where=where_file(path),
            found=f"cannot read it ({err.strerror or err})",
            expected=expected,
            fix="check the path and its permissions",
        ) from None


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; a plain open() would honour the umask
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (read by setting it, the only way, and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text_atomic(path: Path, text: str) -> None:
    """`write_bytes_atomic` for UTF-8 text."""
    write_bytes_atomic(path, text.encode("utf-8"))


def guard_input(out: Path, *inputs: Path) -> None:
    """Refuse to overwrite an input file (also through another relative path or a symlink)."""
    for i in inputs:
        if i.exists() and out.exists() and out.resolve() == i.resolve():
            raise refuse_overwrite(out, i)


def write_output(out: Path, text: str) -> None:
    """`write_text_atomic`, with OutputError naming the path when it cannot be written."""
    try:
        write_text_atomic(out, text)
    except OSError as err:
        raise write_failed(out, err) from None


def refuse_overwrite(out: Path | str, original: Path | str, what: str = "input file") -> OutputError:
    """The error for an output that names an input (``what``: how to call the input)."""
    return OutputError(
        where=where_output(out),
        found=f"refusing to overwrite the {what} '{original}'",
        expected="a path that is not one of the inputs",
        fix=_CHOOSE,
    )


def write_failed(out: Path | str, err: OSError) -> OutputError:
    """The error for an output that cannot be written, with the system's reason (and the path
    it is about when that is a directory on the way, not the output or its temporary file)."""
    reason = err.strerror or str(err)
    on_the_way = isinstance(err.filename, str) and Path(out) != Path(err.filename)
    if err.strerror and on_the_way and Path(out).is_relative_to(err.filename):
        reason = f"{reason}: '{err.filename}'"
    return OutputError(
        where=where_output(out),
        found=f"cannot write it ({reason})",
        expected="a path in a directory that exists or can be created, and is writable",
        fix=_CHOOSE,
    )
