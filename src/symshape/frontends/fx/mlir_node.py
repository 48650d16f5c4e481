"""Stand-ins for the FX nodes the aten translators read, made from torch-mlir's torch dialect.

A translator (`symshape.frontends.fx.call.Call`) reads a node's ``name``, ``target`` (printed: the aten
key, ``aten.cat.default``), its ``args`` (nodes, lists of nodes, numbers) and ``meta["val"]``:
a tensor's ``shape`` and ``dtype``, a number for a SymInt, a list for several results. An MLIR
op says as much in its operands and result types (``!torch.vtensor<[?,8],f32>``), so the same
translators serve both frontends: one table of aten semantics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symshape.engine.program import TensorType

__all__ = ["MetaTensor", "MlirNode", "meta_of"]


@dataclass(frozen=True)
class MetaTensor:
    """What a translator reads of a FakeTensor: static dims (None where dynamic), the dtype as
    torch prints it (``torch.float32``)."""

    shape: tuple[int | None, ...]
    dtype: str


@dataclass
class MlirNode:
    """One MLIR value as an FX node: ``target`` is the aten key of the op that made it."""

    name: str
    target: str = ""
    args: list[Any] = field(default_factory=list[Any])
    kwargs: dict[str, Any] = field(default_factory=dict[str, Any])
    meta: dict[str, Any] = field(default_factory=dict[str, Any])


_SCALAR_META: dict[str, Any] = {"int64": 0, "float64": 0.0, "bool": False}


def meta_of(t: TensorType, tensor: bool) -> Any:
    """The meta ``val`` of a value of type ``t``: a `MetaTensor` for a ranked tensor, a number of
    the right kind for a ``!torch.int`` / ``float`` / ``bool`` (``tensor`` False), else None."""
    if t.dims is None:
        return None
    if not tensor:
        return _SCALAR_META.get(t.dtype)
    return MetaTensor(tuple(d if isinstance(d, int) else None for d in t.dims), f"torch.{t.dtype}")
