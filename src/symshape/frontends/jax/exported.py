"""Serialized ``jax.export.Exported`` objects: read one and analyze its StableHLO module.

An ``Exported`` carries its module as StableHLO (``exported.mlir_module()``), the same text
`symshape.frontends.mlir.frontend.analyze_mlir_text` reads from a ``.mlir`` file; its ``shape_assertion``
messages quote jax's shape specifications, so the arguments' dims take jax's names (``b``,
``s``: `symshape.frontends.mlir.jax_export`), the names ``exported.in_avals`` shows. A file is what
``Exported.serialize()`` wrote (a flatbuffer), read back by ``jax.export.deserialize``. jax is an
optional extra: it is imported only here, on first use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.errors import ModelError, where_file
from symshape.io import read_file_bytes
from symshape.optional import import_extra
from symshape.rules.walker import ProgressFn

__all__ = ["JAX_SUFFIXES", "analyze_jax", "analyze_jax_file", "input_dim_names", "load_exported"]

JAX_SUFFIXES = (".jaxexp", ".bin")
_NAME = re.compile(r"[A-Za-z_]\w*")
_JAX_FUNCTIONS = {"floordiv", "mod", "max", "min", "non_negative"}
_SERIALIZE = "jax.export.export(jax.jit(f))(*specs).serialize()"


def load_exported(path: str | Path) -> Any:
    """The ``jax.export.Exported`` serialized in ``path``; ModelError when the file cannot be
    read or is not a serialized Exported."""
    path = Path(path)
    export = import_extra("jax.export", where=where_file(path), reading="a jax export", requirement="jax", extra="jax")
    data = read_file_bytes(path, "a readable file written by jax.export.Exported.serialize()")
    if not data:
        raise ModelError(
            where=where_file(path),
            found="the file is empty",
            expected=f"the bytes of {_SERIALIZE}",
            fix="write the file again with Exported.serialize() (a write that failed half-way leaves it empty)",
        )
    try:
        return export.deserialize(bytearray(data))
    except ImportError as err:  # jax reads the flatbuffer with a package of its own
        named = re.search(r"'([A-Za-z_][\w.]*)'", str(err))
        missing = err.name or (named.group(1) if named else "flatbuffers")
        raise ModelError(
            where=where_file(path),
            found=f"jax needs the module '{missing}' to read a serialized export, which is not installed ({err})",
            expected="jax with its serialization dependency (the optional extra symshape[jax])",
            fix=f"pip install 'symshape[jax]' (or pip install {missing.split('.')[0]})",
        ) from None
    except Exception as err:  # noqa: BLE001 - the flatbuffer reader fails with any exception type
        raise ModelError(
            where=where_file(path),
            found=f"it is not a serialized jax.export.Exported (jax's reader fails with {_describe(err)})",
            expected=f"the bytes of {_SERIALIZE}",
            fix="write the file with Exported.serialize() (with the jax version that reads it), or give an "
            ".onnx or .mlir model its own suffix",
        ) from None


def _describe(err: Exception) -> str:
    """``struct.error: unpack_from requires a buffer of at least 4 bytes``, shortened."""
    kind = type(err)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    text = " ".join(str(err).split())
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"{name}: {text}" if text else name


def input_dim_names(exported: Any) -> list[str]:
    """The dimension variables of ``exported.in_avals`` (jax's names, in order of appearance)."""
    names: dict[str, None] = {}
    for aval in exported.in_avals:
        for d in aval.shape:
            if not isinstance(d, int):
                names.update(dict.fromkeys(_NAME.findall(str(d))))
    return [n for n in names if n not in _JAX_FUNCTIONS]


def analyze_jax(
    exported: Any,
    *,
    facts: Sequence[Fact | str] = (),
    progress: ProgressFn | None = None,
    source: str = "<jax.export.Exported>",
) -> Analysis:
    """Analyze a ``jax.export.Exported`` through its StableHLO module (see the module doc)."""
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    return analyze_mlir_text(exported.mlir_module(), facts, progress, source=source)


def analyze_jax_file(
    path: str | Path, *, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> Analysis:
    """`analyze_jax` of the Exported serialized in ``path`` (`load_exported`)."""
    return analyze_jax(load_exported(path), facts=facts, progress=progress, source=str(path))
