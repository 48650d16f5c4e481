"""The ``tensor`` dialect: dims as values, shape tensors, reshapes, slicing, padding, expanding.

``tensor.dim`` makes a dim into an index value and ``tensor.from_elements`` packs values into a
shape tensor, so shape computations stay exact expressions. The slicing, padding and expanding
ops mix static and dynamic index lists: an array attribute (``static_sizes``) holds a
constant per position, or the ``ShapedType::kDynamic`` sentinel where the next index operand of
that list supplies the value. `mixed` resolves such a list to dims (tracked operand values, or a
fresh symbol when an operand's value is unknown).
https://mlir.llvm.org/docs/Dialects/TensorOps/
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim, add, exact_div, mul, product
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import register
from symshape.rules.shared.common import normalize_axis
from symshape.rules.shared.mlir_common import at_least_zero, check_declared, declared_dims, elements_or_unknowns, ints

TENSOR = ("tensor",)
K_DYNAMIC = -(2**63)  # ShapedType::kDynamic in the static_* attributes


def mixed(ctx: OpContext, name: str, first: int) -> tuple[list[Dim], int]:
    """The values of the static/dynamic list ``name`` whose operands start at input ``first``,
    and the index of the input after them."""
    static = ints(ctx, name)
    if static is None:
        raise ctx.invalid(f"attribute '{name}' is missing", "a list of integers")
    out: list[Dim] = []
    k = first
    for pos, s in enumerate(static):
        if s != K_DYNAMIC:
            out.append(s)
            continue
        if k >= ctx.num_inputs:
            raise ctx.invalid(
                f"'{name}' has more dynamic entries than index operands", "one index operand per dynamic entry"
            )
        els = ctx.elements(k)
        out.append(els[0] if els is not None and len(els) == 1 else ctx.fresh(f"{name}{pos}"))
        k += 1
    return out, k


def _declared(ctx: OpContext, name: str) -> tuple[int | None, ...]:
    """The declared dims (None for ``?``) of value ``name``; gives up when unranked."""
    value = ctx.program.values.get(name)
    dims = value.type.dims if value is not None and value.type is not None else None
    if dims is None:
        raise GiveUp(f"'{name}' has no ranked type")
    return tuple(d if isinstance(d, int) and d >= 0 else None for d in dims)


def kept_axes(ctx: OpContext, static_sizes: Sequence[int], reduced: tuple[int | None, ...]) -> list[int]:
    """The size positions that survive a rank reduction to ``reduced``: MLIR's
    ``computeRankReductionMask`` (match in order, drop unmatched static 1s), exact first, then
    with a ``?`` on either side matching any size other than 1 (its ``matchDynamic`` mode)."""
    if len(static_sizes) == len(reduced):
        return list(range(len(static_sizes)))
    want = [K_DYNAMIC if d is None else d for d in reduced]
    for loose in (False, True):
        kept: list[int] = []
        for axis, s in enumerate(static_sizes):
            j = len(kept)
            dynamic = j < len(want) and K_DYNAMIC in (s, want[j])
            if j < len(want) and (s == want[j] or loose and s != 1 and dynamic):
                kept.append(axis)
            elif s != 1:
                break
        else:
            if len(kept) == len(want):
                return kept
    raise ctx.invalid(
        f"the sizes {list(static_sizes)} do not rank-reduce to {list(reduced)}",
        "the result dims in order, with only unit sizes dropped",
    )


def _slice_params(ctx: OpContext, first: int) -> tuple[list[Dim], list[Dim], list[Dim]]:
    offsets, k = mixed(ctx, "static_offsets", first)
    sizes, k = mixed(ctx, "static_sizes", k)
    strides, _ = mixed(ctx, "static_strides", k)
    if not len(offsets) == len(sizes) == len(strides):
        raise ctx.invalid(
            f"{len(offsets)} offsets, {len(sizes)} sizes and {len(strides)} strides", "lists of one length"
        )
    return offsets, sizes, strides


def _in_bounds(ctx: OpContext, dims: tuple[Dim, ...], offsets: list[Dim], sizes: list[Dim], strides: list[Dim]) -> None:
    """A size is not negative, and a non-empty slice's last element lies inside its dim (facts:
    a negative size or a read outside is undefined)."""
    for d, off, size, stride in zip(dims, offsets, sizes, strides, strict=True):
        at_least_zero(ctx, size, "slice size is not negative")
        if ctx.facts.prove_ge(size, 1):
            last = add(off, mul(add(size, -1), stride))
            at_least_zero(ctx, add(add(d, -1), mul(last, -1)), "slice in bounds")


@register(TENSOR, "extract_slice", then=check_declared)
def extract_slice(ctx: OpContext) -> None:
    """The sizes, minus the unit dims a rank-reducing result drops; a non-empty slice is in bounds.

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorextract_slice-tensorextractsliceop
    """
    dims = ctx.shape(0)
    offsets, sizes, strides = _slice_params(ctx, 1)
    ctx.require_len(sizes, len(dims), "{got} sizes for a source of rank {n}", "{n} sizes (one per source dim)")
    _in_bounds(ctx, dims, offsets, sizes, strides)
    kept = kept_axes(ctx, ints(ctx, "static_sizes") or [], _declared(ctx, ctx.op.outputs[0]))
    ctx.set_output(0, [ctx.canon(sizes[a]) for a in kept])


@register(TENSOR, "insert_slice", then=check_declared)
def insert_slice(ctx: OpContext) -> None:
    """The destination's shape; the source's dims are the (rank-reduced) sizes (facts).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorinsert_slice-tensorinsertsliceop
    """
    source, dest = ctx.shape(0), ctx.shape(1)
    offsets, sizes, strides = _slice_params(ctx, 2)
    ctx.require_len(
        sizes, len(dest), "{got} sizes for a destination of rank {n}", "{n} sizes (one per destination dim)"
    )
    kept = kept_axes(ctx, ints(ctx, "static_sizes") or [], _declared(ctx, ctx.op.inputs[0]))
    for axis, a in enumerate(kept):
        ctx.eq(source[axis], sizes[a], "insert_slice source dim", (ctx.dim_name(0, axis), f"slice size {a}"))
    _in_bounds(ctx, dest, offsets, sizes, strides)
    ctx.set_output(0, dest)


def _output_shape(ctx: OpContext) -> list[Dim | None]:
    """``static_output_shape`` with its operands' tracked values, or the declared result dims
    (older MLIR has no ``output_shape``); None where unknown."""
    static = ints(ctx, "static_output_shape")
    if static is None or (K_DYNAMIC in static and ctx.num_inputs == 1):
        return list(_declared(ctx, ctx.op.outputs[0]))
    out: list[Dim | None] = []
    k = 1
    for s in static:
        if s != K_DYNAMIC:
            out.append(s)
            continue
        els = ctx.elements(k)
        out.append(els[0] if els is not None and len(els) == 1 else None)
        k += 1
    return out


@register(TENSOR, "expand_shape", then=check_declared)
def expand_shape(ctx: OpContext) -> None:
    """The output shape; each group's product is its source dim (a fact), which also gives a
    group's one unknown size when it divides exactly.

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorexpand_shape-tensorexpandshapeop
    """
    dims = ctx.shape(0)
    groups: list[list[int]] = ctx.attr("reassociation") or []
    ctx.require_len(
        groups, len(dims), "{got} reassociation groups for a source of rank {n}", "{n} groups (one per source dim)"
    )
    given = _output_shape(ctx)
    if sorted(a for g in groups for a in g) != list(range(len(given))):
        raise ctx.invalid(
            f"reassociation {groups} does not cover the {len(given)} result dims",
            f"each of 0..{len(given) - 1} in one group, in order",
        )
    out: list[Dim] = []
    for gi, group in enumerate(groups):
        holes = [a for a in group if given[a] is None]
        known = [d for d in (given[a] for a in group) if d is not None]
        sizes: dict[int, Dim] = {a: d for a in group if (d := given[a]) is not None}
        rest = ctx.canon(product(known))
        solved = exact_div(dims[gi], rest) if len(holes) == 1 and rest != 0 else None
        for a in holes:
            sizes[a] = ctx.canon(solved) if solved is not None else ctx.fresh(f"d{a}")
        ctx.eq(
            product(sizes[a] for a in group),
            dims[gi],
            "expand_shape group product",
            (f"the product of result dims {group}", ctx.dim_name(0, gi)),
        )
        out.extend(sizes[a] for a in group)
    ctx.set_output(0, [ctx.canon(d) for d in out], ctx.elements(0))


@register(TENSOR, "pad", then=check_declared)
def pad(ctx: OpContext) -> None:
    """``low + dim + high`` per dim (static or dynamic amounts).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorpad-tensorpadop
    """
    dims = ctx.shape(0)
    low, k = mixed(ctx, "static_low", 1)
    high, _ = mixed(ctx, "static_high", k)
    if not len(low) == len(high) == len(dims):
        raise ctx.invalid(f"{len(low)} low and {len(high)} high padding values", f"{len(dims)} each (one per dim)")
    ctx.set_output(0, [ctx.canon(add(add(d, lo), hi)) for d, lo, hi in zip(dims, low, high, strict=True)])


@register(TENSOR, "insert", then=check_declared)
def insert(ctx: OpContext) -> None:
    """The destination's shape; a tracked destination gets the scalar at a constant index.

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorinsert-tensorinsertop
    """
    dims = ctx.shape(1)
    dest, scalar = ctx.elements(1), ctx.elements(0)
    index = [ctx.const_ints(i) for i in range(2, ctx.num_inputs)]
    values = None
    static = [d for d in dims if isinstance(d, int)]
    if dest is not None and scalar is not None and len(static) == len(dims) == len(index):
        flat = 0
        for ix, d in zip(index, static, strict=True):
            flat = -1 if ix is None or flat < 0 else flat * d + ix[0]
        if 0 <= flat < len(dest):
            values = (*dest[:flat], scalar[0], *dest[flat + 1 :])
    ctx.set_output(0, dims, values)


# ------------------------------------------------------------------ dims and shape tensors


@register(TENSOR, "dim", then=check_declared)
def tensor_dim(ctx: OpContext) -> None:
    """The size of one dim as an index value. https://mlir.llvm.org/docs/Dialects/TensorOps/#tensordim-tensordimop"""
    dims = ctx.shape(0)
    index = ctx.const_ints(1)
    if index is None:
        ctx.set_output(0, ())
        return
    ctx.set_output(0, (), (dims[normalize_axis(ctx, index[0], len(dims))],))


@register(TENSOR, "from_elements", then=check_declared)
def from_elements(ctx: OpContext) -> None:
    """The declared (static) shape filled with the operands' values.

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorfrom_elements-tensorfromelementsop
    """
    parts = [elements_or_unknowns(ctx, i) for i in range(ctx.num_inputs)]
    values = None if any(p is None for p in parts) else tuple(p[0] for p in parts if p)
    ctx.set_output(0, declared_dims(ctx), values)


@register(TENSOR, "extract", then=check_declared)
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


@register(TENSOR, "cast", then=check_declared)
def cast(ctx: OpContext) -> None:
    """Same dims; a static result dim asserts the operand's (a fact via the declared type).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorcast-tensorcastop
    """
    ctx.set_output(0, ctx.shape(0), ctx.elements(0))


@register(TENSOR, "empty", "splat", "generate", then=check_declared)
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


@register(TENSOR, "reshape", then=check_declared)
def tensor_reshape(ctx: OpContext) -> None:
    """Dims from the shape operand; equal element counts (a fact).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorreshape-tensorreshapeop
    """
    target = ctx.elements(1) or declared_dims(ctx)
    ctx.eq(product(target), product(ctx.shape(0)), "reshape element count")
    ctx.set_output(0, target, ctx.elements(0))


@register(TENSOR, "collapse_shape", then=check_declared)
def collapse_shape(ctx: OpContext) -> None:
    """Each reassociation group's product. https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorcollapse_shape-tensorcollapseshapeop"""
    dims = ctx.shape(0)
    groups: list[list[int]] = ctx.attr("reassociation") or []
    ctx.set_output(0, [ctx.canon(product(dims[a] for a in g)) for g in groups], ctx.elements(0))


@register(TENSOR, "concat", then=check_declared)
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
