"""Sizes on both sides of every printed guard, and what onnxruntime does with them.

A guard is only allowed for what the model itself requires to run (or what the algebra cannot
express). So for each guard, one input symbol at a time is moved from an ordinary assignment to
the sizes where the guard just holds and just fails (sizes the symbol's range, divisor and the
kept predicates admit). onnxruntime then runs both:

* it refuses the failing side and runs the holding side: the guard is *needed*;
* it runs the failing side: a size the model accepts breaks the guard, so the analysis printed a
  condition ordinary inputs can violate. That is a failure (*broken*), whatever the dims say;
* it refuses both sides: *inconclusive* (something else stops the model there).

Guards over data-dependent or fresh symbols cannot be aimed at by input sizes (*unchecked*), and
a guard no admitted size near the boundary fails is *unbroken*.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from symshape.algebra.expr import Dim, evaluate, evaluate_defined, free_symbols, sym
from symshape.algebra.parse import parse_dim
from symshape.engine.program import Program
from symshape.tools.verify.check import Report, check
from symshape.tools.verify.inputs import Env, admitted, complete, input_dims, input_symbol_names, make_feeds
from symshape.tools.verify.run import attempt

if TYPE_CHECKING:
    import onnx

    from symshape.engine.result import Analysis

MAX_ELEMENTS = 50_000_000
"""Assignments whose inputs would hold more elements than this are not run."""
MAX_BREAKS = 4
"""At most this many assignments that break a guard are run (until one runs)."""

_REL = re.compile(r"^(.*?)\s(==|>=|!=|<=)\s(.*)$")
_DENSE = 65  # every size below this is a candidate; farther out, the boundary's neighbourhood
_HOLDS: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b,
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    "!=": lambda a, b: a != b,
}

NEEDED, BROKEN, INCONCLUSIVE, UNBROKEN, UNCHECKED = "needed", "broken", "inconclusive", "unbroken", "unchecked"


@dataclass(frozen=True)
class Guard:
    """A printed guard, parsed: ``lhs rel rhs`` and the op it came from."""

    text: str
    origin: str
    lhs: Dim
    rel: str
    rhs: Dim

    @property
    def free(self) -> frozenset[str]:
        """The symbols the guard mentions."""
        return free_symbols(self.lhs) | free_symbols(self.rhs)

    def holds(self, env: Mapping[str, int]) -> bool | None:
        """Whether the guard holds at ``env`` (None: it cannot be evaluated there)."""
        a, b = evaluate_defined(self.lhs, env), evaluate_defined(self.rhs, env)
        return None if a is None or b is None else _HOLDS[self.rel](a, b)


@dataclass(frozen=True)
class Sides:
    """An assignment just inside a guard (None when no admitted size was found there) and the
    assignments just outside it, nearest first: moving each symbol of the guard from the
    ordinary assignment, then also with the guard's other symbols at 1."""

    guard: Guard
    holds: Env | None
    breaks: tuple[Env, ...]


@dataclass(frozen=True)
class Probe:
    """One guard tried on both sides. ``holds_error`` and each error of ``tried`` (the breaking
    sides run in order until one ran) is None when the side was too large to run, "" when it
    ran, else onnxruntime's reason."""

    sides: Sides
    holds_error: str | None
    tried: tuple[tuple[Env, str | None], ...]

    @property
    def verdict(self) -> str:
        """`NEEDED`, `BROKEN`, `INCONCLUSIVE`, `UNBROKEN` or `UNCHECKED`."""
        if not self.sides.breaks:
            return UNCHECKED if self.sides.holds is None else UNBROKEN
        errors = [e for _, e in self.tried]
        if "" in errors:
            return BROKEN
        if all(e is None for e in errors):
            return UNCHECKED  # too large to run
        return NEEDED if self.holds_error == "" else INCONCLUSIVE

    def line(self) -> str:
        """One line: the guard, both sides and the verdict."""
        s = self.sides
        head = f"guard '{s.guard.text}' ({s.guard.origin})"
        if s.holds is None and not s.breaks:
            return f"{head}: unchecked, no input size moves it (it depends on a data-dependent or fresh symbol)"
        shown = next(((env, e) for env, e in self.tried if e == ""), self.tried[0] if self.tried else None)
        parts = [_side("holds", s.holds, self.holds_error)]
        if shown is not None:
            parts.append(_side("fails", *shown))
            if len(self.tried) > 1 and shown[1] != "":
                parts.append(f"{len(self.tried) - 1} more sizes that fail it refused too")
        verdict = {
            NEEDED: "needed (onnxruntime refuses the sizes that break it)",
            BROKEN: "BROKEN by a size the model accepts",
            INCONCLUSIVE: "inconclusive (onnxruntime refuses both sides)",
            UNBROKEN: "no admitted size near its boundary breaks it",
            UNCHECKED: "unchecked (the sizes that break it are too large to run)",
        }[self.verdict]
        return f"{head}: {'; '.join(p for p in parts if p)}: {verdict}"


def printed_guards(analysis: Analysis) -> list[Guard]:
    """The analysis's listed guards, parsed back from their printed text."""
    out: list[Guard] = []
    for cond, origin, _reason in analysis.guards():
        m = _REL.match(cond)
        if m is not None:
            out.append(Guard(cond, origin, parse_dim(m.group(1)), m.group(2), parse_dim(m.group(3))))
    return out


def guard_sides(analysis: Analysis, guard: Guard, base: Env) -> Sides:
    """Assignments just inside and just outside ``guard``, each moving one input symbol of
    ``base`` (and then of ``base`` with another symbol of the guard at 1), within the facts."""
    declared = input_symbol_names(analysis.program)
    movable = [s for s in sorted(guard.free) if s in base and _is_free_input(analysis, s, declared)]
    if not guard.free <= base.keys() or not movable:
        return Sides(guard, None, ())
    bases = [base] + [{**base, t: 1} for t in movable if base[t] != 1]
    holds: Env | None = None
    breaks: list[Env] = []
    for i, start in enumerate(bases):
        for s in movable:
            if i and start[s] != base[s]:
                continue  # s is the symbol this base sets to 1: moving it again repeats the first base
            inside, outside = _around_symbol(analysis, guard, start, s, declared)
            holds = holds or inside
            if outside is not None and outside not in breaks:
                breaks.append(outside)
    return Sides(guard, holds, tuple(breaks[:MAX_BREAKS]))


def probe(
    analysis: Analysis,
    sides: Sides,
    run: Callable[[Env], str],
) -> Probe:
    """Run both sides with ``run`` (which returns "" when the model ran, else onnxruntime's
    reason): the holding side, then the breaking sides until one runs. Sides too large to run
    are left out."""
    program = analysis.program
    holds = None if sides.holds is None or too_large(program, sides.holds) else run(sides.holds)
    tried: list[tuple[Env, str | None]] = []
    for env in sides.breaks:
        error = None if too_large(program, env) else run(env)
        tried.append((env, error))
        if error == "":
            break
    return Probe(sides, holds, tuple(tried))


def summary(probes: list[Probe]) -> str:
    """One line of counts by verdict."""
    count = {v: sum(p.verdict == v for p in probes) for v in (NEEDED, BROKEN, INCONCLUSIVE, UNBROKEN, UNCHECKED)}
    return (
        f"{len(probes)} guards checked around: {count[BROKEN]} broken by a size the model accepts, "
        f"{count[NEEDED]} needed, {count[INCONCLUSIVE]} inconclusive, {count[UNBROKEN]} not broken by an admitted "
        f"size, {count[UNCHECKED]} unchecked"
    )


def too_large(program: Program, env: Env) -> bool:
    """Whether the inputs at ``env`` would hold more than `MAX_ELEMENTS` elements."""
    total = 0
    for name in program.inputs:
        value = program.values[name]
        if value.type is None or value.type.dims is None:
            continue
        total += math.prod(max(evaluate(d, env), 0) for d in input_dims(program, name))
    return total > MAX_ELEMENTS


# ------------------------------------------------------------------ finding the boundary


def _around_symbol(
    analysis: Analysis, guard: Guard, base: Env, s: str, declared: list[str]
) -> tuple[Env | None, Env | None]:
    """Move ``s`` only: the admitted sizes on each side of the guard's crossing nearest
    ``base[s]`` (or, with no crossing, the admitted size nearest ``base[s]`` on its one side)."""
    facts = analysis.graph.facts.get(s)
    fixed = _free_part(base, declared, analysis)

    def at(v: int) -> tuple[Env, bool | None] | None:
        env = complete(analysis, declared, {**fixed, s: v})
        if not admitted(analysis, env):
            return None
        return env, guard.holds(env)

    tried: dict[int, tuple[Env, bool | None]] = {}
    for v in _candidates(guard, base, s, facts.divisor):
        if facts.admits(v) and (got := at(v)) is not None and got[1] is not None:
            tried[v] = got
    values = sorted(tried)
    near = base[s]
    crossings = [(a, b) for a, b in zip(values, values[1:], strict=False) if tried[a][1] != tried[b][1]]
    if not crossings:
        inside = min((v for v in values if tried[v][1]), key=lambda v: abs(v - near), default=None)
        outside = min((v for v in values if not tried[v][1]), key=lambda v: abs(v - near), default=None)
        return (
            None if inside is None else tried[inside][0],
            None if outside is None else tried[outside][0],
        )
    a, b = min(crossings, key=lambda p: abs(p[0] - near) + abs(p[1] - near))
    a, b = _narrow(a, b, tried, at, facts.divisor)
    inside, outside = (a, b) if tried[a][1] else (b, a)
    return tried[inside][0], tried[outside][0]


def _narrow(
    a: int,
    b: int,
    tried: dict[int, tuple[Env, bool | None]],
    at: Callable[[int], tuple[Env, bool | None] | None],
    step: int,
) -> tuple[int, int]:
    """Bisect a crossing ``a < b`` down to neighbouring admitted sizes (``step`` apart)."""
    while b - a > step:
        mid = a + (b - a) // 2 // step * step
        if mid in (a, b):
            break
        got = at(mid)
        if got is None or got[1] is None:
            break
        tried[mid] = got
        if got[1] == tried[a][1]:
            a = mid
        else:
            b = mid
    return a, b


def _candidates(guard: Guard, base: Env, s: str, divisor: int) -> list[int]:
    """Sizes worth trying for ``s``: every small size, the neighbourhood of ``base[s]``, of each
    constant the guard mentions, and of the root of the guard's difference taken as linear in
    ``s``; each rounded to the symbol's divisor both ways."""
    near = {base[s], *(int(c) for c in re.findall(r"\d+", guard.text))}
    diff = _linear_root(guard, base, s)
    if diff is not None:
        near.add(diff)
    values = set(range(_DENSE)) | {v + j for v in near for j in range(-2, 3)}
    rounded = {w for v in values for w in (v - v % divisor, v - v % divisor + divisor)}
    return sorted(v for v in rounded if v >= 0)


def _linear_root(guard: Guard, base: Env, s: str) -> int | None:
    """Where ``lhs - rhs`` would be 0 if it were linear in ``s`` (from its values at two sizes)."""
    x0, x1 = max(base[s], 2), max(base[s], 2) + 1
    f0, f1 = _diff(guard, {**base, s: x0}), _diff(guard, {**base, s: x1})
    if f0 is None or f1 is None or f0 == f1:
        return None
    root = x0 - f0 / (f1 - f0)
    return round(root) if math.isfinite(root) and 0 <= root < 2**40 else None


def _diff(guard: Guard, env: Mapping[str, int]) -> int | None:
    a, b = evaluate_defined(guard.lhs, env), evaluate_defined(guard.rhs, env)
    return None if a is None or b is None else a - b


def _is_free_input(analysis: Analysis, s: str, declared: list[str]) -> bool:
    """Whether ``s`` is an input symbol chosen freely (not bound to an expression of others)."""
    return s in declared and analysis.graph.canon(sym(s)) is sym(s)


def _free_part(env: Env, declared: list[str], analysis: Analysis) -> Env:
    return {k: v for k, v in env.items() if _is_free_input(analysis, k, declared)}


def _side(label: str, env: Env | None, error: str | None) -> str:
    if env is None:
        return ""
    sizes = ", ".join(f"{k}={v}" for k, v in sorted(env.items()))
    ran = "not run (too large)" if error is None else "runs" if error == "" else f"refused: {error}"
    return f"{label} at {sizes} ({ran})"


# ------------------------------------------------------------------ running


def check_around_guards(
    model: str | Path | onnx.ModelProto, analysis: Analysis, base: Env
) -> tuple[list[Probe], Report]:
    """`probe` every printed guard of ``analysis`` around ``base`` by running ``model``; the dims
    at every side that ran are checked too (a wrong dim where every guard holds is wrong; where
    the probed guard fails it is excused, as in `check`)."""
    reports: list[Report] = []

    def run(env: Env) -> str:
        observed = attempt(model, make_feeds(analysis.program, env))
        if isinstance(observed, str):
            return observed
        reports.append(check(analysis, observed, env))
        return ""

    probes = [probe(analysis, guard_sides(analysis, g, base), run) for g in printed_guards(analysis)]
    merged = Report()
    for r in reports:
        merged = merged.merge(r)
    return probes, merged
