"""Load the constraint IR a module already carries, as fact values (seed 000's step 2).

What a previous run (or a user, or a frontend) wrote is read and then removed, so the pass can
write it afresh: the ``symshape.symbolic_dim`` ops, the ``@shape_constraint_graph`` function,
and the ``[@S0, @C10]`` encodings of tensor types. ``symshape.tie_shape`` ops stay for the
analysis (their rule makes them facts) and go afterwards (`remove_tie_shapes`). The rest becomes
fact values (`symshape.engine.userfacts`) over each function's argument symbols:

* arguments whose encodings share a symbol have equal dims; ``@C10`` pins a dim to 10;
* a symbol bound to an argument dim lends it its range, divisor and likely values (unless a
  definition makes it a compound of other symbols: its range then follows from theirs);
* each predicate (eq, lt, le, mul_eq, group_mul_eq, affine_eq, divisible) whose symbols are all
  bound to argument dims becomes that relation between them.

Symbols of intermediate values are not bound to anything the analysis can name before it runs;
their predicates are derived again from the ops. Guards are not loaded as facts: they are
assumptions, and the analysis makes them again where they are still needed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from symshape.algebra.expr import Dim, as_symbol, free_symbols, product, subs, sym
from symshape.engine.constraints import ConstraintGraph
from symshape.engine.context import State
from symshape.engine.program import Program
from symshape.engine.userfacts import Divisible, Fact, Likely, Range, relation
from symshape.errors import ModelError, where_op
from symshape.frontends.mlir.attributes import is_tensor
from symshape.ir.dialects import constraint as c
from symshape.memory import OfKind
from symshape.rules.walker import input_symbols
from symshape.tools.mlir_passes.dim_exprs import ArithReader, from_affine
from symshape.tools.mlir_passes.ir_utils import data_functions, map_function_types, nested_ops, op_name

_CONSTANT = re.compile(r"C\d+")


@dataclass(frozen=True)
class LoadedSymbol:
    """The facts of one ``symshape.symbolic_dim``."""

    lo: int | None
    hi: int | None
    divisor: int
    likely: tuple[int, ...]
    value: int | None


@dataclass(frozen=True)
class LoadedRelation:
    """``lhs rel rhs`` over symbol names (rel: ==, !=, <, <=, divisible); ``defines`` names the
    symbol a definition gives a value to."""

    lhs: Dim
    rel: str
    rhs: Dim
    guard: bool = False
    defines: str | None = None


@dataclass
class LoadedConstraints:
    """The constraint IR of a module, by symbol name."""

    symbols: dict[str, LoadedSymbol] = field(default_factory=dict[str, LoadedSymbol])
    relations: list[LoadedRelation] = field(default_factory=list[LoadedRelation])
    encodings: dict[str, list[tuple[str, ...] | None]] = field(default_factory=dict[str, list[tuple[str, ...] | None]])
    results: dict[str, list[tuple[Operation, int, tuple[str, ...]]]] = field(
        default_factory=dict[str, list[tuple[Operation, int, tuple[str, ...]]]]
    )

    def facts_for(self, fn_name: str, program: Program, arg_names: Sequence[str]) -> list[Fact]:
        """The facts for function ``fn_name``; ``arg_names[i]`` is argument i's program name."""
        encodings = self.encodings.get(fn_name)
        if not encodings:
            return []
        arg_dims = argument_dims(program)
        env: dict[str, Dim] = {}
        equalities: list[Fact] = []
        for name, names in zip(arg_names, encodings, strict=False):
            dims = arg_dims.get(name)
            if names is None or dims is None or len(dims) != len(names):
                continue
            for d, symbol in zip(dims, names, strict=True):
                known = self._value(symbol, env)
                if known is None:
                    env[symbol] = d
                elif known is not d and known != d:
                    equalities.append(relation(d, "==", known))
        facts = self._symbol_facts(env)
        facts.extend(equalities)
        facts.extend(self._relation_facts(env))
        return list(dict.fromkeys(facts))

    def constant(self, symbol: str) -> int | None:
        """The value of a constant symbol (``@C10``), else None."""
        info = self.symbols.get(symbol)
        if info is not None and info.value is not None:
            return info.value
        if info is None and _CONSTANT.fullmatch(symbol):
            return int(symbol[1:])
        return None

    def _value(self, symbol: str, env: dict[str, Dim]) -> Dim | None:
        k = self.constant(symbol)
        return k if k is not None else env.get(symbol)

    def argument_symbols(self, fn_name: str) -> set[str]:
        """The symbols the encodings of ``fn_name``'s arguments mention."""
        return {n for names in self.encodings.get(fn_name, []) if names for n in names}

    def _symbol_facts(self, env: dict[str, Dim]) -> list[Fact]:
        defined = {r.defines for r in self.relations if r.defines is not None}
        out: list[Fact] = []
        for symbol, d in env.items():
            info = self.symbols.get(symbol)
            name = as_symbol(d)
            if info is None or name is None or symbol in defined:
                continue
            if info.lo is not None or info.hi is not None:
                out.append(Range(name, info.lo, info.hi))
            if info.divisor > 1:
                out.append(Divisible(d, info.divisor))
            if info.likely:
                out.append(Likely(name, info.likely))
        return out

    def _relation_facts(self, env: dict[str, Dim]) -> list[Fact]:
        constants = {n: info.value for n, info in self.symbols.items() if info.value is not None}
        mapping: dict[str, Dim] = {**constants, **env}
        out: list[Fact] = []
        for r in self.relations:
            if r.guard or r.rel == "!=" or any(free_symbols(d) - mapping.keys() for d in (r.lhs, r.rhs)):
                continue
            lhs, rhs = subs(r.lhs, mapping), subs(r.rhs, mapping)
            if r.rel == "divisible":
                if isinstance(rhs, int) and rhs > 0:
                    out.append(Divisible(lhs, rhs))
                continue
            if isinstance(lhs, int) and isinstance(rhs, int):
                continue
            out.append(relation(lhs, r.rel, rhs))
        return out


def argument_dims(program: Program) -> dict[str, tuple[Dim, ...]]:
    """Each program input's dims exactly as the analysis will name them."""
    graph = ConstraintGraph()
    state = State(graph)
    input_symbols(program, graph, state)
    return {name: state.shapes[name] for name in program.inputs if name in state.shapes}


# ------------------------------------------------------------------ reading


def _symbol_facts(op: c.SymbolicDimOp) -> LoadedSymbol:
    lo, hi = op.bounds()
    divisor = op.divisor.value.data if op.divisor is not None else 1
    value = op.value.value.data if op.value is not None else None
    return LoadedSymbol(lo, hi, divisor, op.likely_values(), value)


def _read_graph(fn: func.FuncOp, symbols: dict[str, LoadedSymbol]) -> list[LoadedRelation]:
    def leaf(value: SSAValue) -> Dim | None:
        op = value.owner
        if isinstance(op, c.DimOp):
            name = op.sym.root_reference.data
            info = symbols.get(name)
            return info.value if info is not None and info.value is not None else sym(name)
        return None

    reader = ArithReader(leaf)

    def read(value: SSAValue) -> Dim:
        d = reader.read(value)
        if d is None:
            owner = value.owner
            what = op_name(owner) if isinstance(owner, Operation) else "a block argument"
            raise ModelError(
                where=where_op("func", "func", f"@{c.GRAPH_FUNCTION}"),
                found=f"a predicate operand is computed by {what}",
                expected="operands built from symshape.dim, arith.constant and integer arith ops only",
                fix="compute the operand in the constraint graph from those ops, or drop the predicate",
            )
        return d

    out: list[LoadedRelation] = []
    for op in nested_ops(fn.body):
        rel = _relation(op, read)
        if rel is not None:
            out.append(rel)
    return out


def _relation(op: Operation, read: Callable[[SSAValue], Dim]) -> LoadedRelation | None:
    guard = "guard" in op.attributes
    defines = None
    if not guard and isinstance(op, (c.TiePredicateAffineEqOp, c.TiePredicateMulEqOp, c.TiePredicateEqOp)):
        lhs_owner = op.operands[0].owner
        if isinstance(lhs_owner, c.DimOp) and not (
            isinstance(op, c.TiePredicateEqOp) and isinstance(op.operands[1].owner, c.DimOp)
        ):
            defines = lhs_owner.sym.root_reference.data
    if isinstance(op, c.TiePredicateMulEqOp):
        return LoadedRelation(read(op.lhs), "==", product(read(f) for f in op.factors), defines=defines)
    if isinstance(op, c.TiePredicateGroupMulEqOp):
        return LoadedRelation(product(read(v) for v in op.lhs), "==", product(read(v) for v in op.rhs))
    if isinstance(op, c.TiePredicateAffineEqOp):
        operands = [read(v) for v in op.operands_]
        return LoadedRelation(read(op.lhs), "==", from_affine(op.map.data.results[0], operands), defines=defines)
    rels: dict[type[Operation], str] = {
        c.TiePredicateEqOp: "==",
        c.TiePredicateNeOp: "!=",
        c.TiePredicateLtOp: "<",
        c.TiePredicateLeOp: "<=",
        c.TiePredicateDivisibleOp: "divisible",
    }
    rel = rels.get(type(op))
    if rel is None:
        return None
    assert isinstance(op, c.BinaryPredicate)
    return LoadedRelation(read(op.lhs), rel, read(op.rhs), guard=guard, defines=defines)


def _strip(t: Attribute) -> Attribute:
    if is_tensor(t) and c.symbol_encoding(t.encoding) is not None:  # None unless an ArrayAttr of symbols
        return TensorType(t.element_type, t.get_shape())
    return t


def load_constraints(module: ModuleOp) -> LoadedConstraints:
    """Read the module's constraint IR (see the module docstring), then remove it."""
    out = LoadedConstraints()
    graphs: list[func.FuncOp] = []
    for op in list(module.ops):
        if isinstance(op, c.SymbolicDimOp):
            out.symbols[op.sym_name.data] = _symbol_facts(op)
            op.detach()
            op.erase()
        elif isinstance(op, func.FuncOp) and op.sym_name.data == c.GRAPH_FUNCTION:
            graphs.append(op)
    for fn in graphs:
        out.relations.extend(_read_graph(fn, out.symbols))
        fn.detach()
        fn.erase()
    rewriter = Rewriter()
    for fn in data_functions(module):
        out.encodings[fn.sym_name.data] = [
            c.symbol_encoding(t.encoding) if isinstance(t, TensorType) else None for t in fn.function_type.inputs.data
        ]
        out.results[fn.sym_name.data] = [
            (op, i, names)
            for block in fn.body.blocks
            for op in block.ops
            for i, r in enumerate(op.results)
            if is_tensor(r.type) and (names := c.symbol_encoding(r.type.encoding)) is not None
        ]
        map_function_types(rewriter, fn, _strip)
    return out


def remove_tie_shapes(module: ModuleOp) -> None:
    """Replace each ``symshape.tie_shape`` by its operand (after the analysis read it: the
    encoded types say the same from then on)."""
    for fn in data_functions(module):
        is_tie = OfKind(c.TieShapeOp)
        for tie in [op for op in nested_ops(fn.body) if is_tie(op)]:
            tie.result.replace_all_uses_with(tie.value)
            Rewriter.erase_op(tie)


def argument_names(values: dict[str, SSAValue], fn: func.FuncOp) -> list[str]:
    """The program name of each argument of ``fn`` ('' when the frontend has none)."""
    by_value = {v: k for k, v in values.items()}
    entry = fn.body.blocks.first
    if entry is None:
        return []
    return [by_value.get(a, "") for a in entry.args]


__all__ = ["LoadedConstraints", "argument_names", "load_constraints", "remove_tie_shapes"]
