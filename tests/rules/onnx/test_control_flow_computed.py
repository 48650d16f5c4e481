"""If on a shape comparison and Loop with a trip count from a shape, onnxruntime as the oracle.

An If whose branches give different sizes is exact when its condition compares sizes: ``Min``,
``Max`` or the bracket identity ``E + (T - E)*Min(1, Max(0, p + 1))``. A Loop that runs ``M =
x.shape[0]`` times and concatenates ``k`` rows per iteration ends with ``start + M*k`` rows; its
scan outputs stack ``M`` slices. Samples cover each side of every threshold and zero iterations.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.algebra.expr import evaluate
from tests.oracle import assert_exact, check, const, make_model, tensor

N = helper.make_node
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def _branch(name: str, nodes: list[onnx.NodeProto], out: str, inits: list[onnx.TensorProto] | None = None):
    return helper.make_graph(nodes, name, [], [tensor(out, None)], inits or [])


def _dim(axis: int, name: str) -> list[onnx.NodeProto]:
    """``name = x.shape[axis]`` as an int64 scalar."""
    return [N("Shape", ["x"], [f"{name}_s"], start=axis, end=axis + 1), N("Squeeze", [f"{name}_s"], [name])]


def _if_model(compare: str, rhs: str, then_g: onnx.GraphProto, else_g: onnx.GraphProto) -> onnx.ModelProto:
    nodes = [*_dim(0, "a"), *_dim(1, "b"), N(compare, ["a", rhs], ["c"])]
    nodes.append(N("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g))
    return make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", None)], [const("five", 5)])


def _rows_of_x() -> onnx.GraphProto:
    """A branch giving ``[a]``: x summed over its columns."""
    return _branch("rows", [N("ReduceSum", ["x", "ax1"], ["r"], keepdims=0)], "r", [const("ax1", [1])])


def _five_rows() -> onnx.GraphProto:
    return _branch("five", [N("Constant", [], ["f"], value=helper.make_tensor("v", F, [5], [0.0] * 5))], "f")


def _samples(*sizes: tuple[int, int]) -> list[dict[str, int]]:
    return [{"a": a, "b": b} for a, b in sizes]


def test_if_that_caps_at_a_constant_is_a_min() -> None:
    """``y = zeros(5) if a > 5 else x.sum(1)``: ``Min(5, a)``."""
    model = _if_model("Greater", "five", _five_rows(), _rows_of_x())
    report = assert_exact(check(model, _samples((1, 2), (5, 1), (6, 3), (7, 2), (40, 1), (0, 2))))
    assert str(report.analysis.shape("y")[0]) == "Min(5, a)"
    assert report.analysis.guards() == []


def test_if_that_floors_at_a_constant_is_a_max() -> None:
    """``y = x.sum(1) if a >= 5 else zeros(5)``: ``Max(5, a)``."""
    model = _if_model("GreaterOrEqual", "five", _rows_of_x(), _five_rows())
    report = assert_exact(check(model, _samples((1, 2), (4, 1), (5, 3), (6, 2), (33, 1))))
    assert str(report.analysis.shape("y")[0]) == "Max(5, a)"


def test_a_negated_comparison_swaps_the_branches() -> None:
    """``y = x.sum(1) if not (a > 5) else zeros(5)``: ``Min(5, a)`` again."""
    nodes = [*_dim(0, "a"), *_dim(1, "b"), N("Greater", ["a", "five"], ["g"]), N("Not", ["g"], ["c"])]
    nodes.append(N("If", ["c"], ["y"], then_branch=_rows_of_x(), else_branch=_five_rows()))
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", None)], [const("five", 5)])
    report = assert_exact(check(model, _samples((1, 2), (5, 1), (6, 3), (9, 2))))
    assert str(report.analysis.shape("y")[0]) == "Min(5, a)"


def test_if_choosing_the_smaller_of_two_dims_is_a_min() -> None:
    """``y = x.sum(1) if a <= b else x.sum(0)``: ``Min(a, b)``."""
    cols = _branch("cols", [N("ReduceSum", ["x", "ax0"], ["s"], keepdims=0)], "s", [const("ax0", [0])])
    model = _if_model("LessOrEqual", "b", _rows_of_x(), cols)
    report = assert_exact(check(model, _samples((2, 3), (3, 3), (4, 3), (1, 9), (9, 1))))
    assert str(report.analysis.shape("y")[0]) == "Min(a, b)"


def test_if_with_unrelated_branches_is_the_bracket_identity() -> None:
    """``y = concat(x, x) if a > 5 else x``: neither ``Min`` nor ``Max``, still exact."""
    twice = _branch("twice", [N("Concat", ["x", "x"], ["t"], axis=0)], "t")
    same = _branch("same", [N("Identity", ["x"], ["e"])], "e")
    model = _if_model("Greater", "five", twice, same)
    report = assert_exact(check(model, _samples((1, 2), (5, 2), (6, 2), (7, 1), (0, 3), (12, 1))))
    y0 = report.analysis.shape("y")[0]
    assert [evaluate(y0, {"a": a}) for a in range(0, 9)] == [0, 1, 2, 3, 4, 5, 12, 14, 16]


# ------------------------------------------------------------------------------------ Loop
def _loop_model(per_iteration: str, n_scan: int) -> onnx.ModelProto:
    """Loop ``a = x.shape[0]`` times over ``h [c, 3]``, appending ``per_iteration`` rows each time:
    ``"two"`` (a constant [2, 3]) or ``"z"`` (the outer input ``z [d, 3]``); scan output 0 is the
    iteration's column sums of h ([1, 3])."""
    body_nodes = [
        N("Identity", ["cond_in"], ["cond_out"]),
        N("Concat", ["h_in", per_iteration], ["h_out"], axis=0),
        N("ReduceSum", ["h_in", "s0"], ["row"], keepdims=1),
    ]
    body_inits = [
        helper.make_tensor("two", F, [2, 3], [1.0] * 6),
        helper.make_tensor("s0", I64, [1], [0]),
    ]
    outs = [tensor("cond_out", [], B), tensor("h_out", None)] + ([tensor("row", None)] if n_scan else [])
    body = helper.make_graph(
        body_nodes, "body", [tensor("i", [], I64), tensor("cond_in", [], B), tensor("h_in", None)], outs, body_inits
    )
    loop_outs = ["h_final"] + (["rows"] if n_scan else [])
    nodes = [*_dim(0, "m"), N("Loop", ["m", "", "h"], loop_outs, body=body)]
    inputs = [tensor("x", ["a", "b"]), tensor("h", ["c", 3]), tensor("z", ["d", 3])]
    return make_model(nodes, inputs, [tensor(o, None) for o in loop_outs])


def _loop_samples(*sizes: tuple[int, int, int]) -> list[dict[str, np.ndarray]]:
    rng = np.random.default_rng(0)
    return [
        {
            "x": rng.standard_normal((a, 2)).astype(np.float32),
            "h": rng.standard_normal((c, 3)).astype(np.float32),
            "z": rng.standard_normal((d, 3)).astype(np.float32),
        }
        for a, c, d in sizes
    ]


def test_loop_appending_constant_rows_grows_by_trip_count_times_rows() -> None:
    report = assert_exact(check(_loop_model("two", 0), _loop_samples((3, 1, 1), (0, 4, 1), (1, 2, 2), (7, 5, 1))))
    assert str(report.analysis.shape("h_final")[0]) == "2*a + c"


def test_loop_appending_an_outer_tensor_grows_by_its_rows() -> None:
    report = assert_exact(check(_loop_model("z", 0), _loop_samples((3, 1, 2), (0, 4, 3), (2, 2, 0), (5, 1, 7))))
    assert str(report.analysis.shape("h_final")[0]) == "a*d + c"


def test_loop_scan_outputs_stack_one_slice_per_iteration() -> None:
    report = assert_exact(check(_loop_model("two", 1), _loop_samples((3, 1, 1), (1, 2, 2), (6, 3, 1))))
    a = report.analysis
    assert [str(d) for d in a.shape("rows")] == ["a", "1", "3"]
    assert str(a.shape("h_final")[0]) == "2*a + c"
