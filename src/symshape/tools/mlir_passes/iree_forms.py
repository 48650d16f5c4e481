"""Rewrites into the forms IREE 3.13 legalizes, each resting on a fact the analysis proves.

IREE's stablehlo input conversion (upstream `StablehloLegalizeToLinalg`) refuses:

* a ``dynamic_broadcast_in_dim`` with a ``?`` operand dim not listed in
  ``known_expanding_dimensions`` / ``known_nonexpanding_dimensions``
  (`HloDynamicBroadcastInDimConverter`); and it merges a chain of two into one op without those
  attributes (`ChainedDynamicBroadcastInDimCanonicalization`), so chains are merged here first;
* a ``gather`` with a trailing index dim of 1, which its preprocessing turns into a reshape to a
  dynamic type, and any ``dynamic_gather`` (no converter): `symshape.tools.mlir_passes.iree_gather`;
* a ``dynamic_pad`` (no converter; ``tensor.pad`` lowers);
* a ``dot_general`` of a rank-3 ``x`` by a matrix, which its preprocessing flattens through a
  ``dynamic_reshape`` (`symshape.tools.mlir_passes.iree_matmul`);
* any ``dynamic_reshape`` (no converter): ``tensor.collapse_shape`` / ``expand_shape`` lower, and
  so does ``tensor.reshape`` with the same shape operand.

A dim is listed as nonexpanding only when the analysis proves it equal to the output dim it
maps to, and as expanding only when it proves it is 1: both are exact, never guarded.
"""

from __future__ import annotations

from functools import cache

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

from symshape.algebra.expr import Dim, mul
from symshape.frontends.mlir.attributes import is_tensor
from symshape.ir.dialects.upstream import ReshapeOp  # xDSL's refuses counts that are not static
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import index_const, nested_ops, op_name
from symshape.tools.mlir_passes.optimize import int_list
from symshape.tools.mlir_passes.xdsl_build import make_op

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


def function_ops(fs: FunctionShapes, *hlo_names: str) -> list[Operation]:
    """The ops of the function and of the callees inlined into its analysis, loop and branch
    bodies included (a value there has dims only where the analysis gave it some); with
    ``hlo_names``, only the stablehlo/mhlo ops of those names (a rewrite's candidates). From
    ``fs.walked`` when the caller keeps it (for-iree: one walk while no rewrite changes the ops)."""
    ops, names = fs.walked or walk_function(fs)
    if not hlo_names:
        return list(ops)
    wanted = {f"{dialect}.{name}" for dialect in ("stablehlo", "mhlo") for name in hlo_names}
    return [op for op, name in zip(ops, names, strict=True) if name in wanted]


def walk_function(fs: FunctionShapes) -> tuple[list[Operation], list[str]]:
    """The ops `function_ops` lists (in ``walk`` order) and their names."""
    ops = [op for fn in (fs.func, *fs.callees) for op in nested_ops(fn)]
    return ops, [op_name(op) for op in ops]


def replace_with(fs: FunctionShapes, rewriter: Rewriter, op: Operation, new: list[Operation]) -> None:
    """Insert ``new`` before ``op``; the last one's result takes the place (and the name and
    dims) of ``op``'s, and ``op`` is erased."""
    rewriter.insert_op(new, InsertPoint.before(op))
    res, out = op.results[0], new[-1].results[0]
    out.name_hint = res.name_hint
    fs.moved(res, out)
    res.replace_all_uses_with(out)
    rewriter.erase_op(op)


def index_dim(value: SSAValue, axis: int, into: list[Operation]) -> SSAValue:
    """Dim ``axis`` of ``value`` as an index (a constant when static)."""
    t = value.type
    assert is_tensor(t)
    size = t.get_shape()[axis]
    if size != DYNAMIC_INDEX:
        const = index_const(size)
        into.append(const)
        return const.result
    pos = index_const(axis)
    dim = dim_op(value, pos.result)
    into += [pos, dim]
    return dim.result


# The rewrites add these by the thousand at 100k ops: made as `make_op` makes them, without the
# checked constructors' argument handling (half of a dense-layer rewrite's time).


def dim_op(value: SSAValue, axis: SSAValue) -> tensor.DimOp:
    """``tensor.dim value, axis``."""
    return make_op(tensor.DimOp, [value, axis], [IndexType()])


def collapse_shape(src: SSAValue, groups: list[list[int]],
                   result_type: TensorType[Attribute]) -> tensor.CollapseShapeOp:
    """``tensor.collapse_shape src groups`` to ``result_type``."""
    return make_op(tensor.CollapseShapeOp, [src], [result_type], {"reassociation": reassociation(groups)})


def expand_shape(src: SSAValue, sizes: list[SSAValue], groups: list[list[int]],
                 result_type: TensorType[Attribute]) -> tensor.ExpandShapeOp:
    """``tensor.expand_shape src groups output_shape [sizes]`` to ``result_type``."""
    shape = i64_array(tuple(result_type.get_shape()))
    return make_op(tensor.ExpandShapeOp, [src, *sizes], [result_type],
                   {"reassociation": reassociation(groups), "static_output_shape": shape})


@cache
def tensor_type(element: Attribute, shape: tuple[int, ...]) -> TensorType[Attribute]:
    """``tensor<shape x element>``, one object per type (immutable, so shared)."""
    return TensorType(element, shape)


@cache
def i64_array(values: tuple[int, ...]) -> DenseArrayBase:
    """``array<i64: ...>``, one attribute per list (immutable, so shared: xDSL builds and checks
    each in a fraction of a millisecond, and every broadcast gets two)."""
    return DenseArrayBase.from_list(i64, values)


def broadcast_dims(op: Operation) -> list[int] | None:
    """The ``broadcast_dimensions`` of a (dynamic_)broadcast_in_dim."""
    return int_list(attributes_holding(op, BROADCAST_DIMS).get(BROADCAST_DIMS))


def merge_broadcast_chains(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """``dbcast(dbcast(x, s1, d1), s2, d2)`` as ``dbcast(x, s2, d2[d1])`` (a broadcast of a
    broadcast is one broadcast); the inner op is erased when nothing else uses it. How many."""
    count = 0
    for op in function_ops(fs, "dynamic_broadcast_in_dim"):
        if hlo_name(op) != "dynamic_broadcast_in_dim":
            continue
        inner = _through_identity_converts(op.operands[0]).owner
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
        holder[BROADCAST_DIMS] = i64_array(tuple(merged))
        for key in (EXPANDING, NONEXPANDING):
            holder.pop(key, None)
        new.results[0].name_hint = op.results[0].name_hint
        fs.moved(op.results[0], new.results[0])
        between = op.operands[0].owner
        rewriter.replace_op(op, new)
        while isinstance(between, Operation) and not between.results[0].uses:  # the converts, then the inner op
            after = between.operands[0].owner if between is not inner else None
            rewriter.erase_op(between)
            between = after
        count += 1
    return count


def _through_identity_converts(value: SSAValue) -> SSAValue:
    """``value``, or what a chain of ``convert``s to the same type starts from (IREE folds such a
    convert away, and then merges the broadcasts on either side of it)."""
    owner = value.owner
    while isinstance(owner, Operation) and hlo_name(owner) == "convert" and owner.operands[0].type == value.type:
        value = owner.operands[0]
        owner = value.owner
    return value


def annotate_broadcasts(fs: FunctionShapes) -> int:
    """List the operand dims of every ``dynamic_broadcast_in_dim`` as nonexpanding (proven equal
    to the output dim they map to) or expanding (proven 1); how many ops were annotated. A ``?``
    dim proven neither stays unlisted, and IREE refuses the op."""
    count = 0
    for op in function_ops(fs, "dynamic_broadcast_in_dim"):
        if hlo_name(op) != "dynamic_broadcast_in_dim":
            continue
        dims, in_dims, out_dims = broadcast_dims(op), fs.dims(op.operands[0]), fs.dims(op.results[0])
        if dims is None or in_dims is None or out_dims is None or len(dims) != len(in_dims):
            continue
        same = [fs.prove(a, "==", out_dims[d]) is True for a, d in zip(in_dims, dims, strict=True)]
        ones = [not kept and fs.prove(a, "==", 1) is True for a, kept in zip(in_dims, same, strict=True)]
        holder = attributes_holding(op, BROADCAST_DIMS)
        holder[EXPANDING] = i64_array(tuple(i for i, one in enumerate(ones) if one))
        holder[NONEXPANDING] = i64_array(tuple(i for i, kept in enumerate(same) if kept))
        count += 1
    return count


def reshapes_as_tensor_reshape(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Each ``dynamic_reshape(x, shape)`` in a form IREE lowers: ``tensor.collapse_shape`` where
    every result dim is proven the product of consecutive operand dims, ``tensor.expand_shape``
    (sizes read from ``shape``) where every operand dim is such a product of result dims, else
    ``tensor.reshape x(shape)``. How many."""
    count = 0
    for op in function_ops(fs, "dynamic_reshape"):
        if hlo_name(op) != "dynamic_reshape" or len(op.operands) != 2:
            continue
        src, shape, res = op.operands[0], op.operands[1], op.results[0]
        new = _collapse_or_expand(fs, src, shape, res) or [ReshapeOp.create(operands=[src, shape],
                                                                              result_types=[res.type])]
        replace_with(fs, rewriter, op, new)
        count += 1
    return count


def _collapse_or_expand(fs: FunctionShapes, src: SSAValue, shape: SSAValue, res: SSAValue) -> list[Operation] | None:
    in_dims, out_dims = fs.dims(src), fs.dims(res)
    if in_dims is None or out_dims is None or not is_tensor(res.type) or not is_tensor(src.type):
        return None
    groups = _groups(fs, in_dims, out_dims)
    if groups is not None:
        return [collapse_shape(src, groups, res.type)]
    groups = _groups(fs, out_dims, in_dims)
    if groups is None:
        return None
    ops: list[Operation] = []
    sizes = [read_index(shape, j, ops) for j, n in enumerate(res.type.get_shape()) if n == DYNAMIC_INDEX]
    ops.append(expand_shape(src, sizes, groups, res.type))
    return ops


def read_index(operand: SSAValue, j: int, into: list[Operation]) -> SSAValue:
    """Element ``j`` of the 1-D integer tensor ``operand`` as an index, by ops appended to ``into``."""
    pos = index_const(j)
    item = tensor.ExtractOp(operand, [pos.result], _element_type(operand))
    into += [pos, item]
    if isinstance(item.result.type, IndexType):  # torch-mlir's shapes are index tensors already
        return item.result
    size = arith.IndexCastOp(item.result, IndexType())
    into.append(size)
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
    """The ``reassociation`` of a collapse or expand: the groups of dims that become one (one
    attribute per grouping, immutable, so shared: xDSL's checks made each cost a millisecond)."""
    return _reassociation(tuple(tuple(g) for g in groups))


@cache
def _reassociation(groups: tuple[tuple[int, ...], ...]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def pads_as_tensor_pad(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """``dynamic_pad(x, v, low, high, interior)`` as ``tensor.pad`` (which IREE lowers) when the
    analysis proves every interior amount 0 and every low and high amount non-negative (tensor.pad
    neither interleaves nor crops); an amount it knows as a constant is static, the others are
    read from the operand. How many."""
    count = 0
    for op in function_ops(fs, "dynamic_pad"):
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
        dynamic.append(read_index(operand, j, into))
    return static, dynamic
