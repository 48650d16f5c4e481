"""``shape-optimization`` output for ops whose shape operands must all have one type
(``real_dynamic_slice``'s start/limit/strides, ``dynamic_pad``'s paddings): a constant among
them cannot carry an encoding, so none does, and iree-opt accepts the default output."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from symshape.tools.mlir_passes.opt import run_opt
from tests.paths import TESTS

pytestmark = pytest.mark.needs_iree


DYNAMIC_PAD = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %lo = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %hi = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %in = stablehlo.constant dense<0> : tensor<2xi32>
  %0 = stablehlo.dynamic_pad %a, %z, %lo, %hi, %in
      : (tensor<?x4xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}
"""


def iree_accepts(text: str) -> str:
    iree = shutil.which("iree-opt")
    assert iree is not None
    command = [iree, "--allow-unregistered-dialect", "-"]
    proc = subprocess.run(command, input=text, capture_output=True, text=True, timeout=120, check=False)
    return "" if proc.returncode == 0 else proc.stderr


def operand_types(out: str, op: str) -> list[list[str]]:
    """The operand types of each ``op`` in generic form."""
    found = re.findall(rf'"stablehlo\.{op}"\([^)]*\)[^:]*: \((.*?)\) ->', out)
    return [re.findall(r"tensor<[^>]*>", types) for types in found]


def test_seed000_split_slices_parse_in_iree_opt() -> None:
    out = run_opt(TESTS / "fusion_inputs" / "seed000_fusion_split.mlir", "shape-optimization")
    assert iree_accepts(out) == ""
    slices = operand_types(out, "real_dynamic_slice")
    assert len(slices) == 2
    for types in slices:
        assert types[1] == types[2] == types[3] == "tensor<2xi32>", types
        assert "[@S0, @C4]" in types[0]  # the sliced operand keeps its encoding


def test_dynamic_pad_paddings_share_one_type(tmp_path: Path) -> None:
    path = tmp_path / "pad.mlir"
    path.write_text(DYNAMIC_PAD)
    assert iree_accepts(DYNAMIC_PAD) == ""
    out = run_opt(path, "shape-optimization")
    assert iree_accepts(out) == ""
    (types,) = operand_types(out, "dynamic_pad")
    assert types[2] == types[3] == types[4] == "tensor<2xi32>", types
