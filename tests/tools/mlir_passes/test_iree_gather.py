"""``for-iree``'s gathers as slices (`symshape.tools.mlir_passes.iree_gather`), end to end: jax's
strided slices (``x[..., ::2]``) and row reads (``x[i]``, in a loop or at an index given as an
input, past the end included: the gather clamps the start, and so must the slice) exported with
symbolic shapes, rewritten, compiled by IREE once and run at three sizes against
``Exported.call``; and a gather that is not provably a slice left as it is."""

from __future__ import annotations

from typing import Any

import pytest

from tests.iree_programs import PENDING, PROGRAMS, Program
from tests.tools.mlir_passes.test_for_iree import assert_same, compile_for_cpu, for_iree, run

pytestmark = [pytest.mark.needs_jax, pytest.mark.needs_iree_runtime]

F32, I32 = "float32", "int32"


def _every_third_from_1(x: Any) -> Any:
    return x[:, 1::3] * 2


def _even_rows(x: Any) -> Any:
    return x[::2] + 1


def _rows_past_the_end(x: Any) -> Any:
    """Rows 0 .. t+1 of a ``t``-row ``x``, each times its position: rows t and t+1 read row t-1."""
    import jax
    import jax.numpy as jnp

    return jax.lax.fori_loop(0, x.shape[0] + 2, lambda i, a: a + x[i] * (i + 1.0), jnp.zeros(x.shape[1:], x.dtype))


def _row_at(x: Any, i: Any) -> Any:
    """Row ``i[0]`` of ``x``; the inputs' indices run to 63, mostly past the end (clamped)."""
    return x[i[0]] * 2


def _all_programs() -> dict[str, Program]:
    return {**PROGRAMS, **PENDING}


CASES: dict[str, Program] = {
    "rotary embedding": _all_programs()["rotary embedding"],
    "loop over rows": _all_programs()["loop over rows"],
    "Swin patch merging": _all_programs()["Swin patch merging"],
    "x[:, 1::3]": Program(_every_third_from_1, {"b": 1, "n": 1}, [(("b", "n"), F32)]),  # at n = 1 it is empty
    "x[::2], a dynamic leading dim": Program(_even_rows, {"n": 1}, [(("n", 4), F32)]),
    "rows past the end in a loop": Program(_rows_past_the_end, {"t": 1, "n": 1}, [(("t", "n"), F32)]),
    "row at an input index": Program(_row_at, {"t": 1, "n": 1}, [(("t", "n"), F32), ((1,), I32)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_gather_becomes_a_slice_iree_compiles_once_and_it_runs_right_at_every_size(name: str) -> None:
    program = CASES[name]
    exported = program.exported()
    text = for_iree(exported.mlir_module())
    assert "gather" not in text and "tensor.extract_slice" in text
    vmfb = compile_for_cpu(text)
    for seed, sizes in enumerate(program.sizes()):
        args = program.inputs(sizes, seed)
        assert_same(run(vmfb, args), exported.call(*args), str(sizes))


def test_a_strided_slice_is_proven_inside_and_a_row_read_is_clamped() -> None:
    """``x[..., 1::2]``: offset 1, stride 2, 8 elements of 16, no clamp; ``x[i]`` in a loop: the
    start clamped into ``[0, t - 1]``."""
    strided = for_iree(CASES["rotary embedding"].exported().mlir_module())
    cuts = [ln for ln in strided.splitlines() if "tensor.extract_slice" in ln]
    assert len(cuts) == 2 and all("[1, 1, 2]" in ln for ln in cuts), cuts
    assert "arith.minsi" not in strided
    row = for_iree(CASES["loop over rows"].exported().mlir_module())
    assert "arith.maxsi" in row and "arith.minsi" in row and "tensor.collapse_shape" in row


def test_a_row_index_past_the_end_or_before_the_start_reads_the_row_jax_reads() -> None:
    import numpy as np

    program = CASES["row at an input index"]
    exported = program.exported()
    vmfb = compile_for_cpu(for_iree(exported.mlir_module()))
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    for i in (0, 2, 3, 63, -1, -3, -4, -100):
        args = (x, np.array([i], np.int32))
        assert_same(run(vmfb, args), exported.call(*args), str(i))


GATHER = """
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %n32 = arith.index_cast %n : index to i32
  %shape = tensor.from_elements %n32 : tensor<1xi32>
  %iota = "stablehlo.dynamic_iota"(%shape) {iota_dimension = 0 : i64} : (tensor<1xi32>) -> tensor<?xi32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %twos = "stablehlo.dynamic_broadcast_in_dim"(%two, %shape) {broadcast_dimensions = array<i64>}
    : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %starts = stablehlo.multiply %twos, %iota : tensor<?xi32>
  %column = stablehlo.reshape %starts : (tensor<?xi32>) -> tensor<?x1xi32>
  %y = "stablehlo.gather"(%x, %column) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
    collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}
    : (tensor<?x4xf32>, tensor<?x1xi32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
"""


def test_a_stride_that_runs_past_the_end_is_no_slice() -> None:
    """Starts 0, 2, .., 2(n-1) over ``n`` rows: from the second row on the gather clamps them,
    which no strided slice expresses; the gather stays (its indices collapsed for IREE)."""
    text = for_iree(GATHER)
    assert "stablehlo.gather" in text and "tensor.extract_slice" not in text
