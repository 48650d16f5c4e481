"""The ``symshape optimize`` command's function and options (`symshape.app.cli` registers it with
the shared fact options). Everything heavy is imported when the command runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from symshape.app.options import model_argument, output_option, parse_sizes, size_option

VERIFY_HELP = (
    "Run both models in onnxruntime at several input sizes (1 and 0 included where legal) with the same "
    "kernels and compare every output bitwise; exit 1 on a difference."
)


@model_argument
@output_option("Where to write the optimized model (never the input).")
@click.option("--verify", "verify_outputs", is_flag=True, help=VERIFY_HELP)
@size_option
def optimize(
    model: Path,
    out: Path,
    verify_outputs: bool,
    sizes: tuple[str, ...],
    assume: tuple[str, ...],
    dim: tuple[str, ...],
    likely: tuple[str, ...],
    value: tuple[str, ...],
) -> None:
    """Write MODEL with its shape computation folded away and proven no-op nodes removed."""
    from symshape.app.optimize_run import finish_optimize
    from symshape.engine.userfacts import from_options
    from symshape.tools.optimize.model import analyze_file
    from symshape.tools.outputs.progress import progress_bar

    if sizes and not verify_outputs:
        raise click.UsageError("--size chooses the sizes --verify runs: give --verify too")
    facts = from_options(assume, dim, likely, value)
    with progress_bar() as progress:  # the analysis only: its refresh thread ends before the passes fork
        analyzed = analyze_file(model, out, facts=facts, progress=progress)
    values = parse_sizes(sizes, analyzed.result)
    lines, same = finish_optimize(analyzed, out, verify=verify_outputs, sizes=values)
    for line in lines:
        click.echo(line)
    if not same:
        sys.exit(1)
