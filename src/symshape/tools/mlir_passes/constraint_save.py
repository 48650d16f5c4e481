"""Save the analysis into the IR (seed 000's last step): encoded types, symbols, predicates.

Naming is canonical: walking the functions in module order (arguments, then ops, then the
signature), each distinct symbolic dim of a function gets the next ``@S<k>`` (the symbols a
compound dim is built from first, in sorted order), and a static size ``n`` is ``@C<n>``. The
same input gives the same bytes.

What is written:

* every ranked tensor value of a function's top level (and of the callees inlined into its
  analysis) gets the encoding ``[@S0, @C10]``; values in nested regions and the results of
  region-carrying ops other than reductions keep their types, so region terminators stay
  consistent; calls of other functions get casts where the encodings differ;
* ``symshape.symbolic_dim`` per symbol: range (a size: ``lo`` defaults to 0), divisor, likely
  values, the ``known_*`` flags; ``value`` for constants;
* ``@shape_constraint_graph`` with the predicates (`symshape.tools.mlir_passes.constraint_graph`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue, Use
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.algebra.expr import Dim, Expr, as_symbol, sym
from symshape.frontends.mlir.attributes import is_tensor
from symshape.ir.dialects import constraint as c
from symshape.tools.mlir_passes.constraint_graph import (
    GraphWriter,
    Pred,
    Symbols,
    collect_predicates,
    constant_name,
    definition,
)
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import op_name, with_type
from symshape.tools.mlir_passes.optimize import RIGID_HLO, SCALAR_BODY_OPS, TOLERANT, is_hlo, retypable, top_level_ops

# ---------------------------------------------------------------- encodings


def _encoded(t: Attribute, dims: tuple[Dim, ...] | None, fi: int, symbols: Symbols) -> Attribute:
    """``t`` with the symbols of ``dims`` as its encoding; a type that has an encoding of its own
    (``#stablehlo.bounds<16>``: the verifier and the compiler read it) keeps it, and its type."""
    if not is_tensor(t) or dims is None or t.get_num_dims() == 0 or len(dims) != t.get_num_dims():
        return t
    if c.foreign_encoding(t.encoding):
        return t
    return _with_encoding(t, tuple(symbols.name(fi, d) for d in dims))


@functools.lru_cache(maxsize=4096)
def _with_encoding(t: TensorType[Attribute], names: tuple[str, ...]) -> TensorType[Attribute]:
    """Cached: building (and verifying) an xDSL type was an eighth of the pass on 10k ops."""
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
    ops = top_level_ops(fn)  # before any cast back is inserted: those keep their types
    for arg in list(entry.args):
        new_type = _encoded(arg.type, fs.dims(arg), fi, symbols)
        _retype(fs, rewriter, arg, new_type, fn)
    for op in ops:
        if not retypable(op):
            continue
        for res in list(op.results):
            dims = fs.dims(res)
            if dims is None and isinstance(op, tensor.CastOp):  # a cast the pass made: its operand's dims
                dims = fs.dims(op.source)
            _retype(fs, rewriter, res, _encoded(res.type, dims, fi, symbols), fn)
    _fix_signature(fn)


def _retype(fs: FunctionShapes, rewriter: Rewriter, value: SSAValue, new_type: Attribute, fn: func.FuncOp) -> None:
    """Give ``value`` its encoded type; a user that needs the old type exactly gets a cast back."""
    old = value.type
    if old == new_type:
        return
    new_value = with_type(rewriter, value, new_type)
    fs.moved(value, new_value)
    if not is_tensor(old):
        return
    casts: dict[Operation, SSAValue] = {}  # one cast back per user
    for use in list(new_value.uses):
        user = use.operation
        if keeps_encoding(user, fn) and use.index not in SAME_TYPE_OPERANDS.get(op_name(user).split(".", 1)[-1], ()):
            continue
        if user not in casts:
            cast = tensor.CastOp(new_value, old)
            rewriter.insert_op(cast, InsertPoint.before(user))
            casts[user] = cast.dest
        user.operands[use.index] = casts[user]


SAME_TYPE_OPERANDS = {"real_dynamic_slice": (1, 2, 3), "dynamic_pad": (2, 3, 4)}
"""HLO operands whose types must all be equal (``AllTypesMatch``): a constant among them has no
encoding, so each keeps its declared type (a cast back where it gained an encoding)."""


def keeps_encoding(op: Operation, fn: func.FuncOp) -> bool:
    """Whether ``op`` accepts an operand whose type gained an encoding: a return of ``fn`` (its
    signature follows), a call (`fix_calls` casts), a shape query, or an HLO op whose verifier
    compares shapes and element types only. Anything else (``arith`` on tensors, a region's
    yield, ``stablehlo.tuple``) would see a type it did not declare."""
    name = op_name(op)
    if name in TOLERANT or name == "func.call":
        return True
    if name == "func.return":
        return op.parent_op() is fn
    if is_hlo(op):
        short = name.split(".", 1)[1]
        return short not in RIGID_HLO and (not op.regions or short in SCALAR_BODY_OPS)
    return False


def _fix_signature(fn: func.FuncOp) -> None:
    """Function types follow the (encoded) argument and returned values' types."""
    entry = fn.body.blocks.first
    assert entry is not None
    ins = [a.type for a in entry.args]
    returns = [op for op in fn.body.walk() if isinstance(op, func.ReturnOp) and op.parent_op() is fn]
    outs = list(fn.function_type.outputs.data)
    for k, declared in enumerate(outs):
        returned = {r.arguments[k].type for r in returns if k < len(r.arguments)}
        if len(returned) == 1:
            outs[k] = returned.pop()
        else:  # blocks return different encodings: each is cast back to the declared type
            for r in returns:
                value = r.arguments[k]
                if value.type != declared and is_tensor(declared) and is_tensor(value.type):
                    cast = tensor.CastOp(value, declared)
                    Rewriter.insert_op(cast, InsertPoint.before(r))
                    r.operands[k] = cast.dest
    fn.function_type = FunctionType.from_lists(ins, outs)


def fix_calls(module: ModuleOp, rewriter: Rewriter, shared: set[str]) -> None:
    """Casts where a call's operand or result type differs from its callee's (encodings).

    A call of a function in ``shared`` (inlined into its caller's analysis, so encoded with
    the caller's symbols) takes the callee's result types as they are. A
    ``stablehlo.composite`` is a call of its ``decomposition`` function.
    """
    for scope in [op for op in module.walk() if isinstance(op, ModuleOp)]:
        _fix_calls_in(scope, rewriter, shared)


def _fix_calls_in(scope: ModuleOp, rewriter: Rewriter, shared: set[str]) -> None:
    """`fix_calls` for the functions of one module (a call names a function of its own module:
    two nested modules may each have a ``@g``)."""
    callees = {op.sym_name.data: op for op in scope.ops if isinstance(op, func.FuncOp)}
    _shared_results(rewriter, callees, shared)
    for call in _calls(callees):
        callee = callees.get(callee_name(call) or "")
        if callee is None:
            continue
        sig = callee.function_type
        for i, (operand, want) in enumerate(zip(call.operands, sig.inputs.data, strict=False)):
            if operand.type != want and is_tensor(want):
                cast = tensor.CastOp(operand, want)
                rewriter.insert_op(cast, InsertPoint.before(call))
                call.operands[i] = cast.dest
        for res, want in zip(list(call.results), sig.outputs.data, strict=False):
            old = res.type
            if old != want and is_tensor(want) and is_tensor(old):
                value = with_type(rewriter, res, want)
                cast = tensor.CastOp(value, old)
                rewriter.insert_op(cast, InsertPoint.after(call))
                value.replace_uses_with_if(cast.dest, _not(cast))


def _calls(callees: dict[str, func.FuncOp]) -> list[Operation]:
    """Every op of these functions (the calls among them name these functions)."""
    return [op for fn in callees.values() for op in fn.walk()]


def _shared_results(rewriter: Rewriter, callees: dict[str, func.FuncOp], shared: set[str]) -> None:
    """Calls of ``shared`` functions take their callee's result types, and a caller that returns
    such a result takes the type in its signature, which its own callers then take: repeated
    until nothing changes (a call chain is at most as long as the number of functions)."""
    for _ in range(len(callees) + 1):
        changed = False
        for call in _calls(callees):
            callee = callees.get(callee_name(call) or "")
            if callee is None or callee.sym_name.data not in shared:
                continue
            for res, want in zip(list(call.results), callee.function_type.outputs.data, strict=False):
                if res.type != want:
                    with_type(rewriter, res, want)
                    changed = True
        if not changed:
            return
        for fn in callees.values():
            if fn.body.blocks.first is not None:
                _fix_signature(fn)


def callee_name(op: Operation) -> str | None:
    """The function ``op`` calls: a ``func.call``'s callee, a ``composite``'s decomposition."""
    if isinstance(op, func.CallOp):
        return op.callee.root_reference.data
    if op_name(op).endswith(".composite"):
        ref = op.attributes.get("decomposition") or op.properties.get("decomposition")
        return ref.root_reference.data if isinstance(ref, SymbolRefAttr) else None
    return None


def _not(op: Operation) -> Callable[[Use], bool]:
    return lambda use: use.operation is not op


# ---------------------------------------------------------------- symbols


def symbol_bounds(fs: FunctionShapes, d: Dim) -> tuple[int, int | None]:
    """The range written for symbolic dim ``d``: its bounds, ``lo >= 0`` (it is a size)."""
    lo, hi = fs.analysis.graph.facts.bounds(fs.private(d))
    return (0 if lo is None or lo < 0 else lo), hi


def _implied_by_symbol(p: Pred, symbols: Symbols, functions: list[FunctionShapes]) -> bool:
    """``k <= S`` / ``S <= k`` (and ``<``) already said by the range of a symbol ``S``."""
    if p.kind not in ("le", "lt") or p.guard is not None:
        return False
    lhs, rhs = p.args
    strict = 1 if p.kind == "lt" else 0
    if isinstance(lhs, int) and isinstance(rhs, Expr) and symbols.has(p.fi, rhs):
        return lhs + strict <= symbol_bounds(functions[p.fi], rhs)[0]
    if isinstance(rhs, int) and isinstance(lhs, Expr) and symbols.has(p.fi, lhs):
        hi = symbol_bounds(functions[p.fi], lhs)[1]
        return hi is not None and hi + strict <= rhs
    return False


def symbol_op(name: str, d: Dim, fs: FunctionShapes | None) -> c.SymbolicDimOp:
    """``symshape.symbolic_dim @name`` with the facts the analysis has about ``d``."""
    attrs: dict[str, Attribute] = {}
    if isinstance(d, int):
        attrs["value"] = IntegerAttr(d, i64)
        return c.SymbolicDimOp.create(properties={"sym_name": StringAttr(name)}, attributes=attrs)
    assert fs is not None
    facts = fs.analysis.graph.facts
    private = fs.private(d)
    lo, hi = symbol_bounds(fs, d)
    divisor = facts.divisor_of(private) if isinstance(private, Expr) else 1
    if lo > 0:
        attrs["lo"] = IntegerAttr(lo, i64)
    if hi is not None:
        attrs["hi"] = IntegerAttr(hi, i64)
    if divisor > 1:
        attrs["divisor"] = IntegerAttr(divisor, i64)
    name_ = as_symbol(private)
    likely = facts.get(name_).likely if name_ is not None else ()
    if likely:
        attrs["likely"] = DenseArrayBase.from_list(i64, list(likely))
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
    writer = GraphWriter(symbols)
    for p in _all_predicates(functions, symbols):
        writer.write(p)
    _insert_symbols(module, symbols, functions)
    if writer.count:
        module.body.block.add_op(writer.function())


def _all_predicates(functions: list[FunctionShapes], symbols: Symbols) -> list[Pred]:
    """Definitions of compound symbols, then each function's residuals, predicates, guards."""
    extra = [p for fi, fs in enumerate(functions) for p in collect_predicates(fi, fs)]
    for p in extra:  # name the plain symbols the predicates mention, in order
        for a in p.args:
            for s in sorted(a.free if isinstance(a, Expr) else ()):
                symbols.name(p.fi, sym(s))
    definitions = [definition(fi, d) for fi, d, _ in symbols.order if isinstance(d, Expr) and as_symbol(d) is None]
    return [p for p in [*definitions, *extra] if not _implied_by_symbol(p, symbols, functions)]


def _insert_symbols(module: ModuleOp, symbols: Symbols, functions: list[FunctionShapes]) -> None:
    """The ``symshape.symbolic_dim`` ops at the top of the module: ``@S<k>`` in order, then
    the constants by value."""
    block = module.body.block
    head = block.first_op
    ops = [symbol_op(name, d, functions[fi]) for fi, d, name in symbols.order]
    ops += [symbol_op(constant_name(k), k, None) for k in sorted(symbols.constants)]
    for op in ops:
        if head is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, head)


__all__ = ["Symbols", "save_constraints"]
