"""Small models exported by torch-mlir in its torch dialect, for `tests/frontends/mlir/test_torch_models.py`.

Each entry: the module, its example input shapes, its ``dynamic_shapes``, three sample input
shapes to run torch at, and whether torch-mlir can print its ``bind_symbolic_shape`` ops
(torch-mlir 20261001 cannot translate a ``FloorDiv``, so a strided conv net is exported without).
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812
from torch.export import Dim

Shapes = list[tuple[int, ...]]


class MLP(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.l2(torch.relu(self.l1(x)))


class Attention(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.qkv, self.o = torch.nn.Linear(16, 48), torch.nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        q, k, v = (p.view(b, t, 2, 8).transpose(1, 2) for p in self.qkv(x).split(16, dim=-1))
        a = torch.softmax(q @ k.transpose(-2, -1) / 8**0.5, dim=-1)
        return self.o((a @ v).transpose(1, 2).reshape(b, t, 16))


class ConvSame(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1, self.c2 = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.Conv2d(8, 4, 5)
        self.bn = torch.nn.BatchNorm2d(4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = self.bn(self.c2(torch.relu(self.c1(x))))
        return y, torch.flatten(F.adaptive_avg_pool2d(y, 1), 1)


class ConvStrided(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1, self.c2 = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.Conv2d(8, 4, 3, stride=2)
        self.bn = torch.nn.BatchNorm2d(4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = self.bn(self.c2(F.max_pool2d(torch.relu(self.c1(x)), 2)))
        return y, torch.flatten(F.adaptive_avg_pool2d(y, 1), 1)


class Concat(torch.nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        c = torch.cat([a, b], 0)
        return c[1:] * 2, torch.cat([c, a], 0).sum(1)


def _hw(low: int) -> Callable[[], tuple[dict[int, Any]]]:
    return lambda: ({2: Dim("h", min=low, max=256), 3: Dim("w", min=low, max=256)},)


MODELS: dict[str, tuple[Callable[[], torch.nn.Module], Shapes, Callable[[], Any], list[Shapes], bool]] = {
    "mlp": (MLP, [(3, 8)], lambda: ({0: Dim("batch", min=1, max=1024)},), [[(1, 8)], [(5, 8)], [(17, 8)]], True),
    "attention": (Attention, [(2, 5, 16)], lambda: ({1: Dim("seq", min=1, max=512)},),
                  [[(2, 1, 16)], [(2, 7, 16)], [(2, 33, 16)]], True),
    "conv_same": (ConvSame, [(2, 3, 16, 20)], _hw(8), [[(2, 3, 8, 9)], [(2, 3, 17, 30)], [(2, 3, 40, 21)]], True),
    "conv_strided": (ConvStrided, [(2, 3, 16, 20)], _hw(12), [[(2, 3, 12, 13)], [(2, 3, 17, 30)], [(2, 3, 40, 21)]],
                     False),
    "concat": (Concat, [(3, 8), (5, 8)], lambda: ({0: Dim("la", min=1, max=100)}, {0: Dim("lb", min=1, max=100)}),
               [[(1, 8), (1, 8)], [(4, 8), (9, 8)], [(13, 8), (2, 8)]], True),
}


@functools.cache
def _exported(name: str) -> tuple[torch.nn.Module, Any]:
    from torch_mlir import fx

    make, shapes, dynamic, _, binds = MODELS[name]
    torch.manual_seed(0)
    model = make().eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = fx.export_and_import(model, *(torch.randn(s) for s in shapes), dynamic_shapes=dynamic(),
                                      import_symbolic_shape_expressions=binds, output_type="torch")
    return model, module


def export(name: str, *, generic: bool = False) -> tuple[torch.nn.Module, str]:
    """The model and the torch dialect text torch-mlir prints for it (weights elided), exported
    once per test session."""
    model, module = _exported(name)
    return model, module.operation.get_asm(large_elements_limit=16, print_generic_op_form=generic)


def run(model: torch.nn.Module, shapes: Shapes) -> list[tuple[int, ...]]:
    """The shapes of the model's results at input ``shapes``."""
    with torch.no_grad():
        out = model(*(torch.randn(s) for s in shapes))
    return [tuple(t.shape) for t in (out if isinstance(out, tuple) else (out,))]


_BIND = re.compile(r"^\s*torch\.bind_symbolic_shape %(?!arg)\S+, .*$\n", re.M)


def without_value_binds(text: str) -> str:
    """``text`` without the ``bind_symbolic_shape`` ops of values other than the arguments."""
    return _BIND.sub("", text)
