"""CHLO's implicitly broadcasting binary ops: numpy broadcasting, ``broadcast_dimensions``, values.

The programs are in generic form (they parse without jaxlib); iree-opt, which registers CHLO,
checks that each one is valid. The expected dims are numpy's broadcast of the operand sizes
(`numpy.broadcast_shapes`), evaluated at sizes that include 0 and 1.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess

import numpy as np
import pytest

from symshape.algebra.expr import Dim, evaluate
from symshape.errors import ModelError
from symshape.frontends.mlir.frontend import analyze_mlir_text

MAPPED = """
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?xf32>, %c: tensor<?x?xf32>) -> (tensor<?x3xf32>, tensor<?x?xf32>) {
  %0 = "chlo.broadcast_add"(%a, %b) {broadcast_dimensions = array<i64: 0>}
      : (tensor<?x3xf32>, tensor<?xf32>) -> tensor<?x3xf32>
  %1 = "chlo.broadcast_multiply"(%c, %b) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x3xf32>, tensor<?x?xf32>
}
"""

STATIC_SIDE = """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %p: tensor<?x1xi1>)
    -> (tensor<?x4xf32>, tensor<?x4xi1>, tensor<?x4xf32>) {
  %0 = "chlo.broadcast_subtract"(%a, %b) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = "chlo.broadcast_compare"(%a, %b) {comparison_direction = #chlo<comparison_direction LT>}
      : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xi1>
  %2 = "chlo.broadcast_select"(%p, %a, %b) : (tensor<?x1xi1>, tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xi1>, tensor<?x4xf32>
}
"""

# A shape computed with CHLO: the size of %a plus 2 (a rank-0 constant broadcast to rank 1).
VALUES = """
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %n = "stablehlo.get_dimension_size"(%a) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<i32>
  %v = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
  %c = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %s = "chlo.broadcast_add"(%v, %c) : (tensor<1xi32>, tensor<i32>) -> tensor<1xi32>
  %0 = "stablehlo.dynamic_iota"(%s) {iota_dimension = 0 : i64} : (tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

BAD_MAPPING = MAPPED.replace("array<i64: 0>", "array<i64: 5>")

SIZES = [0, 1, 2, 3]


def valid(*shapes: tuple[int, ...]) -> tuple[int, ...] | None:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return None


def at(dims: tuple[Dim, ...], env: dict[str, int]) -> tuple[int, ...]:
    return tuple(evaluate(d, env) for d in dims)


def test_mapped_and_trailing_broadcasts_match_numpy() -> None:
    result = analyze_mlir_text(MAPPED)
    assert result.guards() == []
    mapped, trailing = result.shape("@main:%0"), result.shape("@main:%1")
    assert mapped is not None and trailing is not None
    checked = 0
    for a0, b0, c0, c1 in itertools.product(SIZES, repeat=4):
        env = {"a_d0": a0, "b_d0": b0, "c_d0": c0, "c_d1": c1}
        want0 = valid((a0, 3), (b0, 1))  # b's one dim maps to result dim 0
        want1 = valid((c0, c1), (b0,))
        if want0 is not None:
            assert at(mapped, env) == want0, env
            checked += 1
        if want1 is not None:
            assert at(trailing, env) == want1, env
            checked += 1
    assert checked > 100


def test_static_side_fixes_the_dim_and_select_broadcasts_three() -> None:
    result = analyze_mlir_text(STATIC_SIDE)
    for name in ("@main:%0", "@main:%1"):
        assert [str(d) for d in result.shape(name) or ()] == ["a_d0", "4"], name
    assert result.causes() == []
    select = result.shape("@main:%2")
    assert select is not None
    for a0, p0 in itertools.product(SIZES, repeat=2):
        want = valid((p0, 1), (a0, 4), (4,))
        if want is not None:
            assert at(select, {"a_d0": a0, "p_d0": p0}) == want, (a0, p0)


def test_integer_values_are_tracked_through_the_broadcast() -> None:
    result = analyze_mlir_text(VALUES)
    assert [str(d) for d in result.shape("@main:%0") or ()] == ["a_d0 + 2"]


def test_out_of_range_broadcast_dimensions_is_a_model_error() -> None:
    with pytest.raises(ModelError) as err:
        analyze_mlir_text(BAD_MAPPING)
    message = str(err.value)
    assert "chlo.broadcast_add" in message and "broadcast_dimensions [5]" in message
    assert "\n" not in message


@pytest.mark.needs_iree
@pytest.mark.parametrize("text", [MAPPED, STATIC_SIDE, VALUES])
def test_programs_are_valid_for_iree_opt(text: str) -> None:
    iree = shutil.which("iree-opt")
    assert iree is not None
    proc = subprocess.run([iree, "-"], input=text, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
