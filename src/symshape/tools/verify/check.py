"""Compare an analysis with the shapes observed in a run: correct, wrong, unresolved."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from symshape.algebra.expr import Dim, Expr, evaluate, free_symbols, sym
from symshape.algebra.parse import parse_dim
from symshape.tools.verify.run import Shape

if TYPE_CHECKING:
    from symshape.engine.result import Analysis


@dataclass(frozen=True)
class DimMismatch:
    """A claimed dim that disagrees with what ran (axis -1: the rank itself)."""

    value: str
    axis: int
    expected: str
    observed: int
    env: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        where = ", ".join(f"{k}={v}" for k, v in self.env)
        return f"{self.value}[{self.axis}]: claimed '{self.expected}', observed {self.observed} at {where}"


@dataclass
class Report:
    """How the analysis fared against one or more runs.

    ``correct``: dims expressed in input symbols (or static) that evaluate to the observed size.
    ``wrong``: unsound claims. ``excused``: wrong claims at an assignment where a listed guard
    fails. ``unresolved``: dims over fresh or data-dependent symbols (still checked for
    consistency and, for data-dependent symbols, against their range: a violation is wrong).
    ``missing``: observed values the analysis has no shape for. ``unobserved``: analysed values
    the run could not expose. ``failed_guards``: guards false at an assignment that ran.
    """

    correct: int = 0
    unresolved: int = 0
    wrong: list[DimMismatch] = field(default_factory=list[DimMismatch])
    excused: list[DimMismatch] = field(default_factory=list[DimMismatch])
    unresolved_dims: list[tuple[str, int, str]] = field(default_factory=list[tuple[str, int, str]])
    missing: list[str] = field(default_factory=list[str])
    unobserved: list[str] = field(default_factory=list[str])
    failed_guards: list[str] = field(default_factory=list[str])
    elements_checked: int = 0
    wrong_elements: list[DimMismatch] = field(default_factory=list[DimMismatch])

    @property
    def checked(self) -> int:
        """Dims compared with a run."""
        return self.correct + self.unresolved + len(self.wrong) + len(self.excused)

    def merge(self, other: Report) -> Report:
        """Both reports' findings (counts add up, lists concatenate)."""
        return Report(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def summary(self) -> str:
        """One line of counts, then the first few unsound dims."""
        line = (
            f"{self.checked} dims checked: {self.correct} correct, {len(self.wrong)} wrong, "
            f"{len(self.excused)} excused by failed guards, {self.unresolved} unresolved, "
            f"{len(self.missing)} values missing, {len(self.unobserved)} unobserved"
        )
        if self.elements_checked or self.wrong_elements:
            line += f"; {self.elements_checked} tracked elements checked, {len(self.wrong_elements)} wrong"
        wrong = [f"  WRONG {w}" for w in self.wrong[:20]] + [f"  WRONG ELEMENT {w}" for w in self.wrong_elements[:20]]
        return "\n".join([line, *wrong])


def check(
    analysis: Analysis,
    observed: Mapping[str, Shape],
    env: Mapping[str, int],
    values: Mapping[str, np.ndarray] | None = None,
) -> Report:
    """Compare every analysed dim with ``observed`` at the input-symbol assignment ``env``.

    With ``values`` (from `symshape.tools.verify.run_values`), the tracked elements of small integer
    tensors (shape computations) are compared with what ran as well.
    """
    report = Report()
    key = tuple(sorted(env.items()))
    symbols = analysis.symbols()
    learned = _learn_fresh(analysis, observed, env)
    full_env = {**env, **learned}
    failed = _failed_guards(analysis, full_env)
    report.failed_guards.extend(failed)
    for name in analysis.value_names():
        dims = analysis.shape_or_none(name)
        seen = observed.get(name)
        if dims is None:
            continue
        if seen is None:
            report.unobserved.append(name)
            continue
        if len(dims) != len(seen):
            _wrong(report, DimMismatch(name, -1, f"rank {len(dims)}", len(seen), key), failed)
            continue
        for axis, (d, size) in enumerate(zip(dims, seen, strict=True)):
            _check_dim(report, symbols, full_env, env, (name, axis, d, size, key), failed)
    names = set(analysis.value_names())
    report.missing.extend(v for v in observed if v not in names)
    if values is not None:
        _check_elements(report, analysis, values, full_env, key)
    return report


def _check_elements(
    report: Report,
    analysis: Analysis,
    values: Mapping[str, np.ndarray],
    env: Mapping[str, int],
    key: tuple[tuple[str, int], ...],
) -> None:
    """Each tracked element over known symbols must equal the value that ran."""
    for name in analysis.value_names():
        els, actual = analysis.elements(name), values.get(name)
        if els is None or actual is None:
            continue
        flat = np.asarray(actual).reshape(-1)
        if len(flat) != len(els):
            report.wrong_elements.append(DimMismatch(name, -1, f"{len(els)} elements", len(flat), key))
            continue
        for k, (e, v) in enumerate(zip(els, flat.tolist(), strict=True)):
            if free_symbols(e) - env.keys():
                continue
            report.elements_checked += 1
            if _value(e, env) != v:
                report.wrong_elements.append(DimMismatch(name, k, str(e), v, key))


def _check_dim(
    report: Report,
    symbols: Mapping[str, Mapping[str, Any]],
    full_env: Mapping[str, int],
    env: Mapping[str, int],
    item: tuple[str, int, Dim, int, tuple[tuple[str, int], ...]],
    failed: list[str],
) -> None:
    name, axis, d, size, key = item
    fresh = sorted(s for s in free_symbols(d) if s not in env)
    if fresh:
        report.unresolved += 1
        report.unresolved_dims.append((name, axis, str(d)))
        bad = _out_of_range(d, size, symbols)
        if bad or (all(s in full_env for s in fresh) and _value(d, full_env) != size):
            _wrong(report, DimMismatch(name, axis, str(d) + bad, size, key), failed)
        return
    if _value(d, full_env) == size:
        report.correct += 1
    else:
        _wrong(report, DimMismatch(name, axis, str(d), size, key), failed)


def _value(d: Dim, env: Mapping[str, int]) -> int | None:
    try:
        return evaluate(d, env)
    except ZeroDivisionError:
        return None


def _out_of_range(d: Dim, size: int, symbols: Mapping[str, Mapping[str, Any]]) -> str:
    """For a dim that is one symbol: a note when ``size`` lies outside the symbol's range."""
    if not (isinstance(d, Expr) and len(d.free) == 1 and d is sym(next(iter(d.free)))):
        return ""
    info = symbols.get(next(iter(d.free)))
    if info is None:
        return ""
    lo, hi = info["range"]
    if (lo is not None and size < lo) or (hi is not None and size > hi):
        return f" (outside its range [{lo}, {hi}])"
    return ""


def _wrong(report: Report, mismatch: DimMismatch, failed: list[str]) -> None:
    (report.excused if failed else report.wrong).append(mismatch)


def _learn_fresh(analysis: Analysis, observed: Mapping[str, Shape], env: Mapping[str, int]) -> dict[str, int]:
    """Values of fresh symbols read off the first dim that is exactly that symbol.

    Every other dim over those symbols is then checked against them: two dims claimed to be the
    same fresh symbol must have the same size.
    """
    learned: dict[str, int] = {}
    for name in analysis.value_names():
        dims, seen = analysis.shape_or_none(name), observed.get(name)
        if dims is None or seen is None or len(dims) != len(seen):
            continue
        for d, size in zip(dims, seen, strict=True):
            if isinstance(d, Expr) and len(d.free) == 1 and d is sym(next(iter(d.free))):
                s = next(iter(d.free))
                if s not in env:
                    learned.setdefault(s, size)
    return learned


_REL = re.compile(r"^(.*?)\s(==|>=|!=|<=)\s(.*)$")


def _failed_guards(analysis: Analysis, env: Mapping[str, int]) -> list[str]:
    """The guard conditions that evaluate to false under ``env`` (unknown symbols: skipped)."""
    failed: list[str] = []
    for cond, origin, _reason in analysis.guards():
        m = _REL.match(cond)
        if m is None:
            continue
        lhs, rel, rhs = parse_dim(m.group(1)), m.group(2), parse_dim(m.group(3))
        if (free_symbols(lhs) | free_symbols(rhs)) - env.keys():
            continue
        a, b = _value(lhs, env), _value(rhs, env)
        if a is None or b is None:
            continue
        ok = {"==": a == b, ">=": a >= b, "!=": a != b, "<=": a <= b}[rel]
        if not ok:
            failed.append(f"{cond} ({origin})")
    return failed
