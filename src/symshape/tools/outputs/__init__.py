"""Output formats: a format name -> the writer that renders an `Analysis` in that format.

Each format is one module in this package that registers its writer with `output_format`;
every module here is imported on first use, so a new format is two files: its module and its
test. ``symshape analyze --format NAME`` picks one.
"""

from __future__ import annotations

import importlib
import io
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from symshape.errors import OutputError, where_option

if TYPE_CHECKING:
    from symshape.engine.result import Analysis


@dataclass(frozen=True)
class OutputOptions:
    """What the command line passes to every writer (a writer ignores what it has no use for)."""

    all_values: bool = False


Writer = Callable[["Analysis", TextIO, OutputOptions], None]

_WRITERS: dict[str, Writer] = {}
_loaded = False


def output_format(name: str) -> Callable[[Writer], Writer]:
    """Register the decorated function as the writer of format ``name``."""

    def wrap(fn: Writer) -> Writer:
        _WRITERS[name] = fn
        return fn

    return wrap


def format_names() -> list[str]:
    """Every registered format, sorted."""
    _load()
    return sorted(_WRITERS)


def writer(name: str) -> Writer:
    """The writer of format ``name``; OutputError naming the known formats when there is none."""
    _load()
    found = _WRITERS.get(name)
    if found is None:
        known = ", ".join(sorted(_WRITERS))
        raise OutputError(
            where=where_option("--format", name),
            found="there is no such output format",
            expected=f"one of: {known}",
            fix="choose one of them",
        )
    return found


def render(result: Analysis, name: str, options: OutputOptions | None = None) -> str:
    """``result`` in format ``name`` as text."""
    out = io.StringIO()
    writer(name)(result, out, options or OutputOptions())
    return out.getvalue()


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
