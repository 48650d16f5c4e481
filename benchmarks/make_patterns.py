"""Export small modules built around the shape idioms that are hard to get exact (the "hard set").

Each module is one idiom exporters really emit: slices that clamp, truncating integer division
on sizes, float arithmetic on sizes (TorchScript), ranges and pads computed from the shape,
interpolation to computed sizes, strided windows with ceil mode. Both PyTorch exporters export
each, into a cache directory (default `bench-out/patterns/`, not committed); the benchmark then
scores every tool on them against onnxruntime runs:

    python benchmarks/make_patterns.py --out bench-out/patterns
    python benchmarks/run.py --models patterns

Needs the ``models`` extra (torch==2.13.0, onnxscript).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from make_models import Spec, export_cli, seeded  # noqa: E402
from torch import nn  # noqa: E402

Built = tuple[nn.Module, tuple[torch.Tensor, ...]]


class SliceClamp(nn.Module):
    """``x[:, :1000]``, ``x[:, -3:]``, a flip and a start of ``-seq//3``: every bound may clamp."""

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        n = x.shape[1]
        return x[:, :1000], x[:, -3:], torch.flip(x, [1])[:, ::2], x[:, -(n // 3):], x[:, 1:n + 1]


class TruncDiv(nn.Module):
    """Sizes from integer division of ``dim - 1`` (the dynamo exporter's truncating ``Div``)."""

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        h, w = x.shape[2], x.shape[3]
        half = F.interpolate(x, size=((h - 1) // 2 + 1, (w - 1) // 2 + 1), mode="nearest")
        return half, x.reshape(x.shape[0], -1)[:, : (h * w) // 4]


class StridedConvs(nn.Module):
    """A segmentation-style encoder-decoder: strided convs down, interpolate back to the input."""

    def __init__(self) -> None:
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 8, 3, 2, 1),
                                  nn.MaxPool2d(3, 2, ceil_mode=True), nn.AvgPool2d(2, 2, ceil_mode=True))
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        y = self.head(self.down(x))
        return y, F.interpolate(y, size=x.shape[2:], mode="bilinear", align_corners=False)


class FloatSizes(nn.Module):
    """Patch grids from float arithmetic on sizes: ``ceil(h / p)``, ``int(w * 0.5)``."""

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        h, w = x.shape[2], x.shape[3]
        gh, gw = math.ceil(h / 4), math.ceil(w / 4)
        padded = F.pad(x, (0, gw * 4 - w, 0, gh * 4 - h))
        patches = padded.reshape(x.shape[0], x.shape[1], gh, 4, gw, 4)
        return patches, F.interpolate(x, scale_factor=0.5, mode="nearest")


class ComputedPadRange(nn.Module):
    """Pad to a multiple of 8, a range from the shape, a causal mask, a slice of computed length."""

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        n = x.shape[1]
        padded = F.pad(x, (0, 0, 0, (8 - n % 8) % 8))
        steps = torch.arange(0, n, 2, device=x.device)
        mask = torch.triu(torch.ones(n, n, device=x.device), diagonal=1)
        return padded, steps, mask, x.narrow(1, 0, n // 2 + 1)


def _one(module: type[nn.Module], shape: tuple[int, ...]) -> Built:
    torch.manual_seed(0)
    return module().eval(), (torch.randn(*shape),)


def _seq_spec(name: str, module: type[nn.Module], outputs: int) -> Spec:
    return Spec(name, seeded(lambda: _one(module, (2, 11, 4))), ["x"], [f"y{i}" for i in range(outputs)],
                {"x": {0: "batch", 1: "seq"}}, dim_ranges={"seq": (2, 4096)})


def _image_spec(name: str, module: type[nn.Module], outputs: int, lo: int = 8) -> Spec:
    return Spec(name, seeded(lambda: _one(module, (2, 3, 37, 50))), ["x"], [f"y{i}" for i in range(outputs)],
                {"x": {0: "batch", 2: "height", 3: "width"}},
                dim_ranges={"height": (lo, 1024), "width": (lo, 1024)})


SPECS: list[Spec] = [
    _seq_spec("slice_clamp", SliceClamp, 5),
    _image_spec("trunc_div", TruncDiv, 2),
    _image_spec("strided_convs", StridedConvs, 2, lo=16),
    _image_spec("float_sizes", FloatSizes, 2),
    _seq_spec("computed_pad_range", ComputedPadRange, 4),
]


def main(argv: list[str] | None = None) -> int:
    return export_cli(SPECS, ROOT / "bench-out" / "patterns", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
