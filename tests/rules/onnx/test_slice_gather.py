"""Slice, the gathers and scatters, ReverseSequence and the space/depth ops against onnxruntime.

Slice rows cover negative, out-of-range and INT64_MAX/INT64_MIN bounds, negative steps, axes
given or not, negative axes and the opset-1 attribute form. A slice whose bounds may fall
outside the axis is exact (``Min(3, c)``, ``Max(c - 2, 0)``), so each in-bounds row has a twin
with samples past the end, and both pass with `assert_exact`. An end of exactly INT32_MAX or
INT64_MAX is numpy's ``None`` in onnxruntime (a negative step runs down to index 0).
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.oracle import const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32
node = helper.make_node
BIG, I32MAX = 2**63 - 1, 2**31 - 1
X = [tensor("x", ["n", "c", "h"])]
NCH = [{"n": 2, "c": 5, "h": 4}, {"n": 1, "c": 1, "h": 1}, {"n": 0, "c": 3, "h": 2}, {"n": 3, "c": 0, "h": 1},
       {"n": 2, "c": 7, "h": 0}]
WIDE = [s for s in NCH if s["c"] >= 3]  # every slice of c below stays in bounds


def sl(starts: list[int], ends: list[int], axes: list[int] | None = None, steps: list[int] | None = None,
       ) -> tuple[list[helper.NodeProto], list[object]]:
    """One Slice of ``x`` into ``y`` with constant starts, ends, axes and steps."""
    names, inits = ["x", "st", "en"], [const("st", starts), const("en", ends)]
    if axes is not None or steps is not None:
        names.append("ax" if axes is not None else "")
        if axes is not None:
            inits.append(const("ax", axes))
    if steps is not None:
        names.append("sp")
        inits.append(const("sp", steps))
    return [node("Slice", names, ["y"])], inits


def slice_row(id: str, starts: list[int], ends: list[int], axes: list[int] | None = None,
              steps: list[int] | None = None, samples: list[dict[str, int]] = NCH, xfail: str = "") -> object:
    nodes, inits = sl(starts, ends, axes, steps)
    return row(f"Slice-{id}", nodes, X, samples, inits, xfail=xfail)


SLICE = [
    slice_row("all-axes-full-range-INT64", [0, 0, 0], [BIG, BIG, BIG]),
    slice_row("reverse-axis1-from-minus1-INT64MIN-end", [-1], [-BIG], [1], [-1], samples=[s for s in NCH if s["c"]]),
    slice_row("reverse-axis1-from-minus1-empty-axis", [-1], [-BIG], [1], [-1]),
    slice_row("reverse-axis0-INT64MAX-start", [BIG], [-BIG], [0], [-1]),
    slice_row("every-2nd-axis-neg2", [0], [BIG], [-2], [2]),
    slice_row("every-3rd-reversed-axis2", [BIG], [-BIG], [2], [-3]),
    slice_row("start-past-the-end-is-empty", [BIG], [BIG], [1]),
    slice_row("start-INT64MIN-to-INT64MAX", [-BIG], [BIG], [-1]),
    slice_row("end-INT32MAX-means-the-end", [1], [I32MAX], [0], samples=[s for s in NCH if s["n"] >= 1]),
    slice_row("two-axes-mixed-steps", [0, BIG], [BIG, -BIG], [2, 0], [1, -2]),
    slice_row("reverse-end-INT64MAX", [-1], [BIG], [1], [-1], samples=[s for s in NCH if s["c"]]),
    row("Slice-reverse-end-INT32MAX-int32-step-minus2", [node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], X,
        [s for s in NCH if s["c"]], [const("st", [I32MAX], I32), const("en", [I32MAX], I32), const("ax", [1], I32),
                                     const("sp", [-2], I32)]),
    row("Slice-reverse-a-shape-tensor-end-INT64MAX", [node("Shape", ["x"], ["s"]),
                                                      node("Slice", ["s", "m1", "big", "zero", "m1"], ["r"]),
                                                      node("ConstantOfShape", ["r"], ["y"])], X, NCH,
        [const("m1", [-1]), const("big", [BIG]), const("zero", [0])]),
    slice_row("reverse-from-INT64MIN-to-minus1-nonempty", [-BIG], [-1], [1], [-1], samples=[s for s in NCH if s["c"]]),
    slice_row("reverse-from-INT64MIN-to-minus1-on-empty-axis", [-BIG], [-1], [1], [-1]),
    slice_row("head-0:3-in-bounds", [0], [3], [1], samples=WIDE),
    slice_row("head-0:3-past-the-end", [0], [3], [1]),
    slice_row("tail-2:-in-bounds", [2], [BIG], [1], samples=WIDE),
    slice_row("tail-2:-past-the-end", [2], [BIG], [1]),
    slice_row("last-3-negative-start-in-bounds", [-3], [BIG], [1], samples=WIDE),
    slice_row("last-3-negative-start-past-the-start", [-3], [BIG], [1]),
    slice_row("1:-1-in-bounds", [1], [-1], [1], samples=[s for s in NCH if s["c"] >= 1]),
    slice_row("1:-1-on-empty-axis", [1], [-1], [1]),
    slice_row("head-1000-past-the-end", [0], [1000], [1]),
    slice_row("reverse-from-2-in-bounds", [2], [-BIG], [1], [-1], samples=WIDE),
    slice_row("reverse-from-2-past-the-end", [2], [-BIG], [1], [-1]),
    slice_row("1:3-in-bounds", [1], [3], [1], samples=WIDE),
    slice_row("1:3-past-the-end", [1], [3], [1]),
    slice_row("-5:-2-in-bounds", [-5], [-2], [-2], samples=[s for s in NCH if s["c"] >= 5]),
    slice_row("-5:-2-short-axis", [-5], [-2], [-2]),
    slice_row("every-2nd-from-1-in-bounds", [1], [BIG], [1], [2], samples=[s for s in NCH if s["c"] >= 1]),
    row("Slice-opset9-attribute-form", [node("Slice", ["x"], ["y"], starts=[0, 1], ends=[BIG, BIG], axes=[0, 2])], X,
        [s for s in NCH if s["h"] >= 1], opset=9),
    row("Slice-no-axes-no-steps-inputs", [node("Slice", ["x", "st", "en"], ["y"])], X, NCH,
        [const("st", [0, 0]), const("en", [BIG, -BIG])]),
    row("Slice-int32-bounds", [node("Slice", ["x", "st", "en", "ax"], ["y"])], X, NCH,
        [const("st", [-I32MAX - 1], I32), const("en", [I32MAX], I32), const("ax", [1], I32)]),
    row("Slice-computed-start-k-from-shape-in-bounds", [node("Shape", ["z"], ["k"]),
                                                        node("Slice", ["x", "k", "en", "ax"], ["y"])],
        [*X, tensor("z", ["k"])], [{"n": 2, "c": 5, "h": 1, "k": 2}, {"n": 1, "c": 1, "h": 1, "k": 1},
                                   {"n": 0, "c": 4, "h": 2, "k": 0}], [const("en", [BIG]), const("ax", [1])]),
    row("Slice-computed-end-k-from-shape-in-bounds", [node("Shape", ["z"], ["k"]),
                                                      node("Slice", ["x", "zero", "k", "ax"], ["y"])],
        [*X, tensor("z", ["k"])], [{"n": 2, "c": 5, "h": 1, "k": 2}, {"n": 1, "c": 1, "h": 1, "k": 1},
                                   {"n": 0, "c": 4, "h": 2, "k": 0}], [const("zero", [0]), const("ax", [1])]),
    row("Slice-computed-end-k-from-shape-past-the-end", [node("Shape", ["z"], ["k"]),
                                                         node("Slice", ["x", "zero", "k", "ax"], ["y"])],
        [*X, tensor("z", ["k"])], [{"n": 2, "c": 5, "h": 1, "k": 2}, {"n": 1, "c": 1, "h": 1, "k": 3}],
        [const("zero", [0]), const("ax", [1])]),
    row("Slice-of-a-shape-tensor-last-two-and-every-2nd",
        [node("Shape", ["x"], ["s"]), node("Slice", ["s", "m2", "big"], ["hw"]),
         node("Slice", ["s", "zero", "big", "zero", "two"], ["nh"]), node("Concat", ["hw", "nh"], ["t"], axis=0),
         node("ConstantOfShape", ["t"], ["y"])], X, NCH,
        [const("m2", [-2]), const("big", [BIG]), const("zero", [0]), const("two", [2])]),
    row("Slice-computed-start-k-from-shape-past-the-end", [node("Shape", ["z"], ["k"]),
                                                     node("Slice", ["x", "k", "en", "ax"], ["y"])],
        [*X, tensor("z", ["k"])], [{"n": 2, "c": 5, "h": 1, "k": 2}, {"n": 1, "c": 1, "h": 1, "k": 3}],
        [const("en", [BIG]), const("ax", [1])]),
]


def zeros_for_ints(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Index inputs of 0 and -1 (valid on any non-empty axis); normal floats for data."""
    if np.issubdtype(dtype, np.integer):
        return -(np.arange(int(np.prod(shape))) % 2).reshape(shape).astype(dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


def first_index(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Index inputs of 0 only (ScatterND and GatherND want in-range, non-negative rows here)."""
    if np.issubdtype(dtype, np.integer):
        return np.zeros(shape, dtype)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


NCK = [{"n": 2, "c": 3, "h": 4, "k": 5}, {"n": 1, "c": 1, "h": 1, "k": 1}, {"n": 3, "c": 2, "h": 0, "k": 2},
       {"n": 2, "c": 2, "h": 3, "k": 0}]
GATHER = [
    row("Gather-axis0-2d-indices", [node("Gather", ["x", "i"], ["y"])], [*X, tensor("i", ["k", 2], I64)], NCK,
        feed=zeros_for_ints),
    row("Gather-axis-neg1-scalar-index", [node("Gather", ["x", "i"], ["y"], axis=-1)], X,
        [s for s in NCK if s["h"] >= 1], [const("i", -1)]),
    row("Gather-axis1-1d-indices", [node("Gather", ["x", "i"], ["y"], axis=1)], [*X, tensor("i", ["k"], I32)], NCK,
        feed=zeros_for_ints),
    row("Gather-axis-neg2-empty-indices", [node("Gather", ["x", "i"], ["y"], axis=-2)], X, NCK,
        [const("i", [])]),
    row("Gather-2d-indices-on-a-shape-tensor", [node("Shape", ["x"], ["s"]), node("Gather", ["s", "i"], ["g"]),
                                                node("Reshape", ["g", "m1"], ["t"]),
                                                node("ConstantOfShape", ["t"], ["y"])], X, NCH,
        [const("m1", [-1]), helper.make_tensor("i", I64, [2, 2], [2, -3, 0, 1])]),
    row("GatherElements-axis0-indices-smaller", [node("GatherElements", ["x", "i"], ["y"])],
        [tensor("x", ["n", 4]), tensor("i", ["k", 2], I64)], [s for s in NCK if s["n"] >= 1], feed=zeros_for_ints),
    row("GatherElements-axis0", [node("GatherElements", ["x", "i"], ["y"])],
        [tensor("x", ["n", "c"]), tensor("i", ["k", "c"], I64)], [s for s in NCK if s["n"] >= 1],
        feed=zeros_for_ints),
    row("GatherElements-axis-neg1", [node("GatherElements", ["x", "i"], ["y"], axis=-1)],
        [*X, tensor("i", ["n", "c", "k"], I64)], [s for s in NCK if s["h"] >= 1], feed=zeros_for_ints),
    row("GatherND-depth2", [node("GatherND", ["x", "i"], ["y"])], [*X, tensor("i", ["k", 2], I64)],
        [s for s in NCK if s["n"] >= 1 and s["c"] >= 1], feed=first_index),
    row("GatherND-depth3-to-scalars", [node("GatherND", ["x", "i"], ["y"])], [*X, tensor("i", ["k", 1, 3], I64)],
        [s for s in NCK if min(s["n"], s["c"], s["h"]) >= 1], feed=first_index),
    row("GatherND-batch_dims1", [node("GatherND", ["x", "i"], ["y"], batch_dims=1)],
        [*X, tensor("i", ["n", "k", 1], I64)], [s for s in NCK if s["c"] >= 1], feed=first_index),
    row("ScatterND-rows", [node("ScatterND", ["x", "i", "u"], ["y"])],
        [*X, tensor("i", ["k", 1], I64), tensor("u", ["k", "c", "h"])], [s for s in NCK if s["n"] >= 1],
        feed=first_index),
    row("ScatterND-elements-reduction-add", [node("ScatterND", ["x", "i", "u"], ["y"], reduction="add")],
        [*X, tensor("i", ["k", 3], I64), tensor("u", ["k"])],
        [s for s in NCK if min(s["n"], s["c"], s["h"]) >= 1], feed=first_index),
    row("ScatterND-slices-reduction-mul", [node("ScatterND", ["x", "i", "u"], ["y"], reduction="mul")],
        [*X, tensor("i", ["k", 2], I64), tensor("u", ["k", "h"])],
        [s for s in NCK if min(s["n"], s["c"]) >= 1], feed=first_index),
    row("ScatterElements-axis-neg1-reduction-max", [node("ScatterElements", ["x", "i", "u"], ["y"], axis=-1,
                                                         reduction="max")],
        [*X, tensor("i", ["n", "c", "k"], I64), tensor("u", ["n", "c", "k"])], [s for s in NCK if s["h"] >= 1],
        feed=zeros_for_ints),
    row("Scatter-opset10-axis1", [node("Scatter", ["x", "i", "u"], ["y"], axis=1)],
        [tensor("x", ["n", "c"]), tensor("i", ["n", "k"], I64), tensor("u", ["n", "k"])],
        [s for s in NCK if s["c"] >= 1], feed=first_index, opset=10),
    row("ReverseSequence-time0-batch1", [node("ReverseSequence", ["x", "l"], ["y"], time_axis=0, batch_axis=1)],
        [tensor("x", ["t", "b", 3]), tensor("l", ["b"], I64)],
        [{"x": np.zeros((4, 2, 3), np.float32), "l": np.array([4, 1])},
         {"x": np.zeros((1, 1, 3), np.float32), "l": np.array([1])},
         {"x": np.zeros((3, 0, 3), np.float32), "l": np.zeros(0, np.int64)}]),
]

HW = [{"n": 2, "c": 3, "h": 4, "w": 6}, {"n": 1, "c": 1, "h": 2, "w": 2}, {"n": 0, "c": 2, "h": 2, "w": 4},
      {"n": 1, "c": 2, "h": 0, "w": 2}]
SPACE = [
    row("SpaceToDepth-b2", [node("SpaceToDepth", ["x"], ["y"], blocksize=2)], [tensor("x", ["n", "c", "h", "w"])],
        HW),
    row("DepthToSpace-DCR-b2", [node("DepthToSpace", ["x"], ["y"], blocksize=2)], [tensor("x", ["n", "c4", "h", "w"])],
        [{"n": 2, "c4": 8, "h": 3, "w": 1}, {"n": 1, "c4": 4, "h": 1, "w": 1}, {"n": 0, "c4": 4, "h": 2, "w": 3}]),
    row("DepthToSpace-CRD-b3-static-channels", [node("DepthToSpace", ["x"], ["y"], blocksize=3, mode="CRD")],
        [tensor("x", ["n", 18, "h", "w"])], HW),
    row("SpaceToDepth-then-DepthToSpace", [node("SpaceToDepth", ["x"], ["s"], blocksize=2),
                                           node("DepthToSpace", ["s"], ["y"], blocksize=2, mode="CRD")],
        [tensor("x", ["n", "c", "h", "w"])], HW),
]

ROWS = SLICE + GATHER + SPACE


@pytest.mark.parametrize("r", SLICE)
def test_slice(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", GATHER + SPACE)
def test_gather_scatter_and_space_depth(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("index", [0, 2, -3])
def test_gather_with_known_indices_needs_the_axis_to_cover_them(index: int) -> None:
    """BERT's CLS token ``x[:, 0]``: onnxruntime refuses an index past the axis, so the axis dim
    is at least ``index + 1`` (or ``-index`` from the end), stated as the symbol's range."""
    from symshape.api import analyze_onnx
    from tests.oracle import make_model, run

    model = make_model([helper.make_node("Gather", ["x", "i"], ["y"], axis=1)], [tensor("x", ["b", "s"])], ["y"],
                       [const("i", [index])])
    low = index + 1 if index >= 0 else -index
    assert analyze_onnx(model).symbols()["s"]["range"] == [low, None]
    run(model, {"x": np.zeros((2, low), np.float32)})
    with pytest.raises(Exception, match="out of data bounds|indices"):
        run(model, {"x": np.zeros((2, low - 1), np.float32)})


def test_slice_by_a_symbolic_step_keeps_the_other_axes_and_sizes_the_sliced_one() -> None:
    """``x[:, :100:h]`` with the step read from the shape (onnxruntime refuses a step of 0, so
    ``h >= 1`` is a fact): ``floor((Min(100, c) - 1)/h) + 1``, and n and h untouched."""
    nodes = [node("Shape", ["x"], ["step"], start=2, end=3), node("Slice", ["x", "st", "en", "ax", "step"], ["y"])]
    samples = [{"n": 2, "c": 7, "h": 3}, {"n": 1, "c": 1, "h": 1}, {"n": 0, "c": 9, "h": 2}, {"n": 3, "c": 0, "h": 4},
               {"n": 1, "c": 130, "h": 7}]
    param = row("Slice-symbolic-step", nodes, X, samples, [const("st", [0]), const("en", [100]), const("ax", [1])])
    r = run_row(param.values[0])
    n, _, h = r.analysis.shape("x")
    y = r.analysis.shape("y")
    assert y[0] is n and y[2] is h and r.analysis.symbols()["h"]["range"][0] == 1
