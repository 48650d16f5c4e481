"""Real exported models against the execution oracle (onnxruntime at several input sizes).

Every committed model in tests/models/ is analyzed, then run by onnxruntime at three
assignments of its input symbols with distinct sizes plus the edge samples where a dim that
may be 1 is 1; every dim of every value must evaluate to the observed size (zero unsound
dims), no guard may fail at a size the model runs at, and no value may be missing.

Completeness gaps are recorded per model in ``KNOWN`` (dims over fresh symbols, warnings) and
asserted exactly, so an improvement fails the test until the record is updated.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from symshape.algebra.expr import Expr
from symshape.api import analyze_onnx, example_path
from symshape.engine.result import Analysis
from symshape.tools.verify import Report, assignments, check, make_feeds, run_shapes, run_values
from tests.paths import MODELS, ROOT

IMAGE = {"height": (38, 45, 62), "width": (45, 29, 55)}  # Swin (traced): ceil(x/4) even, x % 4 != 0


@dataclass(frozen=True)
class Case:
    """One committed model: sizes the model accepts, user facts, and its recorded gaps."""

    file: str
    values: dict[str, tuple[int, ...]] = field(default_factory=dict[str, tuple[int, ...]])
    facts: tuple[str, ...] = ()
    extra: tuple[dict[str, int], ...] = ()  # more assignments (e.g. an empty KV cache)
    fresh: int = 0  # KNOWN GAP: dims over fresh symbols at the last measurement
    warnings: int = 0  # KNOWN GAP: ops without a rule or whose rule gave up


CASES = [
    Case("bert_ts.onnx"),
    Case("bert_dynamo.onnx"),
    Case("gpt2_past_ts.onnx", extra=({"batch": 2, "seq": 3, "past_seq": 0},)),
    # The dynamo export takes the mask length as its own symbol; only the user knows the sum.
    Case("gpt2_past_dynamo.onnx", facts=("total_seq == past_seq + seq",)),
    Case("llama_past_ts.onnx", extra=({"batch": 2, "seq": 3, "past_seq": 0},)),
    Case("llama_past_dynamo.onnx", facts=("total_seq == past_seq + seq",)),
    Case("t5_ts.onnx"),
    Case("t5_dynamo.onnx"),
    # The position-embedding grid side is int(16 ** 0.5): a float Pow folded exactly.
    Case("vit_ts.onnx", values={"height": (40, 23, 57), "width": (48, 61, 17)}),
    Case("vit_dynamo.onnx", values={"height": (40, 23, 57), "width": (48, 61, 17)}),
    Case("swin_ts.onnx", values=IMAGE),
    Case("swin_dynamo.onnx", values=IMAGE),
    Case("resnet_ts.onnx", values={"height": (37, 50, 64), "width": (50, 33, 41)}),
    Case("resnet_dynamo.onnx", values={"height": (37, 50, 64), "width": (50, 33, 41)}),
    Case("wav2vec2_ts.onnx", values={"samples": (400, 613, 1000)}),
    Case("wav2vec2_dynamo.onnx", values={"samples": (400, 613, 1000)}),
    # Not a gap: NonZero's count is data-dependent (a fresh symbol by nature, range-checked).
    Case("scripted_control_flow.onnx", fresh=5),
]


def _analyze(case: Case) -> Analysis:
    return analyze_onnx(MODELS / case.file, facts=case.facts)


def oracle(case: Case, analysis: Analysis) -> tuple[Report, int]:
    """The merged report over every assignment, and how many assignments ran."""
    envs = assignments(analysis, n=3, edge=True, values=case.values) + list(case.extra)
    report = Report()
    for env in envs:
        values = run_values(MODELS / case.file, make_feeds(analysis.program, env))
        observed = {k: tuple(v.shape) for k, v in values.items()}
        report = report.merge(check(analysis, observed, env, values))
    return report, len(envs)


def test_every_committed_model_has_a_case() -> None:
    assert sorted(p.name for p in MODELS.glob("*.onnx")) == sorted(c.file for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.file.removesuffix(".onnx") for c in CASES])
def test_model_matches_onnxruntime(case: Case) -> None:
    analysis = _analyze(case)
    report, runs = oracle(case, analysis)
    assert runs >= 4
    assert report.wrong == [], report.summary()
    assert report.excused == [], report.summary()
    assert report.wrong_elements == [], report.summary()
    assert report.elements_checked > 0 or "resnet" in case.file  # a CNN computes no shapes
    assert sorted(set(report.failed_guards)) == []
    assert report.missing == []
    assert report.unobserved == []
    assert report.checked == report.correct + report.unresolved
    kinds = analysis.dim_kinds()
    assert (kinds["fresh"], len(analysis.warnings)) == (case.fresh, case.warnings), (
        f"recorded gap changed for {case.file}: {kinds}, warnings {analysis.warnings[:5]}"
    )


def test_bert_every_dim_is_in_input_symbols() -> None:
    """Issue 2's acceptance: a real exported transformer, every dim over its input symbols."""
    analysis = analyze_onnx(MODELS / "bert_ts.onnx")
    assert analysis.warnings == []
    assert analysis.unresolved == []
    assert analysis.dim_kinds()["fresh"] == 0
    names = list(analysis.value_names())
    assert len(names) > 200
    for name in names:
        for d in analysis.shape(name) or ():
            assert not isinstance(d, Expr) or d.free <= {"batch", "seq"}, (name, d)
    assert [str(d) for d in analysis.shape("last_hidden_state") or ()] == ["batch", "seq", "32"]


def test_bert_dims_at_edge_sizes() -> None:
    """batch = 1 and seq = 1 (the sizes where a silent broadcast merge would show) still agree."""
    analysis = analyze_onnx(MODELS / "bert_ts.onnx")
    for env in ({"batch": 1, "seq": 1}, {"batch": 1, "seq": 9}, {"batch": 4, "seq": 1}):
        observed = run_shapes(MODELS / "bert_ts.onnx", make_feeds(analysis.program, env))
        report = check(analysis, observed, env)
        assert report.wrong == [] and report.unresolved == 0
        assert report.correct == sum(len(analysis.shape(v) or ()) for v in analysis.value_names())


def test_bundled_example_is_the_tested_bert() -> None:
    assert example_path().read_bytes() == (MODELS / "bert_ts.onnx").read_bytes()


# ----------------------------------------------------------------------- the oracle itself
def test_oracle_reports_a_dim_that_disagrees() -> None:
    """Shapes observed at one size, checked against another assignment: every batch/seq dim is wrong."""
    analysis = analyze_onnx(MODELS / "bert_ts.onnx")
    observed = run_shapes(MODELS / "bert_ts.onnx", make_feeds(analysis.program, {"batch": 2, "seq": 5}))
    assert check(analysis, observed, {"batch": 2, "seq": 5}).wrong == []
    report = check(analysis, observed, {"batch": 5, "seq": 2})
    kinds = analysis.dim_kinds()
    symmetric = sum(str(d) == "batch*seq" for v in analysis.value_names() for d in analysis.shape(v) or ())
    assert symmetric > 0  # batch*seq is 10 either way
    assert len(report.wrong) == kinds["symbolic"] - symmetric > 100
    assert report.correct == kinds["static"] + symmetric
    wrong = {(w.value, w.axis): w for w in report.wrong}
    assert (wrong[("last_hidden_state", 0)].expected, wrong[("last_hidden_state", 0)].observed) == ("batch", 2)


def test_oracle_compares_tracked_elements_with_the_run() -> None:
    analysis = analyze_onnx(MODELS / "bert_ts.onnx")
    env = {"batch": 3, "seq": 4}
    values = run_values(MODELS / "bert_ts.onnx", make_feeds(analysis.program, env))
    shapes = {k: tuple(v.shape) for k, v in values.items()}
    clean = check(analysis, shapes, env, values)
    assert clean.wrong_elements == [] and clean.elements_checked > 50
    tracked = next(n for n in analysis.value_names() if str((analysis.elements(n) or [""])[0]) == "batch")
    tampered = {**values, tracked: values[tracked] + 1}
    bad = check(analysis, shapes, env, tampered).wrong_elements
    assert [(w.value, w.axis, w.expected, w.observed) for w in bad][:1] == [(tracked, 0, "batch", 4)]


def test_oracle_checks_fresh_symbols_for_consistency(tmp_path: Path) -> None:
    """A data-dependent count is unresolved, but two dims claimed equal must agree when run."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper

    nodes = [helper.make_node("NonZero", ["x"], ["nz"]), helper.make_node("Transpose", ["nz"], ["t"], perm=[1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])],
                              [helper.make_tensor_value_info("t", TensorProto.INT64, None)])
    path = tmp_path / "nonzero.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)
    before = path.read_bytes()
    analysis = analyze_onnx(path)
    observed = run_shapes(path, {"x": np.array([0, 1, 2, 0, 3], np.float32)})
    assert path.read_bytes() == before
    assert observed == {"x": (5,), "nz": (1, 3), "t": (3, 1)}
    report = check(analysis, observed, {"n": 5})
    assert (report.correct, report.unresolved, report.wrong) == (3, 2, [])
    report = check(analysis, {**observed, "t": (4, 1)}, {"n": 5})
    assert [(w.value, w.axis, w.observed) for w in report.wrong] == [("t", 0, 4)]


def test_make_feeds_builds_valid_inputs() -> None:
    import numpy as np

    analysis = analyze_onnx(MODELS / "gpt2_past_ts.onnx")
    feeds = make_feeds(analysis.program, {"batch": 3, "seq": 4, "past_seq": 6}, int_high=7)
    assert feeds["input_ids"].shape == (3, 4) and feeds["input_ids"].dtype == np.int64
    assert 0 <= feeds["input_ids"].min() and feeds["input_ids"].max() < 7
    assert feeds["attention_mask"].shape == (3, 10) and (feeds["attention_mask"] == 1).all()
    assert (feeds["position_ids"] == np.arange(4)).all()
    assert feeds["past_key_0"].shape == (3, 4, 6, 8) and feeds["past_key_0"].dtype == np.float32


def test_assignments_respect_facts_and_include_edges() -> None:
    analysis = analyze_onnx(MODELS / "bert_ts.onnx", facts=["seq % 8 == 0", "batch <= 4"])
    envs = assignments(analysis, n=3)
    assert all(e["seq"] % 8 == 0 and 1 <= e["batch"] <= 4 for e in envs)
    assert all(e["batch"] != e["seq"] and 1 not in (e["batch"], e["seq"]) for e in envs[:3])
    assert envs[3:] == [{"batch": 1, "seq": envs[0]["seq"]}]  # seq = 1 is not a multiple of 8
    plain = assignments(analyze_onnx(MODELS / "bert_ts.onnx"), n=3)
    assert {(e["batch"] == 1, e["seq"] == 1) for e in plain[3:]} == {(True, False), (False, True), (True, True)}


@pytest.mark.needs_torch
@pytest.mark.slow
def test_make_models_regenerates_bert(tmp_path: Path) -> None:
    """The generation script is deterministic: BERT comes out byte-identical."""
    script = ROOT / "scripts" / "make_models.py"
    done = subprocess.run([sys.executable, str(script), "bert", "--exporters", "ts", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bert_ts.onnx: ok" in done.stdout
    assert (tmp_path / "bert_ts.onnx").read_bytes() == (MODELS / "bert_ts.onnx").read_bytes()
    shutil.rmtree(tmp_path, ignore_errors=True)
