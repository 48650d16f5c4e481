"""A real MLIR parser accepts what symshape prints: ``iree-opt --allow-unregistered-dialect`` (from
the ``iree-base-compiler`` package, a test-only dependency) reads the generic form of the
shape-optimization output and of the constraint dialect, and its verifiers of the ops it knows
(func, arith, tensor, stablehlo) pass on the refined and encoded types."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from symshape.tools.mlir_passes.opt import SPLIT_MARKER, parse_text, print_module, run_passes
from tests.paths import TESTS

pytestmark = pytest.mark.needs_iree

FILECHECK = TESTS / "filecheck"
CHUNKS = [
    pytest.param(chunk, id=f"{path.stem}#{i}")
    for path in sorted(FILECHECK.glob("shape-optimization*.mlir"))
    for i, chunk in enumerate(path.read_text().split(SPLIT_MARKER))
]
MODULES = sorted((TESTS / "mlir_inputs").glob("*.mlir"))


def iree_opt(text: str, tmp_path: Path) -> str:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    done = subprocess.run(
        ["iree-opt", "--allow-unregistered-dialect", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def optimized_generic(text: str) -> str:
    ctx, module = parse_text(text)
    run_passes(ctx, module, ["shape-optimization"])
    return print_module(module, generic=True)


@pytest.mark.parametrize("text", CHUNKS)
def test_filecheck_cases(text: str, tmp_path: Path) -> None:
    out = iree_opt(optimized_generic(text), tmp_path)
    assert "tensor<" in out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_seed_and_jax_modules(path: Path, tmp_path: Path) -> None:
    out = iree_opt(optimized_generic(path.read_text()), tmp_path)
    if "symshape.symbolic_dim" in optimized_generic(path.read_text()):
        assert '"symshape.symbolic_dim"' in out


def test_constraint_dialect(tmp_path: Path) -> None:
    _, module = parse_text((FILECHECK / "constraint-dialect.mlir").read_text())
    out = iree_opt(print_module(module, generic=True), tmp_path)
    for op in ("symbolic_dim", "dim", "tie_shape", "tie_predicate_group_mul_eq", "tie_predicate_affine_eq"):
        assert f'"symshape.{op}"' in out
    assert "tensor<?x10xf32, [@S0, @C10]>" in out


def test_refined_stablehlo_types_are_checked(tmp_path: Path) -> None:
    """The oracle can fail: iree-opt rejects an add whose refined operand types disagree."""
    text = """
    func.func @f(%a: tensor<10x10xf32>, %b: tensor<10x3xf32>) -> tensor<10x10xf32> {
      %0 = "stablehlo.add"(%a, %b) : (tensor<10x10xf32>, tensor<10x3xf32>) -> tensor<10x10xf32>
      func.return %0 : tensor<10x10xf32>
    }
    """
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    done = subprocess.run(["iree-opt", "--allow-unregistered-dialect", str(path)], capture_output=True, text=True)
    assert done.returncode != 0


def test_add_refinement_in_stablehlo(tmp_path: Path) -> None:
    """Seed 000's add, in stablehlo so iree-opt's verifier checks the refined types."""
    text = """
    func.func @add(%arg0: tensor<?x10xf32>, %arg1: tensor<10x?xf32>) -> tensor<?x?xf32> {
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
      func.return %0 : tensor<?x?xf32>
    }
    """
    out = iree_opt(optimized_generic(text), tmp_path)
    assert "stablehlo.add %cast, %cast_0 : tensor<10x10xf32, [@C10, @C10]>" in out
