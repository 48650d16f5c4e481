"""aten ops that move, cut and join dims: views, slices, concatenation, indexing, sizes.

Each becomes the ONNX op with the same semantics: ``view``/``reshape`` (never ``0``-copying, so
``Reshape`` with ``allowzero=1``), ``slice`` (Python's clamping, as ONNX ``Slice``), ``select``
(``Gather`` with a scalar index), ``expand`` (``-1`` keeps the dim: ``Expand`` to 1 does the same).
"""

from __future__ import annotations

from typing import Any

from symshape.frontends.fx.call import Call, as_list, translates
from symshape.frontends.fx.emit import INT64_MAX


def _axis(call: Call, axis: int, rank: int) -> int:
    return axis + rank if axis < 0 else axis


@translates("aten.sym_size.int")
def _sym_size(call: Call) -> str:
    x, axis = call.args[:2]
    return call.emit("Gather", [call.em.shape_of(x), call.em.const([_axis(call, axis, call.rank(0))], ())], {"axis": 0})


@translates("aten.sym_numel.default", "aten.numel.default")
def _sym_numel(call: Call) -> str:
    return call.emit("Size", [call.args[0]])


@translates("aten.view.default", "aten.reshape.default", "aten._unsafe_view.default", "aten.view.dtype")
def _view(call: Call) -> str:
    x, sizes = call.args[0], call.int_list(1, "size")
    return call.emit("Reshape", [x, call.em.vector(sizes, call.name)], {"allowzero": 1})


@translates("aten.view_as.default", "aten.reshape_as.default")
def _view_as(call: Call) -> str:
    return call.emit("Reshape", [call.args[0], call.em.shape_of(call.args[1])], {"allowzero": 1})


@translates("aten.unsqueeze.default", "aten.unsqueeze_.default")
def _unsqueeze(call: Call) -> str:
    return call.emit("Unsqueeze", [call.args[0], call.em.const([call.args[1]])])


@translates("aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default")
def _squeeze(call: Call) -> str:
    """Torch drops only the listed dims that are 1 (the others stay); which ones are 1 is fixed in
    an exported program, and the output's rank says which."""
    x, rank = call.args[0], call.rank(0)
    dims = [_axis(call, d, rank) for d in call.int_list(1, "dim")] or list(range(rank))
    in_shape, out_rank = call.meta(0).shape, len(call.meta().shape)
    dropped = [d for d in dims if str(in_shape[d]) == "1"]
    if rank - len(dropped) != out_rank:
        return call.aten([x])[0]
    if not dropped:
        return call.emit("Identity", [x])
    return call.emit("Squeeze", [x, call.em.const(dropped)])


@translates("aten.transpose.int", "aten.swapaxes.default", "aten.transpose_.default")
def _transpose(call: Call) -> str:
    x, rank = call.args[0], call.rank(0)
    a, b = (_axis(call, d, rank) for d in call.args[1:3])
    perm = list(range(rank))
    perm[a], perm[b] = perm[b], perm[a]
    return call.emit("Transpose", [x], {"perm": perm})


@translates("aten.permute.default")
def _permute(call: Call) -> str:
    rank = call.rank(0)
    return call.emit("Transpose", [call.args[0]], {"perm": [_axis(call, d, rank) for d in call.int_list(1, "dims")]})


@translates("aten.t.default", "aten.numpy_T.default")
def _t(call: Call) -> str:
    rank = call.rank(0)
    return call.emit("Transpose", [call.args[0]], {"perm": list(reversed(range(rank)))})


@translates("aten.expand.default")
def _expand(call: Call) -> str:
    sizes = [1 if isinstance(s, int) and s == -1 else s for s in call.int_list(1, "size")]
    return call.emit("Expand", [call.args[0], call.em.vector(sizes, call.name)])


@translates("aten.expand_as.default")
def _expand_as(call: Call) -> str:
    return call.emit("Expand", [call.args[0], call.em.shape_of(call.args[1])])


@translates("aten.cat.default", "aten.concat.default", "aten.concatenate.default")
def _cat(call: Call) -> str:
    """``Concat``; torch skips 1-D empty tensors in a cat of higher rank (its legacy rule)."""
    rank = len(call.meta().shape)
    metas = [t.meta.get("val") for t in call.node.args[0]]
    tensors = [t for t, m in zip(call.args[0], metas, strict=True)
               if rank == 1 or tuple(getattr(m, "shape", ())) != (0,)]
    return call.emit("Concat", tensors, {"axis": _axis(call, call.arg(1, "dim", 0), rank)})


@translates("aten.stack.default")
def _stack(call: Call) -> str:
    tensors: list[str] = call.args[0]
    axis = _axis(call, call.arg(1, "dim", 0), len(call.meta().shape))
    parts = [call.tmp("Unsqueeze", [t, call.em.const([axis])]) for t in tensors]
    return call.emit("Concat", parts, {"axis": axis})


def _slice(call: Call, x: str, axis: int, start: Any, end: Any, step: Any = 1, out: str | None = None) -> str:
    inputs = [x, call.em.vector([0 if start is None else start], call.name),
              call.em.vector([INT64_MAX if end is None else end], call.name), call.em.const([axis]),
              call.em.const([step])]
    if out is None:
        return call.emit("Slice", inputs)
    return call.em.op("Slice", inputs, base=out, outputs=[out])[0]


@translates("aten.slice.Tensor")
def _slice_tensor(call: Call) -> str:
    x = call.args[0]
    axis = _axis(call, call.arg(1, "dim", 0), call.rank(0))
    return _slice(call, x, axis, call.arg(2, "start"), call.arg(3, "end"), call.arg(4, "step", 1))


@translates("aten.narrow.default")
def _narrow(call: Call) -> str:
    x, dim, start, length = call.args[:4]
    axis = _axis(call, dim, call.rank(0))
    end = start + length if isinstance(start, int) and isinstance(length, int) else call.tmp(
        "Add", [call.em.scalar(start), call.em.scalar(length)])
    return _slice(call, x, axis, start, end)


@translates("aten.select.int")
def _select(call: Call) -> str:
    x, dim, index = call.args[:3]
    return call.emit("Gather", [x, call.em.scalar(index)], {"axis": _axis(call, dim, call.rank(0))})


@translates("aten.split.Tensor", "aten.chunk.default", "aten.split_with_sizes.default", "aten.unbind.int")
def _split(call: Call) -> list[str]:
    """Each piece is a ``Slice`` (Python's clamping gives the short last piece exactly); the number
    of pieces is the one the exported program fixed."""
    x, rank = call.args[0], call.rank(0)
    target = str(call.node.target)
    axis = _axis(call, call.arg(2 if "split" in target or "chunk" in target else 1, "dim", 0), rank)
    count = len(call.meta())
    outs = [f"{call.name}.{k}" for k in range(count)]
    if "unbind" in target:
        return [call.em.op("Gather", [x, call.em.const([k], ())], {"axis": axis}, base=o, outputs=[o])[0]
                for k, o in enumerate(outs)]
    if "with_sizes" in target:
        sizes: list[Any] = call.int_list(1, "split_sizes")
    elif "chunk" in target:
        return call.aten([x], {"chunks": call.args[1], "dim": axis}, outputs=count)
    else:
        sizes = [call.args[1]] * count
    start: Any = 0
    for size, out in zip(sizes, outs, strict=True):
        end = _add(call, start, size)
        _slice(call, x, axis, start, end, 1, out)
        start = end
    return outs


def _add(call: Call, a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return call.tmp("Add", [call.em.scalar(a), call.em.scalar(b)])


@translates("aten.flatten.using_ints")
def _flatten(call: Call) -> str:
    rank = call.rank(0)
    start = _axis(call, call.arg(1, "start_dim", 0), rank)
    end = _axis(call, call.arg(2, "end_dim", -1), rank)
    return call.aten([call.args[0]], {"start_dim": start, "end_dim": end})[0]


@translates("aten.index.Tensor")
def _index(call: Call) -> str:
    """One index tensor is ``Gather`` on its axis; several are advanced indexing (an aten rule); a
    boolean mask selects a data-dependent count (no rule: fresh symbols)."""
    x, indices = call.args[0], list(call.args[1])
    used = [k for k, i in enumerate(indices) if i is not None]
    metas = [m.meta.get("val") for m in call.node.args[1] if m is not None]
    if any(str(getattr(m, "dtype", "")) in ("torch.bool", "torch.uint8") for m in metas):
        out = call.aten([x, *(i for i in indices if i is not None)], op_type="index.Tensor(boolean mask)")
        call.declare_from_meta(out)
        return out[0]
    if len(used) == 1:
        return call.emit("Gather", [x, indices[used[0]]], {"axis": used[0]})
    return call.aten([x, *(i for i in indices if i is not None)], {"positions": used})[0]


@translates("aten.pad.default", "aten.constant_pad_nd.default")
def _pad(call: Call) -> str:
    """Torch lists (before, after) pairs from the last dim backwards; ONNX ``Pad`` with ``axes``
    takes all befores, then all afters."""
    amounts = call.int_list(1, "pad")
    pairs = len(amounts) // 2
    axes = [-1 - k for k in range(pairs)]
    pads = [amounts[2 * k] for k in range(pairs)] + [amounts[2 * k + 1] for k in range(pairs)]
    mode = _PAD_MODES.get(call.arg(2, "mode", "constant"), "constant")
    inputs = [call.args[0], call.em.vector(pads, call.name), "", call.em.const(axes)]
    return call.emit("Pad", inputs, {"mode": mode})


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@translates("operator.getitem")
def _getitem(call: Call) -> str:
    """Output ``k`` of a node with several; of anything else (a node translated as one value),
    an op without a rule, typed from the meta."""
    seq, k = call.args[:2]
    if isinstance(seq, list) and isinstance(k, int):
        return str(as_list(seq)[k])
    out = call.aten([seq] if isinstance(seq, str) else [])
    call.declare_from_meta(out)
    return out[0]


@translates("aten._local_scalar_dense.default", "aten.item.default")
def _item(call: Call) -> str:
    """``tensor.item()``: the one element as a 0-d value (its value stays tracked)."""
    return call.emit("Reshape", [call.args[0], call.em.const([])], {"allowzero": 1})


@translates("aten.index_select.default")
def _index_select(call: Call) -> str:
    x, dim, index = call.args[:3]
    return call.emit("Gather", [x, index], {"axis": _axis(call, dim, call.rank(0))})


@translates("aten.gather.default")
def _gather(call: Call) -> str:
    """``GatherElements``: the output has the index's shape."""
    x, dim, index = call.args[:3]
    return call.emit("GatherElements", [x, index], {"axis": _axis(call, dim, call.rank(0))})


@translates("aten.repeat.default", "aten.tile.default")
def _repeat(call: Call) -> str:
    """``Tile``; more repeats than dims first adds leading dims of 1 (torch's rule)."""
    x, repeats = call.args[0], call.int_list(1, "repeats")
    extra = len(repeats) - call.rank(0)
    if extra > 0:
        x = call.tmp("Unsqueeze", [x, call.em.const(list(range(extra)))])
    elif extra < 0:  # tile: fewer repeats than dims repeat the last ones
        repeats = [1] * -extra + repeats
    return call.emit("Tile", [x, call.em.vector(repeats, call.name)])


@translates("aten.unflatten.int")
def _unflatten(call: Call) -> str:
    """``dim`` split into ``sizes`` (one may be -1): a ``Reshape`` of the input's other dims."""
    x, dim, sizes = call.args[0], call.args[1], call.int_list(2, "sizes")
    rank = call.rank(0)
    axis = _axis(call, dim, rank)
    before = [call.em.size_of(x, k, f"{call.name}.dim") for k in range(axis)]
    after = [call.em.size_of(x, k, f"{call.name}.dim") for k in range(axis + 1, rank)]
    return call.emit("Reshape", [x, call.em.vector([*before, *sizes, *after], call.name)], {"allowzero": 1})


@translates("aten.topk.default")
def _topk(call: Call) -> list[str]:
    x, k = call.args[:2]
    axis = _axis(call, call.arg(2, "dim", -1), call.rank(0))
    outs = [f"{call.name}.0", f"{call.name}.1"]
    k_vec = call.em.vector([k], call.name)
    call.em.op("TopK", [x, k_vec], {"axis": axis}, base=call.name, outputs=outs)
    call.declare_from_meta(outs)
    return outs
