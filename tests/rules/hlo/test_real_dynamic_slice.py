"""``real_dynamic_slice`` whose start is data and whose limit is computed from it: the length is
``ceil((limit - start) / stride)`` with the unknown start cancelling (jax's ``dynamic_slice_in_dim``
and ``jnp.roll`` print such bounds). The expected lengths are worked out by hand from the spec
(https://openxla.org/stablehlo/spec#real_dynamic_slice); iree-opt checks each program is valid.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from symshape.frontends.mlir.frontend import analyze_mlir_text

# start s (data), limit s + [4, 5], strides [1, 2]: lengths 4 and ceil(5 / 2) = 3.
ADDED = """
func.func @main(%a: tensor<?x?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %w = stablehlo.constant dense<[4, 5]> : tensor<2xi64>
  %k = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %l = stablehlo.add %s, %w : tensor<2xi64>
  %0 = stablehlo.real_dynamic_slice %a, %s, %l, %k
      : (tensor<?x?xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""

# limit l (data), start l - 3 (the constant on the left of the add): length 3.
SUBTRACTED = """
func.func @main(%a: tensor<?xf32>, %l: tensor<1xi32>) -> tensor<?xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %s = stablehlo.subtract %l, %c3 : tensor<1xi32>
  %0 = stablehlo.real_dynamic_slice %a, %s, %l, %c1
      : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

# start and limit both data: the length is not known, and no dim may be claimed.
UNRELATED = """
func.func @main(%a: tensor<?xf32>, %s: tensor<1xi64>, %l: tensor<1xi64>) -> tensor<?xf32> {
  %c1 = stablehlo.constant dense<1> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %a, %s, %l, %c1
      : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

# the stride is data too: the length depends on it, so the result dim stays unknown.
DATA_STRIDE = """
func.func @main(%a: tensor<?xf32>, %s: tensor<1xi64>, %k: tensor<1xi64>) -> tensor<?xf32> {
  %c4 = stablehlo.constant dense<4> : tensor<1xi64>
  %l = stablehlo.add %s, %c4 : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %a, %s, %l, %k
      : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


def dims(text: str) -> list[str]:
    result = analyze_mlir_text(text)
    assert result.guards() == []
    return [str(d) for d in result.shape("@main:%0") or ()]


def test_limit_is_start_plus_a_constant() -> None:
    assert dims(ADDED) == ["4", "3"]


def test_start_is_limit_minus_a_constant() -> None:
    assert dims(SUBTRACTED) == ["3"]


@pytest.mark.parametrize("text", [UNRELATED, DATA_STRIDE])
def test_unknown_length_is_not_claimed(text: str) -> None:
    result = analyze_mlir_text(text)
    (d,) = result.shape("@main:%0") or ()
    assert not isinstance(d, int)
    assert d.free.isdisjoint({"a_d0"}) and len(result.causes()) == 1


@pytest.mark.needs_iree
@pytest.mark.parametrize("text", [ADDED, SUBTRACTED, UNRELATED, DATA_STRIDE])
def test_programs_are_valid_for_iree_opt(text: str) -> None:
    iree = shutil.which("iree-opt")
    assert iree is not None
    proc = subprocess.run([iree, "-"], input=text, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
