"""Inputs the reader fuzzer (tests/fuzz/readers.py) found, minimized, each with the error it must
give now: one line, exit status 1, no traceback, no hang."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import AttributeProto, helper, numpy_helper

from symshape.algebra.parse import parse_dim
from symshape.api import analyze_onnx
from symshape.errors import ExpressionSyntaxError, ModelError
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.ir.parse import parse_module
from tests.errors.test_bad_input import assert_clean_error
from tests.errors.test_bad_input import run_cli as run_subprocess
from tests.fuzz.reader_check import check_cli, run_cli, time_limit
from tests.fuzz.readers import SMALL_MODEL
from tests.paths import TESTS

N = helper.make_node


def relu_model(opset: int | None = 17) -> onnx.ModelProto:
    g = helper.make_graph(
        [N("Relu", ["x"], ["y"], name="relu")],
        "g",
        [helper.make_tensor_value_info("x", 1, ["n", 3])],
        [helper.make_tensor_value_info("y", 1, None)],
    )
    opsets = [] if opset is None else [helper.make_opsetid("", opset)]
    return helper.make_model(g, opset_imports=opsets)


def one_error_line(args: list[str]) -> str:
    code, _, err = run_cli(args)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
    return lines[0]


# ------------------------------------------------- control characters in the text of an error


@pytest.mark.parametrize("text", ["bat\nch >= 1", "b\x1batch >= 1", "batch >= 1\r\nseq <= 3", "b\x85atch >= 1"])
def test_a_fact_with_control_characters_is_one_error_line(text: str) -> None:
    line = one_error_line(["analyze", str(SMALL_MODEL), "--assume", text])
    assert "user fact 'b" in line and line.isprintable()


def test_a_dim_expression_with_a_newline_is_one_line() -> None:
    with pytest.raises(ExpressionSyntaxError) as err:
        parse_dim("n\n+ 1\x00")
    assert "\n" not in str(err.value) and "\\x0a" in str(err.value)


def test_a_fact_with_a_newline_through_the_command_line() -> None:
    proc = run_subprocess("analyze", str(SMALL_MODEL), "--assume", "se\nq <= 4")
    assert_clean_error(proc, "user fact 'se\\x0aq <= 4'")


# ------------------------------------------------------------------- ONNX fields


def test_an_opset_version_below_one_is_a_model_error() -> None:
    """Version -1 picked the oldest rule of every op (Slice-1 then read a missing attribute)."""
    with pytest.raises(ModelError, match="the opset_import of domain 'ai.onnx' has version -1, expected a version"):
        analyze_onnx(relu_model(-1))


def test_a_64_bit_opset_version_is_a_model_error() -> None:
    """onnx's schema lookup takes a C int: 2**62 raised TypeError."""
    with pytest.raises(ModelError, match="has version 4611686018427387904"):
        analyze_onnx(relu_model(2**62))


def test_names_that_are_not_utf8_are_a_model_error(tmp_path: Path) -> None:
    """proto2 does not check strings: upb hands back bytes, which broke the schema lookup."""
    data = relu_model().SerializeToString().replace(b"Relu", b"Re\xfeu")
    path = tmp_path / "bad.onnx"
    path.write_bytes(data)
    line = one_error_line(["analyze", str(path)])
    assert "graph 'g': the name, op type or domain of node #0 is not UTF-8 text (b'Re\\xfeu')" in line


def test_without_an_opset_import_the_newest_schema_is_checked() -> None:
    """The rules run at their newest without an opset_import; the schema checks did not run, and
    an 'end' attribute of type TENSOR reached the Shape rule."""
    g = helper.make_graph(
        [N("Shape", ["x"], ["s"], name="shape", end=2)],
        "g",
        [helper.make_tensor_value_info("x", 1, ["n", 3])],
        [helper.make_tensor_value_info("s", 7, None)],
    )
    m = helper.make_model(g, opset_imports=[])
    m.graph.node[0].attribute[0].type = AttributeProto.TENSOR
    with pytest.raises(ModelError, match=r"Shape \(node 'shape'\): attribute 'end' is a tensor .*expected an int"):
        analyze_onnx(m)
    assert analyze_onnx(relu_model(None)).shape("y")[1] == 3


# ------------------------------------------------------------------- MLIR text


def test_an_unclosed_string_in_mlir_does_not_hang() -> None:
    """xDSL's string pattern backtracked exponentially on an unclosed literal (minutes for 70
    characters)."""
    text = 'func.func @f(%a: tensor<?xf32>) {\n  %0 = "mhlo.mension = 0 : i64} : (tensor<?x100xf32>, tensor<?x1>)\n}\n'
    with time_limit(10), pytest.raises(ModelError, match="line 2, column 8 .*before closing string literal"):
        parse_module(text)


def test_an_unclosed_string_through_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text('func.func @f() {\n  %0 = "' + "a, " * 40 + "\n}\n")
    assert check_cli(["analyze", str(path)], [path]) is None
    assert_clean_error(run_subprocess("opt", str(path)), "before closing string literal")


# ------------------------------------------------------------- numbers and products too large


@pytest.mark.parametrize("text", ["9" * 5000, "n*" + "9" * 5000])
def test_an_integer_of_5000_digits_is_a_syntax_error(text: str) -> None:
    """Python's int() refuses over 4300 digits (ValueError)."""
    with pytest.raises(ExpressionSyntaxError, match="has 5000 digits, expected at most 1000 digits"):
        parse_dim(text)


@pytest.mark.parametrize(
    ("option", "text"), [("--dim", "batch=1.." + "9" * 5000), ("--assume", "batch=1.." + "9" * 5000),
                         ("--likely", "batch=1," + "9" * 5000), ("--assume", "batch~=" + "9" * 5000)]
)  # fmt: skip
def test_a_size_of_5000_digits_is_a_user_fact_error(option: str, text: str) -> None:
    line = one_error_line(["analyze", str(SMALL_MODEL), option, text])
    assert "a number has 5000 digits, expected at most 1000 digits" in line


@pytest.mark.parametrize("text", ["((n+1)**64)**64", "*".join(f"(a{i}+b{i})" for i in range(30))])
def test_a_product_that_expands_too_far_is_refused_quickly(text: str) -> None:
    """Multiplying out took minutes (a product of 30 sums has 2**30 terms)."""
    with time_limit(10), pytest.raises(ExpressionSyntaxError, match="the product expands to more than 4096 terms"):
        parse_dim(text)


def test_deeply_nested_regions_do_not_crash_the_process(tmp_path: Path) -> None:
    """xDSL refuses 5000 nested regions (RecursionError as a parse error); the text then went to
    jaxlib's MLIR parser, which overflowed the C stack: a segmentation fault, no message at all."""
    path = tmp_path / "deep.mlir"
    path.write_text('"test.op"() ({\n' * 5000 + "}) : () -> ()\n" * 5000)
    assert_clean_error(run_subprocess("analyze", str(path)), "RecursionError")


# ------------------------------------------------ found in the rules


@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_an_empty_constant_broadcast_with_a_length_one_constant(op: str, dtype: type) -> None:
    """Broadcasting [0] with [1] gives [0]; the element rule took max(0, 1) elements and read
    past the empty side."""
    inits = [numpy_helper.from_array(np.ones((0,), dtype), "a"), numpy_helper.from_array(np.ones((1,), dtype), "b")]
    g = helper.make_graph(
        [N(op, ["a", "b"], ["y"], name="n")], "g", [], [helper.make_tensor_value_info("y", 1, None)], inits
    )
    assert analyze_onnx(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])).shape("y") == (0,)


def test_an_untyped_attribute_is_a_model_error() -> None:
    """An attribute of type UNDEFINED was skipped by the checks and read as None by the rules
    (LayerNormalization's axis: TypeError comparing None)."""
    g = helper.make_graph(
        [N("Softmax", ["x"], ["y"], name="sm", axis=1)],
        "g",
        [helper.make_tensor_value_info("x", 1, ["n", 3])],
        [helper.make_tensor_value_info("y", 1, None)],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.graph.node[0].attribute[0].type = AttributeProto.UNDEFINED
    for opsets in ([helper.make_opsetid("", 17)], []):  # without an opset import: the newest schema
        del m.opset_import[:]
        m.opset_import.extend(opsets)
        with pytest.raises(
            ModelError, match=r"Softmax \(node 'sm'\): attribute 'axis' is untyped \(None\), expected an int"
        ):
            analyze_onnx(m)


def test_gemm_with_a_c_of_rank_three_is_a_model_error() -> None:
    """C must broadcast to (M, N): a rank-3 C made the bias check's zip raise ValueError."""
    g = helper.make_graph(
        [N("Gemm", ["a", "b", "c"], ["y"], name="gemm")], "g",
        [helper.make_tensor_value_info("a", 1, [2, 3]), helper.make_tensor_value_info("b", 1, [3, 4]),
         helper.make_tensor_value_info("c", 1, [1, 2, 4])],
        [helper.make_tensor_value_info("y", 1, None)],
    )
    with pytest.raises(ModelError, match="C of rank 3"):
        analyze_onnx(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]))


@pytest.mark.parametrize("attr", ["batch_group_count", "feature_group_count"])
def test_a_convolution_group_count_of_zero_is_a_model_error(attr: str) -> None:
    """``batch_group_count = 0`` divided the batch by zero (ZeroDivisionError)."""
    counts = {"batch_group_count": 1, "feature_group_count": 1, attr: 0}
    text = (
        "func.func @main(%x: tensor<2x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x6xf32> {\n"
        '  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = COUNT_B : i64, '
        "dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, "
        "feature_group_count = COUNT_F : i64}> : (tensor<2x3x8xf32>, tensor<4x3x3xf32>) -> tensor<2x4x6xf32>\n"
        "  return %0 : tensor<2x4x6xf32>\n}\n"
    ).replace("COUNT_B", str(counts["batch_group_count"])).replace("COUNT_F", str(counts["feature_group_count"]))
    with pytest.raises(ModelError, match=f"{attr} = 0"):
        analyze_mlir_text(text)


@pytest.mark.parametrize("numbers", ["[b, f, 1]x[o, i, 0]->[b, f, 0]", "[b, f, 0]x[o, 0]->[b, f, 0]"])
def test_malformed_convolution_dimension_numbers_are_a_model_error(numbers: str) -> None:
    """A spatial index or a kernel label missing from the compact form: ``list.index`` raised."""
    text = (
        "func.func @main(%x: tensor<2x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x6xf32> {\n"
        '  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, '
        f"dimension_numbers = #stablehlo.conv<{numbers}>, "
        "feature_group_count = 1 : i64}> : (tensor<2x3x8xf32>, tensor<4x3x3xf32>) -> tensor<2x4x6xf32>\n"
        "  return %0 : tensor<2x4x6xf32>\n}\n"
    )
    with pytest.raises(ModelError, match="dimension_numbers"):
        analyze_mlir_text(text)


@pytest.mark.parametrize(("opset", "lengths"), [(9, (2, 1, 2)), (13, (2, 2, 1))])
def test_slice_bounds_of_different_lengths_are_a_model_error(opset: int, lengths: tuple[int, int, int]) -> None:
    """axes, starts and ends of different lengths (attributes before opset 10, inputs after):
    the per-axis ``zip(strict=True)`` raised ValueError."""
    axes, starts, ends = ([0, 1][:k] for k in lengths)
    if opset < 10:
        nodes = [N("Slice", ["x"], ["y"], name="slice", axes=axes, starts=starts, ends=ends)]
        inits = []
    else:
        nodes = [N("Slice", ["x", "starts", "ends", "axes"], ["y"], name="slice")]
        inits = [numpy_helper.from_array(np.array(v, np.int64), name)
                 for name, v in (("starts", starts), ("ends", ends), ("axes", axes))]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", 1, ["n", 4])],
                          [helper.make_tensor_value_info("y", 1, None)], inits)
    with pytest.raises(ModelError, match=r"2 axes, \d starts, \d ends"):
        analyze_onnx(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]))


def test_a_dim_beyond_int64_is_annotated_as_a_label(tmp_path: Path) -> None:
    """Two [2**62] tensors concatenated: the dim 2**63 overflows ONNX's int64 dim_value, whose
    protobuf setter raised "Value out of range"; annotate writes it as a dim_param."""
    shape = numpy_helper.from_array(np.array([2**62], np.int64), "shape")
    g = helper.make_graph(
        [N("ConstantOfShape", ["shape"], ["c"], name="fill"), N("Concat", ["c", "c"], ["y"], name="cat", axis=0)],
        "g", [], [helper.make_tensor_value_info("y", 1, None)], [shape])
    model = tmp_path / "big.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), model)
    out = tmp_path / "out.onnx"
    assert run_cli(["annotate", str(model), "-o", str(out)])[0] == 0
    (dim,) = onnx.load(out).graph.output[0].type.tensor_type.shape.dim
    assert dim.dim_param == str(2**63)


def test_a_convolution_without_dimension_numbers_is_a_model_error() -> None:
    text = (
        "func.func @main(%x: tensor<2x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x6xf32> {\n"
        '  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, feature_group_count = 1 : i64}> '
        ": (tensor<2x3x8xf32>, tensor<4x3x3xf32>) -> tensor<2x4x6xf32>\n"
        "  return %0 : tensor<2x4x6xf32>\n}\n"
    )
    with pytest.raises(ModelError, match="dimension_numbers"):
        analyze_mlir_text(text)


def _split_with_num_outputs_2_and_3_outputs() -> onnx.ModelProto:
    x, a = helper.make_tensor_value_info("x", 1, ["n", 6]), helper.make_tensor_value_info("a", 1, None)
    g = helper.make_graph([N("Split", ["x"], ["a", "b", "c"], name="split", axis=1, num_outputs=2)], "g", [x], [a])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def test_split_num_outputs_unlike_its_outputs_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="num_outputs = 2 with 3 outputs"):
        analyze_onnx(_split_with_num_outputs_2_and_3_outputs())


def test_element_types_survive_onnx_inference_aborting() -> None:
    """onnx's C++ shape inference aborts the process (a vector index assertion) on that Split:
    `annotate` (and `optimize`, `verify`) died with it. It now runs in a child interpreter."""
    from symshape.frontends.onnx.reader import elem_types

    assert elem_types(_split_with_num_outputs_2_and_3_outputs(), isolated=True) == {"x": 1, "a": 1}


CASES = sorted((TESTS / "fuzz_cases").glob("*.bin"))


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_the_long_runs_failing_inputs_end_cleanly(case: Path, tmp_path: Path) -> None:
    """The inputs the second 30-minute run saved (``<kind>-<hash>.bin``), replayed: an
    ``onnxfields`` seed whose field edits gave a Reshape target of no elements but shape [1]
    (``els[0]``), a Concat whose inputs were all left empty, a reduce_window stride of 0."""
    from tests.fuzz.readers import check_one

    assert check_one(case.name.split("-")[0], case.read_bytes(), tmp_path, None) is None


def test_a_concat_without_inputs_is_a_model_error() -> None:
    y = helper.make_tensor_value_info("y", 1, None)
    g = helper.make_graph([N("Concat", ["", ""], ["y"], name="cat", axis=0)], "g", [], [y])  # names left empty
    with pytest.raises(ModelError, match="no inputs"):
        analyze_onnx(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))


def test_a_reduce_window_stride_of_zero_is_a_model_error() -> None:
    """``window_strides = 0`` divided by zero (ZeroDivisionError in floordiv)."""
    text = (
        "func.func @main(%x: tensor<8xf32>, %z: tensor<f32>) -> tensor<4xf32> {\n"
        '  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2>, '
        "window_strides = array<i64: 0>}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        '    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
        '    "stablehlo.return"(%s) : (tensor<f32>) -> ()\n'
        "  }) : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n"
    )
    with pytest.raises(ModelError, match="stride or dilation below 1"):
        analyze_mlir_text(text)
