"""What ``symshape optimize`` prints: the optimization summary, then the comparison run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from symshape.analysis import ProgressFn, analyze, gc_paused
from symshape.io import refuse_overwrite, write_bytes_atomic, write_failed
from symshape.onnx.reader import load_model, model_to_program
from symshape.optimize.model import optimize_with, relocate_external_data
from symshape.userfacts import Fact


def run_optimize(
    model_path: Path, out: Path, facts: Sequence[Fact | str], progress: ProgressFn | None, *, verify: bool
) -> tuple[list[str], bool]:
    """Optimize ``model_path`` into ``out``; the lines to print and whether the outputs matched
    (always True without ``verify``)."""
    if Path(out).resolve() == Path(model_path).resolve():
        raise refuse_overwrite(out, model_path, "input model")
    model = load_model(model_path)
    with gc_paused():
        program = model_to_program(model)
    result = analyze(program, facts=facts, progress=progress, source=str(model_path))
    optimized, summary = optimize_with(model, result)
    relocate_external_data(optimized, Path(model_path).parent, Path(out).parent)
    try:
        write_bytes_atomic(Path(out), optimized.SerializeToString())
    except OSError as err:
        raise write_failed(out, err) from None
    lines = [f"wrote {out}", *summary.lines()]
    if not verify:
        return lines, True
    from symshape.optimize.compare import compare_models

    report = compare_models(Path(model_path), Path(out), result)
    return [*lines, *report.lines, report.summary()], report.differed == 0
