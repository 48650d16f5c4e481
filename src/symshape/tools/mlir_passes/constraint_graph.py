"""The constraint-graph function of the save stage: which predicates, and how they are written.

* the definition of each compound dim: ``mul_eq`` for a product of symbols, ``affine_eq`` for
  an affine expression, ``eq`` with the expression built from ``arith`` ops otherwise;
* the residual equations the solver kept: ``group_mul_eq`` for ``a*b == c*d``, else ``eq``;
* the kept inequality and divisibility predicates (``le``/``lt``/``divisible``) the facts do not
  already imply;
* the guards still needed, as predicate ops with the unit attribute ``guard`` plus ``reason``
  and ``origin`` strings (``>=`` as ``le`` with swapped operands, ``!=`` as ``ne``).

Solved bindings are not written: they are already substituted into every dim.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, StringAttr, UnitAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from symshape.algebra.expr import Dim, Expr, Mono, Sym, add, as_symbol, from_terms, mul, sym
from symshape.engine.constraints import ConstraintGraph
from symshape.ir.dialects import constraint as c
from symshape.tools.mlir_passes.dim_exprs import ArithBuilder, to_affine
from symshape.tools.mlir_passes.function_shapes import FunctionShapes


@dataclass
class Symbols:
    """Canonical symbol names for the dims of a module (the rules: `symshape.tools.mlir_passes.constraint_save`)."""

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


# ---------------------------------------------------------------- predicates


@dataclass(frozen=True)
class Pred:
    """A predicate to write: ``kind`` names the op, ``args`` are dims of function ``fi``."""

    fi: int
    kind: str
    args: tuple[Dim, ...]
    split: int = 0  # group_mul_eq: the number of lhs operands; affine_eq: unused
    guard: tuple[str, str] | None = None  # (reason, origin)


def definition(fi: int, d: Expr) -> Pred:
    """How compound dim ``d`` is defined from its symbols."""
    atoms = d.terms[0][0] if len(d.terms) == 1 else ()
    names = [a.name for a in atoms if isinstance(a, Sym)]
    if len(d.terms) == 1 and d.terms[0][1] == 1 and len(atoms) >= 2 and len(names) == len(atoms):
        factors = tuple(sym(n) for n in names)
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
        names = [a.name for a in atoms if isinstance(a, Sym)]
        if len(names) == len(atoms):
            return tuple(sym(n) for n in names)
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
        if graph.decide(lhs, g.rel, rhs):
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
