"""Small torch models with dynamic dims, exported by torch-mlir 20261001 as stablehlo, for the
``for-iree`` pipeline (issue 23): each is exported once with ``torch.export.Dim`` dims through
``torch_mlir.fx.export_and_import(..., output_type="stablehlo")``, rewritten, compiled by IREE
once and run at several sizes against torch on the same random inputs
(tests/tools/mlir_passes/test_for_iree_torch.py; a benchmark can time it with ``static_stablehlo``).

A program is ``(module factory, {symbol: smallest legal size}, argument specs)``; a spec is a shape
and a dtype, each dim an int or a symbol (one ``torch.export.Dim`` per symbol, shared by every
input it appears in). Weights are drawn once (seed 0) and are the same in every export.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tests.iree_programs import random_arrays

Spec = tuple[tuple[str | int, ...], str]

_LARGEST = 512  # every symbol's upper bound in torch.export


@dataclass(frozen=True, eq=False)
class TorchProgram:
    """One model: a factory of the ``torch.nn.Module`` (built with seed 0, in eval mode), each
    symbol's smallest legal size, and one spec per argument of ``forward``."""

    make: Callable[[], Any]
    lowest: Mapping[str, int]
    specs: Sequence[Spec]

    @functools.cached_property
    def model(self) -> Any:
        import torch

        torch.manual_seed(0)
        return self.make().eval()

    def shapes(self, sizes: Mapping[str, int]) -> list[tuple[int, ...]]:
        """Each spec's shape at ``sizes``."""
        return [tuple(d if isinstance(d, int) else sizes[d] for d in shape) for shape, _ in self.specs]

    def inputs(self, sizes: Mapping[str, int], seed: int) -> tuple[np.ndarray, ...]:
        """Random arguments at ``sizes``, as numpy arrays (IREE's flat arguments): integers in
        [0, 64) (valid indices of the tables), booleans half true, floats of scale 0.25."""
        return tuple(random_arrays(self.shapes(sizes), [dtype for _, dtype in self.specs], seed))

    def reference(self, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The model's outputs, run by torch on ``args``, flat (a tuple's items in order)."""
        import torch

        with torch.no_grad():
            out = self.model(*(torch.from_numpy(np.ascontiguousarray(a)) for a in args))
        return [t.numpy() for t in (out if isinstance(out, tuple | list) else (out,))]

    def sizes(self) -> list[dict[str, int]]:
        """Three assignments: the smallest legal sizes, then two larger, each symbol different."""
        return [
            {s: lo + step * (i + 1) if step else lo for i, (s, lo) in enumerate(self.lowest.items())}
            for step in (0, 3, 9)
        ]

    def mid(self) -> dict[str, int]:
        """The size a benchmark times at (as benchmarks/for_iree.py): 4 x the second assignment + 60."""
        return {s: 4 * v + 60 for s, v in self.sizes()[1].items()}

    def _example(self) -> dict[str, int]:
        # neither 0 nor 1 (torch.export specializes those), and each symbol different
        return {s: max(lo, 2) + 3 + i for i, (s, lo) in enumerate(self.lowest.items())}

    def _dynamic_shapes(self) -> tuple[dict[int, Any], ...]:
        from torch.export import Dim

        dims = {s: Dim(s, min=lo, max=_LARGEST) for s, lo in self.lowest.items()}
        return tuple({i: dims[d] for i, d in enumerate(shape) if isinstance(d, str)} for shape, _ in self.specs)

    def _export(self, sizes: Mapping[str, int], dynamic: bool) -> str:
        import torch
        from torch_mlir import fx

        args = [torch.from_numpy(a) for a in self.inputs(sizes, 0)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = fx.export_and_import(
                self.model, *args, output_type="stablehlo", dynamic_shapes=self._dynamic_shapes() if dynamic else None
            )
        return str(module)

    def stablehlo(self) -> str:
        """torch-mlir's stablehlo of the model with a dynamic dim per symbol (weights inline as
        ``dense_resource`` blobs), exported once."""
        return _cached_export(self, None)

    def static_stablehlo(self, sizes: Mapping[str, int]) -> str:
        """torch-mlir's stablehlo of the same model (same weights) with every dim static, at
        ``sizes``: what a dynamic module is timed against."""
        return _cached_export(self, tuple(sorted(sizes.items())))


@functools.cache
def _cached_export(program: TorchProgram, sizes: tuple[tuple[str, int], ...] | None) -> str:
    if sizes is None:
        return program._export(program._example(), dynamic=True)
    return program._export(dict(sizes), dynamic=False)


def _model(name: str) -> Callable[[], Any]:
    """A factory of the class ``name`` of tests/torch_iree_models.py (imported when called: this
    module imports without torch)."""

    def make() -> Any:
        from tests import torch_iree_models

        return getattr(torch_iree_models, name)()

    return make


F32, I64 = "float32", "int64"
TORCH_PROGRAMS: dict[str, TorchProgram] = {
    "mlp": TorchProgram(_model("MLP"), {"b": 1}, [(("b", 8), F32)]),
    "next token": TorchProgram(_model("NextToken"), {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    "attention": TorchProgram(_model("Attention"), {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    "encoder layer": TorchProgram(_model("EncoderLayer"), {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    "softmax + concat": TorchProgram(_model("SoftmaxConcat"), {"n": 1, "m": 1}, [(("n", 8), F32), (("m", 8), F32)]),
    # ``triu``'s iotas make the mask from ``torch.arange``'s float length
    "causal attention": TorchProgram(_model("CausalAttention"), {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    # the positions' ``arange(s)`` against the tokens' ``b x s``
    "embedding + layernorm": TorchProgram(_model("EmbedNorm"), {"b": 1, "s": 1}, [(("b", "s"), I64)]),
    # NCHW / OIHW, as linalg (`symshape.tools.mlir_passes.iree_conv`); from h = w = 4: torch.export
    # guards ``h - 2 != 1``
    "valid conv": TorchProgram(_model("ValidConv"), {"h": 4, "w": 4}, [((2, 3, "h", "w"), F32)]),
}
"""Programs ``for-iree`` brings through IREE 3.13: compiled once, right at every size. IREE alone
compiles none of torch-mlir's stablehlo ("failed to legalize 'stablehlo.dynamic_broadcast_in_dim'"
or "... 'stablehlo.dynamic_reshape'", and 'stablehlo.convolution' for the convs). On the way,
for-iree learned to keep the ``{-# dialect_resources #-}`` block (torch-mlir's weights), to read
``tensor<Nxindex>`` shapes, and to settle torch-mlir's ``shape.cstr_broadcastable`` witnesses; the
analysis learned sizes computed in floats: ``torch.arange(n)``'s length is
``convert(ceil(f64(n - 0) / f64(1)))`` (`symshape.rules.hlo.float_sizes`)."""

# What stops the others after for-iree:
# [pool] IREE needs a reduce_window's (max pool's) spatial dims static: 'failed to legalize
# operation 'stablehlo.reduce_window'' (its convs are rewritten, `symshape.tools.mlir_passes.iree_conv`).
TORCH_PENDING: dict[str, TorchProgram] = {
    # [pool]; from h = w = 4: torch.export guards ``h // 2 != 1`` (the pool)
    "conv net": TorchProgram(_model("ConvNet"), {"h": 4, "w": 4}, [((2, 3, "h", "w"), F32)]),
}
"""Programs ``for-iree`` does not yet bring through IREE (the comments say what stops each)."""

ALL: dict[str, TorchProgram] = {**TORCH_PROGRAMS, **TORCH_PENDING}
