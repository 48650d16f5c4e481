"""HLO ops whose dimension attributes are out of range (or repeated) are malformed programs: a
one-line ModelError naming the op and the attribute, never a silently wrong shape. iree-opt's
verifier rejects each program too (the independent check that they are invalid), and accepts
the in-range variant the analysis gets right."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from symshape.errors import ModelError
from symshape.frontends.mlir.frontend import analyze_mlir_text

REDUCE = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [DIM]
      : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

CONCAT = """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = DIM : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
"""

TRANSPOSE = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %0 = stablehlo.transpose %a, dims = [DIM] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
"""

BROADCAST = """
func.func @main(%a: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [DIM] : (tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
"""

# The result dims come from data (%s), so only the rank is checked for the valid variant.
DYN_BROADCAST = """
func.func @main(%a: tensor<?x4xf32>, %s: tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [DIM]
      : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
"""

DIM_SIZE = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<i32> {
  %0 = stablehlo.get_dimension_size %a, dim = DIM : (tensor<?x4xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}
"""

REVERSE = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.reverse %a, dims = [DIM] : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
"""

# (program, an invalid DIM, the attribute named in the error, a valid DIM, the result dims then)
CASES = [
    (REDUCE, "7", "dimensions", "1", ["a_d0"]),
    (REDUCE, "-1", "dimensions", "1", ["a_d0"]),
    (CONCAT, "2", "dimension", "1", ["a_d0", "8"]),
    (CONCAT, "-1", "dimension", "1", ["a_d0", "8"]),
    (TRANSPOSE, "1, 1", "permutation", "1, 0", ["4", "a_d0"]),
    (TRANSPOSE, "0, 2", "permutation", "1, 0", ["4", "a_d0"]),
    (BROADCAST, "2", "broadcast_dimensions", "1", ["3", "4"]),
    (DYN_BROADCAST, "1, 1", "broadcast_dimensions", "1, 2", None),
    (DYN_BROADCAST, "0, 3", "broadcast_dimensions", "1, 2", None),
    (DIM_SIZE, "2", "dimension", "0", []),
    (REVERSE, "2", "dimensions", "0", ["a_d0", "4"]),
    (REVERSE, "0, 0", "dimensions", "0", ["a_d0", "4"]),
]


def op_name(text: str) -> str:
    return text.split("%0 = ")[1].split()[0].split("(")[0]


IDS = [f"{op_name(text)}[{bad}]" for text, bad, *_ in CASES]


@pytest.mark.parametrize(("text", "bad", "attr", "good", "dims"), CASES, ids=IDS)
def test_out_of_range_dimension_is_a_model_error(
    text: str, bad: str, attr: str, good: str, dims: list[str] | None
) -> None:
    op = op_name(text)
    with pytest.raises(ModelError) as err:
        analyze_mlir_text(text.replace("DIM", bad))
    message = str(err.value)
    assert op in message and attr in message, message
    assert "\n" not in message
    result = analyze_mlir_text(text.replace("DIM", good))
    got = [str(d) for d in result.shape("@main:%0") or ()]
    assert got == dims if dims is not None else len(got) == 3


@pytest.mark.needs_iree
@pytest.mark.parametrize(("text", "bad", "attr", "good", "dims"), CASES, ids=IDS)
def test_iree_opt_agrees(text: str, bad: str, attr: str, good: str, dims: list[str] | None) -> None:  # noqa: ARG001
    iree = shutil.which("iree-opt")
    assert iree is not None

    def verifies(program: str) -> bool:
        proc = subprocess.run([iree, "-"], input=program, capture_output=True, text=True, timeout=120, check=False)
        return proc.returncode == 0

    assert not verifies(text.replace("DIM", bad))
    assert verifies(text.replace("DIM", good))
