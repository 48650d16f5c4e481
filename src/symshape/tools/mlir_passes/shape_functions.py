"""``shape-functions{form=meet|cstr|assert}``: seed 003's shape functions, one per function.

For each function ``@f`` the pass adds::

    func.func @_shape_fn_f(<the arguments of @f>) -> (tensor<Nxindex>, ...)
        attributes {shape_function_of = "f"}

returning the shape of each ranked result of ``@f``, computed from the arguments as
``aux-shape-functions`` computes it, after checking every precondition the analysis found
(`symshape.tools.mlir_passes.shape_checks`: contraction dims, concatenated dims, declared result
types, slice bounds, broadcasts, guards), each with its message. The three forms are seed 003's:

- ``meet`` (error carrying): ``shape.meet %a, %b, error = "..." : index, index -> index`` per
  equality, ``shape.broadcast ... error = "..."`` per broadcast, ``shape.cstr_require`` per ``!=``;
- ``cstr`` (constrained): ``shape-lower-meet`` of it: witnesses, ``shape.assuming_all`` and the
  result computed in a ``shape.assuming`` region;
- ``assert`` (side effecting): ``shape-lower-cstr-to-assert`` of that: ``cf.assert`` per check.

A check whose symbols no argument determines (a data-dependent dim) cannot be written; its
message is listed in the ``unchecked`` attribute of the shape function instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, IndexType, ModuleOp, StringAttr, TensorType
from xdsl.ir import Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import cse

from symshape.algebra.expr import Dim
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.errors import ModelError, where_option
from symshape.frontends.mlir.frontend import facts_for
from symshape.frontends.mlir.program_builder import FuncView, module_to_programs
from symshape.ir.dialects.shape import BroadcastOp, CstrRequireOp, MeetOp, WitnessType
from symshape.rules.walker import analyze
from symshape.tools.mlir_passes.aux_shape_functions import AuxBuilder, drop_unused, ranked, skipped
from symshape.tools.mlir_passes.shape_checks import Check, CheckCollector
from symshape.tools.mlir_passes.shape_lower_cstr_to_assert import lower_to_asserts
from symshape.tools.mlir_passes.shape_lower_meet import lower_meet

PREFIX = "_shape_fn_"
FORMS = ("meet", "cstr", "assert")


@dataclass(frozen=True)
class ShapeFunctionsPass(ModulePass):
    """Add ``_shape_fn_<fn>``: the result shapes of ``fn`` with its preconditions checked."""

    name = "shape-functions"

    REWRITES: ClassVar[frozenset[str]] = frozenset[str]()
    """It adds functions of its own and changes no op of the input."""

    form: str = "meet"
    facts: tuple[Fact, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.form not in FORMS:
            raise ModelError(
                where=where_option("-p", f"shape-functions{{form={self.form}}}"),
                found=f"form '{self.form}'",
                expected=f"one of {', '.join(FORMS)}",
                fix="write shape-functions{form=meet}, {form=cstr} or {form=assert}",
            )
        funcs = {f.sym_name.data: f for f in op.ops if isinstance(f, func.FuncOp)}
        views = module_to_programs(op)
        for view, own in zip(views, facts_for(views, self.facts), strict=True):
            fn = funcs.get(view.name)
            if fn is None or skipped(fn) or PREFIX + view.name in funcs:
                continue
            analysis = analyze(view.program, facts=[*view.facts, *own])
            shape_fn = ShapeFnBuilder(fn, view, analysis).build_function()
            if self.form != "meet":
                lower_meet(shape_fn)
            if self.form == "assert":
                lower_to_asserts(shape_fn)
            op.body.block.insert_op_after(shape_fn, fn)
            funcs[shape_fn.sym_name.data] = shape_fn


class ShapeFnBuilder(AuxBuilder):
    """Builds ``_shape_fn_<fn>`` in meet form: the checks, then the result shapes."""

    def __init__(self, fn: func.FuncOp, view: FuncView, analysis: Analysis) -> None:
        super().__init__(fn, view, analysis)
        self.view = view
        self.unchecked: list[str] = []

    def find_leaves(self) -> None:
        """Each argument dim's own symbol first (``rhs_d0`` reads dim 0 of ``%rhs`` even though
        the analysis solved it to ``lhs_d1``): the checks compare those."""
        for i, arg in enumerate(self.source.args):
            name = self.name_of.get(arg)
            value = self.view.program.values.get(name) if name else None
            dims = value.type.dims if value is not None and value.type is not None else None
            for axis, d in enumerate(dims or ()):
                if isinstance(d, str) and d in self.analysis.graph.symbols and d not in self.leaves:
                    self.leaves[d] = lambda i=i, axis=axis: self.arg_dim(i, axis)
        super().find_leaves()

    def arg_dim(self, i: int, axis: int) -> SSAValue:
        """``tensor.dim`` of argument ``i``, named ``<arg>_d<axis>`` for readable checks."""
        value = super().arg_dim(i, axis)
        hint = self.block.args[i].name_hint
        if value.name_hint is None and hint is not None:
            value.name_hint = f"{hint}_d{axis}"
        return value

    def build_function(self) -> func.FuncOp:
        for op in self.source.ops:
            if op is not self.source.last_op:
                self.block.add_op(op.clone(self.mapper))
        self.find_leaves()
        for check in CheckCollector(self.analysis, self.view.program).checks():
            self.emit(check)
        ret = self.source.last_op
        results = [v for v in (ret.operands if ret is not None else ()) if ranked(v)]
        shapes = [s for s in (self.shape(v) for v in results) if s is not None]
        self.block.add_op(func.ReturnOp(*shapes))
        drop_unused(self.block, keep=lambda op: isinstance(op, (MeetOp, BroadcastOp, CstrRequireOp)))
        name = self.fn.sym_name.data
        types = ([a.type for a in self.block.args], [s.type for s in shapes])
        shape_fn = func.FuncOp(PREFIX + name, types, Region(self.block))
        shape_fn.attributes["shape_function_of"] = StringAttr(name)
        if self.unchecked:
            shape_fn.attributes["unchecked"] = ArrayAttr([StringAttr(m) for m in self.unchecked])
        cse(shape_fn)
        return shape_fn

    def emit(self, check: Check) -> None:
        """The meet-form op of ``check`` (nothing, and a note, when it cannot be computed)."""
        if not check.free <= set(self.leaves):
            self.unchecked.append(check.message)
            return
        error = {"error": StringAttr(check.message)}
        if check.kind == "broadcastable":
            shapes = [self.extents(s) for s in check.shapes]
            unknown = TensorType(IndexType(), [DYNAMIC_INDEX])
            self.block.add_op(BroadcastOp.create(operands=shapes, result_types=[unknown], attributes=error))
            return
        pair = [self.arith.build(s[0]) for s in check.shapes]
        a, b = pair
        if a is None or b is None:
            self.unchecked.append(check.message)
            return
        if check.kind == "ne":
            cond = self._add(arith.CmpiOp(a, b, "ne"))
            msg = {"msg": StringAttr(check.message)}
            self.block.add_op(CstrRequireOp.create(operands=[cond], result_types=[WitnessType()], attributes=msg))
            return
        self.block.add_op(MeetOp.create(operands=[a, b], result_types=[IndexType()], attributes=error))

    def extents(self, dims: tuple[Dim, ...]) -> SSAValue:
        """``tensor.from_elements`` of ``dims`` (each buildable: `emit` checked the symbols)."""
        values: list[SSAValue] = []
        for d in dims:
            built = self.arith.build(d)
            assert built is not None
            values.append(built)
        return self._add(tensor.FromElementsOp(*values, result_type=TensorType(IndexType(), [len(values)])))
