"""Upstream MLIR ops that xDSL's ``tensor`` and ``arith`` dialects lack, and those dialects
with them added, so their pretty forms parse like the rest.

``tensor.generate %a, %b { ^bb0(%i: index, ...): ... tensor.yield %v : f32 } : tensor<?x3x?xf32>``,
``arith.remf %a, %b : f32`` and ``arith.index_castui %a : index to i32``, as ``mlir-opt``
prints them; ``arith.index_cast`` also on shape tensors (``tensor<2xindex> to tensor<2xi32>``),
which MLIR allows and xDSL's definition (scalars only) does not; ``tensor.reshape`` to a
dynamic shape (xDSL's verifier multiplies the ``?`` sizes as if they were sizes).
https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorgenerate-tensorgenerateop and
https://mlir.llvm.org/docs/Dialects/ArithOps/
"""

from __future__ import annotations

import math
from typing import TypeGuard

from xdsl.dialects.arith import Arith, FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType, TensorType
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
from xdsl.utils.exceptions import VerifyException


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


_INT_LIKE = base(IntegerType) | base(IndexType) | base(TensorType)


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """``arith.index_castui``: ``index_cast`` with the integer treated as unsigned."""

    name = "arith.index_castui"

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"


@irdl_op_definition
class IndexCastOp(IRDLOperation):
    """``arith.index_cast`` of scalars and of tensors of them (xDSL's ``arith.IndexCastOp`` is
    for scalars only; the passes build that one, and read both)."""

    name = "arith.index_cast"

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def verify_(self) -> None:
        """Exactly one side is ``index`` (element types for tensors), as MLIR checks."""
        a, b = _element(self.input.type), _element(self.result.type)
        if isinstance(a, IndexType) == isinstance(b, IndexType):
            raise VerifyException(
                f"'arith.index_cast' op operand type '{self.input.type}' and result type "
                f"'{self.result.type}' are cast incompatible"
            )


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """``tensor.reshape %t(%shape)``: the element counts must agree only when both are static."""

    name = "tensor.reshape"

    source = operand_def(TensorType[Attribute])
    shape = operand_def(TensorType[Attribute])
    result = result_def(TensorType[Attribute])

    traits = traits_def(Pure())
    assembly_format = (
        "attr-dict $source `(` $shape `)` `:` `(` type($source) `,` type($shape) `)` `->` type($result)"
    )

    def verify_(self) -> None:
        """Same element type, a rank-1 shape as long as the result's rank, equal static counts."""
        src, shape, res = _tensor(self.source.type), _tensor(self.shape.type), _tensor(self.result.type)
        if src.element_type != res.element_type:
            raise VerifyException("element types of source and result tensor types should be the same")
        if shape.get_num_dims() != 1 or shape.get_shape()[0] not in (DYNAMIC_INDEX, res.get_num_dims()):
            raise VerifyException("the shape operand must be 1-D, as long as the result's rank")
        a, b = src.get_shape(), res.get_shape()
        if DYNAMIC_INDEX not in a and DYNAMIC_INDEX not in b and math.prod(a) != math.prod(b):
            raise VerifyException("source and result tensor should have the same number of elements")


def _is_tensor(t: Attribute) -> TypeGuard[TensorType[Attribute]]:
    return isinstance(t, TensorType)


def _tensor(t: Attribute) -> TensorType[Attribute]:
    assert _is_tensor(t)  # the operand and result definitions say so
    return t


def _element(t: Attribute) -> Attribute:
    return t.element_type if _is_tensor(t) else t


def _extended(dialect: Dialect, ops: list[type[Operation]]) -> Dialect:
    """``dialect`` with ``ops`` added, or replacing its op of the same name."""
    names = {op.name for op in ops}
    kept = [op for op in dialect.operations if op.name not in names]
    return Dialect(dialect.name, [*kept, *ops], list(dialect.attributes))


TensorWithGenerate = _extended(Tensor, [GenerateOp, ReshapeOp])
ArithWithRemf = _extended(Arith, [RemFOp, IndexCastUIOp, IndexCastOp])
