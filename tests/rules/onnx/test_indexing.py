"""Indexing and generator ops against onnxruntime at several sizes, plus their facts."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.errors import ContradictionError, ModelError
from tests.oracle import check_model, make_model, rand, tensor

F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32


def _idx(shape: tuple[int, ...], high: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, high, shape).astype(np.int64)


def test_gather_elements_has_the_indices_shape() -> None:
    model = make_model(
        [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=1)],
        [tensor("x", ["a", "b"]), tensor("i", ["a", "k"], I64)],
        [tensor("y", None)],
    )
    samples = [{"x": rand(3, 5), "i": _idx((3, 7), 5)}, {"x": rand(2, 2), "i": _idx((2, 1), 2)}]
    result, _ = check_model(model, samples)
    assert [str(d) for d in result.shape("y")] == ["a", "k"]


@pytest.mark.parametrize("batch_dims", [0, 1])
def test_gather_nd(batch_dims: int) -> None:
    model = make_model(
        [helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=batch_dims)],
        [tensor("x", ["a", "b", "c"]), tensor("i", ["a", "m", 1], I64)],
        [tensor("y", None)],
    )
    samples = []
    for a, b, c, m in [(2, 3, 4, 5), (3, 4, 2, 1)]:
        high = a if batch_dims == 0 else b
        samples.append({"x": rand(a, b, c), "i": _idx((a, m, 1), high)})
    result, _ = check_model(model, samples)
    expected = ["a", "m", "b", "c"] if batch_dims == 0 else ["a", "m", "c"]
    assert [str(d) for d in result.shape("y")] == expected


def test_gather_nd_batch_dims_are_facts() -> None:
    model = make_model(
        [helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=1)],
        [tensor("x", ["a", "b"]), tensor("i", ["n", 1], I64)],
        [tensor("y", None)],
    )
    result = analyze_onnx(model)
    assert result.same_dim(("x", 0), ("i", 0)) is True
    assert [str(d) for d in result.shape("y")] == ["a"]


def test_gather_nd_symbolic_index_depth_gives_up() -> None:
    model = make_model(
        [helper.make_node("GatherND", ["x", "i"], ["y"])],
        [tensor("x", ["a", "b"]), tensor("i", ["n", "k"], I64)],
        [tensor("y", None)],
    )
    result = analyze_onnx(model)
    assert [w.op_type for w in result.warnings] == ["GatherND"]


def test_scatter_nd_and_elements_tie_updates_to_indices() -> None:
    nodes = [
        helper.make_node("ScatterND", ["x", "i", "u"], ["y"]),
        helper.make_node("ScatterElements", ["x", "j", "v"], ["z"], axis=0),
    ]
    model = make_model(
        nodes,
        [
            tensor("x", ["a", "b"]),
            tensor("i", ["n", 1], I64),
            tensor("u", ["m", "c"]),
            tensor("j", ["p", "q"], I64),
            tensor("v", ["r", "s"]),
        ],
        [tensor("y", None), tensor("z", None)],
    )
    result = analyze_onnx(model)
    assert result.same_dim(("u", 0), ("i", 0)) and result.same_dim(("u", 1), ("x", 1))
    assert result.same_shape("j", "v")
    a, b = 4, 3
    samples = [
        {"x": rand(a, b), "i": np.array([[2], [0]]), "u": rand(2, b), "j": _idx((2, 2), a), "v": rand(2, 2)},
        {"x": rand(5, 1), "i": np.array([[4]]), "u": rand(1, 1), "j": _idx((3, 1), 5), "v": rand(3, 1)},
    ]
    check_model(model, samples)
    assert result.shape("y") == result.shape("x") == result.shape("z")


def test_scatter_nd_contradiction_names_the_op() -> None:
    model = make_model(
        [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="sc")],
        [tensor("x", [4, 3]), tensor("i", [2, 1], I64), tensor("u", [2, 5])],
        [tensor("y", None)],
    )
    with pytest.raises(ContradictionError, match="ScatterND 'sc'"):
        analyze_onnx(model)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_one_hot_depth_from_tracked_shape(axis: int) -> None:
    nodes = [
        helper.make_node("Shape", ["w"], ["ws"], start=0, end=1),
        helper.make_node("OneHot", ["i", "ws", "vals"], ["y"], axis=axis),
        helper.make_node("OneHot", ["i", "d", "vals"], ["z"], axis=axis),
    ]
    model = make_model(
        nodes,
        [tensor("i", ["a", "b"], I64), tensor("w", ["depth"]), tensor("d", [1], I64)],
        [tensor("y", None), tensor("z", None)],
        initializers=[helper.make_tensor("vals", F, [2], [0.0, 1.0])],
    )
    samples = [
        {"i": _idx((2, 3), 4), "w": rand(4), "d": np.array([6])},
        {"i": _idx((3, 1), 7), "w": rand(7), "d": np.array([2])},
    ]
    result, _ = check_model(model, samples)
    expected = ["a", "b"]
    expected.insert(axis if axis >= 0 else 2, "depth")
    assert [str(d) for d in result.shape("y")] == expected


def test_top_k_constant_and_tracked_k_are_facts() -> None:
    nodes = [
        helper.make_node("TopK", ["x", "k3"], ["v", "i"], axis=1),
        helper.make_node("Shape", ["y"], ["ys"], start=0, end=1),
        helper.make_node("TopK", ["x", "ys"], ["v2", "i2"], axis=-1),
    ]
    model = make_model(
        nodes,
        [tensor("x", ["a", "b"]), tensor("y", ["c"])],
        [tensor("v", None), tensor("i", None, I64), tensor("v2", None), tensor("i2", None, I64)],
        initializers=[helper.make_tensor("k3", I64, [1], [3])],
    )
    result, _ = check_model(model, [{"x": rand(2, 5), "y": rand(4)}, {"x": rand(3, 3), "y": rand(1)}])
    assert [str(d) for d in result.shape("v")] == ["a", "3"]
    assert [str(d) for d in result.shape("i2")] == ["a", "c"]
    assert result.symbols()["b"]["range"][0] == 3  # k <= dim: the op needs at least 3 columns


def test_top_k_larger_than_the_dim_is_a_contradiction() -> None:
    model = make_model(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="tk")],
        [tensor("x", [2, 4])],
        [tensor("v", None), tensor("i", None, I64)],
        initializers=[helper.make_tensor("k", I64, [1], [5])],
    )
    pattern = r"TopK \(node 'tk'\): '5' is larger than '4', expected TopK k <= axis dim"
    with pytest.raises(ContradictionError, match=pattern):
        analyze_onnx(model)


def test_reverse_sequence() -> None:
    model = make_model(
        [helper.make_node("ReverseSequence", ["x", "l"], ["y"], batch_axis=0, time_axis=1)],
        [tensor("x", ["b", "t", 3]), tensor("l", ["n"], I64)],
        [tensor("y", None)],
    )
    result, _ = check_model(
        model, [{"x": rand(2, 4, 3), "l": np.array([4, 1])}, {"x": rand(3, 1, 3), "l": np.array([1, 0, 1])}]
    )
    assert result.same_dim(("l", 0), ("x", 0))


def test_generators() -> None:
    nodes = [
        helper.make_node("RandomNormal", [], ["r"], shape=[2, 3]),
        helper.make_node("Multinomial", ["p"], ["m"], sample_size=5),
        helper.make_node("Shape", ["s"], ["n"], start=0, end=1),
        helper.make_node("Squeeze", ["n"], ["n0"]),
        helper.make_node("HannWindow", ["n0"], ["w"]),
        helper.make_node("BlackmanWindow", ["n0"], ["w2"]),
    ]
    model = make_model(
        nodes,
        [tensor("p", ["b", 4]), tensor("s", ["size"])],
        [tensor("r", None), tensor("m", None, I32), tensor("w", None), tensor("w2", None)],
    )
    result, _ = check_model(model, [{"p": rand(3, 4), "s": rand(7)}, {"p": rand(1, 4), "s": rand(1)}])
    assert [str(d) for d in result.shape("w")] == ["size"]
    assert [str(d) for d in result.shape("m")] == ["b", "5"]


@pytest.mark.parametrize("onesided,inverse", [(0, 0), (1, 0), (1, 1)])
def test_dft_opset20(onesided: int, inverse: int) -> None:
    last = 2 if inverse else 1
    nodes = [helper.make_node("DFT", ["x", "", "ax"], ["y"], onesided=onesided, inverse=inverse)]
    model = make_model(
        nodes,
        [tensor("x", ["b", "n", last])],
        [tensor("y", None)],
        initializers=[helper.make_tensor("ax", I64, [], [1])],
    )
    check_model(model, [{"x": rand(2, 8, last)}, {"x": rand(1, 5, last)}, {"x": rand(3, 2, last)}])


def test_dft_length_input_and_stft() -> None:
    nodes = [
        helper.make_node("DFT", ["x", "len", "ax"], ["y"], onesided=1),
        helper.make_node("STFT", ["sig", "step", "win"], ["spec"]),
        helper.make_node("STFT", ["sig", "step", "", "flen"], ["spec2"], onesided=0),
    ]
    inits = [
        helper.make_tensor("len", I64, [], [6]),
        helper.make_tensor("ax", I64, [], [1]),
        helper.make_tensor("step", I64, [], [3]),
        helper.make_tensor("flen", I64, [], [4]),
    ]
    model = make_model(
        nodes,
        [tensor("x", ["b", "n", 1]), tensor("sig", ["b2", "L", 1]), tensor("win", ["W"])],
        [tensor("y", None), tensor("spec", None), tensor("spec2", None)],
        initializers=inits,
    )
    samples = [
        {"x": rand(2, 9, 1), "sig": rand(1, 20, 1), "win": rand(5)},
        {"x": rand(1, 3, 1), "sig": rand(2, 9, 1), "win": rand(4)},
    ]
    result, _ = check_model(model, samples)
    assert str(result.shape("spec")[1]) == "floor((L - W)/3) + 1"


def test_mel_weight_matrix() -> None:
    nodes = [
        helper.make_node("Size", ["frame"], ["dlen"]),
        helper.make_node("MelWeightMatrix", ["bins", "dlen", "rate", "lo", "hi"], ["m"]),
    ]
    inits = [
        helper.make_tensor("bins", I64, [], [8]),
        helper.make_tensor("rate", I64, [], [16000]),
        helper.make_tensor("lo", F, [], [0.0]),
        helper.make_tensor("hi", F, [], [4000.0]),
    ]
    model = make_model(nodes, [tensor("frame", ["n"])], [tensor("m", None)], initializers=inits)
    result, _ = check_model(model, [{"frame": rand(64)}, {"frame": rand(33)}])
    assert [str(d) for d in result.shape("m")] == ["floor(n/2) + 1", "8"]


def test_bad_attributes_are_model_errors() -> None:
    model = make_model(
        [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=3)],
        [tensor("x", ["a", "b"]), tensor("i", ["a", "b"], I64)],
        [tensor("y", None)],
    )
    with pytest.raises(ModelError, match="axis 3"):
        analyze_onnx(model)


def test_unknown_input_shapes_fall_back() -> None:
    unranked = helper.make_tensor_value_info("x", F, None)
    nodes = [helper.make_node(op, ["x", "i"], [f"y{k}"]) for k, op in enumerate(("GatherElements", "GatherND"))]
    nodes.append(helper.make_node("TopK", ["x", "k"], ["v", "vi"]))
    model = make_model(
        nodes,
        [unranked, tensor("i", ["n", 1], I64), tensor("k", [1], I64)],
        [tensor("y0", None), tensor("y1", None), tensor("v", None), tensor("vi", None, I64)],
    )
    result = analyze_onnx(model)
    assert sorted(w.op_type for w in result.warnings) == ["GatherElements", "GatherND", "TopK"]


@pytest.mark.parametrize("bits", [4, 8])
def test_gather_block_quantized_unpacks_uint8(bits: int) -> None:
    node = helper.make_node(
        "GatherBlockQuantized",
        ["data", "idx", "scales"],
        ["y"],
        domain="com.microsoft",
        bits=bits,
        block_size=16,
        gather_axis=0,
        quantize_axis=1,
    )
    model = make_model(
        [node],
        [tensor("data", ["n", "k"], TensorProto.UINT8), tensor("idx", ["a", "b"], I64), tensor("scales", ["n", "s"])],
        [tensor("y", None)],
    )
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    samples = []
    for n, cols, a, b in [(5, 32, 1, 3), (3, 64, 2, 2)]:
        data = np.random.default_rng(n).integers(0, 255, (n, cols * bits // 8)).astype(np.uint8)
        samples.append({"data": data, "idx": _idx((a, b), n), "scales": np.ones((n, cols // 16), np.float32)})
    result, _ = check_model(model, samples)
    assert str(result.shape("y")[2]) == ("2*k" if bits == 4 else "k")
    assert result.same_dim(("scales", 0), ("data", 0))


_ARITY = {
    "NonZero": 1, "Unique": 1, "Compress": 2, "NonMaxSuppression": 5, "GatherElements": 2, "GatherND": 2,
    "ScatterND": 3, "ScatterElements": 3, "Scatter": 3, "OneHot": 3, "TopK": 2, "ReverseSequence": 2,
    "Multinomial": 1, "HannWindow": 1, "HammingWindow": 1, "BlackmanWindow": 1, "MelWeightMatrix": 5, "DFT": 1,
    "STFT": 2,
}  # fmt: skip


@pytest.mark.parametrize("op", sorted(_ARITY))
def test_unranked_inputs_give_a_warning_not_a_crash(op: str) -> None:
    names = [f"in{k}" for k in range(_ARITY[op])]
    inputs = [helper.make_tensor_value_info(n, F, None) for n in names]
    model = make_model([helper.make_node(op, names, ["y"], name="n")], inputs, [tensor("y", None)])
    result = analyze_onnx(model)
    if op in ("HannWindow", "HammingWindow", "BlackmanWindow", "MelWeightMatrix"):  # only values are read
        assert not result.warnings and len(result.shape("y")) == (2 if op == "MelWeightMatrix" else 1)
    else:
        assert [(w.op_name, w.op_type) for w in result.warnings] == [("n", op)]
