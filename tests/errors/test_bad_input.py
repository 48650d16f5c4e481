"""Bad input gets a clear error, never a traceback: malformed ONNX models, MLIR text, user facts
and command-line values each give a `SymshapeError` naming the op / value, what was expected and
what to do; the command line prints it as one ``error: ...`` line with exit status 1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_file, analyze_onnx
from symshape.errors import ExpressionSyntaxError, ModelError, UserFactError
from symshape.tools.mlir_passes.pipeline import PASSES
from tests.oracle import const, make_model, tensor
from tests.paths import ROOT

N = helper.make_node
F = TensorProto.FLOAT


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    root = ROOT  # this checkout's sources, then `tests` itself
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
    return subprocess.run(
        [sys.executable, "-m", "symshape", *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def assert_clean_error(proc: subprocess.CompletedProcess[str], message: str, status: int = 2) -> None:
    """Exit ``status`` (2: bad input), one ``error:`` line containing ``message``, no traceback."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == status, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert message in lines[0], proc.stderr


@pytest.fixture
def small(tmp_path: Path) -> Path:
    m = make_model([N("Reshape", ["x", "t"], ["y"])], [tensor("x", ["batch", "seq", 8])], ["y"], [const("t", [-1, 8])])
    path = tmp_path / "small.onnx"
    onnx.save(m, path)
    return path


# ------------------------------------------------------------------ unreadable files


def test_empty_file_is_a_model_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.onnx"
    path.write_bytes(b"")
    pattern = "file '.*empty.onnx': the file is empty, expected .*; give the path of an .onnx model"
    with pytest.raises(ModelError, match=pattern):
        analyze_onnx(path)


def test_truncated_and_garbage_files_are_model_errors(tmp_path: Path, small: Path) -> None:
    truncated = tmp_path / "truncated.onnx"
    truncated.write_bytes(small.read_bytes()[:40])
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(bytes(range(256)) * 4)
    for path in (truncated, garbage):
        with pytest.raises(ModelError, match="file '.*': cannot read it as an ONNX model .*not truncated"):
            analyze_onnx(path)


def test_directory_is_a_model_error(tmp_path: Path) -> None:
    folder = tmp_path / "model.onnx"
    folder.mkdir()
    pattern = "file '.*model.onnx': it is a directory, expected .*; give the path of an .onnx model file"
    with pytest.raises(ModelError, match=pattern):
        analyze_file(folder)


def test_model_proto_without_graph() -> None:
    with pytest.raises(ModelError, match="the model: it has no graph"):
        analyze_onnx(onnx.ModelProto())


def test_cli_prints_one_line_for_a_garbage_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.onnx"
    path.write_text("hello, not a model\n")
    assert_clean_error(run_cli("analyze", str(path)), "cannot read")


# ------------------------------------------------------------------ graph structure


def test_node_reading_an_undefined_value() -> None:
    m = make_model([N("Relu", ["nope"], ["y"])], [tensor("x", ["a"])], ["y"])
    with pytest.raises(ModelError, match=r"Relu \(node 'Relu_0'\): input 'nope' is used before any node produces it"):
        analyze_onnx(m)


def test_nodes_out_of_order() -> None:
    m = make_model([N("Relu", ["t"], ["y"]), N("Relu", ["x"], ["t"])], [tensor("x", ["a"])], ["y"])
    pattern = "input 't' is used before any node produces it, expected .*the graph is not topolog"
    with pytest.raises(ModelError, match=pattern):
        analyze_onnx(m)


def test_undefined_value_inside_a_subgraph() -> None:
    def branch(src: str, out: str) -> onnx.GraphProto:
        return helper.make_graph([N("Relu", [src], [out])], out, [], [helper.make_tensor_value_info(out, F, None)])

    node = N("If", ["c"], ["y"], then_branch=branch("ghost", "t"), else_branch=branch("x", "e"))
    inputs = [helper.make_tensor_value_info("c", TensorProto.BOOL, []), helper.make_tensor_value_info("x", F, ["a"])]
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info("y", F, None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ModelError, match=r"node 'If_0/then_branch/Relu_0'\): input 'ghost' is used before"):
        analyze_onnx(m)


def test_a_value_assigned_twice() -> None:
    m = make_model([N("Relu", ["x"], ["y"]), N("Sigmoid", ["x"], ["y"])], [tensor("x", ["a"])], ["y"])
    with pytest.raises(ModelError, match="Sigmoid .*output 'y' is already assigned by node 'Relu_0'"):
        analyze_onnx(m)


def test_a_node_overwriting_a_graph_input() -> None:
    m = make_model([N("Relu", ["x"], ["x"])], [tensor("x", ["a"])], ["x"])
    with pytest.raises(ModelError, match="output 'x' is already assigned by a graph input or initializer"):
        analyze_onnx(m)


def test_duplicate_graph_inputs() -> None:
    inputs = [helper.make_tensor_value_info("x", F, ["a"]), helper.make_tensor_value_info("x", F, [3])]
    graph = helper.make_graph([N("Relu", ["x"], ["y"])], "g", inputs, [helper.make_tensor_value_info("y", F, None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ModelError, match="declares the input 'x' twice"):
        analyze_onnx(m)


def test_graph_output_that_nothing_produces() -> None:
    pattern = "graph 'test': graph output 'zz' is not a graph input, an initializer or the output"
    with pytest.raises(ModelError, match=pattern):
        analyze_onnx(make_model([], [tensor("x", ["a"])], ["zz"]))


def test_graphs_that_are_legal_but_odd() -> None:
    """No nodes, an output that is an input: not errors."""
    result = analyze_onnx(make_model([], [tensor("x", ["a", 2])], ["x"]))
    assert [str(d) for d in result.shape("x")] == ["a", "2"]


# ------------------------------------------------------------------ schema checks


@pytest.mark.parametrize(
    ("node", "message"),
    [
        (N("Softmax", ["x"], ["y"], axis=1.5), r"Softmax \(node 'Softmax_0'\): attribute 'axis' is a float \(1.5\), "
         "expected an int"),
        (N("Concat", ["x", "x"], ["y"], axis="one"), "attribute 'axis' is a string \\('one'\\), expected an int"),
        (N("Flatten", ["x"], ["y"], axis="one"), "attribute 'axis' is a string"),
        (N("Gather", ["x", "t"], ["y"], axis=[0, 1]), "attribute 'axis' is a list of ints"),
        (N("Transpose", ["x"], ["y"], perm="10"), "attribute 'perm' is a string \\('10'\\), expected a list of ints"),
        (N("Conv", ["x4", "w"], ["y"], strides=[1.5, 2.0]), "attribute 'strides' is a list of floats"),
        (N("Conv", ["x4", "w"], ["y"], pads="same"), "attribute 'pads' is a string"),
        (N("Concat", ["x", "x"], ["y"]), r"Concat \(node 'Concat_0'\): the axis attribute is required but missing, "
         "expected an int"),
        (N("Cast", ["x"], ["y"]), "the to attribute is required"),
        (N("Einsum", ["x"], ["y"]), "the equation attribute is required"),
        (N("If", ["c"], ["y"]), "the else_branch attribute is required but missing, expected a graph"),
        (N("Loop", ["", "c", "x"], ["y"]), "the body attribute is required but missing, expected a graph"),
        (N("Add", ["x"], ["y"]), r"Add \(node 'Add_0'\): the required input #1 \('B'\) is missing"),
        (N("Reshape", ["x"], ["y"]), "the required input #1 \\('shape'\\) is missing"),
        (N("Gather", ["x", ""], ["y"]), "the required input #1 \\('indices'\\) is missing"),
        (N("Relu", ["x", "x", "x"], ["y"]), r"Relu \(node 'Relu_0'\): 3 inputs, expected at most 1"),
        (N("Split", ["x"], [], axis=0), r"Split \(node 'Split_0'\): 0 outputs, expected at least 1"),
        (N("Relu", ["x"], ["y", "z"]), r"Relu \(node 'Relu_0'\): 2 outputs, expected 1"),
        (N("Reshape", ["x", "f"], ["y"]), r"input #1 'f' \('shape'\) is float, expected one of: int64; cast it"),
        (N("Reshape", ["x", "i32"], ["y"]), "input #1 'i32' \\('shape'\\) is int32, expected one of: int64"),
        (N("Slice", ["x", "f", "f"], ["y"]), "input #1 'f' \\('starts'\\) is float, expected one of: int32, int64"),
    ],
)
def test_node_that_does_not_fit_its_schema(node: onnx.NodeProto, message: str) -> None:
    inits = [
        const("f", [1, 2], TensorProto.FLOAT),
        const("i32", [-1, 2], TensorProto.INT32),
        helper.make_tensor("w", F, [3, 2, 1, 1], [0.0] * 6),
    ]
    inputs = [
        helper.make_tensor_value_info("x", F, ["a", 2]),
        helper.make_tensor_value_info("x4", F, [1, 2, "h", "w"]),
        helper.make_tensor_value_info("c", TensorProto.BOOL, []),
    ]
    outputs = [helper.make_tensor_value_info(o, F, None) for o in node.output]
    graph = helper.make_graph([node], "g", inputs, outputs, inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ModelError, match=message):
        analyze_onnx(m)


def test_einsum_output_label_missing_from_the_inputs() -> None:
    m = make_model([N("Einsum", ["x"], ["y"], equation="ij->k")], [tensor("x", ["a", 2])], ["y"])
    with pytest.raises(ModelError, match="equation 'ij->k': output label\\(s\\) k appear in no input term"):
        analyze_onnx(m)


def test_einsum_term_count_differs_from_the_inputs() -> None:
    m = make_model([N("Einsum", ["x"], ["y"], equation="ij,jk->ik")], [tensor("x", ["a", 2])], ["y"])
    pattern = r"equation 'ij,jk->ik' has 2 input term\(s\) for 1 input\(s\), expected one term per input \(1\)"
    with pytest.raises(ModelError, match=pattern):
        analyze_onnx(m)


def test_custom_domain_ops_are_not_schema_checked() -> None:
    m = make_model([N("Foo", ["x"], ["y"], domain="my.dom", axis="anything")], [tensor("x", ["a"])], ["y"])
    m.opset_import.append(helper.make_opsetid("my.dom", 1))
    result = analyze_onnx(m)
    assert [w.op_type for w in result.warnings] == ["Foo"]


def test_old_opset_model_is_read_with_its_own_schemas() -> None:
    """Upsample-7 takes its scales as an attribute (a later opset's input form would be an error)."""
    node = N("Upsample", ["x"], ["y"], scales=[1.0, 1.0, 2.0, 2.0])
    result = analyze_onnx(make_model([node], [tensor("x", [1, 2, "h", "w"])], ["y"], opset=7))
    assert [str(d) for d in result.shape("y")] == ["1", "2", "2*h", "2*w"]


# ------------------------------------------------------------------ initializers


def _reshape_with(init: onnx.TensorProto) -> onnx.ModelProto:
    return make_model([N("Reshape", ["x", "s"], ["y"])], [tensor("x", ["a", 2])], ["y"], [init])


def test_initializer_with_wrong_raw_data_size() -> None:
    t = helper.make_tensor("s", TensorProto.INT64, [2], [1, 2])
    del t.int64_data[:]
    t.raw_data = b"\0" * 5
    pattern = r"initializer 's': the tensor \(int64, dims \[2\]\) has 5 bytes of raw_data, expected 16 bytes"
    with pytest.raises(ModelError, match=pattern):
        analyze_onnx(_reshape_with(t))


def test_initializer_with_too_few_values() -> None:
    t = helper.make_tensor("s", TensorProto.INT64, [2], [1, 2])
    t.dims[:] = [3]
    with pytest.raises(ModelError, match="stores 2 values in int64_data, expected 3 values"):
        analyze_onnx(_reshape_with(t))


def test_initializer_with_negative_dims_or_unknown_type() -> None:
    t = helper.make_tensor("s", TensorProto.INT64, [2], [1, 2])
    t.dims[:] = [-3]
    with pytest.raises(ModelError, match=r"initializer 's': the tensor has negative dims \[-3\]"):
        analyze_onnx(_reshape_with(t))
    t = helper.make_tensor("s", TensorProto.INT64, [2], [1, 2])
    t.data_type = 999
    with pytest.raises(ModelError, match="initializer 's': the tensor has the unknown element type 999"):
        analyze_onnx(_reshape_with(t))


def test_initializer_without_data_is_allowed() -> None:
    """Weight-stripped models (dims only) are fine: contents are only read for small ints."""
    w = helper.make_tensor("w", F, [2, 3], [0.0] * 6)
    del w.float_data[:]
    result = analyze_onnx(make_model([N("MatMul", ["x", "w"], ["y"])], [tensor("x", ["a", 2])], ["y"], [w]))
    assert [str(d) for d in result.shape("y")] == ["a", "3"]


# ------------------------------------------------------------------ odd input types


def test_odd_dim_params_become_symbols() -> None:
    inputs = [tensor("x", ["batch size", "长度"]), tensor("z", ["batch size", 1])]
    m = make_model([N("Add", ["x", "z"], ["y"])], inputs, ["y"])
    result = analyze_onnx(m)
    assert [str(d) for d in result.shape("y")] == ["batch_size", "长度"]


def test_non_tensor_inputs_are_unknown_not_a_crash() -> None:
    seq = helper.make_tensor_sequence_value_info("s", F, ["a"])
    opt = onnx.ValueInfoProto(name="o")
    opt.type.optional_type.elem_type.tensor_type.elem_type = F
    untyped = onnx.ValueInfoProto(name="u")
    nodes = [N("SequenceLength", ["s"], ["n"]), N("OptionalGetElement", ["o"], ["e"]), N("Relu", ["u"], ["r"])]
    graph = helper.make_graph(nodes, "g", [seq, opt, untyped], [helper.make_tensor_value_info("r", F, None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    result = analyze_onnx(m)
    assert result.shape("r") is None
    assert {w.op_type for w in result.warnings} == {"SequenceLength", "OptionalGetElement", "Relu"}


# ------------------------------------------------------------------ user facts


@pytest.mark.parametrize(
    ("fact", "error", "message"),
    [
        ("==", UserFactError, "user fact '==': the left side of the relation is empty"),
        ("batch <= ", UserFactError, "user fact 'batch <= ': the right side of the relation is empty"),
        ("a +", UserFactError, "user fact 'a \\+': it is not a relation"),
        ("batch + == 3", ExpressionSyntaxError,
         "user fact 'batch \\+ == 3': in its left side 'batch \\+', found 'end of input', expected 'more input'"),
        ("batch**1000 == 3", ExpressionSyntaxError, "the power 1000 is larger than 64"),
        ("batch == 10**100000", ExpressionSyntaxError, "the power 100000 is larger than 64"),
        ("seq=5..2", UserFactError, "user fact 'seq=5..2': the range 5..2 is empty, expected LO..HI with LO <= HI"),
        ("seq=a..b", UserFactError, "user fact 'seq=a..b': it is not a range, expected NAME=LO..HI with integer ends"),
        ("seq~=", UserFactError, "likely values are not a list of sizes, expected NAME~=V1,V2,... with integers >= 0"),
        ("seq~=a,b", UserFactError, "likely values are not a list of sizes, expected NAME~=V1,V2"),
        ("nosuch=1..2", UserFactError,
         "names 'nosuch', which is not a symbol of this program, expected one of the known input symbols: batch, seq"),
    ],
)
def test_bad_user_facts(small: Path, fact: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        analyze_onnx(small, facts=[fact])


def test_huge_constants_in_facts_are_fine(small: Path) -> None:
    result = analyze_onnx(small, facts=["batch <= 99999999999999999999999999999999", "seq=1.."])
    assert result.graph.facts.get("seq").lo == 1


# ------------------------------------------------------------------ command line


def test_cli_bad_facts_are_one_line(small: Path) -> None:
    assert_clean_error(run_cli("analyze", str(small), "--dim", "seq=5..2"), "--dim 'seq=5..2': the range 5..2 is empty")
    assert_clean_error(
        run_cli("analyze", str(small), "--likely", "seq=x"),
        "--likely 'seq=x': the likely values are not a list of sizes, expected NAME=V1,V2",
    )
    assert_clean_error(run_cli("analyze", str(small), "--assume", "=="), "the left side of the relation is empty")


def test_cli_json_to_an_unwritable_path(small: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = run_cli("analyze", str(small), "--json", str(blocker / "out.json"))  # a file used as a directory
    assert_clean_error(proc, f"output '{blocker / 'out.json'}': cannot write it")
    assert blocker.read_text() == "x"


def test_cli_json_to_a_directory_is_a_usage_error(small: Path, tmp_path: Path) -> None:
    proc = run_cli("analyze", str(small), "--json", str(tmp_path))
    assert proc.returncode == 2 and "is a directory" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_never_overwrites_the_input(small: Path, tmp_path: Path) -> None:
    before = small.read_bytes()
    (tmp_path / "sub").mkdir()
    link = tmp_path / "sub" / "link.onnx"
    link.symlink_to(small)
    for args in (
        ["annotate", "small.onnx", "-o", "./sub/../small.onnx"],
        ["annotate", "small.onnx", "-o", "sub/link.onnx"],
        ["annotate", "sub/link.onnx", "-o", "small.onnx"],
        ["analyze", "small.onnx", "--json", "sub/../small.onnx"],
    ):
        assert_clean_error(run_cli(*args, cwd=tmp_path), "refusing to overwrite the input file")
    assert small.read_bytes() == before


def test_annotate_api_refuses_to_overwrite_through_a_symlink(small: Path, tmp_path: Path) -> None:
    from symshape.errors import OutputError
    from symshape.tools.annotate import annotate_file

    link = tmp_path / "link.onnx"
    link.symlink_to(small)
    with pytest.raises(OutputError, match="refusing to overwrite the input model"):
        annotate_file(small, link)


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ("batch=x", "--size 'batch=x': not a list of sizes, expected NAME=V1,V2,... with sizes >= 0"),
        ("batch", "--size 'batch': not a list of sizes, expected NAME=V1,V2"),
        ("=3", "--size '=3': not a list of sizes, expected NAME=V1,V2"),
        ("batch=-3", "--size 'batch=-3': not a list of sizes, expected NAME=V1,V2"),
        ("nosuch=3", "--size 'nosuch=3': names 'nosuch', which is not an input symbol, expected one of the input "
         "symbols: batch, seq"),
        ("seq=3", "--size 'seq=3': seq=3 is excluded by the facts on seq, expected a size in \\[4, inf\\]"),
    ],
)
def test_cli_verify_bad_sizes(small: Path, size: str, message: str) -> None:
    proc = run_cli("verify", str(small), "--size", size, "--dim", "seq=4..")
    assert "Traceback" not in proc.stderr and proc.returncode == 2, proc.stderr
    assert re.search(message, proc.stderr), proc.stderr


def test_cli_verify_needs_a_positive_sample_count(small: Path) -> None:
    proc = run_cli("verify", str(small), "-n", "0")
    assert proc.returncode == 2 and "0 is not in the range x>=1" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_last_resort_names_the_op_and_asks_for_a_report(tmp_path: Path) -> None:
    """A bug in a rule (simulated: a rule that divides by zero) is one line, not a traceback."""
    path = tmp_path / "boom.onnx"
    m = make_model([N("Boom", ["x"], ["y"], domain="test.bug", name="kaboom")], [tensor("x", ["a"])], ["y"])
    m.opset_import.append(helper.make_opsetid("test.bug", 1))
    onnx.save(m, path)
    script = (
        "import sys\n"
        "from symshape.rules.registry import register\n"
        "register('test.bug', 'Boom')(lambda ctx: 1 // 0)\n"
        f"sys.argv = ['symshape', 'analyze', {str(path)!r}]\n"
        "from symshape.app.cli import run\n"
        "run()\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert_clean_error(
        proc, "internal error while analyzing test.bug::Boom (node 'kaboom'): ZeroDivisionError: integer division",
        status=3,  # a bug, not bad input
    )
    assert "please report it" in proc.stderr


# ------------------------------------------------------------------ MLIR

_ADD = """func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
"""


def _mlir(tmp_path: Path, text: str | bytes, name: str = "m.mlir") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_mlir_syntax_error_is_one_line_with_the_position(tmp_path: Path) -> None:
    path = _mlir(tmp_path, _ADD.replace("tensor<?x4xf32>\n  return", "tensor<?x4xf32\n  return"))
    with pytest.raises(ModelError, match=r"file '.*m.mlir': cannot parse it at line 3, column 3 \('return %0 : tensor"):
        analyze_file(path)
    proc = run_cli("analyze", str(path))
    assert_clean_error(proc, "Expected '>' after builtin parameter list, expected MLIR that parses: every op")


def test_mlir_unknown_op_in_pretty_form(tmp_path: Path) -> None:
    path = _mlir(tmp_path, _ADD.replace("stablehlo.add %arg0, %arg0", "foo.bar %arg0"))
    with pytest.raises(ModelError, match="line 2, column .*does not have a custom format.*print the module in generic"):
        analyze_file(path)


def test_mlir_unknown_op_in_generic_form_is_a_warning(tmp_path: Path) -> None:
    text = _ADD.replace("stablehlo.add %arg0, %arg0 : tensor<?x4xf32>",
                        '"foo.bar"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>')
    result = analyze_file(_mlir(tmp_path, text))
    assert [w.op_type for w in result.warnings] == ["bar"]


def test_mlir_without_a_function_body(tmp_path: Path) -> None:
    for text in ("func.func private @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32>\n", "", "module {}\n"):
        with pytest.raises(ModelError, match="it defines no function with a body, expected at least one "
                                             "func.func with a body; nothing to analyze"):
            analyze_file(_mlir(tmp_path, text))


def test_mlir_type_mismatch_is_a_contradiction(tmp_path: Path) -> None:
    from symshape.errors import ContradictionError

    text = """func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x5xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<?x4xf32>, tensor<?x5xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
"""
    with pytest.raises(ContradictionError, match="dim 1 of '@main:%arg1' \\(5\\) must equal dim 1 of '@main:%arg0'"):
        analyze_file(_mlir(tmp_path, text))


def test_mlir_while_without_regions(tmp_path: Path) -> None:
    text = _ADD.replace("stablehlo.add %arg0, %arg0 : tensor<?x4xf32>",
                        '"stablehlo.while"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>')
    with pytest.raises(ModelError, match="stablehlo.while \\(op '@main:%0'\\): it has 0 regions, expected 2 regions"):
        analyze_file(_mlir(tmp_path, text))


def test_mlir_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = _mlir(tmp_path, b"// ok\n\xff\xfe garbage\n")
    with pytest.raises(ModelError, match="is not UTF-8 text \\(byte 0xff on line 2\\)"):
        analyze_file(path)
    assert_clean_error(run_cli("opt", str(path)), "is not UTF-8 text")
    proc = subprocess.run(
        [sys.executable, "-m", "symshape", "opt", "-"], input=path.read_bytes(), capture_output=True, timeout=120
    )
    assert proc.returncode == 2 and b"is not UTF-8 text" in proc.stderr and b"Traceback" not in proc.stderr


def test_opt_unknown_pass_and_empty_pipeline(tmp_path: Path) -> None:
    path = _mlir(tmp_path, _ADD)
    assert_clean_error(
        run_cli("opt", str(path), "-p", "shape-optimization,nosuch"),
        "unknown pass 'nosuch', expected one of the passes: " + ", ".join(sorted(PASSES)),
    )
    proc = run_cli("opt", str(path), "-p", "")  # no passes: print the module
    assert proc.returncode == 0 and "stablehlo.add" in proc.stdout


def test_opt_output_errors(tmp_path: Path) -> None:
    path = _mlir(tmp_path, _ADD)
    assert_clean_error(run_cli("opt", str(path), "-o", str(path)), "refusing to overwrite the input file")
    assert path.read_text() == _ADD
    blocker = _mlir(tmp_path, "x", "blocker")
    assert_clean_error(run_cli("opt", str(path), "-o", str(blocker / "o.mlir")), "cannot write")


def test_python_m_opt_never_overwrites_its_input(tmp_path: Path) -> None:
    path = _mlir(tmp_path, _ADD)
    proc = subprocess.run(
        [sys.executable, "-m", "symshape.tools.mlir_passes.opt", str(path), "-o", f"{tmp_path}/./m.mlir"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2 and "refusing to overwrite the input file" in proc.stderr
    assert path.read_text() == _ADD


def test_a_negative_size_written_as_a_dim_param_is_a_model_error() -> None:
    from onnx import TensorProto, helper

    from symshape.api import analyze_onnx
    from symshape.errors import ModelError

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "-3"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ModelError, match=r"input 'x' \(dim 1\): the declared size '-3' is negative"):
        analyze_onnx(model)


@pytest.mark.parametrize(("suffix", "module"), [(".pt2", "torch"), (".jaxexp", "jax")])
def test_an_export_without_its_optional_extra_names_the_extra(tmp_path: Path, suffix: str, module: str) -> None:
    """A .pt2 (torch) or .jaxexp (jax) file where the extra is not installed: one line saying
    which extra to install (the module is hidden from the interpreter)."""
    path = tmp_path / f"model{suffix}"
    path.write_bytes(b"whatever")
    root = ROOT
    script = (f"import sys; sys.modules[{module!r}] = None; sys.argv = ['symshape', 'analyze', {str(path)!r}]; "
              "from symshape.app.cli import run; run()")
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert_clean_error(proc, f"needs {module}, which is not installed")
    assert f"pip install 'symshape[{module}]'" in proc.stderr
