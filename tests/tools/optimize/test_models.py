"""`symshape optimize` on the bundled exports (tests/models): outputs bitwise identical in
onnxruntime at several sizes (1 included), onnx's full checker passes, and the shape
computation of the TorchScript transformer exports mostly goes away."""

from __future__ import annotations

import onnx
import pytest

from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.tools.optimize import Summary
from symshape.tools.optimize.compare import compare_models
from symshape.tools.optimize.model import optimize_with
from tests.paths import MODELS

FACTS = {name: ["total_seq == past_seq + seq"] for name in ("gpt2_past_dynamo", "llama_past_dynamo")}
NAMES = [
    "bert_ts", "bert_dynamo", "gpt2_past_ts", "gpt2_past_dynamo", "llama_past_ts", "llama_past_dynamo",
    "resnet_ts", "resnet_dynamo", "t5_ts", "t5_dynamo", "vit_ts", "vit_dynamo", "wav2vec2_ts", "wav2vec2_dynamo",
    "swin_ts", "swin_dynamo", "scripted_control_flow",
]
# Share of shape-computation nodes removed, as measured (a floor: this must not get worse).
REACHED = {"bert_ts": 0.90, "gpt2_past_ts": 0.91, "llama_past_ts": 0.92, "t5_ts": 0.86}
# Issue 8's target: at least 90% on the TorchScript transformer exports.
TARGET = 0.9


def _optimize(name: str) -> tuple[onnx.ModelProto, onnx.ModelProto, Analysis, Summary]:
    model = onnx.load(str(MODELS / f"{name}.onnx"))
    result = analyze_onnx(model, facts=FACTS.get(name, []))
    out, summary = optimize_with(model, result)
    return model, out, result, summary


@pytest.mark.parametrize("name", NAMES)
def test_outputs_bitwise_identical(name: str) -> None:
    model, out, result, summary = _optimize(name)
    onnx.checker.check_model(out, full_check=True)
    assert len(out.graph.node) <= len(model.graph.node)
    report = compare_models(model, out, result)
    assert report.ran >= 3, report.lines
    assert report.differed == 0, report.lines
    assert any("=1" in line for line in report.lines)


@pytest.mark.parametrize("name", sorted(REACHED))
def test_shape_computation_removed(name: str) -> None:
    _, _, _, summary = _optimize(name)
    before, after = summary.shape_nodes_before, summary.shape_nodes_after
    assert (before - after) / before >= REACHED[name]


@pytest.mark.parametrize(
    "name",
    [
        "bert_ts",
        "gpt2_past_ts",
        "llama_past_ts",
        pytest.param("t5_ts", marks=pytest.mark.xfail(strict=True, reason=(
            "222 -> 30 (86%); 90% needs <= 22, but 21 of the 30 are data the model computes from the two "
            "sequence lengths: relative-position buckets and the causal mask (encoder: Range, 3 Unsqueeze, Sub, "
            "Greater, Cast, Mul, Abs, Less; decoder: Range, 4 Unsqueeze, LessOrEqual, Expand, Sub, Min, Neg, Less) "
            "plus a GreaterOrEqual per stack, and the two Ranges need both lengths as scalars (Shape + Gather "
            "each): at least 25 nodes Shape feeds alone"))),
    ],
)
def test_shape_computation_target_90_percent(name: str) -> None:
    _, _, _, summary = _optimize(name)
    before, after = summary.shape_nodes_before, summary.shape_nodes_after
    assert (before - after) / before >= TARGET


def test_onnxslim_after_symshape_still_runs() -> None:
    """Composes: onnxslim on the optimized model gives a valid model with the same outputs
    (to float tolerance: onnxslim folds and fuses)."""
    import numpy as np
    import onnxruntime as ort
    import onnxslim  # noqa: PLC0415 - the test extra installs it

    from symshape.tools.verify import make_feeds

    model, out, result, _ = _optimize("gpt2_past_ts")
    slimmed = onnxslim.slim(out)
    onnx.checker.check_model(slimmed, full_check=True)
    feeds = make_feeds(result.program, {"batch": 2, "seq": 3, "past_seq": 5})
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    got = ort.InferenceSession(slimmed.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    for a, b in zip(want, got, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
