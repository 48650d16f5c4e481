"""Analyze a ``torch.export.ExportedProgram`` (in memory, or saved as ``.pt2``).

torch is an optional extra, imported only here on first use. The analysis runs on the translated
program (`symshape.frontends.fx.reader`) with torch's ``range_constraints`` as ranges of its symbols, and
`symshape.frontends.fx.compare` then sets what it proved beside what torch recorded.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symshape.engine.inputs import input_symbol_names
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact, Range
from symshape.errors import ModelError, where_file
from symshape.frontends.fx.compare import compare_with_torch
from symshape.frontends.fx.reader import TorchProgram, exported_to_program
from symshape.io import read_file_bytes
from symshape.optional import import_extra
from symshape.rules.walker import ProgressFn, analyze

__all__ = ["TORCH_SUFFIXES", "analyze_torch", "analyze_torch_file", "load_exported_program", "translate"]

TORCH_SUFFIXES = (".pt2",)


def load_exported_program(path: str | Path) -> Any:
    """The ``ExportedProgram`` saved in ``path`` by ``torch.export.save``."""
    path = Path(path)
    torch = import_extra("torch", where=where_file(path), reading="a torch.export program",
                         requirement="torch==2.13.0", extra="torch")
    data = read_file_bytes(path, "a readable .pt2 file")
    quiet = logging.getLogger("torch.export")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # torch logs the reader's failure before raising it
    try:
        return torch.export.load(io.BytesIO(data))
    except Exception as err:  # noqa: BLE001 - torch's loader fails with many exception types
        raise ModelError(
            where=where_file(path),
            found=f"it is not a saved torch.export program ({type(err).__name__}: {str(err)[:120]})",
            expected="a file written by torch.export.save(exported_program, path)",
            fix="save the program with torch.export.save (with the torch version that reads it)",
        ) from None
    finally:
        quiet.setLevel(level)


def translate(ep: Any) -> TorchProgram:
    """The program of ``ep`` and torch's dims and ranges (`symshape.frontends.fx.reader`)."""
    if not hasattr(ep, "graph_signature") or not hasattr(ep, "range_constraints"):
        raise ModelError(
            where="the torch program",
            found=f"a {type(ep).__name__}",
            expected="a torch.export.ExportedProgram",
            fix="pass the result of torch.export.export(module, args, dynamic_shapes=...)",
        )
    return exported_to_program(ep)


def analyze_torch(
    ep: Any,
    *,
    facts: Sequence[Fact | str] = (),
    progress: ProgressFn | None = None,
    source: str = "<torch.export.ExportedProgram>",
) -> Analysis:
    """Analyze an ``ExportedProgram``; its dims take torch's symbol names (``s0``)."""
    tp = translate(ep)
    symbols = set(input_symbol_names(tp.program))
    ranges: list[Fact | str] = [f for f in tp.facts if isinstance(f, Range) and f.symbol in symbols]
    result = analyze(tp.program, facts=[*ranges, *facts], progress=progress, source=source)
    comparison = compare_with_torch(result, tp)
    result.notes.extend(comparison.lines())
    if tp.untranslated:
        kinds = ", ".join(f"{k} ({n})" for k, n in sorted(tp.untranslated.items()))
        result.notes.append(f"torch.export: aten ops without a translator (typed from torch's meta): {kinds}")
    return result


def analyze_torch_file(
    path: str | Path, *, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> Analysis:
    """`analyze_torch` of the program saved in ``path``."""
    return analyze_torch(load_exported_program(path), facts=facts, progress=progress, source=str(path))
