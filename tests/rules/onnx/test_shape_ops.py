"""Shape-moving ONNX ops against onnxruntime: Shape (start/end), Size, Constant, ConstantOfShape,
Reshape (0, -1, allowzero), Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split (sizes,
num_outputs, equal parts), Expand, Tile, Range and OneHot, with negative and out-of-range
attributes and each symbol at 1 and 0 where the op accepts an empty tensor.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.oracle import array, const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
node = helper.make_node
X = [tensor("x", ["n", "c", "h"])]
NCH = [{"n": 2, "c": 3, "h": 4}, {"n": 1, "c": 1, "h": 1}, {"n": 0, "c": 2, "h": 3}, {"n": 3, "c": 0, "h": 1},
       {"n": 2, "c": 5, "h": 0}]
NONEMPTY = [s for s in NCH if 0 not in s.values()]

SHAPE = [
    row(f"Shape-start{s}-end{e}", [node("Shape", ["x"], ["y"], **kw)], X, NCH)
    for s, e, kw in [(0, "rank", {}), (1, "rank", {"start": 1}), (-2, -1, {"start": -2, "end": -1}),
                     (0, 10, {"end": 10}), (5, "rank", {"start": 5}), (-10, 1, {"start": -10, "end": 1}),
                     (2, 1, {"start": 2, "end": 1})]
]
SHAPE += [
    row("Size[n,c,h]", [node("Size", ["x"], ["y"])], X, NCH),
    row("Size-rank1", [node("Size", ["x"], ["y"])], [tensor("x", ["n"])], NCH),
    row("Constant-value-tensor-as-Reshape-target", [node("Constant", [], ["t"], value=helper.make_tensor(
        "v", I64, [2], [0, -1])), node("Reshape", ["x", "t"], ["y"])], X, NONEMPTY),
    row("Constant-value_ints-value_int-value_float-value_floats",
        [node("Constant", [], ["a"], value_ints=[3, 1]), node("Constant", [], ["b"], value_int=4),
         node("Constant", [], ["f"], value_float=0.5), node("Constant", [], ["g"], value_floats=[1.0, 2.0, 3.0]),
         node("Add", ["x", "f"], ["y"])], X, NCH),
    row("ConstantOfShape-of-Shape-int64-fill", [node("Shape", ["x"], ["s"]), node(
        "ConstantOfShape", ["s"], ["y"], value=helper.make_tensor("v", I64, [1], [7]))], X, NCH),
    row("ConstantOfShape-of-empty-shape-is-scalar", [node("ConstantOfShape", ["s"], ["y"])], X, NCH,
        [array("s", np.zeros(0, np.int64))]),
    row("Shape-of-Shape-is-the-rank", [node("Shape", ["x"], ["s"]), node("Shape", ["s"], ["r"]),
                                       node("ConstantOfShape", ["r"], ["y"])], X, NCH),
    row("Concat-of-shape-pieces-with-an-empty-one", [node("Shape", ["x"], ["a"], start=5), node("Shape", ["x"], ["b"],
                                                                                              end=1),
                                                     node("Shape", ["x"], ["c"], start=-1),
                                                     node("Concat", ["a", "c", "b", "a"], ["t"], axis=0),
                                                     node("ConstantOfShape", ["t"], ["y"])], X, NCH),
    row("Tile-of-a-shape-tensor", [node("Shape", ["x"], ["s"], start=1), node("Tile", ["s", "two"], ["t"]),
                                   node("ConstantOfShape", ["t"], ["y"])], X, NCH, [const("two", [2])]),
    row("ConstantOfShape-of-Shape-slice", [node("Shape", ["x"], ["s"], start=1), node(
        "ConstantOfShape", ["s"], ["y"], value=helper.make_tensor("v", F, [1], [0.5]))], X, NCH),
]

RESHAPE = [
    row("Reshape-copy0-infer-1", [node("Reshape", ["x", "t"], ["y"])], X, NONEMPTY, [const("t", [0, -1])]),
    row("Reshape-infer-1-then-3[n,c,6]", [node("Reshape", ["x", "t"], ["y"])], [tensor("x", ["n", "c", 6])],
        [{"n": 2, "c": 3}, {"n": 1, "c": 1}, {"n": 0, "c": 2}, {"n": 4, "c": 0}], [const("t", [-1, 3])]),
    row("Reshape-copy-all-zeros", [node("Reshape", ["x", "t"], ["y"])], X, NCH, [const("t", [0, 0, 0])]),
    row("Reshape-add-a-unit-dim", [node("Reshape", ["x", "t"], ["y"])], X, NCH, [const("t", [0, 0, 0, 1])]),
    row("Reshape-merge-last-two", [node("Reshape", ["x", "t"], ["y"])], [tensor("x", ["n", 4, 6])],
        [{"n": 3}, {"n": 1}, {"n": 0}], [const("t", [0, 24])]),
    row("Reshape-infer-middle[0,-1,4]", [node("Reshape", ["x", "t"], ["y"])], [tensor("x", ["n", "c", 8])],
        [{"n": 2, "c": 3}, {"n": 1, "c": 1}, {"n": 3, "c": 0}], [const("t", [0, -1, 4])]),
    row("Reshape-allowzero-to-shape-of-a-transposed-twin", [node("Shape", ["z"], ["t"]),
                                                            node("Reshape", ["x", "t"], ["y"], allowzero=1)],
        [tensor("x", ["n", "c"]), tensor("z", ["c", "n"])], NCH),
    row("Reshape-allowzero-own-shape", [node("Shape", ["x"], ["s"]), node("Reshape", ["x", "s"], ["y"], allowzero=1)],
        X, NCH),
    row("Reshape-to-rank1-of-static-size", [node("Reshape", ["x", "t"], ["y"])], [tensor("x", [2, 3, "n"])],
        [{"n": 1}, {"n": 4}, {"n": 0}], [const("t", [-1])]),
    row("Flatten-axis0", [node("Flatten", ["x"], ["y"], axis=0)], X, NCH),
    row("Flatten-rank1-axis1", [node("Flatten", ["x"], ["y"], axis=1)], [tensor("x", ["n"])], NCH),
    row("Flatten-default-axis1", [node("Flatten", ["x"], ["y"])], X, NCH),
    row("Flatten-axis-neg1", [node("Flatten", ["x"], ["y"], axis=-1)], X, NCH),
    row("Flatten-axis-rank", [node("Flatten", ["x"], ["y"], axis=3)], X, NCH),
    row("Squeeze-axes[1]", [node("Squeeze", ["x", "a"], ["y"])], [tensor("x", ["n", 1, "c"])], NCH, [const("a", [1])]),
    row("Squeeze-axes[-1,0]", [node("Squeeze", ["x", "a"], ["y"])], [tensor("x", [1, "n", "c", 1])], NCH,
        [const("a", [-1, 0])]),
    row("Squeeze-opset11-attr-axes[-2]", [node("Squeeze", ["x"], ["y"], axes=[-2])], [tensor("x", ["n", 1, "c"])],
        NCH, opset=11),
    # without axes every runtime 1 is dropped, so the rank depends on n: n != 1 is a guard
    row("Squeeze-no-axes-static-ones", [node("Squeeze", ["x"], ["y"])], [tensor("x", [1, "n", 1, 3])],
        [{"n": 2}, {"n": 0}, {"n": 5}]),
    row("Unsqueeze-axes[0,-1]", [node("Unsqueeze", ["x", "a"], ["y"])], X, NCH, [const("a", [0, -1])]),
    row("Unsqueeze-axes-unsorted[4,1]", [node("Unsqueeze", ["x", "a"], ["y"])], X, NCH, [const("a", [4, 1])]),
    row("Unsqueeze-opset11-attr[-2]", [node("Unsqueeze", ["x"], ["y"], axes=[-2])], X, NCH, opset=11),
    row("Unsqueeze-scalar", [node("Unsqueeze", ["x", "a"], ["y"])], [tensor("x", [])], [{}], [const("a", [0])]),
    row("Transpose-default-reverses", [node("Transpose", ["x"], ["y"])], X, NCH),
    row("Transpose-rank1", [node("Transpose", ["x"], ["y"])], [tensor("x", ["n"])], NCH),
    row("Transpose-perm[1,0,2]", [node("Transpose", ["x"], ["y"], perm=[1, 0, 2])], X, NCH),
    row("Transpose-perm[0,2,3,1]", [node("Transpose", ["x"], ["y"], perm=[0, 2, 3, 1])],
        [tensor("x", ["n", "c", "h", 2])], NCH),
]

CONCAT = [
    row("Concat-axis-neg1-three", [node("Concat", ["a", "b", "d"], ["y"], axis=-1)],
        [tensor("a", ["n", "c"]), tensor("b", ["n", "h"]), tensor("d", ["n", 2])], NCH),
    row("Concat-axis0-with-empty-static", [node("Concat", ["a", "b"], ["y"], axis=0)],
        [tensor("a", ["n", "c"]), tensor("b", [0, "c"])], NCH),
    row("Concat-single-input", [node("Concat", ["a"], ["y"], axis=1)], [tensor("a", ["n", "c"])], NCH),
    row("Concat-axis1-of-3d", [node("Concat", ["a", "a", "b"], ["y"], axis=1)],
        [tensor("a", ["n", "c", "h"]), tensor("b", ["n", 1, "h"])], NCH),
]

# num_outputs splits into ceil(n/k) pieces with a shorter last one (under a guard that it is >= 0).
SPLIT = [
    row("Split-opset18-num_outputs2-axis1", [node("Split", ["x"], ["y0", "y1"], axis=1, num_outputs=2)], X,
        [{"n": 2, "c": 4, "h": 1}, {"n": 1, "c": 5, "h": 2}, {"n": 0, "c": 1, "h": 3}, {"n": 2, "c": 0, "h": 2}],
        opset=18),
    row("Split-opset18-num_outputs3-axis-neg3", [node("Split", ["x"], ["y0", "y1", "y2"], axis=-3, num_outputs=3)], X,
        [{"n": 6, "c": 2, "h": 1}, {"n": 7, "c": 1, "h": 2}, {"n": 4, "c": 2, "h": 0}, {"n": 3, "c": 1, "h": 1}],
        opset=18),
    row("Split-sizes-input[1,2]-axis1", [node("Split", ["x", "s"], ["y0", "y1"], axis=1)],
        [tensor("x", ["n", 3, "h"])], NCH, [const("s", [1, 2])]),
    row("Split-sizes-input-with-zero-piece", [node("Split", ["x", "s"], ["y0", "y1", "y2"], axis=-1)],
        [tensor("x", ["n", "c", 4])], NCH, [const("s", [3, 0, 1])]),
    row("Split-sizes-from-shapes", [node("Shape", ["a"], ["sa"]), node("Shape", ["b"], ["sb"]),
                                    node("Concat", ["sa", "sb"], ["s"], axis=0),
                                    node("Concat", ["a", "b"], ["ab"], axis=0),
                                    node("Split", ["ab", "s"], ["y0", "y1"])],
        [tensor("a", ["n"]), tensor("b", ["c"])], NCH),
    row("Split-opset13-equal-halves[n,2c]", [node("Split", ["x"], ["y0", "y1"], axis=1)],
        [tensor("x", ["n", "c2"])], [{"n": 2, "c2": 4}, {"n": 1, "c2": 2}, {"n": 0, "c2": 6}, {"n": 3, "c2": 0}],
        opset=13),
    row("Split-opset11-attr-split", [node("Split", ["x"], ["y0", "y1"], axis=2, split=[3, 1])],
        [tensor("x", ["n", "c", 4])], NCH, opset=11),
]

EXPAND_TILE = [
    row("Expand-[n,1]-to-[1,4]", [node("Expand", ["x", "t"], ["y"])], [tensor("x", ["n", 1])], NCH,
        [const("t", [1, 4])]),
    row("Expand-rank-grows-[2,1,1]", [node("Expand", ["x", "t"], ["y"])], [tensor("x", ["n", "c"])], NCH,
        [const("t", [2, 1, 1])]),
    row("Expand-to-shape-of-other", [node("Shape", ["z"], ["t"]), node("Expand", ["x", "t"], ["y"])],
        [tensor("x", [1, "c"]), tensor("z", ["n", "c"])], NCH),
    row("Expand-[n,c]-to-ones", [node("Expand", ["x", "t"], ["y"])], [tensor("x", ["n", "c"])], NCH,
        [const("t", [1, 1])]),
    row("Expand-to-empty", [node("Expand", ["x", "t"], ["y"])], [tensor("x", [1, "c"])], NCH, [const("t", [0, 1])]),
    row("Expand-to-shape-of-other-maybe-one", [node("Shape", ["z"], ["t"]), node("Expand", ["x", "t"], ["y"])],
        [tensor("x", ["n"]), tensor("z", ["c"])], [{"n": 3, "c": 3}, {"n": 1, "c": 4}, {"n": 5, "c": 1}]),
    row("Expand-to-shape-of-other-empty-and-one", [node("Shape", ["z"], ["t"]), node("Expand", ["x", "t"], ["y"])],
        [tensor("x", ["n"]), tensor("z", ["c"])], [{"n": 3, "c": 3}, {"n": 0, "c": 1}, {"n": 1, "c": 0}]),
    row("Tile-repeats[2,1,3]", [node("Tile", ["x", "r"], ["y"])], X, NCH, [const("r", [2, 1, 3])]),
    row("Tile-repeats-zero", [node("Tile", ["x", "r"], ["y"])], X, NCH, [const("r", [1, 0, 2])]),
    row("Tile-repeats-from-shape", [node("Shape", ["z"], ["r"]), node("Tile", ["x", "r"], ["y"])],
        [tensor("x", [2, "c"]), tensor("z", ["n", "h"])], NCH),
]


def _shape_scalar(name: str, index: int, out: str) -> list[helper.NodeProto]:
    """``out = x.shape[index]`` as an int64 scalar (Shape -> Gather)."""
    return [node("Shape", [name], [f"{out}_s"]), node("Gather", [f"{out}_s", f"i{index}"], [out], axis=0)]


IDX = [const("i0", 0), const("i1", 1), const("i2", 2)]
RANGE = [
    row("Range-0-to-c-step1", [*_shape_scalar("x", 1, "c"), node("Range", ["zero", "c", "one"], ["y"])], X, NCH,
        [*IDX, const("zero", 0), const("one", 1)]),
    row("Range-c-down-to-0-step-neg1", [*_shape_scalar("x", 1, "c"), node("Range", ["c", "zero", "m1"], ["y"])], X,
        NCH, [*IDX, const("zero", 0), const("m1", -1)]),
    row("Range-1-to-c-step2-may-be-empty", [*_shape_scalar("x", 1, "c"), node("Range", ["one", "c", "two"], ["y"])],
        X, NCH, [*IDX, const("one", 1), const("two", 2)]),
    row("Range-n-to-n+h-step3", [*_shape_scalar("x", 0, "n"), *_shape_scalar("x", 2, "h"),
                                 node("Add", ["n", "h"], ["nh"]), node("Range", ["n", "nh", "three"], ["y"])], X, NCH,
        [*IDX, const("three", 3)]),
    row("Range-int32-from-cast-shape", [*_shape_scalar("x", 2, "h"), node("Cast", ["h"], ["h32"], to=TensorProto.INT32),
                                        node("Range", ["one32", "h32", "one32"], ["y"])], X, NCH,
        [*IDX, const("one32", 1, TensorProto.INT32)]),
    row("Range-empty-static-limit-below-start", [node("Range", ["five", "two", "one"], ["r"]),
                                                 node("Concat", ["r", "r"], ["y"], axis=0)], X, NCH,
        [const("five", 5), const("two", 2), const("one", 1)]),
    row("Range-float-constants", [node("Range", ["a", "b", "d"], ["r"]), node("Add", ["x", "r"], ["y"])],
        [tensor("x", ["n", 5])], [{"n": 2}, {"n": 0}, {"n": 1}],
        [array("a", np.array(0.0, np.float32)), array("b", np.array(2.5, np.float32)),
         array("d", np.array(0.5, np.float32))]),
]


def _indices(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """OneHot indices in [-2, 5): negative ones count from the depth."""
    return np.random.default_rng(1).integers(-2, 5, shape).astype(dtype)


ONEHOT = [
    row(f"OneHot-depth5-axis{axis}", [node("OneHot", ["i", "d", "v"], ["y"], axis=axis)],
        [tensor("i", ["n", "c"], I64)], NCH, [const("d", 5), array("v", np.array([0.0, 1.0], np.float32))],
        feed=_indices)
    for axis in (-1, 0, 1, -3)
]
ONEHOT += [
    row("OneHot-depth-from-Size", [node("Size", ["z"], ["d"]), node("OneHot", ["i", "d", "v"], ["y"])],
        [tensor("i", ["n"], I64), tensor("z", ["h", 2])], [{"n": 3, "h": 3}, {"n": 1, "h": 1}, {"n": 0, "h": 4}],
        [array("v", np.array([0, 1], np.int64))], feed=_indices),
]

# Sizes that are the values of a runtime input: the dims are data symbols, so only soundness is
# asked (each symbol is bound to the first size observed and must agree everywhere else).
RUNTIME = "sizes are the values of a runtime input: data symbols, not expressions in the input dims"
V = np.array
DATA = [
    row("ConstantOfShape-of-a-runtime-shape", [node("ConstantOfShape", ["t"], ["c"]), node("Shape", ["c"], ["s"]),
                                               node("ConstantOfShape", ["s"], ["y"])], [tensor("t", [3], I64)],
        [{"t": V([2, 3, 1])}, {"t": V([0, 4, 2])}, {"t": V([1, 1, 1])}], inexact=RUNTIME),
    row("Reshape-to-a-runtime-target-then-Add", [node("Reshape", ["x", "t"], ["r"]), node("Add", ["r", "r"], ["y"])],
        [tensor("x", ["n", 6]), tensor("t", [2], I64)],
        # an empty result breaks the listed guard that each unknown target dim is >= 1 (0 would copy)
        [{"x": np.zeros((2, 6), np.float32), "t": V([3, 4])}, {"x": np.zeros((1, 6), np.float32), "t": V([-1, 2])},
         {"x": np.zeros((4, 6), np.float32), "t": V([24, 1])}], inexact=RUNTIME),
    row("Expand-[1,1]-to-a-runtime-shape", [node("Expand", ["x", "t"], ["y"]), node("ConstantOfShape", ["t"], ["c"])],
        [tensor("x", [1, 1]), tensor("t", [2], I64)], [{"x": np.zeros((1, 1), np.float32), "t": V([2, 5])},
                                                       {"x": np.zeros((1, 1), np.float32), "t": V([3, 0])}],
        inexact=RUNTIME),
    row("Tile-by-runtime-repeats", [node("Tile", ["x", "t"], ["y"])], [tensor("x", ["n", 2]), tensor("t", [2], I64)],
        [{"x": np.zeros((2, 2), np.float32), "t": V([3, 1])}, {"x": np.zeros((0, 2), np.float32), "t": V([2, 0])}],
        inexact=RUNTIME),
    row("Range-to-a-runtime-limit", [node("Range", ["zero", "t", "one"], ["y"])], [tensor("t", [], I64)],
        [{"t": V(5)}, {"t": V(0)}, {"t": V(-2)}], [const("zero", 0), const("one", 1)], inexact=RUNTIME,
        xfail="gap: Range with a runtime limit gives up; Max(t, 0) with a data symbol t is sound"),
    row("OneHot-runtime-depth", [node("OneHot", ["i", "d", "v"], ["y"])],
        [tensor("i", ["n"], I64), tensor("d", [1], I64)],
        [{"i": V([0, 1, 2]), "d": V([4])}, {"i": V([1]), "d": V([2])}],
        [array("v", np.array([0.0, 1.0], np.float32))], inexact=RUNTIME),
]

ROWS = SHAPE + RESHAPE + CONCAT + SPLIT + EXPAND_TILE + RANGE + ONEHOT + DATA


@pytest.mark.parametrize("r", SHAPE + RESHAPE + CONCAT)
def test_shape_reshape_concat(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", SPLIT + EXPAND_TILE)
def test_split_expand_tile(r: Row) -> None:
    run_row(r)


def test_split_in_two_by_num_outputs_needs_no_guard() -> None:
    """ceil(c/2) <= c for every c >= 0: the last of two chunks is never negative."""
    split = next(p.values[0] for p in SPLIT if p.id == "Split-opset18-num_outputs2-axis1")
    assert run_row(split).analysis.guards() == []


@pytest.mark.parametrize("r", DATA)
def test_sizes_from_runtime_values_are_sound(r: Row) -> None:
    report = run_row(r)
    assert report.data_dependent, "a runtime size should need a data symbol"


@pytest.mark.xfail(strict=True, reason="imprecise: each op reading the same runtime shape gets its own fresh symbols")
def test_two_readers_of_one_runtime_shape_share_its_symbols() -> None:
    expand = next(p.values[0] for p in DATA if p.id.startswith("Expand"))
    analysis = run_row(expand).analysis
    assert analysis.shape("y") == analysis.shape("c")


@pytest.mark.parametrize("r", RANGE + ONEHOT)
def test_range_and_one_hot(r: Row) -> None:
    report = run_row(r)
    assert report.checked_dims > 0
