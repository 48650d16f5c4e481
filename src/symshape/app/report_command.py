"""The ``symshape report`` command's function and options (`symshape.app.cli` registers it with the
shared fact options). Everything heavy is imported when the command runs."""

from __future__ import annotations

from pathlib import Path

import click

from symshape.app.options import model_argument, output_option


@model_argument
@output_option("Where to write the HTML page (never the input).")
def report(
    model: Path, out: Path, assume: tuple[str, ...], dim: tuple[str, ...], likely: tuple[str, ...],
    value: tuple[str, ...],
) -> None:
    """Write a self-contained HTML report of MODEL: summary, symbols, classes, guards, every
    value's dims (searchable) and a graph coloured by equivalence class."""
    from symshape.api import analyze_file
    from symshape.engine.userfacts import from_options
    from symshape.io import guard_input, write_output
    from symshape.tools.outputs.progress import progress_bar
    from symshape.tools.report.page import report_html

    guard_input(out, model)
    with progress_bar() as progress:
        result = analyze_file(model, facts=from_options(assume, dim, likely, value), progress=progress)
    write_output(out, report_html(result))
    click.echo(f"wrote {out}: {len(result.value_names())} values, {len(result.program.ops)} ops")
