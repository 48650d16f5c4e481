"""Sizes computed in floats (`symshape.rules.hlo.float_sizes`), as torch-mlir writes the length of
``torch.arange``: the ``dynamic_iota`` length is an exact formula of the input dim, checked against
numpy's own float arithmetic at many sizes; an inexact or untracked chain stays unknown."""

from __future__ import annotations

import math

import numpy as np
import pytest

from symshape.algebra.expr import evaluate
from symshape.frontends.mlir.frontend import analyze_mlir_text

ARANGE = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xi64> {{
  %c = stablehlo.constant dense<{step}> : tensor<i64>
  %c0 = stablehlo.constant dense<{start}> : tensor<i64>
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>
  %len = stablehlo.subtract %n, %c0 : tensor<i64>
  %a = stablehlo.convert %len : (tensor<i64>) -> tensor<{ftype}>
  %b = stablehlo.convert %c : (tensor<i64>) -> tensor<{ftype}>
  %q = stablehlo.divide %a, %b : tensor<{ftype}>
  %r = stablehlo.{rounding} %q : tensor<{ftype}>
  %i = stablehlo.convert %r : (tensor<{ftype}>) -> tensor<i64>
  %s = stablehlo.reshape %i : (tensor<i64>) -> tensor<1xi64>
  %iota = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi64>) -> tensor<?xi64>
  return %iota : tensor<?xi64>
}}
"""


def iota_len(**kw: object):
    result = analyze_mlir_text(ARANGE.format(**kw))
    return result.shape("@main:%iota")[0], result


CHAINS = [(0, 1, "ceil"), (0, 3, "ceil"), (2, 4, "floor"), (1, 2, "ceil")]


@pytest.mark.parametrize("ftype", ["f64", "f32"])
@pytest.mark.parametrize(("start", "step", "rounding"), CHAINS)
def test_the_length_of_arange_is_exact(ftype: str, start: int, step: int, rounding: str) -> None:
    dim, _ = iota_len(ftype=ftype, start=start, step=step, rounding=rounding)
    assert not isinstance(dim, int) and dim.free == {"x_d0"}, dim
    dtype = np.float64 if ftype == "f64" else np.float32
    for n in [*range(start, 40), 1000, 4097]:
        q = dtype(n - start) / dtype(step)
        want = int(math.ceil(q) if rounding == "ceil" else math.floor(q))
        assert evaluate(dim, {"x_d0": n}) == want, (n, dim)


def test_the_float_limit_is_a_listed_guard() -> None:
    """f32 holds every integer only below 2**24: the claim rests on a guard that says so."""
    _, result = iota_len(ftype="f32", start=0, step=1, rounding="ceil")
    assert any("16777216" in str(g) for g in result.guards()), result.guards()


def test_a_float_that_is_not_a_size_stays_unknown() -> None:
    text = ARANGE.format(ftype="f32", start=0, step=1, rounding="ceil").replace(
        "%a = stablehlo.convert %len : (tensor<i64>) -> tensor<f32>",
        "%a0 = stablehlo.convert %len : (tensor<i64>) -> tensor<f32>\n  %a = stablehlo.sine %a0 : tensor<f32>")
    result = analyze_mlir_text(text)
    dim = result.shape("@main:%iota")[0]
    assert not isinstance(dim, int) and "x_d0" not in dim.free, dim
