"""``shape-lower-cstr-to-assert``: seed 003's second lowering, constrained -> asserting form.

Every ``shape.assuming`` region is inlined (its results become the yielded values), and every
witness becomes an ``arith`` condition and a ``cf.assert`` with the constraint's message, where
the witness was made:

- ``shape.cstr_eq %a, %b {error = "msg"}`` -> ``arith.cmpi eq`` per extent, ``arith.andi``;
- ``shape.cstr_broadcastable`` -> per aligned extent ``a == b or a == 1 or b == 1``;
- ``shape.cstr_require %p, "msg"`` -> ``cf.assert %p, "msg"``; ``const_witness false`` -> an
  assert of ``false``; ``const_witness true`` and ``assuming_all`` -> nothing.

Extent tensors of static length are read through their ``tensor.from_elements`` (or with
``tensor.extract``). Option ``i64-results`` returns each extent tensor result of a shape
function as ``tensor<Nxi64>``: IREE's compiler cannot yet pass ``index`` tensors out of a
function (it crashes on them), and the runtime test compiles this form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, cf, func, tensor
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import cse

from symshape.ir.dialects.shape import (
    AssumingOp,
    AssumingYieldOp,
    ConstWitnessOp,
    CstrBroadcastableOp,
    CstrEqOp,
    CstrRequireOp,
    message_of,
)
from symshape.tools.mlir_passes.aux_shape_functions import drop_unused
from symshape.tools.mlir_passes.shape_lower_meet import MOVABLE, WITNESS_OPS


@dataclass(frozen=True)
class ShapeLowerCstrToAssertPass(ModulePass):
    """Witnesses -> ``cf.assert``, ``assuming`` regions inlined."""

    name = "shape-lower-cstr-to-assert"

    REWRITES: ClassVar[frozenset[str]] = frozenset({"shape.*", "tensor.*", "arith.*", "cf.assert"})
    """Ops this pass may create, erase or change: the constraints it lowers to asserts."""

    ELIMINATES: ClassVar[frozenset[str]] = frozenset({"duplicates"})
    """It CSEs the functions it lowers."""

    i64_results: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.ops:
            if isinstance(fn, func.FuncOp) and fn.body.blocks.first is not None:
                lower_to_asserts(fn)
                if self.i64_results and "shape_function_of" in fn.attributes:
                    i64_results(fn)


def lower_to_asserts(fn: func.FuncOp) -> None:
    """Inline the assumings of ``fn`` and turn its witnesses into asserts (in place)."""
    block = fn.body.blocks.first
    assert block is not None
    while (assuming := next((o for o in block.ops if isinstance(o, AssumingOp)), None)) is not None:
        inline_assuming(block, assuming)
    witnesses = [o for o in block.ops if isinstance(o, WITNESS_OPS)]
    for op in witnesses:
        cond = Conditions(block, op).of(op)
        if cond is not None:
            block.insert_op_before(cf.AssertOp(cond, _message(op)), op)
    for op in reversed(witnesses):
        if not any(r.uses for r in op.results):
            op.detach()
            op.erase()
    drop_unused(block, keep=lambda o: not isinstance(o, MOVABLE))
    cse(fn)


def inline_assuming(block: Block, assuming: AssumingOp) -> None:
    """Move the body of ``assuming`` before it; its results become the yielded values."""
    body = assuming.regions[0].blocks.first
    assert body is not None
    yielded: list[SSAValue] = []
    for op in list(body.ops):
        op.detach()
        if isinstance(op, AssumingYieldOp):
            yielded = list(op.operands)
            op.erase()
        else:
            block.insert_op_before(op, assuming)
    for result, value in zip(assuming.results, yielded, strict=True):
        result.replace_all_uses_with(value)
    assuming.detach()
    assuming.erase()


def _message(op: Operation) -> str:
    if isinstance(op, CstrRequireOp):
        return message_of(op, "msg")
    text = message_of(op) if isinstance(op, (CstrEqOp, CstrBroadcastableOp)) else ""
    return text or f"{op.name} failed"


class Conditions:
    """Builds the ``i1`` that holds when a witness op passes, before ``at``."""

    def __init__(self, block: Block, at: Operation) -> None:
        self.block = block
        self.at = at

    def add(self, op: Operation) -> SSAValue:
        self.block.insert_op_before(op, self.at)
        return op.results[0]

    def of(self, op: Operation) -> SSAValue | None:
        """The condition of ``op``; None when it always holds (or is a join of others)."""
        if isinstance(op, CstrRequireOp):
            return op.operands[0]
        if isinstance(op, ConstWitnessOp):
            return None if op.passing else self.add(arith.ConstantOp.from_int_and_width(0, 1))
        if isinstance(op, CstrEqOp):
            shapes = [extents(self, v) for v in op.operands]
            if any(len(s) != len(shapes[0]) for s in shapes):
                return self.add(arith.ConstantOp.from_int_and_width(0, 1))
            conds = [self.eq(s[i], shapes[0][i]) for s in shapes[1:] for i in range(len(s))]
            return self.all(conds)
        if isinstance(op, CstrBroadcastableOp):
            return self.all(self.broadcastable([extents(self, v) for v in op.operands]))
        return None

    def eq(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(arith.CmpiOp(a, b, "eq"))

    def all(self, conds: list[SSAValue]) -> SSAValue:
        if not conds:
            return self.add(arith.ConstantOp.from_int_and_width(1, 1))
        acc = conds[0]
        for c in conds[1:]:
            acc = self.add(arith.AndIOp(acc, c))
        return acc

    def broadcastable(self, shapes: list[list[SSAValue]]) -> list[SSAValue]:
        """Per aligned extent and pair of shapes: ``a == b or a == 1 or b == 1``."""
        one = self.add(arith.ConstantOp.from_int_and_width(1, IndexType()))
        conds: list[SSAValue] = []
        rank = max((len(s) for s in shapes), default=0)
        for axis in range(1, rank + 1):
            dims = [s[-axis] for s in shapes if len(s) >= axis]
            for i, a in enumerate(dims):
                for b in dims[i + 1 :]:
                    either = self.add(arith.OrIOp(self.eq(a, one), self.eq(b, one)))
                    conds.append(self.add(arith.OrIOp(self.eq(a, b), either)))
        return conds


def extents(conds: Conditions, value: SSAValue) -> list[SSAValue]:
    """The extents of a static-length extent tensor: its ``from_elements`` operands or extracts."""
    owner = value.owner
    if isinstance(owner, tensor.FromElementsOp):
        return list(owner.operands)
    vtype = value.type
    assert isinstance(vtype, TensorType) and vtype.get_num_dims() == 1
    count = vtype.get_shape()[0]
    out: list[SSAValue] = []
    for i in range(max(count, 0)):
        index = conds.add(arith.ConstantOp.from_int_and_width(i, IndexType()))
        out.append(conds.add(tensor.ExtractOp(value, [index], IndexType())))
    return out


def i64_results(fn: func.FuncOp) -> None:
    """Return each ``tensor.from_elements`` extent tensor result as ``tensor<Nxi64>``."""
    block = fn.body.blocks.first
    ret = block.last_op if block is not None else None
    if block is None or not isinstance(ret, func.ReturnOp):
        return
    new: list[SSAValue] = []
    for value in ret.operands:
        owner = value.owner
        if not (isinstance(owner, tensor.FromElementsOp) and isinstance(value.type, TensorType)):
            new.append(value)
            continue
        conds = Conditions(block, ret)
        ints = [conds.add(arith.IndexCastOp(e, IntegerType(64))) for e in owner.operands]
        new.append(conds.add(tensor.FromElementsOp(*ints, result_type=TensorType(IntegerType(64), [len(ints)]))))
    ret.operands = new
    fn.function_type = FunctionType.from_lists(fn.function_type.inputs.data, [v.type for v in new])
    drop_unused(block, keep=lambda o: not isinstance(o, MOVABLE))
