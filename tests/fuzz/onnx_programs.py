"""Random ONNX shape programs checked against onnxruntime (issue 11).

`programs()` draws a program over 1-4 input symbols: a chain or DAG of the ops in
`tests.fuzz.onnx_ops_shape` and `tests.fuzz.onnx_ops_compute`, plus 3-5 assignments of the
symbols (0 and 1 often). `check_program` analyzes it and runs it with `tests.oracle.check` at each
assignment: every claimed dim, element, range and predicate must match what onnxruntime observed,
unless a listed guard is false there (the analysis then claimed nothing). A program onnxruntime
cannot load, or refuses at every assignment, is discarded; an assignment it refuses is skipped.
An analysis that refuses a program onnxruntime runs, or crashes, is a failure.
"""

from __future__ import annotations

import json
import pathlib
import time
import traceback
from dataclasses import dataclass, fields

import onnx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import SymshapeError
from tests.fuzz import onnx_ops_compute as compute
from tests.fuzz import onnx_ops_shape as shape
from tests.fuzz import onnx_ops_values as values
from tests.fuzz.isolation import isolated
from tests.fuzz.onnx_graph import SYMBOLS, Graph
from tests.oracle import Report, check, feeds_for, guards_hold
from tests.oracle import run as run_model

OPS = {
    "reshape_flatten": shape.reshape_flatten, "reshape_computed": shape.reshape_computed,
    "shape_arith": shape.shape_arith, "unsqueeze": shape.unsqueeze, "transpose": shape.transpose,
    "concat": shape.concat, "split": shape.split, "slice": shape.slice_, "pad": shape.pad,
    "broadcast": compute.broadcast, "reduce": compute.reduce_ones, "expand": compute.expand,
    "matmul": compute.matmul, "window": compute.window, "resize": compute.resize, "range": compute.range_,
    "if": compute.if_, "loop": compute.loop, "nonzero": compute.nonzero,
    "filled": values.filled, "slice_computed": values.slice_computed, "pad_computed": values.pad_computed,
    "range_computed": values.range_computed, "tile": values.tile, "expand_computed": values.expand_computed,
    "gather_shape": values.gather_shape, "reshape_allowzero": values.reshape_allowzero,
    "split_computed": values.split_computed, "topk": values.topk,
}
SIZES: tuple[int, ...] = (0, 1, 1, 2, 2, 3, 4, 5, 7, 8, 11)


@dataclass
class Program:
    """A generated model, the assignments to run it at, and the ops drawn."""

    model: onnx.ModelProto
    envs: list[dict[str, int]]
    ops: list[str]


@st.composite
def programs(draw: st.DrawFn, max_ops: int = 10) -> Program:
    """A random shape program and assignments of its symbols."""
    g = Graph()
    symbols = SYMBOLS[: draw(st.integers(1, 4))]
    tokens = st.sampled_from([*symbols, *symbols, "1", "2", "3"])
    for _ in range(draw(st.integers(1, 3))):
        g.add_input(draw(st.lists(tokens, min_size=1, max_size=4)))
    names = draw(st.lists(st.sampled_from(sorted(OPS)), min_size=1, max_size=max_ops))
    for op in names:
        OPS[op](draw, g)
    if not g.nodes:
        g.keep(g.one("Relu", [g.inputs[0].name]), g.inputs[0].dims)
    used = sorted({d for t in g.inputs for d in t.dims if d in symbols})
    env = st.fixed_dictionaries({s: st.sampled_from(SIZES) for s in used})
    envs: list[dict[str, int]] = draw(st.lists(env, min_size=3, max_size=5))
    return Program(g.model(), envs, names)


@dataclass
class Tally:
    """What a fuzzing run generated, kept and compared."""

    programs: int = 0
    kept: int = 0  # onnxruntime ran it at one assignment at least
    samples: int = 0  # assignments onnxruntime ran
    guarded: int = 0  # of those, assignments where a listed guard is false
    refused: int = 0  # assignments onnxruntime refused
    dims: int = 0  # dims compared
    unobservable: int = 0  # dims over a derived symbol no run binds (a claim nothing can refute)
    failures: int = 0
    died: int = 0  # programs whose check killed its process (an onnxruntime abort): discarded

    def add(self, other: Tally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def line(self) -> str:
        discarded = self.programs - self.kept
        rate = discarded / self.programs if self.programs else 0.0
        return (f"{self.programs} programs, {self.kept} kept, {discarded} discarded ({rate:.0%}), "
                f"{self.samples} sizes run ({self.guarded} guarded, {self.refused} refused), "
                f"{self.dims} dims checked ({self.unobservable} unobservable), {self.failures} failures"
                + (f", {self.died} killed the runtime" if self.died else ""))


def _refused(err: Exception) -> bool:
    return "ONNXRuntimeError" in str(err) or "onnxruntime" in type(err).__module__


def _problems(report: Report) -> list[str]:
    """What refutes the analysis: a mismatch or a value it claims that the runtime hid. A dim over
    a derived symbol no run binds (``Max(expand_0, n)*Min(1, expand_0, n)`` for an Expand to an
    unknown target) is counted, not failed: nothing observable can refute it."""
    return report.mismatches + [f"not exposed by the runtime: {s}" for s in report.skipped]


def _analyze(model: onnx.ModelProto) -> Analysis | str:
    """The analysis, or why it is refused (a message starting with 'refused')."""
    try:
        return analyze_onnx(model)
    except SymshapeError as err:
        return f"refused: {err}"


def check_program(p: Program, tally: Tally) -> str | None:
    """Check one program at each assignment; the failure message, or None."""
    tally.programs += 1
    try:
        analysis = _analyze(p.model)
    except Exception:  # noqa: BLE001 - any crash of the analysis is the finding
        tally.kept += 1
        tally.failures += 1
        return f"analysis crashed:\n{traceback.format_exc()}"
    return _check_runs(p, analysis, tally)


def _check_in_worker(p: Program) -> tuple[Tally, str | None]:
    mine = Tally()
    try:
        return mine, check_program(p, mine)
    except Exception:  # noqa: BLE001 - reported as a failure, never lost as a died worker
        mine.failures += 1
        return mine, f"fuzzer error:\n{traceback.format_exc()}"


def check_isolated(p: Program, tally: Tally, out: pathlib.Path) -> str | None:
    """`check_program` in a worker process: an onnxruntime C++ assertion aborts the process,
    which must end this program's check, not the run. Such a model is saved under ``out`` (a
    runtime bug to report, not a finding against symshape) and discarded."""
    answer = isolated(_check_in_worker, p)
    if answer is None:
        tally.programs += 1
        tally.died += 1
        save(out, f"onnxruntime-died-{tally.died}", p, "the check's process died (an onnxruntime abort?)")
        return None
    mine, message = answer
    tally.add(mine)
    return message


def _check_runs(p: Program, analysis: Analysis | str, tally: Tally) -> str | None:
    ran = 0
    for env in p.envs:
        try:
            if isinstance(analysis, str):
                run_model(p.model, feeds_for(p.model, env))
                tally.failures += 1
                tally.kept += 1
                return f"{env}: onnxruntime runs a model the analysis {analysis}"
            report = check(p.model, [env], analysis=analysis, values=_claimed(p.model, analysis))
        except Exception as err:  # noqa: BLE001 - a refusal is skipped, anything else is the finding
            if not _refused(err):
                tally.failures += 1
                tally.kept += 1
                return f"{env}: checking crashed:\n{traceback.format_exc()}"
            tally.refused += 1
            continue
        ran += 1
        tally.samples += 1
        if not guards_hold(analysis, report.runs[-1].env):
            tally.guarded += 1
            continue
        tally.dims += report.checked_dims
        tally.unobservable += len(report.unbound)
        if problems := _problems(report):
            tally.failures += 1
            tally.kept += 1
            return "\n".join(sorted(set(problems))[:20])
    tally.kept += ran > 0
    return None


def _claimed(model: onnx.ModelProto, analysis: Analysis) -> list[str]:
    names = [i.name for i in model.graph.input] + [o for n in model.graph.node for o in n.output if o]
    return [v for v in names if analysis.shape(v) is not None]


@dataclass
class Failure(Exception):
    """A failing program, raised inside hypothesis so that it shrinks."""

    program: Program
    message: str = ""


def save(out: pathlib.Path, case: str, p: Program, message: str) -> pathlib.Path:
    """Write the model, its sizes and the message under ``out/case``."""
    where = out / case
    where.mkdir(parents=True, exist_ok=True)
    (where / "model.onnx").write_bytes(p.model.SerializeToString())
    (where / "sizes.json").write_text(json.dumps({"envs": p.envs, "ops": p.ops}, indent=1))
    (where / "message.txt").write_text(message + "\n")
    return where


def run(minutes: float, seed: int, out: pathlib.Path, batch: int = 20) -> int:
    """Fuzz for ``minutes``: hypothesis batches with seeds ``seed, seed+1, ...``; every failure is
    saved, as drawn, under ``out``. Returns the number of failures."""
    stop = time.monotonic() + 60 * minutes
    tally, found = Tally(), 0
    start = time.monotonic()
    for n in range(10**9):
        if time.monotonic() >= stop:
            break
        last: list[Failure] = []
        test = _batch_test(tally, last, stop, batch, seed + n, out)
        try:
            test()
        except Exception as err:  # noqa: BLE001 - the failure (or hypothesis' report of it) is in `last`
            if not last:
                last.append(Failure(Program(onnx.ModelProto(), [], []), f"hypothesis: {err!r}"))
            found += 1
            where = save(out, f"onnx-{seed + n}", last[-1].program, last[-1].message)
            print(f"[onnx] FAILURE (seed {seed + n}) saved to {where}:\n{last[-1].message[:2000]}", flush=True)
        rate = tally.programs / max(time.monotonic() - start, 1e-9) * 60
        print(f"[onnx] seed {seed + n}: {tally.line()}; {rate:.0f} programs/min", flush=True)
    print(f"[onnx] done: {tally.line()}; {found} failing seeds", flush=True)
    return found


UNHEALTHY = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]


def _batch_test(tally: Tally, last: list[Failure], stop: float, batch: int, seed: int,  # noqa: ANN202
                out: pathlib.Path | None = None):
    """One hypothesis run of ``batch`` programs, without shrinking: hypothesis may spend minutes
    shrinking a program whose every check runs onnxruntime, so the case is saved as drawn (the
    regression tests are the small hand-made versions)."""

    @hypothesis_seed(seed)
    @settings(max_examples=batch, deadline=None, database=None, suppress_health_check=UNHEALTHY,
              phases=[Phase.generate])
    @given(programs())
    def test(p: Program) -> None:
        if time.monotonic() >= stop:
            return
        message = check_program(p, tally) if out is None else check_isolated(p, tally, out)
        if message is not None:
            last.append(Failure(p, message))
            raise last[-1]

    return test
