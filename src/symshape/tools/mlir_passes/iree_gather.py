"""Gathers in the forms IREE 3.13 lowers, each resting on what the analysis proves.

IREE has no lowering for ``dynamic_gather`` (its slice sizes are an operand), and its
preprocessing turns jax's embedding ``gather`` (indices ending in an index dim of 1) into a
reshape to a dynamic type it cannot lower. Two rewrites:

* `gathers_as_slices`: a gather that reads one slice (``x[i]``, ``x[1:]``) or a strided slice
  (``x[..., 1::2]``: every start an ``iota`` times a stride plus an offset) is a
  ``tensor.extract_slice``, then a ``tensor.collapse_shape`` that drops the collapsed dims. One
  slice's start is clamped into ``[0, dim - slice size]`` as the gather does
  (https://openxla.org/stablehlo/spec#gather), so the rewrite is exact for every start, in range
  or not; the clamp is left out where the analysis proves the start inside. A strided slice is
  rewritten only where the analysis proves every start inside (no clamp to express).
* `gathers_without_index_dim`: the embedding gather takes its indices with the trailing 1
  collapsed, the index dim then implicit.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.program import ConstTensor
from symshape.frontends.mlir.attributes import attr_of, attr_value, is_tensor
from symshape.rules.shared.mlir_common import field_ints
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import index_const
from symshape.tools.mlir_passes.iree_forms import (
    broadcast_dims,
    function_ops,
    hlo_name,
    read_index,
    reassociation,
    replace_with,
)
from symshape.tools.mlir_passes.optimize import int_list

_BROADCASTS = ("broadcast_in_dim", "dynamic_broadcast_in_dim")


@dataclass
class _Axis:
    """How the slice reads one operand axis."""

    size: Dim
    """The gather's slice size (1 on a collapsed or strided axis)."""
    kept: bool = True
    """Whether the axis is a dim of the result (an offset dim, or a strided axis)."""
    start: Dim | None = 0
    """The start, proven inside the operand; None: read at run time and clamped."""
    read: int | None = None
    """Where the start is in the (1-D) indices, when it is read from them."""
    stride: int = 1
    batch: int | None = None
    """For a strided axis: the dim of the indices whose length is how many elements it reads."""


def gathers_as_slices(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Rewrite every ``gather`` / ``dynamic_gather`` that reads one slice or a strided slice
    (see the module docstring) as ``tensor.extract_slice`` + ``tensor.collapse_shape``; how many."""
    count = 0
    for op in function_ops(fs, "gather", "dynamic_gather"):
        if hlo_name(op) not in ("gather", "dynamic_gather") or len(op.operands) < 2:
            continue
        axes = _plan(fs, op)
        if axes is None:
            continue
        replace_with(fs, rewriter, op, _slice(fs, op, axes))
        count += 1
    return count


def _plan(fs: FunctionShapes, op: Operation) -> list[_Axis] | None:
    """How each operand axis is read, when ``op`` is one slice or a strided slice; else None."""
    nums = attr_value(op, "dimension_numbers")
    src, indices, res = op.operands[0], op.operands[1], op.results[0]
    dims, sizes, t = fs.dims(src), _slice_sizes(fs, op), indices.type
    batching = field_ints(nums, "operand_batching_dims") or field_ints(nums, "start_indices_batching_dims")
    if dims is None or sizes is None or len(sizes) != len(dims) or batching:
        return None
    if not is_tensor(t) or not _signless(t.get_element_type()) or not is_tensor(res.type):
        return None
    collapsed, index_map = field_ints(nums, "collapsed_slice_dims"), field_ints(nums, "start_index_map")
    vector, rank = (field_ints(nums, "index_vector_dim") or [0])[0], t.get_num_dims()
    batch = rank if vector == rank else rank - 1
    width = 1 if vector == rank else t.get_shape()[vector]
    if vector not in (rank, rank - 1) or width != len(index_map) or not batch and rank != 1:
        return None
    axes = [_Axis(s, a not in collapsed) for a, s in enumerate(sizes)]
    found = _strided(fs, axes, dims, indices, index_map, vector) if batch else _one(fs, axes, dims, indices, index_map)
    if not found or not _in_order(axes, field_ints(nums, "offset_dims"), batch, res.type.get_num_dims()):
        return None
    return axes


def _slice_sizes(fs: FunctionShapes, op: Operation) -> tuple[Dim, ...] | None:
    if hlo_name(op) == "gather":
        sizes = int_list(attr_of(op, "slice_sizes"))
        return None if sizes is None else tuple(sizes)
    return fs.elements.get(op.operands[2]) if len(op.operands) == 3 else None


def _signless(t: Attribute) -> bool:
    """A signless integer type (``index_cast`` reads it as signed, as the gather does)."""
    return isinstance(t, IntegerType) and t == IntegerType(t.bitwidth)


def _inside(fs: FunctionShapes, start: Dim, stride: Dim, count: Dim, size: Dim, dim: Dim) -> bool:
    """Whether ``count`` slices of ``size`` at ``start``, ``start + stride``, ... all lie in
    ``[0, dim)``: the gather's clamp then changes no start."""
    last = add(add(start, mul(stride, add(count, -1))), size)
    return (fs.prove(start, ">=", 0) is True and fs.prove(start, "<=", dim) is True
            and fs.prove(last, "<=", dim) is True)


def _one(fs: FunctionShapes, axes: list[_Axis], dims: tuple[Dim, ...], indices: SSAValue, index_map: list[int]) -> bool:
    """One start vector (the indices are 1-D): each start read from it, proven inside or clamped."""
    known = fs.elements.get(indices)
    for k, a in enumerate(index_map):
        start = None if known is None or len(known) != len(index_map) else known[k]
        inside = start is not None and _inside(fs, start, 0, 1, axes[a].size, dims[a])
        axes[a].start, axes[a].read = (start if inside else None), k
    return True


def _strided(
    fs: FunctionShapes, axes: list[_Axis], dims: tuple[Dim, ...], indices: SSAValue, index_map: list[int], vector: int
) -> bool:
    """One batch dim of the indices per start: start ``k`` along its batch dim ``j`` runs
    ``offset + stride * i``, on a collapsed axis; the strided axis reads as many elements as dim
    ``j`` of the indices has, all proven inside."""
    parts, counts = _components(indices, vector, len(index_map)), fs.dims(indices)
    if parts is None or counts is None:
        return False
    batch = counts[:vector]
    used: set[int] = set()
    for part, a in zip(parts, index_map, strict=True):
        column = _along(fs, part, len(batch))
        run = None if column is None else _progression(fs, column[1])
        if column is None or run is None or column[0] in used or axes[a].kept:
            return False
        (j, _), (offset, stride) = column, run
        if not isinstance(offset, int) or not isinstance(stride, int) or stride < 1:
            return False
        if fs.prove(axes[a].size, "==", 1) is not True or not _inside(fs, offset, stride, batch[j], 1, dims[a]):
            return False
        axes[a] = _Axis(1, True, offset, None, stride, j)
        used.add(j)
    return len(used) == len(batch)


def _components(indices: SSAValue, vector: int, k: int) -> list[SSAValue] | None:
    """The tensor of each start component: the indices themselves when there is one, else the
    inputs of the ``concatenate`` along the index dim that built them."""
    t = indices.type
    assert is_tensor(t)
    if k == 1:
        return [indices]
    owner = indices.owner
    if vector == t.get_num_dims() or not isinstance(owner, Operation) or hlo_name(owner) != "concatenate":
        return None
    parts = list(owner.operands)
    fits = all(is_tensor(p.type) and p.type.get_shape()[vector] == 1 for p in parts)
    return parts if attr_value(owner, "dimension") == vector and len(parts) == k and fits else None


def _along(fs: FunctionShapes, part: SSAValue, batch: int) -> tuple[int, SSAValue] | None:
    """``(j, column)`` when ``part`` (batch dims, then maybe the index dim of 1) holds a 1-D
    ``column`` along batch dim ``j``, the same along the others."""
    t = part.type
    if is_tensor(t) and t.get_num_dims() == 1 and batch == 1:
        return 0, part
    owner = part.owner
    if not isinstance(owner, Operation) or not owner.operands:
        return None
    column, name = owner.operands[0], hlo_name(owner)
    if not is_tensor(column.type) or column.type.get_num_dims() != 1:
        return None
    mapped = broadcast_dims(owner) if name in _BROADCASTS else [0] if name in ("reshape", "dynamic_reshape") else None
    if mapped is None or len(mapped) != 1 or mapped[0] >= batch:
        return None
    have, want = fs.dims(column), fs.dims(part)
    if have is None or want is None or fs.prove(have[0], "==", want[mapped[0]]) is not True:
        return None  # a column of 1 broadcast along the batch dim is no progression
    return mapped[0], column


def _progression(fs: FunctionShapes, value: SSAValue) -> tuple[Dim, Dim] | None:
    """``(offset, stride)`` when element ``i`` of the 1-D ``value`` is ``offset + stride * i``:
    from its tracked elements, or from ``iota`` through adds, subtracts and multiplies by splats."""
    known = fs.elements.get(value)
    if known:
        first, *rest = known
        step = add(rest[0], mul(-1, first)) if rest else 1
        agree = all(fs.prove(e, "==", add(first, mul(step, i))) is True for i, e in enumerate(known))
        return (first, step) if agree else None
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    name = hlo_name(owner)
    if name in ("iota", "dynamic_iota"):
        return (0, 1) if attr_value(owner, "iota_dimension") == 0 else None
    if name not in ("add", "subtract", "multiply") or len(owner.operands) != 2:
        return None
    a, b = owner.operands
    splat = _splat(b)
    if splat is None and name != "subtract":
        a, b, splat = b, a, _splat(a)
    run = None if splat is None else _progression(fs, a)
    if run is None or splat is None:
        return None
    if name == "multiply":
        return mul(run[0], splat), mul(run[1], splat)
    return add(run[0], splat if name == "add" else -splat), run[1]


def _splat(value: SSAValue) -> int | None:
    """The one integer every element of ``value`` holds: a splat constant, or a broadcast one."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    name = hlo_name(owner)
    if name in _BROADCASTS and owner.operands:
        src = owner.operands[0]
        return _splat(src) if is_tensor(src.type) and src.type.get_num_dims() == 0 else None
    const = attr_value(owner, "value") if name == "constant" else None
    if isinstance(const, ConstTensor) and const.values and len(set(const.values)) == 1:
        return const.values[0]
    return None


def _in_order(axes: list[_Axis], offset_dims: list[int], batch: int, rank: int) -> bool:
    """Whether the result dims are the kept operand axes in operand order: the offset dims in
    their places, each batch dim where its strided axis is (else a transpose would be needed)."""
    kept = [a for a, ax in enumerate(axes) if ax.kept and ax.batch is None]
    strided = {ax.batch: a for a, ax in enumerate(axes) if ax.batch is not None}
    if len(kept) != len(offset_dims) or len(kept) + batch != rank or len(strided) != batch:
        return False
    if len(set(offset_dims)) != len(offset_dims) or not set(offset_dims) <= set(range(rank)):
        return False
    order: list[int] = []
    batches = iter(range(batch))
    for p in range(rank):
        order.append(kept[offset_dims.index(p)] if p in offset_dims else strided[next(batches)])
    return order == sorted(order)


def _slice(fs: FunctionShapes, op: Operation, axes: list[_Axis]) -> list[Operation]:
    """The ops that read ``op``'s result: the extract_slice, then the collapse of the dropped axes."""
    src, res = op.operands[0], op.results[0]
    assert is_tensor(src.type) and is_tensor(res.type)
    ops: list[Operation] = []
    shape = iter(res.type.get_shape())
    offsets: list[SSAValue | int] = []
    sizes: list[SSAValue | int] = []
    static: list[int] = []
    for a, ax in enumerate(axes):
        static.append(next(shape) if ax.kept else 1)
        sizes.append(static[-1] if static[-1] != DYNAMIC_INDEX else _length(fs, op, a, ax, ops))
        offsets.append(_start(op, a, ax, sizes[-1], ops))
    cut = tensor.ExtractSliceOp(src, offsets, sizes, [ax.stride for ax in axes],
                                TensorType(src.type.get_element_type(), static))
    ops.append(cut)
    if any(not ax.kept for ax in axes):
        ops.append(tensor.CollapseShapeOp(operands=[cut.results[0]], result_types=[res.type],
                                          properties={"reassociation": reassociation(_groups(axes))}))
    return ops


def _groups(axes: list[_Axis]) -> list[list[int]]:
    """Each kept axis with the dropped (size 1) axes before it; trailing dropped axes join the last."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for a, ax in enumerate(axes):
        pending.append(a)
        if ax.kept:
            groups.append(pending)
            pending = []
    if groups:
        groups[-1] += pending
    return groups


def _length(fs: FunctionShapes, op: Operation, a: int, ax: _Axis, into: list[Operation]) -> SSAValue:
    """The number of elements the slice reads along axis ``a``, as an index: a dim of the
    indices (a strided axis), a constant, the operand's dim, or read from the slice sizes."""
    src, dims = op.operands[0], fs.dims(op.operands[0])
    if ax.batch is not None:
        return _dim(op.operands[1], ax.batch, into)
    if isinstance(ax.size, int):
        return _constant(ax.size, into)
    if dims is not None and fs.prove(ax.size, "==", dims[a]) is True:
        return _dim(src, a, into)
    return read_index(op.operands[2], a, into)


def _start(op: Operation, a: int, ax: _Axis, size: SSAValue | int, into: list[Operation]) -> SSAValue | int:
    """The offset of axis ``a``: the proven start (static when constant), else the start read
    from the indices and clamped into ``[0, dim - size]``."""
    if isinstance(ax.start, int):
        return ax.start
    assert ax.read is not None  # a start not known as a constant is read from the indices
    start = read_index(op.operands[1], ax.read, into)
    if ax.start is not None:
        return start
    zero = _constant(0, into)
    room = arith.SubiOp(_dim(op.operands[0], a, into), size if isinstance(size, SSAValue) else _constant(size, into))
    low = arith.MaxSIOp(start, zero)
    clamped = arith.MinSIOp(low.result, room.result)
    into += [room, low, clamped]
    return clamped.result


def _constant(n: int, into: list[Operation]) -> SSAValue:
    const = index_const(n)
    into.append(const)
    return const.result


def _dim(value: SSAValue, axis: int, into: list[Operation]) -> SSAValue:
    """Dim ``axis`` of ``value`` as an index (a constant when its type has it)."""
    t = value.type
    assert is_tensor(t)
    if t.get_shape()[axis] != DYNAMIC_INDEX:
        return _constant(t.get_shape()[axis], into)
    dim = tensor.DimOp(value, _constant(axis, into))
    into.append(dim)
    return dim.result


def gathers_without_index_dim(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """A ``gather`` whose indices end in a static index dim of 1 (jax's embedding lookup) takes
    its indices with that dim collapsed into the one before, the index dim then implicit: IREE's
    `GatherIsTorchIndexSelect` would otherwise rewrite it into a reshape to a dynamic type, which
    it cannot lower. The same op on the same indices. How many."""
    count = 0
    for op in function_ops(fs, "gather"):
        if hlo_name(op) != "gather" or len(op.operands) != 2:
            continue
        indices = op.operands[1]
        t = indices.type
        nums = attr_value(op, "dimension_numbers")
        index_dim = field_ints(nums, "index_vector_dim") or [0]
        if not is_tensor(t) or t.get_num_dims() < 2 or t.get_shape()[-1] != 1 or index_dim[0] != t.get_num_dims() - 1:
            continue
        rank = t.get_num_dims()
        shape = list(t.get_shape()[:-1])
        groups = [[i] for i in range(rank - 2)] + [[rank - 2, rank - 1]]
        collapse = tensor.CollapseShapeOp(
            operands=[indices],
            result_types=[TensorType(t.get_element_type(), shape)],
            properties={"reassociation": reassociation(groups)},
        )
        rewriter.insert_op(collapse, InsertPoint.before(op))
        op.operands[1] = collapse.results[0]
        count += 1
    return count
