"""Helpers shared by the rule families: broadcasting, axes, element arithmetic."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from symshape.algebra.expr import Dim, Expr, add, mul, smax, smin
from symshape.algebra.piecewise import minmax_args
from symshape.engine.context import GiveUp, OpContext
from symshape.errors import ContradictionError

ElementArray = np.ndarray[Any, np.dtype[np.object_]]

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def normalize_axis(ctx: OpContext, axis: int, rank: int, *, extra: int = 0, what: str = "axis") -> int:
    """``axis`` in ``[0, rank + extra)``, a negative one counted from the end.

    Out of range, a ModelError names the op, the attribute (``what``), the axis, the rank and
    the valid range.
    """
    bound = rank + extra
    if not -bound <= axis < bound:
        raise ctx.invalid(
            f"{what} {axis} is out of range for rank {rank}",
            f"an axis in [{-bound}, {bound - 1}]",
            f"fix the {what.split()[0]} attribute",
        )
    return axis + bound if axis < 0 else axis


def axes_input_or_attr(ctx: OpContext, index: int, name: str = "axes") -> list[int] | None:
    """Axes from input ``index`` (opset >= 13 style) or attribute ``name``; None if absent."""
    if ctx.has_input(index):
        axes = ctx.const_ints(index)
        if axes is None:
            raise GiveUp(f"the {name} input is not a constant")
        return list(axes)
    value = ctx.attr(name)
    return None if value is None else list(value)


def broadcast_dim(ctx: OpContext, dims: Sequence[Dim], axis: int) -> Dim:
    """The broadcast of ``dims`` on one axis (numpy rules), never merging silently.

    A symbolic dim that may be 1 is not equated with the others: the result is a known constant
    when one exists, and the exact ``Max(...)*Min(1, ...)`` (`_broadcast_symbolic`) when all are
    symbolic.
    """
    rest = [d for d in dims if not (isinstance(d, int) and d == 1)]
    if not rest:
        return 1
    distinct: list[Dim] = []
    for d in rest:
        if not any(ctx.prove_eq(d, e) for e in distinct):
            distinct.append(d)
    if len(distinct) == 1:
        return distinct[0]
    consts = sorted({d for d in distinct if isinstance(d, int)})
    if len(consts) > 1:
        raise ContradictionError(
            where=ctx.where(),
            found=f"dims {consts[0]} and {consts[1]} on output axis {axis}",
            expected="dims that are equal or 1 (multidirectional broadcasting)",
            fix="check the shapes of the operands",
        )
    symbolic = [d for d in distinct if isinstance(d, Expr)]
    if consts:
        return _broadcast_to_const(ctx, consts[0], symbolic)
    if _clamped_pair(ctx, symbolic):
        return broadcast_dim(ctx, [ctx.canon(d) for d in dims], axis)
    symbolic = _drop_absorbed_max(ctx, symbolic)
    if len(symbolic) == 1:
        return symbolic[0]
    absorbing = _already_broadcast(ctx, symbolic)
    return absorbing if absorbing is not None else _broadcast_symbolic(ctx, symbolic)


def _drop_absorbed_max(ctx: OpContext, symbolic: list[Expr]) -> list[Expr]:
    """Drop each ``Max(b, c...)`` broadcast with ``b`` itself where every ``c`` is 0 or 1: for
    ``b >= 1`` it is ``b``, and for ``b = 0`` it is 0 or 1, which broadcasts to 0. So the pair is
    ``b`` (onnxruntime's allowzero -1, ``Max(batch, 1 - Min(1, seq))``, added to ``batch``)."""
    def absorbed(d: Expr) -> bool:
        parts = minmax_args(d)
        if parts is None or not parts[0]:
            return False
        inside = [a for a in parts[1] if any(a is e for e in symbolic)]
        rest = [a for a in parts[1] if not any(a is e for e in symbolic)]
        return bool(inside) and all(ctx.prove_ge(a, 0) and ctx.prove_ge(add(1, mul(a, -1)), 0) for a in rest)

    kept = [d for d in symbolic if not absorbed(d)]
    return kept or symbolic


def _already_broadcast(ctx: OpContext, symbolic: Sequence[Expr]) -> Expr | None:
    """A dim that is itself the broadcast of a set holding every other dim: broadcasting is
    idempotent (``bcast(bcast(a, b), b) == bcast(a, b)`` for every valid broadcast), so it is the
    result. This lets a loop state broadcast against the same slice each step reach a fixpoint."""
    made = ctx.table("broadcast.results", dict[Expr, tuple[Expr, ...]])
    for d in symbolic:
        parts = made.get(d)
        if parts is not None and all(e is d or any(e is q for q in parts) for e in symbolic):
            return d
    return None


def _clamped_pair(ctx: OpContext, symbolic: Sequence[Expr]) -> bool:
    """A dim ``a`` broadcast with ``Min(a, k)`` (a slice of a table of ``k >= 2`` rows to ``a``):
    valid only when ``a <= k`` (else ``k`` meets ``a > k``, neither 1), a fact of the program.
    Records it and returns True (the two dims are then equal)."""
    for d in symbolic:
        parts = minmax_args(d)
        if parts is None or parts[0]:
            continue
        ints = [x for x in parts[1] if isinstance(x, int)]
        others = [x for x in parts[1] if not isinstance(x, int)]
        if len(others) == 1 and ints and min(ints) >= 2 and any(others[0] is e for e in symbolic):
            ctx.assume_range(others[0], None, min(ints), "broadcast of a slice clamped to a table")
            return ctx.canon(d) is not d  # a symbol's range decides the Min; a predicate may not
    return False


def _broadcast_to_const(ctx: OpContext, c: int, symbolic: Sequence[Expr]) -> Dim:
    """Symbolic dims broadcast with the constant ``c``: each is 1 or ``c``."""
    facts = ctx.facts
    for d in symbolic:  # valid broadcasting: d is 1 or c; d != 1 proven means d == c
        if facts.prove_ge(d, 2) or (c == 0 and facts.prove_ge(d, 0) and facts.prove_le(d, 0)):
            ctx.eq(d, c, "broadcast")
        else:
            ctx.imprecise()
            ctx.graph.require_broadcast(d, c, ctx.origin("broadcast"))
    return c


def _broadcast_symbolic(ctx: OpContext, symbolic: Sequence[Expr]) -> Dim:
    """Distinct symbolic dims broadcast together: equal when none may be 1, else exact.

    A valid broadcast has every dim that is not 1 equal, so its result is ``Max(...)`` when all
    are at least 1 and 0 when one is 0: ``Max(a, b)*Min(1, a, b)`` for every valid broadcast,
    ``Max(a, b)`` once the facts prove each ``>= 1``. Validity itself (``a == b or a == 1 or
    b == 1``) is what the program requires to run; no guard is needed for the result.
    """
    facts = ctx.facts
    if all(facts.prove_ge(d, 2) for d in symbolic):
        for d in symbolic[1:]:
            ctx.eq(d, symbolic[0], "broadcast", None)
        return symbolic[0]
    ctx.imprecise()
    for i, d in enumerate(symbolic):
        for e in symbolic[i + 1 :]:
            ctx.graph.require_broadcast(d, e, ctx.origin("broadcast"))
    result = smax(*symbolic)
    if not all(facts.prove_ge(d, 1) for d in symbolic):
        result = mul(result, smin(1, *symbolic))
    result = ctx.canon(result)
    if isinstance(result, Expr):
        ctx.table("broadcast.results", dict[Expr, tuple[Expr, ...]])[result] = tuple(symbolic)
    return result


def broadcast_shapes(ctx: OpContext, shapes: Sequence[Sequence[Dim]]) -> tuple[Dim, ...]:
    """Multidirectional (numpy) broadcasting of several shapes."""
    rank = max((len(s) for s in shapes), default=0)
    out: list[Dim] = []
    for axis in range(rank):
        dims = [s[len(s) - rank + axis] for s in shapes if len(s) - rank + axis >= 0]
        out.append(broadcast_dim(ctx, dims, axis))
    return tuple(out)


def element_array(ctx: OpContext, i: int) -> ElementArray | None:
    """The tracked elements of input ``i`` as an object array of its (static) shape, or None.

    Tracked elements are stored flat in row-major order; they can only be laid out again when
    every dim is a known integer.
    """
    els = ctx.elements(i)
    shape = ctx.shape_or_none(i)
    dims = None if shape is None else static(shape)
    if els is None or dims is None or int(np.prod(dims, dtype=np.int64)) != len(els):
        return None
    return to_array(els).reshape(dims)


def number_array(ctx: OpContext, i: int) -> ElementArray | None:
    """Like `element_array`, falling back to the contents of a small float constant."""
    arr = element_array(ctx, i)
    if arr is not None:
        return arr
    floats = ctx.const_floats(i)
    shape = ctx.shape_or_none(i)
    dims = None if shape is None else static(shape)
    if floats is None or dims is None or int(np.prod(dims, dtype=np.int64)) != len(floats):
        return None
    out = np.empty(len(floats), dtype=object)
    for k, f in enumerate(floats):
        out[k] = f
    return out.reshape(dims)


def exact_float_int(value: float) -> int | None:
    """``value`` as an int when it is integral and exact in float32 (so a Cast truncates to it)."""
    if not value.is_integer() or abs(value) >= 2**24:
        return None
    return int(value)


def static(dims: Sequence[Dim]) -> tuple[int, ...] | None:
    """``dims`` as ints when every one is a known integer, else None."""
    out: list[int] = []
    for d in dims:
        if not isinstance(d, int):
            return None
        out.append(d)
    return tuple(out)


def to_array(values: Sequence[Dim]) -> ElementArray:
    """A flat object array holding ``values`` (ints and expressions, never unpacked)."""
    arr = np.empty(len(values), dtype=object)
    for k, v in enumerate(values):
        arr[k] = v
    return arr


def flat(arr: ElementArray | Dim) -> tuple[Dim, ...]:
    """The elements of ``arr`` in row-major order (numpy hands back 0-d results as scalars)."""
    if not isinstance(arr, np.ndarray):
        return (arr,)
    return tuple(arr.reshape(-1).tolist())


def split_elements(ctx: OpContext, axis: int, sizes: Sequence[Dim]) -> list[tuple[Dim, ...]] | None:
    """The tracked elements of input 0 cut along ``axis`` into pieces of ``sizes``, when the
    layout and the sizes are known (Split, SplitToSequence)."""
    src = element_array(ctx, 0)
    cuts = static(sizes)
    if src is None or cuts is None or sum(cuts) != src.shape[axis] or min(cuts, default=0) < 0:
        return None
    bounds = np.cumsum(cuts)[:-1].tolist()
    return [flat(part) for part in np.split(src, bounds, axis=axis)]


def broadcast_elements(
    ctx: OpContext, inputs: Sequence[int], fn: Callable[..., Dim | None], *, numbers: bool = False
) -> tuple[Dim, ...] | None:
    """Apply ``fn`` elementwise to the tracked elements of ``inputs`` with numpy broadcasting
    of their (static) shapes; None if any input or any result is unknown. With ``numbers``,
    small float constants take part too (``fn`` then sees Python floats)."""
    columns = _vectors(ctx, inputs) if not numbers else None
    if columns is None:
        arrays: list[ElementArray] = []
        for i in inputs:
            arr = number_array(ctx, i) if numbers else element_array(ctx, i)
            if arr is None:
                return None
            arrays.append(arr)
        try:
            columns = [flat(p) for p in np.broadcast_arrays(*arrays)]
        except ValueError:
            return None
    out: list[Dim] = []
    for values in zip(*columns, strict=True):
        r = fn(*values)
        if r is None:
            return None
        out.append(r)
    return tuple(out)


def _vectors(ctx: OpContext, inputs: Sequence[int]) -> list[tuple[Dim, ...]] | None:
    """The fast path for shape arithmetic: scalars and 1-D vectors, broadcast without numpy.

    None when some input is not tracked or has rank > 1 (numpy lays those out).
    """
    parts: list[tuple[Dim, ...]] = []
    for i in inputs:
        els, shape = ctx.elements(i), ctx.shape_or_none(i)
        if els is None or shape is None or len(shape) > 1 or (shape and shape[0] != len(els)):
            return None
        parts.append(els)
    n = max((len(p) for p in parts), default=0)
    if any(len(p) not in (1, n) for p in parts):
        return None
    if any(len(p) == 1 for p in parts) and n == 0:
        return None
    return [p * n if len(p) == 1 and n != 1 else p for p in parts]
