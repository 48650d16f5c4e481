"""What `symshape.tools.fusion.groups` may group: the fusible ops of each dialect, reductions and their dims.

The tables follow BladeDISC's ``isFusible`` (``fusion_utils.cc``): elementwise ops, broadcasts,
data movement (reshape, transpose, slice, concatenate, pad, iota) and reductions, for HLO and
ONNX. Constants are operands, not members; shape computations (integer tensors whose elements
the analysis tracks, as jax's shape vectors) are not fused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, cast

from symshape.algebra.expr import Dim
from symshape.engine.program import ConstTensor, Op, Program


class Analysis(Protocol):
    """What the grouping reads of `symshape.engine.result.Analysis` (which imports this module's user)."""

    @property
    def program(self) -> Program: ...  # noqa: D102
    def shape_or_none(self, value: str) -> tuple[Dim, ...] | None: ...  # noqa: D102
    def elements(self, value: str) -> tuple[Dim, ...] | None: ...  # noqa: D102
    def same_dim(self, a: tuple[str, int], b: tuple[str, int]) -> bool | None: ...  # noqa: D102
    def same_numel(self, v: str, w: str) -> bool | None: ...  # noqa: D102
    def guards(self) -> list[tuple[str, str, str]]: ...  # noqa: D102


HLO = ("stablehlo", "mhlo", "chlo")
HLO_ELEMENTWISE = frozenset((
    "abs", "cbrt", "ceil", "convert", "cosine", "count_leading_zeros", "exponential", "exponential_minus_one",
    "floor", "imag", "is_finite", "log", "log_plus_one", "logistic", "negate", "not", "popcnt", "real",
    "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan", "tanh", "cosh", "sinh",
    "erf", "reduce_precision", "add", "and", "atan2", "divide", "maximum", "minimum", "multiply", "or", "power",
    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "xor", "complex",
    "compare", "select", "clamp",
))
HLO_LOOP = frozenset((
    "broadcast_in_dim", "dynamic_broadcast_in_dim", "broadcast", "reshape", "dynamic_reshape", "transpose",
    "reverse", "slice", "dynamic_slice", "real_dynamic_slice", "concatenate", "pad", "dynamic_pad", "iota",
    "dynamic_iota",
))
ONNX = ("", "ai.onnx")
ONNX_LOOP = frozenset((
    "Abs", "Acos", "Add", "And", "Asin", "Atan", "BitShift", "Cast", "Ceil", "Clip", "Cos", "Cosh", "Div", "Elu",
    "Equal", "Erf", "Exp", "Expand", "Flatten", "Floor", "Gelu", "Greater", "GreaterOrEqual", "HardSigmoid",
    "Identity", "IsInf", "IsNaN", "LeakyRelu", "Less", "LessOrEqual", "Log", "Max", "Min", "Mod", "Mul", "Neg",
    "Not", "Or", "Pow", "Reciprocal", "Relu", "Reshape", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh",
    "Softplus", "Sqrt", "Squeeze", "Sub", "Tan", "Tanh", "Transpose", "Unsqueeze", "Where", "Xor",
))
ONNX_REDUCE = frozenset((
    "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
    "ReduceLogSumExp", "ReduceSumSquare",
))
SHAPE_READERS = frozenset((
    ("shape", "shape_of"), ("tensor", "dim"), ("memref", "dim"), ("stablehlo", "get_dimension_size"),
    ("mhlo", "get_dimension_size"), ("", "Shape"), ("", "Size"),
))
"""Ops that read only the shape of their operand: no data edge (the shape is known before the data)."""
_INTEGER = re.compile(r"index|u?i\d+|si\d+|u?int\d+|bool")


@dataclass(frozen=True)
class Node:
    """A fusible op at ``index`` in the program; ``effective`` is the value whose shape it iterates
    over (a reduction's input), ``dims`` a reduction's reduced dims (None: not a reduction)."""

    index: int
    op: Op
    effective: str
    dims: tuple[int, ...] | None = None  # a reduction's reduced dims

    @property
    def out(self) -> str:
        """The op's result."""
        return self.op.outputs[0]


def _int_list(value: object) -> list[int] | None:
    if isinstance(value, ConstTensor):
        return None if value.values is None else list(value.values)
    if isinstance(value, int):
        return [value]
    if isinstance(value, list | tuple):
        items = cast("list[object] | tuple[object, ...]", value)
        ints = [i for i in items if isinstance(i, int)]
        return ints if len(ints) == len(items) else None
    return None


def _reduce_dims(program: Program, op: Op, rank: int) -> tuple[int, ...] | None:
    if op.dialect in HLO:
        dims = _int_list(op.attrs.get("dimensions")) if len(op.inputs) == 2 else None
    else:
        given = program.values.get(op.inputs[1]) if len(op.inputs) > 1 else None
        axes = None if given is None else given.const
        dims = _int_list(op.attrs.get("axes")) if axes is None else list(axes)
        if not dims and not op.attrs.get("noop_with_empty_axes", 0):
            dims = list(range(rank))
    if dims is None or not dims or any(not -rank <= d < rank for d in dims):
        return None
    return tuple(sorted({d % rank for d in dims}))


def _is_shape_computation(dtype: str | None, elements: tuple[Dim, ...] | None) -> bool:
    """An integer tensor whose elements the analysis tracks (jax's shape vectors), or an index one."""
    if dtype is None:
        return bool(elements)
    return dtype == "index" or (_INTEGER.fullmatch(dtype) is not None and bool(elements))


def rank_of(program: Program, analysis: Analysis, name: str) -> int:
    """The declared rank of ``name``, else the analysis's (-1: unranked or unknown)."""
    value = program.values.get(name)
    if value is not None and value.type is not None and value.type.dims is not None:
        return len(value.type.dims)
    shape = analysis.shape_or_none(name)
    return -1 if shape is None else len(shape)


def classify(program: Program, op: Op, analysis: Analysis) -> Node | str | None:
    """A node for a fusible op, ``"alias"`` for an op that only renames values, else None."""
    if (op.dialect, op.op_type) in (("func", "bind"), ("shape", "assuming")):
        return "alias"
    if len(op.outputs) != 1 or op.subgraphs or not op.inputs or rank_of(program, analysis, op.outputs[0]) < 0:
        return None
    value = program.values.get(op.outputs[0])
    dtype = None if value is None or value.type is None else value.type.dtype
    if _is_shape_computation(dtype, analysis.elements(op.outputs[0])):
        return None
    if op.dialect in HLO and op.op_type in HLO_ELEMENTWISE | HLO_LOOP:
        return Node(0, op, op.outputs[0])
    if op.dialect in ONNX and op.op_type in ONNX_LOOP:
        return Node(0, op, op.outputs[0])
    is_reduce = (op.dialect in HLO and op.op_type == "reduce") or (op.dialect in ONNX and op.op_type in ONNX_REDUCE)
    rank = rank_of(program, analysis, op.inputs[0])
    if not is_reduce or rank < 0:
        return None
    dims = _reduce_dims(program, op, rank)
    return None if dims is None else Node(0, op, op.inputs[0], dims)


def used(op: Op) -> Iterator[str]:
    """The values whose data ``op`` reads, its regions' reads of outer values included."""
    if (op.dialect, op.op_type) in SHAPE_READERS:
        return
    yield from op.inputs
    for sub in op.subgraphs.values():
        for inner in sub.ops:
            yield from used(inner)
