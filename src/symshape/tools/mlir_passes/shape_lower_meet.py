"""``shape-lower-meet``: seed 003's first lowering, error-carrying form -> constrained form.

Each ``shape.meet %a, %b, error = "msg"`` becomes ``shape.cstr_eq`` of the two (``index``
operands as one-element extent tensors) carrying the message as ``{error = "msg"}``, and each
``shape.broadcast ... error = "msg"`` a ``shape.cstr_broadcastable``. The witnesses nobody
consumes yet are joined by ``shape.assuming_all``, and the function's results are computed in a
``shape.assuming`` region on it: the ops that only feed the results move into the region, so
the result is, as in the seed, available only once every constraint holds::

    %w = shape.assuming_all %w0, %w1
    %r = shape.assuming %w -> (tensor<2xindex>) {
      ...
      shape.assuming_yield %s : tensor<2xindex>
    }
    func.return %r : tensor<2xindex>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import IndexType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import cse

from symshape.ir.dialects.shape import (
    AssumingAllOp,
    AssumingOp,
    AssumingYieldOp,
    BroadcastOp,
    ConstWitnessOp,
    CstrBroadcastableOp,
    CstrEqOp,
    CstrRequireOp,
    MeetOp,
    WitnessType,
)

WITNESS_OPS = (CstrEqOp, CstrBroadcastableOp, CstrRequireOp, ConstWitnessOp, AssumingAllOp)
MOVABLE = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.FloorDivSIOp, arith.MaxSIOp,
           arith.MinSIOp, arith.CeilDivSIOp, arith.DivSIOp, arith.RemSIOp, arith.CmpiOp, arith.SelectOp,
           tensor.DimOp, tensor.FromElementsOp, tensor.ExtractOp)  # fmt: skip
"""Pure ops that may move into the ``assuming`` region when only the results use them."""


@dataclass(frozen=True)
class ShapeLowerMeetPass(ModulePass):
    """Rewrite ``meet``/``broadcast`` with errors to witnesses, results under ``assuming``."""

    name = "shape-lower-meet"

    REWRITES: ClassVar[frozenset[str]] = frozenset({"shape.*", "tensor.*", "arith.*"})
    """Ops this pass may create, erase or change: the shape computations it lowers."""

    ELIMINATES: ClassVar[frozenset[str]] = frozenset({"duplicates"})
    """It CSEs the functions it lowers."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.ops:
            if isinstance(fn, func.FuncOp) and fn.body.blocks.first is not None:
                lower_meet(fn)


def lower_meet(fn: func.FuncOp) -> None:
    """Lower the meets and erroring broadcasts of ``fn`` and guard its results (in place)."""
    block = fn.body.blocks.first
    assert block is not None
    for op in list(block.ops):
        if isinstance(op, MeetOp):
            _lower_one_meet(block, op)
        elif isinstance(op, BroadcastOp) and "error" in op.attributes:
            witness = CstrBroadcastableOp.create(
                operands=list(op.operands), result_types=[WitnessType()], attributes={"error": op.attributes["error"]}
            )
            block.insert_op_before(witness, op)
            if op.results[0].uses:
                del op.attributes["error"]
            else:
                op.detach()
                op.erase()
    guard_results(block)
    cse(fn)


def _lower_one_meet(block: Block, op: MeetOp) -> None:
    a, b = op.operands
    if isinstance(a.type, IndexType) and isinstance(b.type, IndexType):
        one = TensorType(IndexType(), [1])
        pair: list[SSAValue] = []
        for v in (a, b):
            made = tensor.FromElementsOp(v, result_type=one)
            block.insert_op_before(made, op)
            pair.append(made.results[0])
    elif isinstance(a.type, TensorType) and isinstance(b.type, TensorType):
        pair = [a, b]
    else:  # !shape.size / !shape.shape meets keep their error-carrying form
        return
    attrs = {"error": op.attributes["error"]} if "error" in op.attributes else {}
    block.insert_op_before(CstrEqOp.create(operands=pair, result_types=[WitnessType()], attributes=attrs), op)
    op.results[0].replace_all_uses_with(a)  # equal to b once the witness holds
    op.detach()
    op.erase()


def guard_results(block: Block) -> None:
    """Put the results of the block's ``func.return`` under an ``assuming`` of its free witnesses."""
    ret = block.last_op
    free = [op.results[0] for op in block.ops if isinstance(op, WITNESS_OPS) and not op.results[0].uses]
    if not isinstance(ret, func.ReturnOp) or not free:
        return
    witness = free[0]
    if len(free) > 1:
        joined = AssumingAllOp.create(operands=free, result_types=[WitnessType()])
        block.insert_op_before(joined, ret)
        witness = joined.results[0]
    body = Block()
    body.add_op(AssumingYieldOp.create(operands=list(ret.operands)))
    assuming = AssumingOp.create(
        operands=[witness], result_types=[v.type for v in ret.operands], regions=[Region(body)]
    )
    block.insert_op_before(assuming, ret)
    ret.operands = list(assuming.results)
    _sink_into(block, assuming, body)


def _sink_into(block: Block, assuming: AssumingOp, body: Block) -> None:
    """Move the pure ops whose every use is inside ``assuming`` to the start of its body."""
    for op in reversed(list(block.ops)):
        if op is assuming or not isinstance(op, MOVABLE) or not op.results:
            continue
        if all(_inside(assuming, use.operation) for r in op.results for use in r.uses) and any(
            r.uses for r in op.results
        ):
            op.detach()
            first = body.first_op
            assert first is not None
            body.insert_op_before(op, first)


def _inside(ancestor: Operation, op: Operation) -> bool:
    return ancestor.is_ancestor(op)
