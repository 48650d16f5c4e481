"""Seed 004's shape patterns on hand-built ONNX graphs, checked against onnxruntime."""

from __future__ import annotations

import pytest
from onnx import helper

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from symshape.errors import ContradictionError, ModelError
from tests.oracle import assert_sound, check, const, make_model, tensor, weight

N = helper.make_node
b, s = sym("batch"), sym("seq")


def shape_chain_model():
    """x[batch, seq, 32] -> [batch*seq, 32] via Shape/Gather/Mul/Unsqueeze/Concat -> [0, 0, 4, -1]."""
    nodes = [
        N("Shape", ["x"], ["shp"]),
        N("Gather", ["shp", "i0"], ["d0"], axis=0),
        N("Gather", ["shp", "i1"], ["d1"], axis=0),
        N("Mul", ["d0", "d1"], ["bs"]),
        N("Unsqueeze", ["bs", "ax0"], ["bs1"]),
        N("Concat", ["bs1", "c32"], ["flat_shape"], axis=0),
        N("Reshape", ["x", "flat_shape"], ["flat"]),
        N("Relu", ["flat"], ["act"]),
        N("Reshape", ["x", "split_shape"], ["heads"]),
        N("Shape", ["heads"], ["heads_shape"], start=-2),
    ]
    inits = [const("i0", 0), const("i1", 1), const("ax0", [0]), const("c32", [32]), const("split_shape", [0, 0, 4, -1])]
    return make_model(nodes, [tensor("x", ["batch", "seq", 32])], ["act", "heads", "heads_shape"], inits)


def test_shape_gather_concat_reshape_chain():
    m = shape_chain_model()
    result = analyze_onnx(m)
    assert result.shape("flat") == (b * s, 32)
    assert result.elements("flat_shape") == (b * s, 32)
    assert result.shape("heads") == (b, s, 4, 8)
    assert result.elements("heads_shape") == (4, 8)
    assert not result.unresolved and not result.warnings
    # Reshape's -1 is only defined when the other target dims are non-zero: a fact on the inputs.
    assert result.symbols()["batch"]["range"] == [1, None]
    assert result.symbols()["seq"]["range"] == [1, None]
    envs = [{"batch": 2, "seq": 7}, {"batch": 3, "seq": 1}, {"batch": 1, "seq": 5}]
    assert_sound(check(m, envs, analysis=result))


def test_reshape_minus_one_exact_and_inexact():
    nodes = [N("Reshape", ["x", "t1"], ["y"]), N("Reshape", ["v", "t2"], ["w"])]
    inits = [const("t1", [-1, 3]), const("t2", [-1, 4])]
    m = make_model(nodes, [tensor("x", ["a", "c", 6]), tensor("v", ["n"])], ["y", "w"], inits)
    result = analyze_onnx(m)
    a, c, n = sym("a"), sym("c"), sym("n")
    assert result.shape("y") == (2 * a * c, 3)
    (w0, w1) = result.shape("w")
    assert w1 == 4 and str(w0) == "floor(n/4)"
    assert result.symbols()["n"]["divisor"] == 4  # learned from n == 4*floor(n/4)
    envs = [{"a": 2, "c": 5, "n": 12}, {"a": 1, "c": 1, "n": 4}, {"a": 3, "c": 2, "n": 0}]
    assert_sound(check(m, envs, analysis=result))
    assert n is sym("n")


def test_expand_and_tile_from_computed_shapes():
    nodes = [
        N("Shape", ["x"], ["shp"]),
        N("Gather", ["shp", "i0"], ["d0"], axis=0),
        N("Gather", ["shp", "i2"], ["d2"], axis=0),
        N("Unsqueeze", ["d0", "ax0"], ["d0v"]),
        N("Unsqueeze", ["d2", "ax0"], ["d2v"]),
        N("Concat", ["d0v", "c4", "d2v"], ["target"], axis=0),
        N("Expand", ["x", "target"], ["expanded"]),
        N("Concat", ["one", "d2v", "one"], ["reps"], axis=0),
        N("Tile", ["x", "reps"], ["tiled"]),
    ]
    inits = [const("i0", 0), const("i2", 2), const("ax0", [0]), const("c4", [4]), const("one", [1])]
    m = make_model(nodes, [tensor("x", ["batch", 1, "seq"])], ["expanded", "tiled"], inits)
    result = analyze_onnx(m)
    assert result.shape("expanded") == (b, 4, s)
    assert result.shape("tiled") == (b, s, s)
    assert_sound(check(m, [{"batch": 2, "seq": 3}, {"batch": 1, "seq": 6}], analysis=result))


def test_matmul_and_gemm_contraction_dims_are_equal():
    nodes = [N("MatMul", ["x", "y"], ["xy"]), N("Gemm", ["p", "q"], ["pq"], transB=1)]
    inputs = [tensor("x", ["batch", "seq", "k"]), tensor("y", ["k2", 16])]
    inputs += [tensor("p", ["m", "kk"]), tensor("q", ["n", "kk2"])]
    m = make_model(nodes, inputs, ["xy", "pq"])
    result = analyze_onnx(m)
    assert result.same_dim(("x", 2), ("y", 0)) is True
    assert result.same_dim(("p", 1), ("q", 1)) is True
    assert result.shape("xy") == (b, s, 16)
    assert result.shape("pq") == (sym("m"), sym("n"))
    assert not result.guards()
    envs = [{"batch": 2, "seq": 3, "k": 5, "k2": 5, "m": 4, "n": 7, "kk": 3, "kk2": 3}]
    assert_sound(check(m, envs, analysis=result))


def test_concat_non_axis_dims_are_equal():
    inputs = [tensor("a", ["p", "q"]), tensor("b", ["r", "q2"])]
    m = make_model([N("Concat", ["a", "b"], ["ab"], axis=0)], inputs, ["ab"])
    result = analyze_onnx(m)
    assert result.same_dim(("a", 1), ("b", 1)) is True
    assert result.shape("ab") == (sym("p") + sym("r"), sym("q"))
    assert_sound(check(m, [{"p": 2, "q": 3, "r": 0, "q2": 3}, {"p": 1, "q": 1, "r": 4, "q2": 1}], analysis=result))


def test_broadcast_of_two_symbols_that_may_be_one_is_not_merged():
    m = make_model([N("Add", ["x", "y"], ["z"])], [tensor("x", ["a", 4]), tensor("y", ["c", 4])], ["z"])
    result = analyze_onnx(m)
    assert result.same_dim(("x", 0), ("y", 0)) is None  # not merged: either may be 1
    assert str(result.shape("z")[0]) == "Max(a, c)*Min(1, a, c)"  # exact for every valid broadcast
    assert result.guards() == []
    samples = [{"a": 1, "c": 5}, {"a": 3, "c": 1}, {"a": 4, "c": 4}, {"a": 0, "c": 1}, {"a": 1, "c": 0}]
    assert_sound(check(m, samples, analysis=result))


def test_broadcast_symbol_against_constant_keeps_constant_without_merging():
    m = make_model([N("Mul", ["x", "y"], ["z"])], [tensor("x", ["a", 4]), tensor("y", [3, 4])], ["z"])
    result = analyze_onnx(m)
    assert result.shape("z") == (3, 4)
    assert result.same_dim(("x", 0), ("z", 0)) is None
    assert not result.guards()
    assert_sound(check(m, [{"a": 1}, {"a": 3}], analysis=result))


def test_broadcast_merges_when_facts_rule_out_one():
    m = make_model([N("Add", ["x", "y"], ["z"])], [tensor("x", ["a", 4]), tensor("y", ["c", 4])], ["z"])
    result = analyze_onnx(m, facts=["a >= 2", "c >= 2"])
    assert result.same_dim(("x", 0), ("y", 0)) is True
    assert not result.guards()


def test_contradiction_names_both_sides():
    nodes = [N("MatMul", ["x", "w"], ["y"], name="layer0/attn/MatMul")]
    m = make_model(nodes, [tensor("x", ["batch", 768])], ["y"], [weight("w", [512, 4])])
    with pytest.raises(
        ContradictionError, match=r"MatMul 'layer0/attn/MatMul'.*dim 1 of 'x' \(768\) must equal dim 0 of 'w' \(512\)"
    ):
        analyze_onnx(m)


def test_malformed_axis_is_a_model_error():
    inputs = [tensor("a", ["p", "q"]), tensor("b", ["r", "q"])]
    m = make_model([N("Concat", ["a", "b"], ["ab"], axis=3)], inputs, ["ab"])
    with pytest.raises(ModelError, match=r"Concat \(node 'Concat_0'\): axis 3 is out of range for rank 2"):
        analyze_onnx(m)


def test_sources_and_classes():
    m = shape_chain_model()
    result = analyze_onnx(m)
    assert result.sources("flat") == [[("x", 0), ("x", 1)], []]
    classes = result.classes()
    sizes = [len(c) for c in classes]
    assert sizes == sorted(sizes, reverse=True)
    batch_class = next(c for c in classes if ("x", 0) in c)
    assert ("heads", 0) in batch_class


def test_later_equality_revisits_an_earlier_broadcast():
    """Add sees a and c (either may be 1); a later Concat proves a == c: the guard goes away."""
    nodes = [N("Add", ["x", "y"], ["z"]), N("Concat", ["x", "y"], ["xy"], axis=1)]
    m = make_model(nodes, [tensor("x", ["a", 4]), tensor("y", ["c", 4])], ["z", "xy"])
    result = analyze_onnx(m)
    assert result.shape("z") == (sym("a"), 4)
    assert result.guards() == []
    assert_sound(check(m, [{"a": 3, "c": 3}, {"a": 1, "c": 1}], analysis=result))


def test_float_constants_fold_into_a_reshape_target():
    """ViT's patch grid: side = Cast(Pow(16.0, 0.5)) -> reshape [batch, side, side, -1]."""
    from onnx import TensorProto

    nodes = [
        N("Constant", [], ["n"], value=helper.make_tensor("n", TensorProto.FLOAT, [], [16.0])),
        N("Constant", [], ["half"], value=helper.make_tensor("h", TensorProto.FLOAT, [], [0.5])),
        N("Pow", ["n", "half"], ["root"]),
        N("Cast", ["root"], ["side"], to=TensorProto.INT64),
        N("Unsqueeze", ["side", "ax0"], ["side1"]),
        N("Shape", ["x"], ["shp"]),
        N("Gather", ["shp", "i0"], ["b"], axis=0),
        N("Unsqueeze", ["b", "ax0"], ["b1"]),
        N("Concat", ["b1", "side1", "side1", "minus1"], ["target"], axis=0),
        N("Reshape", ["x", "target"], ["grid"]),
    ]
    inits = [const("ax0", [0]), const("i0", 0), const("minus1", [-1])]
    m = make_model(nodes, [tensor("x", ["batch", 16, 8])], ["grid"], inits)
    result = analyze_onnx(m)
    assert result.elements("side") == (4,)
    assert result.shape("grid") == (b, 4, 4, 8)
    assert not result.warnings and not result.guards()
    assert_sound(check(m, [{"batch": 2}, {"batch": 1}], analysis=result))


def test_flatten_with_a_negative_axis():
    m = make_model([N("Flatten", ["x"], ["y"], axis=-1)], [tensor("x", ["a", "c", 4])], ["y"])
    result = analyze_onnx(m)
    assert result.shape("y") == (sym("a") * sym("c"), 4)
    assert_sound(check(m, [{"a": 2, "c": 3}, {"a": 1, "c": 0}], analysis=result))


def test_a_computed_reshape_element_that_may_be_zero_is_guarded_not_assumed():
    """[c, -1] with c computed from another input: c == 0 copies dim 0 instead (allowzero=0),
    which ORT accepts, so 'c >= 1' must stay a listed guard, never a fact."""
    nodes = [
        N("Shape", ["y"], ["ys"]),
        N("Slice", ["ys", "zero", "one"], ["c"]),
        N("Concat", ["c", "minus1"], ["t"], axis=0),
        N("Reshape", ["x", "t"], ["out"]),
    ]
    inits = [const("zero", [0]), const("one", [1]), const("minus1", [-1])]
    m = make_model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c"])], ["out"], inits)
    result = analyze_onnx(m)
    assert result.symbols()["c"]["range"] == [0, None]
    assert "c >= 1" in [g[0] for g in result.guards()]
    assert_sound(check(m, [{"a": 2, "b": 6, "c": 3}, {"a": 4, "b": 1, "c": 2}], analysis=result))


def test_an_int32_max_slice_end_means_to_the_end_exactly():
    """onnxruntime reads an end of exactly INT32_MAX as numpy's None: the end of any axis."""
    nodes = [N("Slice", ["x", "starts", "ends", "axes"], ["y"])]
    inits = [const("starts", [1]), const("ends", [2**31 - 1]), const("axes", [1])]
    m = make_model(nodes, [tensor("x", ["a", "n"])], ["y"], inits)
    result = analyze_onnx(m)
    assert [str(d) for d in result.shape("y")] == ["a", "Max(0, n - 1)"]  # exact, also at n = 0
    assert result.guards() == []
    assert_sound(check(m, [{"a": 2, "n": 5}, {"a": 1, "n": 1}, {"a": 1, "n": 0}], analysis=result))
