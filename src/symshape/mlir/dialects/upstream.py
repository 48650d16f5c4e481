"""Upstream MLIR ops that xDSL's ``tensor`` and ``arith`` dialects lack, and those dialects
with them added, so their pretty forms parse like the rest.

``tensor.generate %a, %b { ^bb0(%i: index, ...): ... tensor.yield %v : f32 } : tensor<?x3x?xf32>``,
``arith.remf %a, %b : f32`` and ``arith.index_castui %a : index to i32``, as ``mlir-opt``
prints them. https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorgenerate-tensorgenerateop and
https://mlir.llvm.org/docs/Dialects/ArithOps/
"""

from __future__ import annotations

from xdsl.dialects.arith import Arith, FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import IndexType, IntegerType, TensorType
from xdsl.dialects.tensor import Tensor
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure


@irdl_op_definition
class GenerateOp(IRDLOperation):
    """``tensor.generate``: a tensor of the given dynamic extents, one body run per element."""

    name = "tensor.generate"

    dynamic_extents = var_operand_def(IndexType)
    body = region_def("single_block")
    result = result_def(TensorType[Attribute])

    assembly_format = "$dynamic_extents $body attr-dict `:` type($result)"


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """``arith.remf``: the floating-point remainder."""

    name = "arith.remf"

    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """``arith.index_castui``: ``index_cast`` with the integer treated as unsigned."""

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"


def _extended(dialect: Dialect, ops: list[type[Operation]]) -> Dialect:
    return Dialect(dialect.name, [*dialect.operations, *ops], list(dialect.attributes))


TensorWithGenerate = _extended(Tensor, [GenerateOp])
ArithWithRemf = _extended(Arith, [RemFOp, IndexCastUIOp])
