"""Core rule families (elementwise, shape ops, reshape, linalg) on hand-built graphs.

Each graph is the pattern an exporter emits; the oracle is onnxruntime running it at several
sizes (`symshape.tools.verify`): every dim and every tracked element of a shape tensor must agree.
Expected elements are written out by hand or computed by numpy, never copied from the analysis.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import evaluate
from symshape.algebra.parse import parse_dim
from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.tools.verify import Report, check, make_feeds, run_values
from tests.oracle import assert_sound, const, make_model, tensor
from tests.oracle import check as check_runtime

BIG = 2**63 - 1


def verified(
    tmp_path: Path, m: onnx.ModelProto, envs: Sequence[Mapping[str, int]], facts: Sequence[str] = ()
) -> tuple[Analysis, Report]:
    """Analyze ``m`` and check it against onnxruntime at each assignment, with both the product's
    verifier (``symshape.tools.verify``) and the tests' own oracle."""
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    analysis = analyze_onnx(path, facts=facts)
    report = Report()
    for env in envs:
        values = run_values(path, make_feeds(analysis.program, env))
        report = report.merge(check(analysis, {k: tuple(v.shape) for k, v in values.items()}, env, values))
    assert report.wrong == [] and report.wrong_elements == [], report.summary()
    assert report.excused == [] and report.missing == []
    assert_sound(check_runtime(m, envs, analysis=analysis))
    return analysis, report


def dims(analysis: Analysis, value: str) -> list[str]:
    return [str(d) for d in analysis.shape(value) or ()]


def test_pad_amounts_through_reshape_reverse_transpose(tmp_path: Path) -> None:
    """TorchScript's F.pad: [0, p] + zeros -> Reshape(-1, 2) -> Slice(step -1) -> Transpose ->
    Reshape(-1): the pads vector of a 4-D input, with p = (4 - w % 4) padding the last axis."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "three"], ["w"], axis=0),
        helper.make_node("Mod", ["w", "four"], ["r"]),
        helper.make_node("Sub", ["four", "r"], ["p"]),
        helper.make_node("Unsqueeze", ["p", "zero1"], ["p1"]),
        helper.make_node("Concat", ["zero1", "p1", "zeros6"], ["flat"], axis=0),
        helper.make_node("Reshape", ["flat", "m1_2"], ["pairs"]),
        helper.make_node("Slice", ["pairs", "m1", "minbig", "zero1", "m1"], ["rev"]),
        helper.make_node("Transpose", ["rev"], ["tr"], perm=[1, 0]),
        helper.make_node("Reshape", ["tr", "m1"], ["pads"]),
        helper.make_node("Pad", ["x", "pads"], ["y"], mode="constant"),
    ]
    inits = [const("three", 3), const("four", 4), const("zero1", [0]), const("zeros6", [0] * 6),
             const("m1_2", [-1, 2]), const("m1", [-1]), const("minbig", [-BIG])]
    m = make_model(nodes, [tensor("x", ["n", 3, "h", "w"])], ["y"], inits)
    analysis, report = verified(tmp_path, m, [{"n": 2, "h": 5, "w": 7}, {"n": 3, "h": 6, "w": 8}])
    els = [str(e) for e in analysis.elements("pads") or ()]
    assert els == ["0", "0", "0", "0", "0", "0", "0", "-Mod(w, 4) + 4"]
    assert report.elements_checked > 0


def test_elementwise_elements_broadcast_by_shape(tmp_path: Path) -> None:
    """[2, 1] + [1, 2] tracked constants pair elements by position, not by flat index."""
    a = helper.make_tensor("a", TensorProto.INT64, [2, 1], [1, 2])
    b = helper.make_tensor("b", TensorProto.INT64, [1, 2], [10, 20])
    nodes = [helper.make_node("Add", ["a", "b"], ["c"]),
             helper.make_node("Where", ["cond", "c", "b"], ["d"]),
             helper.make_node("Reshape", ["x", "d4"], ["y"])]
    cond = helper.make_tensor("cond", TensorProto.BOOL, [2, 1], [True, False])
    inits = [a, b, cond, helper.make_tensor("d4", TensorProto.INT64, [2], [-1, 1])]
    analysis, _ = verified(tmp_path, make_model(nodes, [tensor("x", ["n"])], ["y"], inits), [{"n": 3}])
    expected_c = (np.array([[1], [2]]) + np.array([[10, 20]])).reshape(-1).tolist()
    expected_d = np.where(np.array([[True], [False]]), np.array(expected_c).reshape(2, 2),
                          np.array([[10, 20]])).reshape(-1).tolist()
    assert list(analysis.elements("c") or ()) == expected_c
    assert list(analysis.elements("d") or ()) == expected_d


def test_cast_to_bool_and_back_is_zero_or_one(tmp_path: Path) -> None:
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Cast", ["s"], ["b"], to=TensorProto.BOOL),
             helper.make_node("Cast", ["b"], ["i"], to=TensorProto.INT64),
             helper.make_node("Not", ["b"], ["nb"])]
    m = make_model(nodes, [tensor("x", [0, 3, 5])], ["i", "nb"])
    analysis, report = verified(tmp_path, m, [{}])
    assert analysis.elements("i") == (0, 1, 1)
    assert analysis.elements("nb") == (1, 0, 0)
    assert report.elements_checked >= 6


def test_slice_negative_steps_and_clamping(tmp_path: Path) -> None:
    """Reversal with INT64_MIN end, out-of-range starts clamped to n - 1 (static) and a shape
    tensor reversed by a negative step."""
    nodes = [helper.make_node("Slice", ["x", "m1", "minbig", "one", "m1"], ["rev"]),
             helper.make_node("Slice", ["x", "ten", "minbig", "zero", "m2"], ["odd"]),
             helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "ten", "minbig", "zero", "m1"], ["srev"]),
             helper.make_node("Reshape", ["x", "srev"], ["y"])]
    inits = [const("m1", [-1]), const("minbig", [-BIG]), const("one", [1]), const("ten", [10]),
             const("zero", [0]), const("m2", [-2])]
    m = make_model(nodes, [tensor("x", [5, "n"])], ["rev", "odd", "y"], inits)
    analysis, _ = verified(tmp_path, m, [{"n": 3}, {"n": 8}, {"n": 1}])
    assert dims(analysis, "rev") == ["5", "n"]
    assert dims(analysis, "odd") == ["3", "n"]  # rows 4, 2, 0
    assert dims(analysis, "y") == ["n", "5"]


def test_slice_with_a_computed_negative_start(tmp_path: Path) -> None:
    """x[:, -k:] with k read from another input: ``Min(k, n)`` when k >= 1, with no guard (a start
    past the beginning clamps to 0); without the fact (k = 0 starts at 0, not at n) it is exact too."""
    nodes = [helper.make_node("Shape", ["z"], ["zs"]),
             helper.make_node("Neg", ["zs"], ["start"]),
             helper.make_node("Slice", ["x", "start", "big", "one", "one"], ["y"])]
    m = make_model(nodes, [tensor("x", [2, "n"]), tensor("z", ["k"])], ["y"], [const("big", [BIG]), const("one", [1])])
    analysis, _ = verified(tmp_path, m, [{"n": 7, "k": 3}, {"n": 5, "k": 5}], facts=["k >= 1"])
    assert dims(analysis, "y") == ["2", "Min(k, n)"]
    assert analysis.guards() == []
    anyk, _ = verified(tmp_path, m, [{"n": 7, "k": 3}, {"n": 5, "k": 0}, {"n": 2, "k": 5}])
    assert anyk.guards() == [] and not anyk.warnings


def test_split_keeps_the_pieces_of_a_shape_tensor(tmp_path: Path) -> None:
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Split", ["s", "sizes"], ["head", "tail"], axis=0),
             helper.make_node("Concat", ["tail", "head"], ["swapped"], axis=0),
             helper.make_node("Reshape", ["x", "swapped"], ["y"])]
    m = make_model(nodes, [tensor("x", ["a", "b", "c"])], ["y"], [const("sizes", [1, 2])])
    analysis, _ = verified(tmp_path, m, [{"a": 2, "b": 3, "c": 5}])
    assert [str(e) for e in analysis.elements("tail") or ()] == ["b", "c"]
    assert dims(analysis, "y") == ["b", "c", "a"]


def test_einsum_label_of_size_one_broadcasts(tmp_path: Path) -> None:
    """onnxruntime broadcasts a labelled dim of 1: no equality may be derived from it."""
    nodes = [helper.make_node("Einsum", ["a", "b"], ["c"], equation="bij,bjk->bik")]
    m = make_model(nodes, [tensor("a", [1, "i", "j"]), tensor("b", ["n", "j", "k"])], ["c"])
    analysis, _ = verified(tmp_path, m, [{"i": 2, "j": 3, "k": 4, "n": 5}, {"i": 2, "j": 3, "k": 4, "n": 1}])
    assert dims(analysis, "c") == ["n", "i", "k"]


def test_gemm_bias_broadcasts_one_way(tmp_path: Path) -> None:
    nodes = [helper.make_node("Gemm", ["a", "w", "bias"], ["y"], transB=1)]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, [4, 3], [0.0] * 12),
             helper.make_tensor("bias", TensorProto.FLOAT, [1, 4], [0.0] * 4)]
    analysis, _ = verified(tmp_path, make_model(nodes, [tensor("a", ["m", 3])], ["y"], inits), [{"m": 5}, {"m": 1}])
    assert dims(analysis, "y") == ["m", "4"]
    assert analysis.guards() == []


def test_reshape_with_a_computed_target_that_may_be_zero_is_guarded(tmp_path: Path) -> None:
    """A target element read from another input's shape could be 0 (a copy) at run time."""
    nodes = [helper.make_node("Shape", ["z"], ["k"]),
             helper.make_node("Concat", ["k", "m1"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["y"])]
    m = make_model(nodes, [tensor("x", ["a", 6]), tensor("z", ["k"])], ["y"], [const("m1", [-1])])
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    analysis = analyze_onnx(path)
    assert dims(analysis, "y")[0] == "k"
    assert ("k >= 1" in [g[0] for g in analysis.guards()]) or analysis.symbols()["k"]["range"][0] == 1
    values = run_values(path, make_feeds(analysis.program, {"a": 4, "k": 3}))
    assert values["y"].shape == (3, evaluate(analysis.shape("y")[1], {"a": 4, "k": 3}))


def test_float_power_of_constants_gives_an_exact_grid_side(tmp_path: Path) -> None:
    """ViT's ``int(num_positions ** 0.5)``: Pow(16.0, 0.5) -> Cast -> the grid of a reshape."""
    f = TensorProto.FLOAT
    nodes = [helper.make_node("Constant", [], ["n"], value=helper.make_tensor("v", f, [], [16.0])),
             helper.make_node("Constant", [], ["half"], value=helper.make_tensor("h", f, [], [0.5])),
             helper.make_node("Pow", ["n", "half"], ["root"]),
             helper.make_node("Cast", ["root"], ["side"], to=TensorProto.INT64),
             helper.make_node("Sqrt", ["n"], ["root2"]),
             helper.make_node("Cast", ["root2"], ["side2"], to=TensorProto.INT64),
             helper.make_node("Unsqueeze", ["side", "zero"], ["s1"]),
             helper.make_node("Unsqueeze", ["side2", "zero"], ["s2"]),
             helper.make_node("Concat", ["one", "s1", "s2", "m1"], ["target"], axis=0),
             helper.make_node("Reshape", ["pos", "target"], ["grid"]),
             helper.make_node("Add", ["grid", "x"], ["y"])]
    pos = helper.make_tensor("pos", f, [1, 16, 8], [0.0] * 128)
    inits = [pos, const("zero", [0]), const("one", [1]), const("m1", [-1])]
    m = make_model(nodes, [tensor("x", ["b", 4, 4, 8])], ["y"], inits)
    analysis, _ = verified(tmp_path, m, [{"b": 3}, {"b": 1}])
    assert dims(analysis, "grid") == ["1", "4", "4", "8"]
    assert analysis.dim_kinds()["fresh"] == 0


# ------------------------------------------------------------------ relations between atoms
RELATIONS = [  # (name, expression over h >= 0 and X >= 1, provable)
    ("window pad covers the grid", "4*floor(h/16) + 3 - floor(h/4)", True),
    ("one short of covering", "4*floor(h/16) + 2 - floor(h/4)", False),
    ("padded size minus a Mod of it", "X - Mod(-2, X)", True),
    ("Mod may reach X - 1", "X - 2 - Mod(h, X)", False),
    ("h minus its remainder", "h - Mod(h, 4)", True),
    ("two levels of nesting", "16*floor(h/64) + 15 - floor(h/4)", True),
    ("a different numerator", "4*floor((h + 1)/16) + 3 - floor(h/4)", False),
]


@pytest.mark.parametrize(("name", "text", "provable"), RELATIONS, ids=[r[0] for r in RELATIONS])
def test_prove_nonneg_is_sound_and_sees_relations(name: str, text: str, provable: bool) -> None:
    from symshape.engine.constraints import ConstraintGraph, Origin
    from symshape.engine.context import OpContext, State
    from symshape.engine.nonneg import prove_nonneg
    from symshape.engine.program import Op, Program

    graph = ConstraintGraph()
    graph.add_symbol("h", "input", Origin("test", name))
    graph.add_symbol("X", "input", Origin("test", name), lo=1)
    d = parse_dim(text)
    ctx = OpContext(State(graph), Program("test", [], [], {}, []), Op("", "Sub", name, [], []))
    proven = prove_nonneg(ctx, d)
    values = [evaluate(d, {"h": h, "X": x}) for h in range(0, 300) for x in range(1, 12)]
    if proven:
        assert min(values) >= 0  # never claim what a counterexample refutes
    assert proven is provable
    assert (min(values) >= 0) or not provable
