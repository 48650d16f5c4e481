"""A progress bar on stderr for long walks (the command line's; no output format)."""

from __future__ import annotations

import sys
from collections.abc import Generator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from symshape.rules.walker import ProgressFn

MIN_OPS_FOR_PROGRESS = 5000


@contextmanager
def progress_bar() -> Generator[ProgressFn, None, None]:
    """A callback that shows a bar on stderr for long walks (nothing when not a terminal)."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn("analyzing"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} ops"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = None

    def update(done: int, total: int) -> None:
        nonlocal task
        if total < MIN_OPS_FOR_PROGRESS:
            return
        if task is None:
            bar.start()
            task = bar.add_task("analyze", total=total)
        bar.update(task, completed=done)

    try:
        yield update
    finally:
        bar.stop()
