"""Scan whose body broadcasts a carried state against a scan slice: the state's dims after one
iteration (``Max(s, d)``), which later iterations keep, checked against onnxruntime."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from tests.oracle import check_model, make_model, rand, tensor


def _sum_scan() -> object:
    body = helper.make_graph(
        [helper.make_node("Add", ["acc", "row"], ["acc_out"]), helper.make_node("Identity", ["acc_out"], ["y"])],
        "body",
        [tensor("acc", None), tensor("row", None)],
        [tensor("acc_out", None), tensor("y", None)],
    )
    node = helper.make_node("Scan", ["h", "x"], ["final", "ys"], body=body, num_scan_inputs=1)
    return make_model(
        [node], [tensor("h", ["a"]), tensor("x", ["n", "b"])], [tensor("final", None), tensor("ys", None)]
    )


def _feeds(a: int, n: int, b: int) -> dict[str, np.ndarray]:
    return {"h": rand(a), "x": rand(n, b, seed=1)}


def test_state_broadcast_against_a_slice_settles_after_one_step() -> None:
    # onnxruntime needs the state to keep its shape (a == b, or b == 1) and a sequence length
    # of at least 1; the final state is Max(a, b) after one step or more, a after none
    samples = [_feeds(3, 2, 3), _feeds(5, 3, 1), _feeds(5, 1, 1), _feeds(4, 4, 4), _feeds(1, 2, 1)]
    result, runs = check_model(_sum_scan(), samples, allow_warnings=True)
    assert len(runs) == len(samples)
    assert [str(d) for d in result.shape("ys")] == ["n", "Max(a, b)*Min(1, a, b)"]
    assert len(result.shape("final")) == 1


def test_state_that_keeps_its_dims_is_unchanged() -> None:
    result, _ = check_model(_sum_scan(), [_feeds(3, 2, 3), _feeds(2, 1, 2)], allow_warnings=True)
    assert result.shape("final") is not None


def test_two_states_one_broadcast_one_kept() -> None:
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc", "row"], ["acc_out"]),
            helper.make_node("Identity", ["cnt"], ["cnt_out"]),
            helper.make_node("Mul", ["acc_out", "row"], ["y"]),
        ],
        "body",
        [tensor("acc", None), tensor("cnt", None), tensor("row", None)],
        [tensor("acc_out", None), tensor("cnt_out", None), tensor("y", None)],
    )
    node = helper.make_node("Scan", ["h", "c", "x"], ["final", "count", "ys"], body=body, num_scan_inputs=1)
    model = make_model(
        [node],
        [tensor("h", ["a"]), tensor("c", ["k", 2]), tensor("x", ["n", "b"])],
        [tensor("final", None), tensor("count", None), tensor("ys", None)],
    )
    samples = [
        {"h": rand(a), "c": rand(k, 2), "x": rand(n, b, seed=1)}
        for a, k, n, b in [(3, 1, 2, 3), (4, 2, 1, 1), (1, 3, 5, 1), (6, 1, 3, 6)]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    assert [str(d) for d in result.shape("count")] == ["k", "2"]
    assert [str(d) for d in result.shape("ys")] == ["n", "Max(a, b)*Min(1, a, b)"]


def test_a_state_out_of_reach_keeps_the_rank_and_the_sequence_length() -> None:
    """The body keeps the state's entries a mask (``m``) selects: nothing is claimed of the
    state's size, but the outputs keep their ranks and the scan axis keeps the sequence length."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc", "row"], ["sum"]),
            helper.make_node("Compress", ["sum", "m"], ["acc_out"], axis=0),
            helper.make_node("Identity", ["acc_out"], ["y"]),
        ],
        "body",
        [tensor("acc", None), tensor("row", None)],
        [tensor("acc_out", None), tensor("y", None)],
    )
    node = helper.make_node("Scan", ["h", "x"], ["final", "ys"], body=body, num_scan_inputs=1)
    model = make_model(
        [node],
        [tensor("h", ["a"]), tensor("x", ["n", "b"]), tensor("m", ["a"], TensorProto.BOOL)],
        [tensor("final", None), tensor("ys", None)],
    )
    # onnxruntime needs the state to keep its shape: every entry selected
    samples = [
        {"h": rand(a), "x": rand(n, b, seed=1), "m": np.ones(a, bool)} for a, n, b in [(3, 2, 3), (4, 1, 1), (2, 5, 2)]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    final, ys = result.shape("final"), result.shape("ys")
    assert final is not None and len(final) == 1
    assert ys is not None and len(ys) == 2 and str(ys[0]) == "n"
