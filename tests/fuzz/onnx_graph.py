"""The graph under construction for the ONNX program fuzzer: nodes, initializers and the tensors
made so far, each with a token per dim so that generated ops are valid by construction.

A token is an integer literal (``"3"``), an input symbol (``"n"``) or a derived name. Two dims
with the same token are the same size at every assignment of the input symbols; different tokens
say nothing (a fresh token is always safe). Ops use tokens to pick operands that broadcast,
multiply and concatenate; onnxruntime, not the tokens, is the oracle.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper

from tests.oracle import array, const, make_model, tensor

SYMBOLS = ("n", "m", "k", "p")


@dataclass(frozen=True)
class Tensor:
    """A float tensor of the program and its dim tokens."""

    name: str
    dims: tuple[str, ...]

    @property
    def rank(self) -> int:
        return len(self.dims)


def is_const(token: str) -> bool:
    """Whether the token is a literal size."""
    return token.isdigit()


@dataclass
class Graph:
    """Nodes and initializers appended by the ops; `tensors` are the float values ops may use."""

    inputs: list[Tensor] = field(default_factory=list[Tensor])
    tensors: list[Tensor] = field(default_factory=list[Tensor])
    nodes: list[onnx.NodeProto] = field(default_factory=list[onnx.NodeProto])
    inits: list[onnx.TensorProto] = field(default_factory=list[onnx.TensorProto])
    ops: list[str] = field(default_factory=list[str])  # the op kinds drawn, for the report
    _count: itertools.count[int] = field(default_factory=itertools.count)

    def name(self, prefix: str) -> str:
        return f"{prefix}{next(self._count)}"

    def fresh(self) -> str:
        """A token equal to no other."""
        return self.name("t")

    def add_input(self, dims: Sequence[str]) -> Tensor:
        t = Tensor(self.name("x"), tuple(dims))
        self.inputs.append(t)
        self.tensors.append(t)
        return t

    def node(self, op: str, inputs: Sequence[str], n_out: int = 1, **attrs: Any) -> list[str]:
        """Append a node; returns its output names."""
        outs = [self.name(op.lower()[:5]) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, list(inputs), outs, **attrs))
        return outs

    def one(self, op: str, inputs: Sequence[str], **attrs: Any) -> str:
        return self.node(op, inputs, 1, **attrs)[0]

    def keep(self, name: str, dims: Sequence[str]) -> Tensor:
        """Record a float result that later ops may use."""
        t = Tensor(name, tuple(dims))
        self.tensors.append(t)
        return t

    def ints(self, values: Sequence[int]) -> str:
        """A 1-D int64 initializer."""
        name = self.name("c")
        self.inits.append(const(name, list(values)))
        return name

    def scalar(self, value: int) -> str:
        """A scalar int64 initializer."""
        name = self.name("s")
        self.inits.append(const(name, value))
        return name

    def floats(self, values: Sequence[float]) -> str:
        name = self.name("f")
        self.inits.append(array(name, np.asarray(values, np.float32)))
        return name

    def weight(self, dims: Sequence[int]) -> str:
        name = self.name("w")
        self.inits.append(array(name, np.full(tuple(dims), 0.5, np.float32)))
        return name

    def shape(self, t: Tensor) -> str:
        return self.one("Shape", [t.name])

    def dim(self, t: Tensor, axis: int) -> str:
        """``t.shape[axis]`` as a 1-D int64 tensor of one element."""
        return self.one("Gather", [self.shape(t), self.ints([axis])], axis=0)

    def dim_scalar(self, t: Tensor, axis: int) -> str:
        """``t.shape[axis]`` as an int64 scalar."""
        return self.one("Gather", [self.shape(t), self.scalar(axis)], axis=0)

    def filled(self, shape: str, dims: Sequence[str]) -> Tensor:
        """A float tensor of ones whose shape is the int64 vector ``shape``."""
        one = helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0])
        return self.keep(self.one("ConstantOfShape", [shape], value=one), dims)

    def model(self) -> onnx.ModelProto:
        """The model: every input, every node; the last node's outputs are the graph outputs."""
        infos = [tensor(t.name, [d if not is_const(d) else int(d) for d in t.dims]) for t in self.inputs]
        return make_model(self.nodes, infos, None, self.inits)
