"""``x @ w`` with a rank-3 ``x``, or a matrix by a static tensor of weights (an MoE's experts), in a
form IREE lowers with dynamic dims (see `dense_layers_as_matmuls`)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    StringAttr,
    TensorType,
    UnregisteredAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from symshape.frontends.mlir.attributes import is_tensor
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import index_const
from symshape.tools.mlir_passes.iree_forms import (
    attributes_holding,
    collapse_shape,
    dim_op,
    expand_shape,
    function_ops,
    hlo_name,
    replace_with,
    tensor_type,
)
from symshape.tools.mlir_passes.static_reshape import hlo_class

NUMBERS = "dot_dimension_numbers"
_MATRIX = "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]"


def dense_layers_as_matmuls(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """``x @ w`` with ``x`` of rank 3 or more and a dynamic leading dim (every dense layer of a
    transformer): ``x`` collapsed to a matrix, a 2-D ``dot_general``, the result expanded back to
    ``x``'s leading dims. IREE's `GeneralDotConvert` would flatten it through a
    ``dynamic_reshape``, which it cannot lower. How many."""
    count = 0
    for op in function_ops(fs, "dot_general"):
        numbers = _dense_layer(op)
        if numbers is not None:
            replace_with(fs, rewriter, op, _as_matmul(op, numbers))
            count += 1
            continue
        weights = _by_weights(op)
        if weights is not None:
            replace_with(fs, rewriter, op, _as_matmul_by_weights(op, *weights))
            count += 1
    return count


def _dot(op: Operation) -> tuple[TensorType[Attribute], TensorType[Attribute], UnregisteredAttr] | None:
    """The operand types and the (opaque) dimension numbers of a ``dot_general``; else None."""
    if hlo_name(op) != "dot_general" or len(op.operands) != 2:
        return None
    lhs, rhs = op.operands[0].type, op.operands[1].type
    numbers = attributes_holding(op, NUMBERS).get(NUMBERS)
    if not (is_tensor(lhs) and is_tensor(rhs) and isinstance(numbers, UnregisteredAttr)):
        return None
    return lhs, rhs, numbers


def _dense_layer(op: Operation) -> UnregisteredAttr | None:
    """The dimension numbers of a ``dot_general`` of a rank >= 3 ``x`` (a dynamic leading dim)
    by a matrix, contracting ``x``'s last dim with the matrix's first, no batch dims; else None."""
    found = _dot(op)
    if found is None:
        return None
    lhs, rhs, numbers = found
    rank = lhs.get_num_dims()
    plain = f"lhs_contracting_dimensions = [{rank - 1}], rhs_contracting_dimensions = [0]"
    dense = rank >= 3 and rhs.get_num_dims() == 2 and numbers.value.data.strip() == plain
    return numbers if dense and DYNAMIC_INDEX in lhs.get_shape()[:-1] else None


def _as_matmul(op: Operation, numbers: UnregisteredAttr) -> list[Operation]:
    """The collapse, the 2-D ``dot_general`` and the expand that replace ``op`` (the last)."""
    lhs, rhs, res = op.operands[0], op.operands[1], op.results[0]
    assert is_tensor(lhs.type) and is_tensor(rhs.type) and is_tensor(res.type)
    lead = lhs.type.get_shape()[:-1]
    groups = [list(range(len(lead))), [len(lead)]]
    rows = DYNAMIC_INDEX if DYNAMIC_INDEX in lead else math.prod(lead)
    flat = collapse_shape(lhs, groups, tensor_type(lhs.type.get_element_type(), (rows, lhs.type.get_shape()[-1])))
    holder = dict(attributes_holding(op, NUMBERS))
    holder[NUMBERS] = type(numbers)(numbers.attr_name, numbers.is_type, numbers.is_opaque, StringAttr(_MATRIX))
    in_props = NUMBERS in op.properties
    matmul = type(op).create(
        operands=[flat.results[0], rhs],
        result_types=[tensor_type(res.type.get_element_type(), (rows, rhs.type.get_shape()[1]))],
        properties=holder if in_props else dict(op.properties),
        attributes=dict(op.attributes) if in_props else holder,
    )
    ops: list[Operation] = [flat, matmul]
    sizes: list[SSAValue] = []
    for axis in (a for a, size in enumerate(lead) if size == DYNAMIC_INDEX):
        pos = index_const(axis)
        dim = dim_op(lhs, pos.result)
        ops += [pos, dim]
        sizes.append(dim.result)
    ops.append(expand_shape(matmul.results[0], sizes, groups, res.type))
    return ops


def _by_weights(op: Operation) -> tuple[UnregisteredAttr, int] | None:
    """(the dimension numbers, the contracted dim of ``w``) of a ``dot_general`` of a matrix ``x``
    with dynamic rows by a static ``w`` of rank >= 3 (``td,edh->teh``), contracting ``x``'s last
    dim, no batch dims; else None. IREE flattens ``w``'s free dims, and its result through a
    ``dynamic_reshape``."""
    found = _dot(op)
    if found is None:
        return None
    lhs, rhs, numbers = found
    if lhs.get_num_dims() != 2 or lhs.get_shape()[0] != DYNAMIC_INDEX or DYNAMIC_INDEX in rhs.get_shape():
        return None
    for c in range(rhs.get_num_dims()):
        plain = f"lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [{c}]"
        if rhs.get_num_dims() >= 3 and numbers.value.data.strip() == plain:
            return numbers, c
    return None


def _as_matmul_by_weights(op: Operation, numbers: UnregisteredAttr, c: int) -> list[Operation]:
    """``w`` transposed (its contracted dim first) and reshaped to a static matrix, a 2-D
    ``dot_general``, the result expanded to ``x``'s rows by ``w``'s free dims (the last op)."""
    lhs, rhs, res = op.operands[0], op.operands[1], op.results[0]
    assert is_tensor(lhs.type) and is_tensor(rhs.type) and is_tensor(res.type)
    dialect = op.name.partition(".")[0]
    transpose, reshape = hlo_class(dialect, "transpose"), hlo_class(dialect, "reshape")
    assert transpose is not None and reshape is not None
    shape, element = rhs.type.get_shape(), rhs.type.get_element_type()
    perm = [c, *(a for a in range(len(shape)) if a != c)]
    ops: list[Operation] = []
    w = rhs
    if perm != list(range(len(shape))):
        moved = transpose.create(operands=[rhs], result_types=[TensorType(element, [shape[a] for a in perm])],
                                 attributes={"permutation": DenseArrayBase.from_list(i64, perm)})
        ops.append(moved)
        w = moved.results[0]
    cols = math.prod(shape) // shape[c]
    matrix = reshape.create(operands=[w], result_types=[TensorType(element, [shape[c], cols])])
    holder = dict(attributes_holding(op, NUMBERS))
    holder[NUMBERS] = type(numbers)(numbers.attr_name, numbers.is_type, numbers.is_opaque, StringAttr(_MATRIX))
    in_props = NUMBERS in op.properties
    matmul = type(op).create(
        operands=[lhs, matrix.results[0]],
        result_types=[tensor_type(res.type.get_element_type(), (DYNAMIC_INDEX, cols))],
        properties=holder if in_props else dict(op.properties),
        attributes=dict(op.attributes) if in_props else holder,
    )
    pos = index_const(0)
    rows = dim_op(lhs, pos.result)
    groups = [[0], list(range(1, res.type.get_num_dims()))]
    expand = expand_shape(matmul.results[0], [rows.result], groups, res.type)
    return [*ops, matrix, matmul, pos, rows, expand]
