"""Regenerate the ``jax_*.mlir`` inputs: ``python tests/mlir_inputs/make_jax_inputs.py tests/mlir_inputs``.

Each is ``jax.export`` of a small function with symbolic shapes: the real-world StableHLO the
MLIR frontend must read (pretty forms, shape assertions, ``jax.global_constant`` arguments).
The same functions serve as the runtime oracle in ``tests/frontends/mlir/test_frontend.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
from jax import export, lax


def attention(q, k, v):
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / 8.0
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores, axis=-1), v)


FUNCTIONS = {
    "add_broadcast": (lambda x, y: x + y, ("b, s", "s")),
    "concat_reshape": (lambda x: jnp.concatenate([x, x], axis=0).reshape(-1), ("b, s",)),
    "matmul_reduce": (lambda x, w: jnp.tanh(x @ w).sum(axis=1), ("b, 4", (4, 8))),
    "slice_mul": (lambda x: x[:, 1:] * 2.0, ("b, s",)),
    "concat_2b": (lambda x, y: jnp.concatenate([x, y]), ("2*b, s", "b, s")),
    "attention": (attention, ("b, s, 64", "b, s, 64", "b, s, 64")),
    "conv": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME"), ("b, 3, h, w", (8, 3, 3, 3))),
    "while": (lambda x: lax.fori_loop(0, 3, lambda i, a: a * 2.0, x), ("b",)),
    "pad_transpose": (lambda x: jnp.pad(x, ((1, 2), (0, 3))).T, ("b, s",)),
}


def export_text(name: str) -> str:
    """The StableHLO text of ``FUNCTIONS[name]`` exported with its symbolic shapes."""
    fn, specs = FUNCTIONS[name]
    scope = export.SymbolicScope()
    args = [
        jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope) if isinstance(s, str) else s, jnp.float32)
        for s in specs
    ]
    return export.export(jax.jit(fn))(*args).mlir_module()


def main(out: Path) -> None:
    for name, (_, specs) in FUNCTIONS.items():
        header = f"// jax {jax.__version__}: jax.export of {name} with shapes {specs!r}.\n"
        (out / f"jax_{name}.mlir").write_text(header + export_text(name))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
