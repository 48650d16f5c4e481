"""Reductions, arg-reductions, softmax-like ops, normalizations, global pools and TopK against
onnxruntime, across their attribute space: axes as attribute (old opsets) or input, negative
axes, keepdims 0/1, noop_with_empty_axes, select_last_index, normalization axes and extra outputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.oracle import array, const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I64 = TensorProto.FLOAT, TensorProto.INT64
node = helper.make_node
X = [tensor("x", ["n", "c", "h"])]
NCH = [{"n": 2, "c": 3, "h": 4}, {"n": 1, "c": 1, "h": 1}, {"n": 0, "c": 2, "h": 3}, {"n": 3, "c": 2, "h": 5}]
NONEMPTY = [s for s in NCH if 0 not in s.values()]  # Max/Min/ArgMax over an empty axis have no identity
REDUCE_OPS = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
              "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"]

# (id, axes input or None, attributes, samples): every op, then the attribute space on ReduceSum.
REDUCE = [
    row(f"{op}-axes[-1]-keepdims1", [node(op, ["x", "ax"], ["y"])], X, NONEMPTY, [const("ax", [-1])])
    for op in REDUCE_OPS
]
REDUCE += [
    row(f"{op}-axes[0,2]-keepdims0", [node(op, ["x", "ax"], ["y"], keepdims=0)], X, NONEMPTY, [const("ax", [0, 2])])
    for op in REDUCE_OPS
]
REDUCE += [
    row(f"{op}-opset13-axes-attr[1]-keepdims0", [node(op, ["x"], ["y"], axes=[1], keepdims=0)], X, NONEMPTY,
        opset=13)
    for op in REDUCE_OPS if op != "ReduceSum"  # ReduceSum took axes as an input since opset 13
]
REDUCE += [
    row("ReduceSum-empty-axis-reduced", [node("ReduceSum", ["x", "ax"], ["y"], keepdims=0)], X, NCH,
        [const("ax", [0])]),
    row("ReduceSum-no-axes-reduces-all-keepdims1", [node("ReduceSum", ["x"], ["y"])], X, NCH),
    row("ReduceSum-no-axes-reduces-all-keepdims0", [node("ReduceSum", ["x"], ["y"], keepdims=0)], X, NCH),
    row("ReduceSum-empty-axes-input-reduces-all", [node("ReduceSum", ["x", "ax"], ["y"], keepdims=0)], X, NCH,
        [array("ax", np.zeros(0, np.int64))]),
    row("ReduceSum-empty-axes-noop", [node("ReduceSum", ["x", "ax"], ["y"], noop_with_empty_axes=1)], X, NCH,
        [array("ax", np.zeros(0, np.int64))]),
    row("ReduceMean-no-axes-noop", [node("ReduceMean", ["x"], ["y"], noop_with_empty_axes=1, keepdims=0)], X, NCH),
    row("ReduceMax-all-negative-axes[-3,-2,-1]-keepdims0",
        [node("ReduceMax", ["x", "ax"], ["y"], keepdims=0)], X, NONEMPTY, [const("ax", [-3, -2, -1])]),
    row("ReduceL2-axes-unsorted[2,0]", [node("ReduceL2", ["x", "ax"], ["y"])], X, NCH, [const("ax", [2, 0])]),
    row("ReduceSum-opset11-attr-axes[-2]", [node("ReduceSum", ["x"], ["y"], axes=[-2], keepdims=0)], X, NCH,
        opset=11),
    row("ReduceProd-rank1-to-scalar", [node("ReduceProd", ["v"], ["y"], keepdims=0)], [tensor("v", ["n"])], NCH),
    row("ReduceSum-of-shape-elements-is-their-sum", [node("Shape", ["x"], ["s"], start=1),
                                                     node("ReduceSum", ["s"], ["t"], keepdims=1),
                                                     node("ConstantOfShape", ["t"], ["y"])], X, NCH),
    row("ReduceProd-of-shape-elements-keepdims0", [node("Shape", ["x"], ["s"]), node("ReduceProd", ["s"], ["t"],
                                                                                     keepdims=0),
                                                   node("Unsqueeze", ["t", "zero"], ["t1"]),
                                                   node("ConstantOfShape", ["t1"], ["y"])], X, NCH,
        [const("zero", [0])]),
]

ARG = [
    row(f"{op}-axis{axis}-keepdims{keep}-last{last}",
        [node(op, ["x"], ["y"], axis=axis, keepdims=keep, select_last_index=last)], X, NONEMPTY)
    for op in ("ArgMax", "ArgMin") for axis, keep, last in [(0, 1, 0), (-1, 0, 1), (1, 0, 0), (-2, 1, 1)]
]
ARG += [
    row("ArgMin-rank1-keepdims0-scalar", [node("ArgMin", ["v"], ["y"], keepdims=0)], [tensor("v", ["n"])],
        NONEMPTY),
    row("ArgMax-default-axis-nonempty-reduced-axis", [node("ArgMax", ["x"], ["y"], keepdims=0)], X,
        [{"n": 2, "c": 0, "h": 3}, {"n": 1, "c": 2, "h": 0}, {"n": 4, "c": 1, "h": 1}]),
]

SOFTMAX = [
    row(f"{op}-axis{axis}", [node(op, ["x"], ["y"], axis=axis)], X, NCH)
    for op in ("Softmax", "LogSoftmax", "Hardmax") for axis in (-1, 0, 1)
]
SOFTMAX += [
    row("Softmax-opset11-2d-coercion-axis1", [node("Softmax", ["x"], ["y"], axis=1)], X, NCH, opset=11),
    row("LogSoftmax-opset11-axis-neg2", [node("LogSoftmax", ["x"], ["y"], axis=-2)], X, NCH, opset=11),
    row("Hardmax-opset11-default-axis", [node("Hardmax", ["x"], ["y"])], X, NCH, opset=11),
]

C4 = [tensor("x", ["n", 4, "h", "w"])]
NHW = [{"n": 2, "h": 3, "w": 5}, {"n": 1, "h": 1, "w": 1}, {"n": 3, "h": 2, "w": 1}]
NHW0 = [*NHW, {"n": 0, "h": 2, "w": 2}]
ones4, zeros4 = array("g", np.ones(4, np.float32)), array("b", np.zeros(4, np.float32))
mean4, var4 = array("m", np.zeros(4, np.float32)), array("v", np.ones(4, np.float32))
NORM = [
    row("LayerNormalization-axis-neg1-3-outputs", [node("LayerNormalization", ["x", "g", "b"], ["y", "mu", "rs"])],
        [tensor("x", ["n", "h", 4])], NHW0, [ones4, zeros4]),
    row("LayerNormalization-axis1-stats[n,1,1]", [node("LayerNormalization", ["x", "g"], ["y", "mu", "rs"], axis=1)],
        [tensor("x", ["n", "h", 4])], [{"n": 2, "h": 3}, {"n": 1, "h": 1}, {"n": 3, "h": 2}],
        [array("g", np.ones((1, 4), np.float32))]),
    row("LayerNormalization-axis-neg2-stats", [node("LayerNormalization", ["x", "g"], ["y", "mu", "rs"], axis=-2)],
        [tensor("x", ["n", 3, 4])], [{"n": 2}, {"n": 1}, {"n": 0}], [array("g", np.ones((3, 4), np.float32))]),
    row("LayerNormalization-axis0-stats-all-ones", [node("LayerNormalization", ["x", "g"], ["y", "mu", "rs"],
                                                         axis=0)],
        [tensor("x", ["n", 3])], [{"n": 2}, {"n": 1}, {"n": 4}], [array("g", np.ones((1, 3), np.float32))]),
    row("LayerNormalization-scale-broadcast-1", [node("LayerNormalization", ["x", "g"], ["y"])],
        [tensor("x", ["n", "h", "w"])], [{"n": 2, "h": 3, "w": 5}, {"n": 1, "h": 1, "w": 1}],
        [array("g", np.ones(1, np.float32))]),
    row("SimplifiedLayerNormalization-onnx-domain", [node("SimplifiedLayerNormalization", ["x", "g"], ["y", "rs"])],
        [tensor("x", ["n", "h", 4])], NHW0, [ones4], outputs=[tensor("y", None), tensor("rs", None)]),
    row("RMSNormalization-opset23-axis-neg1", [node("RMSNormalization", ["x", "g"], ["y"])],
        [tensor("x", ["n", "h", 4])], NHW0, [ones4], opset=23),
    row("BatchNormalization-inference", [node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"])], C4, NHW0,
        [ones4, zeros4, mean4, var4]),
    row("BatchNormalization-training-running-stats",
        [node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y", "rm", "rv"], training_mode=1)], C4, NHW,
        [ones4, zeros4, mean4, var4]),
    row("BatchNormalization-symbolic-channels", [node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"])],
        [tensor("x", ["n", "c", "h"]), tensor("g", ["c"]), tensor("b", ["c"]), tensor("m", ["c"]),
         tensor("v", ["c"])], NCH),
    row("InstanceNormalization", [node("InstanceNormalization", ["x", "g", "b"], ["y"])], C4, NHW, [ones4, zeros4]),
    row("GroupNormalization-opset21-2-groups", [node("GroupNormalization", ["x", "g", "b"], ["y"], num_groups=2)],
        C4, NHW, [ones4, zeros4], outputs=[tensor("y", None)]),
    row("GroupNormalization-opset18-scale-per-group", [node("GroupNormalization", ["x", "g2", "b2"], ["y"],
                                                            num_groups=2)],
        C4, NHW, [array("g2", np.ones(2, np.float32)), array("b2", np.zeros(2, np.float32))], opset=18,
        outputs=[tensor("y", None)]),
    row("MeanVarianceNormalization-default-axes", [node("MeanVarianceNormalization", ["x"], ["y"])], C4, NHW),
    row("MeanVarianceNormalization-axes[1]", [node("MeanVarianceNormalization", ["x"], ["y"], axes=[1])], C4, NHW),
    row("LpNormalization-axis0-p1", [node("LpNormalization", ["x"], ["y"], axis=0, p=1)], X, NCH),
    row("LpNormalization-axis-neg1-p2", [node("LpNormalization", ["x"], ["y"])], X, NCH),
    row("LRN-size3", [node("LRN", ["x"], ["y"], size=3)], C4, NHW),
    row("GlobalAveragePool-2d", [node("GlobalAveragePool", ["x"], ["y"])], C4, NHW),
    row("GlobalMaxPool-1d", [node("GlobalMaxPool", ["x"], ["y"])], [tensor("x", ["n", "c", "h"])], NONEMPTY),
    row("GlobalLpPool-3d-p3", [node("GlobalLpPool", ["x"], ["y"], p=3)], [tensor("x", ["n", 2, "h", "w", 2])], NHW),
]


def _distinct(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Distinct floats, so TopK's order is well defined."""
    return np.random.default_rng(3).permutation(int(np.prod(shape))).reshape(shape).astype(dtype)


TOPK = [
    row("TopK-k2-axis-neg1", [node("TopK", ["x", "k"], ["v", "i"])], X, [s for s in NCH if s["h"] >= 2],
        [const("k", [2])], feed=_distinct),
    row("TopK-k1-axis0-smallest-unsorted", [node("TopK", ["x", "k"], ["v", "i"], axis=0, largest=0, sorted=0)], X,
        NONEMPTY, [const("k", [1])], feed=_distinct),
    row("TopK-k0-axis1", [node("TopK", ["x", "k"], ["v", "i"], axis=1)], X, NCH, [const("k", [0])], feed=_distinct),
    row("TopK-k-is-the-whole-axis", [node("Shape", ["x"], ["s"], start=-2, end=-1),
                                     node("TopK", ["x", "s"], ["v", "i"], axis=-2)], X, NCH, feed=_distinct),
    row("TopK-k-is-min-of-dim-and-3", [node("Shape", ["x"], ["s"], start=-1), node("Min", ["s", "three"], ["k"]),
                                       node("TopK", ["x", "k"], ["v", "i"])], X, NCH, [const("three", [3])],
        feed=_distinct),
    row("TopK-k-from-another-tensor", [node("Shape", ["z"], ["s"]), node("TopK", ["x", "s"], ["v", "i"], axis=2)],
        [*X, tensor("z", ["k"])], [{"n": 2, "c": 3, "h": 5, "k": 3}, {"n": 1, "c": 1, "h": 1, "k": 1},
                                   {"n": 2, "c": 2, "h": 4, "k": 0}, {"n": 0, "c": 1, "h": 2, "k": 2}],
        feed=_distinct),
]

ROWS = REDUCE + ARG + SOFTMAX + NORM + TOPK


@pytest.mark.parametrize("r", REDUCE + ARG)
def test_reductions(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", SOFTMAX + NORM)
def test_softmax_and_normalizations(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", TOPK)
def test_topk(r: Row) -> None:
    report = run_row(r)
    assert report.checked_dims >= 3 * len(r.samples)
