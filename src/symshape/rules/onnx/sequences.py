"""ONNX sequence ops: SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceErase,
SequenceLength, SequenceAt, SplitToSequence and ConcatFromSequence.

A sequence value has no tensor shape, so it never enters the state's ``shapes`` (the reader
types it ``TensorType("sequence", None)`` and the result lists no dims for it). What is known
about it lives in a side table keyed by the analysis state: either the list of its element
tensors (dims and tracked elements) when its length is known statically, or its length as an
expression with the one element shape all elements provably share (``common``; None when they
may differ). `SequenceLength` turns the length into a tracked scalar, so a ``Range`` or
``ConstantOfShape`` built from it gets exact dims.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from symshape.algebra.expr import Dim, add, ceildiv, exact_div, floordiv, mul
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx.data_dependent import record_le
from symshape.rules.onnx.shape_ops import sum_dims
from symshape.rules.registry import ONNX, Rule, register
from symshape.rules.shared.common import normalize_axis, split_elements

Shape = tuple[Dim, ...]
Item = tuple[Shape, Shape | None]  # an element tensor: dims and tracked elements
MAX_ITEMS = 256  # a statically known length up to this keeps one entry per element


@dataclass(frozen=True)
class SeqInfo:
    """A sequence: ``items`` when its length is a known int, else ``length`` and the element
    shape every element provably has (``common``, None when unknown)."""

    length: Dim
    items: tuple[Item, ...] | None = None
    common: Shape | None = None


def _table(ctx: OpContext) -> dict[str, SeqInfo]:
    """The sequence values of this walk (a side table only this module fills)."""
    return ctx.table("sequences", dict[str, SeqInfo])


def _get(ctx: OpContext, i: int) -> SeqInfo:
    """Sequence input ``i`` with canonical dims; gives up when nothing is known about it."""
    info = _table(ctx).get(ctx.input_name(i))
    if info is None:
        raise GiveUp(f"nothing is known about the sequence input #{i} ('{ctx.input_name(i)}')")
    canon = ctx.canon
    items = None
    if info.items is not None:
        items = tuple((_canon(ctx, d), None if e is None else _canon(ctx, e)) for d, e in info.items)
    common = None if info.common is None else _canon(ctx, info.common)
    return SeqInfo(canon(info.length), items, common)


def _canon(ctx: OpContext, dims: Shape) -> Shape:
    return tuple(ctx.canon(d) for d in dims)


def _put(ctx: OpContext, items: Sequence[Item] | None, length: Dim | None = None, common: Shape | None = None) -> None:
    """Set output 0 to a sequence of ``items``, or of ``length`` elements shaped ``common``."""
    if not ctx.num_outputs or not ctx.op.outputs[0]:
        return
    if items is not None and len(items) <= MAX_ITEMS:
        info = SeqInfo(len(items), tuple(items))
    else:
        if items is not None:
            common = _shared(ctx, items)
        info = SeqInfo(len(items) if items is not None else length if length is not None else 0, None, common)
    _table(ctx)[ctx.op.outputs[0]] = info


def _sequence_rule(fn: Rule) -> Rule:
    """Forget output 0's sequence entry first: a rule that gives up must not leave a stale one."""

    @functools.wraps(fn)
    def run(ctx: OpContext) -> None:
        if ctx.num_outputs and ctx.op.outputs[0]:
            _table(ctx).pop(ctx.op.outputs[0], None)
        fn(ctx)

    return run


def _same_shape(ctx: OpContext, a: Shape, b: Shape) -> bool:
    if len(a) != len(b):
        return False
    if all(ctx.prove_eq(x, y) is True for x, y in zip(a, b, strict=True)):
        return True
    ctx.watch((*a, *b))  # a later equality may prove it: walk again then
    return False


def _shared(ctx: OpContext, items: Sequence[Item]) -> Shape | None:
    """The shape all ``items`` provably share, or None (also None for no items)."""
    if not items:
        return None
    first = items[0][0]
    return first if all(_same_shape(ctx, first, d) for d, _ in items[1:]) else None


def _position(ctx: OpContext, i: int) -> int | None:
    """The constant position in scalar input ``i``, or None when it is not known."""
    pos = ctx.const_ints(i)
    if pos is None:
        return None
    ctx.require_len(pos, 1, "the position input has {got} elements", "a scalar position")
    return pos[0]


def _check_index(ctx: OpContext, p: int, n: int, hi: int) -> int:
    """``p`` normalized for a sequence of ``n`` elements, valid in ``[-n, n + hi)``."""
    if not -n <= p < n + hi:
        raise ctx.invalid(
            f"position {p} is out of range for a sequence of {n} elements",
            f"a position in [{-n}, {n + hi - 1}]",
            "fix the position input",
        )
    return p + n if p < 0 else p


def _bound_length(ctx: OpContext, length: Dim, p: int, hi: int, rule: str) -> None:
    """The fact ``-length <= p < length + hi`` for a sequence of unknown length."""
    record_le(ctx, p + 1 - hi if p >= 0 else -p, length, rule)


# ----------------------------------------------------------------------------- building
@register(ONNX, "SequenceEmpty")
@_sequence_rule
def sequence_empty(ctx: OpContext) -> None:
    """An empty sequence. https://onnx.ai/onnx/operators/onnx__SequenceEmpty.html"""
    _put(ctx, ())


@register(ONNX, "SequenceConstruct")
@_sequence_rule
def sequence_construct(ctx: OpContext) -> None:
    """The inputs, in order. https://onnx.ai/onnx/operators/onnx__SequenceConstruct.html"""
    _put(ctx, [(ctx.shape(i), ctx.elements(i)) for i in range(ctx.num_inputs)])


@register(ONNX, "SequenceInsert")
@_sequence_rule
def sequence_insert(ctx: OpContext) -> None:
    """The sequence with the tensor inserted at ``position`` (appended when absent); a
    position must lie in ``[-n, n]``.

    https://onnx.ai/onnx/operators/onnx__SequenceInsert.html
    """
    seq = _get(ctx, 0)
    item: Item = (ctx.shape(1), ctx.elements(1))
    p = _position(ctx, 2) if ctx.has_input(2) else -1 if seq.items is None else len(seq.items)
    if seq.items is not None and p is not None:
        if ctx.has_input(2):
            p = _check_index(ctx, p, len(seq.items), 1)
        _put(ctx, [*seq.items[:p], item, *seq.items[p:]])
        return
    if seq.items is not None:  # an unknown position
        _put(ctx, None, len(seq.items) + 1, _shared(ctx, [*seq.items, item]))
        return
    if p is not None and ctx.has_input(2):
        _bound_length(ctx, seq.length, p, 1, "insert position in range")
    common = seq.common if seq.common is not None and _same_shape(ctx, seq.common, item[0]) else None
    _put(ctx, None, ctx.canon(add(seq.length, 1)), common)


@register(ONNX, "SequenceErase")
@_sequence_rule
def sequence_erase(ctx: OpContext) -> None:
    """The sequence without the element at ``position`` (the last when absent); a position must
    lie in ``[-n, n - 1]``.

    https://onnx.ai/onnx/operators/onnx__SequenceErase.html
    """
    seq = _get(ctx, 0)
    p = _position(ctx, 1) if ctx.has_input(1) else -1
    if seq.items is not None and p is not None:
        k = _check_index(ctx, p, len(seq.items), 0)
        _put(ctx, [*seq.items[:k], *seq.items[k + 1 :]])
        return
    if seq.items is not None:
        if not seq.items:
            raise ctx.invalid("it erases from an empty sequence", "a sequence with at least one element")
        _put(ctx, None, len(seq.items) - 1, _shared(ctx, seq.items))
        return
    _bound_length(ctx, seq.length, -1 if p is None else p, 0, "erase position in range")
    _put(ctx, None, ctx.canon(add(seq.length, -1)), seq.common)


# ------------------------------------------------------------------------------ reading
@register(ONNX, "SequenceLength")
@_sequence_rule
def sequence_length(ctx: OpContext) -> None:
    """A scalar holding the number of elements.

    https://onnx.ai/onnx/operators/onnx__SequenceLength.html
    """
    ctx.set_output(0, (), (_get(ctx, 0).length,))


@register(ONNX, "SequenceAt")
@_sequence_rule
def sequence_at(ctx: OpContext) -> None:
    """The element at ``position`` (negative counts from the end, valid in ``[-n, n - 1]``); at
    an unknown position, the shape all elements provably share.

    https://onnx.ai/onnx/operators/onnx__SequenceAt.html
    """
    seq = _get(ctx, 0)
    p = _position(ctx, 1)
    if seq.items is not None and p is not None:
        dims, els = seq.items[_check_index(ctx, p, len(seq.items), 0)]
        ctx.set_output(0, dims, els)
        return
    if seq.items is None and p is not None:
        _bound_length(ctx, seq.length, p, 0, "position in range")
    common = _shared(ctx, seq.items) if seq.items is not None else seq.common
    if common is None:
        raise GiveUp("the elements may differ in shape and which one is taken is not known")
    ctx.set_output(0, common)


# ----------------------------------------------------------------------------- splitting
@register(ONNX, "SplitToSequence")
@_sequence_rule
def split_to_sequence(ctx: OpContext) -> None:
    """Pieces along ``axis``: of the sizes in a 1-D ``split`` (summing to the dim: a fact), of
    size ``split`` with a smaller last one for a scalar, else of size 1 (dropped when
    ``keepdims`` is 0).

    https://onnx.ai/onnx/operators/onnx__SplitToSequence.html
    """
    dims = ctx.shape(0)
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(dims))
    total = dims[axis]
    if not ctx.has_input(1):
        piece = dims[:axis] + ((1,) if ctx.attr("keepdims", 1) else ()) + dims[axis + 1 :]
        if isinstance(total, int) and total <= MAX_ITEMS:
            pieces = split_elements(ctx, axis, (1,) * total)
            _put(ctx, [(piece, None if pieces is None else pieces[k]) for k in range(total)])
        else:
            _put(ctx, None, total, piece)
        return
    if len(ctx.shape(1)) == 0:
        _scalar_split(ctx, dims, axis)
        return
    sizes = _split_sizes(ctx)
    what = ("the sum of split sizes", ctx.dim_name(0, axis))
    ctx.eq(sum_dims(sizes), total, "split sizes sum", what)
    _put(ctx, _pieces(ctx, dims, axis, sizes))


def _pieces(ctx: OpContext, dims: Shape, axis: int, sizes: Sequence[Dim]) -> list[Item]:
    """``dims`` cut along ``axis`` into pieces of ``sizes``, with their tracked elements."""
    parts = split_elements(ctx, axis, sizes)
    items: list[Item] = []
    for k, size in enumerate(sizes):
        out = list(dims)
        out[axis] = ctx.canon(size)
        items.append((tuple(out), None if parts is None else parts[k]))
    return items


def _split_sizes(ctx: OpContext) -> Shape:
    """The piece sizes of a 1-D ``split``: tracked, else fresh symbols (a known count)."""
    shape = ctx.shape(1)
    ctx.require_rank(shape, 1, "split", "a scalar or 1-D split")
    els = ctx.elements(1)
    if els is not None:
        return els
    if not isinstance(shape[0], int):
        raise GiveUp("the split input has an unknown length")
    return tuple(ctx.fresh(f"piece{k}", kind="data") for k in range(shape[0]))


def _scalar_split(ctx: OpContext, dims: Shape, axis: int) -> None:
    """Pieces of size ``split`` along ``axis``; the last one is smaller when it does not divide."""
    s = _position(ctx, 1)
    if s is None:
        raise GiveUp("the scalar split size is not a known constant")
    if s <= 0:
        raise ctx.invalid(f"the split size is {s}", "a split size > 0", "fix the split input")
    total = dims[axis]
    if isinstance(total, int):
        n = -(-total // s)
        _put(ctx, _pieces(ctx, dims, axis, (s,) * (n - 1) + (total - s * (n - 1),) if n else ()))
        return
    even = ctx.facts.divides(s, total)
    if not even:
        ctx.watch((total,))
    common = dims[:axis] + (s,) + dims[axis + 1 :] if even else None
    exact = exact_div(total, s) if even else None
    length = exact if exact is not None else floordiv(total, s) if even else ceildiv(total, s)
    _put(ctx, None, ctx.canon(length), common)


# ---------------------------------------------------------------------------- concatenating
@register(ONNX, "ConcatFromSequence")
@_sequence_rule
def concat_from_sequence(ctx: OpContext) -> None:
    """The elements concatenated along ``axis`` (the other dims are equal: a fact), or stacked
    along a new ``axis`` when ``new_axis`` is 1 (all dims equal: a fact).

    https://onnx.ai/onnx/operators/onnx__ConcatFromSequence.html
    """
    seq = _get(ctx, 0)
    if "axis" not in ctx.op.attrs:
        raise ctx.invalid("the axis attribute is required but missing", "an int", "give the axis")
    stack = bool(ctx.attr("new_axis", 0))
    if seq.items is None:
        _concat_common(ctx, seq, stack)
        return
    if not seq.items:
        raise GiveUp("concatenating an empty sequence (onnxruntime rejects it)")
    first = seq.items[0][0]
    rank = len(first)
    axis = normalize_axis(ctx, ctx.attr("axis"), rank, extra=int(stack))
    total: Dim = 0
    for k, (dims, _) in enumerate(seq.items):
        if len(dims) != rank:
            raise ctx.invalid(
                f"sequence element {k} has rank {len(dims)}, element 0 has {rank}", "elements of one rank"
            )
        for a in range(rank):
            if stack or a != axis:
                what = (f"dim {a} of sequence element {k}", f"dim {a} of sequence element 0")
                ctx.eq(dims[a], first[a], "concat-from-sequence dim", what)
        total = add(total, 1 if stack else dims[axis])
    out = list(first)
    if stack:
        out.insert(axis, len(seq.items))
    else:
        out[axis] = ctx.canon(total)
    ctx.set_output(0, out, _joined_elements(seq.items, axis))


def _concat_common(ctx: OpContext, seq: SeqInfo, stack: bool) -> None:
    """Concatenate or stack an unknown number of elements of one known shape."""
    if seq.common is None:
        raise GiveUp("the sequence's length is not known and its elements may differ in shape")
    out = list(seq.common)
    axis = normalize_axis(ctx, ctx.attr("axis"), len(out), extra=int(stack))
    if stack:
        out.insert(axis, seq.length)
    else:
        out[axis] = ctx.canon(mul(seq.length, out[axis]))
    ctx.set_output(0, out)


def _joined_elements(items: Sequence[Item], axis: int) -> Shape | None:
    """Tracked elements of the result when joined along axis 0 (row-major blocks follow)."""
    if axis != 0 or any(e is None for _, e in items):
        return None
    return tuple(x for _, e in items for x in (e or ()))
