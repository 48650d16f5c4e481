"""The human-readable summary of an analysis, and a progress bar for long models."""

from __future__ import annotations

import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import cast

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from symshape.analysis import ProgressFn
from symshape.result import Analysis

MIN_OPS_FOR_PROGRESS = 5000
MAX_INPUT_ROWS = 12


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


def print_summary(result: Analysis, *, all_values: bool = False, console: Console | None = None) -> None:
    """Inputs and symbols, dim counts, classes largest first, guards, unresolved, warnings."""
    console = console or Console(highlight=False, soft_wrap=True)
    program = result.program
    console.print(f"[bold]{result.source or program.name}[/]: {len(program.ops)} ops, {len(program.inputs)} inputs")
    table = Table("input", "dims", box=None, pad_edge=False)
    shown = program.inputs if all_values else program.inputs[:MAX_INPUT_ROWS]
    for name in shown:
        dims = result.shape(name)
        table.add_row(escape(name), _dims(dims) if dims is not None else "[red]unknown rank[/]")
    console.print(table)
    if len(shown) < len(program.inputs):
        console.print(f"  ... {len(program.inputs) - len(shown)} more inputs (--all-values lists them)")
    symbols = result.symbols()
    if symbols:
        console.print("[bold]symbols[/]: " + ", ".join(_symbol(n, s) for n, s in symbols.items()))
    kinds = result.dim_kinds()
    total = sum(kinds.values())
    console.print(
        f"[bold]dims[/]: {total} in all: {kinds['static']} static, {kinds['symbolic']} expressed in "
        f"input symbols, {kinds['fresh']} with fresh (data-dependent or unknown) symbols"
    )
    classes = result.classes()
    dynamic = sum(len(c) for c in classes)
    console.print(f"[bold]classes[/]: {dynamic} dynamic dims in {len(classes)} sets")
    for cls in classes[:10]:
        v, a = cls[0]
        console.print(f"  {len(cls):>6} x [cyan]{escape(str(result.dim(cls[0])))}[/]  e.g. {escape(f'{v}[{a}]')}")
    if len(classes) > 10:
        console.print(f"  ... {len(classes) - 10} more sets (--json lists them all)")
    _print_list(console, "guards", [f"{escape(c)}   [dim]{escape(o)}: {escape(r)}[/]" for c, o, r in result.guards()])
    _print_list(
        console,
        "unresolved",
        [escape(f"{u.value}[{u.axis}]: {result.public_text(u.reason)}") for u in result.unresolved],
    )
    _print_list(
        console,
        "warnings",
        [escape(f"{w.op_type} '{w.op_name}': {result.public_text(w.message)}") for w in result.warnings],
    )
    if all_values:
        for name in result.value_names():
            console.print(f"  {escape(name)}: {_dims(result.shape(name) or ())}")


def _print_list(console: Console, title: str, rows: list[str], limit: int = 20) -> None:
    if not rows:
        console.print(f"[bold]{title}[/]: none")
        return
    console.print(f"[bold]{title}[/]: {len(rows)}")
    for row in rows[:limit]:
        console.print(f"  {row}")
    if len(rows) > limit:
        console.print(f"  ... {len(rows) - limit} more (--json lists them all)")


def _dims(dims: tuple[object, ...]) -> str:
    return escape("[" + ", ".join(str(d) for d in dims) + "]")


def _symbol(name: str, info: dict[str, object]) -> str:
    lo, hi = cast("tuple[object, object]", info["range"])
    text = f"{name} in [{lo}, {'inf' if hi is None else hi}]"
    if info.get("divisor", 1) != 1:
        text += f", {info['divisor']} | {name}"
    return text
