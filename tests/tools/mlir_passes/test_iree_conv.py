"""``for-iree`` on convolutions with dynamic spatial dims (`symshape.tools.mlir_passes.iree_conv`):
each exported by ``jax.export`` with symbolic sizes, rewritten, compiled by IREE once and run at
three sizes (the smallest legal first) against ``Exported.call`` (rtol 1e-4, atol 1e-5)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tests.iree_programs import Program
from tests.tools.mlir_passes.test_for_iree import assert_same, compile_for_cpu, for_iree, run

pytestmark = [pytest.mark.needs_jax, pytest.mark.needs_iree_runtime]

NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")
F32 = "float32"


def _conv(x: Any, w: Any, strides: tuple[int, ...], padding: Any, numbers: tuple[str, str, str],
          dilation: tuple[int, ...] | None = None) -> Any:
    import jax

    return jax.lax.conv_general_dilated(x, w, strides, padding, rhs_dilation=dilation, dimension_numbers=numbers)


def _program(strides: tuple[int, ...], padding: Any, numbers: tuple[str, str, str], x: tuple[str | int, ...],
             w: tuple[int, ...], lowest: dict[str, int], dilation: tuple[int, ...] | None = None) -> Program:
    fn = partial(_conv, strides=strides, padding=padding, numbers=numbers, dilation=dilation)
    return Program(fn, lowest, [(x, F32), (w, F32)])


CONVS: dict[str, Program] = {
    # jax computes SAME padding with a stride from h and w: a dynamic_conv
    "SAME, stride 2": _program((2, 2), "SAME", NHWC, ("b", "h", "w", 3), (3, 3, 3, 8), {"b": 1, "h": 1, "w": 1}),
    "VALID, stride 1": _program((1, 1), "VALID", NHWC, ("b", "h", "w", 3), (3, 3, 3, 8), {"b": 1, "h": 3, "w": 3}),
    "NCHW / OIHW, SAME": _program((1, 1), "SAME", NCHW, ("b", 3, "h", "w"), (8, 3, 3, 3), {"b": 1, "h": 1, "w": 1}),
    "NCHW / OIHW, SAME, stride 2": _program(
        (2, 2), "SAME", NCHW, ("b", 3, "h", "w"), (8, 3, 3, 3), {"b": 1, "h": 1, "w": 1}
    ),
    "rhs dilation 2, SAME": _program(
        (1, 1), "SAME", NHWC, ("b", "h", "w", 3), (3, 3, 3, 8), {"b": 1, "h": 1, "w": 1}, dilation=(2, 2)
    ),
    "rhs dilation 2, VALID, stride 2": _program(
        (2, 2), "VALID", NHWC, ("b", "h", "w", 3), (3, 3, 3, 8), {"b": 1, "h": 5, "w": 5}, dilation=(2, 2)
    ),
    "explicit padding, strides 2 and 1": _program(
        (2, 1), ((1, 2), (0, 1)), NHWC, ("b", "h", "w", 3), (3, 3, 3, 8), {"b": 1, "h": 1, "w": 2}
    ),
    "an unusual layout (CHWN, OHWI -> HCNW)": _program(
        (2, 2), "SAME", ("CHWN", "OHWI", "HCNW"), (3, "h", "w", "b"), (8, 3, 3, 3), {"h": 1, "w": 1, "b": 1}
    ),
    "1-D, SAME, stride 2": _program((2,), "SAME", ("NWC", "WIO", "NWC"), ("b", "w", 3), (3, 3, 8), {"b": 1, "w": 1}),
}


def _runs_right(program: Program, text: str) -> None:
    exported = program.exported()
    vmfb = compile_for_cpu(text)
    for seed, sizes in enumerate(program.sizes()):
        args = program.inputs(sizes, seed)
        assert_same(run(vmfb, args), exported.call(*args), str(sizes))


@pytest.mark.parametrize("name", sorted(CONVS))
def test_a_convolution_with_dynamic_spatial_dims_compiles_once_and_runs_right_at_every_size(name: str) -> None:
    program = CONVS[name]
    text = for_iree(program.exported().mlir_module())
    assert "stablehlo.convolution" not in text and "stablehlo.dynamic_conv" not in text
    assert '"linalg.generic"' in text
    _runs_right(program, text)


def test_a_convolution_with_static_spatial_dims_is_left_as_it_is() -> None:
    """Only the batch is dynamic: IREE lowers the ``convolution`` itself, and it stays."""
    program = _program((2, 2), "SAME", NHWC, ("b", 8, 9, 3), (3, 3, 3, 8), {"b": 1})
    text = for_iree(program.exported().mlir_module())
    assert "stablehlo.convolution" in text and "linalg" not in text
    _runs_right(program, text)
