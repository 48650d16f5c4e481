"""The bindings reader (MLIR's own parser, `symshape.frontends.mlir.bindings_reader`) against the xDSL one.

Both readers must give the same analysis, byte for byte in the JSON output, on every MLIR test
input: tests/mlir_inputs, tests/mlir_corpus, each ``// -----`` part of tests/filecheck, and the
real ``jax.export`` modules of tests/frontends/mlir/test_jax_export_models.py. An input one reader refuses must
be refused by the other with the same message. The xDSL reader is the oracle for names and
attributes too: its value names come from xDSL's parser, the bindings reader's from MLIR's
locations.
"""

from __future__ import annotations

import pytest

from symshape.errors import SymshapeError
from symshape.frontends.mlir.attributes import py_attr
from symshape.frontends.mlir.bindings_attributes import binding_attr, binding_type
from symshape.frontends.mlir.bindings_parse import available_bindings, strip_locations
from symshape.frontends.mlir.bindings_reader import read_views
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.frontends.mlir.program_builder import module_to_programs
from symshape.ir.parse import make_context, parse_module
from symshape.tools.outputs import render
from tests._op_forms import DIALECTS, read_chunks
from tests.paths import TESTS

BINDINGS = [pytest.param("iree", marks=pytest.mark.needs_iree), pytest.param("jax", marks=pytest.mark.needs_jax)]


def _inputs() -> dict[str, str]:
    out: dict[str, str] = {}
    for folder in ("mlir_inputs", "mlir_corpus"):
        for path in sorted((TESTS / folder).glob("*.mlir")):
            out[f"{folder}/{path.name}"] = path.read_text()
    for path in sorted((TESTS / "filecheck").glob("*.mlir")):
        for k, part in enumerate(path.read_text().split("// -----")):
            if "func.func" in part:
                out[f"filecheck/{path.name}#{k}"] = part
    return out


INPUTS = _inputs()


def _analysis(text: str, reader: str) -> str:
    try:
        return render(analyze_mlir_text(text, source="input.mlir", reader=reader), "json")
    except SymshapeError as err:
        return f"error: {err}"


@pytest.fixture(params=BINDINGS)
def binding(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SYMSHAPE_MLIR_BINDINGS", request.param)
    return request.param


@pytest.mark.parametrize("name", list(INPUTS))
def test_same_analysis(name: str, binding: str) -> None:
    text = INPUTS[name]
    assert _analysis(text, "bindings") == _analysis(text, "xdsl")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_same_analysis_of_every_op_form(dialect: str, binding: str) -> None:
    """Each op's pretty and generic forms (tests/op_forms): the generic form of an op the
    bindings do not register (mhlo in IREE's) once lost its ``<{...}>`` properties silently."""
    forms = [(f"{c.key} ({form})", text) for c in read_chunks(dialect)
             for form, text in (("pretty", c.pretty), ("generic", c.generic))]
    differ = [key for key, text in forms if _analysis(text, "bindings") != _analysis(text, "xdsl")]
    assert not differ


def test_most_inputs_are_read_by_the_bindings(binding: str) -> None:
    """Not a silent fallback: the bindings read nearly all stablehlo/mhlo inputs (the filecheck
    inputs are mostly symshape's own dialect, which only the xDSL reader reads)."""
    inputs = {name: text for name, text in INPUTS.items() if not name.startswith("filecheck/")}
    read = [name for name, text in inputs.items() if read_views(text) is not None]
    assert len(read) >= 0.9 * len(inputs), sorted(set(inputs) - set(read))
    assert "mlir_inputs/jax_attention.mlir" in read


NAMED = """
func.func @main(%arg0: tensor<?x4xf32> loc("x"), %a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0:2 = "foo.pair"(%arg0) {note = "loc(not a location)"} : (tensor<?x4xf32>) -> (tensor<?x4xf32>, index) loc(#loc1)
  %s, %t = "foo.two"(%a) : (tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) loc(fused[#loc1, "y"])
  %1 = stablehlo.add %0#0, %t : tensor<?x4xf32> loc(callsite(#loc1 at "z"))
  return %1 : tensor<?x4xf32>
}
#loc1 = loc("f.py":3:4)
"""


def test_value_names_are_the_texts(binding: str) -> None:
    views = read_views(NAMED)
    assert views is not None
    expected = module_to_programs(parse_module(NAMED))
    assert list(views[0].program.values) == list(expected[0].program.values)
    assert "@main:%0#1" in views[0].program.values
    assert {"@main:%arg0", "@main:%a", "@main:%s", "@main:%t", "@main:%1"} <= set(views[0].program.values)


def test_strip_locations_keeps_strings() -> None:
    clean = strip_locations(NAMED)
    assert "loc(#" not in clean and "loc(f" not in clean and "#loc1 =" not in clean
    assert '"loc(not a location)"' in clean


ATTRIBUTES = [
    "1 : i64", "true", "false", "1.5 : f32", '"text"', "@callee", "unit", "array<i64: 1, 2>", "array<i64>",
    "[1, 2.5 : f32]", "{k = 1 : i32, s = \"v\"}", "dense<[1, 2]> : tensor<2xi64>", "dense<1> : tensor<3xi32>",
    "dense<[true, false]> : tensor<2xi1>", "dense<0.5> : tensor<2xf32>", "#stablehlo<comparison_direction GE>",
    "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_contracting_dimensions = [2]>",
    "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", "#mhlo<precision DEFAULT>",
    "[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]",
]


@pytest.mark.parametrize("text", ATTRIBUTES)
def test_attributes_as_xdsl_reads_them(text: str, binding: str) -> None:
    module_text = f'"foo.op"() {{a = {text}}} : () -> ()'
    xdsl_op = next(iter(parse_module(module_text, make_context()).ops))
    expected = py_attr(xdsl_op.attributes["a"])
    import importlib

    ir = importlib.import_module("iree.compiler.ir" if binding == "iree" else "jaxlib.mlir.ir")
    from symshape.frontends.mlir.bindings_parse import parse_with_bindings

    parsed = parse_with_bindings(module_text, binding)
    assert parsed is not None
    op = parsed[0].body.operations[0].operation
    assert isinstance(op, ir.Operation)
    assert binding_attr(op.attributes["a"]) == expected


@pytest.mark.parametrize("text", ["tensor<?x4xf32>", "tensor<i32>", "tensor<*xf32>", "index", "i1", "bf16",
                                  "tensor<2x?xcomplex<f32>>", "!shape.shape", "!shape.size", "none"])
def test_types_as_xdsl_reads_them(text: str) -> None:
    from xdsl.parser import Parser

    from symshape.frontends.mlir.attributes import tensor_type

    assert binding_type(text) == tensor_type(Parser(make_context(), text).parse_type())


@pytest.mark.needs_jax
def test_jax_exports_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real jax.export modules (issue 15's set), through each installed binding."""
    from tests.frontends.mlir.test_jax_export_models import SUBJECTS

    for name, subject in SUBJECTS.items():
        text = subject.text
        expected = _analysis(text, "xdsl")
        for which in ("iree", "jax"):
            monkeypatch.setenv("SYMSHAPE_MLIR_BINDINGS", which)
            if not available_bindings():
                continue  # iree-base-compiler not installed
            assert read_views(text) is not None, (name, which)
            assert _analysis(text, "bindings") == expected, (name, which)
