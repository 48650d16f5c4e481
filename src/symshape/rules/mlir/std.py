"""Upstream MLIR dialects: ``func`` (arguments, inlined and called functions), ``tensor``,
``arith`` on index and integer scalars (tracked as values), and the ``shape`` dialect.

Shape computations are scalarized here: ``tensor.dim``/``shape.shape_of`` make dims into
values, ``arith`` computes on them, ``tensor.from_elements`` packs them into a shape tensor,
so a ``dynamic_reshape`` or ``real_dynamic_slice`` sees exact expressions (seed 000 stage one).
https://mlir.llvm.org/docs/Dialects/
"""

from __future__ import annotations

from collections.abc import Callable

from symshape.context import GiveUp, OpContext
from symshape.errors import ModelError
from symshape.expr import Dim, add, ceildiv, floordiv, mul, product, smax, smin
from symshape.rules.registry import register
from symshape.rules.shared.arith import binary_elements, compare_values
from symshape.rules.shared.common import broadcast_shapes, int_div, normalize_axis
from symshape.rules.shared.mlir_common import (
    assert_condition,
    check_declared,
    declared_dims,
    ints,
    is_int_dtype,
    same_shapes,
)

# ----------------------------------------------------------------------------- func


@register(("func",), "arg", then=check_declared)
def func_arg(ctx: OpContext) -> None:
    """An integer scalar argument's value is a symbol named after it (``jax.global_constant``).

    https://mlir.llvm.org/docs/Dialects/Func/
    """
    label = str(ctx.attr("symbol"))
    lo = 1 if ctx.attr("dim_variable") else None  # jax checks its dimension variables are >= 1
    value = ctx.input_symbol(label, "scalar argument", lo=lo)
    ctx.set_output(0, (), (value,))


@register(("func",), "bind", then=check_declared)
def func_bind(ctx: OpContext) -> None:
    """An inlined call passes a value to a callee argument, or a returned value back.

    https://mlir.llvm.org/docs/Dialects/Func/#funccall-funccallop
    """
    ctx.set_output(0, ctx.shape(0), ctx.elements(0))


@register(("func",), "call", then=check_declared)
def func_call(ctx: OpContext) -> None:
    """Run the callee's ops (a copy per call site) on the operands' shapes and values.

    https://mlir.llvm.org/docs/Dialects/Func/#funccall-funccallop
    """
    body = ctx.op.subgraphs.get("body")
    if body is None or not body.ops and not body.outputs:
        raise GiveUp(f"the callee @{ctx.attr('callee')} has no body here")
    for i, name in enumerate(body.inputs):
        ctx.bind(name, ctx.shape(i), ctx.elements(i))
    ctx.run_ops(body, body.ops)
    for i, name in enumerate(body.outputs):
        shape, els = ctx.value(name)
        if shape is None:
            raise GiveUp(f"result #{i} of @{ctx.attr('callee')} is unknown")
        ctx.set_output(i, shape, els)


# --------------------------------------------------------------------------- tensor


@register(("tensor",), "dim", then=check_declared)
def tensor_dim(ctx: OpContext) -> None:
    """The size of one dim as an index value. https://mlir.llvm.org/docs/Dialects/TensorOps/#tensordim-tensordimop"""
    dims = ctx.shape(0)
    index = ctx.const_ints(1)
    if index is None:
        ctx.set_output(0, ())
        return
    ctx.set_output(0, (), (dims[normalize_axis(ctx, index[0], len(dims))],))


@register(("tensor",), "from_elements", then=check_declared)
def from_elements(ctx: OpContext) -> None:
    """The declared (static) shape filled with the operands' values.

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorfrom_elements-tensorfromelementsop
    """
    parts = [ctx.elements(i) for i in range(ctx.num_inputs)]
    values = None if any(p is None for p in parts) else tuple(p[0] for p in parts if p)
    ctx.set_output(0, declared_dims(ctx), values)


@register(("tensor",), "extract", then=check_declared)
def extract(ctx: OpContext) -> None:
    """One element of a tracked tensor. https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorextract-tensorextractop"""
    dims = ctx.shape(0)
    src = ctx.elements(0)
    index = [ctx.const_ints(i) for i in range(1, ctx.num_inputs)]
    value = None
    static = [d for d in dims if isinstance(d, int)]
    if src is not None and all(ix is not None for ix in index) and len(static) == len(dims):
        flat = 0
        for ix, d in zip(index, static, strict=True):
            flat = flat * d + (ix or (0,))[0]
        value = (src[flat],) if 0 <= flat < len(src) else None
    ctx.set_output(0, (), value)


@register(("tensor",), "cast", then=check_declared)
def cast(ctx: OpContext) -> None:
    """Same dims; a static result dim asserts the operand's (a fact via the declared type).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorcast-tensorcastop
    """
    ctx.set_output(0, ctx.shape(0), ctx.elements(0))


@register(("tensor",), "empty", "splat", "generate", then=check_declared)
def empty(ctx: OpContext) -> None:
    """The declared type with its ``?`` dims taken from the index operands, in order.

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorempty-tensoremptyop
    """
    value = ctx.program.values[ctx.op.outputs[0]]
    dims = value.type.dims if value.type is not None else None
    if dims is None:
        raise GiveUp("the result is unranked")
    first = 1 if ctx.op.op_type == "splat" else 0
    dynamic = [ctx.elements(i) for i in range(first, ctx.num_inputs)]
    out: list[Dim] = []
    k = 0
    for axis, d in enumerate(dims):
        if isinstance(d, int) and d >= 0:
            out.append(d)
            continue
        got = dynamic[k] if k < len(dynamic) else None
        out.append(got[0] if got else ctx.fresh(f"d{axis}"))
        k += 1
    ctx.set_output(0, out)


@register(("tensor",), "reshape", then=check_declared)
def tensor_reshape(ctx: OpContext) -> None:
    """Dims from the shape operand; equal element counts (a fact).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorreshape-tensorreshapeop
    """
    target = ctx.elements(1) or declared_dims(ctx)
    ctx.eq(product(target), product(ctx.shape(0)), "reshape element count")
    ctx.set_output(0, target, ctx.elements(0))


@register(("tensor",), "collapse_shape", then=check_declared)
def collapse_shape(ctx: OpContext) -> None:
    """Each reassociation group's product. https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorcollapse_shape-tensorcollapseshapeop"""
    dims = ctx.shape(0)
    groups: list[list[int]] = ctx.attr("reassociation") or []
    ctx.set_output(0, [ctx.canon(product(dims[a] for a in g)) for g in groups], ctx.elements(0))


@register(("tensor",), "concat", then=check_declared)
def tensor_concat(ctx: OpContext) -> None:
    """Sum along ``dim``; other dims equal (facts). https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorconcat-tensorconcatop"""
    shapes = [ctx.shape(i) for i in range(ctx.num_inputs)]
    axis = normalize_axis(ctx, (ints(ctx, "dim", [0]) or [0])[0], len(shapes[0]))
    out = list(shapes[0])
    total: Dim = 0
    for i, s in enumerate(shapes):
        total = add(total, s[axis])
        for a in range(len(out)):
            if a != axis:
                ctx.eq(s[a], out[a], "concat non-axis dim", (ctx.dim_name(i, a), ctx.dim_name(0, a)))
    out[axis] = ctx.canon(total)
    ctx.set_output(0, out)


# ---------------------------------------------------------------------------- arith


@register(("arith",), "constant", then=check_declared)
def arith_constant(ctx: OpContext) -> None:
    """An integer scalar or a dense tensor. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithconstant-arithconstantop"""
    value = ctx.attr("value")
    if isinstance(value, bool | int):
        ctx.set_output(0, (), (int(value),))
    elif hasattr(value, "dims"):
        ctx.set_output(0, value.dims, value.values)
    else:
        ctx.set_output(0, declared_dims(ctx))


def _div_floor(ctx: OpContext, a: Dim, b: Dim) -> Dim | None:
    return floordiv(a, b) if isinstance(b, int) and b != 0 or ctx.facts.prove_ge(b, 1) else None


def _div_ceil(ctx: OpContext, a: Dim, b: Dim) -> Dim | None:
    return ceildiv(a, b) if isinstance(b, int) and b > 0 or ctx.facts.prove_ge(b, 1) else None


def _rem_nonneg(ctx: OpContext, a: Dim, b: Dim) -> Dim | None:
    from symshape.expr import mod

    facts = ctx.facts
    return mod(a, b) if facts.prove_ge(a, 0) and facts.prove_ge(b, 1) else None


def _unsigned(fn: Callable[[OpContext, Dim, Dim], Dim | None]) -> Callable[[OpContext, Dim, Dim], Dim | None]:
    """An unsigned op agrees with its signed twin only when both operands are proven >= 0 (a
    tracked -1 sentinel is 2**64 - 1 unsigned): otherwise the value is unknown."""

    def unsigned(ctx: OpContext, a: Dim, b: Dim) -> Dim | None:
        facts = ctx.facts
        return fn(ctx, a, b) if facts.prove_ge(a, 0) and facts.prove_ge(b, 0) else None

    return unsigned


_ARITH: dict[str, Callable[[OpContext, Dim, Dim], Dim | None]] = {
    "addi": lambda ctx, a, b: add(a, b),
    "subi": lambda ctx, a, b: add(a, mul(b, -1)),
    "muli": lambda ctx, a, b: mul(a, b),
    "divsi": int_div,
    "divui": _unsigned(int_div),
    "floordivsi": _div_floor,
    "ceildivsi": _div_ceil,
    "ceildivui": _unsigned(_div_ceil),
    "remsi": _rem_nonneg,
    "remui": _rem_nonneg,
    "maxsi": lambda ctx, a, b: smax(a, b),
    "maxui": _unsigned(lambda ctx, a, b: smax(a, b)),
    "minsi": lambda ctx, a, b: smin(a, b),
    "minui": _unsigned(lambda ctx, a, b: smin(a, b)),
}
_FLOAT_BINARY = (
    "addf",
    "subf",
    "mulf",
    "divf",
    "maximumf",
    "minimumf",
    "maxnumf",
    "minnumf",
    "remf",
    "powf",
    "andi",
    "ori",
    "xori",
    "shli",
    "shrsi",
    "shrui",
    "cmpf",
)


@register(("arith",), *_ARITH, *_FLOAT_BINARY, then=check_declared)
def arith_binary(ctx: OpContext) -> None:
    """Same-shape operands (a fact); integer results are tracked symbolically.

    https://mlir.llvm.org/docs/Dialects/ArithOps/
    """
    shape = same_shapes(ctx, [0, 1], "arith operands")
    fn = _ARITH.get(ctx.op.op_type)
    ctx.set_output(0, shape, binary_elements(ctx, fn) if fn is not None else None)


_CASTS = (
    "index_cast",
    "index_castui",
    "extsi",
    "extui",
    "trunci",
    "bitcast",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "extf",
    "truncf",
    "negf",
)


@register(("arith",), *_CASTS, then=check_declared)
def arith_cast(ctx: OpContext) -> None:
    """Same shape; integer values pass through. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithindex_cast-arithindexcastop"""
    keep = is_int_dtype(ctx.output_dtype(0)) and is_int_dtype(ctx.dtype(0))
    ctx.set_output(0, ctx.shape(0), ctx.elements(0) if keep else None)


_CMPI = {0: "EQ", 1: "NE", 2: "LT", 3: "LE", 4: "GT", 5: "GE", 6: "LT", 7: "LE", 8: "GT", 9: "GE"}


@register(("arith",), "cmpi", then=check_declared)
def cmpi(ctx: OpContext) -> None:
    """A decided comparison is a known ``i1``. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithcmpi-arithcmpiop"""
    shape = same_shapes(ctx, [0, 1], "cmpi operands")
    direction = _CMPI.get(int(ctx.attr("predicate", -1)), "")
    a, b = ctx.elements(0), ctx.elements(1)
    out = None
    if a is not None and b is not None and len(a) == len(b) and direction:
        unsigned = int(ctx.attr("predicate", -1)) >= 6  # ult..uge agree with lt..ge on values >= 0
        facts = ctx.facts
        if unsigned and not all(facts.prove_ge(v, 0) for v in (*a, *b)):
            ctx.set_output(0, shape)
            return
        got = [compare_values(ctx, direction, x, y) for x, y in zip(a, b, strict=True)]
        out = None if any(g is None for g in got) else tuple(g for g in got if g is not None)
    ctx.set_output(0, shape, out)


@register(("arith",), "select", then=check_declared)
def arith_select(ctx: OpContext) -> None:
    """Branches share a shape (a fact). https://mlir.llvm.org/docs/Dialects/ArithOps/#arithselect-arithselectop"""
    shape = same_shapes(ctx, [1, 2], "select branches")
    cond, x, y = ctx.elements(0), ctx.elements(1), ctx.elements(2)
    out = None
    if cond is not None and x is not None and y is not None and len(cond) == 1 and isinstance(cond[0], int):
        out = x if cond[0] else y
    ctx.set_output(0, shape, out)


# ---------------------------------------------------------------------------- shape


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
    """The same extents in another type. https://mlir.llvm.org/docs/Dialects/ShapeDialect/"""
    els = ctx.elements(0)
    dims = ctx.shape(0)
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
    fn = {"add": _ARITH["addi"], "mul": _ARITH["muli"], "div": _div_floor}[ctx.op.op_type]
    ctx.set_output(0, (), binary_elements(ctx, fn))


@register(("shape",), "cstr_eq", then=check_declared)
def cstr_eq(ctx: OpContext) -> None:
    """Ops guarded by the witness run only when all shapes are equal: a fact.

    https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapecstr_eq-shapecstreqop
    """
    first = ctx.require_elements(0)
    for i in range(1, ctx.num_inputs):
        other = ctx.require_elements(i)
        if len(other) != len(first):
            raise ModelError(f"{ctx.where()}: cstr_eq of shapes of ranks {len(first)} and {len(other)} always fails")
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
        raise ModelError(f"{ctx.where()}: the required condition always fails: {ctx.attr('msg', '')}")
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
