"""Write the constraint IR of intermediate values into a function as ops the analysis reads.

User facts can only name argument symbols, which exist before the analysis runs. A symbol that
first appears on an intermediate value (``%o1: tensor<?x4xf32, [@S1, @C4]>``, written by a
frontend that knows two split outputs are equal) is bound to ``tensor.dim`` of that value, and:

* a later value with the same symbol gets ``symshape.tie_shape %v, %d0, ...`` right after its op;
* predicates mentioning such symbols, and their range and divisor, become predicate ops before
  the terminator.

The rules of `symshape.rules.mlir.constraint` turn these ops into facts; the pass removes them
after the analysis (`remove_materialized`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import IndexType, IntegerAttr, TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.algebra.expr import free_symbols
from symshape.ir.dialects import constraint as c
from symshape.tools.mlir_passes.dim_exprs import ArithBuilder

if TYPE_CHECKING:
    from symshape.tools.mlir_passes.constraint_load import LoadedConstraints


class Materializer:
    """Write what the loaded facts cannot say into one function as ops the analysis reads.

    Intermediate values whose encodings repeat a symbol (or pin a ``?`` to a constant) get a
    ``symshape.tie_shape`` right after their op; predicates that mention a symbol of an
    intermediate value, and the range and divisor of such symbols, become predicate ops before
    the terminator. `run` returns the ops it made; remove them after the analysis.
    """

    def __init__(self, loaded: LoadedConstraints, fn: func.FuncOp) -> None:
        self.loaded = loaded
        self.fn = fn
        self.entry = fn.body.blocks.first
        self.created: list[Operation] = []
        self.spec: dict[str, tuple[SSAValue, int]] = {}
        self.leaves: dict[str, SSAValue] = {}
        self.entry_cursor: Operation | None = None
        self.on_args = loaded.argument_symbols(fn.sym_name.data)

    def _insert(self, op: Operation, point: InsertPoint) -> Operation:
        Rewriter().insert_op(op, point)
        self.created.append(op)
        return op

    def _after(self, value: SSAValue) -> InsertPoint:
        if isinstance(value, BlockArgument):
            if self.entry_cursor is not None:
                return InsertPoint.after(self.entry_cursor)
            assert self.entry is not None
            return InsertPoint.at_start(self.entry)
        assert isinstance(value.owner, Operation)
        return InsertPoint.after(value.owner)

    def _dim(self, value: SSAValue, axis: int) -> SSAValue:
        point = self._after(value)
        k = self._insert(arith.ConstantOp(IntegerAttr(axis, IndexType())), point)
        dim = self._insert(tensor.DimOp(value, k.results[0]), InsertPoint.after(k))
        if isinstance(value, BlockArgument):
            self.entry_cursor = dim
        return dim.results[0]

    def leaf(self, name: str) -> SSAValue | None:
        """The index value of symbol ``name`` in this function (created on first use)."""
        if name not in self.leaves:
            found = self.spec.get(name)
            if found is None:
                return None
            self.leaves[name] = self._dim(*found)
        return self.leaves[name]

    def run(self) -> list[Operation]:
        if self.entry is None:
            return []
        encodings = self.loaded.encodings.get(self.fn.sym_name.data, [])
        for arg, names in zip(self.entry.args, encodings, strict=False):
            for axis, name in enumerate(names or ()):
                if self.loaded.constant(name) is None:
                    self.spec.setdefault(name, (arg, axis))
        for op, i, names in self.loaded.results.get(self.fn.sym_name.data, []):
            if op.parent_block() is not None and i < len(op.results):
                self._tie(op.results[i], names)
        self._relations()
        return self.created

    def _tie(self, value: SSAValue, names: tuple[str, ...]) -> None:
        t = value.type
        if not isinstance(t, TensorType) or t.get_num_dims() != len(names):
            return
        tied: list[SSAValue | None] = []
        for axis, name in enumerate(names):
            k = self.loaded.constant(name)
            if k is not None:
                static = t.get_shape()[axis] == k
                tied.append(None if static else self._const(k, value))
            elif name in self.spec:
                tied.append(self.leaf(name))
            else:
                self.spec[name] = (value, axis)
                tied.append(None)
        if all(v is None for v in tied):
            return
        dims = [v if v is not None else self._dim(value, axis) for axis, v in enumerate(tied)]
        last = max((d.owner for d in dims if isinstance(d.owner, Operation)), key=_position, default=None)
        point = InsertPoint.after(last) if last is not None else self._after(value)
        self._insert(c.TieShapeOp.create(operands=[value, *dims], result_types=[value.type]), point)

    def _const(self, k: int, near: SSAValue) -> SSAValue:
        return self._insert(arith.ConstantOp(IntegerAttr(k, IndexType())), self._after(near)).results[0]

    def _relations(self) -> None:
        assert self.entry is not None
        terminator = self.entry.last_op
        if terminator is None:
            return
        point = InsertPoint.before(terminator)
        builder = ArithBuilder(self.leaf, lambda op: self._insert(op, point) and None)
        for r in self.loaded.relations:
            names = free_symbols(r.lhs) | free_symbols(r.rhs)
            if r.guard or r.rel == "!=" or names <= self.on_args or not names <= self.spec.keys():
                continue
            lhs, rhs = builder.build(r.lhs), builder.build(r.rhs)
            if lhs is not None and rhs is not None:
                self._insert(_PREDICATE_OPS[r.rel](lhs, rhs), point)
        defined = {r.defines for r in self.loaded.relations if r.defines is not None}
        for name in sorted(self.spec.keys() - self.on_args - defined):
            info = self.loaded.symbols.get(name)
            if info is None:
                continue
            leaf = self.leaf(name)
            assert leaf is not None
            if info.lo is not None and info.lo > 0:
                self._insert(c.TiePredicateLeOp(builder.constant(info.lo), leaf), point)
            if info.hi is not None:
                self._insert(c.TiePredicateLeOp(leaf, builder.constant(info.hi)), point)
            if info.divisor > 1:
                self._insert(c.TiePredicateDivisibleOp(leaf, builder.constant(info.divisor)), point)


_PREDICATE_OPS: dict[str, type[c.BinaryPredicate]] = {
    "==": c.TiePredicateEqOp,
    "<": c.TiePredicateLtOp,
    "<=": c.TiePredicateLeOp,
    "divisible": c.TiePredicateDivisibleOp,
}


def _position(op: Operation) -> int:
    block = op.parent_block()
    return block.get_operation_index(op) if block is not None else -1


def remove_materialized(ops: Sequence[Operation]) -> None:
    """Erase the ops `Materializer` wrote (users before their operands)."""
    for op in reversed(ops):
        if op.parent_block() is not None:
            op.detach()
        op.erase()
