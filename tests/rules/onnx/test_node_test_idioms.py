"""Idioms of ONNX's node tests that the rules missed (scripts/node_tests_tools.py --gaps): dims
that no value of a size-setting input changes (Reduce with axes of unknown value, a kept dim whose
candidates agree; Split with sizes of unknown value of an empty dim) and a float OneHot depth.
Truth from onnxruntime at several sizes, including 1 and 0."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from symshape.algebra.expr import as_symbol
from tests.oracle import assert_exact, assert_sound, check, make_model, rand, tensor

I64, F = TensorProto.INT64, TensorProto.FLOAT


def test_reduce_without_keepdims_keeps_a_dim_its_candidates_agree_on() -> None:
    """(n, 2, 2) minus one unknown axis: dim 1 is 2 whichever axis goes; dim 0 is n or 2."""
    node = helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0)
    model = make_model([node], [tensor("x", ["n", 2, 2]), tensor("axes", [1], I64)], ["y"])
    samples = [{"x": rand(n, 2, 2), "axes": np.array([a])} for n, a in [(3, 0), (3, 1), (1, 2), (0, -1), (5, -3)]]
    y = assert_sound(check(model, samples)).analysis.shape("y")
    assert y is not None and len(y) == 2 and y[1] == 2
    assert as_symbol(y[0]) not in (None, "n")  # n or 2: not claimed


def test_reduce_without_keepdims_two_axes_of_four() -> None:
    """(3, 3, 3, m) minus two unknown axes: dim 0 is 3 (one of dims 0..2), dim 1 is 3 or m."""
    node = helper.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=0)
    model = make_model([node], [tensor("x", [3, 3, 3, "m"]), tensor("axes", [2], I64)], ["y"])
    samples = [{"x": rand(3, 3, 3, m), "axes": np.array(a)} for m, a in [(4, [0, 1]), (2, [1, 3]), (1, [2, 3])]]
    y = assert_sound(check(model, samples)).analysis.shape("y")
    assert y is not None and len(y) == 2 and y[0] == 3 and not isinstance(y[1], int)


def test_reduce_keepdims_with_as_many_axes_as_dims_reduces_all() -> None:
    node = helper.make_node("ReduceMean", ["x", "axes"], ["y"], keepdims=1)
    model = make_model([node], [tensor("x", ["n", "c"]), tensor("axes", [2], I64)], ["y"])
    samples = [{"x": rand(n, c), "axes": np.array(a)} for n, c, a in [(2, 3, [0, 1]), (4, 1, [1, 0]), (1, 5, [-1, 0])]]
    assert assert_sound(check(model, samples)).analysis.shape("y") == (1, 1)


def test_split_with_unknown_sizes_of_an_empty_dim_gives_empty_pieces() -> None:
    node = helper.make_node("Split", ["x", "sizes"], ["a", "b", "c"], axis=0)
    model = make_model([node], [tensor("x", [0, "n"]), tensor("sizes", [3], I64)], ["a", "b", "c"])
    samples = [{"x": rand(0, n), "sizes": np.zeros(3, np.int64)} for n in (1, 4)]
    analysis = assert_sound(check(model, samples)).analysis
    for name in "abc":
        shape = analysis.shape(name)
        assert shape is not None and shape[0] == 0 and as_symbol(shape[1]) == "n"


def test_one_hot_with_a_float_depth_constant() -> None:
    """A float depth is cast to int64 by the op: a constant 12.0 gives a depth of 12."""
    depth = helper.make_tensor("depth", F, [1], [12.0])
    values = helper.make_tensor("values", F, [2], [0.0, 1.0])
    node = helper.make_node("OneHot", ["idx", "depth", "values"], ["y"], axis=1)
    model = make_model([node], [tensor("idx", ["n", 3], I64)], ["y"], initializers=[depth, values])
    samples = [{"idx": np.arange(n * 3, dtype=np.int64).reshape(n, 3) % 12} for n in (1, 4, 0)]
    y = assert_exact(check(model, samples)).analysis.shape("y")
    assert y is not None and y[1:] == (12, 3) and as_symbol(y[0]) == "n"


def test_relu_of_a_shape_value_clamps_it_at_zero() -> None:
    """``ConstantOfShape(int(Relu(float(Shape(x) - 3))))``, as Range's expanded function clamps
    its count (onnxruntime has no integer Relu)."""
    three = helper.make_tensor("three", I64, [1], [3])
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Sub", ["s", "three"], ["d"]),
        helper.make_node("Cast", ["d"], ["f"], to=F),
        helper.make_node("Relu", ["f"], ["r"]),
        helper.make_node("Cast", ["r"], ["ri"], to=I64),
        helper.make_node("ConstantOfShape", ["ri"], ["y"]),
    ]
    model = make_model(nodes, [tensor("x", ["n"])], ["y"], initializers=[three])
    report = assert_exact(check(model, [{"n": n} for n in (0, 1, 3, 4, 9)]))
    y = report.analysis.shape("y")
    assert y is not None and len(y) == 1 and str(y[0]) == "Max(0, n - 3)"
