"""A small dialect-neutral view of a program: what the analysis reads, built by the frontends.

The analysis never imports onnx or xdsl; an ONNX model and an MLIR function both become a
`Program` of `Op`s over named `Value`s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SourceDim = int | str | None  # a static size, a declared symbolic name, or unknown
MAX_TRACKED = 64
"""Integer tensors up to this many elements have their values tracked (shape vectors, indices,
constants of shape computations): the frontends read such constants' contents, the rules compute
such values, and no larger ones."""


@dataclass
class TensorType:
    """The declared type of a value: element type and dims (``dims is None``: unranked).

    ``bounds`` holds the declared upper bound of each dim where the type states one (StableHLO's
    bounded dynamism, ``tensor<?xf32, #stablehlo.bounds<16>>``), else None."""

    dtype: str
    dims: tuple[SourceDim, ...] | None
    bounds: tuple[int | None, ...] | None = None


@dataclass(frozen=True)
class ConstTensor:
    """A tensor attribute (e.g. ONNX Constant's ``value``): dims, dtype, and the contents of a
    small tensor: ``values`` for integers, ``floats`` for floating-point ones (Resize scales)."""

    dims: tuple[int, ...]
    dtype: str
    values: tuple[int, ...] | None = None
    floats: tuple[float, ...] | None = None


@dataclass
class Value:
    """A named value. ``const`` / ``floats`` hold the flattened contents of small constants."""

    name: str
    type: TensorType | None = None
    const: tuple[int, ...] | None = None
    is_initializer: bool = False
    floats: tuple[float, ...] | None = None


@dataclass
class Op:
    """One operation: ``dialect`` is the ONNX domain (``""`` for ai.onnx) or the MLIR dialect."""

    dialect: str
    op_type: str
    name: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, Any] = field(default_factory=dict[str, Any])
    version: int = 0
    subgraphs: dict[str, Program] = field(default_factory=dict[str, "Program"])


@dataclass
class Program:
    """Ops in a valid execution order over values; ``inputs`` excludes initializers."""

    name: str
    inputs: list[str]
    outputs: list[str]
    values: dict[str, Value]
    ops: list[Op]
    opset: dict[str, int] = field(default_factory=dict[str, int])

    def value(self, name: str) -> Value:
        """The value called ``name``, created (untyped) on first use."""
        v = self.values.get(name)
        if v is None:
            v = self.values[name] = Value(name)
        return v
