"""Fuzzer ops that compute: broadcasting (Add, Expand, dims that may be 1), MatMul, Conv and the
pools with strides, dilations and ceil_mode, Resize, Range, Where and If on shape values, Loop,
NonZero and a reduction."""

from __future__ import annotations

import onnx
from hypothesis import strategies as st
from onnx import TensorProto, helper

from tests.fuzz.onnx_graph import Graph, Tensor, is_const
from tests.fuzz.onnx_ops_shape import Draw, axis_of, pick


def _broadcast(a: tuple[str, ...], b: tuple[str, ...]) -> list[str] | None:
    """Numpy broadcasting over tokens, None where two dims are not known to fit."""
    out: list[str] = []
    for x, y in zip(("1",) * (len(b) - len(a)) + a, ("1",) * (len(a) - len(b)) + b, strict=True):
        if x != y and "1" not in (x, y):
            return None
        out.append(y if x == "1" else x)
    return out


def broadcast(draw: Draw, g: Graph) -> None:
    """An elementwise op over two tensors that broadcast; sometimes two that only may (a symbol
    that can be 1 against another), which onnxruntime refuses at some sizes."""
    t = pick(draw, g)
    if t is None:
        return
    fits = [u for u in g.tensors if _broadcast(t.dims, u.dims) is not None]
    risky = [u for u in g.tensors if u.rank == t.rank]
    u = draw(st.sampled_from(risky)) if draw(st.integers(0, 4)) == 0 else draw(st.sampled_from(fits))
    dims = _broadcast(t.dims, u.dims) or [g.fresh() for _ in t.dims]
    g.keep(g.one(draw(st.sampled_from(["Add", "Mul", "Max"])), [t.name, u.name]), dims)


def reduce_ones(draw: Draw, g: Graph) -> None:
    """ReduceSum with keepdims: dims become 1, so the result broadcasts against its source."""
    t = pick(draw, g, 1)
    if t is None:
        return
    axes = draw(st.lists(st.integers(0, t.rank - 1), min_size=1, max_size=t.rank, unique=True))
    keep = draw(st.booleans())
    out = g.one("ReduceSum", [t.name, g.ints(axes)], keepdims=int(keep))
    g.keep(out, ["1" if i in axes else d for i, d in enumerate(t.dims) if keep or i not in axes])


def expand(draw: Draw, g: Graph) -> None:
    """Expand to another tensor's shape it broadcasts with, or to a constant of ones and 1s."""
    t = pick(draw, g)
    if t is None:
        return
    fits = [u for u in g.tensors if _broadcast(t.dims, u.dims) is not None]
    if draw(st.booleans()):
        u = draw(st.sampled_from(fits))
        dims = _broadcast(t.dims, u.dims)
        assert dims is not None
        g.keep(g.one("Expand", [t.name, g.shape(u)]), dims)
        return
    target = draw(st.lists(st.sampled_from([1, 1, 2, 3]), min_size=0, max_size=4))
    dims = _broadcast(t.dims, tuple(str(x) for x in target))
    if dims is not None:
        g.keep(g.one("Expand", [t.name, g.ints(target)]), dims)


def matmul(draw: Draw, g: Graph) -> None:
    """MatMul with its own transpose, with a weight when the inner dim is a constant, or with a
    1-D operand."""
    t = pick(draw, g, 1, 4)
    if t is None:
        return
    inner = t.dims[-1]
    if is_const(inner) and draw(st.booleans()):
        c = draw(st.integers(1, 3))
        square = draw(st.booleans())
        w = g.weight([int(inner), c] if square else [int(inner)])
        g.keep(g.one("MatMul", [t.name, w]), (*t.dims[:-1], str(c)) if square else t.dims[:-1])
        return
    if t.rank == 1:
        g.keep(g.one("MatMul", [t.name, t.name]), ())
        return
    perm = [*range(t.rank - 2), t.rank - 1, t.rank - 2]
    tt = g.one("Transpose", [t.name], perm=perm)
    g.keep(g.one("MatMul", [t.name, tt]), (*t.dims[:-1], t.dims[-2]))


def window(draw: Draw, g: Graph) -> None:
    """Conv (a constant channel dim), MaxPool or AveragePool over a rank-3 or rank-4 tensor, with
    strides, dilations, pads, ceil_mode or auto_pad."""
    t = pick(draw, g, 3, 4)
    if t is None:
        return
    spatial = t.rank - 2
    op = draw(st.sampled_from(["Conv", "MaxPool", "AveragePool"]))
    if op == "Conv" and not is_const(t.dims[1]):
        op = "MaxPool"
    k = [draw(st.integers(1, 3)) for _ in range(spatial)]
    attrs: dict[str, object] = {"strides": [draw(st.integers(1, 3)) for _ in range(spatial)]}
    auto_pad = draw(st.sampled_from(["NOTSET", "NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]))
    if auto_pad == "NOTSET":
        attrs["dilations"] = [draw(st.integers(1, 2)) for _ in range(spatial)]
        attrs["pads"] = [draw(st.integers(0, x - 1)) for x in k + k]
    else:
        attrs["auto_pad"] = auto_pad
    inputs = [t.name]
    channels = t.dims[1]
    if op == "Conv":
        c = draw(st.integers(1, 3))
        inputs.append(g.weight([c, int(t.dims[1]), *k]))
        attrs["kernel_shape"] = k
        channels = str(c)
    else:
        attrs["kernel_shape"] = k
        if draw(st.booleans()):
            attrs["ceil_mode"] = 1
    out = g.one(op, inputs, **attrs)
    g.keep(out, (t.dims[0], channels, *(g.fresh() for _ in range(spatial))))


def resize(draw: Draw, g: Graph) -> None:
    """Resize (nearest) by constant scales, or to sizes computed from another tensor's shape."""
    t = pick(draw, g, 1, 4)
    if t is None:
        return
    if draw(st.booleans()):
        scales = [draw(st.sampled_from([1.0, 1.0, 2.0, 0.5, 1.5, 3.0])) for _ in t.dims]
        out = g.one("Resize", [t.name, "", g.floats(scales)], mode="nearest")
        g.keep(out, [d if s == 1.0 else g.fresh() for d, s in zip(t.dims, scales, strict=True)])
        return
    u = pick(draw, g, t.rank, t.rank)
    assert u is not None
    sizes = g.one("Add", [g.shape(u), g.ints([draw(st.integers(0, 2)) for _ in t.dims])])
    out = g.one("Resize", [t.name, "", "", sizes], mode="nearest")
    g.keep(out, [g.fresh() for _ in t.dims])


def range_(draw: Draw, g: Graph) -> None:
    """Range from a constant to a dim (plus a constant) by a step of either sign, cast to float."""
    t = pick(draw, g, 1)
    if t is None:
        return
    limit = g.one("Add", [g.dim_scalar(t, axis_of(draw, t)), g.scalar(draw(st.integers(-2, 2)))])
    start, step = g.scalar(draw(st.integers(-2, 3))), g.scalar(draw(st.sampled_from([1, 1, 2, 3, -1])))
    r = g.one("Range", [start, limit, step] if draw(st.booleans()) else [limit, start, step])
    g.keep(g.one("Cast", [r], to=TensorProto.FLOAT), (g.fresh(),))


def _branch(g: Graph, name: str, source: Tensor) -> onnx.GraphProto:
    """A subgraph with one float output, the outer value ``source`` through Identity."""
    out = g.name("br")
    node = helper.make_node("Identity", [source.name], [out])
    return helper.make_graph([node], name, [], [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)])


def if_(draw: Draw, g: Graph) -> None:
    """If on a comparison of a dim with a constant: one tensor or another of the same rank."""
    t = pick(draw, g)
    if t is None:
        return
    u = draw(st.sampled_from([v for v in g.tensors if v.rank == t.rank]))
    c = pick(draw, g, 1)
    if c is None:
        return
    cond = g.one(draw(st.sampled_from(["Greater", "Less", "Equal"])),
                 [g.dim_scalar(c, axis_of(draw, c)), g.scalar(draw(st.integers(0, 3)))])
    out = g.one("If", [cond], then_branch=_branch(g, "then", t), else_branch=_branch(g, "else", u))
    g.keep(out, [a if a == b else g.fresh() for a, b in zip(t.dims, u.dims, strict=True)])


def loop(draw: Draw, g: Graph) -> None:
    """Loop a dim's number of times: a carried vector grows by one each trip, and an outer tensor
    is stacked as a scan output."""
    t, u = pick(draw, g, 1), pick(draw, g, 0, 3)
    if t is None or u is None:
        return
    trips = g.dim_scalar(t, axis_of(draw, t))
    init = g.one("Reshape", [u.name, g.ints([-1])])
    one = g.floats([1.0])
    i, cond_in, carried = g.name("it"), g.name("cin"), g.name("car")
    cond_out, grown, stacked = g.name("cout"), g.name("grow"), g.name("scan")
    body = helper.make_graph(
        [helper.make_node("Identity", [cond_in], [cond_out]),
         helper.make_node("Concat", [carried, one], [grown], axis=0),
         helper.make_node("Identity", [u.name], [stacked])],
        "body",
        [helper.make_tensor_value_info(i, TensorProto.INT64, []),
         helper.make_tensor_value_info(cond_in, TensorProto.BOOL, []),
         helper.make_tensor_value_info(carried, TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info(cond_out, TensorProto.BOOL, []),
         helper.make_tensor_value_info(grown, TensorProto.FLOAT, None),
         helper.make_tensor_value_info(stacked, TensorProto.FLOAT, None)],
    )
    final, scan = g.node("Loop", [trips, "", init], 2, body=body)
    g.keep(final, (g.fresh(),))
    g.keep(scan, (g.fresh(), *u.dims))


def nonzero(draw: Draw, g: Graph) -> None:
    """NonZero of a Relu (about half the elements are 0): a data-dependent count, cast to float."""
    t = pick(draw, g, 1, 3)
    if t is None:
        return
    nz = g.one("NonZero", [g.one("Relu", [t.name])])
    g.keep(g.one("Cast", [nz], to=TensorProto.FLOAT), (str(t.rank), g.fresh()))
