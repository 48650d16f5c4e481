"""Elementwise ONNX ops (unary, broadcasting binary and variadic, Where, Clip, Cast, Dropout,
quantization, random-like, Trilu, CumSum, EyeLike) against onnxruntime.

Every row runs at several assignments with each symbolic dim at 1 and at 0 where the op accepts
an empty tensor; `tests.oracle` compares every analyzed dim with the observed one.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.oracle import const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I32, I64, U8, U32, B = (TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8,
                           TensorProto.UINT32, TensorProto.BOOL)
node = helper.make_node
NC = [{"n": 2, "c": 3}, {"n": 1, "c": 1}, {"n": 0, "c": 4}, {"n": 3, "c": 0}]


def positive(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Integers in [1, 4) (no division by zero), floats in (0.5, 1.5), random booleans."""
    rng = np.random.default_rng(len(name) + sum(shape))
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(1, 4, shape).astype(dtype)
    return (rng.random(shape) + 0.5).astype(dtype)


FLOAT_UNARY = ["Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Erf", "Exp",
               "Floor", "Log", "Neg", "Reciprocal", "Relu", "Round", "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt", "Tan",
               "Tanh", "Softplus", "Softsign", "Mish", "Gelu", "Celu", "Elu", "HardSigmoid", "HardSwish", "LeakyRelu",
               "Selu", "Shrink", "ThresholdedRelu", "Identity"]
BOOL_UNARY = [("IsInf", F), ("IsNaN", F), ("Not", B), ("BitwiseNot", I32)]

UNARY = [row(f"{op}[n,c]", [node(op, ["x"], ["y"])], [tensor("x", ["n", "c"])], NC) for op in FLOAT_UNARY]
UNARY += [row(f"{op}[n,c]", [node(op, ["x"], ["y"])], [tensor("x", ["n", "c"], t)], NC) for op, t in BOOL_UNARY]
UNARY += [
    row("Gelu-tanh[n,c,4]", [node("Gelu", ["x"], ["y"], approximate="tanh")], [tensor("x", ["n", "c", 4])], NC),
    row("Cast-to-int64[n,c]", [node("Cast", ["x"], ["y"], to=I64)], [tensor("x", ["n", "c"])], NC),
    row("CastLike-int32[n,c]", [node("CastLike", ["x", "t"], ["y"])], [tensor("x", ["n", "c"]), tensor("t", [], I32)],
        NC),
    row("Clip-no-bounds[n,c]", [node("Clip", ["x"], ["y"])], [tensor("x", ["n", "c"])], NC),
    row("Clip-min-max-inputs[n,c]", [node("Clip", ["x", "lo", "hi"], ["y"])], [tensor("x", ["n", "c"])], NC,
        [helper.make_tensor("lo", F, [], [-0.5]), helper.make_tensor("hi", F, [], [0.5])]),
    row("Clip-max-only[n,c]", [node("Clip", ["x", "", "hi"], ["y"])], [tensor("x", ["n", "c"])], NC,
        [helper.make_tensor("hi", F, [], [0.0])]),
    row("Dropout-inference-mask[n,c]", [node("Dropout", ["x"], ["y", "mask"])], [tensor("x", ["n", "c"])], NC),
    row("Dropout-training-ratio[n,c]", [node("Dropout", ["x", "r", "t"], ["y", "mask"], seed=1)],
        [tensor("x", ["n", "c"])], NC, [helper.make_tensor("r", F, [], [0.3]), helper.make_tensor("t", B, [], [1])]),
    row("QuantizeLinear-per-tensor[n,c]", [node("QuantizeLinear", ["x", "s", "z"], ["y"])], [tensor("x", ["n", "c"])],
        NC, [helper.make_tensor("s", F, [], [0.1]), helper.make_tensor("z", U8, [], [3])]),
    row("QuantizeLinear-per-axis-1[n,4,c]", [node("QuantizeLinear", ["x", "s"], ["y"], axis=1)],
        [tensor("x", ["n", 4, "c"])], NC, [helper.make_tensor("s", F, [4], [0.1, 0.2, 0.3, 0.4])]),
    row("DequantizeLinear-per-axis-neg1[n,c,3]", [node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=-1)],
        [tensor("x", ["n", "c", 3], U8)], NC,
        [helper.make_tensor("s", F, [3], [0.1, 0.2, 0.3]), helper.make_tensor("z", U8, [3], [1, 2, 3])]),
    row("Bernoulli[n,c]", [node("Bernoulli", ["x"], ["y"], seed=2.0)], [tensor("x", ["n", "c"])], NC,
        feed=positive),
    row("RandomNormalLike[n,c]", [node("RandomNormalLike", ["x"], ["y"])], [tensor("x", ["n", "c"])], NC),
    row("RandomUniformLike-dtype[n,c]", [node("RandomUniformLike", ["x"], ["y"], dtype=F)],
        [tensor("x", ["n", "c"], I32)], NC),
    row("EyeLike-k1[n,c]", [node("EyeLike", ["x"], ["y"], k=1)], [tensor("x", ["n", "c"])], NC),
    row("EyeLike-k-neg2-int[n,c]", [node("EyeLike", ["x"], ["y"], k=-2, dtype=I64)], [tensor("x", ["n", "c"])], NC),
    row("Trilu-upper[b,n,c]", [node("Trilu", ["x"], ["y"])], [tensor("x", ["b", "n", "c"])],
        [{"b": 2, "n": 3, "c": 4}, {"b": 1, "n": 1, "c": 1}, {"b": 0, "n": 2, "c": 2}, {"b": 2, "n": 0, "c": 3}]),
    row("Trilu-lower-k-neg1[n,c]", [node("Trilu", ["x", "k"], ["y"], upper=0)], [tensor("x", ["n", "c"])], NC,
        [const("k", -1)]),
    row("CumSum-axis0[n,c]", [node("CumSum", ["x", "a"], ["y"])], [tensor("x", ["n", "c"])], NC, [const("a", 0)]),
    row("CumSum-axis-neg1-exclusive-reverse[n,c]", [node("CumSum", ["x", "a"], ["y"], exclusive=1, reverse=1)],
        [tensor("x", ["n", "c"])], NC, [const("a", -1, I32)]),
]

BROADCAST_SAMPLES = [{"n": 2, "m": 3, "c": 4}, {"n": 1, "m": 1, "c": 1}, {"n": 0, "m": 5, "c": 2},
                     {"n": 3, "m": 1, "c": 0}]
BINARY_FLOAT = ["Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mean", "Sum", "Equal", "Less", "LessOrEqual",
                "Greater", "GreaterOrEqual"]
BROADCAST = [
    row(f"{op}[n,1,c]x[m,1]", [node(op, ["a", "b"], ["y"])], [tensor("a", ["n", 1, "c"]), tensor("b", ["m", 1])],
        BROADCAST_SAMPLES, feed=positive)
    for op in BINARY_FLOAT
]
BROADCAST += [
    row(f"{op}[n,c]x[c]", [node(op, ["a", "b"], ["y"])], [tensor("a", ["n", "c"], t), tensor("b", ["c"], t)], NC,
        feed=positive)
    for op, t in [("And", B), ("Or", B), ("Xor", B), ("BitwiseAnd", I32), ("BitwiseOr", I32), ("BitwiseXor", I32)]
]
BROADCAST += [
    row("BitShift-left-u32[n,c]x[]", [node("BitShift", ["a", "b"], ["y"], direction="LEFT")],
        [tensor("a", ["n", "c"], U32), tensor("b", [], U32)], NC, feed=positive),
    row("BitShift-right-u8[1,c]x[n,1]", [node("BitShift", ["a", "b"], ["y"], direction="RIGHT")],
        [tensor("a", [1, "c"], U8), tensor("b", ["n", 1], U8)], NC, feed=positive),
    row("Mod-int-fmod0[n,c]x[1,c]", [node("Mod", ["a", "b"], ["y"])], [tensor("a", ["n", "c"], I64),
                                                                      tensor("b", [1, "c"], I64)], NC, feed=positive),
    row("Mod-float-fmod1[n,1]x[c]", [node("Mod", ["a", "b"], ["y"], fmod=1)], [tensor("a", ["n", 1]),
                                                                               tensor("b", ["c"])], NC, feed=positive),
    row("Div-int[n,c]x[n,1]", [node("Div", ["a", "b"], ["y"])], [tensor("a", ["n", "c"], I32),
                                                                 tensor("b", ["n", 1], I32)], NC, feed=positive),
    row("Pow-int-exponent[n,c]x[]", [node("Pow", ["a", "e"], ["y"])], [tensor("a", ["n", "c"]),
                                                                       tensor("e", [], I64)], NC, feed=positive),
    row("Add-static-1-broadcast[n,1]x[1,4]", [node("Add", ["a", "b"], ["y"])], [tensor("a", ["n", 1]),
                                                                                tensor("b", [1, 4])], NC),
    row("Add-rank-0-and-rank-3", [node("Add", ["a", "b"], ["y"])], [tensor("a", []), tensor("b", ["n", "c", 2])], NC),
    row("Sub-same-symbols[n,c]x[n,c]", [node("Sub", ["a", "b"], ["y"])], [tensor("a", ["n", "c"]),
                                                                          tensor("b", ["n", "c"])], NC),
    row("Max-variadic-3-ranks", [node("Max", ["a", "b", "d"], ["y"])],
        [tensor("a", ["c"]), tensor("b", ["n", 1]), tensor("d", [2, 1, 1])], NC),
    row("Sum-variadic-1-input[n,c]", [node("Sum", ["a"], ["y"])], [tensor("a", ["n", "c"])], NC),
    row("Mean-variadic-4-inputs", [node("Mean", ["a", "b", "a", "b"], ["y"])], [tensor("a", ["n", 1]),
                                                                                tensor("b", ["c"])], NC),
    row("PRelu-slope[c,1]-on[n,c,h]", [node("PRelu", ["x", "s"], ["y"])], [tensor("x", ["n", "c", "h"]),
                                                                           tensor("s", ["c", 1])],
        [{"n": 2, "c": 3, "h": 4}, {"n": 1, "c": 1, "h": 1}, {"n": 0, "c": 2, "h": 5}, {"n": 2, "c": 2, "h": 0}]),
    row("PRelu-scalar-slope", [node("PRelu", ["x", "s"], ["y"])], [tensor("x", ["n", "c"])], NC,
        [helper.make_tensor("s", F, [1], [0.1])]),
    row("Where-cond[n,1]-x[1,c]-y[]", [node("Where", ["cond", "x", "y0"], ["y"])],
        [tensor("cond", ["n", 1], B), tensor("x", [1, "c"]), tensor("y0", [])], NC),
    row("Where-all-same[n,c]", [node("Where", ["cond", "x", "x"], ["y"])], [tensor("cond", ["n", "c"], B),
                                                                           tensor("x", ["n", "c"])], NC),
    row("Where-rank-grows-cond[c]", [node("Where", ["cond", "x", "z"], ["y"])],
        [tensor("cond", ["c"], B), tensor("x", ["n", 1]), tensor("z", [2, 1, 1])], NC),
    # Two symbols that may each be 1: Max(n, m)*Min(1, n, m), exact for every valid broadcast.
    row("Add-two-symbols-maybe-one[n]x[m]", [node("Add", ["a", "b"], ["y"])], [tensor("a", ["n"]),
                                                                               tensor("b", ["m"])],
        [{"n": 3, "m": 3}, {"n": 1, "m": 4}, {"n": 5, "m": 1}, {"n": 1, "m": 1}]),
    row("Add-two-symbols-with-empty[n]x[m]", [node("Add", ["a", "b"], ["y"])], [tensor("a", ["n"]),
                                                                                tensor("b", ["m"])],
        [{"n": 3, "m": 3}, {"n": 0, "m": 1}, {"n": 1, "m": 0}, {"n": 0, "m": 0}]),
]

# Integer arithmetic on the elements of a shape tensor s = Shape(x) = [n, c]: each row's output
# elements are tracked and compared with the values onnxruntime computes (negative ones included:
# ONNX integer Div truncates toward zero, Mod with fmod=0 takes the divisor's sign).
NC_WIDE = [*NC, {"n": 7, "c": 12}, {"n": 5, "c": 9}]


def on_shape(id: str, nodes: list[helper.NodeProto], inits: list[object] = (), xfail: str = "") -> object:
    """A row computing ``y`` from ``s = Shape(x)`` of ``x: [n, c]``."""
    return row(f"shape-values-{id}", [node("Shape", ["x"], ["s"]), *nodes], [tensor("x", ["n", "c"])], NC_WIDE,
               inits, xfail=xfail)


ELEMENTS = [
    on_shape("Add-Sub-Mul", [node("Add", ["s", "one"], ["a"]), node("Sub", ["a", "ten"], ["b"]),
                             node("Mul", ["b", "s"], ["y"])], [const("one", 1), const("ten", [10])]),
    on_shape("Div-by-2-nonneg", [node("Div", ["s", "two"], ["y"])], [const("two", 2)]),
    on_shape("Div-truncates-negatives", [node("Sub", ["s", "five"], ["d"]), node("Div", ["d", "two"], ["y"])],
             [const("five", 5), const("two", 2)]),
    on_shape("Div-by-negative", [node("Div", ["s", "m3"], ["y"])], [const("m3", -3)]),
    on_shape("Div-by-the-other-dim-plus-1", [node("Add", ["s", "one"], ["s1"]), node("Gather", ["s1", "i1"], ["c1"]),
                                             node("Div", ["s", "c1"], ["y"])], [const("one", 1), const("i1", 1)]),
    on_shape("Mod-fmod0-negative-dividend", [node("Sub", ["s", "five"], ["d"]), node("Mod", ["d", "three"], ["y"])],
             [const("five", 5), const("three", 3)]),
    on_shape("Mod-fmod0-negative-divisor", [node("Mod", ["s", "m3"], ["y"])], [const("m3", -3)]),
    on_shape("Mod-fmod1-nonnegative", [node("Mod", ["s", "three"], ["y"], fmod=1)], [const("three", 3)]),
    on_shape("Mod-fmod1-negative-dividend", [node("Sub", ["s", "five"], ["d"]),
                                             node("Mod", ["d", "three"], ["y"], fmod=1)],
             [const("five", 5), const("three", 3)]),
    on_shape("Max-Min-Clip", [node("Max", ["s", "two"], ["a"]), node("Min", ["a", "six"], ["b"]),
                              node("Clip", ["s", "one", "four"], ["c"]), node("Concat", ["b", "c"], ["y"], axis=0)],
             [const("two", 2), const("six", 6), const("one", 1), const("four", 4)]),
    on_shape("Abs-Neg-of-difference", [node("Sub", ["s", "three"], ["d"]), node("Abs", ["d"], ["a"]),
                                       node("Neg", ["d"], ["y"])], [const("three", 3)]),
    on_shape("Pow-2-and-Max-variadic", [node("Pow", ["s", "two"], ["p"]), node("Max", ["s", "p", "s"], ["y"])],
             [const("two", 2)]),
    # comparisons the facts decide (dims are >= 0): torch's expand(-1) test, a positivity test
    on_shape("decided-Equal-Greater-Where-Not", [node("Equal", ["s", "m1"], ["e"]), node("Not", ["e"], ["ne"]),
                                                 node("Add", ["s", "one"], ["s1"]),
                                                 node("Greater", ["s1", "zero"], ["g"]),
                                                 node("Where", ["g", "s", "m1"], ["w"]),
                                                 node("Cast", ["ne"], ["ni"], to=I64),
                                                 node("Mul", ["w", "ni"], ["y"])],
             [const("one", 1), const("m1", -1), const("zero", 0)]),
    on_shape("Cast-to-bool-and-back", [node("Cast", ["s"], ["b"], to=B), node("Cast", ["b"], ["y"], to=I64)]),
    on_shape("Cast-float-Div-Ceil-Cast", [node("Cast", ["s"], ["f"], to=F), node("Div", ["f", "twof"], ["h"]),
                                          node("Ceil", ["h"], ["c"]), node("Cast", ["c"], ["y"], to=I64)],
             [helper.make_tensor("twof", F, [], [2.0])]),
]

ROWS = UNARY + BROADCAST + ELEMENTS


@pytest.mark.parametrize("r", UNARY)
def test_unary_and_same_shape_ops(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", ELEMENTS)
def test_integer_arithmetic_on_shape_elements(r: Row) -> None:
    report = run_row(r)
    assert report.analysis.elements("y") is not None, "the result's elements are not tracked"


@pytest.mark.parametrize("r", BROADCAST)
def test_broadcasting_ops(r: Row) -> None:
    run_row(r)
