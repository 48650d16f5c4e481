"""Ops that rearrange elements: Reshape, Flatten, Expand, Tile, Transpose.

Reshape relates element counts (seed 000's group multiplication equality): an equality that
cannot be solved yet stays a residual equation in the constraint graph.
"""

from __future__ import annotations

import numpy as np

from symshape.algebra.expr import (
    Dim,
    FloorDiv,
    add,
    exact_div,
    expand_mod,
    floordiv,
    mul,
    product,
    single_atom,
    smax,
    smin,
)
from symshape.engine.context import OpContext
from symshape.engine.nonneg import prove_nonneg
from symshape.rules.onnx.partial import set_partial
from symshape.rules.onnx.shape_ops import shape_from_elements
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import broadcast_shapes, element_array, flat, static
from symshape.rules.shared.piecewise import piecewise
from symshape.rules.shared.relations import simplest


@register(ONNX, "Reshape")
def reshape(ctx: OpContext) -> None:
    """Target dims from input 1: ``0`` copies the input dim (unless ``allowzero``), ``-1`` is
    inferred from the element count. https://onnx.ai/onnx/operators/onnx__Reshape.html
    """
    els = ctx.elements(1)
    if ctx.shape_or_none(0) is None and els is not None:
        _target_alone(ctx, els)
        return
    dims = ctx.shape(0)
    if (not els or not isinstance(els[0], int)) and ctx.shape(1) == (1,):
        # one target dim whatever its value (-1, a copy, the count itself): the element count
        ctx.set_output(0, [ctx.canon(product(dims))], ctx.elements(0))
        return
    computed = list(_shape_from_elements_signed(ctx))
    target = list(computed)
    allowzero = bool(ctx.attr("allowzero", 0))
    numel = ctx.canon(product(dims))
    infer_at = _copy_zeros(ctx, dims, target, allowzero, _count_keeps_zero(ctx, computed, numel))
    if infer_at is not None:
        others = [(i, t) for i, t in enumerate(target) if i != infer_at]
        rest = ctx.canon(product(t for _, t in others))
        inferred = _quotient(ctx, numel, rest)
        inferred = _require_others_nonzero(ctx, dims, computed, others, allowzero=allowzero, inferred=inferred)
        if inferred is None:
            inferred = ctx.canon(floordiv(numel, rest))
            ctx.eq(mul(inferred, rest), numel, "reshape -1", ("the reshaped element count", "the input element count"))
        target[infer_at] = inferred
    else:
        ctx.eq(product(target), numel, "reshape element count", ("the target element count", "the input element count"))
    ctx.set_output(0, [ctx.canon(t) for t in target], ctx.elements(0))


def _target_alone(ctx: OpContext, target: tuple[Dim, ...]) -> None:
    """The input's shape is unknown: the target alone gives the rank and every dim but a ``-1``
    or a copied ``0``."""
    allowzero = bool(ctx.attr("allowzero", 0))
    dims: list[Dim | None] = [
        None if isinstance(t, int) and (t == -1 or t == 0 and not allowzero) else t for t in target
    ]
    set_partial(ctx, 0, dims, "reshape", "the input's shape is unknown (the -1 or the copied 0 needs it)")


def _require_others_nonzero(
    ctx: OpContext, dims: tuple[Dim, ...], computed: list[Dim], others: list[tuple[int, Dim]], *, allowzero: bool,
    inferred: Dim | None,
) -> Dim | None:
    """-1 is only defined when every other target dim is non-zero: a fact of the program, or with
    ``allowzero`` (the spec forbids 0 with -1; onnxruntime infers it from the non-zero dims) what
    onnxruntime's -1 needs, or its exact value. Returns the -1's value (None: not a quotient)."""
    pairs = _zeros_pair_up(ctx, dims, [t for _, t in others]) if allowzero and inferred is not None else None
    if pairs is not None and inferred is not None:
        zeroable, maybe_zero = pairs
        if len(maybe_zero) == 1 and ctx.prove_eq(inferred, maybe_zero[0]) is True:
            # the -1 copies the one input dim left: 1 where it and an element are both 0
            return ctx.canon(smax(inferred, add(1, mul(smin(1, *zeroable), -1))))
        if maybe_zero:
            reason = "the -1 next to an allowzero 0 is the quotient unless another input dim is 0 too"
            ctx.guard(smax(smin(*zeroable), smin(*maybe_zero)), ">=", 1, "reshape -1", reason)
    for i, t in others:
        if isinstance(t, int):
            if t == 0:
                raise ctx.invalid(
                    f"target element {i} is 0 next to a -1, which makes the -1 ambiguous",
                    "non-zero target dims next to a -1",
                    "fix the target shape",
                )
        elif allowzero:
            if pairs is None:
                ctx.guard(t, ">=", 1, "reshape -1", f"target element {i} '{t}' is not 0 next to a -1")
        elif _zero_is_invalid(ctx, dims, i, computed[i]):
            ctx.assume_range(t, 1, None, "reshape -1 needs other dims >= 1")
    return inferred


def _zeros_pair_up(ctx: OpContext, dims: tuple[Dim, ...], others: list[Dim]) -> tuple[list[Dim], list[Dim]] | None:
    """The target elements next to an allowzero -1 that may be 0, and the other input dims that
    may be 0, when the first are input dims of their own (matched one to one): None otherwise.

    Onnxruntime infers that -1 as (product of the non-zero input dims) / (product of the non-zero
    target dims), so paired zeros drop out together and the -1 is the quotient unless one of the
    other input dims is 0 too (``view(batch, seq, -1, 64)`` at ``batch = 0`` is exact;
    ``view(-1, seq)`` of ``[batch, seq]`` at ``batch = seq = 0`` gives 1)."""
    unmatched, zeroable = list(dims), list[Dim]()
    for t in others:
        if isinstance(t, int) or ctx.facts.prove_ge(t, 1):
            continue
        j = next((j for j, d in enumerate(unmatched) if ctx.prove_eq(t, d) is True), None)
        if j is None:
            return None
        zeroable.append(unmatched.pop(j))
    maybe_zero = [d for d in unmatched if not (isinstance(d, int) and d >= 1 or ctx.facts.prove_ge(d, 1))]
    if maybe_zero and (not zeroable or any(isinstance(d, int) for d in maybe_zero)):
        return None
    return zeroable, maybe_zero


def _zero_is_invalid(ctx: OpContext, dims: tuple[Dim, ...], i: int, element: Dim) -> bool:
    """Whether a 0 at target position ``i`` next to a -1 makes the op invalid (so ``>= 1`` is a
    fact). Not when a computed element that may be 0 would copy a different input dim: that case
    is covered by `_symbolic_target`."""
    if isinstance(element, int):  # a literal 0 copies dims[i]; that copy must be >= 1
        return True
    return i >= len(dims) or ctx.prove_eq(element, dims[i]) is True


def _count_keeps_zero(ctx: OpContext, computed: list[Dim], numel: Dim) -> set[int]:
    """Positions where a computed element 0 (a copy) still gives size 0: with no -1, a target
    whose product is provably the element count and every other element provably ``>= 1`` has
    count 0 there, so the copied dim must be 0 too wherever the program runs."""
    if -1 in computed or ctx.prove_eq(product(computed), numel) is not True:
        return set()
    at_least_one = [not isinstance(t, int) and ctx.facts.prove_ge(t, 1) or (isinstance(t, int) and t >= 1)
                    for t in computed]
    return {i for i in range(len(computed)) if all(at_least_one[:i] + at_least_one[i + 1 :])}


def _copy_zeros(
    ctx: OpContext, dims: tuple[Dim, ...], target: list[Dim], allowzero: bool, kept: set[int]
) -> int | None:
    """Replace each ``0`` by the input dim it copies (in place); return the position of ``-1``.

    A symbolic target element that may be 0 would copy instead of being 0: that is a guard.
    """
    infer_at = None
    for i, t in enumerate(target):
        if not isinstance(t, int):
            tracked = ctx.elements(1) is not None
            target[i] = t if i in kept else _symbolic_target(ctx, dims, i, t, allowzero, tracked)
        elif t == -1:
            if infer_at is not None:
                raise ctx.invalid(
                    f"more than one -1 in the target shape (elements {infer_at} and {i})",
                    "at most one -1",
                    "fix the target shape",
                )
            infer_at = i
        elif t == 0 and not allowzero:
            if i >= len(dims):
                raise ctx.invalid(
                    f"target element {i} is 0 (copy the input dim) but the input has rank {len(dims)}",
                    f"0 only at positions < {len(dims)}",
                    "fix the target shape",
                )
            target[i] = dims[i]
        elif t < -1:
            raise ctx.invalid(f"target element {i} is {t}", "elements >= -1", "fix the target shape")
    return infer_at


def _symbolic_target(
    ctx: OpContext, dims: tuple[Dim, ...], i: int, t: Dim, allowzero: bool, tracked: bool
) -> Dim:
    """The size a computed target element gives. It must not be -1 (inference): a guard unless
    provably ``>= 0``. Without ``allowzero`` a 0 copies input dim ``i``: where ``t`` is computed
    from tracked elements and ``t if t >= 1 else dims[i]`` is a Min or Max, that is the size
    (``Max(n, 1)``); else a guard ``t >= 1``. Exact where it reads well, because a later rule may
    turn a guarded dim's requirement into a fact that then discharges the guard, although the
    program runs at ``t = 0``."""
    if ctx.facts.prove_ge(t, 1) or (i < len(dims) and ctx.prove_eq(t, dims[i])):
        return t
    nonneg = prove_nonneg(ctx, t)
    if allowzero:
        if not nonneg:
            ctx.guard(t, ">=", 0, "reshape target", f"target element {i} '{t}' is not -1")
        return t
    if i < len(dims) and nonneg and _zero_copies_zero(ctx, t, dims[i]):
        return t  # t = 0 copies a dim that is then 0 too: the dim is t either way
    exact = _copy_when_zero(ctx, t, dims[i]) if tracked and i < len(dims) else None
    if exact is None and nonneg and i < len(dims) and ctx.facts.prove_le(t, 1):
        exact = ctx.canon(add(t, mul(add(1, mul(t, -1)), dims[i])))  # t is 0 or 1: a flag, exactly
    if exact is None:  # a fresh t stands for the size itself: the guard keeps it observable
        ctx.guard(t, ">=", 1, "reshape target", f"target element {i} '{t}' is neither 0 (a copy) nor -1")
        return t
    if not nonneg:
        ctx.guard(t, ">=", 0, "reshape target", f"target element {i} '{t}' is not -1")
    return exact


def _copy_when_zero(ctx: OpContext, t: Dim, d: Dim) -> Dim | None:
    """``t if t >= 1 else d`` when `piecewise` finds it a Min or Max (None for the bracket
    identity, which would make every later dim unreadable)."""
    exact = piecewise(ctx, add(t, -1), t, d)
    return exact if exact in (ctx.canon(smax(t, d)), ctx.canon(smin(t, d))) else None


def _zero_copies_zero(ctx: OpContext, t: Dim, d: Dim) -> bool:
    """Whether ``t = 0`` forces ``d = 0``: ``d`` is a multiple of ``t``, ``t`` a non-zero
    constant multiple of ``d`` (``3*s``), or ``t = floor(d/k)`` with ``k`` dividing ``d``
    (``floor(h/2)`` under ``h % 2 == 0``: below ``k`` only 0 is a multiple of ``k``)."""
    atom = single_atom(t)
    if isinstance(atom, FloorDiv) and atom.num is d and isinstance(atom.den, int) and atom.den > 0:
        return ctx.facts.divides(atom.den, d)
    t, d = ctx.canon(expand_mod(t)), ctx.canon(expand_mod(d))
    if exact_div(d, t) is not None:
        return True
    q = exact_div(t, d)
    return isinstance(q, int) and q != 0


def _quotient(ctx: OpContext, numel: Dim, rest: Dim) -> Dim | None:
    """``numel / rest`` when it is a polynomial, also after writing Mods as floors (a padded
    size ``Mod(-x + 3, 4) + x + 1`` is ``4*floor(x/4) + 4``)."""
    q = exact_div(numel, rest)
    if q is None:
        q = exact_div(ctx.canon(expand_mod(numel)), ctx.canon(expand_mod(rest)))
    return None if q is None else simplest(ctx, q)


def _shape_from_elements_signed(ctx: OpContext) -> tuple[Dim, ...]:
    els = ctx.elements(1)
    if els is not None:
        return els
    return shape_from_elements(ctx, 1)


@register(ONNX, "Flatten")
def flatten(ctx: OpContext) -> None:
    """``[prod(d[:axis]), prod(d[axis:])]``. https://onnx.ai/onnx/operators/onnx__Flatten.html"""
    dims = ctx.shape(0)
    axis = ctx.attr("axis", 1)  # in [-r, r]; a negative axis counts from the end: -1 is r - 1
    if not -len(dims) <= axis <= len(dims):
        raise ctx.invalid(
            f"axis {axis} is out of range for rank {len(dims)}",
            f"an axis in [{-len(dims)}, {len(dims)}]",
            "fix the axis attribute",
        )
    axis = axis + len(dims) if axis < 0 else axis
    ctx.set_output(0, (ctx.canon(product(dims[:axis])), ctx.canon(product(dims[axis:]))), ctx.elements(0))


@register(ONNX, "Expand")
def expand(ctx: OpContext) -> None:
    """Broadcast of the input shape with the shape in input 1.

    https://onnx.ai/onnx/operators/onnx__Expand.html
    """
    target = shape_from_elements(ctx, 1)
    out = broadcast_shapes(ctx, [ctx.shape(0), target])
    src = element_array(ctx, 0)
    elements = None
    sizes = static(out)
    if src is not None and sizes is not None:
        elements = flat(np.broadcast_to(src, sizes))
    ctx.set_output(0, out, elements)


@register(ONNX, "Tile")
def tile(ctx: OpContext) -> None:
    """Dim ``i`` times ``repeats[i]``. https://onnx.ai/onnx/operators/onnx__Tile.html"""
    dims = ctx.shape(0)
    repeats = ctx.elements(1)
    if repeats is None:  # the rank is kept, and a dim of 0 stays 0 whatever it is repeated
        set_partial(ctx, 0, [0 if d == 0 else None for d in dims], "tile", "the repeats are not known")
        return
    ctx.require_len(repeats, len(dims), "{got} repeats for rank {n}", "{n} repeats (one per dim)")
    out = [ctx.canon(mul(d, r)) for d, r in zip(dims, repeats, strict=True)]
    elements = None
    src = element_array(ctx, 0)
    reps = static(repeats)
    if src is not None and reps is not None:
        elements = flat(np.tile(src, reps))
    ctx.set_output(0, out, elements)


@register(ONNX, "Transpose")
def transpose(ctx: OpContext) -> None:
    """Dims permuted by ``perm`` (reversed by default).

    https://onnx.ai/onnx/operators/onnx__Transpose.html
    """
    dims = ctx.shape(0)
    perm = ctx.attr("perm") or list(reversed(range(len(dims))))
    if sorted(perm) != list(range(len(dims))):
        raise ctx.invalid(
            f"perm {perm} is not a permutation of rank {len(dims)}",
            f"each of 0..{len(dims) - 1} once",
            "fix the perm attribute",
        )
    src = element_array(ctx, 0)
    ctx.set_output(0, [dims[p] for p in perm], None if src is None else flat(src.transpose(perm)))
