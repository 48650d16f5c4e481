"""What ``symshape optimize`` prints: the optimization summary, then the comparison run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from symshape.analysis import ProgressFn
from symshape.optimize.model import optimize_file
from symshape.userfacts import Fact


def run_optimize(
    model_path: Path, out: Path, facts: Sequence[Fact], progress: ProgressFn | None, *, verify: bool
) -> tuple[list[str], bool]:
    """Optimize ``model_path`` into ``out``; the lines to print and whether the outputs matched
    (always True without ``verify``)."""
    summary, result = optimize_file(model_path, out, facts=facts, progress=progress)
    lines = [f"wrote {out}", *summary.lines()]
    if not verify:
        return lines, True
    from symshape.optimize.compare import compare_models

    report = compare_models(Path(model_path), Path(out), result)
    return [*lines, *report.lines, report.summary()], report.differed == 0
