"""``dynamic_update_slice`` with a ``?`` dim in its update, as ``tensor.insert_slice``.

IREE 3.13's stablehlo input conversion refuses the op when the update is dynamic (jax's ``scan``
writes each step's row, ``1 x n``, into the stacked result this way). ``tensor.insert_slice``
with dynamic offsets and sizes lowers. The offsets are the op's own: each start clamped into
``[0, operand dim - update dim]``, as the spec says (https://openxla.org/stablehlo/spec#dynamic_update_slice),
so the rewrite is exact for every start, in range or not, and rests on no fact.
"""

from __future__ import annotations

import re

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from symshape.frontends.mlir.attributes import is_tensor
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import index_const
from symshape.tools.mlir_passes.iree_forms import function_ops, hlo_name, index_dim, replace_with


def updates_as_insert_slice(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Rewrite every ``dynamic_update_slice`` whose update has a ``?`` dim and whose starts are
    signless integer scalars; how many."""
    count = 0
    for op in function_ops(fs, "dynamic_update_slice"):
        if hlo_name(op) != "dynamic_update_slice" or len(op.operands) < 2:
            continue
        operand, update, *starts = op.operands
        t, u = operand.type, update.type
        if not (is_tensor(t) and is_tensor(u)) or DYNAMIC_INDEX not in u.get_shape():
            continue
        if len(starts) != u.get_num_dims() or not all(_signless_scalar(s) for s in starts):
            continue
        before: list[Operation] = []
        sizes = [index_dim(update, axis, before) for axis in range(u.get_num_dims())]
        offsets = [_clamped(start, index_dim(operand, axis, before), size, before)
                   for axis, (start, size) in enumerate(zip(starts, sizes, strict=True))]
        static = u.get_shape()  # a static size must be in the op's static sizes, for the types to agree
        insert = tensor.InsertSliceOp.get(
            update, operand, static, [DYNAMIC_INDEX] * len(sizes), [1] * len(sizes),
            offsets=offsets, sizes=[v for v, n in zip(sizes, static, strict=True) if n == DYNAMIC_INDEX],
            result_type=op.results[0].type,
        )
        replace_with(fs, rewriter, op, [*before, insert])
        count += 1
    return count


def _signless_scalar(value: SSAValue) -> bool:
    t = value.type
    if not is_tensor(t) or t.get_num_dims() != 0:
        return False
    return re.fullmatch(r"i\d+", str(t.get_element_type())) is not None  # i32, not si32/ui32


def _clamped(start: SSAValue, dim: SSAValue, size: SSAValue, into: list[Operation]) -> SSAValue:
    """``min(max(start, 0), dim - size)`` as an index: where the spec puts the update."""
    t = start.type
    assert is_tensor(t)
    item = tensor.ExtractOp(start, [], t.get_element_type())
    index = arith.IndexCastOp(item.result, IndexType())
    zero = index_const(0)
    room = arith.SubiOp(dim, size)
    low = arith.MaxSIOp(index.result, zero.result)
    clamped = arith.MinSIOp(low.result, room.result)
    into += [item, index, zero, room, low, clamped]
    return clamped.result
