"""Stage two of shape-optimization: use the analysis to simplify one function (seed 000).

* `remove_redundant_ops`: a ``dynamic_broadcast_in_dim`` with identity dims, or a
  ``dynamic_reshape``, whose operand provably has the output's shape is its operand.
* `refine_types`: a ``?`` the analysis proved constant becomes static in the result types of
  (st)hlo ops and ``tensor.cast``; function arguments are refined by a ``tensor.cast`` at the
  entry, and ops that need the old type exactly (``func.return``, calls, unknown ops) get a cast
  back, so the module stays valid and the function's signature is unchanged.
* `unify_dims`: one SSA value per equal dim. Every index value whose dim the analysis knows is
  replaced by a canonical one: a constant, the dim rebuilt from ``tensor.dim`` of the function's
  arguments at the entry (it dominates everything), or else the first equal value that
  dominates the use.
* `fold_compares`: ``arith.cmpi`` on dims decided by the facts (``tensor.dim == -1`` is false).
* `symshape.tools.mlir_passes.static_reshape`: a ``dynamic_reshape`` whose refined result type is
  static becomes ``reshape``.

Every rewrite rests on a dim equality that is proven, or covered by a guard the save stage
writes into the constraint graph.
"""

from __future__ import annotations

import typing
from collections.abc import Callable

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue, Use
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.algebra.expr import Dim, as_symbol
from symshape.engine.provenance import Rel
from symshape.frontends.mlir.attributes import is_tensor
from symshape.ir.dialects.constraint import foreign_encoding
from symshape.tools.mlir_passes.dim_exprs import ArithBuilder
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import Dominance, nested_ops, op_name, with_type
from symshape.tools.mlir_passes.static_reshape import static_reshapes

HLO_DIALECTS = ("mhlo", "stablehlo", "chlo")
SCALAR_BODY_OPS = ("reduce", "reduce_window", "sort", "scatter", "select_and_scatter", "map", "all_reduce")
RIGID_HLO = ("tuple", "while", "if", "case", "optimization_barrier", "composite", "return")
"""HLO ops whose operand types must equal their result, region or callee types, encoding included."""
TOLERANT = ("tensor.dim", "tensor.cast", "tensor.extract", "shape.shape_of", "symshape.tie_shape")


def is_hlo(op: Operation) -> bool:
    """An op of mhlo, stablehlo or chlo."""
    return op_name(op).split(".", 1)[0] in HLO_DIALECTS


def retypable(op: Operation) -> bool:
    """Whether ``op``'s result types may be refined (or re-encoded) in place."""
    if isinstance(op, tensor.CastOp):
        return True
    if not is_hlo(op) or op_name(op).endswith(".constant"):
        return False  # a constant's type is inferred from its value, which has no encoding
    short = op_name(op).split(".", 1)[1]
    return short not in RIGID_HLO and (not op.regions or short in SCALAR_BODY_OPS)


def tolerant_user(op: Operation) -> bool:
    """Whether ``op`` accepts an operand whose type was refined."""
    return is_hlo(op) or op_name(op) in TOLERANT or op_name(op).startswith("shape.")


def top_level_ops(fn: func.FuncOp) -> list[Operation]:
    """The ops directly in the function's blocks, in order."""
    return [op for block in fn.body.blocks for op in block.ops]


def int_list(attr: Attribute | None) -> list[int] | None:
    """The integers of a dense array, dense elements or array attribute."""
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        shaped = attr.get_type()  # ``attr.type``, typed as an Attribute
        if len(values) == 1 and is_tensor(shaped) and shaped.get_shape() not in ((1,), ()):
            return None  # a splat: the caller cannot know the length
        return [int(v) for v in values]
    if isinstance(attr, ArrayAttr):
        out: list[int] = []
        for item in typing.cast("ArrayAttr[Attribute]", attr).data:
            if not isinstance(item, IntegerAttr):
                return None
            out.append(item.value.data)
        return out
    return None


# ------------------------------------------------------------------ redundant ops


def same_dims(a: tuple[Dim, ...] | None, b: tuple[Dim, ...] | None) -> bool:
    """Both known, same rank, each pair the same canonical dim."""
    return (
        a is not None
        and b is not None
        and len(a) == len(b)
        and all(x is y or x == y for x, y in zip(a, b, strict=True))
    )


def _is_identity_reshape(op: Operation, fs: FunctionShapes) -> bool:
    name = op_name(op).split(".", 1)[-1]
    if name not in ("dynamic_broadcast_in_dim", "dynamic_reshape") or not op.operands or len(op.results) != 1:
        return False
    src, res = op.operands[0], op.results[0]
    if not same_dims(fs.dims(src), fs.dims(res)):
        return False
    if name == "dynamic_reshape":
        return True
    dims = int_list(op.attributes.get("broadcast_dimensions") or op.properties.get("broadcast_dimensions"))
    return dims is not None and dims == list(range(len(dims)))


def remove_redundant_ops(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Replace identity broadcasts and reshapes by their operand; returns how many."""
    count = 0
    for op in top_level_ops(fs.func):
        if not is_hlo(op) or not _is_identity_reshape(op, fs):
            continue
        src, res = op.operands[0], op.results[0]
        if src.type != res.type:
            if not is_tensor(res.type):
                continue
            cast = tensor.CastOp(src, res.type)
            rewriter.insert_op(cast, InsertPoint.before(op))
            fs.moved(res, cast.dest)
            src = cast.dest
        res.replace_all_uses_with(src)
        rewriter.erase_op(op)
        count += 1
    return count


# ------------------------------------------------------------------ refined types


def refined_type(t: Attribute, dims: tuple[Dim, ...] | None) -> TensorType | None:
    """``t`` with each ``?`` the dims prove constant made static; None if nothing changes. A
    type with an encoding of its own (``#stablehlo.bounds<4>``) is left as declared: a static
    dim may not carry a bound, and the bound is the compiler's to read."""
    if not is_tensor(t) or dims is None or len(dims) != t.get_num_dims():
        return None
    if foreign_encoding(t.encoding):
        return None
    shape = list(t.get_shape())
    changed = False
    for axis, d in enumerate(dims):
        if shape[axis] == DYNAMIC_INDEX and isinstance(d, int) and d >= 0:
            shape[axis] = d
            changed = True
    return TensorType(t.element_type, shape, t.encoding) if changed else None


def _cast_back_rigid_uses(fs: FunctionShapes, value: SSAValue, old_type: TensorType, rewriter: Rewriter) -> None:
    for use in list(value.uses):
        if tolerant_user(use.operation):
            continue
        cast = tensor.CastOp(value, old_type)
        rewriter.insert_op(cast, InsertPoint.before(use.operation))
        use.operation.operands[use.index] = cast.dest
        fs.moved(value, cast.dest)


def _tolerant_except(cast: Operation) -> Callable[[Use], bool]:
    return lambda use: use.operation is not cast and tolerant_user(use.operation)


def refine_types(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Make proven-constant dims static (see the module docstring); returns how many values."""
    count = 0
    entry = fs.func.body.blocks.first
    if entry is None:
        return 0
    point = InsertPoint.at_start(entry)
    for arg in entry.args:
        new = refined_type(arg.type, fs.dims(arg))
        if new is None:
            continue
        cast = tensor.CastOp(arg, new)
        rewriter.insert_op(cast, point)
        fs.moved(arg, cast.dest)
        arg.replace_uses_with_if(cast.dest, _tolerant_except(cast))
        count += 1
    for op in top_level_ops(fs.func):
        if not retypable(op):
            continue
        for res in list(op.results):
            new = refined_type(res.type, fs.dims(res))
            if new is None:
                continue
            old_type = res.type
            assert is_tensor(old_type)  # refined_type returns None otherwise
            value = with_type(rewriter, res, new)
            fs.moved(res, value)
            _cast_back_rigid_uses(fs, value, old_type, rewriter)
            count += 1
    return count


# ------------------------------------------------------------------ one value per dim


class EntryDims:
    """Dims rebuilt at the function entry from ``tensor.dim`` of its arguments."""

    def __init__(self, fs: FunctionShapes, rewriter: Rewriter) -> None:
        entry = fs.func.body.blocks.first
        assert entry is not None  # unify_dims skips a function without a body
        self.entry: Block = entry
        self.rewriter = rewriter
        self.created: set[Operation] = set()
        self.arg_dims: dict[str, tuple[SSAValue, int]] = {}
        for arg in self.entry.args:
            for axis, d in enumerate(fs.dims(arg) or ()):
                name = as_symbol(d)
                if name is not None and name not in self.arg_dims and is_tensor(arg.type):
                    self.arg_dims[name] = (arg, axis)
        self.last: Operation | None = None
        self.builder = ArithBuilder(self._leaf, self._insert)
        self._leaves: dict[str, SSAValue] = {}

    def _insert(self, op: Operation) -> None:
        point = InsertPoint.after(self.last) if self.last is not None else InsertPoint.at_start(self.entry)
        self.rewriter.insert_op(op, point)
        self.last = op
        self.created.add(op)

    def _leaf(self, name: str) -> SSAValue | None:
        if name in self._leaves:
            return self._leaves[name]
        found = self.arg_dims.get(name)
        if found is None:
            return None
        arg, axis = found
        op = tensor.DimOp(arg, self.builder.constant(axis))
        self._insert(op)
        self._leaves[name] = op.result
        return op.result

    def value_of(self, d: Dim) -> SSAValue | None:
        """The entry value of ``d``, or None when ``d`` needs a symbol no argument carries."""
        if isinstance(d, int):
            return self.builder.constant(d)
        if not d.free <= self.arg_dims.keys():
            return None
        return self.builder.build(d)


def unify_dims(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Replace every index value of a known dim by its canonical value; returns how many."""
    if fs.func.body.blocks.first is None:
        return 0
    entry = EntryDims(fs, rewriter)
    dominance = Dominance()
    leaders: dict[Dim, list[SSAValue]] = {}
    count = 0
    for op in nested_ops(fs.func.body):
        if op in entry.created or isinstance(op, arith.ConstantOp):
            continue
        for res in op.results:
            if not isinstance(res.type, IndexType) or not res.uses:
                continue
            d = fs.scalar(res)
            if d is None:
                continue
            rep = entry.value_of(d)
            if rep is None:
                rep = next((v for v in leaders.get(d, ()) if dominance.dominates(v, op)), None)
            if rep is None or rep is res:
                leaders.setdefault(d, []).append(res)
                continue
            res.replace_all_uses_with(rep)
            count += 1
    return count


# ------------------------------------------------------------------ compares

_PREDICATES: dict[int, Rel] = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">=", 6: "<", 7: "<=", 8: ">", 9: ">="}


def fold_compares(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Replace decided ``arith.cmpi`` on dims by constants; returns how many."""
    count = 0
    for op in nested_ops(fs.func.body):
        if not isinstance(op, arith.CmpiOp) or op.result.type != IntegerType(1):
            continue
        a, b = fs.scalar(op.lhs), fs.scalar(op.rhs)
        kind = op.predicate.value.data
        if a is None or b is None or kind not in _PREDICATES:
            continue
        if kind >= 6 and not (fs.prove(a, ">=", 0) and fs.prove(b, ">=", 0)):
            continue  # unsigned compares agree with signed ones on non-negative values
        answer = fs.prove(a, _PREDICATES[kind], b)
        if answer is None:
            continue
        const = arith.ConstantOp(IntegerAttr(int(answer), IntegerType(1)))
        rewriter.replace_op(op, const)
        count += 1
    return count


def optimize_function(fs: FunctionShapes) -> dict[str, int]:
    """All of stage two's rewrites on one function, in order; the counts by rewrite."""
    rewriter = Rewriter()
    return {
        "redundant": remove_redundant_ops(fs, rewriter),
        "refined": refine_types(fs, rewriter),
        "static_reshapes": static_reshapes(fs, rewriter),
        "unified": unify_dims(fs, rewriter),
        "compares": fold_compares(fs, rewriter),
    }
