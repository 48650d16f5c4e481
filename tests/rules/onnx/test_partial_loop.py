"""A Loop whose carried value goes out of reach and whose body then makes an assumption about
it keeps the ranks of its outputs (nothing else is claimed). Truth from onnxruntime."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from tests.oracle import check_model, make_model, rand, tensor

I64, B = TensorProto.INT64, TensorProto.BOOL


def test_loop_carried_value_out_of_reach_keeps_the_ranks() -> None:
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Add", ["v", "w"], ["sum"]),
            helper.make_node("Compress", ["sum", "m"], ["v_out"], axis=0),
            helper.make_node("Unsqueeze", ["v_out", "zero"], ["row"]),
        ],
        "body",
        [tensor("i", [], I64), tensor("cond_in", [], B), tensor("v", None)],
        [tensor("cond_out", [], B), tensor("v_out", None), tensor("row", None)],
        [helper.make_tensor("zero", I64, [1], [0])],
    )
    node = helper.make_node("Loop", ["trips", "", "v0"], ["v_final", "rows"], body=body)
    model = make_model(
        [node],
        [tensor("trips", [], I64), tensor("v0", ["a"]), tensor("w", ["b"]), tensor("m", ["p"], B)],
        [tensor("v_final", None), tensor("rows", None)],
    )
    samples = [
        {"trips": np.array(t), "v0": rand(a), "w": rand(b, seed=1), "m": np.ones(max(a, b), bool)}
        for t, a, b in [(3, 2, 2), (1, 4, 1), (2, 1, 1), (4, 3, 3)]
    ]
    result, _ = check_model(model, samples, allow_warnings=True)
    v_final, rows = result.shape("v_final"), result.shape("rows")
    assert v_final is not None and len(v_final) == 1
    assert rows is not None and len(rows) == 3


def _broadcast_loop(with_rows: bool) -> object:
    nodes = [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Add", ["v", "w"], ["v_out"]),
    ]
    outputs = [tensor("cond_out", [], B), tensor("v_out", None)]
    if with_rows:
        nodes.append(helper.make_node("Unsqueeze", ["v_out", "zero"], ["row"]))
        outputs.append(tensor("row", None))
    body = helper.make_graph(
        nodes,
        "body",
        [tensor("i", [], I64), tensor("cond_in", [], B), tensor("v", None)],
        outputs,
        [helper.make_tensor("zero", I64, [1], [0])],
    )
    nodes = [
        helper.make_node("Shape", ["x"], ["xs"], start=0, end=1),  # the trip count: x's length
        helper.make_node("Squeeze", ["xs"], ["trips"]),
        helper.make_node("Loop", ["trips", "", "v0"], ["v_final", "rows"] if with_rows else ["v_final"], body=body),
    ]
    return make_model(
        nodes,
        [tensor("x", ["t"]), tensor("v0", ["a"]), tensor("w", ["b"])],
        [tensor("v_final", None)] + ([tensor("rows", None)] if with_rows else []),
    )


def _loop_feeds(t: int, a: int, b: int) -> dict[str, np.ndarray]:
    return {"x": rand(t), "v0": rand(a), "w": rand(b, seed=1)}


def test_loop_state_broadcast_against_an_outer_value_settles_after_one_step() -> None:
    """``v = v + w`` with ``v`` of size 1 growing to ``b`` on the first iteration: ``Max(a, b)``
    after one or more iterations, ``a`` after none."""
    samples = [_loop_feeds(t, a, b) for t, a, b in [(3, 1, 4), (2, 5, 1), (1, 3, 3), (0, 1, 4), (0, 2, 1), (4, 1, 1)]]
    result, _ = check_model(_broadcast_loop(False), samples, allow_warnings=True)
    (v,) = result.shape("v_final")
    assert "Max(a, b)" in str(v) and "t" in v.free


def test_loop_scan_output_of_a_broadcast_state() -> None:
    samples = [_loop_feeds(t, a, b) for t, a, b in [(3, 1, 4), (2, 5, 1), (1, 3, 3), (4, 1, 1)]]
    result, _ = check_model(_broadcast_loop(True), samples, allow_warnings=True)
    assert [str(d) for d in result.shape("rows")] == ["t", "1", "Max(a, b)*Min(1, a, b)"]
