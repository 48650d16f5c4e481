"""Range with computed and float bounds, onnxruntime as the oracle.

Each program computes its bounds from a shape (``Shape -> Gather -> Cast``) or holds float
constants; truth is onnxruntime's output at ordinary sizes, at 0 and 1, and around the point where
the count stops being clamped at 0. Every dim must be exact (expressed in the input symbols).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from tests.oracle import array, assert_exact, check, const, make_model, tensor

N = helper.make_node
F32, F64, I64 = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT64


def _dim_as(name: str, axis: int, to: int) -> list[onnx.NodeProto]:
    """``name = Cast(Shape(x)[axis])`` as a scalar of type ``to``."""
    return [
        N("Shape", ["x"], [f"{name}_shape"]),
        N("Gather", [f"{name}_shape", f"axis{axis}"], [f"{name}_i"], axis=0),
        N("Cast", [f"{name}_i"], [name], to=to),
    ]


def _range_model(bounds: Sequence[float | str], dtype: int) -> onnx.ModelProto:
    """``Range(start, limit, delta)`` where a bound is a constant or ``"n"``/``"m"`` (dim 0/1 of x)."""
    nodes: list[onnx.NodeProto] = []
    inits = [const("axis0", 0), const("axis1", 1)]
    names = []
    np_type = {F32: np.float32, F64: np.float64, I64: np.int64}[dtype]
    for i, b in enumerate(bounds):
        name = f"b{i}"
        if isinstance(b, str):
            nodes += _dim_as(name, {"n": 0, "m": 1}[b], dtype)
        else:
            inits.append(array(name, np.array(b, np_type)))
        names.append(name)
    nodes.append(N("Range", names, ["y"]))
    return make_model(nodes, [tensor("x", ["n", "m"])], [tensor("y", None, dtype)], inits)


ROWS = [
    # (id, bounds, dtype, facts, expected printed count)
    ("arange-n-float", (0.0, "n", 1.0), F32, (), "n"),
    ("half-steps-from-half", (0.5, "n", 0.5), F32, (), "Max(0, 2*n - 1)"),
    ("step-0.7-not-dyadic", (0.0, "n", 0.7), F32, (), None),
    ("down-from-n", ("n", 0.0, -1.5), F32, (), None),
    ("double-quarter", (0.25, "n", 0.25), F64, (), "Max(0, 4*n - 1)"),
    ("int-start-3-step-2", (3, "n", 2), I64, (), "Max(0, floor(n/2) - 1)"),
    ("int-delta-from-a-dim", (0, "n", "m"), I64, (), None),
    ("float-between-dims", ("m", "n", 2.0), F32, (), None),
]


def _samples() -> list[dict[str, int]]:
    sizes = [(0, 1), (1, 1), (1, 3), (2, 2), (3, 1), (4, 5), (7, 2), (10, 3), (64, 7), (97, 4)]
    return [{"n": n, "m": m} for n, m in sizes]


@pytest.mark.parametrize(("bounds", "dtype", "facts", "printed"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_range_count_is_exact(
    bounds: Sequence[float | str], dtype: int, facts: Sequence[str], printed: str | None
) -> None:
    model = _range_model(bounds, dtype)
    report = assert_exact(check(model, _samples(), facts=facts))
    a = report.analysis
    y = a.shape("y")
    assert y is not None
    if printed is not None:
        assert str(y[0]) == printed
    for condition, _, _ in a.guards():  # only the float-exactness ranges, never broken here
        assert "<= 16777216" in condition or "<= 9007199254740992" in condition, condition


def test_a_non_dyadic_float_step_counts_like_onnxruntime() -> None:
    """7/0.7f is 10.00000017 in exact arithmetic (and in onnxruntime's double quotient): 11
    elements, though float32 division would give 10."""
    model = _range_model((0.0, "n", 0.7), F32)
    assert_exact(check(model, [{"n": 7, "m": 1}, {"n": 14, "m": 1}, {"n": 21, "m": 2}]))


def test_float_constants_are_counted_in_onnxruntime_arithmetic() -> None:
    for start, limit, delta in [(0.0, 1.0, 0.1), (0.0, 2.5, 0.5), (1.0, 0.0, -0.3), (0.0, 7.0, 0.7), (5.0, 1.0, 1.0)]:
        nodes = [N("Range", ["a", "b", "d"], ["r"]), N("Add", ["x", "r"], ["y"])]
        inits = [array(k, np.array(v, np.float32)) for k, v in zip("abd", (start, limit, delta), strict=True)]
        count = int(np.ceil(float(np.float32(limit) - np.float32(start)) / float(np.float32(delta))))
        model = make_model(nodes, [tensor("x", ["n", max(count, 0)])], [tensor("y", None)], inits)
        report = assert_exact(check(model, [{"n": 2}, {"n": 1}]))
        assert report.analysis.shape("r") == (max(count, 0),)


def test_a_symbolic_delta_that_is_a_dim_is_at_least_one() -> None:
    """A delta of 0 is an error in onnxruntime, so a dim used as the delta is >= 1 (a fact)."""
    a = analyze_onnx(_range_model((0, "n", "m"), I64))
    assert a.symbols()["m"]["range"] == [1, None]
    assert str(a.shape("y")[0]) == "floor((n - 1)/m) + 1"  # ceil(n/m), no clamp: n >= 0
