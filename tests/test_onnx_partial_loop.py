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
