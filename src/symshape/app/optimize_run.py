"""What ``symshape optimize`` prints: the optimization summary, then the comparison run."""

from __future__ import annotations

from pathlib import Path

from symshape.tools.optimize.model import Analyzed, write_optimized


def finish_optimize(
    analyzed: Analyzed, out: Path, *, verify: bool, sizes: dict[str, list[int]] | None = None
) -> tuple[list[str], bool]:
    """Optimize the analyzed model into ``out``; the lines to print and whether the outputs
    matched (always True without ``verify``; ``sizes``: candidate sizes per input symbol)."""
    summary = write_optimized(analyzed, out)
    lines = [f"wrote {out}", *summary.lines()]
    if not verify:
        return lines, True
    from symshape.tools.optimize.compare import compare_models

    report = compare_models(analyzed.path, Path(out), analyzed.result, values=sizes)
    return [*lines, *report.lines, report.summary()], report.differed == 0
