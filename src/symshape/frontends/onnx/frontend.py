"""The ONNX entry point of the analysis: a model file or ModelProto, its weights never loaded
(``onnx`` itself is imported on first use: an MLIR or torch input never pays for it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.memory import gc_paused
from symshape.rules.walker import ProgressFn, analyze

if TYPE_CHECKING:
    import onnx

__all__ = ["analyze_onnx"]


def analyze_onnx(
    model: str | Path | onnx.ModelProto,
    *,
    facts: Sequence[Fact | str] = (),
    progress: ProgressFn | None = None,
) -> Analysis:
    """Analyze an ONNX model file or ModelProto (weights are never loaded).

    ``facts`` are fact values (`symshape.engine.userfacts`) or strings in ``--assume`` syntax.
    """
    from symshape.frontends.onnx.reader import load_model, model_to_program

    source = ""
    if isinstance(model, (str, Path)):
        source = str(model)
        model = load_model(model)
    with gc_paused():
        program = model_to_program(model)
    return analyze(program, facts=facts, progress=progress, source=source)
