"""``aux-shape-functions``: seed 001's auxiliary shape functions, already reified and CSE'd.

For each function ``@f`` (and each function inlined into it) the pass adds::

    func.func private @_shape_infer_f(<the arguments of @f>) -> (tensor<Nxindex>, ...)
        attributes {auxiliary_of = "f"}

returning the shape of every ranked value (rank >= 1) an op of ``@f`` defines, in op order.
Each dim is computed from the arguments: ``arith.constant`` for static dims, and the
analysis's symbolic expression written as ``arith`` ops on ``index`` values over
``tensor.dim`` of the arguments (``floor``/``Mod``/``Max``/``Min`` exactly, see
`symshape.tools.mlir_passes.dim_exprs`); a symbol of a jax dimension-variable argument is read
with ``tensor.extract``. A dim no argument determines (data-dependent) is read with
``tensor.dim`` of a copy of the value, so the copied ops it needs stay in the function; every
other copied op is removed. Equal dims share one SSA value. Running the pass again keeps the
existing ``_shape_infer_`` functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import IndexType, ModuleOp, ShapedType, StringAttr, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import cse

from symshape.algebra.expr import Dim, Expr, as_symbol
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.frontends.mlir.attributes import is_tensor
from symshape.frontends.mlir.frontend import facts_for
from symshape.frontends.mlir.program_builder import FuncView, module_to_programs
from symshape.rules.walker import analyze
from symshape.tools.mlir_passes.dim_exprs import ArithBuilder

PREFIX = "_shape_infer_"
Reader = Callable[[], SSAValue]


@dataclass(frozen=True)
class AuxShapeFunctionsPass(ModulePass):
    """Add a reified ``_shape_infer_<fn>`` function for every function of the module."""

    name = "aux-shape-functions"

    REWRITES: ClassVar[frozenset[str]] = frozenset[str]()
    """It adds functions of its own and changes no op of the input."""

    facts: tuple[Fact, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = {f.sym_name.data: f for f in op.ops if isinstance(f, func.FuncOp)}
        views = module_to_programs(op)
        for view, own in zip(views, facts_for(views, self.facts), strict=True):
            analysis = analyze(view.program, facts=[*view.facts, *own])
            for name in (view.name, *view.inlined):
                fn = funcs.get(name)
                if fn is None or skipped(fn) or PREFIX + name in funcs or not _has_ranked_values(fn):
                    continue
                aux = AuxBuilder(fn, view, analysis).build()
                op.body.block.insert_op_after(aux, fn)
                funcs[aux.sym_name.data] = aux


def skipped(fn: func.FuncOp) -> bool:
    """Declarations, auxiliary functions and the constraint-graph function have no aux."""
    return (
        fn.body.blocks.first is None
        or "auxiliary_of" in fn.attributes
        or "shape_function_of" in fn.attributes
        or fn.sym_name.data.startswith(PREFIX)
        or fn.sym_name.data == "shape_constraint_graph"
    )


class AuxBuilder:
    """Builds ``_shape_infer_<fn>`` from ``fn`` and the analysis of its root function."""

    def __init__(self, fn: func.FuncOp, view: FuncView, analysis: Analysis) -> None:
        self.fn = fn
        self.analysis = analysis
        self.name_of = {v: n for n, v in view.values.items()}
        body = fn.body.blocks.first
        assert body is not None
        self.source = body
        self.block = Block(arg_types=[a.type for a in body.args])
        self.mapper: dict[SSAValue, SSAValue] = dict(zip(body.args, self.block.args, strict=True))
        for old, new in self.mapper.items():
            new.name_hint = old.name_hint
        self.dims: dict[tuple[SSAValue, int], SSAValue] = {}
        self.leaves: dict[str, Callable[[], SSAValue]] = {}
        self.arith = ArithBuilder(self.leaf, self.block.add_op)

    def build(self) -> func.FuncOp:
        for op in self.source.ops:
            if op is not self.source.last_op:
                self.block.add_op(op.clone(self.mapper))
        self.find_leaves()
        shapes = [self.shape(v) for op in self.source.ops for v in op.results if ranked(v)]
        shapes = [s for s in shapes if s is not None]
        self.block.add_op(func.ReturnOp(*shapes))
        drop_unused(self.block)
        name = self.fn.sym_name.data
        aux = func.FuncOp(
            PREFIX + name, ([a.type for a in self.block.args], [s.type for s in shapes]), Region(self.block), "private"
        )
        aux.attributes["auxiliary_of"] = StringAttr(name)
        cse(aux)
        return aux

    # ------------------------------------------------------------------ leaves
    def find_leaves(self) -> None:
        """Symbols readable from the arguments: a dim ``c*s + k`` or a scalar's value ``s``."""
        linear: list[tuple[str, Reader]] = []
        for i, arg in enumerate(self.source.args):
            name = self.name_of.get(arg)
            shape = self.analysis.shape_or_none(name) if name else None
            if shape is not None and is_tensor(arg.type) and len(shape) == arg.type.get_num_dims():
                for axis, d in enumerate(shape):
                    self._leaf_of_dim(d, lambda i=i, axis=axis: self.arg_dim(i, axis), linear)
            els = self.analysis.elements(name) if name else None
            if els is not None and len(els) == 1 and as_symbol(els[0]) is not None:
                self.leaves.setdefault(as_symbol(els[0]) or "", lambda i=i: self.scalar(i))
        for s, make in linear:
            self.leaves.setdefault(s, make)

    def _leaf_of_dim(
        self, d: Dim, read: Callable[[], SSAValue], linear: list[tuple[str, Callable[[], SSAValue]]]
    ) -> None:
        s = as_symbol(d)
        if s is not None:
            self.leaves.setdefault(s, read)
            return
        if isinstance(d, Expr) and len(d.free) == 1:
            (s,) = d.free
            const = sum(c for mono, c in d.terms if not mono)
            coeff = [c for mono, c in d.terms if len(mono) == 1 and str(mono[0]) == s]
            if coeff and len(d.terms) == 1 + (const != 0) and coeff[0] > 0:
                linear.append((s, lambda: self.solve(read(), coeff[0], const)))

    def solve(self, value: SSAValue, coeff: int, const: int) -> SSAValue:
        """``(value - const) / coeff`` (exact for a dim written ``coeff*s + const``)."""
        if const:
            value = self._add(arith.SubiOp(value, self.arith.constant(const)))
        return value if coeff == 1 else self._add(arith.DivSIOp(value, self.arith.constant(coeff)))

    def leaf(self, name: str) -> SSAValue | None:
        make = self.leaves.get(name)
        return None if make is None else make()

    def arg_dim(self, i: int, axis: int) -> SSAValue:
        return self.dim_of(self.block.args[i], axis)

    def scalar(self, i: int) -> SSAValue:
        """The index value of scalar argument ``i`` (``tensor<i32>``, ``i64`` or ``index``)."""
        key = (self.block.args[i], -1)
        if key not in self.dims:
            value: SSAValue = self.block.args[i]
            if is_tensor(value.type):
                value = self._add(tensor.ExtractOp(value, [], value.type.element_type))
            if not isinstance(value.type, IndexType):
                value = self._add(arith.IndexCastOp(value, IndexType()))
            self.dims[key] = value
        return self.dims[key]

    def dim_of(self, value: SSAValue, axis: int) -> SSAValue:
        key = (value, axis)
        if key not in self.dims:
            self.dims[key] = self._add(tensor.DimOp(value, self.arith.constant(axis)))
        return self.dims[key]

    def _add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    # ------------------------------------------------------------------ shapes
    def shape(self, value: SSAValue) -> SSAValue | None:
        """``tensor.from_elements`` of the dims of ``value`` (None when it has no known shape)."""
        name = self.name_of.get(value)
        known = self.analysis.shape_or_none(name) if name else None
        rank = _shaped(value).get_num_dims()
        shape: tuple[Dim | None, ...] = known if known is not None and len(known) == rank else (None,) * rank
        elements = [self.one_dim(value, axis, d) for axis, d in enumerate(shape)]
        return self._add(tensor.FromElementsOp(*elements, result_type=TensorType(IndexType(), [rank])))

    def one_dim(self, value: SSAValue, axis: int, d: Dim | None) -> SSAValue:
        static = _shaped(value).get_shape()[axis]
        if static >= 0:
            return self.arith.constant(static)
        if d is not None and (isinstance(d, int) or all(s in self.leaves for s in d.free)):
            built = self.arith.build(d)
            if built is not None:
                return built
        return self.dim_of(self.mapper[value], axis)


def _has_ranked_values(fn: func.FuncOp) -> bool:
    body = fn.body.blocks.first
    return body is not None and any(ranked(r) for op in body.ops for r in op.results)


def ranked(value: SSAValue) -> bool:
    """A tensor of rank >= 1 (the values that get a shape)."""
    return is_tensor(value.type) and value.type.get_num_dims() >= 1


def _shaped(value: SSAValue) -> ShapedType:
    """The type of a value `ranked` accepted (only those get a shape function)."""
    return cast(ShapedType, value.type)


def drop_unused(block: Block, keep: Callable[[Operation], bool] = lambda _: False) -> None:
    """Erase copied ops whose results nobody uses (assertions included, unless ``keep`` says
    so), to a fixpoint."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.ops)):
            if op is block.last_op or any(r.uses for r in op.results) or keep(op):
                continue
            op.detach()
            op.erase()
            changed = True
