"""``expand-function-dynamic-dims``: seed 002's function signature expansion.

Every function gains one ``index`` argument per ``?`` dim of its tensor arguments (placed right
after the tensor) and one ``index`` result per ``?`` dim of its results (right after the result)::

    func.func @f(%x: tensor<?x4xf32>) -> tensor<?x4xf32>
    // becomes
    func.func @f(%x: tensor<?x4xf32>, %x_d0: index) -> (tensor<?x4xf32>, index) {
      %c4 = arith.constant 4 : index
      %0 = "symshape.tie_shape"(%x, %x_d0, %c4) : (tensor<?x4xf32>, index, index) -> tensor<?x4xf32>
      ...
      func.return %r, %d : tensor<?x4xf32>, index

``symshape.tie_shape %t, %d0, %d1`` ties the index values to the tensor's dims and asserts that
they are equal, as IREE's ``tie_shape`` does: it is the function's precondition, and symshape's
analysis and ``shape-optimization`` take it as a fact (a lowering may turn it into a run-time
check). A caller this pass rewrites meets it by construction for each dim it passes (the
operand's own dim); in the deduplicated form the other dims of a class equal that one whenever
the call is valid, since the class is what the callee's ops require (or what the module's
constraint IR and the user's facts state).

Each returned dim is the analysis's expression over the argument dims, written as ``arith`` ops
(`symshape.tools.mlir_passes.dim_exprs.ArithBuilder`) where the arguments determine it, else
``tensor.dim`` of the returned tensor, which is tied to those dims. A computed dim is proven
from the function's ops, under the analysis's guards when it has some: those are listed on the
function as ``symshape.assumes = ["in_d1 >= 1 (real_dynamic_slice ...)", ...]``.

With ``dedupe=true``, or when the module carries the constraint IR `shape-optimization` saves
(its types name the classes already), a function gets one argument per *equivalence class* of
its argument dims rather than one per dim (`symshape.tools.mlir_passes.expand_signatures`).

Callers in the module (``func.call``) pass each dim as the caller's own tied index value when
the operand is a tied tensor, else as ``tensor.dim`` of the operand, and tie the call's results
to the returned dims. Private declarations gain the same arguments and results (from their
types); calls to functions the module does not define or declare are left alone, and so is a
function another op names by symbol (a ``stablehlo.composite`` decomposition): that op fixes its
signature. A function
already expanded (``symshape.expanded_dims``) is left alone, so running the pass twice is the
same as once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from symshape.algebra.expr import Dim
from symshape.engine.userfacts import Fact
from symshape.frontends.mlir.attributes import is_tensor
from symshape.ir.dialects import constraint as c
from symshape.tools.mlir_passes.dim_exprs import ArithBuilder
from symshape.tools.mlir_passes.expand_signatures import (
    ASSUMES,
    EXPANDED,
    Signature,
    Slot,
    carries_constraints,
    plan_signatures,
)


@dataclass(frozen=True)
class ExpandFunctionDynamicDimsPass(ModulePass):
    """Give every function explicit ``index`` arguments and results for its dynamic dims."""

    name = "expand-function-dynamic-dims"

    REWRITES: ClassVar[frozenset[str]] = frozenset({"func.*", "arith.*", "tensor.*", "symshape.*"})
    """Ops this pass may create, erase or change: the signatures, calls and returns it expands, and
    the index computations and ties of the dims it passes."""

    facts: tuple[Fact, ...] = ()

    dedupe: bool = False
    """One argument per equivalence class of argument dims (automatic on a module that carries
    shape-optimization's constraint IR)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sigs = plan_signatures(op, self.dedupe or carries_constraints(op), self.facts)
        sigs = {name: sig for name, sig in sigs.items() if not sig.is_trivial()}
        funcs = {f.sym_name.data: f for f in op.ops if isinstance(f, func.FuncOp)}
        consts = {fn: _Constants(fn) for fn in funcs.values()}
        bodies: list[tuple[func.FuncOp, Signature, dict[Slot, SSAValue]]] = []
        for name, sig in sigs.items():
            fn = funcs[name]
            if fn.body.blocks:
                bodies.append((fn, sig, _expand_arguments(fn, sig, consts[fn])))
        for fn in funcs.values():
            for call in [o for o in fn.body.walk() if isinstance(o, func.CallOp)]:
                sig = sigs.get(call.callee.root_reference.data)
                if sig is not None and not call.callee.nested_references.data:
                    _expand_call(call, sig, consts[fn])
        for fn, sig, args in bodies:
            _expand_results(fn, sig, args, consts[fn])
        for name, sig in sigs.items():
            _expand_type(funcs[name], sig)


# ------------------------------------------------------------------ helpers


class _Constants:
    """What one function's edits share: ``arith.constant k : index`` at its start (one per
    ``k``, so they dominate every use) and the ``tensor.dim`` ops already made (`dim_value`)."""

    def __init__(self, fn: func.FuncOp) -> None:
        self.fn = fn
        self.values: dict[int, SSAValue] = {}
        self.last: Operation | None = None
        self.dims: dict[tuple[SSAValue, int], tensor.DimOp] = {}

    def __call__(self, k: int) -> SSAValue:
        if k not in self.values:
            op = arith.ConstantOp(IntegerAttr(k, IndexType()))
            op.result.name_hint = f"c{k}"
            self.place(op)
            self.values[k] = op.result
        return self.values[k]

    def place(self, op: Operation) -> None:
        """Put a new constant op after the ones already at the start of the function."""
        entry = self.fn.body.blocks.first
        assert entry is not None
        if self.last is None:
            entry.insert_op_before(op, _first(entry))
        else:
            entry.insert_op_after(op, self.last)
        self.last = op


def _first(block: Block) -> Operation:
    op = block.first_op
    assert op is not None
    return op


def _insert_before(op: Operation, anchor: Operation) -> None:
    block = anchor.parent_block()
    assert block is not None
    block.insert_op_before(op, anchor)


def dim_value(value: SSAValue, axis: int, before: Operation, const: _Constants) -> SSAValue:
    """Dim ``axis`` of ``value``: static, the index a ``tie_shape`` gave it, else ``tensor.dim``
    (one per value and axis in a block, reused by later users in that block)."""
    owner = value.owner
    static = value.type.get_shape()[axis] if is_tensor(value.type) else DYNAMIC_INDEX
    if static != DYNAMIC_INDEX:
        return const(static)
    if isinstance(owner, c.TieShapeOp):
        return owner.dims[axis]
    known = const.dims.get((value, axis))
    if known is not None and known.parent_block() is before.parent_block():
        return known.result
    op = tensor.DimOp(value, const(axis))
    _insert_before(op, before)
    const.dims[(value, axis)] = op
    return op.result


def _tie(value: SSAValue, dims: list[SSAValue], before: Operation) -> SSAValue:
    """``symshape.tie_shape value, dims`` before ``before``; its result."""
    tie = c.TieShapeOp.create(operands=[value, *dims], result_types=[value.type])
    _insert_before(tie, before)
    return tie.result


# ---------------------------------------------------------------- arguments


def _expand_arguments(fn: func.FuncOp, sig: Signature, const: _Constants) -> dict[Slot, SSAValue]:
    """Add the index arguments to ``fn``'s entry block and tie the tensor arguments to them."""
    entry = fn.body.blocks.first
    assert entry is not None
    args: dict[Slot, SSAValue] = {}
    for slot, pos in sig.positions().items():
        arg = entry.insert_arg(IndexType(), pos)
        arg.name_hint = slot.hint
        args[slot] = arg
    anchor = _first(entry)
    originals = [a for a in entry.args if a not in args.values()]
    for arg, ties in zip(originals, sig.arg_ties, strict=True):
        if not any(isinstance(t, Slot) for t in ties) and not _has_dynamic(arg.type):
            continue
        dims = [args[t] if isinstance(t, Slot) else const(t) for t in ties]
        tied = _tie(arg, dims, anchor)
        tie_op = tied.owner
        arg.replace_uses_with_if(tied, lambda use, tie_op=tie_op: use.operation is not tie_op)
    return args


def _has_dynamic(t: Attribute) -> bool:
    return is_tensor(t) and any(n == DYNAMIC_INDEX for n in t.get_shape())


# ------------------------------------------------------------------ results


def _expand_results(fn: func.FuncOp, sig: Signature, args: dict[Slot, SSAValue], const: _Constants) -> None:
    """Each ``func.return`` of ``fn`` (one per block that returns) returns the dims too; the
    analysis's dims serve a single-block function (a Program is its one block)."""
    returns = [b.last_op for b in fn.body.blocks if isinstance(b.last_op, func.ReturnOp)]
    for ret in returns:
        assert isinstance(ret, func.ReturnOp)
        _expand_return(ret, sig if len(fn.body.blocks) == 1 else sig.without_result_dims(), args, const)


def _expand_return(ret: func.ReturnOp, sig: Signature, args: dict[Slot, SSAValue], const: _Constants) -> None:
    """Return each result's dynamic dims after it, computed from the arguments where proven."""

    def insert(op: Operation) -> None:
        if isinstance(op, arith.ConstantOp):
            const.place(op)  # the builder's constants join the function's own (shared dict)
        else:
            _insert_before(op, ret)

    def solve(value: SSAValue, kind: type[arith.SignlessIntegerBinaryOperation], k: int) -> SSAValue:
        op = kind(value, const(k))
        insert(op)
        return op.result

    def leaf(name: str) -> SSAValue | None:
        found = sig.leaves.get(name)
        if found is None:
            return None
        slot, coeff, offset = found
        value = args[slot] if not offset else solve(args[slot], arith.SubiOp, offset)
        return value if coeff == 1 else solve(value, arith.DivSIOp, coeff)

    builder = ArithBuilder(leaf, insert, const.values)
    operands: list[SSAValue] = []
    for j, value in enumerate(ret.operands):
        dyn = sig.result_dynamic[j]
        if not dyn:
            operands.append(value)
            continue
        dims = [_result_dim(builder, value, axis, sig.result_dims[j][axis], ret, const) for axis in range(_rank(value))]
        owner = value.owner
        same = isinstance(owner, c.TieShapeOp) and list(owner.dims) == dims
        operands.append(value if same else _tie(value, dims, ret))
        operands.extend(dims[axis] for axis in dyn)
    insert(func.ReturnOp(*operands))
    ret.detach()
    ret.erase()


def _rank(value: SSAValue) -> int:
    t = value.type
    return len(t.get_shape()) if is_tensor(t) else 0


def _result_dim(
    builder: ArithBuilder, value: SSAValue, axis: int, d: Dim | None, ret: Operation, const: _Constants
) -> SSAValue:
    if d is not None:
        built = builder.build(d)
        if built is not None:
            return built
    return dim_value(value, axis, ret, const)


# -------------------------------------------------------------------- calls


def _expand_call(call: func.CallOp, sig: Signature, const: _Constants) -> None:
    """Pass the callee's index arguments and tie the call's results to the returned dims."""
    operands: list[SSAValue] = []
    for i, value in enumerate(call.arguments):
        operands.append(value)
        for slot in sig.slots_after[i] if i < len(sig.slots_after) else []:
            operands.append(dim_value(call.arguments[slot.arg], slot.axis, call, const))
    types: list[Attribute] = []
    for j, r in enumerate(call.res):
        types.append(r.type)
        types.extend(IndexType() for _ in sig.result_dynamic[j])
    new = func.CallOp(call.callee, operands, types)
    new.attributes.update(call.attributes)
    _insert_before(new, call)
    pos = 0
    after: Operation = new
    for j, old in enumerate(call.res):
        result = new.res[pos]
        pos += 1
        dyn = sig.result_dynamic[j]
        if dyn:
            given = dict(zip(dyn, new.res[pos : pos + len(dyn)], strict=True))
            pos += len(dyn)
            nxt = after.next_op
            assert nxt is not None and is_tensor(old.type)
            dims = [given[a] if a in given else const(n) for a, n in enumerate(old.type.get_shape())]
            result = _tie(result, dims, nxt)
            owner = result.owner
            assert isinstance(owner, Operation)
            after = owner
        result.name_hint = old.name_hint
        old.replace_all_uses_with(result)
    call.detach()
    call.erase()


# --------------------------------------------------------------- signatures


def _expand_type(fn: func.FuncOp, sig: Signature) -> None:
    """The expanded function type, argument/result attributes padded, and the marker."""
    ins: list[Attribute] = []
    arg_attrs: list[DictionaryAttr] = []
    old_arg_attrs = list(fn.arg_attrs.data) if fn.arg_attrs is not None else None
    for i, t in enumerate(fn.function_type.inputs.data):
        ins.append(t)
        if old_arg_attrs is not None:
            arg_attrs.append(old_arg_attrs[i])
        for _ in sig.slots_after[i]:
            ins.append(IndexType())
            arg_attrs.append(DictionaryAttr({}))
    outs: list[Attribute] = []
    res_attrs: list[DictionaryAttr] = []
    old_res_attrs = list(fn.res_attrs.data) if fn.res_attrs is not None else None
    for j, t in enumerate(fn.function_type.outputs.data):
        outs.append(t)
        if old_res_attrs is not None:
            res_attrs.append(old_res_attrs[j])
        for _ in sig.result_dynamic[j]:
            outs.append(IndexType())
            res_attrs.append(DictionaryAttr({}))
    fn.function_type = FunctionType.from_lists(ins, outs)
    if old_arg_attrs is not None:
        fn.arg_attrs = ArrayAttr(arg_attrs)
    if old_res_attrs is not None:
        fn.res_attrs = ArrayAttr(res_attrs)
    fn.attributes[EXPANDED] = UnitAttr()
    if sig.assumes:
        fn.attributes[ASSUMES] = ArrayAttr([StringAttr(a) for a in sig.assumes])


__all__ = ["ExpandFunctionDynamicDimsPass", "dim_value"]
