"""``symshape optimize --verify``: run the original and the optimized model in onnxruntime at
several input sizes and compare every output bit for bit with onnxruntime's graph optimizations
off (each node runs as written: the meaning of the model). Under onnxruntime's default
optimizations the two graphs may be fused differently (a fused attention or layer norm sums in
another order), so that run only reports the largest difference, beside the verdict.

Sizes: the analysis's own assignments (distinct sizes, then each symbol that may be 1 set to 1),
plus every symbol at 0 when the facts admit it. A size onnxruntime refuses for the original model
is skipped (the model itself does not run there); the optimized model refusing a size the
original accepts is a difference. onnxruntime is optional: imported here, when used.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import onnx

from symshape.engine.result import Analysis
from symshape.tools.verify import OracleError, assignments, make_feeds
from symshape.tools.verify.inputs import admitted, complete, given_values, input_symbol_names
from symshape.tools.verify.isolated import Crashed, run_each

Env = dict[str, int]


@dataclass
class Comparison:
    """One line per size tried, and how many sizes ran, differed or were refused."""

    lines: list[str] = field(default_factory=list[str])
    ran: int = 0
    differed: int = 0
    refused: int = 0
    default_level_difference: float = 0.0  # the largest |a - b| under onnxruntime's default level

    def summary(self) -> str:
        """The verdict in one line."""
        verdict = "identical" if not self.differed else f"DIFFERENT at {self.differed} sizes"
        return (
            f"verify: {self.ran} sizes run, outputs {verdict} (bitwise, onnxruntime graph optimizations off); "
            f"largest difference with its default optimizations: {self.default_level_difference:.3g}; "
            f"{self.refused} sizes the model refuses"
        )


def sizes(analysis: Analysis, samples: int = 3, values: Mapping[str, Sequence[int]] | None = None) -> list[Env]:
    """The assignments to compare at: `symshape.tools.verify.assignments` plus all symbols at 0
    (unless ``values``, candidate sizes per symbol, are given: then those alone)."""
    envs = assignments(analysis, n=samples, edge=True, values=values or None)
    declared = input_symbol_names(analysis.program)
    if declared and not values:
        zero = complete(analysis, declared, dict.fromkeys(declared, 0))
        if admitted(analysis, zero) and zero not in envs:
            envs.append(zero)
    return envs


def compare_models(
    original: onnx.ModelProto | Path,
    optimized: onnx.ModelProto | Path,
    analysis: Analysis,
    samples: int = 3,
    values: Mapping[str, Sequence[int]] | None = None,
) -> Comparison:
    """Run both models (protos, or paths when weights live in external files) at `sizes`.

    onnxruntime runs in a child process (`symshape.tools.verify.isolated`): a size where it
    crashes is reported as such, and the other sizes still run."""
    report = Comparison()
    envs = sizes(analysis, samples, values)
    given = given_values(analysis)
    runs = [(k, make_feeds(analysis.program, env, overrides=given)) for env in envs for k in range(4)]
    results = iter(run_each(_sessions, _run, [original, optimized], runs))
    for env in envs:
        want, got, want_fused, got_fused = (_outputs(next(results)) for _ in range(4))
        label = ", ".join(f"{k}={v}" for k, v in sorted(env.items())) or "(static)"
        if isinstance(want, str):
            report.refused += 1
            report.lines.append(f"{label}: the original model refuses these sizes ({want})")
            continue
        report.ran += 1
        if isinstance(got, str):
            report.differed += 1
            report.lines.append(f"{label}: the optimized model fails where the original runs ({got})")
            continue
        bad = [n for n, a in want.items() if n not in got or not _bitwise_equal(a, got[n])]
        if bad:
            report.differed += 1
            report.lines.append(f"{label}: outputs differ: {', '.join(bad)}")
        else:
            report.lines.append(f"{label}: {'1 output' if len(want) == 1 else f'{len(want)} outputs'} identical")
        if not isinstance(want_fused, str) and not isinstance(got_fused, str):
            difference = _largest_difference(list(want_fused.values()), list(got_fused.values()))
            report.default_level_difference = max(report.default_level_difference, difference)
    if not report.ran:
        raise _nothing_ran(envs, report)
    return report


def _sessions(models: list[onnx.ModelProto | Path]) -> list[Any]:
    """In the child: sessions of both models, optimizations off, then at the default level."""
    ort = _onnxruntime()
    return [_session(ort, m, which, default_level=level)
            for level in (False, True) for m, which in zip(models, ("original", "optimized"), strict=True)]


def _run(sessions: list[Any], item: tuple[int, dict[str, np.ndarray]]) -> dict[str, Any] | str:
    """In the child: the outputs of session ``k`` (see `_sessions`) by name, or why it fails."""
    k, feeds = item
    try:
        names = [o.name for o in sessions[k].get_outputs()]
        return dict(zip(names, sessions[k].run(names, feeds), strict=True))
    except Exception as err:  # noqa: BLE001 - onnxruntime raises its own unexported types
        return _first_line(err)


def _outputs(result: object) -> dict[str, Any] | str:
    """A run's outputs by name, or why there are none (a refusal, a crash)."""
    return result.text() if isinstance(result, Crashed) else cast("dict[str, Any] | str", result)


def _nothing_ran(envs: list[Env], report: Comparison) -> OracleError:
    """A check that compared nothing has not passed: say why and what would let it run."""
    found = (
        "no assignment of the input symbols satisfies the model's facts"
        if not envs
        else f"onnxruntime refuses the original model at every size tried ({len(envs)}): {report.lines[0]}"
    )
    return OracleError(
        where="symshape optimize --verify",
        found=f"nothing was compared: {found}",
        expected="sizes the original model runs at",
        fix="run 'symshape verify MODEL --size NAME=V1,V2' to find sizes the model accepts, or give facts "
        "(--assume/--dim) that exclude the sizes it refuses",
    )


def _largest_difference(want: list[Any], got: list[Any]) -> float:
    """The largest absolute difference over all outputs: inf where shapes or dtypes differ or one
    side alone is NaN; non-numeric outputs count as 0 when equal."""
    largest = 0.0
    for a, b in zip(want, got, strict=True):
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape or x.dtype != y.dtype:
            return float("inf")
        if not x.size:
            continue
        if x.dtype.kind not in "fciu":
            largest = max(largest, 0.0 if np.array_equal(x, y) else float("inf"))
            continue
        with np.errstate(invalid="ignore"):
            diff = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64) - y)
        diff = np.where(np.isnan(x) & np.isnan(y), 0.0, np.nan_to_num(diff, nan=np.inf))
        largest = max(largest, float(np.max(diff)))
    return largest


def _bitwise_equal(a: Any, b: Any) -> bool:
    x, y = np.asarray(a), np.asarray(b)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def _session(ort: Any, model: onnx.ModelProto | Path, which: str, *, default_level: bool = False) -> Any:
    """A CPU session with graph optimizations off (each node as written), or at onnxruntime's
    default level, where fusions match different subgraphs in the two models."""
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    options = ort.SessionOptions()
    if not default_level:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    except Exception as err:  # noqa: BLE001 - onnxruntime raises its own unexported types
        raise OracleError(
            where="symshape optimize --verify",
            found=f"onnxruntime cannot load the {which} model ({_first_line(err)})",
            expected="a model onnxruntime loads, to run both and compare",
            fix="check the model with onnxruntime first, or leave out --verify",
        ) from None


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:200]


def _onnxruntime() -> Any:
    try:
        return importlib.import_module("onnxruntime")  # untyped: no stubs ship with it
    except ImportError:
        raise OracleError(
            where="symshape optimize --verify",
            found="onnxruntime is not installed",
            expected="onnxruntime, which runs the original and the optimized model",
            fix="pip install 'symshape[verify]' (onnxruntime alone), or leave out --verify",
        ) from None
