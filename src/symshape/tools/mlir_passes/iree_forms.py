"""Rewrites into the forms IREE 3.13 legalizes, each resting on a fact the analysis proves.

IREE's stablehlo input conversion (upstream `StablehloLegalizeToLinalg`) refuses:

* a ``dynamic_broadcast_in_dim`` with a ``?`` operand dim not listed in
  ``known_expanding_dimensions`` / ``known_nonexpanding_dimensions``
  (`HloDynamicBroadcastInDimConverter`); and it merges a chain of two into one op without those
  attributes (`ChainedDynamicBroadcastInDimCanonicalization`), so chains are merged here first;
* a ``gather`` with a trailing index dim of 1, which its preprocessing turns into a reshape to a
  dynamic type;
* a ``dynamic_pad`` (no converter; ``tensor.pad`` lowers);
* a ``dynamic_gather`` (no converter; one slice is a ``tensor.extract_slice``);
* a ``dot_general`` of a rank-3 ``x`` by a matrix, which its preprocessing flattens through a
  ``dynamic_reshape`` (`symshape.tools.mlir_passes.iree_matmul`);
* any ``dynamic_reshape`` (no converter): ``tensor.collapse_shape`` / ``expand_shape`` lower, and
  so does ``tensor.reshape`` with the same shape operand.

A dim is listed as nonexpanding only when the analysis proves it equal to the output dim it
maps to, and as expanding only when it proves it is 1: both are exact, never guarded.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.algebra.expr import Dim, add, mul
from symshape.frontends.mlir.attributes import attr_value, is_tensor
from symshape.rules.shared.mlir_common import field_ints
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import op_name
from symshape.tools.mlir_passes.optimize import int_list

BROADCAST_DIMS = "broadcast_dimensions"
EXPANDING = "known_expanding_dimensions"
NONEXPANDING = "known_nonexpanding_dimensions"


def hlo_name(op: Operation) -> str:
    """``reshape`` for ``stablehlo.reshape`` or ``mhlo.reshape``; "" for any other dialect."""
    dialect, _, short = op_name(op).partition(".")
    return short if dialect in ("stablehlo", "mhlo") else ""


def attributes_holding(op: Operation, name: str) -> dict[str, Attribute]:
    """Where the op keeps attribute ``name``: its properties (generic ``<{...}>``) or its
    attribute dict, to read it and to add beside it."""
    return op.properties if name in op.properties else op.attributes


def function_ops(fs: FunctionShapes) -> list[Operation]:
    """The ops of the function and of the callees inlined into its analysis, loop and branch
    bodies included (a value there has dims only where the analysis gave it some)."""
    return [op for fn in (fs.func, *fs.callees) for op in fn.walk() if op is not fn]


def replace_with(fs: FunctionShapes, rewriter: Rewriter, op: Operation, new: list[Operation]) -> None:
    """Insert ``new`` before ``op``; the last one's result takes the place (and the name and
    dims) of ``op``'s, and ``op`` is erased."""
    rewriter.insert_op(new, InsertPoint.before(op))
    res, out = op.results[0], new[-1].results[0]
    out.name_hint = res.name_hint
    fs.moved(res, out)
    res.replace_all_uses_with(out)
    rewriter.erase_op(op)


def broadcast_dims(op: Operation) -> list[int] | None:
    """The ``broadcast_dimensions`` of a (dynamic_)broadcast_in_dim."""
    return int_list(attributes_holding(op, BROADCAST_DIMS).get(BROADCAST_DIMS))


def merge_broadcast_chains(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """``dbcast(dbcast(x, s1, d1), s2, d2)`` as ``dbcast(x, s2, d2[d1])`` (a broadcast of a
    broadcast is one broadcast); the inner op is erased when nothing else uses it. How many."""
    count = 0
    for op in function_ops(fs):
        if hlo_name(op) != "dynamic_broadcast_in_dim":
            continue
        inner = op.operands[0].owner
        if not isinstance(inner, Operation) or hlo_name(inner) != "dynamic_broadcast_in_dim":
            continue
        outer_dims, inner_dims = broadcast_dims(op), broadcast_dims(inner)
        if outer_dims is None or inner_dims is None:
            continue
        merged = [outer_dims[i] for i in inner_dims]
        new = type(op).create(
            operands=[inner.operands[0], op.operands[1]],
            result_types=[op.results[0].type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        holder = attributes_holding(new, BROADCAST_DIMS)
        holder[BROADCAST_DIMS] = DenseArrayBase.from_list(i64, merged)
        for key in (EXPANDING, NONEXPANDING):
            holder.pop(key, None)
        new.results[0].name_hint = op.results[0].name_hint
        fs.moved(op.results[0], new.results[0])
        rewriter.replace_op(op, new)
        if not inner.results[0].uses:
            rewriter.erase_op(inner)
        count += 1
    return count


def annotate_broadcasts(fs: FunctionShapes) -> int:
    """List the operand dims of every ``dynamic_broadcast_in_dim`` as nonexpanding (proven equal
    to the output dim they map to) or expanding (proven 1); how many ops were annotated. A ``?``
    dim proven neither stays unlisted, and IREE refuses the op."""
    count = 0
    for op in function_ops(fs):
        if hlo_name(op) != "dynamic_broadcast_in_dim":
            continue
        dims, in_dims, out_dims = broadcast_dims(op), fs.dims(op.operands[0]), fs.dims(op.results[0])
        if dims is None or in_dims is None or out_dims is None or len(dims) != len(in_dims):
            continue
        same = [fs.prove(a, "==", out_dims[d]) is True for a, d in zip(in_dims, dims, strict=True)]
        ones = [not kept and fs.prove(a, "==", 1) is True for a, kept in zip(in_dims, same, strict=True)]
        holder = attributes_holding(op, BROADCAST_DIMS)
        holder[EXPANDING] = DenseArrayBase.from_list(i64, [i for i, one in enumerate(ones) if one])
        holder[NONEXPANDING] = DenseArrayBase.from_list(i64, [i for i, kept in enumerate(same) if kept])
        count += 1
    return count


def reshapes_as_tensor_reshape(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Each ``dynamic_reshape(x, shape)`` in a form IREE lowers: ``tensor.collapse_shape`` where
    every result dim is proven the product of consecutive operand dims, ``tensor.expand_shape``
    (sizes read from ``shape``) where every operand dim is such a product of result dims, else
    ``tensor.reshape x(shape)``. How many."""
    count = 0
    for op in function_ops(fs):
        if hlo_name(op) != "dynamic_reshape" or len(op.operands) != 2:
            continue
        src, shape, res = op.operands[0], op.operands[1], op.results[0]
        new = _collapse_or_expand(fs, src, shape, res) or [tensor.ReshapeOp(src, shape, res.type)]
        replace_with(fs, rewriter, op, new)
        count += 1
    return count


def _collapse_or_expand(fs: FunctionShapes, src: SSAValue, shape: SSAValue, res: SSAValue) -> list[Operation] | None:
    in_dims, out_dims = fs.dims(src), fs.dims(res)
    if in_dims is None or out_dims is None or not is_tensor(res.type) or not is_tensor(src.type):
        return None
    groups = _groups(fs, in_dims, out_dims)
    if groups is not None:
        return [tensor.CollapseShapeOp(operands=[src], result_types=[res.type],
                                       properties={"reassociation": reassociation(groups)})]
    groups = _groups(fs, out_dims, in_dims)
    if groups is None:
        return None
    ops: list[Operation] = []
    sizes = [_read_index(shape, j, ops) for j, n in enumerate(res.type.get_shape()) if n == DYNAMIC_INDEX]
    ops.append(tensor.ExpandShapeOp(src, sizes, reassociation(groups), res.type.get_shape(), res.type))
    return ops


def _read_index(operand: SSAValue, j: int, into: list[Operation]) -> SSAValue:
    """Element ``j`` of the 1-D integer tensor ``operand`` as an index, by ops appended to ``into``."""
    pos = arith.ConstantOp.from_int_and_width(j, IndexType())
    item = tensor.ExtractOp(operand, [pos.result], _element_type(operand))
    size = arith.IndexCastOp(item.result, IndexType())
    into += [pos, item, size]
    return size.result


def _element_type(value: SSAValue) -> Attribute:
    t = value.type
    assert is_tensor(t)
    return t.get_element_type()


def _groups(fs: FunctionShapes, wide: tuple[Dim, ...], narrow: tuple[Dim, ...]) -> list[list[int]] | None:
    """Consecutive groups of ``wide``'s dims, one per dim of ``narrow``, each group's product
    proven equal to its narrow dim (trailing 1s join the last group); None when there are none."""
    groups: list[list[int]] = []
    i = 0
    for d in narrow:
        group: list[int] = []
        product: Dim = 1
        while i < len(wide):
            group.append(i)
            product = mul(product, wide[i])
            i += 1
            if fs.prove(product, "==", d) is True:
                break
        else:
            return None
        groups.append(group)
    while i < len(wide) and groups and wide[i] == 1:
        groups[-1].append(i)
        i += 1
    return groups if i == len(wide) and groups else None


def reassociation(groups: list[list[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    """The ``reassociation`` of a collapse or expand: the groups of dims that become one."""
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def gathers_without_index_dim(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """A ``gather`` whose indices end in a static index dim of 1 (jax's embedding lookup) takes
    its indices with that dim collapsed into the one before, the index dim then implicit: IREE's
    `GatherIsTorchIndexSelect` would otherwise rewrite it into a reshape to a dynamic type, which
    it cannot lower. The same op on the same indices. How many."""
    count = 0
    for op in function_ops(fs):
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


def pads_as_tensor_pad(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """``dynamic_pad(x, v, low, high, interior)`` as ``tensor.pad`` (which IREE lowers) when the
    analysis proves every interior amount 0 and every low and high amount non-negative (tensor.pad
    neither interleaves nor crops); an amount it knows as a constant is static, the others are
    read from the operand. How many."""
    count = 0
    for op in function_ops(fs):
        if hlo_name(op) != "dynamic_pad" or len(op.operands) != 5:
            continue
        x, value, low, high, interior = op.operands
        amounts = [fs.elements.get(v) for v in (low, high, interior)]
        res = op.results[0]
        if not is_tensor(res.type) or not _pads_fit(fs, amounts):
            continue
        before: list[Operation] = [scalar := tensor.ExtractOp(value, [], _element_type(value))]
        lows = _indices(low, amounts[0] or (), before)
        highs = _indices(high, amounts[1] or (), before)
        block = Block(arg_types=[IndexType()] * res.type.get_num_dims())
        block.add_op(tensor.YieldOp(scalar.result))
        pad = tensor.PadOp(x, lows[1], highs[1], Region(block), lows[0], highs[0], res.type)
        replace_with(fs, rewriter, op, [*before, pad])
        count += 1
    return count


def _pads_fit(fs: FunctionShapes, amounts: list[tuple[Dim, ...] | None]) -> bool:
    low, high, interior = amounts
    if low is None or high is None or interior is None:
        return False
    return all(fs.prove(d, "==", 0) is True for d in interior) and all(
        fs.prove(d, ">=", 0) is True for d in (*low, *high)
    )


def _indices(operand: SSAValue, amounts: tuple[Dim, ...], into: list[Operation]) -> tuple[list[int], list[SSAValue]]:
    """The static amounts (kDynamic where not constant) and the index values of the others, read
    from ``operand`` by ops appended to ``into``."""
    static: list[int] = []
    dynamic: list[SSAValue] = []
    for j, d in enumerate(amounts):
        if isinstance(d, int):
            static.append(d)
            continue
        static.append(DYNAMIC_INDEX)
        dynamic.append(_read_index(operand, j, into))
    return static, dynamic


def gathers_as_slices(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """A ``dynamic_gather`` that reads one slice (one start vector, every operand dim an offset
    dim, none collapsed: what jax emits for ``x[1:]`` on a dynamic dim) as ``tensor.extract_slice``,
    when the analysis proves the slice inside the operand (gather would clamp the start; the
    slice does not need to). IREE has no lowering for ``dynamic_gather``. How many."""
    count = 0
    for op in function_ops(fs):
        if hlo_name(op) != "dynamic_gather" or len(op.operands) != 3:
            continue
        src, starts, sizes = op.operands
        res = op.results[0]
        plan = _one_slice(fs, op, src, starts, sizes)
        if plan is None or not is_tensor(res.type):
            continue
        before: list[Operation] = []
        offsets = _mixed(starts, plan[0], before)
        lengths = _mixed(sizes, plan[1], before)
        cut = tensor.ExtractSliceOp(src, offsets, lengths, [1] * len(lengths), res.type)
        replace_with(fs, rewriter, op, [*before, cut])
        count += 1
    return count


def _one_slice(
    fs: FunctionShapes, op: Operation, src: SSAValue, starts: SSAValue, sizes: SSAValue
) -> tuple[tuple[Dim, ...], tuple[Dim, ...]] | None:
    """(the offset of every operand dim, the slice sizes) when ``op`` reads one slice that the
    analysis proves lies inside the operand; else None."""
    nums = attr_value(op, "dimension_numbers")
    dims, start, length = fs.dims(src), fs.elements.get(starts), fs.elements.get(sizes)
    if dims is None or start is None or length is None or len(length) != len(dims):
        return None
    keep = field_ints(nums, "offset_dims")
    dropped = [f for f in ("collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims")
               if field_ints(nums, f)]
    index_map = field_ints(nums, "start_index_map")
    one_vector = len(index_map) == len(start) and not field_ints(nums, "index_vector_dim")
    if keep != list(range(len(dims))) or dropped or not one_vector:
        return None
    offsets: list[Dim] = [0] * len(dims)
    for k, axis in enumerate(index_map):
        offsets[axis] = start[k]
    inside = all(
        fs.prove(o, ">=", 0) is True and fs.prove(add(o, n), "<=", d) is True
        for o, n, d in zip(offsets, length, dims, strict=True)
    )
    return (tuple(offsets), length) if inside else None


def _mixed(operand: SSAValue, values: tuple[Dim, ...], into: list[Operation]) -> list[SSAValue | int]:
    """Each of ``values`` as an int when constant, else the index read from ``operand``."""
    static, dynamic = _indices(operand, values, into)
    read = iter(dynamic)
    return [next(read) if s == DYNAMIC_INDEX else s for s in static]
