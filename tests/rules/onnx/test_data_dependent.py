"""Data-dependent ops against onnxruntime: NonZero, Unique, Compress, NonMaxSuppression, TopK
with a runtime k, and the sharing of their fresh symbols."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import as_symbol
from symshape.api import analyze_onnx
from tests.oracle import check_model, make_model, rand, tensor

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def _sparse(shape: tuple[int, ...], density: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random(shape) < density).astype(np.float32) * rng.standard_normal(shape).astype(np.float32)


def _nonzero_model() -> object:
    """Two NonZero on the same value and one on another; Gather with the NonZero indices."""
    nodes = [
        helper.make_node("NonZero", ["x"], ["nz1"]),
        helper.make_node("NonZero", ["x"], ["nz2"]),
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("NonZero", ["r"], ["nz3"]),
        helper.make_node("Transpose", ["nz1"], ["idx"], perm=[1, 0]),
        helper.make_node("GatherND", ["x", "idx"], ["picked"]),
        helper.make_node("Concat", ["nz1", "nz2"], ["both"], axis=1),
    ]
    return make_model(
        nodes, [tensor("x", ["a", "b"])], [tensor("picked", None), tensor("both", None, I64), tensor("nz3", None, I64)]
    )


@pytest.mark.parametrize("shape,density", [((3, 5), 0.5), ((4, 7), 0.2), ((2, 3), 0.0), ((1, 6), 1.0)])
def test_nonzero_shared_symbol_and_range(shape: tuple[int, int], density: float) -> None:
    model = _nonzero_model()
    x = _sparse(shape, density, seed=shape[0] * 10 + shape[1])
    result, [obs] = check_model(model, [{"x": x}])
    n1, n2, n3 = (result.shape(v)[1] for v in ("nz1", "nz2", "nz3"))
    assert n1 is n2, "NonZero ops on the same value must share their count symbol"
    assert n1 is not n3
    assert result.shape("picked") == (n1,)
    assert result.shape("both")[1] == n1 * 2
    # the observed count (numpy) is the symbol's value; the range check saw numel as bound
    assert obs.env[str(n1)] == int(np.count_nonzero(x))
    assert result.symbols()[str(n1)]["kind"] == "data"
    assert _upper_bounds(result, str(n1), obs.env) == [shape[0] * shape[1]]


def _upper_bounds(result: object, name: str, env: dict[str, int]) -> list[int]:
    """Every recorded ``name <= E`` evaluated at ``env`` (range hi and predicates)."""
    from symshape.algebra.expr import evaluate

    out = []
    hi = result.symbols()[name]["range"][1]
    if hi is not None:
        out.append(hi)
    for p in result.graph.predicates:
        lhs, rhs = result.public(p.lhs), result.public(p.rhs)
        diff_free = getattr(rhs, "free", frozenset())
        if p.rel == "<=" and lhs == 0 and name in diff_free:
            # stored as 0 <= E - name
            out.append(evaluate(rhs, {**env, name: 0}))
    return out


def test_nonzero_static_input_has_static_upper_bound() -> None:
    model = make_model([helper.make_node("NonZero", ["x"], ["y"])], [tensor("x", [3, 4])], [tensor("y", None, I64)])
    result, _ = check_model(model, [{"x": _sparse((3, 4), 0.5, 1)}, {"x": np.zeros((3, 4), np.float32)}])
    n = str(result.shape("y")[1])
    assert result.symbols()[n]["range"] == [0, 12]


def test_nonzero_of_tracked_constant_is_exact() -> None:
    const = helper.make_tensor("c", I64, [5], [0, 3, 0, 1, 7])
    model = make_model(
        [helper.make_node("NonZero", ["c"], ["y"])], [tensor("x", [1])], [tensor("y", None, I64)], initializers=[const]
    )
    result, _ = check_model(model, [{"x": rand(1)}])
    assert result.shape("y") == (1, 3)
    assert result.elements("y") == (1, 3, 4)


@pytest.mark.parametrize("sorted_", [0, 1])
def test_unique_flat(sorted_: int) -> None:
    nodes = [helper.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"], sorted=sorted_)]
    model = make_model(
        nodes,
        [tensor("x", ["a", "b"], I64)],
        [tensor("y", None, I64), tensor("idx", None, I64), tensor("inv", None, I64), tensor("cnt", None, I64)],
    )
    rng = np.random.default_rng(3)
    samples = [
        {"x": rng.integers(0, 4, (3, 5))},
        {"x": rng.integers(0, 50, (2, 9))},
        {"x": np.zeros((1, 1), np.int64)},
        {"x": np.zeros((0, 4), np.int64)},
    ]
    result, observed = check_model(model, samples)
    u = result.shape("y")[0]
    assert result.shape("idx") == (u,) and result.shape("cnt") == (u,)
    assert str(result.shape("inv")[0]) == "a*b"
    for feeds, obs in zip(samples, observed, strict=True):
        assert obs.env[str(u)] == len(np.unique(feeds["x"]))


def test_unique_axis_with_nonempty_input_has_lower_bound_one() -> None:
    nodes = [helper.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"], axis=0)]
    model = make_model(
        nodes,
        [tensor("x", [4, "b"])],
        [tensor("y", None), tensor("idx", None, I64), tensor("inv", None, I64), tensor("cnt", None, I64)],
    )
    x = np.array([[1, 2], [1, 2], [3, 4], [1, 2]], np.float32)
    result, [obs] = check_model(model, [{"x": x}])
    u = result.shape("y")[0]
    assert result.shape("y")[1] == result.shape("x")[1]
    assert result.symbols()[str(u)]["range"] == [1, 4]
    assert obs.env[str(u)] == 2
    assert result.shape("inv") == (4,)


def test_compress_runtime_and_constant_condition() -> None:
    cond = helper.make_tensor("cond_c", B, [3], [1, 0, 1])
    nodes = [
        helper.make_node("Compress", ["x", "c"], ["y"], axis=1),
        helper.make_node("Compress", ["x", "c"], ["y2"], axis=1),
        helper.make_node("Compress", ["x", "cond_c"], ["z"], axis=0),
        helper.make_node("Compress", ["x", "c"], ["flat"]),
        helper.make_node("Compress", ["w", "c"], ["w1"], axis=0),
    ]
    model = make_model(
        nodes,
        [tensor("x", [4, "n"]), tensor("c", ["k"], B), tensor("w", ["n", 2])],
        [tensor("y", None), tensor("y2", None), tensor("z", None), tensor("flat", None), tensor("w1", None)],
        initializers=[cond],
    )
    rng = np.random.default_rng(5)
    samples = [
        {"x": rand(4, 6), "c": rng.random(6) < 0.5, "w": rand(6, 2)},
        {"x": rand(4, 5), "c": rng.random(3) < 0.7, "w": rand(5, 2)},
    ]
    result, _ = check_model(model, samples)
    assert result.shape("z") == (2, result.shape("x")[1])
    assert result.shape("y")[1] is result.shape("y2")[1] is result.shape("w1")[0]  # same cond, same length
    assert as_symbol(result.shape("flat")[0]) is not None


def test_nms_selected_count_bound() -> None:
    nodes = [helper.make_node("NonMaxSuppression", ["boxes", "scores", "m", "iou", "thr"], ["sel"])]
    inits = [
        helper.make_tensor("m", I64, [1], [2]),
        helper.make_tensor("iou", F, [1], [0.5]),
        helper.make_tensor("thr", F, [1], [0.0]),
    ]
    model = make_model(
        nodes,
        [tensor("boxes", ["b", "s", 4]), tensor("scores", ["b", "c", "s"])],
        [tensor("sel", None, I64)],
        initializers=inits,
    )
    rng = np.random.default_rng(7)
    samples = []
    for b, c, s in [(1, 2, 5), (2, 3, 4), (1, 1, 1)]:
        corners = rng.random((b, s, 2)).astype(np.float32)
        boxes = np.concatenate([corners, corners + 0.3], axis=2)
        samples.append({"boxes": boxes, "scores": rng.random((b, c, s)).astype(np.float32)})
    result, observed = check_model(model, samples)
    n = str(result.shape("sel")[0])
    assert result.shape("sel")[1] == 3
    for feeds, obs in zip(samples, observed, strict=True):
        b, c, s = feeds["scores"].shape
        assert _upper_bounds(result, n, obs.env) == [b * c * min(s, 2)]


def test_topk_runtime_k_is_shared() -> None:
    nodes = [
        helper.make_node("TopK", ["x", "k"], ["v1", "i1"], axis=1),
        helper.make_node("TopK", ["x", "k"], ["v2", "i2"], axis=1),
        helper.make_node("Add", ["v1", "v2"], ["s"]),
    ]
    model = make_model(
        nodes,
        [tensor("x", ["a", "b"]), tensor("k", [1], I64)],
        [tensor("s", None), tensor("i1", None, I64), tensor("i2", None, I64)],
    )
    result, observed = check_model(
        model, [{"x": rand(3, 6), "k": np.array([4])}, {"x": rand(2, 5), "k": np.array([0])}]
    )
    k = result.shape("v1")[1]
    assert result.shape("v2")[1] is k
    assert [o.env[str(k)] for o in observed] == [4, 0]
    assert _upper_bounds(result, str(k), observed[0].env) == [6]


def test_unknown_input_shape_falls_back() -> None:
    nodes = [helper.make_node("NonZero", ["x"], ["y"]), helper.make_node("Unique", ["x"], ["u"])]
    model = make_model(
        nodes, [helper.make_tensor_value_info("x", F, None)], [tensor("y", None, I64), tensor("u", None)]
    )
    result = analyze_onnx(model)
    assert {w.op_type for w in result.warnings} == {"NonZero", "Unique"}
