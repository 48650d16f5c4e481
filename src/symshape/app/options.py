"""Options shared by the commands: ``-o/--output`` (one definition, the help naming what is
written) and the MODEL argument with ``--example``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import click


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
