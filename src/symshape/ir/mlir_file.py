"""Reading an ``.mlir`` file's text, for either reader (no xDSL import: the bindings path
never pays for it)."""

from __future__ import annotations

from pathlib import Path

from symshape.errors import ModelError, where_file
from symshape.io import read_file_bytes


def read_mlir_text(path: str | Path) -> str:
    """The text of an ``.mlir`` file; ModelError when it cannot be read or is not UTF-8."""
    data = read_file_bytes(path, "a readable .mlir file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ModelError(
            where=where_file(path),
            found=f"it is not UTF-8 text (byte 0x{data[err.start]:02x} on line {line})",
            expected="MLIR text in UTF-8",
            fix="check that this is the .mlir text and not bytecode or another file",
        ) from None
