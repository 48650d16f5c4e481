"""The ``-o/--output`` option of the commands that write a file (``cli``, ``optimize``,
``report``): one definition, the help naming what is written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click


def output_option(what: str) -> Callable[[click.decorators.FC], click.decorators.FC]:
    """A required ``-o/--output OUT`` path; ``what``: the help text (where the output goes)."""
    return click.option(
        "-o", "--output", "out", required=True, type=click.Path(dir_okay=False, path_type=Path), help=what
    )
