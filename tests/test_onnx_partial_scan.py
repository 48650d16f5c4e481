"""Scan whose body broadcasts a carried state against a scan slice: the state's dims after one
iteration (``Max(s, d)``), which later iterations keep, checked against onnxruntime."""

from __future__ import annotations

import numpy as np
from onnx import helper

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
    assert [str(d) for d in result.shape("ys")] == ["n", "Max(a, b)"]
    assert len(result.shape("final")) == 1


def test_state_that_keeps_its_dims_is_unchanged() -> None:
    result, _ = check_model(_sum_scan(), [_feeds(3, 2, 3), _feeds(2, 1, 2)], allow_warnings=True)
    assert result.shape("final") is not None
