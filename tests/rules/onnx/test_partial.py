"""Ops whose size-giving input has unknown values keep the output's rank and the dims no value of
that input changes (issue 14, item 5). Truth from onnxruntime at several sizes, 1 and 0 included;
a dim the rule cannot know is a fresh symbol that each run binds by observation, so a wrong claim
about the known dims or the rank fails the check."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.algebra.expr import Dim
from symshape.api import analyze_onnx
from tests.oracle import check_model, make_model, rand, run, tensor

I64 = TensorProto.INT64


def _text(dims: tuple[Dim, ...] | None) -> list[str]:
    assert dims is not None
    return [str(d) for d in dims]


def _known(dims: tuple[Dim, ...] | None, inputs: set[str]) -> list[str | None]:
    """Each dim as text when it is expressed in the input symbols, else None (a fresh symbol)."""
    assert dims is not None
    return [str(d) if isinstance(d, int) or d.free <= inputs else None for d in dims]


def _ints(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _scatternd(updates: list[str | int]) -> onnx.ModelProto:
    return make_model(
        [helper.make_node("ScatterND", ["data", "idx", "upd"], ["y"])],
        [tensor("data", ["a", "b"]), tensor("idx", ["n", "k"], I64), tensor("upd", updates)],
        ["y"],
    )


def test_scatternd_is_the_data_shape_whatever_the_index_depth() -> None:
    rows = [  # index depth 1: updates are rows
        {"data": rand(a, b), "idx": idx.reshape(-1, 1), "upd": rand(len(idx), b)}
        for a, b, idx in [(3, 4, _ints(0, 2)), (1, 5, _ints(0)), (2, 0, _ints(1)), (4, 1, _ints(3, 1, 0))]
    ]
    cells = [  # index depth 2: updates are single elements
        {"data": rand(a, b), "idx": idx.reshape(-1, 2), "upd": rand(len(idx) // 2)}
        for a, b, idx in [(3, 2, _ints(1, 0, 2, 1)), (1, 1, _ints(0, 0)), (2, 3, _ints(1, 2))]
    ]
    for model, samples in ((_scatternd(["n", "b"]), rows), (_scatternd(["n"]), cells)):
        result, _ = check_model(model, samples, allow_warnings=True)
        assert _text(result.shape("y")) == ["a", "b"]


def _slice_model(with_axes_input: bool) -> onnx.ModelProto:
    inputs = [tensor("x", ["a", "b", "c"]), tensor("s", [1], I64), tensor("e", [1], I64)]
    if with_axes_input:
        inputs.append(tensor("ax", [1], I64))
    return make_model(
        [helper.make_node("Slice", ["x", "s", "e", "ax" if with_axes_input else "one"], ["y"])],
        inputs,
        ["y"],
        [] if with_axes_input else [helper.make_tensor("one", I64, [1], [1])],
    )


def test_slice_with_computed_bounds_keeps_the_rank_and_the_other_axes() -> None:
    samples = [
        {"x": rand(a, b, c), "s": _ints(s), "e": _ints(e)}
        for a, b, c, s, e in [(2, 5, 3, 1, 4), (1, 4, 1, -3, 100), (3, 0, 2, 0, 2), (0, 6, 4, 2, -1)]
    ]
    result, _ = check_model(_slice_model(False), samples, allow_warnings=True)
    assert _known(result.shape("y"), {"a", "b", "c"}) == ["a", None, "c"]


def test_slice_with_computed_axes_keeps_the_rank() -> None:
    samples = [{"x": rand(2, 5, 3), "s": _ints(1), "e": _ints(3), "ax": _ints(ax)} for ax in (0, 1, 2, -1)] + [
        {"x": rand(1, 0, 4), "s": _ints(0), "e": _ints(1), "ax": _ints(2)}
    ]
    result, _ = check_model(_slice_model(True), samples, allow_warnings=True)
    dims = result.shape("y")
    assert dims is not None and len(dims) == 3


def test_split_with_computed_sizes_keeps_the_other_dims() -> None:
    model = make_model(
        [helper.make_node("Split", ["x", "sizes"], ["p", "q"], axis=1)],
        [tensor("x", ["a", "b", "c"]), tensor("sizes", [2], I64)],
        ["p", "q"],
    )
    samples = [
        {"x": rand(a, p + q, c), "sizes": _ints(p, q)}
        for a, p, q, c in [(2, 1, 3, 4), (1, 0, 2, 1), (3, 2, 0, 2), (0, 1, 1, 5), (2, 0, 0, 3)]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    for name in ("p", "q"):
        assert _known(result.shape(name), {"a", "b", "c"}) == ["a", None, "c"]


def test_split_into_one_piece_with_computed_sizes_is_the_input() -> None:
    model = make_model(
        [helper.make_node("Split", ["x", "sizes"], ["p"], axis=0)],
        [tensor("x", ["a", "b"]), tensor("sizes", [1], I64)],
        ["p"],
    )
    samples = [{"x": rand(a, b), "sizes": _ints(a)} for a, b in [(3, 2), (1, 1), (0, 4)]]
    result, _ = check_model(model, samples, allow_warnings=True)
    assert _text(result.shape("p")) == ["a", "b"]


def _squeeze(dims: list[str | int]) -> onnx.ModelProto:
    return make_model(
        [helper.make_node("Squeeze", ["x", "axes"], ["y"])],
        [tensor("x", dims), tensor("axes", [1], I64)],
        ["y"],
    )


def test_squeeze_with_computed_axes_finds_the_only_dim_that_may_be_1() -> None:
    samples = [{"x": rand(3, 1, 4), "axes": _ints(ax)} for ax in (1, -2)]
    result, _ = check_model(_squeeze([3, 1, 4]), samples, allow_warnings=True)
    assert _text(result.shape("y")) == ["3", "4"]


def test_squeeze_with_computed_axes_keeps_the_dims_outside_the_candidates() -> None:
    """``[2, 1, 3, 1, 5]`` minus one of its 1s: ``2`` stays first and ``5`` last either way."""
    samples = [{"x": rand(2, 1, 3, 1, 5), "axes": _ints(ax)} for ax in (1, 3, -2)]
    result, _ = check_model(_squeeze([2, 1, 3, 1, 5]), samples, allow_warnings=True)
    assert _known(result.shape("y"), set()) == ["2", None, None, "5"]


def test_unsqueeze_with_computed_axes_keeps_the_rank() -> None:
    model = make_model(
        [helper.make_node("Unsqueeze", ["x", "axes"], ["y"])],
        [tensor("x", ["a", "b"]), tensor("axes", [2], I64)],
        ["y"],
    )
    samples = [
        {"x": rand(a, b), "axes": _ints(*axes)} for a, b, axes in [(2, 3, (0, 3)), (1, 4, (1, 2)), (0, 2, (-1, 0))]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    dims = result.shape("y")
    assert dims is not None and len(dims) == 4


def test_unsqueeze_of_ones_with_computed_axes_is_all_ones() -> None:
    model = make_model(
        [helper.make_node("Unsqueeze", ["x", "axes"], ["y"])],
        [tensor("x", [1, 1]), tensor("axes", [1], I64)],
        ["y"],
    )
    samples = [{"x": rand(1, 1), "axes": _ints(ax)} for ax in (0, 2, -1)]
    result, _ = check_model(model, samples, allow_warnings=True)
    assert _text(result.shape("y")) == ["1", "1", "1"]


def test_tile_with_computed_repeats_keeps_the_rank_and_a_zero_dim() -> None:
    model = make_model(
        [helper.make_node("Tile", ["x", "reps"], ["y"])],
        [tensor("x", ["a", 0, "b"]), tensor("reps", [3], I64)],
        ["y"],
    )
    samples = [
        {"x": rand(a, 0, b), "reps": _ints(*r)} for a, b, r in [(2, 3, (1, 4, 2)), (1, 1, (3, 0, 1)), (0, 2, (2, 2, 2))]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    assert _known(result.shape("y"), {"a", "b"}) == [None, "0", None]


def test_reshape_to_one_computed_dim_is_the_element_count() -> None:
    model = make_model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])],
        [tensor("x", ["a", "b"]), tensor("shape", [1], I64)],
        ["y"],
    )
    samples = [
        {"x": rand(a, b), "shape": _ints(t)} for a, b, t in [(2, 3, -1), (1, 4, 4), (3, 1, -1), (0, 5, 0), (0, 2, -1)]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    assert _text(result.shape("y")) == ["a*b"]


def test_reshape_to_a_constant_target_of_an_input_with_no_shape() -> None:
    """The target alone gives the rank and every dim but the ``-1`` (and a copied ``0``)."""
    nodes = [helper.make_node("Reshape", ["x", "t"], ["y"]), helper.make_node("Reshape", ["x", "t0"], ["z"])]
    inits = [onnx.numpy_helper.from_array(_ints(2, -1, 3), "t"), onnx.numpy_helper.from_array(_ints(2, 0, -1), "t0")]
    model = make_model(nodes, [tensor("x", None)], [tensor("y", None), tensor("z", None)], inits)
    result = analyze_onnx(model)  # the oracle's check wants a claim for x itself, which has none
    assert _known(result.shape("y"), set()) == ["2", None, "3"]
    assert _known(result.shape("z"), set()) == ["2", None, None]
    for x in (rand(2, 5, 3), rand(6, 1), rand(4, 3, 2), rand(2, 1, 3, 1)):
        observed = run(model, {"x": x})
        for name in ("y", "z"):
            claimed = result.shape(name)
            assert claimed is not None and len(claimed) == observed[name].ndim
            assert all(d == n for d, n in zip(claimed, observed[name].shape, strict=True) if isinstance(d, int))
