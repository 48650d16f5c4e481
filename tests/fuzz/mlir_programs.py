"""Random jnp shape programs, exported by jax with symbolic shapes, analyzed by symshape and
checked against jax at random concrete sizes (issue 11, the MLIR half).

A `Program` is a recipe: input specs over 1-4 dimension variables (``"b, 2*s, k - 1"``),
jax's symbolic constraints, and steps, each an op of `tests.fuzz.mlir_ops` with its operands
(indices into the pool of arrays so far) and drawn parameters. Hypothesis draws recipes and
sizes; each program is exported once (``jax.export`` of ``jax.jit``) and analyzed from its
``mlir_module()`` text, then `tests.jax_oracle.check_at` compares, at every size jax accepts,
symshape's results and intermediate values with ``jax.eval_shape`` and StableHLO's shape
refinement, and checks every guard and fact symshape claims holds there. A program jax refuses
to export, and a size jax refuses to run, is discarded, not counted.
"""

from __future__ import annotations

import contextlib
import pathlib
import signal
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import jax
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from tests.fuzz import mlir_ops_more
from tests.fuzz.isolation import isolated
from tests.fuzz.mlir_ops import OPS
from tests.jax_oracle import Subject, check_at

SYMBOLS = ("b", "s", "t", "k")
OP_MODULES = (mlir_ops_more,)  # imported for their ops, which register into `OPS`
# One dim of an input spec: a variable alone most often, else scaled, shifted (``s - 1`` is 0 at
# s = 1: the one way jax runs a dim of 0) or static.
TERMS = ("{0}",) * 8 + ("2*{0}", "4*{0}", "{0} + 1", "{0} - 1", "{0} - 1", "1", "2", "3", "{0}*{1}",
                         "floordiv({0}, 2)", "mod({0}, 3)", "max({0}, {1})", "min({0}, 3)", "{0} + {1}")
# jax's symbolic constraints, each with the fix-up that makes a drawn size satisfy it (an
# equality would almost never hold at random sizes).
CONSTRAINTS: dict[str, Callable[[dict[str, int], str, str], None]] = {
    "{a} >= 2": lambda env, a, b: None,
    "{a} <= 6": lambda env, a, b: None,
    "{a} >= {b}": lambda env, a, b: None,
    "{a} == 2*{b}": lambda env, a, b: env.__setitem__(a, 2 * env[b]),
}
EXPORT_SECONDS = 10.0  # jax's export or its oracles at one program: longer is discarded
ANALYSIS_SECONDS = 20.0  # symshape's analysis, or its check at one size: longer is a failure


@dataclass(frozen=True)
class Step:
    """One op of the program: its name in `OPS`, operand indices (modulo the pool) and params."""

    op: str
    operands: tuple[int, int]
    params: tuple[int, ...]


@dataclass(frozen=True)
class Program:
    """A recipe of a jnp shape program: what a failing case is replayed from."""

    inputs: tuple[str, ...]
    steps: tuple[Step, ...]
    constraints: tuple[str, ...] = ()
    fixups: tuple[tuple[str, str, str], ...] = ()  # (template, a, b) of each equality constraint
    outputs: int = 1

    def __call__(self, *xs: jax.Array) -> tuple[jax.Array, ...]:
        pool = list(xs)
        for step in self.steps:
            pool.append(OPS[step.op]([pool[i % len(pool)] for i in step.operands], step.params))
        return tuple(pool[-min(self.outputs, len(self.steps)):])

    def subject(self) -> Subject:
        return Subject(self, list(self.inputs), self.constraints)

    def fix(self, env: dict[str, int]) -> dict[str, int]:
        """``env`` made to satisfy the equality constraints."""
        for template, a, b in self.fixups:
            if a in env and b in env:
                CONSTRAINTS[template](env, a, b)
        return env


def _term(draw: st.DrawFn, symbols: tuple[str, ...]) -> str:
    """One dim of a spec; a term over two variables takes two different ones."""
    template, a, b = draw(st.sampled_from(TERMS)), draw(st.sampled_from(symbols)), draw(st.sampled_from(symbols))
    return template.format(a, b) if a != b or "{1}" not in template else a


@st.composite
def programs(draw: st.DrawFn, max_steps: int = 7) -> Program:
    n_symbols = draw(st.integers(1, 4))
    symbols = SYMBOLS[:n_symbols]
    inputs = tuple(", ".join(_term(draw, symbols) for _ in range(draw(st.integers(1, 3))))
                   for _ in range(draw(st.integers(1, 3))))
    constraints: list[str] = []
    fixups: list[tuple[str, str, str]] = []
    used = [s for s in symbols if any(s in spec for spec in inputs)]
    for _ in range(draw(st.integers(0, 2)) if draw(st.booleans()) and used else 0):
        template = draw(st.sampled_from(sorted(CONSTRAINTS)))
        a, b = draw(st.sampled_from(used)), draw(st.sampled_from(used))
        if (template.count("{") > 1 and a == b) or ("==" in template and any("==" in c for c in constraints)):
            continue  # jax refuses ``s == 2*s`` and chains of equalities
        constraints.append(template.format(a=a, b=b))
        fixups.append((template, a, b))
    names = sorted(OPS)
    steps = tuple(Step(draw(st.sampled_from(names)), (draw(st.integers(0, 9)), draw(st.integers(0, 9))),
                       tuple(draw(st.lists(st.integers(-5, 9), min_size=8, max_size=8))))
                  for _ in range(draw(st.integers(1, max_steps))))
    return Program(inputs, steps, tuple(constraints), tuple(fixups), draw(st.integers(1, 3)))


def sizes(program: Program, symbols: list[str]) -> st.SearchStrategy[list[dict[str, int]]]:
    """A few sizes: all ones (with ``s - 1`` specs, zeros), then small and larger values."""
    one = st.fixed_dictionaries({s: st.just(1) for s in symbols})
    some = st.fixed_dictionaries({s: st.one_of(st.integers(1, 4), st.integers(5, 17)) for s in symbols})
    return st.tuples(one, some, some, some).map(lambda envs: [program.fix(dict(e)) for e in envs])


@dataclass
class Stats:
    """What a run did: programs kept and discarded, sizes checked, dims compared, failures."""

    kept: int = 0
    discarded: int = 0
    sizes_checked: int = 0
    sizes_discarded: int = 0
    dims: int = 0
    opaque: int = 0  # values refinement shapes but symshape has no shape for over the inputs
    failures: list[str] = field(default_factory=list[str])
    refusals: dict[str, int] = field(default_factory=dict[str, int])

    def merge(self, other: Stats) -> None:
        """Add ``other``'s counts (a child process's) to these."""
        self.kept += other.kept
        self.discarded += other.discarded
        self.sizes_checked += other.sizes_checked
        self.sizes_discarded += other.sizes_discarded
        self.dims += other.dims
        self.opaque += other.opaque
        self.failures += other.failures
        for kind, n in other.refusals.items():
            self.refusals[kind] = self.refusals.get(kind, 0) + n

    def summary(self, seconds: float) -> str:
        rate = (self.kept + self.discarded) / max(seconds / 60, 1e-9)
        return (f"mlir fuzz: {self.kept} programs kept, {self.discarded} discarded ({rate:.0f}/min), "
                f"{self.sizes_checked} sizes checked ({self.sizes_discarded} refused by jax), {self.dims} dims "
                f"compared ({self.opaque} values opaque to symshape), {len(self.failures)} failures in {seconds:.0f}s")


class TimeLimit(Exception):
    """A step of one program took longer than its limit."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Generator[None]:
    """Raise `TimeLimit` in the block after ``seconds`` (jax's own dim algebra can blow up on a
    long chain of reshapes; symshape must not hang)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeLimit(f"over {seconds:.0f}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _accepts(subject: Subject, env: dict[str, int]) -> bool:
    try:
        return subject.accepts(env)
    except TimeLimit:
        raise
    except Exception:  # noqa: BLE001 - any refusal of jax at these sizes discards them
        return False


def _dims_compared(subject: Subject, env: dict[str, int], compared: list[str]) -> int:
    refined = subject.refined(env)
    outputs = sum(len(shape) for shape in subject.expected_outputs(env))
    return outputs + sum(len(refined.shape(name) or ()) for name in compared)


def check_program(program: Program, envs: list[dict[str, int]], stats: Stats) -> str | None:
    """Export, analyze and check ``program`` at ``envs``; the failure message, if any."""
    return check_subject(program.subject(), envs, stats)


def check_subject(subject: Subject, envs: list[dict[str, int]], stats: Stats) -> str | None:
    """`check_program` of a subject (the export of a program, or any `Subject`)."""
    try:
        with time_limit(EXPORT_SECONDS):
            subject.text  # noqa: B018 - the export, cached on the subject
    except Exception as error:  # noqa: BLE001 - jax refuses the program: discarded, not counted
        stats.discarded += 1
        kind = type(error).__name__
        stats.refusals[kind] = stats.refusals.get(kind, 0) + 1
        return None
    try:
        with time_limit(EXPORT_SECONDS):
            accepted = [env for env in envs if _accepts(subject, env)]
    except TimeLimit:
        accepted = []
    stats.sizes_discarded += len(envs) - len(accepted)
    if not accepted:
        stats.discarded += 1
        stats.refusals["no size accepted"] = stats.refusals.get("no size accepted", 0) + 1
        return None
    stats.kept += 1
    try:
        with time_limit(ANALYSIS_SECONDS):
            subject.analysis  # noqa: B018 - the analysis itself may fail: a crash is a failure
    except Exception as error:  # noqa: BLE001
        return f"crash: {type(error).__name__}: {error}"
    for env in accepted:
        try:
            with time_limit(ANALYSIS_SECONDS):
                report = check_at(subject, env, complete=False)
        except AssertionError as error:
            return f"at {env}: {error}".splitlines()[0]
        except Exception as error:  # noqa: BLE001
            return f"crash at {env}: {type(error).__name__}: {error}"
        stats.sizes_checked += 1
        stats.dims += _dims_compared(subject, env, report.compared)
        stats.opaque += len(report.opaque)
    return None


def _check_in_worker(program: Program, envs: list[dict[str, int]]) -> tuple[Stats, str | None]:
    mine = Stats()
    try:
        return mine, check_program(program, envs, mine)
    except Exception as error:  # noqa: BLE001 - reported as a failure, never lost as a died worker
        return mine, f"fuzzer error: {type(error).__name__}: {error}"


def check_isolated(program: Program, envs: list[dict[str, int]], stats: Stats) -> str | None:
    """`check_program` in a worker process: jax's C++ shape refinement can die of a signal (a
    SIGFPE folding a division by a dim that is 0), which must not end the run. A program whose
    worker dies is discarded, as jax refused it."""
    answer = isolated(_check_in_worker, program, envs)
    if answer is None:
        stats.discarded += 1
        stats.refusals["jax died"] = stats.refusals.get("jax died", 0) + 1
        return None
    mine, message = answer
    stats.merge(mine)
    return message


def write_failure(out: pathlib.Path, index: int, program: Program, envs: list[dict[str, int]], message: str) -> None:
    """One file per failing case under ``out``: the message, recipe and sizes, then the MLIR."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        text = program.subject().text
    except Exception:  # noqa: BLE001
        text = "<export failed>"
    header = [f"// {message}", f"// program: {program!r}", f"// sizes: {envs}"]
    (out / f"mlir_failure_{index:03d}.mlir").write_text("\n".join([*header, text]))


def fuzz(*, seed_value: int, deadline: float | None = None, count: int | None = None,
         out: pathlib.Path | None = None, batch: int = 25) -> Stats:
    """Programs until ``deadline`` (a ``time.monotonic()``) or ``count`` programs, in batches of
    hypothesis examples seeded ``seed_value``, ``seed_value + 1``, ..."""
    stats = Stats()
    done = 0

    def over() -> bool:
        return (deadline is not None and time.monotonic() > deadline) or (count is not None and done >= count)

    for batch_index in range(1_000_000):
        if over():
            break

        @hypothesis_seed(seed_value + batch_index)
        @settings(max_examples=batch, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.filter_too_much])
        @given(st.data())
        def one(data: st.DataObject) -> None:
            nonlocal done
            program = data.draw(programs())
            envs = data.draw(sizes(program, program.subject().symbols))
            if over():  # drawn all the same: hypothesis wants each example to draw alike
                return
            done += 1
            message = check_isolated(program, envs, stats)
            if message is not None:
                stats.failures.append(message)
                print(f"FAIL {message}\n  {program!r}\n  {envs}", flush=True)  # noqa: T201
                if out is not None:
                    write_failure(out, len(stats.failures), program, envs, message)

        one()
    return stats


def run(minutes: float, seed: int, out: pathlib.Path) -> int:
    """``python -m tests.fuzz --minutes N``: fuzz for ``minutes``, write each failing case under
    ``out``, print a summary; the number of failures."""
    start = time.monotonic()
    stats = fuzz(seed_value=seed, deadline=start + minutes * 60, out=out)
    print(stats.summary(time.monotonic() - start), flush=True)  # noqa: T201
    print(f"  jax refused: {stats.refusals}", flush=True)  # noqa: T201
    return len(stats.failures)
