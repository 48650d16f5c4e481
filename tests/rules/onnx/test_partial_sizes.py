"""Partial shapes where a size-setting input is a graph input of unknown value: the rank and the
dims the op cannot change are kept, the others are fresh symbols. Truth from onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.algebra.expr import Dim, as_symbol
from symshape.engine.result import Analysis
from tests.oracle import assert_sound, check, make_model, rand, tensor

F, I64 = TensorProto.FLOAT, TensorProto.INT64


INPUT_SYMBOLS = {"n", "c", "h", "w", "l"}


def _fresh(d: Dim) -> bool:
    """A symbol of the analysis's own (not an input dim): a size it does not claim."""
    name = as_symbol(d)
    return name is not None and name not in INPUT_SYMBOLS


def _sound(model: onnx.ModelProto, samples: list[dict[str, np.ndarray]]) -> Analysis:
    return assert_sound(check(model, samples)).analysis


def test_resize_scales_input_keeps_the_dims_outside_axes() -> None:
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], axes=[2, 3], mode="nearest")
    model = make_model([node], [tensor("x", ["n", "c", "h", "w"]), tensor("s", [2])], ["y"])
    samples = [
        {"x": rand(n, c, h, w), "s": np.array(s, np.float32)}
        for n, c, h, w, s in [(1, 3, 4, 5, [2.0, 0.5]), (2, 1, 1, 3, [3.0, 1.0]), (0, 2, 2, 2, [1.0, 2.0])]
    ]
    y = _sound(model, samples).shape("y")
    assert [str(d) for d in y[:2]] == ["n", "c"] and all(_fresh(d) for d in y[2:])


def test_resize_sizes_input_without_axes_keeps_the_rank() -> None:
    node = helper.make_node("Resize", ["x", "", "", "sz"], ["y"], mode="nearest")
    model = make_model([node], [tensor("x", ["n", "c", "h"]), tensor("sz", [3], I64)], ["y"])
    samples = [{"x": rand(1, 2, 3), "sz": np.array([1, 2, 6])}, {"x": rand(2, 1, 4), "sz": np.array([2, 1, 1])}]
    y = _sound(model, samples).shape("y")
    assert y is not None and len(y) == 3


def test_resize_keep_aspect_ratio_with_unknown_sizes() -> None:
    node = helper.make_node(
        "Resize", ["x", "", "", "sz"], ["y"], axes=[1, 2], keep_aspect_ratio_policy="not_larger", mode="nearest"
    )
    model = make_model([node], [tensor("x", ["n", "h", "w"]), tensor("sz", [2], I64)], ["y"])
    samples = [{"x": rand(n, 2, 4), "sz": np.array([7, 7])} for n in (1, 3)] + [
        {"x": rand(0, 3, 3), "sz": np.array([1, 2])}
    ]
    y = _sound(model, samples).shape("y")
    assert str(y[0]) == "n" and all(_fresh(d) for d in y[1:])


def test_pad_with_unknown_pads_keeps_the_rank_and_unpadded_axes() -> None:
    node = helper.make_node("Pad", ["x", "p", "", "ax"], ["y"])
    model = make_model(
        [node],
        [tensor("x", ["n", "c", "h"]), tensor("p", [2], I64)],
        ["y"],
        initializers=[helper.make_tensor("ax", I64, [1], [2])],
    )
    samples = [
        {"x": rand(n, c, h), "p": np.array(p)}
        for n, c, h, p in [(1, 2, 3, [1, 2]), (3, 1, 1, [0, 0]), (0, 2, 4, [-1, 2])]
    ]
    y = _sound(model, samples).shape("y")
    assert [str(d) for d in y[:2]] == ["n", "c"] and _fresh(y[2])


def test_pad_with_unknown_axes_keeps_the_rank() -> None:
    node = helper.make_node("Pad", ["x", "p", "", "ax"], ["y"])
    model = make_model([node], [tensor("x", ["n", "c"]), tensor("p", [2], I64), tensor("ax", [1], I64)], ["y"])
    samples = [
        {"x": rand(2, 3), "p": np.array([1, 1]), "ax": np.array([1])},
        {"x": rand(1, 1), "p": np.array([0, 2]), "ax": np.array([0])},
    ]
    y = _sound(model, samples).shape("y")
    assert y is not None and len(y) == 2


def test_center_crop_pad_with_unknown_target_keeps_other_axes() -> None:
    node = helper.make_node("CenterCropPad", ["x", "t"], ["y"], axes=[0, 1])
    model = make_model([node], [tensor("x", ["h", "w", "c"]), tensor("t", [2], I64)], ["y"])
    samples = [
        {"x": rand(h, w, c), "t": np.array(t)}
        for h, w, c, t in [(20, 8, 3, [10, 9]), (3, 3, 1, [1, 5]), (4, 1, 0, [2, 2])]
    ]
    y = _sound(model, samples).shape("y")
    assert str(y[2]) == "c" and all(_fresh(d) for d in y[:2])


def test_dft_with_an_axis_input_keeps_the_signal_dims() -> None:
    node = helper.make_node("DFT", ["x", "", "ax"], ["y"])
    model = make_model([node], [tensor("x", ["n", "l", "c"]), tensor("ax", [], I64)], ["y"], opset=20)
    samples = [{"x": rand(n, m, 1), "ax": np.array(a)} for n, m, a in [(1, 10, 1), (3, 4, 0), (2, 1, -2)]]
    y = _sound(model, samples).shape("y")
    assert [str(d) for d in y] == ["n", "l", "2"]


def test_dft_onesided_with_an_axis_input_keeps_the_rank_and_the_last_dim() -> None:
    node = helper.make_node("DFT", ["x", "", "ax"], ["y"], onesided=1)
    model = make_model([node], [tensor("x", ["n", "l", "c"]), tensor("ax", [], I64)], ["y"], opset=20)
    samples = [{"x": rand(n, m, 1), "ax": np.array(a)} for n, m, a in [(1, 10, 1), (3, 4, 0), (2, 1, 1)]]
    y = _sound(model, samples).shape("y")
    assert y[-1] == 2 and all(_fresh(d) for d in y[:-1])


def test_range_with_float_inputs_of_unknown_value_is_one_dimensional() -> None:
    node = helper.make_node("Range", ["a", "b", "d"], ["y"])
    model = make_model([node], [tensor(x, []) for x in "abd"], ["y"])
    samples = [
        {"a": np.array(a, np.float32), "b": np.array(b, np.float32), "d": np.array(d, np.float32)}
        for a, b, d in [(0.0, 5.0, 1.5), (1.0, 1.0, 1.0), (3.0, -2.0, -0.5)]
    ]
    y = _sound(model, samples).shape("y")
    assert y is not None and len(y) == 1 and _fresh(y[0])


def test_range_with_a_delta_of_unknown_sign_is_one_dimensional() -> None:
    node = helper.make_node("Range", ["a", "b", "d"], ["y"])
    model = make_model([node], [tensor(x, [], TensorProto.INT32) for x in "abd"], ["y"])
    samples = [
        {"a": np.array(a, np.int32), "b": np.array(b, np.int32), "d": np.array(d, np.int32)}
        for a, b, d in [(10, 6, -3), (0, 5, 2), (4, 4, 1)]
    ]
    y = _sound(model, samples).shape("y")
    assert y is not None and len(y) == 1 and _fresh(y[0])
