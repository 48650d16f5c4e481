"""Options shared by the commands: ``-o/--output`` (one definition, the help naming what is
written), the MODEL argument with ``--example``, and ``--size`` (the sizes a run tries)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from symshape.errors import UserFactError, where_option

if TYPE_CHECKING:
    from symshape.engine.result import Analysis


def output_option(what: str) -> Callable[[click.decorators.FC], click.decorators.FC]:
    """A required ``-o/--output OUT`` path; ``what``: the help text (where the output goes)."""
    return click.option(
        "-o", "--output", "out", required=True, type=click.Path(dir_okay=False, path_type=Path), help=what
    )


def model_argument(fn: Callable[..., None]) -> Callable[..., None]:
    """The MODEL argument, which ``--example`` may stand in for (the bundled tiny BERT): one
    definition for every command that takes a model."""

    @functools.wraps(fn)
    def run(*args: object, model: Path | None, example: bool, **kwargs: object) -> None:
        if example:
            from symshape.api import example_path

            model = example_path()
        if model is None:
            raise click.UsageError("give a MODEL path or --example")
        fn(*args, model=model, **kwargs)

    run = click.option("--example", is_flag=True, help="Use the bundled tiny BERT example as MODEL.")(run)
    return click.argument("model", required=False, type=click.Path(dir_okay=False, path_type=Path))(run)


size_option = click.option(
    "--size", "sizes", multiple=True, metavar="NAME=V1,V2", help="Candidate sizes for an input symbol (repeatable)."
)


def parse_sizes(items: tuple[str, ...], result: Analysis) -> dict[str, list[int]]:
    """``--size NAME=V1,V2`` values; UserFactError for a bad item, an unknown symbol, or a size
    that the symbol's facts exclude."""
    from symshape.tools.verify import input_symbol_names

    known = sorted(set(input_symbol_names(result.program)) & set(result.graph.symbols))
    values: dict[str, list[int]] = {}
    for item in items:
        name, eq, text = (part.strip() for part in item.partition("="))
        sizes = [v.strip() for v in text.split(",")]
        if not eq or not name or not all(v.isdigit() for v in sizes):
            raise UserFactError(
                where=where_option("--size", item),
                found="not a list of sizes",
                expected="NAME=V1,V2,... with sizes >= 0",
                fix="write e.g. --size seq=7,128",
            )
        if name not in known:
            raise UserFactError(
                where=where_option("--size", item),
                found=f"names '{name}', which is not an input symbol",
                expected=f"one of the input symbols: {', '.join(known) or 'none'}",
                fix="use one of those names",
            )
        facts = result.graph.facts.get(name)
        bad = [v for v in sizes if not facts.admits(int(v))]
        if bad:
            lo = "-inf" if facts.lo is None else facts.lo
            hi = "inf" if facts.hi is None else facts.hi
            divisor = f" and a multiple of {facts.divisor}" if facts.divisor != 1 else ""
            raise UserFactError(
                where=where_option("--size", item),
                found=f"{name}={bad[0]} is excluded by the facts on {name}",
                expected=f"a size in [{lo}, {hi}]{divisor}",
                fix="give sizes the facts admit",
            )
        values[name] = [int(v) for v in sizes]
    return values
