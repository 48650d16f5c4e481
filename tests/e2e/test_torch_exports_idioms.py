"""Issue 14's idioms as real exports from both torch exporters (TorchScript with ``dynamic_axes``,
dynamo with ``dynamic_shapes``), every dim checked against onnxruntime at ordinary and edge sizes.

``Clamps`` holds the class-1 slices (``x[:, :1000]``, ``x[:, -3:]``) and a size computed with
integer floor division on ``seq - 1`` (dynamo writes it as a truncating ``Div``); ``FloatSizes``
holds the class-3 TorchScript pattern (``Cast -> Div -> Ceil -> Mul -> Cast`` and a scale of 0.5
with ``Floor``). Every dim must be exact; the only guard allowed is the float32 limit.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import onnx
import pytest

from tests.oracle import assert_exact, check

pytestmark = pytest.mark.needs_torch

SEQS = [7, 64, 513, 2, 3, 999, 1000, 1001]  # ordinary, the smallest dynamo accepts (2), around the clamp


def _modules() -> dict[str, Any]:
    import torch
    from torch import nn

    class Clamps(nn.Module):
        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            n = x.shape[1]
            return x[:, :1000], x[:, -3:], x.new_zeros(x.shape[0], (n - 1) // 2 + 1)

    class FloatSizes(nn.Module):
        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            h = torch._shape_as_tensor(x)[1]  # pyright: ignore[reportPrivateUsage]
            padded = (torch.ceil(h.float() / 16) * 16).long()
            half = torch.floor(h.float() * 0.5).long()
            return torch.ones(1).repeat(padded.unsqueeze(0)), torch.ones(1).repeat(half.unsqueeze(0))

    return {"clamps": Clamps(), "float-sizes": FloatSizes()}


def export(name: str, dynamo: bool, path: Path) -> onnx.ModelProto:
    import torch

    module = _modules()[name]
    x = torch.randn(2, 37, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dynamo:
            dims = {0: torch.export.Dim("b"), 1: torch.export.Dim("seq", min=2, max=8192)}
            torch.onnx.export(module, (x,), str(path), dynamo=True, input_names=["x"], dynamic_shapes={"x": dims})
        else:
            torch.onnx.export(module, (x,), str(path), dynamo=False, input_names=["x"], opset_version=17,
                              dynamic_axes={"x": {0: "b", 1: "seq"}})
    return onnx.load(str(path))


CASES = [("clamps", False), ("clamps", True), ("float-sizes", False)]


@pytest.mark.parametrize(("name", "dynamo"), CASES, ids=[f"{n}-{'dynamo' if d else 'torchscript'}" for n, d in CASES])
def test_export_is_exact_against_onnxruntime(name: str, dynamo: bool, tmp_path: Path) -> None:
    model = export(name, dynamo, tmp_path / "m.onnx")
    samples = [{"b": b, "seq": s} for b, s in zip([2, 1, 3, 1, 1, 1, 1, 2], SEQS, strict=True)]
    report = assert_exact(check(model, samples))
    analysis = report.analysis
    assert not analysis.warnings, [w.message for w in analysis.warnings]
    for out in model.graph.output:  # every output dim is claimed, in the input symbols
        assert analysis.shape(out.name) is not None, out.name
    guards = [g[0] for g in analysis.guards()]
    assert all(g == "seq <= 16777216" for g in guards), guards
    assert report.checked_dims > 0
