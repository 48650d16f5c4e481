"""`symshape optimize` on small hand-built models: each rewrite fires, the node count drops as
claimed, and onnxruntime (the oracle) gives bitwise-identical outputs at several sizes, 1 and 0
included."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.errors import ModelError, OutputError
from symshape.frontends.onnx.external_data import stored_tensors
from symshape.tools.optimize import optimize_file, optimize_model
from symshape.tools.optimize.summary import shape_nodes
from tests.oracle import const, feeds_for, make_model, tensor
from tests.paths import MODELS

F, I64 = TensorProto.FLOAT, TensorProto.INT64
SIZES = [{"a": 2, "b": 3}, {"a": 5, "b": 7}, {"a": 1, "b": 1}, {"a": 0, "b": 3}, {"a": 3, "b": 0}]


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return [np.asarray(v) for v in session.run(None, feeds)]


def optimized(
    model: onnx.ModelProto, sizes: list[dict[str, int]] = SIZES, facts: tuple[str, ...] = ()
) -> onnx.ModelProto:
    """The optimized model (``facts`` assumed), checked by onnx's full checker and against the
    original at ``sizes``."""
    out, _ = optimize_model(model, facts=facts)
    onnx.checker.check_model(out, full_check=True)
    for env in sizes:
        feeds = feeds_for(model, env)
        for want, got in zip(_run(model, feeds), _run(out, feeds), strict=True):
            assert want.dtype == got.dtype and want.shape == got.shape, env
            assert want.tobytes() == got.tobytes(), env
    return out


def ops(model: onnx.ModelProto) -> Counter[str]:
    return Counter(n.op_type for n in model.graph.node)


def test_reshape_target_from_shape_becomes_one_chain() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
        helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
        helper.make_node("Mul", ["d0", "d1"], ["ab"]),
        helper.make_node("Unsqueeze", ["ab", "ax0"], ["ab1"]),
        helper.make_node("Concat", ["ab1", "four"], ["target"], axis=0),
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Reshape", ["r", "target"], ["y"]),
    ]
    inits = [const("i0", 0), const("i1", 1), const("ax0", [0]), const("four", [4])]
    model = make_model(nodes, [tensor("x", ["a", "b", 4])], [tensor("y", ["a*b", 4])], inits)
    out = optimized(model)
    assert shape_nodes(out) < shape_nodes(model)
    assert ops(out)["Unsqueeze"] == 0 and ops(out)["Shape"] == 1


def test_static_shape_value_becomes_a_constant() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
        helper.make_node("Unsqueeze", ["d1", "ax0"], ["v"]),
        helper.make_node("ConstantOfShape", ["v"], ["y"], value=helper.make_tensor("one", F, [1], [1.0])),
    ]
    model = make_model(nodes, [tensor("x", ["a", 3])], [tensor("y", [3])], [const("i1", 1), const("ax0", [0])])
    out = optimized(model)
    assert shape_nodes(out) == 0 and ops(out) == Counter({"ConstantOfShape": 1})


def test_floor_division_of_a_dim() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
        helper.make_node("Div", ["d1", "two"], ["h"]),
        helper.make_node("Add", ["h", "d1"], ["hh"]),
        helper.make_node("Unsqueeze", ["hh", "ax0"], ["v"]),
        helper.make_node("ConstantOfShape", ["v"], ["y"], value=helper.make_tensor("one", F, [1], [1.0])),
    ]
    inits = [const("i1", 1), const("two", 2), const("ax0", [0])]
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", None)], inits)
    out = optimized(model, [*SIZES, {"a": 2, "b": 5}, {"a": 2, "b": 4}])
    assert ops(out)["Div"] == 1 and ops(out)["Unsqueeze"] == 0


def test_expand_to_own_shape_is_removed() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Expand", ["x", "s"], ["e"]),
        helper.make_node("Relu", ["e"], ["y"]),
    ]
    out = optimized(make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", ["a", "b"])]))
    assert ops(out) == Counter({"Relu": 1})


def test_reshape_to_same_shape_keeps_the_output_name() -> None:
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Shape", ["r"], ["s"]),
        helper.make_node("Reshape", ["r", "s"], ["y"]),
    ]
    out = optimized(make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", ["a", "b"])]))
    assert ops(out) == Counter({"Relu": 1})
    assert out.graph.node[0].output[0] == "y" and out.graph.output[0].name == "y"


def test_identity_and_cast_to_same_type_are_removed() -> None:
    nodes = [
        helper.make_node("Identity", ["x"], ["i"]),
        helper.make_node("Cast", ["i"], ["c"], to=F),
        helper.make_node("Neg", ["c"], ["y"]),
    ]
    out = optimized(make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", ["a", "b"])]))
    assert ops(out) == Counter({"Neg": 1})


def test_squeeze_unsqueeze_pair_cancels() -> None:
    nodes = [
        helper.make_node("Unsqueeze", ["x", "ax0"], ["u"]),
        helper.make_node("Squeeze", ["u", "ax0"], ["q"]),
        helper.make_node("Neg", ["q"], ["y"]),
    ]
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", ["a", "b"])], [const("ax0", [0])])
    assert ops(optimized(model)) == Counter({"Neg": 1})


def test_where_with_proven_condition_takes_its_branch() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
        helper.make_node("Equal", ["d1", "three"], ["cond"]),
        helper.make_node("Where", ["cond", "x", "z"], ["w"]),
        helper.make_node("Neg", ["w"], ["y"]),
    ]
    inits = [const("i1", 1), const("three", 3), helper.make_tensor("z", F, [], [0.0])]
    model = make_model(nodes, [tensor("x", ["a", 3])], [tensor("y", ["a", 3])], inits)
    assert ops(optimized(model)) == Counter({"Neg": 1})


def test_unknown_dims_are_left_alone() -> None:
    nodes = [helper.make_node("NonZero", ["x"], ["nz"]), helper.make_node("Shape", ["nz"], ["y"])]
    model = make_model(nodes, [tensor("x", ["a"])], [tensor("y", [2], I64)])
    out = optimized(model, [{"a": 3}, {"a": 1}, {"a": 0}])
    assert ops(out) == ops(model)


def test_file_keeps_input_and_refuses_bad_input(tmp_path: Path) -> None:
    nodes = [helper.make_node("Identity", ["x"], ["i"]), helper.make_node("Neg", ["i"], ["y"])]
    src = tmp_path / "m.onnx"
    onnx.save(make_model(nodes, [tensor("x", ["a"])], [tensor("y", ["a"])]), src)
    before = src.read_bytes()
    summary, _ = optimize_file(src, tmp_path / "out" / "o.onnx")
    assert src.read_bytes() == before and summary.nodes_after == 1
    with pytest.raises(OutputError, match="refusing to overwrite"):
        optimize_file(src, src)
    junk = tmp_path / "junk.onnx"
    junk.write_text("not a model")
    with pytest.raises(ModelError, match="cannot read it as an ONNX model"):
        optimize_file(junk, tmp_path / "j.onnx")


def test_cli_verify_and_one_line_errors(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from symshape.app.cli import main

    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Expand", ["x", "s"], ["e"]),
        helper.make_node("Neg", ["e"], ["y"]),
    ]
    src = tmp_path / "m.onnx"
    onnx.save(make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", ["a", "b"])]), src)
    result = CliRunner().invoke(main, ["optimize", str(src), "-o", str(tmp_path / "o.onnx"), "--verify"])
    assert result.exit_code == 0, result.output
    assert "outputs identical (bitwise, onnxruntime graph optimizations off)" in result.output
    assert "Expand 1" in result.output
    bad = CliRunner().invoke(main, ["optimize", str(src), "-o", str(src)])
    assert bad.exit_code != 0 and isinstance(bad.exception, OutputError)


def test_unsqueeze_chain_becomes_one() -> None:
    nodes = [
        helper.make_node("Unsqueeze", ["x", "ax1"], ["u1"]),
        helper.make_node("Unsqueeze", ["u1", "axm1"], ["u2"]),
        helper.make_node("Unsqueeze", ["u2", "ax0"], ["u3"]),
        helper.make_node("Neg", ["u3"], ["y"]),
    ]
    inits = [const("ax1", [1]), const("axm1", [-1]), const("ax0", [0])]
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", [1, "a", 1, "b", 1])], inits)
    assert ops(optimized(model)) == Counter({"Unsqueeze": 1, "Neg": 1})


def test_neutral_integer_operands_are_removed() -> None:
    nodes = [
        helper.make_node("Mul", ["x", "one"], ["m"]),
        helper.make_node("Add", ["zero", "m"], ["p"]),
        helper.make_node("Neg", ["p"], ["y"]),
    ]
    inits = [const("one", 1), const("zero", [0])]
    model = make_model(nodes, [tensor("x", ["a", "b"], I64)], [tensor("y", ["a", "b"], I64)], inits)
    assert ops(optimized(model)) == Counter({"Neg": 1})


def test_float_add_of_zero_is_kept() -> None:
    """-0.0 + 0.0 is +0.0: the Add is not a no-op on floats."""
    nodes = [helper.make_node("Add", ["x", "zero"], ["y"])]
    inits = [helper.make_tensor("zero", F, [], [0.0])]
    model = make_model(nodes, [tensor("x", ["a"])], [tensor("y", ["a"])], inits)
    assert ops(optimized(model, [{"a": 3}, {"a": 1}, {"a": 0}])) == Counter({"Add": 1})


def test_rewrites_resting_on_a_guard_are_refused() -> None:
    """Reshape to another input's shape needs ``c >= 1`` and ``d >= 1`` (guards): the Expand after
    it reads guarded inputs, so it stays, and the summary names the guards."""
    nodes = [
        helper.make_node("Shape", ["y"], ["s"]),
        helper.make_node("Reshape", ["x", "s"], ["r"]),
        helper.make_node("Shape", ["r"], ["s2"]),
        helper.make_node("Expand", ["r", "s2"], ["e"]),
        helper.make_node("Neg", ["e"], ["out"]),
    ]
    model = make_model(nodes, [tensor("x", ["a", "b"]), tensor("y", ["c", "d"])], [tensor("out", None)])
    out, summary = optimize_model(model)
    assert ops(out) == ops(model)
    assert summary.guards and summary.refused_for_guards > 0
    assert any("c >= 1" in line for line in summary.lines())


def test_constant_nodes_become_initializers_unless_a_graph_output() -> None:
    value = helper.make_tensor("v", F, [2], [1.5, -2.0])
    nodes = [
        helper.make_node("Constant", [], ["c"], value=value),
        helper.make_node("Constant", [], ["kept"], value=value),
        helper.make_node("Mul", ["x", "c"], ["y"]),
    ]
    model = make_model(nodes, [tensor("x", ["a", 2])], [tensor("y", ["a", 2]), tensor("kept", [2])])
    out = optimized(model, [{"a": 3}, {"a": 1}, {"a": 0}])
    assert ops(out) == Counter({"Constant": 1, "Mul": 1})


def test_repeated_computation_is_merged() -> None:
    """``Range(0, n, 1)`` twice, with equal constants under different names, is computed once."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["n"], axis=0),
        helper.make_node("Range", ["zero_a", "n", "one_a"], ["r1"]),
        helper.make_node("Range", ["zero_b", "n", "one_b"], ["r2"]),
        helper.make_node("Add", ["r1", "r2"], ["y"]),
    ]
    inits = [const("i0", 0), const("zero_a", 0), const("zero_b", 0), const("one_a", 1), const("one_b", 1)]
    model = make_model(nodes, [tensor("x", ["a"])], [tensor("y", ["a"], I64)], inits)
    out = optimized(model, [{"a": 3}, {"a": 1}, {"a": 0}])
    assert ops(out)["Range"] == 1


def test_external_weights_stay_by_reference(tmp_path: Path) -> None:
    import onnxruntime as ort

    from tests.oracle import array

    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Expand", ["x", "s"], ["e"]),
        helper.make_node("MatMul", ["e", "w"], ["y"]),
    ]
    w = array("w", np.arange(12, dtype=np.float32).reshape(4, 3))
    model = make_model(nodes, [tensor("x", ["a", 4])], [tensor("y", ["a", 3])], [w])
    src = tmp_path / "in" / "m.onnx"
    src.parent.mkdir()
    onnx.save(model, str(src), save_as_external_data=True, location="m.data", size_threshold=0)
    out = tmp_path / "o.onnx"  # onnxruntime reads external data only below the model's folder
    optimize_file(src, out)
    assert not (out.parent / "m.data").exists()
    feeds = feeds_for(model, {"a": 2})
    want = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).run(None, feeds)
    got = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"]).run(None, feeds)
    assert want[0].tobytes() == got[0].tobytes()
    assert ops(onnx.load(str(out), load_external_data=False)) == Counter({"MatMul": 1})


def test_external_weights_inside_if_branches_stay_by_reference(tmp_path: Path) -> None:
    """A branch's own initializer and a Constant's tensor attribute, both stored externally, are
    found from the output's folder (the optimizer used to relocate the main graph's only)."""
    import onnxruntime as ort
    from onnx.external_data_helper import convert_model_to_external_data

    from tests.oracle import array

    def branch(name: str, weight: onnx.TensorProto, as_constant: bool) -> onnx.GraphProto:
        nodes = [helper.make_node("MatMul", ["x", weight.name], [f"{name}_y"])]
        if as_constant:
            nodes.insert(0, helper.make_node("Constant", [], [weight.name], value=weight))
        return helper.make_graph(nodes, name, [], [tensor(f"{name}_y", ["a", 3])], [] if as_constant else [weight])

    w_then = array("w_then", np.arange(12, dtype=np.float32).reshape(4, 3))
    w_else = array("w_else", -np.arange(12, dtype=np.float32).reshape(4, 3))
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Expand", ["x", "s"], ["e"]),
        helper.make_node("If", ["c"], ["y"], then_branch=branch("then", w_then, False),
                         else_branch=branch("else", w_else, True)),
        helper.make_node("MatMul", ["e", "w_then_copy"], ["e2"]),
        helper.make_node("Add", ["y", "e2"], ["z"]),
    ]
    inputs = [tensor("x", ["a", 4]), tensor("c", [], TensorProto.BOOL)]
    model = make_model(nodes, inputs, [tensor("z", ["a", 3])], [array("w_then_copy", np.ones((4, 3), np.float32))])
    convert_model_to_external_data(model, location="m.data", size_threshold=0, convert_attribute=True)
    src = tmp_path / "in" / "m.onnx"
    src.parent.mkdir()
    onnx.save(model, str(src))
    out = tmp_path / "o.onnx"  # onnxruntime reads external data only below the model's folder
    optimize_file(src, out)
    locations = {e.value for t in stored_tensors(onnx.load(str(out), load_external_data=False).graph)
                 for e in t.external_data if e.key == "location"}
    assert locations == {"in/m.data"}
    for c in (True, False):
        feeds = {**feeds_for(model, {"a": 2}), "c": np.array(c)}
        want = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).run(None, feeds)
        got = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"]).run(None, feeds)
        assert want[0].tobytes() == got[0].tobytes()


def _dims_vector(source: str, axes: list[int], tail: list[int]) -> list[onnx.NodeProto]:
    """Nodes computing ``[dim(source, a) for a in axes] + tail`` into ``target``, exporter style."""
    nodes = [helper.make_node("Shape", [source], ["s_" + source])]
    parts = []
    for a in axes:
        nodes.append(helper.make_node("Gather", ["s_" + source, f"i{a}"], [f"d{a}_{source}"], axis=0))
        nodes.append(helper.make_node("Unsqueeze", [f"d{a}_{source}", "ax0"], [f"u{a}_{source}"]))
        parts.append(f"u{a}_{source}")
    nodes.append(helper.make_node("Concat", [*parts, "tail"], ["target"], axis=0))
    return nodes


def test_reshape_target_relative_to_its_input_becomes_a_constant() -> None:
    nodes = [*_dims_vector("x", [0, 1], [2, 4]), helper.make_node("Reshape", ["x", "target"], ["y"])]
    inits = [const("i0", 0), const("i1", 1), const("ax0", [0]), const("tail", [2, 4])]
    model = make_model(nodes, [tensor("x", ["a", "b", 8])], [tensor("y", ["a", "b", 2, 4])], inits)
    out = optimized(model)
    assert shape_nodes(out) == 0 and ops(out) == Counter({"Reshape": 1})
    target = next(t for t in out.graph.initializer if t.name == out.graph.node[0].input[1])
    assert onnx.numpy_helper.to_array(target).tolist() == [0, 0, 2, 4]


def test_expand_target_dims_of_the_operand_become_ones() -> None:
    nodes = [*_dims_vector("x", [0, 1], [3]), helper.make_node("Expand", ["x", "target"], ["y"])]
    inits = [const("i0", 0), const("i1", 1), const("ax0", [0]), const("tail", [3])]
    model = make_model(nodes, [tensor("x", ["a", "b", 1])], [tensor("y", ["a", "b", 3])], inits)
    out = optimized(model)
    assert shape_nodes(out) == 0 and ops(out) == Counter({"Expand": 1})


def test_gather_of_row_major_positions_becomes_an_unsqueeze() -> None:
    """``mask[batch_idx, kv_idx]`` as the exporters vectorize it: Flatten, then Gather of
    ``arange(a)[:, None, None, None] * b + arange(b)``, then reshapes back."""
    nodes = [
        helper.make_node("Shape", ["m"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["na"], axis=0),
        helper.make_node("Gather", ["s", "i1"], ["nb"], axis=0),
        helper.make_node("Range", ["zero", "na", "one"], ["ra"]),
        helper.make_node("Range", ["zero", "nb", "one"], ["rb"]),
        helper.make_node("Unsqueeze", ["ra", "ax123"], ["ua"]),
        helper.make_node("Unsqueeze", ["rb", "ax012"], ["ub"]),
        helper.make_node("Mul", ["ua", "nb"], ["rows"]),
        helper.make_node("Add", ["ub", "rows"], ["idx"]),
        helper.make_node("Flatten", ["m"], ["flat"], axis=2),
        helper.make_node("Gather", ["flat", "idx"], ["g"], axis=0),
        helper.make_node("Shape", ["idx"], ["si"]),
        helper.make_node("Reshape", ["g", "minus1"], ["g1"]),
        helper.make_node("Reshape", ["g1", "si"], ["y"]),
    ]
    inits = [const("i0", 0), const("i1", 1), const("zero", 0), const("one", 1), const("ax123", [1, 2, 3]),
             const("ax012", [0, 1, 2]), const("minus1", [-1])]
    model = make_model(nodes, [tensor("m", ["a", "b"])], [tensor("y", ["a", 1, 1, "b"])], inits)
    # at b = 0 the last Reshape copies a dim its input lacks: the model needs b >= 1
    out = optimized(model, [env for env in SIZES if env["b"]], facts=("b >= 1",))
    assert ops(out) == Counter({"Unsqueeze": 1}) and shape_nodes(out) == 0


def test_gather_of_other_indices_is_kept() -> None:
    """Indices ``b * a + a-index`` (the wrong stride) are not the positions: the Gather stays."""
    nodes = [
        helper.make_node("Shape", ["m"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["na"], axis=0),
        helper.make_node("Gather", ["s", "i1"], ["nb"], axis=0),
        helper.make_node("Range", ["zero", "na", "one"], ["ra"]),
        helper.make_node("Range", ["zero", "nb", "one"], ["rb"]),
        helper.make_node("Unsqueeze", ["ra", "ax1"], ["ua"]),
        helper.make_node("Unsqueeze", ["rb", "ax0"], ["ub"]),
        helper.make_node("Mul", ["ub", "na"], ["cols"]),
        helper.make_node("Add", ["ua", "cols"], ["idx"]),
        helper.make_node("Flatten", ["m"], ["flat"], axis=2),
        helper.make_node("Gather", ["flat", "idx"], ["y"], axis=0),
    ]
    inits = [const("i0", 0), const("i1", 1), const("zero", 0), const("one", 1), const("ax1", [1]),
             const("ax0", [0])]
    model = make_model(nodes, [tensor("m", ["a", "b"])], [tensor("y", ["a", "b", 1])], inits)
    out = optimized(model)
    assert ops(out)["Gather"] >= 1 and ops(out)["Range"] == 2


def test_reshape_chain_reads_its_root() -> None:
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"], axis=1),
        helper.make_node("Reshape", ["f", "minus1"], ["g"]),
        helper.make_node("Unsqueeze", ["g", "ax0"], ["y"]),
    ]
    inits = [const("minus1", [-1]), const("ax0", [0])]
    model = make_model(nodes, [tensor("x", ["a", "b", 2])], [tensor("y", [1, "a*b*2"])], inits)
    out = optimized(model)
    assert ops(out) == Counter({"Relu": 1, "Reshape": 1, "Unsqueeze": 1})  # the Flatten goes
    assert next(n for n in out.graph.node if n.op_type == "Reshape").input[0] == "r"


def test_float_mul_by_one_of_an_arithmetic_result_is_removed() -> None:
    """x * 1.0 is x bit for bit unless x is a signaling NaN, which no arithmetic op delivers;
    special values (-0.0, inf, NaN) are fed to make sure."""
    nodes = [
        helper.make_node("Mul", ["x", "x"], ["sq"]),
        helper.make_node("Mul", ["ones", "sq"], ["y"]),
        helper.make_node("Div", ["x", "ones"], ["z"]),  # x is an input (may be a signaling NaN): kept
    ]
    inits = [helper.make_tensor("ones", F, [3], [1.0, 1.0, 1.0])]
    model = make_model(nodes, [tensor("x", ["a", 3])], [tensor("y", ["a", 3]), tensor("z", ["a", 3])], inits)
    out = optimized(model)
    assert ops(out) == Counter({"Mul": 1, "Div": 1})
    specials = np.array([[-0.0, np.inf, np.nan], [-np.inf, 0.0, -1.5]], np.float32)
    feeds = {"x": specials}
    for want, got in zip(_run(model, feeds), _run(out, feeds), strict=True):
        assert want.tobytes() == got.tobytes()


def test_mul_by_a_non_unit_is_kept() -> None:
    nodes = [helper.make_node("Mul", ["x", "x"], ["sq"]), helper.make_node("Mul", ["sq", "w"], ["y"])]
    inits = [helper.make_tensor("w", F, [3], [1.0, 1.0, 0.5])]
    model = make_model(nodes, [tensor("x", ["a", 3])], [tensor("y", ["a", 3])], inits)
    assert ops(optimized(model)) == Counter({"Mul": 2})


def _gelu_between_views(scale: onnx.TensorProto) -> onnx.ModelProto:
    """``Gemm -> Reshape [a, b, 4] -> x * tanh(x) * scale -> Reshape [-1, 4] -> Relu``."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        *_dims_vector("x3", [0, 1], [4]),
        helper.make_node("Reshape", ["r", "target"], ["v"]),
        helper.make_node("Tanh", ["v"], ["t"]),
        helper.make_node("Mul", ["v", "t"], ["m"]),
        helper.make_node("Mul", ["m", "scale"], ["ms"]),
        helper.make_node("Reshape", ["ms", "flat"], ["back"]),
        helper.make_node("Relu", ["back"], ["y"]),
    ]
    inits = [const("i0", 0), const("i1", 1), const("ax0", [0]), const("tail", [4]), const("flat", [-1, 4]), scale]
    inputs = [tensor("x", ["n", 4]), tensor("x3", ["a", "b", 4])]
    return make_model(nodes, inputs, [tensor("y", ["n", 4])], inits)


def test_elementwise_computation_between_views_runs_on_the_source() -> None:
    model = _gelu_between_views(helper.make_tensor("scale", F, [4], [0.5, 1.5, 2.0, 3.0]))
    sizes = [{"a": a, "b": b, "n": a * b} for a, b in ((2, 3), (1, 1), (0, 3))]
    out = optimized(model, sizes, facts=("n == a*b", "b >= 1"))  # b = 0: the first Reshape copies a 4
    assert ops(out)["Reshape"] == 0 and ops(out)["Shape"] == 0
    onnx.checker.check_model(out, full_check=True)


def test_constant_that_broadcasts_differently_keeps_the_views() -> None:
    """A [b, 1]-like constant pairs different elements in the two views: the reshapes stay."""
    model = _gelu_between_views(helper.make_tensor("scale", F, [3, 1], [0.5, 1.5, 2.0]))
    out = optimized(model, [{"a": 2, "b": 3, "n": 6}, {"a": 1, "b": 3, "n": 3}], facts=("b == 3", "n == a*b"))
    assert ops(out)["Reshape"] == 2


def test_filled_operand_that_does_not_set_the_shape_becomes_a_scalar() -> None:
    """``Min(r, ConstantOfShape(shape(r), 2))`` is ``Min(r, 2)``; the fill that does set the
    shape (broadcast against a smaller operand) stays."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("ConstantOfShape", ["s"], ["two"], value=helper.make_tensor("v", F, [1], [2.0])),
        helper.make_node("Min", ["r", "two"], ["y"]),
        helper.make_node("Add", ["row", "two"], ["z"]),
    ]
    inits = [helper.make_tensor("row", F, [1], [0.5])]
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("y", ["a", "b"]), tensor("z", ["a", "b"])], inits)
    out = optimized(model)
    assert ops(out)["ConstantOfShape"] == 1
    assert next(n for n in out.graph.node if n.op_type == "Min").input[1] != "two"


def test_type_inference_child_forked_or_not_gives_onnx_types() -> None:
    """The forked child (a fresh process: no onnxruntime loaded, one thread) and the interpreter
    child (this process: onnxruntime may be loaded) both give onnx's own inferred types."""
    import subprocess
    import sys

    from symshape.frontends.onnx.reader import elem_types
    from symshape.tools.optimize.types import TypeInference

    path = MODELS / "bert_ts.onnx"
    assert TypeInference(onnx.load(str(path))).types() == elem_types(onnx.load(str(path)))
    script = (
        "import sys, onnx\n"
        "from symshape.forking import fork_safe\nfrom symshape.tools.optimize.types import TypeInference\n"
        "from symshape.frontends.onnx.reader import elem_types\n"
        f"m = onnx.load({str(path)!r})\n"
        "assert fork_safe()\n"
        "assert TypeInference(m).types() == elem_types(m)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_reshape_with_allowzero_keeps_its_computed_target() -> None:
    """With ``allowzero`` 1 a ``0`` is a zero, not a copy: the target is not made relative."""
    nodes = [*_dims_vector("x", [0, 1], [2, 4]), helper.make_node("Reshape", ["x", "target"], ["y"], allowzero=1)]
    inits = [const("i0", 0), const("i1", 1), const("ax0", [0]), const("tail", [2, 4])]
    model = make_model(nodes, [tensor("x", ["a", "b", 8])], [tensor("y", ["a", "b", 2, 4])], inits)
    out = optimized(model)
    target = next(n for n in out.graph.node if n.op_type == "Reshape").input[1]
    assert target not in {t.name for t in out.graph.initializer}  # still computed from the shape


def test_chain_target_that_copies_a_dim_keeps_its_direct_input() -> None:
    """``Reshape(Flatten(x), [0, 2, -1])``: the ``0`` copies a dim of the Flatten's output, so the
    Reshape may not read ``x`` with that target."""
    nodes = [
        helper.make_node("Flatten", ["x"], ["f"], axis=1),
        helper.make_node("Reshape", ["f", "t"], ["y"]),
    ]
    model = make_model(nodes, [tensor("x", ["a", "b", 2])], [tensor("y", ["a", 2, "b"])], [const("t", [0, 2, -1])])
    out = optimized(model, [env for env in SIZES if env["a"]])  # a = 0: onnxruntime cannot infer the -1
    assert next(n for n in out.graph.node if n.op_type == "Reshape").input[0] == "f"


def test_forked_and_in_process_runs_write_the_same_model() -> None:
    """In a fresh interpreter (no onnxruntime: forks are safe) the type inference and the shape
    writing run in forked children; with onnxruntime loaded they run in process and in an
    interpreter child. Both give the same bytes."""
    import subprocess
    import sys

    path = MODELS / "gpt2_past_ts.onnx"
    script = (
        "import onnx\n"
        "from symshape.tools.optimize import optimize_model\n"
        "from symshape.forking import fork_safe\n"
        f"m = onnx.load({str(path)!r})\n"
        "assert fork_safe()\n"
        "forked, _ = optimize_model(m)\n"
        "import onnxruntime\n"
        "assert not fork_safe()\n"
        "here, _ = optimize_model(m)\n"
        "assert forked.SerializeToString() == here.SerializeToString()\n"
        "assert len(forked.graph.value_info) > 50\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
