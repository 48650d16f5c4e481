"""Vision ops with a size input of unknown value (AffineGrid, Col2Im, MaxUnpool) keep the rank
and the dims they do not set; ConvTranspose with SAME padding and a symbolic kernel is exact.
Truth from onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.algebra.expr import Dim, as_symbol
from symshape.engine.result import Analysis
from tests.oracle import assert_exact, assert_sound, check, make_model, rand, tensor

I64 = TensorProto.INT64
INPUT_SYMBOLS = {"n", "c", "k", "l", "h", "w", "m"}


def _fresh(d: Dim) -> bool:
    name = as_symbol(d)
    return name is not None and name not in INPUT_SYMBOLS


def _sound(model: onnx.ModelProto, samples: list[dict[str, np.ndarray]]) -> Analysis:
    return assert_sound(check(model, samples)).analysis


def test_affine_grid_with_unknown_size_keeps_batch_rank_and_last_dim() -> None:
    node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"])
    model = make_model([node], [tensor("theta", ["n", 2, 3]), tensor("size", [4], I64)], ["grid"], opset=20)
    samples = [
        {"theta": rand(n, 2, 3), "size": np.array([n, c, h, w])}
        for n, c, h, w in [(2, 3, 5, 6), (1, 1, 1, 1), (3, 2, 4, 1), (0, 1, 2, 2)]
    ]
    grid = _sound(model, samples).shape("grid")
    assert str(grid[0]) == "n" and grid[3] == 2 and all(_fresh(d) for d in grid[1:3])


def test_col2im_with_unknown_shapes_keeps_batch_and_rank() -> None:
    node = helper.make_node("Col2Im", ["x", "image", "block"], ["y"])
    model = make_model(
        [node], [tensor("x", ["n", "k", "l"]), tensor("image", [2], I64), tensor("block", [2], I64)], ["y"]
    )
    samples = [
        {"x": rand(n, c * b0 * b1, (h - b0 + 1) * (w - b1 + 1)), "image": np.array([h, w]), "block": np.array([b0, b1])}
        for n, c, h, w, b0, b1 in [(1, 1, 5, 5, 1, 5), (2, 3, 4, 3, 2, 2), (1, 2, 1, 1, 1, 1)]
    ]
    y = _sound(model, samples).shape("y")
    assert str(y[0]) == "n" and all(_fresh(d) for d in y[1:])


def test_col2im_with_a_constant_block_keeps_the_channels() -> None:
    node = helper.make_node("Col2Im", ["x", "image", "block"], ["y"])
    model = make_model(
        [node],
        [tensor("x", ["n", "k", "l"]), tensor("image", [2], I64)],
        ["y"],
        initializers=[helper.make_tensor("block", I64, [2], [2, 2])],
    )
    samples = [
        {"x": rand(n, 4 * c, (h - 1) * (w - 1)), "image": np.array([h, w])}
        for n, c, h, w in [(1, 1, 5, 5), (2, 3, 2, 3), (3, 2, 2, 2)]
    ]
    y = _sound(model, samples).shape("y")
    assert [str(d) for d in y[:2]] == ["n", "floor(k/4)"] and all(_fresh(d) for d in y[2:])


def test_max_unpool_with_unknown_output_shape_keeps_n_and_c() -> None:
    node = helper.make_node("MaxUnpool", ["x", "i", "shape"], ["y"], kernel_shape=[2, 2], strides=[2, 2])
    model = make_model(
        [node],
        [tensor("x", ["n", "c", "h", "w"]), tensor("i", ["n", "c", "h", "w"], I64), tensor("shape", [4], I64)],
        ["y"],
    )
    samples = [
        {"x": rand(n, c, h, w), "i": np.zeros((n, c, h, w), np.int64), "shape": np.array([n, c, 2 * h + e, 2 * w])}
        for n, c, h, w, e in [(1, 1, 2, 2, 1), (2, 3, 1, 4, 0), (1, 2, 3, 1, 1)]
    ]
    y = _sound(model, samples).shape("y")
    assert [str(d) for d in y[:2]] == ["n", "c"] and all(_fresh(d) for d in y[2:])


def test_conv_transpose_same_with_a_symbolic_kernel() -> None:
    node = helper.make_node("ConvTranspose", ["x", "wt"], ["y"], auto_pad="SAME_UPPER", strides=[2])
    model = make_model([node], [tensor("x", ["n", "c", "h"]), tensor("wt", ["c", "m", "k"])], ["y"])
    samples = [
        {"x": rand(n, c, h), "wt": rand(c, m, k, seed=1)}
        for n, c, h, m, k in [(1, 2, 5, 1, 3), (2, 1, 1, 3, 1), (1, 1, 4, 2, 2), (3, 2, 3, 1, 4)]
    ]
    report = assert_exact(check(model, samples))
    y = report.analysis.shape("y")
    assert [str(d) for d in y[:2]] == ["n", "m"]
