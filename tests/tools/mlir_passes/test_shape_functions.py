"""Seed 003's matmul through the three forms of ``shape-functions``, against real semantics.

The oracles are independent of symshape: ``iree-opt`` parses every stage, numpy's ``matmul``
decides which shapes are valid and what the result shape is, and IREE's compiler and runtime run
the assert form (and the function itself): good shapes give numpy's result shape, bad shapes
stop with the seed's message.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from symshape.errors import ModelError
from symshape.ir.shape_eval import evaluate
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes
from tests.paths import TESTS

MATMUL = """
func.func @matmul(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0]
    : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""
SEED_MESSAGE = "inner dimensions required to match"
Pair = tuple[tuple[int, ...], tuple[int, ...]]
Oracle = Callable[[tuple[int, ...], tuple[int, ...]], "tuple[int, ...] | None"]
SHAPES = [((2, 3), (3, 5)), ((1, 1), (1, 1)), ((0, 4), (4, 2)), ((3, 0), (0, 2)), ((2, 3), (4, 5)), ((2, 1), (3, 2))]


def run(text: str, pipeline: str) -> str:
    ctx, module = parse_text(text)
    run_passes(ctx, module, pipeline)
    return print_module(module)


def shape_fn(text: str) -> func.FuncOp:
    _, module = parse_text(text)
    return _shape_fn(module)


def _shape_fn(module: ModuleOp) -> func.FuncOp:
    found = [f for f in module.ops if isinstance(f, func.FuncOp) and "shape_function_of" in f.attributes]
    assert len(found) == 1
    return found[0]


def stages() -> dict[str, str]:
    """meet -> cstr -> assert, one pass at a time (as the seed lowers)."""
    meet = run(MATMUL, "shape-functions{form=meet}")
    cstr = run(meet, "shape-lower-meet")
    return {"meet": meet, "cstr": cstr, "assert": run(cstr, "shape-lower-cstr-to-assert")}


def numpy_matmul(lhs: tuple[int, ...], rhs: tuple[int, ...]) -> tuple[int, ...] | None:
    try:
        return np.matmul(np.empty(lhs, np.float32), np.empty(rhs, np.float32)).shape
    except ValueError:
        return None


def test_step_by_step_is_the_direct_form() -> None:
    by_steps = stages()
    for form in ("cstr", "assert"):
        assert by_steps[form] == run(MATMUL, f"shape-functions{{form={form}}}")


def test_each_stage_says_the_seeds_message() -> None:
    texts = stages()
    assert "shape.meet" in texts["meet"] and f'error = "{SEED_MESSAGE}' in texts["meet"]
    assert "shape.cstr_eq" in texts["cstr"] and "shape.assuming" in texts["cstr"]
    assert f'cf.assert %0, "{SEED_MESSAGE}' in texts["assert"] and "shape." not in texts["assert"]


@pytest.mark.needs_iree
@pytest.mark.parametrize("form", ["meet", "cstr", "assert"])
def test_each_stage_parses_in_iree_opt(form: str, tmp_path: Path) -> None:
    path = tmp_path / f"{form}.mlir"
    path.write_text(stages()[form])
    done = subprocess.run(
        ["iree-opt", "--allow-unregistered-dialect", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert SEED_MESSAGE in done.stdout


@pytest.mark.parametrize("form", ["meet", "cstr", "assert"])
@pytest.mark.parametrize(("lhs", "rhs"), SHAPES)
def test_evaluator_agrees_with_numpy(form: str, lhs: tuple[int, ...], rhs: tuple[int, ...]) -> None:
    outcome = evaluate(shape_fn(stages()[form]), [lhs, rhs])
    expected = numpy_matmul(lhs, rhs)
    assert outcome.accepted == (expected is not None)
    if expected is None:
        assert outcome.message.startswith(SEED_MESSAGE)
        assert "dim 0 of %rhs" in outcome.message and "dim 1 of %lhs" in outcome.message
    else:
        assert outcome.results == (expected,)


BIAS = """
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = "chlo.broadcast_add"(%x, %b) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""
BIAS_SHAPES = [((2, 3), (3,)), ((2, 1), (3,)), ((0, 1), (5,)), ((2, 3), (1,)), ((2, 3), (4,)), ((0, 2), (3,))]


def numpy_add(x: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    try:
        return (np.zeros(x, np.float32) + np.zeros(b, np.float32)).shape
    except ValueError:
        return None


IREE_CASES = [
    ("matmul", MATMUL, SHAPES, numpy_matmul, SEED_MESSAGE),
    ("bias", BIAS, BIAS_SHAPES, numpy_add, "operands required to be broadcastable: broadcast_add %0"),
]
"""IREE compiles the matmul itself too, not CHLO's dynamic broadcast: @bias's shape function runs alone."""


def only_shape_functions(text: str) -> str:
    _, module = parse_text(text)
    for op in list(module.ops):
        if isinstance(op, func.FuncOp) and "shape_function_of" not in op.attributes:
            op.detach()
            op.erase()
    return print_module(module)


@pytest.mark.needs_iree_runtime
@pytest.mark.parametrize(("name", "text", "cases", "oracle", "message"), IREE_CASES, ids=[c[0] for c in IREE_CASES])
def test_assert_form_runs_in_iree(name: str, text: str, cases: list[Pair], oracle: Oracle, message: str) -> None:
    """Compile the function and its assert-form shape function; run both at good and bad shapes."""
    import iree.compiler as compiler
    import iree.runtime as runtime

    module_text = run(text, "shape-functions{form=assert},shape-lower-cstr-to-assert{i64-results=true}")
    if name == "bias":
        module_text = only_shape_functions(module_text)
    vmfb = compiler.compile_str(
        module_text, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=generic"]
    )
    ctx = runtime.SystemContext(config=runtime.Config("local-task"))
    ctx.add_vm_module(runtime.VmModule.copy_buffer(ctx.instance, vmfb))
    module = ctx.modules.module
    for lhs, rhs in cases:
        a = np.random.default_rng(0).random(lhs, dtype=np.float32)
        b = np.random.default_rng(1).random(rhs, dtype=np.float32)
        expected = oracle(lhs, rhs)
        if expected is None:
            with pytest.raises(RuntimeError, match=message):
                module[f"_shape_fn_{name}"](a, b)
            continue
        shape = tuple(int(x) for x in module[f"_shape_fn_{name}"](a, b).to_host())
        assert shape == expected
        if name == "matmul":
            assert module[name](a, b).to_host().shape == expected


def test_unknown_form_is_a_one_line_error() -> None:
    with pytest.raises(ModelError, match=r"form 'maybe', expected one of meet, cstr, assert"):
        run(MATMUL, "shape-functions{form=maybe}")


def test_running_again_keeps_the_shape_function() -> None:
    once = run(MATMUL, "shape-functions")
    assert run(once, "shape-functions") == once


DATA_DEPENDENT = """
func.func @dd(%x: tensor<?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %u = "foo.unknown"(%x) : (tensor<?xf32>) -> tensor<?x?xf32>
  %0 = stablehlo.dot_general %u, %y, contracting_dims = [1] x [0]
    : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""


def test_a_check_no_argument_determines_is_listed_as_unchecked() -> None:
    fn = shape_fn(run(DATA_DEPENDENT, "shape-functions"))
    unchecked = str(fn.attributes["unchecked"])
    assert SEED_MESSAGE in unchecked and "out0_d1 of unknown %u" in unchecked and "dim 0 of %y" in unchecked
    assert "shape.meet" not in run(DATA_DEPENDENT, "shape-functions")


def test_evaluator_refuses_an_op_it_does_not_run() -> None:
    fn = shape_fn(run(DATA_DEPENDENT, "shape-functions"))
    with pytest.raises(ModelError, match=r"foo.unknown .*an op the shape-function evaluator does not run"):
        evaluate(fn, [(2,), (3, 4)])


@pytest.mark.parametrize("form", ["meet", "cstr", "assert"])
def test_seed000_split_checks_the_programs_own_requirement(form: str) -> None:
    """The split's divisibility (a shape.cstr_require of the program, and the analysis's
    predicate) is checked; numpy's split is the oracle."""
    text = (TESTS / "mlir_inputs" / "seed000_split.mlir").read_text()
    fn = shape_fn(run(text, f"shape-functions{{form={form}}}"))
    for n in range(7):
        outcome = evaluate(fn, [(n, 4)])
        try:
            expected = tuple(part.shape for part in np.split(np.zeros((n, 4)), 2))
        except ValueError:
            assert not outcome.accepted and "divisi" in outcome.message
            continue
        assert outcome.results == expected


def iree_opt(text: str, tmp_path: Path, *flags: str) -> str:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    done = subprocess.run(
        ["iree-opt", "--allow-unregistered-dialect", *flags, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.needs_iree
@pytest.mark.parametrize("form", ["meet", "cstr", "assert"])
def test_mlirs_generic_form_of_each_stage_reads_back(form: str, tmp_path: Path) -> None:
    """MLIR prints a stage generically; symshape reads it and prints what MLIR reads as the same module."""
    stage = stages()[form]
    generic = iree_opt(stage, tmp_path, "--mlir-print-op-generic")
    assert iree_opt(run(generic, ""), tmp_path) == iree_opt(stage, tmp_path)


def test_user_facts_are_checked_too() -> None:
    """A fact the user asserted is a precondition like the program's own."""
    ctx, module = parse_text(MATMUL)
    run_passes(ctx, module, "shape-functions{form=assert}", facts=["lhs_d1 == 64"])
    fn = _shape_fn(module)
    assert evaluate(fn, [(2, 64), (64, 3)]).results == ((2, 3),)
    refused = evaluate(fn, [(2, 8), (8, 3)])
    assert not refused.accepted and "user fact lhs_d1 == 64" in refused.message
    assert evaluate(fn, [(2, 64), (8, 3)]).message.startswith(SEED_MESSAGE)
