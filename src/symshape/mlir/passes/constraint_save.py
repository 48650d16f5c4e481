"""Save the analysis into the IR (seed 000's last step): encoded types, symbols, predicates.

Naming is canonical: walking the functions in module order (arguments, then ops, then the
signature), each distinct symbolic dim of a function gets the next ``@S<k>`` (the symbols a
compound dim is built from first, in sorted order), and a static size ``n`` is ``@C<n>``. The
same input gives the same bytes.

What is written:

* every ranked tensor value of a function's top level gets the encoding ``[@S0, @C10]`` (values
  in nested regions and the results of region-carrying ops other than reductions keep their
  types, so region terminators stay consistent);
* ``symshape.symbolic_dim`` per symbol: range (every symbol is a tensor size, so ``lo >= 0``),
  divisor, likely values, the ``known_*`` flags; ``value`` for constants;
* ``@shape_constraint_graph`` with:
  - the definition of each compound dim: ``mul_eq`` for a product of symbols, ``affine_eq``
    for an affine expression, ``eq`` with the expression built from ``arith`` ops otherwise;
  - the residual equations the solver kept: ``group_mul_eq`` for ``a*b == c*d``, else ``eq``;
  - the kept inequality and divisibility predicates (``le``/``lt``/``divisible``);
  - the guards still needed, as predicate ops with the unit attribute ``guard`` plus
    ``reason`` and ``origin`` strings (``>=`` as ``le`` with swapped operands, ``!=`` as ``ne``).
  Solved bindings are not printed: they are already substituted into every dim.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, Use
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.constraints import ConstraintGraph
from symshape.expr import Dim, Expr, Mono, Sym, add, as_symbol, from_terms, mul, sym
from symshape.mlir.dialects import constraint as c
from symshape.mlir.passes.dim_exprs import ArithBuilder, to_affine
from symshape.mlir.passes.function_shapes import FunctionShapes
from symshape.mlir.passes.ir_utils import with_type
from symshape.mlir.passes.optimize import retypable, top_level_ops


@dataclass
class Symbols:
    """Canonical symbol names for the dims of a module (see the module docstring)."""

    names: dict[tuple[int, Dim], str] = field(default_factory=dict[tuple[int, Dim], str])
    order: list[tuple[int, Dim, str]] = field(default_factory=list[tuple[int, Dim, str]])
    constants: set[int] = field(default_factory=set[int])

    def name(self, fi: int, d: Dim) -> str:
        """The symbol of dim ``d`` of function number ``fi`` (named on first use)."""
        if isinstance(d, int):
            self.constants.add(d)
            return constant_name(d)
        found = self.names.get((fi, d))
        if found is None:
            if as_symbol(d) is None:
                for s in sorted(d.free):
                    self.name(fi, sym(s))
            found = f"S{len(self.order)}"
            self.names[(fi, d)] = found
            self.order.append((fi, d, found))
        return found

    def has(self, fi: int, d: Dim) -> bool:
        """Whether ``d`` is a constant or already has a symbol."""
        return isinstance(d, int) or (fi, d) in self.names


def constant_name(k: int) -> str:
    """``C10`` (``Cm1`` for -1: a symbol name has no ``-``)."""
    return f"C{k}" if k >= 0 else f"Cm{-k}"


# ---------------------------------------------------------------- encodings


def _encoded(t: Attribute, dims: tuple[Dim, ...] | None, fi: int, symbols: Symbols) -> Attribute:
    if not isinstance(t, TensorType) or dims is None or t.get_num_dims() == 0 or len(dims) != t.get_num_dims():
        return t
    names = tuple(symbols.name(fi, d) for d in dims)
    return TensorType(t.element_type, t.get_shape(), c.make_encoding(names))


def encode_function(fs: FunctionShapes, fi: int, symbols: Symbols, rewriter: Rewriter) -> None:
    """Give every top-level tensor value of ``fs.func`` (and of the callees inlined into its
    analysis, which share its symbols) its ``[@S.., @C..]`` encoding."""
    for fn in (fs.func, *fs.callees):
        _encode(fs, fn, fi, symbols, rewriter)


def _encode(fs: FunctionShapes, fn: func.FuncOp, fi: int, symbols: Symbols, rewriter: Rewriter) -> None:
    entry = fn.body.blocks.first
    if entry is None:
        return
    for arg in list(entry.args):
        new_type = _encoded(arg.type, fs.dims(arg), fi, symbols)
        _retype(fs, rewriter, arg, new_type)
    for op in top_level_ops(fn):
        if not retypable(op):
            continue
        for res in list(op.results):
            _retype(fs, rewriter, res, _encoded(res.type, fs.dims(res), fi, symbols))
    _fix_signature(fn)


def _retype(fs: FunctionShapes, rewriter: Rewriter, value: SSAValue, new_type: Attribute) -> None:
    if value.type == new_type:
        return
    fs.moved(value, with_type(rewriter, value, new_type))


def _fix_signature(fn: func.FuncOp) -> None:
    """Function types follow the (encoded) argument and returned values' types."""
    entry = fn.body.blocks.first
    assert entry is not None
    ins = [a.type for a in entry.args]
    returns = [op for op in fn.body.walk() if isinstance(op, func.ReturnOp) and op.parent_op() is fn]
    outs = list(fn.function_type.outputs.data)
    if returns and all([v.type for v in r.arguments] == [v.type for v in returns[0].arguments] for r in returns):
        outs = [v.type for v in returns[0].arguments]
    fn.function_type = func.FunctionType.from_lists(ins, outs)


def fix_calls(module: ModuleOp, rewriter: Rewriter, shared: set[str]) -> None:
    """Casts where a call's operand or result type differs from its callee's (encodings).

    A call of a function in ``shared`` (inlined into its caller's analysis, so encoded with
    the caller's symbols) takes the callee's result types as they are.
    """
    callees = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    for call in [op for op in module.walk() if isinstance(op, func.CallOp)]:
        callee = callees.get(call.callee.root_reference.data)
        if callee is None:
            continue
        if callee.sym_name.data in shared:
            for res, want in zip(list(call.results), callee.function_type.outputs.data, strict=False):
                with_type(rewriter, res, want)
        sig = callee.function_type
        for i, (operand, want) in enumerate(zip(call.arguments, sig.inputs.data, strict=False)):
            if operand.type != want and isinstance(want, TensorType):
                cast = tensor.CastOp(operand, want)
                rewriter.insert_op(cast, InsertPoint.before(call))
                call.operands[i] = cast.dest
        for res, want in zip(list(call.results), sig.outputs.data, strict=False):
            if res.type != want and isinstance(want, TensorType):
                old = res.type
                value = with_type(rewriter, res, want)
                cast = tensor.CastOp(value, old)
                rewriter.insert_op(cast, InsertPoint.after(call))
                value.replace_uses_with_if(cast.dest, _not(cast))


def _not(op: Operation) -> Callable[[Use], bool]:
    return lambda use: use.operation is not op


# ---------------------------------------------------------------- predicates


@dataclass(frozen=True)
class Pred:
    """A predicate to write: ``kind`` names the op, ``args`` are dims of function ``fi``."""

    fi: int
    kind: str
    args: tuple[Dim, ...]
    split: int = 0  # group_mul_eq: the number of lhs operands; affine_eq: unused
    guard: tuple[str, str] | None = None  # (reason, origin)


def _definition(fi: int, d: Expr) -> Pred:
    atoms = d.terms[0][0] if len(d.terms) == 1 else ()
    if len(d.terms) == 1 and d.terms[0][1] == 1 and len(atoms) >= 2 and all(isinstance(a, Sym) for a in atoms):
        factors = tuple(sym(a.name) for a in atoms)  # type: ignore[union-attr]
        return Pred(fi, "mul_eq", (d, *factors))
    return Pred(fi, "define", (d,))


def _residual(fi: int, e: Dim) -> Pred | None:
    """``e == 0`` as ``group_mul_eq`` (two monomials) or ``eq`` of its positive/negative parts."""
    if not isinstance(e, Expr):
        return None
    pos: Dim = 0
    neg: Dim = 0
    for mono, coeff in e.terms:
        term = mul(_mono(mono), abs(coeff))
        if coeff > 0:
            pos = add(pos, term)
        else:
            neg = add(neg, term)
    groups = [_factors(pos), _factors(neg)]
    if groups[0] is not None and groups[1] is not None:
        return Pred(fi, "group_mul_eq", (*groups[0], *groups[1]), split=len(groups[0]))
    return Pred(fi, "eq", (pos, neg))


def _mono(mono: Mono) -> Dim:
    return from_terms({mono: 1})


def _factors(d: Dim) -> tuple[Dim, ...] | None:
    if isinstance(d, Expr) and len(d.terms) == 1 and d.terms[0][1] == 1 and d.terms[0][0]:
        atoms = d.terms[0][0]
        if all(isinstance(a, Sym) for a in atoms):
            return tuple(sym(a.name) for a in atoms)  # type: ignore[union-attr]
    return None


def _holds(graph: ConstraintGraph, lhs: Dim, rel: str, rhs: Dim) -> bool:
    """Whether the facts alone prove ``lhs rel rhs`` (so it need not be written)."""
    lhs, rhs = graph.canon(lhs), graph.canon(rhs)
    facts = graph.facts
    if rel == "divisible":
        return isinstance(rhs, int) and rhs > 0 and facts.divides(rhs, lhs)
    low = {"<=": 0, "<": 1}.get(rel)
    return low is not None and facts.prove_ge(add(rhs, mul(lhs, -1)), low)


def collect_predicates(fi: int, fs: FunctionShapes) -> list[Pred]:
    """The residuals, predicates and open guards of one function's analysis, public names."""
    analysis = fs.analysis
    graph = analysis.graph
    facts = graph.facts
    out: list[Pred] = []
    for r in graph.residuals:
        p = _residual(fi, analysis.public(r.expr))
        if p is not None:
            out.append(p)
    for p in graph.predicates:
        if _holds(graph, p.lhs, p.rel, p.rhs):
            continue  # implied by the symbols' facts (a divisor, a range)
        lhs, rhs = analysis.public(p.lhs), analysis.public(p.rhs)
        kind = {"<=": "le", "<": "lt", "divisible": "divisible"}.get(p.rel)
        if kind is not None and not (isinstance(lhs, int) and isinstance(rhs, int)):
            out.append(Pred(fi, kind, (lhs, rhs)))
    for g in graph.guards:
        lhs, rhs = graph.canon(g.lhs), graph.canon(g.rhs)
        if g.rel == "==" and facts.prove_eq(lhs, rhs) is True:
            continue
        if g.rel == ">=" and facts.prove_ge(add(lhs, mul(rhs, -1))):
            continue
        if g.rel == "!=" and facts.prove_eq(lhs, rhs) is False:
            continue
        kind, args = {"==": ("eq", (lhs, rhs)), ">=": ("le", (rhs, lhs)), "!=": ("ne", (lhs, rhs))}[g.rel]
        public = tuple(analysis.public(a) for a in args)
        out.append(Pred(fi, kind, public, guard=(g.reason, str(g.origin))))
    return out


# ---------------------------------------------------------------- the graph function


class GraphWriter:
    """Builds ``@shape_constraint_graph``: ``symshape.dim`` per symbol used, then the predicates."""

    def __init__(self, symbols: Symbols) -> None:
        self.symbols = symbols
        self.block = Block()
        self.dims: dict[str, c.DimOp] = {}
        self.constants: dict[int, SSAValue] = {}
        self.builders: dict[int, ArithBuilder] = {}
        self.seen: set[tuple[object, ...]] = set()
        self.count = 0

    def _builder(self, fi: int) -> ArithBuilder:
        if fi not in self.builders:
            self.builders[fi] = ArithBuilder(
                lambda name: self.symbol(self.symbols.name(fi, sym(name))), self.block.add_op, self.constants
            )
        return self.builders[fi]

    def symbol(self, name: str) -> SSAValue:
        """The ``symshape.dim @name`` value (created once; placed first by `function`)."""
        if name not in self.dims:
            op = c.DimOp(name)
            op.result.name_hint = name
            self.dims[name] = op
        return self.dims[name].result

    def value(self, fi: int, d: Dim) -> SSAValue:
        """The value of dim ``d``: its symbol when it has one, else built with ``arith``."""
        if isinstance(d, Expr) and (fi, d) in self.symbols.names:
            return self.symbol(self.symbols.names[(fi, d)])
        built = self._builder(fi).build(d)
        assert built is not None
        return built

    def write(self, p: Pred) -> None:
        """Append the op of ``p`` (duplicates are skipped)."""
        key = (p.fi, p.kind, tuple(str(a) for a in p.args), p.split, p.guard is not None)
        if key in self.seen:
            return
        self.seen.add(key)
        op = self._op(p)
        if p.guard is not None:
            op.attributes["guard"] = UnitAttr()
            op.attributes["reason"] = StringAttr(p.guard[0])
            op.attributes["origin"] = StringAttr(p.guard[1])
        self.block.add_op(op)
        self.count += 1

    def _op(self, p: Pred) -> Operation:
        fi = p.fi
        if p.kind == "define":
            assert isinstance(p.args[0], Expr)
            return self._define(fi, p.args[0])
        values = [self.value(fi, a) for a in p.args]
        if p.kind == "mul_eq":
            return c.TiePredicateMulEqOp.create(operands=values)
        if p.kind == "group_mul_eq":
            sizes = DenseArrayBase.from_list(i32, [p.split, len(values) - p.split])
            return c.TiePredicateGroupMulEqOp.create(operands=values, properties={"operandSegmentSizes": sizes})
        return BINARY[p.kind](values[0], values[1])

    def _define(self, fi: int, d: Expr) -> Operation:
        lhs = self.symbol(self.symbols.names[(fi, d)])
        syms = sorted(d.free, key=lambda s: int(self.symbols.name(fi, sym(s))[1:]))
        expr = to_affine(d, {s: i for i, s in enumerate(syms)})
        if expr is not None:
            operands = [self.symbol(self.symbols.name(fi, sym(s))) for s in syms]
            amap = AffineMapAttr(AffineMap(len(syms), 0, (expr,)))
            return c.TiePredicateAffineEqOp.create(operands=[lhs, *operands], properties={"map": amap})
        built = self._builder(fi).build(d)
        assert built is not None
        return c.TiePredicateEqOp(lhs, built)

    def function(self) -> func.FuncOp:
        """The finished ``@shape_constraint_graph``: symbol dims first, in symbol order."""
        order = sorted(self.dims, key=lambda n: (n[0] != "S", int(n[1:]) if n[1:].isdigit() else 0, n))
        first = self.block.first_op
        for name in order:
            if first is None:
                self.block.add_op(self.dims[name])
            else:
                self.block.insert_op_before(self.dims[name], first)
        self.block.add_op(func.ReturnOp())
        return func.FuncOp(c.GRAPH_FUNCTION, ((), ()), Region(self.block))


BINARY: dict[str, type[c.BinaryPredicate]] = {
    "eq": c.TiePredicateEqOp,
    "ne": c.TiePredicateNeOp,
    "le": c.TiePredicateLeOp,
    "lt": c.TiePredicateLtOp,
    "divisible": c.TiePredicateDivisibleOp,
}


# ---------------------------------------------------------------- symbols


def symbol_op(name: str, d: Dim, fs: FunctionShapes | None) -> c.SymbolicDimOp:
    """``symshape.symbolic_dim @name`` with the facts the analysis has about ``d``."""
    attrs: dict[str, Attribute] = {}
    if isinstance(d, int):
        attrs["value"] = IntegerAttr(d, i64)
        return c.SymbolicDimOp.create(properties={"sym_name": StringAttr(name)}, attributes=attrs)
    assert fs is not None
    facts = fs.analysis.graph.facts
    private = fs.private(d)
    lo, hi = facts.bounds(private)
    lo = 0 if lo is None or lo < 0 else lo  # every symbol here is a tensor size
    divisor = facts.divisor_of(private) if isinstance(private, Expr) else 1
    attrs["lo"] = IntegerAttr(lo, i64)
    if hi is not None:
        attrs["hi"] = IntegerAttr(hi, i64)
    if divisor > 1:
        attrs["divisor"] = IntegerAttr(divisor, i64)
    name_ = as_symbol(private)
    likely = facts.get(name_).likely if name_ is not None else ()
    if likely:
        attrs["likely"] = DenseArrayBase.from_list(i64, list(likely))
    attrs["known_non_negative"] = UnitAttr()
    if lo >= 1:
        attrs["known_non_zero"] = UnitAttr()
    if lo >= 2 or (hi is not None and hi < 1) or divisor > 1:
        attrs["known_not_one"] = UnitAttr()
    return c.SymbolicDimOp.create(properties={"sym_name": StringAttr(name)}, attributes=attrs)


def save_constraints(module: ModuleOp, functions: list[FunctionShapes]) -> None:
    """Encode types, then write the symbols and ``@shape_constraint_graph`` into ``module``."""
    rewriter = Rewriter()
    symbols = Symbols()
    for fi, fs in enumerate(functions):
        encode_function(fs, fi, symbols, rewriter)
    fix_calls(module, rewriter, {f.sym_name.data for fs in functions for f in fs.callees})
    for fs in functions:
        _fix_signature(fs.func)
    extra: list[Pred] = []
    for fi, fs in enumerate(functions):
        extra.extend(collect_predicates(fi, fs))
    for p in extra:  # name the plain symbols the predicates mention, in order
        for a in p.args:
            if isinstance(a, Expr):
                for s in sorted(a.free):
                    symbols.name(p.fi, sym(s))
    definitions = [_definition(fi, d) for fi, d, _ in symbols.order if isinstance(d, Expr) and as_symbol(d) is None]
    writer = GraphWriter(symbols)
    for p in [*definitions, *extra]:
        writer.write(p)
    block = module.body.block
    head = block.first_op
    symbol_ops = [symbol_op(name, d, functions[fi]) for fi, d, name in symbols.order]
    symbol_ops += [symbol_op(constant_name(k), k, None) for k in sorted(symbols.constants)]
    for op in symbol_ops:
        if head is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, head)
    if writer.count:
        block.add_op(writer.function())


__all__ = ["Symbols", "save_constraints"]
