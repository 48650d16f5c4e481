"""Regenerate the corpus's jax_*.mlir files (jax.export of small idioms; locations stripped).

Run from this directory: python make_jax_programs.py
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
from jax import export, lax

HERE = Path(__file__).resolve().parent


def write(fn: Callable[..., Any], specs: Sequence[jax.ShapeDtypeStruct], name: str, comment: str) -> None:
    """Export fn for the CPU platform and write its module without location attributes."""
    exported = export.export(jax.jit(fn), platforms=["cpu"])(*specs)
    lines = [ln for ln in exported.mlir_module().splitlines() if not ln.strip().startswith("#loc")]
    text = re.sub(r" loc\([^()]*(\([^()]*\)[^()]*)*\)", "", "\n".join(lines))
    header = f"// {comment}\n// Generated with jax {jax.__version__} jax.export (platform cpu), locations stripped.\n"
    (HERE / name).write_text(header + text + "\n")


def conv_same(x: jax.Array, k: jax.Array) -> jax.Array:
    """A 3x3 stride-2 SAME convolution, NHWC x HWIO."""
    return lax.conv_general_dilated(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def main() -> None:
    """Write the four jax programs."""
    b, h, w = export.symbolic_shape("b, h, w")
    (s,) = export.symbolic_shape("s", constraints=["s >= 3"])
    f32 = jnp.float32
    image = jax.ShapeDtypeStruct((b, h, w, 3), f32)
    kernel = jax.ShapeDtypeStruct((3, 3, 3, 8), f32)
    rows = jax.ShapeDtypeStruct((s, 4), f32)
    write(conv_same, [image, kernel], "jax_conv_same_stride2.mlir",
          "jax export of a 3x3 conv, stride 2, SAME padding (floor_divide helper; issue 15 class 2)")
    write(lambda x: jnp.roll(x, 1, axis=0), [rows], "jax_roll.mlir",
          "jax export of jnp.roll(x, 1, axis=0) on a symbolic axis (divmod into real_dynamic_slice; issue 15 class 2)")
    write(lambda x: lax.dynamic_slice_in_dim(x, x.shape[0] - 3, 3, axis=0), [rows], "jax_dynamic_slice_in_dim.mlir",
          "jax export of dynamic_slice_in_dim with a start from the shape (issue 15 class 2)")
    write(lambda x: x[: (x.shape[0] - 1) // 2], [rows], "jax_floordiv_maybe_zero.mlir",
          "jax export of x[:(s - 1) // 2], a floor division of a size expression (issue 15 class 2)")


if __name__ == "__main__":
    main()
