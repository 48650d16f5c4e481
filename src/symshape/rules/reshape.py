"""Ops that rearrange elements: Reshape, Flatten, Expand, Tile, Transpose.

Reshape relates element counts (seed 000's group multiplication equality): an equality that
cannot be solved yet stays a residual equation in the constraint graph.
"""

from __future__ import annotations

from symshape.analysis import GiveUp, OpContext
from symshape.errors import ModelError
from symshape.expr import Dim, exact_div, floordiv, mul, product
from symshape.rules import ONNX, register
from symshape.rules.common import broadcast_shapes, normalize_axis
from symshape.rules.shape_ops import _shape_from_elements


@register(ONNX, "Reshape")
def reshape(ctx: OpContext) -> None:
    """Target dims from input 1: ``0`` copies the input dim (unless ``allowzero``), ``-1`` is
    inferred from the element count. https://onnx.ai/onnx/operators/onnx__Reshape.html
    """
    dims = ctx.shape(0)
    target = list(_shape_from_elements_signed(ctx))
    allowzero = ctx.attr("allowzero", 0)
    facts = ctx.graph.facts
    infer_at = None
    for i, t in enumerate(target):
        if isinstance(t, int):
            if t == -1:
                if infer_at is not None:
                    raise ModelError(f"{ctx.where()}: more than one -1 in the target shape")
                infer_at = i
            elif t == 0 and not allowzero:
                if i >= len(dims):
                    raise ModelError(f"{ctx.where()}: target element {i} is 0 but the input has rank {len(dims)}")
                target[i] = dims[i]
            elif t < -1:
                raise ModelError(f"{ctx.where()}: target element {i} is {t}; expected >= -1")
        elif not allowzero and i < len(dims) and not facts.prove_ge(t, 1) and not ctx.prove_eq(t, dims[i]):
            ctx.guard(t, ">=", 1, "reshape target", f"target element {i} '{t}' is not 0 (0 would copy input dim {i})")
    numel = ctx.graph.canon(product(dims))
    if infer_at is not None:
        others = [t for i, t in enumerate(target) if i != infer_at]
        for t in others:  # -1 is only defined when every other target dim is non-zero: a fact
            if not isinstance(t, int):
                ctx.graph.assume_range(t, 1, None, ctx.origin("reshape -1 needs other dims >= 1"))
            elif t == 0:
                raise ModelError(f"{ctx.where()}: -1 together with a 0-sized target dim is ambiguous")
        rest = ctx.graph.canon(product(others))
        inferred = exact_div(numel, rest)
        if inferred is None:
            inferred = ctx.graph.canon(floordiv(numel, rest))
            ctx.eq(mul(inferred, rest), numel, "reshape -1", ("the reshaped element count", "the input element count"))
        target[infer_at] = inferred
    else:
        ctx.eq(product(target), numel, "reshape element count", ("the target element count", "the input element count"))
    ctx.set_output(0, [ctx.graph.canon(t) for t in target], ctx.elements(0))


def _shape_from_elements_signed(ctx: OpContext) -> tuple[Dim, ...]:
    els = ctx.elements(1)
    if els is not None:
        return els
    return _shape_from_elements(ctx, 1)


@register(ONNX, "Flatten")
def flatten(ctx: OpContext) -> None:
    """``[prod(d[:axis]), prod(d[axis:])]``. https://onnx.ai/onnx/operators/onnx__Flatten.html"""
    dims = ctx.shape(0)
    axis = normalize_axis(ctx, ctx.attr("axis", 1), len(dims), extra=1)
    ctx.set_output(0, (ctx.graph.canon(product(dims[:axis])), ctx.graph.canon(product(dims[axis:]))))


@register(ONNX, "Expand")
def expand(ctx: OpContext) -> None:
    """Broadcast of the input shape with the shape in input 1.

    https://onnx.ai/onnx/operators/onnx__Expand.html
    """
    target = _shape_from_elements(ctx, 1)
    ctx.set_output(0, broadcast_shapes(ctx, [ctx.shape(0), target]))


@register(ONNX, "Tile")
def tile(ctx: OpContext) -> None:
    """Dim ``i`` times ``repeats[i]``. https://onnx.ai/onnx/operators/onnx__Tile.html"""
    dims = ctx.shape(0)
    repeats = ctx.elements(1)
    if repeats is None:
        raise GiveUp("Tile repeats are not known")
    if len(repeats) != len(dims):
        raise ModelError(f"{ctx.where()}: {len(repeats)} repeats for rank {len(dims)}")
    out = [ctx.graph.canon(mul(d, r)) for d, r in zip(dims, repeats, strict=True)]
    elements = None
    src = ctx.elements(0)
    if src is not None and len(dims) == 1 and isinstance(repeats[0], int):
        elements = tuple(src) * repeats[0]
    ctx.set_output(0, out, elements)


@register(ONNX, "Transpose")
def transpose(ctx: OpContext) -> None:
    """Dims permuted by ``perm`` (reversed by default).

    https://onnx.ai/onnx/operators/onnx__Transpose.html
    """
    dims = ctx.shape(0)
    perm = ctx.attr("perm") or list(reversed(range(len(dims))))
    if sorted(perm) != list(range(len(dims))):
        raise ModelError(f"{ctx.where()}: perm {perm} is not a permutation of rank {len(dims)}")
    ctx.set_output(0, [dims[p] for p in perm])
