"""Sweeps: analyze every model of a directory or a glob, in a process pool on one machine.

`analyze_one` is the whole job for one model (analyze, write its JSON document, count what the
summary shows) and never raises: a failing model becomes an `Outcome` with its error line, so
one bad file never stops the others. It takes and returns plain values only, so any executor
that pickles a function and its arguments can run it: `run_sweep` uses
``concurrent.futures.ProcessPoolExecutor`` (``jobs=1``: in this process, one at a time); for a
fleet, map the same function with Dask or Ray (examples/sweep_dask.py).
"""

from __future__ import annotations

import glob
import importlib
import multiprocessing
import sys
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from pathlib import Path

from symshape.errors import SymshapeError
from symshape.forking import fork_hazards
from symshape.frontends import frontend_for, sweep_suffixes

__all__ = ["SUFFIXES", "Outcome", "analyze_one", "find_models", "is_sweep", "json_names", "run_sweep",
           "summary_table"]

SUFFIXES = sweep_suffixes()  # not .bin: external weights are often named so
_GLOB_CHARS = "*?["
Options = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # --assume --dim --likely --value


@dataclass(frozen=True)
class Outcome:
    """What one model's analysis gave: the summary's counts, or the error line."""

    model: str
    seconds: float
    ops: int = 0
    dims: int = 0
    dynamic: int = 0
    guards: int = 0
    unresolved: int = 0
    error: str | None = None
    json_path: str | None = None


def is_sweep(model: str | Path) -> bool:
    """Whether MODEL names many models: a directory, or a pattern with a glob character."""
    return Path(model).is_dir() or any(c in str(model) for c in _GLOB_CHARS)


def find_models(model: str | Path) -> list[Path]:
    """The model files (`SUFFIXES`) in a directory (not its subdirectories) or matching a glob
    (``**`` reaches into subdirectories), sorted."""
    text = str(model)
    found = Path(text).iterdir() if Path(text).is_dir() else (Path(p) for p in glob.glob(text, recursive=True))
    return sorted(p for p in found if p.is_file() and p.suffix in SUFFIXES)


def json_names(models: Sequence[Path]) -> dict[Path, str]:
    """Each model's JSON file name: ``<stem>.json``, or ``<name>.json`` where stems collide
    (``a.onnx`` and ``a.mlir``), or the path's parts joined where even names collide."""
    stems = [m.stem for m in models]
    names = [m.name for m in models]
    out: dict[Path, str] = {}
    for m in models:
        if stems.count(m.stem) == 1:
            out[m] = f"{m.stem}.json"
        elif names.count(m.name) == 1:
            out[m] = f"{m.name}.json"
        else:
            out[m] = "_".join(p for p in m.parts if p not in ("/", "..", ".")) + ".json"
    return out


def analyze_one(model: str, json_path: str | None = None, options: Options = ((), (), (), ())) -> Outcome:
    """Analyze ``model`` (facts from the command line's ``--assume``/``--dim``/``--likely``
    texts), write its JSON document to ``json_path`` atomically, and return the counts; any
    failure is returned as the outcome's one-line error, never raised."""
    start = time.perf_counter()
    try:
        from symshape.api import analyze_file
        from symshape.engine.userfacts import from_options
        from symshape.io import write_text_atomic
        from symshape.tools.outputs import render

        result = analyze_file(model, facts=from_options(*options))
        if json_path is not None:
            write_text_atomic(Path(json_path), render(result, "json"))
        kinds = result.dim_kinds()
        return Outcome(model, time.perf_counter() - start, ops=len(result.program.ops), dims=sum(kinds.values()),
                       dynamic=kinds["symbolic"] + kinds["fresh"], guards=len(result.guards()),
                       unresolved=len(result.unresolved), json_path=json_path)
    except SymshapeError as err:
        return Outcome(model, time.perf_counter() - start, error=str(err))
    except OSError as err:
        return Outcome(model, time.perf_counter() - start, error=f"cannot write '{json_path}': {err}")
    except Exception as err:  # noqa: BLE001 - a bug in one model's analysis must not stop the sweep
        return Outcome(model, time.perf_counter() - start, error=_internal(err))


def _internal(err: BaseException) -> str:
    from symshape.rules.walker import INTERNAL_NOTE

    notes: list[str] = getattr(err, "__notes__", [])
    where = next((n.removeprefix(INTERNAL_NOTE) for n in notes if n.startswith(INTERNAL_NOTE)), None)
    during = f" while analyzing {where}" if where else ""
    text = f"internal error{during}: {type(err).__name__}: {err}; this is a symshape bug, please report it"
    return " ".join(text.split())


def run_sweep(models: Sequence[Path], *, jobs: int = 1, json_dir: Path | None = None,
              options: Options = ((), (), (), ()), done: Callable[[Outcome], None] = lambda o: None) -> list[Outcome]:
    """`analyze_one` of every model, ``jobs`` at a time in worker processes (1: here, in
    order); ``done`` is told of each outcome as it finishes. The outcomes in ``models``' order.

    A worker that dies (a crash in native code: jaxlib's MLIR parser, a signal) breaks the whole
    pool, failing every model it had not finished; those are then run again each in a pool of
    its own, so only the model that kills its worker is reported as failed."""
    names = json_names(models)
    paths = {m: str(json_dir / names[m]) if json_dir is not None else None for m in models}
    outcomes: dict[Path, Outcome] = {}
    if jobs <= 1:
        for m in models:
            outcomes[m] = analyze_one(str(m), paths[m], options)
            done(outcomes[m])
        return [outcomes[m] for m in models]
    _warm(models)
    broken = _pool_round(models, jobs, paths, options, outcomes, done)
    for m in broken:
        if not _pool_round([m], 1, paths, options, outcomes, done):
            continue
        outcomes[m] = Outcome(str(m), 0.0, error="the worker process analyzing it died (a crash in native code); "
                              "analyze it alone with SYMSHAPE_DEBUG=1 to see where")
        done(outcomes[m])
    return [outcomes[m] for m in models]


def _pool_round(models: Sequence[Path], jobs: int, paths: dict[Path, str | None], options: Options,
                outcomes: dict[Path, Outcome], done: Callable[[Outcome], None]) -> list[Path]:
    """Run ``models`` in one pool, largest file first (a big model started last would keep one
    worker busy alone at the end), recording each outcome; the models a broken pool failed."""
    broken: list[Path] = []
    largest_first = sorted(models, key=_size, reverse=True)
    with ProcessPoolExecutor(max_workers=min(jobs, len(models)), mp_context=_context()) as pool:
        futures = {pool.submit(analyze_one, str(m), paths[m], options): m for m in largest_first}
        for future in as_completed(futures):
            m = futures[future]
            try:
                outcomes[m] = future.result()
            except BrokenProcessPool:
                broken.append(m)
                continue
            done(outcomes[m])
    return sorted(broken)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _context() -> BaseContext:
    """Fork (the workers start at once, with `_warm`'s imports), unless this process has loaded
    a runtime with native thread pools (jaxlib, onnxruntime: a fork copies their held locks and
    no thread to release them) or runs other threads: then a fresh interpreter per worker."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and not fork_hazards():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _warm(models: Sequence[Path]) -> None:
    """Import what the workers need (the readers of these suffixes, every rule) before the pool
    starts them: forked workers share it instead of each importing it again (0.3 s a worker)."""
    from symshape.rules.registry import known_ops

    known_ops()
    readers = {frontend_for(m) for m in models}
    for module in ["symshape.api", "symshape.tools.outputs.json", "symshape.engine.userfacts",
                   *sorted({m for f in readers for m in f.imports})]:
        try:
            importlib.import_module(module)
        except ImportError:  # an optional extra (torch): each model that needs it reports that
            continue


COLUMNS = ("model", "ops", "dims", "dynamic", "guards", "unresolved", "seconds")


def summary_table(outcomes: Sequence[Outcome]) -> str:
    """One row per model (its counts, or its error), then a line of totals."""
    rows: list[list[str]] = [list(COLUMNS)]
    for o in outcomes:
        counts = [o.ops, o.dims, o.dynamic, o.guards, o.unresolved]
        rows.append([o.model, *(["-"] * 5 if o.error else [str(c) for c in counts]), f"{o.seconds:.2f}"])
    width = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines: list[str] = []
    for row, o in zip(rows, [None, *outcomes], strict=True):
        cells = [row[0].ljust(width[0]), *(c.rjust(w) for c, w in zip(row[1:], width[1:], strict=True))]
        line = "  ".join(cells)
        lines.append(f"{line}  error: {o.error}" if o is not None and o.error else line.rstrip())
    failed = sum(1 for o in outcomes if o.error)
    total = sum(o.seconds for o in outcomes)
    analyzed = len(outcomes) - failed
    models = f"{len(outcomes)} model{'' if len(outcomes) == 1 else 's'}"
    lines.append(f"{models}: {analyzed} analyzed, {failed} failed ({total:.2f} s of analysis)")
    return "\n".join(lines) + "\n"


@contextmanager
def models_bar(total: int) -> Generator[Callable[[Outcome], None], None, None]:
    """A bar on stderr counting finished models (nothing when stderr is not a terminal)."""
    if not sys.stderr.isatty():
        yield lambda o: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    # No refresh thread: the pool forks this process, which is safe only without other threads.
    bar = Progress(TextColumn("analyzing"), BarColumn(), TextColumn("{task.completed}/{task.total} models"),
                   TimeElapsedColumn(), console=Console(stderr=True), transient=True, auto_refresh=False)
    task = bar.add_task("sweep", total=total)

    def advance(outcome: Outcome) -> None:
        bar.advance(task)
        bar.refresh()

    with bar:
        yield advance


def sweep_command(model: Path, jobs: int, json_dir: Path | None, options: Options) -> int:
    """The command line's sweep: the table on stdout; exit status 1 when a model failed."""
    from symshape.errors import ModelError, where_file

    models = find_models(model)
    if not models:
        raise ModelError(where=where_file(model), found="it matches no model file",
                         expected=f"a directory or glob with files ending in {', '.join(SUFFIXES)}",
                         fix="check the path; quote a glob so that the shell leaves it to symshape")
    with models_bar(len(models)) as done:
        outcomes = run_sweep(models, jobs=jobs, json_dir=json_dir, options=options, done=done)
    sys.stdout.write(summary_table(outcomes))
    return 1 if any(o.error for o in outcomes) else 0
