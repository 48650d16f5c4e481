"""``symshape optimize --verify``: run the original and the optimized model in onnxruntime at
several input sizes and compare every output bit for bit, both with the same kernels
(onnxruntime's basic graph optimizations; its fused paths are not compared, see `_session`).

Sizes: the analysis's own assignments (distinct sizes, then each symbol that may be 1 set to 1),
plus every symbol at 0 when the facts admit it. A size onnxruntime refuses for the original model
is skipped (the model itself does not run there); the optimized model refusing a size the
original accepts is a difference. onnxruntime is optional: imported here, when used.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from symshape.engine.result import Analysis
from symshape.tools.verify import OracleError, assignments, make_feeds
from symshape.tools.verify.inputs import admitted, complete, input_symbol_names

Env = dict[str, int]


@dataclass
class Comparison:
    """One line per size tried, and how many sizes ran, differed or were refused."""

    lines: list[str] = field(default_factory=list[str])
    ran: int = 0
    differed: int = 0
    refused: int = 0

    def summary(self) -> str:
        """The verdict in one line."""
        verdict = "identical" if not self.differed else f"DIFFERENT at {self.differed} sizes"
        return f"verify: {self.ran} sizes run, outputs {verdict} (bitwise); {self.refused} sizes the model refuses"


def sizes(analysis: Analysis, samples: int = 3) -> list[Env]:
    """The assignments to compare at: `symshape.tools.verify.assignments` plus all symbols at 0."""
    envs = assignments(analysis, n=samples, edge=True)
    declared = input_symbol_names(analysis.program)
    if declared:
        zero = complete(analysis, declared, dict.fromkeys(declared, 0))
        if admitted(analysis, zero) and zero not in envs:
            envs.append(zero)
    return envs


def compare_models(
    original: onnx.ModelProto | Path, optimized: onnx.ModelProto | Path, analysis: Analysis, samples: int = 3
) -> Comparison:
    """Run both models (protos, or paths when weights live in external files) at `sizes`."""
    ort = _onnxruntime()
    first, second = _session(ort, original), _session(ort, optimized)
    report = Comparison()
    for env in sizes(analysis, samples):
        feeds = make_feeds(analysis.program, env)
        label = ", ".join(f"{k}={v}" for k, v in sorted(env.items())) or "(static)"
        try:
            want = first.run(None, feeds)
        except Exception as err:  # noqa: BLE001 - onnxruntime raises its own unexported types
            report.refused += 1
            report.lines.append(f"{label}: the original model refuses these sizes ({_first_line(err)})")
            continue
        report.ran += 1
        try:
            got = second.run(None, feeds)
        except Exception as err:  # noqa: BLE001 - as above
            report.differed += 1
            report.lines.append(f"{label}: the optimized model fails where the original runs ({_first_line(err)})")
            continue
        names = [o.name for o in first.get_outputs()]
        bad = [n for n, a, b in zip(names, want, got, strict=True) if not _bitwise_equal(a, b)]
        if bad:
            report.differed += 1
            report.lines.append(f"{label}: outputs differ: {', '.join(bad)}")
        else:
            report.lines.append(f"{label}: {len(names)} outputs identical")
    return report


def _bitwise_equal(a: Any, b: Any) -> bool:
    x, y = np.asarray(a), np.asarray(b)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def _session(ort: Any, model: onnx.ModelProto | Path) -> Any:
    """A CPU session with basic graph optimizations only: both models then run the same kernels.
    onnxruntime's extended fusions (attention, layer norm, GELU) match different subgraphs in the
    two models and may sum in another order, which moves the last bit of a float."""
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])


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
            fix="pip install onnxruntime (or 'symshape[test]'), or leave out --verify",
        ) from None
