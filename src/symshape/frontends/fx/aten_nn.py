"""Layers: linear algebra, embeddings, convolution, pooling, resizing, reductions.

``linear`` is ``MatMul`` by the transposed weight plus the bias, ``embedding`` is ``Gather`` on
the table's rows, ``conv*d`` and the pools are ONNX ``Conv``/``MaxPool``/``AveragePool`` with
torch's symmetric padding; adaptive pools and resizes to a given size keep their aten name.
"""

from __future__ import annotations

from typing import Any

from symshape.frontends.fx.call import Call, as_list, translates


@translates("aten.matmul.default", "aten.mm.default", "aten.bmm.default")
def _matmul(call: Call) -> str:
    return call.emit("MatMul", list(call.args[:2]))


@translates("aten.linear.default")
def _linear(call: Call) -> str:
    x, w = call.args[:2]
    bias = call.arg(2, "bias")
    wt = call.tmp("Transpose", [w], {"perm": [1, 0]}) if call.rank(1) == 2 else w
    if bias is None:
        return call.emit("MatMul", [x, wt])
    return call.emit("Add", [call.tmp("MatMul", [x, wt]), bias])


@translates("aten.addmm.default", "aten.baddbmm.default")
def _addmm(call: Call) -> str:
    bias, a, b = call.args[:3]
    return call.emit("Add", [bias, call.tmp("MatMul", [a, b])])


@translates("aten.embedding.default")
def _embedding(call: Call) -> str:
    return call.emit("Gather", [call.args[0], call.args[1]], {"axis": 0})


def _per_dim(value: Any, n: int, default: int) -> list[int]:
    if value is None or value == []:
        return [default] * n
    values = as_list(value)
    return values * n if len(values) == 1 else values


@translates("aten.conv1d.default", "aten.conv2d.default", "aten.conv3d.default", "aten.convolution.default",
            "aten.conv1d.padding", "aten.conv2d.padding", "aten.conv3d.padding")
def _conv(call: Call) -> str:
    x, w = call.args[:2]
    n = call.rank(1) - 2
    target = str(call.node.target)
    transposed = "convolution" in target and bool(call.arg(6, "transposed", False))
    if transposed:
        return call.aten([x, w])[0]
    attrs: dict[str, Any] = {
        "strides": _per_dim(call.arg(3, "stride"), n, 1),
        "dilations": _per_dim(call.arg(5, "dilation"), n, 1),
        "group": int(call.arg(8 if "convolution" in target else 6, "groups", 1)),
    }
    padding = call.arg(4, "padding", 0)
    if padding == "same":
        attrs["auto_pad"] = "SAME_UPPER"
    elif padding == "valid":
        attrs["pads"] = [0] * (2 * n)
    else:
        attrs["pads"] = _per_dim(padding, n, 0) * 2
    inputs = [x, w] + ([call.args[2]] if len(call.args) > 2 and isinstance(call.args[2], str) else [])
    return call.emit("Conv", inputs, attrs)


@translates("aten.max_pool1d.default", "aten.max_pool2d.default", "aten.max_pool3d.default",
            "aten.avg_pool1d.default", "aten.avg_pool2d.default", "aten.avg_pool3d.default",
            "aten.max_pool2d_with_indices.default")
def _pool(call: Call) -> str | list[str]:
    target = str(call.node.target)
    kernel = call.int_list(1, "kernel_size")
    n = len(kernel) if len(kernel) > 1 else call.rank(0) - 2
    kernel = _per_dim(kernel, n, 1)
    strides = call.int_list(2, "stride") or kernel
    attrs: dict[str, Any] = {"kernel_shape": kernel, "strides": _per_dim(strides, n, 1),
                             "pads": _per_dim(call.arg(3, "padding", 0), n, 0) * 2}
    if "max" in target:
        attrs["dilations"] = _per_dim(call.arg(4, "dilation"), n, 1)
    ceil_mode = call.arg(5 if "max" in target else 4, "ceil_mode", False)
    attrs["ceil_mode"] = int(bool(ceil_mode))
    op = "MaxPool" if "max" in target else "AveragePool"
    if "with_indices" in target:
        outs = [f"{call.name}.0", f"{call.name}.1"]
        return call.em.op(op, [call.args[0]], attrs, base=call.name, outputs=outs)
    return call.emit(op, [call.args[0]], attrs)


@translates("aten.adaptive_avg_pool1d.default", "aten.adaptive_avg_pool2d.default",
            "aten.adaptive_avg_pool3d.default", "aten._adaptive_avg_pool2d.default",
            "aten.adaptive_max_pool2d.default", "aten.upsample_nearest2d.vec", "aten.upsample_bilinear2d.vec",
            "aten.upsample_bicubic2d.vec", "aten.upsample_nearest1d.vec", "aten.upsample_linear1d.vec")
def _resize_to(call: Call) -> str:
    """The trailing dims become ``output_size``; a resize by ``scale_factors`` is
    ``floor(dim * scale)`` (the aten rule reads both)."""
    sizes = call.int_list(1, "output_size")
    scales = call.arg(3, "scale_factors") if "upsample" in str(call.node.target) else None
    attrs: dict[str, Any] = {"scales": as_list(scales) if scales else None}
    inputs = [call.args[0]] + ([call.em.vector(sizes, call.name)] if sizes else [])
    return call.aten(inputs, attrs)[0]


_REDUCE = {"mean": "ReduceMean", "sum": "ReduceSum", "amax": "ReduceMax", "amin": "ReduceMin",
           "prod": "ReduceProd", "var": "ReduceMean", "std": "ReduceMean", "any": "ReduceMax", "all": "ReduceMin",
           "logsumexp": "ReduceLogSumExp"}


@translates(*(f"aten.{op}.{o}" for op in _REDUCE for o in ("dim", "dim_IntList", "default", "correction", "dims")))
def _reduce(call: Call) -> str:
    """``Reduce*`` over the listed dims (all of them when none are listed)."""
    op = str(call.node.target).split(".")[1]
    target = str(call.node.target)
    if target.endswith(".default") and op not in ("amax", "amin"):
        return call.emit(_REDUCE[op], [call.args[0]], {"keepdims": 0})
    dims = call.int_list(1, "dim")
    keep = call.arg(3 if op in ("var", "std") else 2, "keepdim", False)
    inputs = [call.args[0]] + ([call.em.const(dims)] if dims else [])
    return call.emit(_REDUCE[op], inputs, {"keepdims": int(bool(keep))})


@translates("aten.max.default", "aten.min.default")
def _reduce_all(call: Call) -> str:
    """``x.max()``: the largest element, a 0-d tensor."""
    return call.emit("ReduceMax" if ".max." in call.key else "ReduceMin", [call.args[0]], {"keepdims": 0})


@translates("aten.max.dim", "aten.min.dim")
def _reduce_dim(call: Call) -> list[str]:
    """``x.max(dim)``: the values (``ReduceMax``) and their indices (``ArgMax``) along ``dim``."""
    x, axis = call.args[:2]
    keep = int(bool(call.arg(2, "keepdim", False)))
    kind = "Max" if ".max." in call.key else "Min"
    values = call.em.op(f"Reduce{kind}", [x, call.em.const([axis])], {"keepdims": keep},
                        base=f"{call.name}.0", outputs=[f"{call.name}.0"])
    indices = call.em.op(f"Arg{kind}", [x], {"axis": axis, "keepdims": keep},
                         base=f"{call.name}.1", outputs=[f"{call.name}.1"])
    outs = values + indices
    call.declare_from_meta(outs)
    return outs


@translates("aten.linalg_vector_norm.default", "aten.norm.ScalarOpt_dim")
def _vector_norm(call: Call) -> str:
    """``ReduceL2``'s shape (the order does not change it) over ``dim`` (all when none)."""
    dims = call.int_list(2, "dim")
    keep = call.arg(3, "keepdim", False)
    inputs = [call.args[0]] + ([call.em.const(dims)] if dims else [])
    return call.emit("ReduceL2", inputs, {"keepdims": int(bool(keep))})


@translates("aten.scaled_dot_product_attention.default")
def _attention(call: Call) -> str:
    """The output has the query's leading dims and the value's last dim."""
    q, k, v = call.args[:3]
    return call.emit("MatMul", [call.tmp("MatMul", [q, call.tmp("Transpose", [k], _last_two(call.rank(1)))]), v])


def _last_two(rank: int) -> dict[str, Any]:
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return {"perm": perm}
