"""Window ops at every size, onnxruntime as the oracle: Conv, ConvTranspose, MaxPool, AveragePool
and LpPool over strides, dilations, pads, auto_pad and ceil_mode, on a symbolic spatial dim.

For each configuration the analysis must print no guard, and at each size ``h``:

* where onnxruntime runs, the analysis admits ``h`` (no fact excludes it) and its output size
  evaluates to the one onnxruntime returns;
* where onnxruntime rejects a window that does not fit (Conv) or an output <= 0 (ConvTranspose),
  the analysis' facts exclude ``h`` (the program requires the fit to run). onnxruntime also
  rejects an empty spatial dim (h = 0) for every op; the spec allows it, so that is no fact.

What onnxruntime does with a window that does not fit, per op (probed at h = 0..13):
Conv rejects it ("Invalid input shape"); ConvTranspose rejects an output <= 0; the pools in floor
mode truncate ``(h + pads - window)/stride`` toward zero (ONNX floors it) and reject a negative
output; in ceil mode they ceil it and drop a last window that would start in the end padding.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import evaluate, sym
from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from tests.oracle import assert_exact, check, make_model, tensor, weight

ort.set_default_logger_severity(4)
SIZES = range(0, 11)
POOLS = ("MaxPool", "AveragePool", "LpPool")


def _model(op: str, attrs: Mapping[str, object], k: int) -> onnx.ModelProto:
    inputs, inits = ["x"], []
    if op in ("Conv", "ConvTranspose"):
        inputs.append("w")
        inits.append(helper.make_tensor("w", TensorProto.FLOAT, [1, 1, k], [1.0] * k))
    else:
        attrs = dict(attrs, kernel_shape=[k])
    node = helper.make_node(op, inputs, ["y"], **attrs)
    return make_model([node], [tensor("x", [1, 1, "h"])], [tensor("y", None)], inits)


def _ort_sizes(model: onnx.ModelProto) -> dict[int, int | None]:
    """onnxruntime's output length at each size in `SIZES` (None: it rejects the size)."""
    try:
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception:  # noqa: BLE001 - an unsupported configuration runs at no size
        return dict.fromkeys(SIZES)
    out: dict[int, int | None] = {}
    for h in SIZES:
        try:
            out[h] = int(session.run(None, {"x": np.ones((1, 1, h), np.float32)})[0].shape[2])
        except Exception:  # noqa: BLE001 - onnxruntime rejects this size
            out[h] = None
    return out


def _admits(a: Analysis, env: Mapping[str, int]) -> bool:
    """Whether the analysis' facts (symbol ranges and predicates, not guards) allow ``env``."""
    for name, info in a.symbols().items():
        lo, hi = info["range"]
        v = env.get(name)
        if v is not None and ((lo is not None and v < lo) or (hi is not None and v > hi)):
            return False
    for p in a.graph.predicates:
        lhs, rhs = evaluate(a.public(p.lhs), env), evaluate(a.public(p.rhs), env)
        if p.rel == "<=" and lhs > rhs:
            return False
    return True


def _configs() -> list[tuple[str, dict[str, object], int]]:
    out: list[tuple[str, dict[str, object], int]] = []
    grid = itertools.product(("Conv", "ConvTranspose", *POOLS), (1, 3, 5), (1, 2, 3), (1, 2), ((0, 0), (1, 1), (2, 1)))
    for op, k, s, d, pads in grid:
        if pads[0] >= k or pads[1] >= k:
            continue
        base: dict[str, object] = {"strides": [s], "dilations": [d]}
        out.append((op, {**base, "pads": list(pads)}, k))
        if op in POOLS:
            out.append((op, {**base, "pads": list(pads), "ceil_mode": 1}, k))
        if pads == (0, 0):
            out.append((op, {**base, "auto_pad": "VALID"}, k))
            if d == 1 or op != "Conv":  # onnxruntime runs no Conv with SAME and dilation
                for auto_pad in ("SAME_UPPER", "SAME_LOWER"):
                    out.append((op, {**base, "auto_pad": auto_pad}, k))
                    if op in POOLS:
                        out.append((op, {**base, "auto_pad": auto_pad, "ceil_mode": 1}, k))
    return out


CONFIGS = _configs()


@pytest.mark.parametrize(("op", "attrs", "k"), CONFIGS, ids=[f"{o}-k{k}-{sorted(a.items())}" for o, a, k in CONFIGS])
def test_window_size_matches_onnxruntime_at_every_size(op: str, attrs: dict[str, object], k: int) -> None:
    model = _model(op, attrs, k)
    a = analyze_onnx(model)
    assert a.guards() == [], a.guards()
    y = a.shape("y")
    assert y is not None
    for h, truth in _ort_sizes(model).items():
        env = {"h": h}
        if truth is None:
            # an empty spatial dim (h = 0) onnxruntime rejects for every op: not recorded as a fact
            if h > 0 and (op == "Conv" or op == "ConvTranspose" and "auto_pad" not in attrs):
                assert not _admits(a, env), f"h={h}: onnxruntime rejects it, the analysis admits it ({y[2]})"
            continue
        assert _admits(a, env), f"h={h}: onnxruntime runs it (length {truth}), a fact excludes it"
        assert evaluate(a.public(y[2]), env) == truth, f"h={h}: '{y[2]}' != onnxruntime's {truth}"


def test_the_grid_covers_every_op_and_mode() -> None:
    assert len(CONFIGS) > 300
    assert {o for o, _, _ in CONFIGS} == {"Conv", "ConvTranspose", *POOLS}


# ------------------------------------------------------------------ chains (dynamo-export shapes)
def _stack_model() -> onnx.ModelProto:
    """Conv 3x3/2 pad 1, Conv 3x3/2 pad 1, MaxPool 3x3/2 pad 1, Conv 3x3 dilation 2, AvgPool 2x2/2:
    the layers of a segmentation encoder as torch's dynamo exporter writes them."""
    n = helper.make_node
    nodes = [
        n("Conv", ["x", "w1"], ["c1"], strides=[2, 2], pads=[1, 1, 1, 1]),
        n("Conv", ["c1", "w2"], ["c2"], strides=[2, 2], pads=[1, 1, 1, 1]),
        n("MaxPool", ["c2"], ["p1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        n("Conv", ["p1", "w3"], ["c3"], dilations=[2, 2]),
        n("AveragePool", ["c3"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
    ]
    inits = [weight("w1", [4, 3, 3, 3]), weight("w2", [4, 4, 3, 3]), weight("w3", [4, 4, 3, 3])]
    return make_model(nodes, [tensor("x", [1, 3, "h", "w"])], [tensor("p2", None)], inits)


def test_a_strided_stack_proves_each_window_from_the_previous_layer() -> None:
    model = _stack_model()
    # ordinary sizes, the smallest the model accepts (h = 33: the dilated conv's window fits
    # floor((h + 7)/8) = 5), and both sides of the average pool's own fit (h = 40, 41)
    report = assert_exact(check(model, [dict(h=64, w=64), dict(h=97, w=61), dict(h=33, w=33), dict(h=40, w=41)]))
    a = report.analysis
    assert a.guards() == []
    assert a.symbols()["h"]["range"] == [33, None]  # the program requires it: onnxruntime rejects h = 32
    assert str(a.shape("c3")[2]) == "floor((h + 7)/8) - 4"


def test_the_stack_is_rejected_by_onnxruntime_below_its_fact() -> None:
    model = _stack_model()
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    with pytest.raises(Exception, match="Invalid input shape"):
        sess.run(None, {"x": np.ones((1, 3, 32, 40), np.float32)})


def test_a_user_range_makes_floor_pooling_a_plain_floor() -> None:
    n = helper.make_node
    model = make_model([n("MaxPool", ["x"], ["y"], kernel_shape=[3], strides=[2])], [tensor("x", [1, 1, "h"])], ["y"])
    loose = analyze_onnx(model).shape("y")
    tight = analyze_onnx(model, facts=["h >= 3"]).shape("y")
    assert loose is not None and tight is not None
    assert "Max" in str(loose[2])  # truncation of a quotient whose sign is unknown
    assert "Max" not in str(tight[2])  # a plain floor once the window is known to fit
    assert all(evaluate(tight[2], {"h": h}) == (h - 3) // 2 + 1 for h in range(3, 40))
    report = assert_exact(check(model, [dict(h=3), dict(h=4), dict(h=9), dict(h=1), dict(h=2)]))
    assert report.analysis.guards() == []


def test_conv_transpose_output_of_zero_is_excluded() -> None:
    n = helper.make_node
    node = n("ConvTranspose", ["x", "w"], ["y"], pads=[2, 1])
    model = make_model([node], [tensor("x", [1, 1, "h"])], ["y"], [weight("w", [1, 1, 3])])
    a = analyze_onnx(model)
    assert a.symbols()["h"]["range"] == [2, None]  # h - 1 >= 1
    assert a.shape("y") == (1, 1, sym("h") - 1)
    assert_exact(check(model, [dict(h=2), dict(h=3), dict(h=17)]))
