"""Fuzzer ops driven by computed shape values: a random integer expression over dims and small
constants (Add, Sub, Mul, Div and Mod with either sign, Max, Min, Neg, Abs, Where) used as a
ConstantOfShape dim, Slice bounds and steps, Pad amounts, Range bounds, Tile repeats, Expand
targets and Gather indices into a shape. ONNX integer Div truncates toward zero and Mod takes the
divisor's sign, so negative operands test the algebra's floor and mod against onnxruntime's."""

from __future__ import annotations

from hypothesis import strategies as st
from onnx import TensorProto

from tests.fuzz.onnx_graph import Graph
from tests.fuzz.onnx_ops_shape import BIG, Draw, axis_of, pick

BINARY = ("Add", "Sub", "Mul", "Div", "Mod", "Max", "Min", "Where")


def value(draw: Draw, g: Graph, depth: int = 2) -> str:
    """A ``[1]`` int64 tensor computed from dims and constants (it may be negative)."""
    t = pick(draw, g, 1)
    if depth == 0 or t is None or draw(st.integers(0, 3)) == 0:
        if t is not None and draw(st.integers(0, 3)) > 0:
            return g.dim(t, axis_of(draw, t))
        return g.ints([draw(st.integers(-3, 5))])
    op = draw(st.sampled_from([*BINARY, "Neg", "Abs"]))
    a = value(draw, g, depth - 1)
    if op in ("Neg", "Abs"):
        return g.one(op, [a])
    if op in ("Div", "Mod"):  # a divisor that is never 0
        b = g.ints([draw(st.sampled_from([-3, -2, 2, 3, 4]))])
        if draw(st.booleans()):
            b = g.one("Add", [g.one("Abs", [value(draw, g, depth - 1)]), g.ints([1])])
        return g.one(op, [a, b])
    b = value(draw, g, depth - 1)
    if op == "Where":
        return g.one("Where", [g.one(draw(st.sampled_from(["Greater", "Less", "Equal"])), [a, b]), a, b])
    return g.one(op, [a, b])


def small(draw: Draw, g: Graph, lo: int, hi: int) -> str:
    """A computed value clamped to ``[lo, hi]`` (Max then Min), so runs stay small."""
    return g.one("Min", [g.one("Max", [value(draw, g), g.ints([lo])]), g.ints([hi])])


def filled(draw: Draw, g: Graph) -> None:
    """ConstantOfShape of one or two computed dims (onnxruntime refuses a negative one)."""
    dims = [value(draw, g) if draw(st.integers(0, 2)) == 0 else small(draw, g, 0, 6)
            for _ in range(draw(st.integers(1, 2)))]
    shape = dims[0] if len(dims) == 1 else g.one("Concat", dims, axis=0)
    g.filled(shape, [g.fresh() for _ in dims])


def slice_computed(draw: Draw, g: Graph) -> None:
    """Slice one axis with a computed start, end and (nonzero) step."""
    t = pick(draw, g, 1)
    if t is None:
        return
    a = axis_of(draw, t)
    start = value(draw, g) if draw(st.booleans()) else g.ints([draw(st.sampled_from([0, -1, BIG, -BIG]))])
    end = value(draw, g) if draw(st.booleans()) else g.ints([draw(st.sampled_from([0, -1, BIG, -BIG]))])
    step = g.ints([draw(st.sampled_from([1, 2, -1, -2, 3]))])
    if draw(st.integers(0, 3)) == 0:
        step = g.one("Add", [small(draw, g, 1, 3), g.ints([0])])
    dims = list(t.dims)
    dims[a] = g.fresh()
    g.keep(g.one("Slice", [t.name, start, end, g.ints([a]), step]), dims)


def pad_computed(draw: Draw, g: Graph) -> None:
    """Pad one axis by computed amounts in ``[-2, 3]``."""
    t = pick(draw, g, 1)
    if t is None:
        return
    a = axis_of(draw, t)
    pads = g.one("Concat", [small(draw, g, -2, 3), small(draw, g, -2, 3)], axis=0)
    dims = list(t.dims)
    dims[a] = g.fresh()
    g.keep(g.one("Pad", [t.name, pads, "", g.ints([a])]), dims)


def range_computed(draw: Draw, g: Graph) -> None:
    """Range between two computed scalars by a constant step of either sign."""
    squeeze = g.ints([0])
    start = g.one("Squeeze", [value(draw, g), squeeze])
    limit = g.one("Squeeze", [value(draw, g), squeeze])
    step = g.scalar(draw(st.sampled_from([1, 2, 3, -1, -2])))
    g.keep(g.one("Cast", [g.one("Range", [start, limit, step])], to=TensorProto.FLOAT), (g.fresh(),))


def tile(draw: Draw, g: Graph) -> None:
    """Tile by repeats computed in ``[0, 3]``."""
    t = pick(draw, g, 1, 3)
    if t is None:
        return
    reps = [small(draw, g, 0, 3) for _ in t.dims]
    shape = reps[0] if len(reps) == 1 else g.one("Concat", reps, axis=0)
    g.keep(g.one("Tile", [t.name, shape]), [g.fresh() for _ in t.dims])


def expand_computed(draw: Draw, g: Graph) -> None:
    """Expand a tensor's 1-dims (and a new leading axis) to computed sizes in ``[0, 4]``."""
    t = pick(draw, g, 0, 3)
    if t is None:
        return
    target = [small(draw, g, 0, 4) if d == "1" else g.ints([1]) for d in t.dims]
    lead = [small(draw, g, 0, 4)] if draw(st.booleans()) or not target else []
    parts = lead + target
    shape = parts[0] if len(parts) == 1 else g.one("Concat", parts, axis=0)
    dims = [g.fresh() for _ in lead] + [g.fresh() if d == "1" else d for d in t.dims]
    g.keep(g.one("Expand", [t.name, shape]), dims)


def gather_shape(draw: Draw, g: Graph) -> None:
    """Gather dims out of a Shape by negative and positive indices (or Shape with start and end)
    and rebuild a tensor of them."""
    t = pick(draw, g, 1)
    if t is None:
        return
    if draw(st.booleans()):
        idx: list[int] = [draw(st.integers(-t.rank, t.rank - 1)) for _ in range(draw(st.integers(1, 3)))]
        shape = g.one("Gather", [g.shape(t), g.ints(idx)], axis=0)
        g.filled(shape, [t.dims[i] for i in idx])
        return
    lo, hi = draw(st.integers(-t.rank - 1, t.rank + 1)), draw(st.integers(-t.rank - 1, t.rank + 1))
    shape = g.one("Shape", [t.name], start=lo, end=hi)
    g.filled(shape, list(t.dims[slice(max(lo, -t.rank), hi)]))


def reshape_allowzero(draw: Draw, g: Graph) -> None:
    """Reshape with ``allowzero`` (a 0 is a size, not a copy) or without, to ``[a, b, -1]`` with
    ``a``, ``b`` computed (dims, clamped expressions) so that a 0 may appear at run time."""
    t = pick(draw, g, 1)
    if t is None:
        return
    allowzero = int(draw(st.booleans()))  # the spec forbids a 0 next to -1 with allowzero
    parts = [g.dim(t, axis_of(draw, t)) if draw(st.booleans()) else small(draw, g, allowzero, 3)
             for _ in range(draw(st.integers(1, 2)))]
    if allowzero:  # a dim the analysis folds to 0 would still be a literal 0
        parts = [g.one("Max", [part, g.ints([1])]) for part in parts]
    target = g.one("Concat", [*parts, g.ints([-1])], axis=0)
    out = g.one("Reshape", [t.name, target], allowzero=allowzero)
    g.keep(out, [g.fresh() for _ in range(len(parts) + 1)])


def split_computed(draw: Draw, g: Graph) -> None:
    """Split an axis into ``[Min(c, d), d - Min(c, d)]`` with ``c`` computed."""
    t = pick(draw, g, 1)
    if t is None:
        return
    a = axis_of(draw, t)
    d = g.dim(t, a)
    head = g.one("Min", [small(draw, g, 0, 4), d])
    sizes = g.one("Concat", [head, g.one("Sub", [d, head])], axis=0)
    for out in g.node("Split", [t.name, sizes], 2, axis=a):
        dims = list(t.dims)
        dims[a] = g.fresh()
        g.keep(out, dims)


def topk(draw: Draw, g: Graph) -> None:
    """TopK along an axis with ``k = Min(c, d)`` computed; Flatten at an axis otherwise."""
    t = pick(draw, g, 1)
    if t is None:
        return
    a = axis_of(draw, t)
    if draw(st.booleans()):
        flat = g.one("Flatten", [t.name], axis=draw(st.integers(-t.rank, t.rank)))
        g.keep(flat, (g.fresh(), g.fresh()))
        return
    k = g.one("Min", [small(draw, g, 0, 4), g.dim(t, a)])
    values, _ = g.node("TopK", [t.name, k], 2, axis=a)
    dims = list(t.dims)
    dims[a] = g.fresh()
    g.keep(values, dims)
