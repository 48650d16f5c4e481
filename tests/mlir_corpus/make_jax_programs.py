import jax, jax.numpy as jnp
from jax import export, lax
def exp(f, specs, name, comment):
    e = export.export(jax.jit(f), platforms=["cpu"])(*specs)
    txt = e.mlir_module()
    txt = "\n".join(l for l in txt.splitlines() if not l.strip().startswith("#loc"))
    import re
    txt = re.sub(r" loc\([^()]*(\([^()]*\)[^()]*)*\)", "", txt)
    open(name, "w").write(f"// {comment}\n// Generated with jax {jax.__version__} jax.export (platform cpu), locations stripped.\n" + txt + "\n")
b, h, w = export.symbolic_shape("b, h, w")
conv = lambda x, k: lax.conv_general_dilated(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
exp(conv, [jax.ShapeDtypeStruct((b, h, w, 3), jnp.float32), jax.ShapeDtypeStruct((3, 3, 3, 8), jnp.float32)],
    "jax_conv_same_stride2.mlir", "jax export of a 3x3 conv, stride 2, SAME padding (floor_divide helper; issue 15 class 2)")
s, = export.symbolic_shape("s", constraints=["s >= 3"])
exp(lambda x: jnp.roll(x, 1, axis=0), [jax.ShapeDtypeStruct((s, 4), jnp.float32)], "jax_roll.mlir",
    "jax export of jnp.roll(x, 1, axis=0) on a symbolic axis (divmod into real_dynamic_slice; issue 15 class 2)")
exp(lambda x: lax.dynamic_slice_in_dim(x, x.shape[0] - 3, 3, axis=0) , [jax.ShapeDtypeStruct((s, 4), jnp.float32)], "jax_dynamic_slice_in_dim.mlir",
    "jax export of dynamic_slice_in_dim with a start from the shape (issue 15 class 2)")
exp(lambda x: x[: (x.shape[0] - 1) // 2], [jax.ShapeDtypeStruct((s, 4), jnp.float32)], "jax_floordiv_maybe_zero.mlir",
    "jax export of x[:(s - 1) // 2], a floor division whose numerator may be 0 (issue 15 class 2)")
for f, specs in [("conv", None)]:
    pass
print(jax.eval_shape(conv, jax.ShapeDtypeStruct((b, h, w, 3), jnp.float32), jax.ShapeDtypeStruct((3, 3, 3, 8), jnp.float32)))
print(jax.eval_shape(lambda x: x[: (x.shape[0] - 1) // 2], jax.ShapeDtypeStruct((s, 4), jnp.float32)))
