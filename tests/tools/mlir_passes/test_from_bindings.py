"""``opt``'s fast reader (`symshape.tools.mlir_passes.from_bindings`): MLIR's parser reads the text,
the module is rebuilt as xDSL ops. What it takes, what it leaves to xDSL's reader, and what the
rebuilt module keeps (the equality of whole ``opt`` outputs over every MLIR test input is
tests/tools/mlir_passes/test_readers_agree.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FunctionType, ModuleOp

from symshape.frontends.mlir.bindings_parse import mlir_verifies
from symshape.ir.clean import nesting_depth
from symshape.ir.parse import make_context, parse_attribute_text, source_attribute_texts, source_names, verified_by_mlir
from symshape.ir.printing import print_module
from symshape.tools.mlir_passes.from_bindings import read_module
from symshape.tools.mlir_passes.opt import parse_text, run_opt
from tests.mlir_fidelity import iree_generic

pytestmark = [pytest.mark.needs_jax, pytest.mark.needs_iree]

STABLEHLO = """
module @m {
  func.func public @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) -> (tensor<?x4xf32>, tensor<i32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [1] : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    %4 = stablehlo.maximum %arg0, %3 : tensor<?x4xf32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.maximum across dimensions = [1] \
        : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
    %6:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %0) : tensor<i32>, tensor<i32>
     cond {
      %7 = stablehlo.compare  LT, %iterArg, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<i32>, tensor<i32>
    }
    return %4, %6#1 : tensor<?x4xf32>, tensor<i32>
  }
}
"""


def _rebuilt(text: str) -> ModuleOp | None:
    return read_module(text, make_context())


def test_a_stablehlo_module_is_rebuilt_with_its_names_and_values() -> None:
    module = _rebuilt(STABLEHLO)
    assert module is not None and verified_by_mlir(module)
    names = set(source_names(module).values())
    assert {"arg0", "arg1", "cst", "c", "6#0", "6#1", "iterArg", "iterArg_0"} <= names
    printed = print_module(module)
    assert "%arg0" in printed and "%cst = " in printed
    assert "dense<0xFF800000> : tensor<f32>" in printed  # -inf, bit for bit
    direct = parse_text(STABLEHLO)[1]
    assert len(list(direct.walk())) == len(list(module.walk()))
    a, b = iree_generic([print_module(direct), printed])
    assert a.text is not None and a.text == b.text


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('"symshape.symbolic_dim"() <{sym_name = "S0"}> : () -> ()', id="symshape ops"),
        pytest.param("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n  return %b : tensor<?xf32>\n}",
                     id="MLIR refuses"),
        pytest.param('{-# dialect_resources: { builtin: { r: "0x04000000" } } #-}', id="a resource block"),
    ],
)
def test_what_xdsls_reader_reads_instead(text: str) -> None:
    assert _rebuilt(text) is None


def test_an_op_mlir_does_not_register_is_verified_by_symshape() -> None:
    module = _rebuilt('func.func @f(%a: i32) -> i32 {\n  %0 = "foo.bar"(%a) : (i32) -> i32\n  return %0 : i32\n}')
    assert module is not None and not verified_by_mlir(module)


def test_an_invalid_module_is_explained_as_xdsls_reader_explains_it() -> None:
    bad = "func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n  return %b : tensor<?xf32>\n}\n"
    done = subprocess.run([sys.executable, "-m", "symshape", "opt", "-"], input=bad, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error:") and "%b" in done.stderr


def test_an_upstream_op_keeps_its_pretty_form_and_discardable_attributes() -> None:
    text = ('func.func @checks(%a: index) -> index attributes {shape_function_of = "f"} {\n'
            "  %0 = arith.addi %a, %a overflow<nsw> : index\n  return %0 : index\n}\n")
    module = _rebuilt(text)
    assert module is not None
    printed = print_module(module)
    assert 'func.func @checks(%a: index) -> index attributes {shape_function_of = "f"} {' in printed
    assert "%0 = arith.addi %a, %a overflow<nsw> : index" in printed
    a, b = iree_generic([print_module(parse_text(text)[1]), printed])
    assert a.text is not None and a.text == b.text


def test_mlir_verifies_only_what_it_registers_and_accepts() -> None:
    ok = print_module(parse_text(STABLEHLO)[1])
    assert mlir_verifies(ok)
    assert not mlir_verifies(ok.replace('"stablehlo.maximum"(%arg0, %3)', '"foo.maximum"(%arg0, %3)'))
    assert not mlir_verifies(ok.replace("-> tensor<2xi32>", "-> tensor<3xi32>", 1))  # concatenate's result


@pytest.mark.parametrize(("op", "verified_by_symshape"), [("stablehlo.abs", False), ("foo.op", True)])
def test_symshape_verifies_the_output_where_mlir_did_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, op: str, verified_by_symshape: bool
) -> None:
    from symshape.tools.mlir_passes import opt

    calls: list[str] = []
    real = opt.verify
    monkeypatch.setattr(opt, "verify", lambda m, s, after="": (calls.append(after), real(m, s, after=after))[1])
    src = tmp_path / "in.mlir"
    src.write_text("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                   f'  %0 = "{op}"(%a) : (tensor<?xf32>) -> tensor<?xf32>\n  return %0 : tensor<?xf32>\n}}\n')
    out = run_opt(src, "for-iree")  # its output has no symshape op: MLIR can verify all of it
    assert f'"{op}"' in out
    assert calls == (["", "for-iree"] if verified_by_symshape else [])


def test_a_signature_is_put_together_from_its_types_as_xdsls_parser_reads_it() -> None:
    module = _rebuilt(STABLEHLO)
    assert module is not None
    main = next(op for op in module.walk() if op.name == "func.func")
    signature = main.properties["function_type"]
    text = "(tensor<?x4xf32>, tensor<4xf32>) -> (tensor<?x4xf32>, tensor<i32>)"
    assert signature == parse_attribute_text(make_context(), text)
    assert isinstance(signature, FunctionType)
    inputs, outputs = signature.inputs.data, signature.outputs.data
    assert inputs[0] is outputs[0]  # each type read once: the parser would read it twice
    texts = source_attribute_texts(module)
    assert texts[id(signature)] == (signature, text)
    assert not any(id(t) in texts for t in (*inputs, *outputs))  # printed as xDSL prints them, as parsed


def _depth_by_loop(text: str) -> int:
    depth = peak = 0
    for c in text:
        if c in "([{":
            depth += 1
            peak = max(peak, depth)
        elif c in ")]}":
            depth -= 1
    return peak


@pytest.mark.parametrize("text", ["", "abc", ")))(", "([{}])[(", '"é(ü)" {\u2028[(\udcff)]}', "(" * 300 + ")" * 300,
                                  STABLEHLO])
def test_the_nesting_depth_mlir_is_spared_is_counted_bracket_by_bracket(text: str) -> None:
    assert nesting_depth(text) == _depth_by_loop(text)
