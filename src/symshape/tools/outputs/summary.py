"""The human-readable summary: inputs, symbols, dim counts, classes, guards, unresolved dims by
root cause, fresh symbols by the op that made them, warnings."""

from __future__ import annotations

from typing import TextIO, cast

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from symshape.engine.result import Analysis, CauseGroup
from symshape.tools.outputs import OutputOptions, output_format

MAX_INPUT_ROWS = 12
MAX_ROWS = 20


@output_format("summary")
def write_summary(result: Analysis, out: TextIO, options: OutputOptions) -> None:
    """The summary as rich text (colors only on a terminal)."""
    print_summary(result, all_values=options.all_values, console=Console(file=out, highlight=False, soft_wrap=True))


def print_summary(result: Analysis, *, all_values: bool = False, console: Console | None = None) -> None:
    """Inputs and symbols, dim counts, classes largest first, guards, unresolved, warnings."""
    console = console or Console(highlight=False, soft_wrap=True)
    _inputs(console, result, all_values)
    _dims_and_classes(console, result)
    _print_list(console, "guards", [f"{escape(c)}   [dim]{escape(o)}: {escape(r)}[/]" for c, o, r in result.guards()])
    _unresolved(console, result)
    _fresh_symbols(console, result)
    _warnings(console, result)
    for note in result.notes:
        console.print(escape(note))
    if all_values:  # one print: rich costs ~0.6 ms a call, a minute for 100k values
        rows = (f"  {escape(name)}: {_dims(result.shape_or_none(name) or ())}" for name in result.value_names())
        console.print("\n".join(rows))


def _inputs(console: Console, result: Analysis, all_values: bool) -> None:
    program = result.program
    console.print(f"[bold]{result.source or program.name}[/]: {len(program.ops)} ops, {len(program.inputs)} inputs")
    table = Table("input", "dims", box=None, pad_edge=False)
    shown = program.inputs if all_values else program.inputs[:MAX_INPUT_ROWS]
    for name in shown:
        dims = result.shape_or_none(name)
        table.add_row(escape(name), _dims(dims) if dims is not None else "[red]unknown rank[/]")
    console.print(table)
    if len(shown) < len(program.inputs):
        console.print(f"  ... {len(program.inputs) - len(shown)} more inputs (--all-values lists them)")
    symbols = {n: s for n, s in result.symbols().items() if s["kind"] in ("input", "user")}
    if symbols:
        console.print("[bold]symbols[/]: " + ", ".join(_symbol(n, s) for n, s in symbols.items()))
    relations = result.user_relations()
    if relations:
        console.print("[bold]facts kept[/]: " + escape(", ".join(relations)))


def _dims_and_classes(console: Console, result: Analysis) -> None:
    kinds = result.dim_kinds()
    total = sum(kinds.values())
    console.print(
        f"[bold]dims[/]: {total} in all: {kinds['static']} static, {kinds['symbolic']} expressed in "
        f"input symbols, {kinds['fresh']} with fresh (data-dependent or unknown) symbols"
    )
    classes = result.classes()
    dynamic = sum(len(c) for c in classes)
    sets = "1 set" if len(classes) == 1 else f"{len(classes)} sets"
    console.print(f"[bold]classes[/]: {dynamic} dynamic dims in {sets}")
    for cls in classes[:10]:
        v, a = cls[0]
        console.print(f"  {len(cls):>6} x [cyan]{escape(str(result.dim(cls[0])))}[/]  e.g. {escape(f'{v}[{a}]')}")
    if len(classes) > 10:
        console.print(f"  ... {len(classes) - 10} more sets (--json lists them all)")


def _unresolved(console: Console, result: Analysis) -> None:
    """One line per root cause: how many dims it leaves unresolved, the cause, an example."""
    groups = result.causes()
    if not groups:
        console.print("[bold]unresolved[/]: none")
        return
    dims = sum(len(g.dims) for g in groups)
    causes = f"{len(groups)} {_plural(len(groups), 'cause')}"
    console.print(f"[bold]unresolved[/]: {dims} {_plural(dims, 'dim')} from {causes}")
    for g in groups[:MAX_ROWS]:
        console.print(f"  {len(g.dims):>6} x {escape(_cause_text(result, g))}")
    if len(groups) > MAX_ROWS:
        console.print(f"  ... {len(groups) - MAX_ROWS} more causes (--json lists them all)")


def _cause_text(result: Analysis, group: CauseGroup) -> str:
    text = result.public_text(str(group.cause))
    value, axis = group.dims[0]
    return text + f"  e.g. {value}" + (" (unknown rank)" if axis < 0 else f"[{axis}]")


def _fresh_symbols(console: Console, result: Analysis) -> None:
    """One line per op that made fresh symbols, with the symbols (and ranges other than [0, inf])."""
    origins = result.fresh_symbols()
    if not origins:
        return
    info = result.symbols()
    count = sum(len(names) for _, names in origins)
    console.print(f"[bold]fresh symbols[/]: {count} from {len(origins)} {_plural(len(origins), 'op')}")
    for where, names in origins[:MAX_ROWS]:
        shown = ", ".join(_symbol(n, info[n]) if _ranged(info[n]) else n for n in names)
        console.print(f"  {escape(where)}: {escape(shown)}")
    if len(origins) > MAX_ROWS:
        console.print(f"  ... {len(origins) - MAX_ROWS} more ops (--json lists every symbol)")


def _warnings(console: Console, result: Analysis) -> None:
    """Ops that were skipped, except those that only gave up because of an earlier cause."""
    later = sum(1 for w in result.warnings if w.follows_earlier_cause())
    rows = [
        escape(f"{w.op_type} '{w.op_name}': {result.public_text(w.message)}")
        for w in result.warnings
        if not w.follows_earlier_cause()
    ]
    note = f" (and {later} {_plural(later, 'op')} that gave up because of a cause above)" if later else ""
    _print_list(console, "warnings", rows, note=note)


def _print_list(console: Console, title: str, rows: list[str], limit: int = MAX_ROWS, note: str = "") -> None:
    if not rows:
        console.print(f"[bold]{title}[/]: none{escape(note)}")
        return
    console.print(f"[bold]{title}[/]: {len(rows)}{escape(note)}")
    for row in rows[:limit]:
        console.print(f"  {row}")
    if len(rows) > limit:
        console.print(f"  ... {len(rows) - limit} more (--json lists them all)")


def _dims(dims: tuple[object, ...]) -> str:
    return escape("[" + ", ".join(str(d) for d in dims) + "]")


def _ranged(info: dict[str, object]) -> bool:
    lo, hi = cast("tuple[object, object]", info["range"])
    return (lo, hi) != (0, None) or info.get("divisor", 1) != 1


def _symbol(name: str, info: dict[str, object]) -> str:
    lo, hi = cast("tuple[object, object]", info["range"])
    text = f"{name} in [{lo}, {'inf' if hi is None else hi}]"
    if info.get("divisor", 1) != 1:
        text += f", {info['divisor']} | {name}"
    return text


def _plural(n: int, word: str) -> str:
    return word if n == 1 else f"{word}s"
