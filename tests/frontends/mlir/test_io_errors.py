"""Any MLIR input gets a result or a one-line error from the command line, never a traceback.

Each bad or odd text goes through ``symshape analyze`` and ``symshape opt -p shape-optimization``
in a fresh interpreter, once as installed and once with jax and jaxlib blocked (their MLIR is
the fallback parser for pretty forms xDSL cannot read, so the two can fail differently). A bad
one exits 1 with one ``error: ...`` line that says where (the file and line, or the op); an odd
but valid one (``arith.index_cast`` of a shape tensor, ``cf.assert``, ``stablehlo.add`` on the
``tensor<2xi32>`` shape values of a ``dynamic_reshape``) exits 0.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

BLOCK_JAX = "import sys\nfor m in ('jax', 'jaxlib', 'jax._src.interpreters.mlir'):\n    sys.modules[m] = None\n"
CLI = "sys.argv = ['symshape', *sys.argv[1:]]\nfrom symshape.app.cli import run\nrun()\n"

BAD: dict[str, tuple[str, str]] = {
    # name: (text, what the one line must contain)
    "contradicting_static_dims": (
        """func.func @main(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %b : (tensor<2xi32>, tensor<3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}""",
        "add '@main:%0'",
    ),
    "return_type_differs_from_the_value": (
        """func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  return %0 : tensor<3xi32>
}""",
        "line 3, column 10",
    ),
    "type_constraint_of_a_custom_format": (  # xDSL raised VerifyException out of its parser
        """func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = arith.addf %a, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}""",
        "line 2, column 3",
    ),
    "one_result_bound_to_two": (
        """func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.add %a, %a : tensor<?x4xf32>, tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}""",
        "line 2, column 3",
    ),
    "undefined_value": (
        """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %b : tensor<?xf32>
}""",
        "values used but not defined",
    ),
    "truncated_module": ("module {\n", "cannot parse it at line 2"),
    "control_characters": ("\x00\x01garbage", "line 1, column 1"),
    "dense_literal_of_the_wrong_size": (
        """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<3xi32>
  return %a : tensor<?xf32>
}""",
        "Shape mismatch in dense literal",
    ),
    "permutation_of_the_wrong_rank": (
        """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}""",
        "stablehlo.transpose (op '@main:%0')",
    ),
    "unknown_op_in_pretty_form": (
        """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = foo.bar %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}""",
        "line 2",
    ),
}

OPT_ONLY_BAD: dict[str, tuple[str, str]] = {
    "call_of_a_missing_function": (
        """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = func.call @nothere(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}""",
        "func.call (op '@main:%0'): the module does not verify: '@nothere' could not be found",
    ),
    "return_of_too_many_values": (
        """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xi32>) -> tensor<2xi32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<2xi32>):
    "func.return"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> ()
  }) : () -> ()
}) : () -> ()""",
        "func.return (op '@main'): the module does not verify",
    ),
}

GOOD: dict[str, str] = {
    "index_cast_of_a_shape_tensor": """func.func @main(%a: tensor<?x?xf32>) -> tensor<2xi32> {
  %s = shape.shape_of %a : tensor<?x?xf32> -> tensor<2xindex>
  %i = arith.index_cast %s : tensor<2xindex> to tensor<2xi32>
  %0 = stablehlo.add %i, %i : tensor<2xi32>
  return %0 : tensor<2xi32>
}""",
    "add_on_shape_values": """func.func @main(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %c = stablehlo.constant dense<0> : tensor<2xi32>
  %0 = stablehlo.add %s, %c : tensor<2xi32>
  %1 = stablehlo.dynamic_reshape %arg0, %0 : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}""",
    "arith_on_shape_tensors": """func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = arith.addi %a, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}""",
    "cf_assert": """func.func @main(%a: tensor<?xf32>, %ok: i1) -> tensor<?xf32> {
  cf.assert %ok, "the shapes agree"
  return %a : tensor<?xf32>
}""",
}


def run_cli(args: list[str], jax: bool) -> subprocess.CompletedProcess[str]:
    code = ("" if jax else BLOCK_JAX) + ("import sys\n" + CLI)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("SYMSHAPE_DEBUG", None)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          timeout=300, check=False)


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return path


def assert_one_line_error(done: subprocess.CompletedProcess[str], must: str) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert must in lines[0], lines[0]
    assert "internal error" not in lines[0], lines[0]


COMMANDS = {"analyze": ["analyze"], "opt": ["opt", "-p", "shape-optimization"]}


@pytest.mark.parametrize("jax", [True, False], ids=["with_jax", "jax_blocked"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_one_line(name: str, command: str, jax: bool, tmp_path: Path) -> None:
    text, must = BAD[name]
    path = _file(tmp_path, text)
    assert_one_line_error(run_cli([*COMMANDS[command], str(path)], jax), must)


@pytest.mark.parametrize("name", sorted(OPT_ONLY_BAD))
def test_bad_module_for_opt_is_one_line(name: str, tmp_path: Path) -> None:
    text, must = OPT_ONLY_BAD[name]
    path = _file(tmp_path, text)
    assert_one_line_error(run_cli([*COMMANDS["opt"], str(path)], jax=False), must)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(GOOD))
def test_odd_but_valid_input_gets_a_result_without_jax(name: str, command: str, tmp_path: Path) -> None:
    path = _file(tmp_path, GOOD[name])
    done = run_cli([*COMMANDS[command], str(path)], jax=False)
    assert done.returncode == 0 and not done.stderr, done.stderr


def test_an_empty_text_is_an_empty_module(tmp_path: Path) -> None:
    """As for mlir-opt: opt prints an empty module; analyze says there is nothing to analyze."""
    path = _file(tmp_path, "")
    done = run_cli([*COMMANDS["opt"], str(path)], jax=False)
    assert done.returncode == 0 and done.stdout.strip() == "builtin.module {\n}", done.stdout + done.stderr
    assert_one_line_error(run_cli(["analyze", str(path)], jax=False), "defines no function with a body")


@pytest.mark.parametrize(
    ("pipeline", "must"),
    [
        ("nosuch", "-p 'nosuch': unknown pass 'nosuch', expected one of the passes: aux-shape-functions"),
        ("shape-optimization{nosuch=1}", "pass 'shape-optimization' has no option 'nosuch', expected one of its "
                                         "options: refine-signatures"),
        ("shape-optimization{refine-signatures=3}", "option 'refine-signatures' of pass 'shape-optimization' is "
                                                    "'3', expected true or false"),
        ("shape-optimization{", "not a pass pipeline"),
        ("shape-sources{refine-signatures=true}", "pass 'shape-sources' has no option 'refine-signatures', "
                                                   "expected one of its options: none"),
    ],
)
def test_bad_pipeline_is_one_line(pipeline: str, must: str, tmp_path: Path) -> None:
    path = _file(tmp_path, GOOD["arith_on_shape_tensors"])
    assert_one_line_error(run_cli(["opt", "-p", pipeline, str(path)], jax=False), must)
