"""The benchmark runs end to end on a tiny model, and its scorer classifies dims as documented.

No timing assertions: the smoke test only checks that every tool ran (or reported its failure)
and that the table and result files are written.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

BENCH = ROOT / "benchmarks"
sys.path.insert(0, str(BENCH))

import score  # noqa: E402

from oracle import Observation, Sample  # noqa: E402


@pytest.mark.needs_bench
def test_quick_run_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    proc = subprocess.run([sys.executable, str(BENCH / "run.py"), "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for label in ("symshape", "ORT symbolic (auto_merge)", "ORT symbolic (no merge)",
                  "onnx-shape-inference", "onnx infer_shapes(data_prop)"):
        assert label in proc.stdout
    doc = json.loads((out / "results.json").read_text())
    rows = {r["tool"]: r for r in doc["rows"]}
    assert set(rows) == {"symshape", "ort_merge", "ort_nomerge", "osi", "onnx_data_prop"}
    model = doc["models"]["llama-2L"]
    assert len(model["samples"]) >= 3 and any(s["edge"] for s in model["samples"])
    sym = rows["symshape"]
    assert sym["status"] == "ok" and sym["time_ms"] is not None
    counted = sum(sym["score"]["all"].values()) + sum(sym["score"]["datadep"].values())
    assert counted > model["values"]  # every observed value has at least one dim on average
    assert "| model |" in (out / "results.md").read_text()


def _obs() -> Observation:
    s0 = Sample("a", {"n": 3, "m": 5}, False, {"x": (3, 5), "y": (8, 5), "z": (3, 2), "w": (3,)})
    s1 = Sample("b", {"n": 4, "m": 6}, False, {"x": (4, 6), "y": (10, 6), "z": (4, 2), "w": (4,)})
    return Observation([s0, s1], ["y", "z", "w"], set(), [], 0.0)


def test_scorer_classifies_correct_unsound_unresolved() -> None:
    tool = {
        "x": ["n", "m"],             # the input: its names are the tool's input symbols
        "y": ["n + m", "m"],         # correct, both dims vary
        "z": ["unk__1", 3],          # invented name (unresolved), wrong static (unsound)
        "w": ["unk__1"],             # same invented name, same sizes as z[0]: still unresolved
    }
    sc = score.score(tool, ["x"], _obs(), {"y": "Add", "z": "Foo", "w": "Bar"})
    assert dict(sc.all) == {"correct": 2, "unresolved": 2, "unsound": 1}
    assert dict(sc.varying) == {"correct": 2, "unresolved": 2}
    assert sc.by_op["Foo"]["unsound"] == 1


def test_scorer_flags_an_invented_name_shared_by_different_sizes() -> None:
    tool = {"x": ["n", "m"], "y": ["unk__1", "m"], "z": ["unk__1", 2], "w": None}
    sc = score.score(tool, ["x"], _obs(), {})
    # y[0] is 8/10 while z[0] is 3/4: one name for two sizes is an unsound claim of equality
    assert sc.all["unsound"] == 2
    assert sc.all["unresolved"] == 1  # w has no shape
    assert sc.all["correct"] == 2


def test_scorer_evaluates_sympy_syntax_and_rank_errors() -> None:
    tool = {"x": ["n", "m"], "y": ["2*n + 2", "Max(m, 1)"], "z": ["n", 2, 7], "w": ["floor(n*m/5)"]}
    sc = score.score(tool, ["x"], _obs(), {})
    # y: 2n+2 = 8/10 and Max(m,1) = m: correct; z: rank 3 vs 2 (unsound x2); w: floor(15/5)=3,
    # floor(24/5)=4: correct
    assert sc.all == {"correct": 3, "unsound": 2}
