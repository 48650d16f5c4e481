"""Small helpers the shape-optimization stages share: op names, constants, dominance, types."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import Rewriter

from symshape.frontends.mlir.attributes import op_full_name
from symshape.ir.dialects.constraint import GRAPH_FUNCTION

op_name = op_full_name
"""The op's full name, also for unregistered ops (``"mhlo.add"``)."""


def nested_ops(op: Operation | Region) -> list[Operation]:
    """The ops nested in ``op`` (not ``op`` itself), each before its own regions' ops: the order
    of xDSL's ``walk``, built without its generator per op (a third of the time at 100k ops)."""
    out: list[Operation] = []
    _nested_into(op.regions if isinstance(op, Operation) else (op,), out)
    return out


def _nested_into(regions: Sequence[Region], out: list[Operation]) -> None:
    """Follows a block's links itself: ``block.ops``' iterator costs a call per op, and the
    cleanups list a 100k-op function about thirty times a run."""
    append = out.append
    for region in regions:
        for block in region.blocks:
            inner = block.first_op
            while inner is not None:
                append(inner)
                if inner.regions:
                    _nested_into(inner.regions, out)
                inner = inner._next_op  # pyright: ignore[reportPrivateUsage]


def index_const(k: int) -> arith.ConstantOp:
    """``arith.constant k : index``, as ``from_int_and_width`` builds it but with one attribute
    per ``k`` (immutable, so shared): xDSL's attribute checks were most of a rewrite's cost."""
    return arith.ConstantOp.create(result_types=[IndexType()], properties={"value": _index_attr(k)})


@cache
def _index_attr(k: int) -> IntegerAttr[IndexType]:
    return IntegerAttr(k, IndexType())


def const_int(value: SSAValue) -> int | None:
    """The integer of an ``arith.constant`` (index or integer), else None."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def data_functions(module: ModuleOp) -> Iterator[func.FuncOp]:
    """The module's functions with a body, except the constraint-graph function."""
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.body.blocks and op.sym_name.data != GRAPH_FUNCTION:
            yield op


def with_type(rewriter: Rewriter, value: SSAValue, new: Attribute) -> SSAValue:
    """Give ``value`` the type ``new`` (keeping its uses and name); returns the new value."""
    if value.type == new:
        return value
    name = value.name_hint
    out = rewriter.replace_value_with_new_type(value, new)
    out.name_hint = name
    return out


def map_function_types(rewriter: Rewriter, fn: func.FuncOp, fn_map: Callable[[Attribute], Attribute]) -> None:
    """Apply ``fn_map`` to every block argument, op result and the signature of ``fn``."""
    for op in nested_ops(fn.body):
        for res in list(op.results):
            with_type(rewriter, res, fn_map(res.type))
    for region in [fn.body, *(r for op in fn.body.walk() for r in op.regions)]:
        for block in region.blocks:
            for arg in list(block.args):
                with_type(rewriter, arg, fn_map(arg.type))
    sig = fn.function_type
    ins = [fn_map(t) for t in sig.inputs.data]
    outs = [fn_map(t) for t in sig.outputs.data]
    fn.function_type = FunctionType.from_lists(ins, outs)


def ancestor_in(block: Block, op: Operation) -> Operation | None:
    """The ancestor of ``op`` (or ``op`` itself) that sits directly in ``block``."""
    cur: Operation | None = op
    while cur is not None and cur.parent_block() is not block:
        cur = cur.parent_op()
    return cur


class Dominance:
    """Whether a value is available at an op: same-block order (conservative across blocks).

    Op positions are cached per block; the cache stays right while ops are only inserted at a
    block's start or erased (relative order is kept), which is how shape-optimization edits.
    """

    def __init__(self) -> None:
        self._positions: dict[Block, dict[Operation, int]] = {}

    def _position(self, block: Block, op: Operation) -> int:
        table = self._positions.get(block)
        if table is None or op not in table:
            table = self._positions[block] = {o: i for i, o in enumerate(block.ops)}
        return table[op]

    def dominates(self, value: SSAValue, user: Operation) -> bool:
        """Whether ``value`` is defined before ``user`` on every path (see the class docstring)."""
        if isinstance(value, BlockArgument):
            return ancestor_in(value.block, user) is not None
        assert isinstance(value, OpResult)
        def_op = value.op
        block = def_op.parent_block()
        if block is None:
            return False
        anchor = ancestor_in(block, user)
        if anchor is None or anchor is def_op:
            return False
        return self._position(block, def_op) < self._position(block, anchor)
