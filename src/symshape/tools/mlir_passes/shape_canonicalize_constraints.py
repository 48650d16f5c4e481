"""``shape-canonicalize-constraints``: drop the checks of the constrained form that are proven.

The pass reads the index values of a function back into dims (`ArithReader`: ``tensor.dim`` of
an argument is a symbol ``>= 0``, any other opaque value a symbol of its own) and decides with
a `ConstraintGraph` that starts from nothing but those facts. Walking the entry block in order:

- a ``shape.cstr_eq`` whose extents are proven equal, a ``shape.cstr_broadcastable`` whose
  aligned extents are proven equal or 1, or a ``shape.cstr_require`` of a proven ``arith.cmpi``
  becomes ``shape.const_witness true``;
- a check that stays and that an ``assuming`` needs (so every accepted input passes it) is
  learned: its equality or inequality is added to the graph, to decide the checks after it;
- ``shape.assuming_all`` drops its true operands (and is true when none is left), and a
  ``shape.assuming`` on a true witness is inlined.

Only proven facts remove a check: the argument dims' ``>= 0`` and the checks kept before it, all
of which an accepted input satisfies, so the set of accepted inputs is the same before and after.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from symshape.algebra.expr import Dim, Expr, add, mul
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.errors import ContradictionError
from symshape.ir.dialects.shape import (
    AssumingAllOp,
    AssumingOp,
    ConstShapeOp,
    ConstWitnessOp,
    CstrBroadcastableOp,
    CstrEqOp,
    CstrRequireOp,
    WitnessType,
)
from symshape.tools.mlir_passes.aux_shape_functions import drop_unused
from symshape.tools.mlir_passes.dim_exprs import ArithReader
from symshape.tools.mlir_passes.shape_lower_cstr_to_assert import inline_assuming
from symshape.tools.mlir_passes.shape_lower_meet import MOVABLE

_ROUNDS = 8
_LEARNED = Origin("shape.cstr", "", "a check an assuming needs")
_CMP = {0: "eq", 1: "ne", 2: "slt", 3: "sle", 4: "sgt", 5: "sge"}


@dataclass(frozen=True)
class ShapeCanonicalizeConstraintsPass(ModulePass):
    """Replace proven checks by ``const_witness true`` and fold the witnesses and assumings."""

    name = "shape-canonicalize-constraints"

    REWRITES: ClassVar[frozenset[str]] = frozenset({"shape.*", "tensor.*", "arith.*", "cf.assert"})
    """Ops this pass may create, erase or change: the constraints it proves and drops, with their
    shape computations."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.ops:
            if isinstance(fn, func.FuncOp) and fn.body.blocks.first is not None:
                canonicalize(fn)


def canonicalize(fn: func.FuncOp) -> None:
    """Canonicalize the constraints of ``fn`` to a fixpoint (inlined regions bring new ones)."""
    block = fn.body.blocks.first
    assert block is not None
    for _ in range(_ROUNDS):
        if not _one_round(block):
            break
    drop_unused(block, keep=lambda o: not isinstance(o, (*MOVABLE, ConstWitnessOp, AssumingAllOp)))


def _one_round(block: Block) -> bool:
    prover = Prover()
    required = _required(block)
    changed = False
    for op in list(block.ops):
        if isinstance(op, (CstrEqOp, CstrBroadcastableOp, CstrRequireOp)):
            if prover.holds(op):
                _replace_by_true(op)
                changed = True
            elif op.results[0] in required:
                prover.learn(op)
        elif isinstance(op, AssumingAllOp):
            changed |= _fold_all(op)
        elif isinstance(op, AssumingOp) and _is_true(op.operands[0]):
            inline_assuming(block, op)
            changed = True
    return changed


def _required(block: Block) -> set[SSAValue]:
    """The witnesses an ``assuming`` of the block needs, directly or through ``assuming_all``."""
    out: set[SSAValue] = set()
    for op in reversed(list(block.ops)):
        if isinstance(op, AssumingOp) or (isinstance(op, AssumingAllOp) and op.results[0] in out):
            out.update(op.operands)
    return out


def _is_true(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, ConstWitnessOp) and owner.passing


def _replace_by_true(op: Operation) -> None:
    true = ConstWitnessOp.create(result_types=[WitnessType()], attributes={"passing": IntegerAttr(1, 1)})
    block = op.parent_block()
    assert block is not None
    block.insert_op_before(true, op)
    op.results[0].replace_all_uses_with(true.results[0])
    op.detach()
    op.erase()


def _fold_all(op: AssumingAllOp) -> bool:
    kept = [v for v in op.operands if not _is_true(v)]
    if len(kept) == len(op.operands) and len(kept) > 1:
        return False
    block = op.parent_block()
    assert block is not None
    if not kept:
        _replace_by_true(op)
    elif len(kept) == 1:
        op.results[0].replace_all_uses_with(kept[0])
        op.detach()
        op.erase()
    else:
        joined = AssumingAllOp.create(operands=kept, result_types=[WitnessType()])
        block.insert_op_before(joined, op)
        op.results[0].replace_all_uses_with(joined.results[0])
        op.detach()
        op.erase()
    return True


class Prover:
    """Dims of index values, and what the facts so far decide about them."""

    def __init__(self) -> None:
        self.graph = ConstraintGraph()
        self.reader = ArithReader(self.leaf, lambda d: self.graph.facts.prove_ge(d))
        self.opaque: dict[SSAValue, str] = {}

    def leaf(self, value: SSAValue) -> Dim | None:
        """``tensor.dim`` of an argument: ``a<i>_d<axis> >= 0``; any other value: its own symbol."""
        owner = value.owner
        if isinstance(owner, tensor.DimOp) and isinstance(owner.source, BlockArgument):
            axis = self.reader.read(owner.index)
            if isinstance(axis, int):
                name = f"a{owner.source.index}_d{axis}"
                return self.graph.add_symbol(name, "input", Origin("input", name), lo=0)
        name = self.opaque.setdefault(value, f"v{len(self.opaque)}")
        return self.graph.add_symbol(name, "data", Origin("value", name), lo=None)

    def extents(self, value: SSAValue) -> list[Dim] | None:
        owner = value.owner
        if isinstance(owner, tensor.FromElementsOp):
            dims = [self.reader.read(v) for v in owner.operands]
            return None if any(d is None for d in dims) else [d for d in dims if d is not None]
        if isinstance(owner, ConstShapeOp):
            attr = owner.attributes.get("shape")
            if isinstance(attr, DenseIntOrFPElementsAttr):
                return [int(v) for v in attr.get_values()]
        return None

    def equal(self, a: Dim, b: Dim) -> bool:
        graph = self.graph
        ca, cb = graph.canon(a), graph.canon(b)
        if graph.facts.prove_eq(ca, cb) is True:
            return True
        diff = graph.canon(add(ca, mul(cb, -1)))
        negated = mul(diff, -1)
        return any(graph.canon(r.expr) in (diff, negated) for r in graph.residuals if isinstance(diff, Expr))

    def holds(self, op: Operation) -> bool:
        """Whether the check ``op`` is proven."""
        if isinstance(op, CstrRequireOp):
            cmp = self.comparison(op.operands[0])
            return cmp is not None and self.decide(*cmp)
        shapes = [self.extents(v) for v in op.operands]
        known = [s for s in shapes if s is not None]
        if len(known) != len(shapes) or not known:
            return False
        if isinstance(op, CstrEqOp):
            first = known[0]
            return all(len(s) == len(first) and all(map(self.equal, s, first)) for s in known[1:])
        rank = max(len(s) for s in known)
        for axis in range(1, rank + 1):
            dims = [s[-axis] for s in known if len(s) >= axis and not self.equal(s[-axis], 1)]
            if any(not self.equal(d, dims[0]) for d in dims[1:]):
                return False
        return True

    def comparison(self, value: SSAValue) -> tuple[str, Dim, Dim] | None:
        owner = value.owner
        if not isinstance(owner, arith.CmpiOp):
            return None
        rel = _CMP.get(owner.predicate.value.data)
        a, b = self.reader.read(owner.lhs), self.reader.read(owner.rhs)
        return None if rel is None or a is None or b is None else (rel, a, b)

    def decide(self, rel: str, a: Dim, b: Dim) -> bool:
        facts, diff = self.graph.facts, self.graph.canon(add(a, mul(b, -1)))
        if rel == "eq":
            return self.equal(a, b)
        if rel == "ne":
            return facts.prove_eq(self.graph.canon(a), self.graph.canon(b)) is False
        lo = {"sge": 0, "sgt": 1}.get(rel)
        if lo is not None:
            return facts.prove_ge(diff, lo)
        return facts.prove_le(diff, -1 if rel == "slt" else 0)

    def learn(self, op: Operation) -> None:
        """Add what the kept, required check ``op`` states to the graph."""
        try:
            if isinstance(op, CstrEqOp):
                shapes = [self.extents(v) for v in op.operands]
                known = [s for s in shapes if s is not None]
                for s in known[1:]:
                    if len(s) == len(known[0]):
                        for a, b in zip(s, known[0], strict=True):
                            self.graph.eq(a, b, _LEARNED)
            elif isinstance(op, CstrRequireOp) and (cmp := self.comparison(op.operands[0])) is not None:
                rel, a, b = cmp
                if rel == "eq":
                    self.graph.eq(a, b, _LEARNED)
                elif rel in ("sge", "sgt", "sle", "slt"):
                    lo = 1 if rel in ("sgt", "slt") else 0
                    diff = add(a, mul(b, -1)) if rel in ("sge", "sgt") else add(b, mul(a, -1))
                    self.graph.assume_range(diff, lo, None, _LEARNED)
        except ContradictionError:
            return  # the check can never pass with the ones before it: it stays, nothing learned
