"""``for-iree`` and the ``shape`` dialect's constraints, as torch-mlir writes them around every
broadcasting op: a witness the analysis proves is dropped, one it cannot prove is kept as a
``cf.assert`` with its message; no ``shape.cstr_*`` or ``shape.assuming`` is left (IREE refuses
them). End to end, tests/tools/mlir_passes/test_for_iree_torch.py runs torch-mlir's own output."""

from __future__ import annotations

import pytest

from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes

TEMPLATE = """
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {{
  %other = {other}
  %a = shape.shape_of %x : tensor<?xf32> -> tensor<1xindex>
  %b = shape.shape_of %other : tensor<?xf32> -> tensor<1xindex>
  %w = shape.cstr_broadcastable %a, %b : tensor<1xindex>, tensor<1xindex>
  %r = shape.assuming %w -> (tensor<?xf32>) {{
    %s = shape.broadcast %a, %b : tensor<1xindex>, tensor<1xindex> -> tensor<1xindex>
    %bx = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0] : (tensor<?xf32>, tensor<1xindex>) -> tensor<?xf32>
    %by = stablehlo.dynamic_broadcast_in_dim %other, %s, dims = [0] : (tensor<?xf32>, tensor<1xindex>) -> tensor<?xf32>
    %sum = stablehlo.add %bx, %by : tensor<?xf32>
    shape.assuming_yield %sum : tensor<?xf32>
  }}
  return %r : tensor<?xf32>
}}
"""


def for_iree(other: str) -> str:
    ctx, module = parse_text(TEMPLATE.format(other=other))
    run_passes(ctx, module, "for-iree")
    return print_module(module)


def test_a_proven_witness_is_dropped() -> None:
    out = for_iree("stablehlo.exponential %x : tensor<?xf32>")  # the same size as x
    assert "= shape.cstr_" not in out and "shape.assuming" not in out and "cf.assert" not in out, out
    assert "known_nonexpanding_dimensions = array<i64: 0>" in out


def test_an_unproven_witness_is_kept_as_an_assert() -> None:
    out = for_iree("stablehlo.exponential %y : tensor<?xf32>")  # x and y may differ
    assert "= shape.cstr_" not in out and "shape.assuming" not in out, out
    assert "cf.assert" in out and "cstr_broadcastable failed" in out, out


@pytest.mark.needs_iree
def test_iree_opt_reads_the_output(tmp_path: pytest.TempPathFactory) -> None:
    import subprocess

    for other in ("stablehlo.exponential %x : tensor<?xf32>", "stablehlo.exponential %y : tensor<?xf32>"):
        done = subprocess.run(["iree-opt", "--allow-unregistered-dialect", "-"], input=for_iree(other),
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
