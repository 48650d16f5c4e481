"""Fuzzer ops that move dims around: Reshape (0 and -1, and shapes computed from Shape, Gather,
Mul and Concat), shape arithmetic into ConstantOfShape, Unsqueeze/Squeeze, Transpose, Concat,
Split, Slice and Pad. Each op takes ``draw`` (hypothesis) and the `Graph` and appends nodes that
are valid by construction wherever the tokens allow it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import strategies as st

from tests.fuzz.onnx_graph import Graph, Tensor, is_const

T = TypeVar("T")
Draw = Callable[[st.SearchStrategy[Any]], Any]

BIG = 2**63 - 1
BOUNDS = (-BIG, -9, -4, -2, -1, 0, 1, 2, 3, 5, 2**31 - 1, BIG)


def pick(draw: Draw, g: Graph, min_rank: int = 0, max_rank: int = 9) -> Tensor | None:
    """A tensor of the program with a rank in range, or None; one of the newest three half of
    the time, so that programs grow deep chains as well as wide DAGs."""
    fit = [t for t in g.tensors if min_rank <= t.rank <= max_rank]
    if not fit:
        return None
    return draw(st.sampled_from(fit[-3:] if draw(st.booleans()) else fit))


def axis_of(draw: Draw, t: Tensor) -> int:
    """An axis of ``t``, negative half of the time."""
    a = draw(st.integers(0, t.rank - 1))
    return a - t.rank if draw(st.booleans()) else a


def reshape_flatten(draw: Draw, g: Graph) -> None:
    """Reshape to ``[0, ..., 0, -1]``: keep leading dims, merge the rest."""
    t = pick(draw, g, 1)
    if t is None:
        return
    keep = draw(st.integers(0, t.rank - 1))
    merged = "(" + "*".join(sorted(t.dims[keep:])) + ")"
    out = g.one("Reshape", [t.name, g.ints([0] * keep + [-1])])
    g.keep(out, (*t.dims[:keep], merged))


def reshape_computed(draw: Draw, g: Graph) -> None:
    """Reshape to a shape computed from ``Shape``: merge two adjacent dims (Mul of two Gathers), or
    split one into ``[-1, c]`` or insert a 1."""
    t = pick(draw, g, 1)
    if t is None:
        return
    i = draw(st.integers(0, t.rank - 1))
    head = g.one("Slice", [g.shape(t), g.ints([0]), g.ints([i]), g.ints([0])])
    tail = g.one("Slice", [g.shape(t), g.ints([i + 1]), g.ints([BIG]), g.ints([0])])
    kind = draw(st.sampled_from(["merge", "split", "one"] if i + 1 < t.rank else ["split", "one"]))
    if kind == "merge":
        tail = g.one("Slice", [g.shape(t), g.ints([i + 2]), g.ints([BIG]), g.ints([0])])
        mid = g.one("Mul", [g.dim(t, i), g.dim(t, i + 1)])
        dims = (*t.dims[:i], f"({t.dims[i]}*{t.dims[i + 1]})", *t.dims[i + 2 :])
    elif kind == "split":
        c = draw(st.integers(1, 3))
        mid = g.ints([-1, c])  # onnxruntime refuses sizes c does not divide: a discarded sample
        dims = (*t.dims[:i], g.fresh(), str(c), *t.dims[i + 1 :])
    else:
        mid = g.one("Concat", [g.dim(t, i), g.ints([1])], axis=0)
        dims = (*t.dims[: i + 1], "1", *t.dims[i + 1 :])
    out = g.one("Reshape", [t.name, g.one("Concat", [head, mid, tail], axis=0)])
    g.keep(out, dims)


def shape_arith(draw: Draw, g: Graph) -> None:
    """ConstantOfShape of dims computed with Add, Sub, Mul, Div, Max/Min (Where on a comparison)."""
    t, u = pick(draw, g, 1), pick(draw, g, 1)
    if t is None or u is None:
        return
    a, b = g.dim(t, axis_of(draw, t)), g.dim(u, axis_of(draw, u))
    c = g.ints([draw(st.integers(1, 3))])
    kind = draw(st.sampled_from(["Add", "Sub", "Mul", "Div", "Max", "Min", "AddC", "SubC", "DivC", "MulC"]))
    if kind in ("Max", "Min"):
        cond = g.one("Greater" if kind == "Max" else "Less", [a, b])
        d = g.one("Where", [cond, a, b])
    elif kind.endswith("C"):
        d = g.one(kind[:-1], [a, c])  # Sub may go negative: onnxruntime refuses that sample
    else:
        d = g.one(kind, [a, b])
    extra = draw(st.sampled_from([[], [1], [2]]))
    shape = g.one("Concat", [d, g.ints(extra)], axis=0) if extra else d
    g.filled(shape, (g.fresh(), *(str(e) for e in extra)))


def unsqueeze(draw: Draw, g: Graph) -> None:
    """Unsqueeze at one or two axes (negative allowed), or Squeeze the dims known to be 1."""
    t = pick(draw, g, 0, 4)
    if t is None:
        return
    ones = [i for i, d in enumerate(t.dims) if d == "1"]
    if ones and draw(st.booleans()):
        out = g.one("Squeeze", [t.name, g.ints([ones[0] - t.rank])])
        g.keep(out, t.dims[: ones[0]] + t.dims[ones[0] + 1 :])
        return
    r = t.rank + 1
    a = draw(st.integers(-r, r - 1))
    dims = list(t.dims)
    dims.insert(a % r, "1")
    g.keep(g.one("Unsqueeze", [t.name, g.ints([a])]), dims)


def transpose(draw: Draw, g: Graph) -> None:
    t = pick(draw, g, 2)
    if t is None:
        return
    perm: list[int] = draw(st.permutations(range(t.rank)))
    g.keep(g.one("Transpose", [t.name], perm=list(perm)), [t.dims[p] for p in perm])


def concat(draw: Draw, g: Graph) -> None:
    """Concat ``t`` with tensors whose other dims match (itself, a slice of itself, others)."""
    t = pick(draw, g, 1)
    if t is None:
        return
    a = axis_of(draw, t)
    k = a % t.rank
    same = [u for u in g.tensors if u.rank == t.rank and all(u.dims[i] == t.dims[i] for i in range(t.rank) if i != k)]
    parts = [t, *draw(st.lists(st.sampled_from(same), max_size=2))]
    dims = list(t.dims)
    dims[k] = g.fresh()
    g.keep(g.one("Concat", [p.name for p in parts], axis=a), dims)


def split(draw: Draw, g: Graph) -> None:
    """Split into ``num_outputs`` parts (the last may be smaller), or by constant sizes of a
    constant dim."""
    t = pick(draw, g, 1)
    if t is None:
        return
    a = axis_of(draw, t)
    size = t.dims[a]
    if is_const(size) and int(size) > 1 and draw(st.booleans()):
        cut = draw(st.integers(0, int(size)))
        outs = g.node("Split", [t.name, g.ints([cut, int(size) - cut])], 2, axis=a)
        sizes = [str(cut), str(int(size) - cut)]
    else:
        n = draw(st.integers(1, 3))
        outs = g.node("Split", [t.name], n, axis=a, num_outputs=n)
        sizes = [g.fresh() for _ in outs]
    for o, s in zip(outs, sizes, strict=True):
        dims = list(t.dims)
        dims[a] = s
        g.keep(o, dims)


def slice_(draw: Draw, g: Graph) -> None:
    """Slice with negative and clamped bounds and steps of either sign, on one or two axes;
    sometimes a bound computed from another tensor's dim."""
    t = pick(draw, g, 1)
    if t is None:
        return
    axes = draw(st.lists(st.integers(0, t.rank - 1), min_size=1, max_size=2, unique=True))
    starts = [draw(st.sampled_from(BOUNDS)) for _ in axes]
    ends = [draw(st.sampled_from(BOUNDS)) for _ in axes]
    steps = [draw(st.sampled_from([1, 1, 2, 3, -1, -2])) for _ in axes]
    signed = [a - t.rank if draw(st.booleans()) else a for a in axes]
    end_input = g.ints(ends)
    u = pick(draw, g, 1)
    if u is not None and draw(st.booleans()):
        end_input = g.one("Concat", [g.dim(u, axis_of(draw, u)), g.ints(ends[1:])], axis=0)
    out = g.one("Slice", [t.name, g.ints(starts), end_input, g.ints(signed), g.ints(steps)])
    dims = list(t.dims)
    for a in axes:
        dims[a] = g.fresh()
    g.keep(out, dims)


def pad(draw: Draw, g: Graph) -> None:
    """Pad with constant, edge or reflect mode, pads from -1 to 3, sometimes on chosen axes."""
    t = pick(draw, g, 1)
    if t is None:
        return
    axes = draw(st.lists(st.integers(0, t.rank - 1), min_size=1, max_size=t.rank, unique=True))
    pads = [draw(st.integers(-1, 3)) for _ in range(2 * len(axes))]
    mode = draw(st.sampled_from(["constant", "constant", "edge", "reflect"]))
    out = g.one("Pad", [t.name, g.ints(pads), "", g.ints(axes)], mode=mode)
    dims = list(t.dims)
    for i, a in enumerate(axes):
        if pads[i] or pads[i + len(axes)]:
            dims[a] = g.fresh()
    g.keep(out, dims)
