"""Real exports from both torch exporters (TorchScript with ``dynamic_axes``, dynamo with
``dynamic_shapes``) of the patterns of issue 14's classes 2 and 4, every dim checked against
onnxruntime at ordinary sizes and at the smallest size each model accepts.

* a strided convolution stack (stride-2 convs, a padded max pool, a dilated conv, an average
  pool): each window's fit follows from the previous layer, so no guard;
* ``F.interpolate(scale_factor=2)``; ``F.pad`` to a multiple of 8; ``torch.arange(x.shape[1])``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx
import pytest

from tests.oracle import assert_exact, check

pytestmark = [pytest.mark.needs_torch, pytest.mark.slow]


def _modules() -> dict[str, tuple[Callable[[], Any], tuple[int, ...], dict[int, tuple[str, int]]]]:
    """name -> (module factory, example input shape, {axis: (symbol, smallest size)})."""
    import torch

    nn, fn = torch.nn, torch.nn.functional

    class ConvStack(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c1 = nn.Conv2d(3, 4, 3, stride=2, padding=1)
            self.c2 = nn.Conv2d(4, 4, 3, stride=2, padding=1)
            self.p = nn.MaxPool2d(3, stride=2, padding=1)
            self.c3 = nn.Conv2d(4, 4, 3, dilation=2)
            self.a = nn.AvgPool2d(2)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.a(self.c3(self.p(self.c2(self.c1(x)))))

    class Interp(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return fn.interpolate(x, scale_factor=2.0, mode="nearest")

    class PadToMultiple(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h, w = x.shape[-2:]
            return fn.pad(x, (0, (8 - w % 8) % 8, 0, (8 - h % 8) % 8))

    class Arange(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x[:, :1] * 0 + torch.arange(x.shape[1], dtype=torch.float32)[None]

    hw = {2: ("h", 41), 3: ("w", 41)}  # torch's own derived minimum for the stack is 41
    return {
        "conv_stack": (ConvStack, (1, 3, 64, 64), hw),
        "interpolate": (Interp, (1, 3, 8, 8), {2: ("h", 2), 3: ("w", 2)}),
        "pad_multiple": (PadToMultiple, (1, 3, 13, 13), {2: ("h", 2), 3: ("w", 2)}),
        "arange": (Arange, (2, 7), {1: ("n", 2)}),
    }


def _export(name: str, dynamo: bool, path: Path) -> onnx.ModelProto:
    import torch

    factory, shape, axes = _modules()[name]
    module, args = factory().eval(), (torch.randn(*shape),)
    if dynamo:
        dims = {a: torch.export.Dim(s, min=lo) for a, (s, lo) in axes.items()}
        torch.onnx.export(module, args, str(path), dynamo=True, dynamic_shapes={"x": dims}, input_names=["x"])
    else:
        dynamic = {"x": {a: s for a, (s, _) in axes.items()}}
        torch.onnx.export(
            module, args, str(path), dynamo=False, input_names=["x"], dynamic_axes=dynamic, opset_version=17
        )
    return onnx.load(str(path))


SAMPLES = {
    # 33 is the smallest size onnxruntime runs the stack at (the dilated conv's window); 40/41
    # straddle the average pool's own fit, which onnxruntime truncates below 41
    "conv_stack": [dict(h=64, w=64), dict(h=97, w=61), dict(h=33, w=33), dict(h=40, w=41), dict(h=128, w=35)],
    "interpolate": [dict(h=8, w=8), dict(h=5, w=9), dict(h=1, w=1), dict(h=2, w=31)],
    "pad_multiple": [dict(h=13, w=13), dict(h=8, w=9), dict(h=1, w=1), dict(h=16, w=7), dict(h=100, w=64)],
    "arange": [dict(n=7), dict(n=2), dict(n=1), dict(n=64)],
}


@pytest.mark.parametrize("dynamo", [False, True], ids=["torchscript", "dynamo"])
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_export_is_exact_at_every_size(name: str, dynamo: bool, tmp_path: Path) -> None:
    model = _export(name, dynamo, tmp_path / f"{name}.onnx")
    report = assert_exact(check(model, SAMPLES[name]))
    a = report.analysis
    assert not a.warnings, [w.message for w in a.warnings]
    allowed = ("slice bounds", "float exact")  # a Slice's clamp (another branch) and float32 exactness
    assert all(any(k in origin for k in allowed) for _, origin, _ in a.guards()), a.guards()
    if name == "conv_stack":
        assert a.guards() == []
        assert a.symbols()["h"]["range"] == [33, None]
