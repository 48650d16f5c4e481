"""Regenerate the ``jax_*.mlir`` inputs: ``python tests/mlir_inputs/make_jax_inputs.py tests/mlir_inputs``.

Each is ``jax.export`` of a small function with symbolic shapes, the real-world StableHLO the
MLIR frontend must read (pretty forms, shape assertions, ``jax.global_constant`` arguments).
"""

import jax, jax.numpy as jnp
from jax import export, lax
import sys
OUT = sys.argv[1]
def save(name, f, *specs, dtype=jnp.float32):
    scope = export.SymbolicScope()
    shapes = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope) if isinstance(s, str) else s, dtype) for s in specs]
    exp = export.export(jax.jit(f))(*shapes)
    text = exp.mlir_module()
    header = f"// jax {jax.__version__}: jax.export of {name} with shapes {specs!r}.\n"
    open(f"{OUT}/jax_{name}.mlir", "w").write(header + text)
save("add_broadcast", lambda x, y: x + y, "b, s", "s")
save("concat_reshape", lambda x: jnp.concatenate([x, x], axis=0).reshape(-1), "b, s")
save("matmul_reduce", lambda x, w: jnp.tanh(x @ w).sum(axis=1), "b, 4", (4, 8))
save("slice_mul", lambda x: x[:, 1:] * 2.0, "b, s")
save("concat_2b", lambda x, y: jnp.concatenate([x, y]), "2*b, s", "b, s")
def attn(q, k, v):
    s = jnp.einsum("bqd,bkd->bqk", q, k) / 8.0
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, axis=-1), v)
save("attention", attn, "b, s, 64", "b, s, 64", "b, s, 64")
save("conv", lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME"), "b, 3, h, w", (8, 3, 3, 3))
save("while", lambda x: lax.fori_loop(0, 3, lambda i, a: a * 2.0, x), "b")
save("pad_transpose", lambda x: jnp.pad(x, ((1, 2), (0, 3))).T, "b, s")
