# pyright: strict
"""Which frontend reads which file: one registry of suffixes, readers and extras, which the API,
sweeps and the command line read (adding a frontend is its own folder and one line here).

A frontend's reader is named as ``module:function`` and imported on first use, so reading an
ONNX model never imports torch or jax.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from symshape.engine.result import Analysis
    from symshape.engine.userfacts import Fact
    from symshape.rules.walker import ProgressFn

__all__ = ["FRONTENDS", "Frontend", "analyze_path", "frontend_for", "readable_files", "sweep_suffixes"]


@dataclass(frozen=True)
class Frontend:
    """One kind of input file."""

    what: str
    """What the file is, for messages: ``an ONNX model``."""
    suffixes: tuple[str, ...]
    reader: str
    """``module:function`` taking ``(path, facts=..., progress=...)`` and returning an Analysis."""
    imports: tuple[str, ...] = ()
    """Modules a sweep imports before it forks its workers (optional ones may be missing)."""
    swept: bool = True
    """Whether a sweep over a folder picks these files up (``.bin`` is often external weights)."""

    def analyze(self, path: Path, facts: Sequence[Fact | str], progress: ProgressFn | None) -> Analysis:
        """Analyze ``path`` with this frontend's reader."""
        module, function = self.reader.split(":")
        read: Callable[..., Any] = getattr(importlib.import_module(module), function)
        return read(path, facts=facts, progress=progress)


FRONTENDS: tuple[Frontend, ...] = (
    Frontend("an ONNX model", (".onnx",), "symshape.frontends.onnx.frontend:analyze_onnx",
             ("symshape.frontends.onnx.frontend",)),
    Frontend("an MLIR module", (".mlir",), "symshape.frontends.mlir.frontend:analyze_mlir_file",
             ("symshape.frontends.mlir.frontend",)),
    Frontend("a serialized jax export", (".jaxexp",), "symshape.frontends.jax.exported:analyze_jax_file"),
    Frontend("a serialized jax export", (".bin",), "symshape.frontends.jax.exported:analyze_jax_file", swept=False),
    Frontend("a saved torch.export program", (".pt2",), "symshape.frontends.fx.frontend:analyze_torch_file",
             ("symshape.frontends.fx.frontend", "torch.export")),
)
_ONNX = FRONTENDS[0]


def frontend_for(path: Path) -> Frontend:
    """The frontend of ``path``'s suffix; ONNX's for any other (its reader says what it expected)."""
    return next((f for f in FRONTENDS if path.suffix in f.suffixes), _ONNX)


def analyze_path(path: str | Path, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None) -> Analysis:
    """Analyze the file ``path`` with the frontend of its suffix; a file of another suffix is read
    as ONNX, and when it is not one the error lists every kind of file symshape reads."""
    from symshape.errors import ModelError, where_file

    path = Path(path)
    if not path.exists():
        raise ModelError(where=where_file(path), found="the file does not exist",
                         expected=f"the path of {readable_files()}", fix="check the path")
    frontend = frontend_for(path)
    if path.suffix in frontend.suffixes:
        return frontend.analyze(path, facts, progress)
    try:
        return frontend.analyze(path, facts, progress)
    except ModelError as err:
        raise ModelError(where=err.where, found=f"{err.found} (read as ONNX: '{path.suffix}' names no other kind)",
                         expected=f"one of: {readable_files()}",
                         fix="give the file the suffix of its kind") from None


def sweep_suffixes() -> tuple[str, ...]:
    """The suffixes a sweep over a folder picks up, in registry order."""
    return tuple(s for f in FRONTENDS if f.swept for s in f.suffixes)


def readable_files() -> str:
    """What files the tool reads, for messages: ``an ONNX model (.onnx), an MLIR module (.mlir),
    ...``."""
    kinds: dict[str, list[str]] = {}
    for f in FRONTENDS:
        kinds.setdefault(f.what, []).extend(f.suffixes)
    return ", ".join(f"{what} ({', '.join(suffixes)})" for what, suffixes in kinds.items())
