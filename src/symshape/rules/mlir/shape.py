"""The MLIR ``shape`` dialect: extent tensors and shapes as tracked values, sizes, and the
constraint ops (``cstr_*`` witnesses and ``assuming`` regions, seed 003).

A witness guards the ops of its ``assuming`` region: they run only when the constraint holds,
so ``cstr_eq`` and ``cstr_require`` state facts. https://mlir.llvm.org/docs/Dialects/ShapeDialect/
"""

from __future__ import annotations

from symshape.algebra.expr import product
from symshape.engine.context import OpContext
from symshape.rules.registry import register
from symshape.rules.shared.arith import SHAPE_INT_OPS, binary_elements
from symshape.rules.shared.common import broadcast_shapes
from symshape.rules.shared.mlir_common import assert_condition, check_declared


@register(("shape",), "shape_of", then=check_declared)
def shape_of(ctx: OpContext) -> None:
    """The operand's dims as a 1-D extent tensor. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeshape_of-shapeshapeofop"""
    dims = ctx.shape(0)
    ctx.set_output(0, (len(dims),), dims)


@register(("shape",), "const_shape", then=check_declared)
def const_shape(ctx: OpContext) -> None:
    """The listed extents. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeconst_shape-shapeconstshapeop"""
    values = ctx.attr("shape")
    extents = tuple(values.values or ()) if hasattr(values, "values") else tuple(values or ())
    ctx.set_output(0, (len(extents),), extents)


@register(
    ("shape",),
    "value_as_shape",
    "to_extent_tensor",
    "index_to_size",
    "size_to_index",
    "with_shape",
    then=check_declared,
)
def shape_pass(ctx: OpContext) -> None:
    """The same extents in another type; ``with_shape`` pairs a value with the extents of its
    shape operand (#1). https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapewith_shape-shapewithshapeop
    """
    source = 1 if ctx.op.op_type == "with_shape" else 0
    els = ctx.elements(source)
    dims = ctx.shape(source)
    ctx.set_output(0, (len(els),) if els is not None and len(dims) == 1 else dims, els)


@register(("shape",), "from_extents", then=check_declared)
def from_extents(ctx: OpContext) -> None:
    """Extents from index values. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapefrom_extents-shapefromextentsop"""
    parts = [ctx.elements(i) for i in range(ctx.num_inputs)]
    values = None if any(p is None for p in parts) else tuple(p[0] for p in parts if p)
    ctx.set_output(0, (ctx.num_inputs,), values)


@register(("shape",), "broadcast", then=check_declared)
def shape_broadcast(ctx: OpContext) -> None:
    """Broadcasting (numpy rules) of extent tensors, never merging a dim that may be 1.

    https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapebroadcast-shapebroadcastop
    """
    parts = [ctx.require_elements(i) for i in range(ctx.num_inputs)]
    out = broadcast_shapes(ctx, parts)
    ctx.set_output(0, (len(out),), out)


@register(("shape",), "get_extent", then=check_declared)
def get_extent(ctx: OpContext) -> None:
    """One extent. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeget_extent-shapegetextentop"""
    els = ctx.elements(0)
    index = ctx.const_ints(1)
    value = (els[index[0]],) if els is not None and index is not None and 0 <= index[0] < len(els) else None
    ctx.set_output(0, (), value)


@register(("shape",), "num_elements", "rank", then=check_declared)
def shape_reduce(ctx: OpContext) -> None:
    """The product or the count of the extents. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapenum_elements-shapenumelementsop"""
    els = ctx.elements(0)
    if ctx.op.op_type == "rank":
        ctx.set_output(0, (), (ctx.shape(0)[0],))
    else:
        ctx.set_output(0, (), None if els is None else (ctx.canon(product(els)),))


@register(("shape",), "add", "mul", "div", then=check_declared)
def shape_arith(ctx: OpContext) -> None:
    """Index arithmetic on sizes. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapemul-shapemulop"""
    ctx.set_output(0, (), binary_elements(ctx, SHAPE_INT_OPS[ctx.op.op_type]))


@register(("shape",), "cstr_eq", then=check_declared)
def cstr_eq(ctx: OpContext) -> None:
    """Ops guarded by the witness run only when all shapes are equal: a fact.

    https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapecstr_eq-shapecstreqop
    """
    first = ctx.require_elements(0)
    for i in range(1, ctx.num_inputs):
        other = ctx.require_elements(i)
        if len(other) != len(first):
            raise ctx.invalid(
                f"cstr_eq of shapes of ranks {len(first)} and {len(other)} always fails", "shapes of one rank"
            )
        for a, b in zip(first, other, strict=True):
            ctx.eq(b, a, "cstr_eq")
    ctx.set_output(0, ())


@register(("shape",), "cstr_require", then=check_declared)
def cstr_require(ctx: OpContext) -> None:
    """Ops guarded by the witness run only when the condition holds: a fact.

    https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapecstr_require-shapecstrrequireop
    """
    cond = ctx.elements(0)
    if cond is not None and cond[0] == 0:
        raise ctx.invalid(f"the required condition always fails: {ctx.attr('msg', '')}", "a condition that can hold")
    assert_condition(ctx, str(ctx.attr("msg", "")))
    ctx.set_output(0, ())


@register(("shape",), "cstr_broadcastable", "assuming_all", "const_witness", "const_size", then=check_declared)
def witness(ctx: OpContext) -> None:
    """A witness or size scalar. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapecstr_broadcastable-shapecstrbroadcastableop"""
    value = ctx.attr("value")
    ctx.set_output(0, (), (value,) if isinstance(value, int) else None)


@register(("shape",), "assuming", then=check_declared)
def assuming(ctx: OpContext) -> None:
    """The yielded values of the (already walked) region. https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeassuming-shapeassumingop"""
    for i in range(ctx.num_outputs):
        ctx.set_output(i, ctx.shape(i), ctx.elements(i))
