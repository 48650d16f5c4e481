"""Every ONNX op rule that takes an axis rejects one out of range, naming the op, the attribute,
the axis, the rank and the valid range; onnx's strict shape inference or onnxruntime rejects the
same model (the independent oracle).

One row per op (and per attribute where an op has several): the model with the bad axis, the
same model with a good one, and what the message must say. The good model is the control: the
oracle must accept it where it rejects the bad one, so a rejection is about the axis and not
about how the test built the model; there symshape's output shape must equal onnxruntime's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from symshape.api import analyze_onnx
from symshape.errors import ModelError

F32, I64 = np.float32, np.int64


@dataclass(frozen=True)
class Case:
    """Attributes and constant inputs (after the data input ``x``; None: an omitted input)."""

    attrs: dict[str, Any] = field(default_factory=dict[str, Any])
    consts: tuple[np.ndarray | None, ...] = ()


@dataclass(frozen=True)
class Row:
    """One op: ``bad`` has the out-of-range axis, ``good`` a valid one; ``expected`` is
    ``(attribute, axis, rank, lowest, highest)`` of the message, or a regex of it."""

    name: str
    op: str
    bad: Case
    good: Case
    expected: tuple[str, int, int, int, int] | str
    shape: tuple[int, ...] = (2, 3)
    opset: int = 21
    dtype: type = F32
    outputs: int = 1
    domain: str = ""
    sequence_input: bool = False  # feed the op SequenceConstruct(x) instead of x


def _scan_body() -> onnx.GraphProto:
    xi = helper.make_tensor_value_info("xi", TensorProto.FLOAT, None)
    yo = helper.make_tensor_value_info("yo", TensorProto.FLOAT, None)
    return helper.make_graph([helper.make_node("Identity", ["xi"], ["yo"])], "body", [xi], [yo])


def _c(*values: Any, dtype: type = I64) -> tuple[np.ndarray | None, ...]:
    return tuple(None if v is None else np.array(v, dtype) for v in values)


def _a(**attrs: Any) -> Case:
    return Case(attrs)


ONES3 = _c([1.0, 1.0, 1.0], dtype=F32)
SCAN = {"num_scan_inputs": 1, "body": _scan_body()}
GBQ = {"block_size": 16, "quantize_axis": 1}
GBQ_INPUTS = (np.array([0], I64), np.ones((2, 2), F32))

ROWS = [
    Row("Softmax", "Softmax", _a(axis=5), _a(axis=-1), ("axis", 5, 2, -2, 1)),
    Row("Softmax-11", "Softmax", _a(axis=2), _a(axis=1), ("axis", 2, 2, -2, 1), opset=11),
    Row("LogSoftmax", "LogSoftmax", _a(axis=-3), _a(axis=0), ("axis", -3, 2, -2, 1)),
    Row("Hardmax", "Hardmax", _a(axis=2), _a(axis=1), ("axis", 2, 2, -2, 1)),
    Row("LpNormalization", "LpNormalization", _a(axis=2), _a(axis=0), ("axis", 2, 2, -2, 1)),
    Row("LayerNormalization", "LayerNormalization", Case({"axis": 3}, ONES3), Case({"axis": -1}, ONES3),
        ("axis", 3, 2, -2, 1), opset=17),
    Row("SimplifiedLayerNormalization", "SimplifiedLayerNormalization", Case({"axis": 3}, ONES3),
        Case({"axis": -1}, ONES3), ("axis", 3, 2, -2, 1), opset=17),
    Row("RMSNormalization", "RMSNormalization", Case({"axis": 3}, ONES3), Case({"axis": -1}, ONES3),
        ("axis", 3, 2, -2, 1), opset=23),
    Row("MeanVarianceNormalization", "MeanVarianceNormalization", _a(axes=[0, 4]), _a(axes=[0, 2]),
        ("axes entry", 4, 3, -3, 2), shape=(2, 3, 4)),
    Row("CumSum", "CumSum", Case(consts=_c(2)), Case(consts=_c(1)), ("axis", 2, 2, -2, 1)),
    Row("QuantizeLinear", "QuantizeLinear", Case({"axis": 5}, ONES3), Case({"axis": 1}, ONES3),
        ("axis", 5, 2, -2, 1)),
    Row("DequantizeLinear", "DequantizeLinear", Case({"axis": 5}, ONES3), Case({"axis": 1}, ONES3),
        ("axis", 5, 2, -2, 1), dtype=np.uint8),
    Row("Flatten", "Flatten", _a(axis=3), _a(axis=2), ("axis", 3, 2, -2, 2)),
    Row("Flatten-negative", "Flatten", _a(axis=-3), _a(axis=-2), ("axis", -3, 2, -2, 2)),
    Row("ArgMax", "ArgMax", _a(axis=2), _a(axis=1), ("axis", 2, 2, -2, 1)),
    Row("ArgMin", "ArgMin", _a(axis=-3), _a(axis=-2), ("axis", -3, 2, -2, 1)),
    Row("Concat", "Concat", _a(axis=2), _a(axis=1), ("axis", 2, 2, -2, 1)),
    Row("Gather", "Gather", Case({"axis": 2}, _c([0])), Case({"axis": 1}, _c([0])), ("axis", 2, 2, -2, 1)),
    Row("GatherElements", "GatherElements", Case({"axis": 2}, _c(np.zeros((2, 3)))),
        Case({"axis": 1}, _c(np.zeros((2, 3)))), ("axis", 2, 2, -2, 1)),
    Row("ScatterElements", "ScatterElements", Case({"axis": 2}, (*_c(np.zeros((2, 3))), np.ones((2, 3), F32))),
        Case({"axis": 0}, (*_c(np.zeros((2, 3))), np.ones((2, 3), F32))), ("axis", 2, 2, -2, 1)),
    Row("Scatter", "Scatter", Case({"axis": 2}, (*_c(np.zeros((2, 3))), np.ones((2, 3), F32))),
        Case({"axis": 0}, (*_c(np.zeros((2, 3))), np.ones((2, 3), F32))), ("axis", 2, 2, -2, 1), opset=10),
    Row("OneHot", "OneHot", Case({"axis": 3}, (*_c(3), np.array([0.0, 1.0], F32))),
        Case({"axis": -1}, (*_c(3), np.array([0.0, 1.0], F32))), ("axis", 3, 2, -3, 2), dtype=I64),
    Row("TopK", "TopK", Case({"axis": 2}, _c([1])), Case({"axis": 1}, _c([1])), ("axis", 2, 2, -2, 1), outputs=2),
    Row("Split", "Split", Case({"axis": 2}, _c([1, 2])), Case({"axis": 1}, _c([1, 2])), ("axis", 2, 2, -2, 1),
        outputs=2),
    Row("SplitToSequence", "SplitToSequence", _a(axis=2), _a(axis=1), ("axis", 2, 2, -2, 1)),
    Row("ConcatFromSequence", "ConcatFromSequence", _a(axis=2), _a(axis=1), ("axis", 2, 2, -2, 1),
        sequence_input=True),
    Row("Unique", "Unique", _a(axis=2), _a(axis=0), ("axis", 2, 2, -2, 1), outputs=4),
    Row("Compress", "Compress", Case({"axis": 2}, _c([True, False], dtype=np.bool_)),
        Case({"axis": 0}, _c([True, False], dtype=np.bool_)), ("axis", 2, 2, -2, 1)),
    Row("ReverseSequence-batch_axis", "ReverseSequence", Case({"batch_axis": 2, "time_axis": 0}, _c([1, 1, 1])),
        Case({"batch_axis": 1, "time_axis": 0}, _c([1, 1, 1])), ("batch_axis", 2, 2, -2, 1)),
    Row("ReverseSequence-time_axis", "ReverseSequence", Case({"batch_axis": 1, "time_axis": -3}, _c([1, 1, 1])),
        Case({"batch_axis": 1, "time_axis": 0}, _c([1, 1, 1])), ("time_axis", -3, 2, -2, 1)),
    Row("Unsqueeze", "Unsqueeze", Case(consts=_c([3])), Case(consts=_c([2])), ("axes entry", 3, 3, -3, 2),
        opset=13),
    Row("Unsqueeze-11", "Unsqueeze", _a(axes=[-4]), _a(axes=[-3]), ("axes entry", -4, 3, -3, 2), opset=11),
    Row("Squeeze", "Squeeze", Case(consts=_c([2])), Case(consts=_c([0])), ("axes entry", 2, 2, -2, 1),
        shape=(1, 3), opset=13),
    Row("Slice", "Slice", Case(consts=_c([0], [1], [2])), Case(consts=_c([0], [1], [1])),
        ("axes entry", 2, 2, -2, 1)),
    Row("ReduceSum", "ReduceSum", Case(consts=_c([2])), Case(consts=_c([1])), ("axes entry", 2, 2, -2, 1)),
    Row("ReduceMean-13", "ReduceMean", _a(axes=[-3]), _a(axes=[1]), ("axes entry", -3, 2, -2, 1), opset=13),
    Row("Pad", "Pad", Case(consts=_c([0, 0], None, [2])), Case(consts=_c([0, 0], None, [1])),
        ("axes entry", 2, 2, -2, 1), opset=18),
    Row("Resize", "Resize", Case({"axes": [2]}, (None, np.array([1.0], F32))),
        Case({"axes": [1]}, (None, np.array([1.0], F32))), ("axes entry", 2, 2, -2, 1), opset=18),
    Row("CenterCropPad", "CenterCropPad", Case({"axes": [2]}, _c([2])), Case({"axes": [1]}, _c([2])),
        ("axes entry", 2, 2, -2, 1), opset=18),
    Row("DFT", "DFT", Case(consts=_c(None, 3)), Case(consts=_c(None, 1)), ("axis", 3, 3, -3, 2),
        shape=(2, 3, 1), opset=20),
    Row("Scan-input", "Scan", _a(**SCAN, scan_input_axes=[2]), _a(**SCAN, scan_input_axes=[0]),
        ("scan_input_axes entry", 2, 2, -2, 1), opset=16),
    Row("Scan-output", "Scan", _a(**SCAN, scan_output_axes=[2]), _a(**SCAN, scan_output_axes=[1]),
        ("scan_output_axes entry", 2, 1, -2, 1), opset=16),
    Row("Transpose", "Transpose", _a(perm=[0, 2]), _a(perm=[1, 0]), r"perm \[0, 2\] is not a permutation of rank 2"),
    Row("GatherBlockQuantized-gather_axis", "GatherBlockQuantized", Case({**GBQ, "gather_axis": 2}, GBQ_INPUTS),
        Case({**GBQ, "gather_axis": 0}, GBQ_INPUTS), ("gather_axis", 2, 2, -2, 1), shape=(2, 16),
        dtype=np.uint8, domain="com.microsoft"),
    Row("GatherBlockQuantized-quantize_axis", "GatherBlockQuantized",
        Case({"block_size": 16, "gather_axis": 0, "quantize_axis": -3}, GBQ_INPUTS), Case({**GBQ, "gather_axis": 0},
        GBQ_INPUTS), ("quantize_axis", -3, 2, -2, 1), shape=(2, 16), dtype=np.uint8, domain="com.microsoft"),
]


def _model(row: Row, case: Case) -> onnx.ModelProto:
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(row.dtype))
    x = helper.make_tensor_value_info("x", elem, list(row.shape))
    inits, names = [], ["s" if row.sequence_input else "x"]
    for i, value in enumerate(case.consts):
        if value is None:
            names.append("")
        else:
            inits.append(numpy_helper.from_array(value, f"c{i}"))
            names.append(f"c{i}")
    nodes = [helper.make_node("SequenceConstruct", ["x"], ["s"])] if row.sequence_input else []
    outs = [f"y{i}" for i in range(row.outputs)]
    nodes.append(helper.make_node(row.op, names, outs, name="n", domain=row.domain, **case.attrs))
    graph = helper.make_graph(nodes, "g", [x], [onnx.ValueInfoProto(name=o) for o in outs], initializer=inits)
    opsets = [helper.make_opsetid("", row.opset)] + ([helper.make_opsetid(row.domain, 1)] if row.domain else [])
    return helper.make_model(graph, opset_imports=opsets)


def _verdicts(row: Row, model: onnx.ModelProto) -> tuple[dict[str, bool], list[Any]]:
    """Whether onnx's strict shape inference and onnxruntime (load and run) accept ``model``."""
    ok: dict[str, bool] = {}
    try:
        onnx.shape_inference.infer_shapes(model, strict_mode=True)
        ok["onnx shape inference"] = True
    except Exception:  # noqa: BLE001 - any rejection counts
        ok["onnx shape inference"] = False
    options = ort.SessionOptions()
    options.log_severity_level = 4
    outputs: list[Any] = []
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        outputs = session.run(None, {"x": np.ones(row.shape, row.dtype)})
        ok["onnxruntime"] = True
    except Exception:  # noqa: BLE001
        ok["onnxruntime"] = False
    return ok, outputs


def _message(row: Row) -> str:
    if isinstance(row.expected, str):
        return row.expected
    what, axis, rank, lo, hi = row.expected
    where = f"{row.domain}::{row.op}" if row.domain else row.op
    return (
        rf"^{re.escape(where)} \(node 'n'\): {what} {axis} is out of range for rank {rank}, "
        rf"expected an axis in \[{lo}, {hi}\]; fix the {what.split()[0]} attribute"
    )


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_an_out_of_range_axis_is_a_model_error_naming_op_axis_rank_and_range(row: Row):
    with pytest.raises(ModelError, match=_message(row)):
        analyze_onnx(_model(row, row.bad))


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_the_oracle_rejects_the_bad_axis_and_accepts_the_good_one(row: Row):
    good, outputs = _verdicts(row, _model(row, row.good))
    bad, _ = _verdicts(row, _model(row, row.bad))
    assert good["onnxruntime"], (good, bad)
    assert any(good[k] and not bad[k] for k in good), (good, bad)
    result = analyze_onnx(_model(row, row.good))
    for i, out in enumerate(outputs):
        if isinstance(out, np.ndarray):  # a data-dependent dim (Unique's count) stays a symbol
            dims = result.shape(f"y{i}")
            assert dims is not None and len(dims) == out.ndim, (i, dims, out.shape)
            assert all(d == n for d, n in zip(dims, out.shape, strict=True) if isinstance(d, int)), (i, dims, out.shape)


@pytest.mark.parametrize("dtype", [F32, np.uint8])
def test_per_tensor_quantization_ignores_the_axis_as_onnxruntime_does(dtype: type):
    op = "QuantizeLinear" if dtype is F32 else "DequantizeLinear"
    for scale in (np.array(0.5, F32), np.array([0.5], F32)):  # a scalar, or a vector of one
        row = Row(op, op, Case(), Case({"axis": 5}, (scale,)), ("axis", 5, 2, -2, 1), dtype=dtype)
        ok, outputs = _verdicts(row, _model(row, row.good))
        assert ok["onnxruntime"], ok
        assert analyze_onnx(_model(row, row.good)).shape("y0") == outputs[0].shape
