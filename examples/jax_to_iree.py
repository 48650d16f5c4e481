"""From a jax function with a symbolic batch and sequence to one IREE module that runs at every
size, through ``symshape opt -p for-iree``.

    pip install -e ".[test]"          # jax, iree-base-compiler and iree-base-runtime
    python examples/jax_to_iree.py

IREE alone refuses what jax exports here (``failed to legalize operation
'stablehlo.dynamic_broadcast_in_dim'``); after ``for-iree`` it compiles once, and the module
runs at any batch and sequence.
"""

from __future__ import annotations

import iree.compiler as compiler
import iree.runtime as runtime
import jax
import numpy as np
from jax import export

from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes


def layer(x: jax.Array, w: jax.Array) -> jax.Array:
    """A softmax attention over the sequence, then a dense layer."""
    scores = jax.nn.softmax(x @ x.swapaxes(-1, -2) / 4.0, axis=-1)
    return (scores @ x) @ w


def main() -> None:
    """Export, rewrite, compile once, run at three sizes against jax."""
    b, s = export.symbolic_shape("b, s")
    exported = export.export(jax.jit(layer))(
        jax.ShapeDtypeStruct((b, s, 16), np.float32), jax.ShapeDtypeStruct((16, 8), np.float32)
    )
    ctx, module = parse_text(exported.mlir_module())
    run_passes(ctx, module, "for-iree")
    vmfb = compiler.compile_str(print_module(module), target_backends=["llvm-cpu"], input_type="stablehlo",
                                extra_args=["--iree-llvmcpu-target-cpu=host"])
    compiled = runtime.load_vm_flatbuffer(vmfb, driver="local-task")
    rng = np.random.default_rng(0)
    for batch, seq in ((1, 1), (2, 7), (3, 64)):
        x = (0.25 * rng.standard_normal((batch, seq, 16))).astype(np.float32)
        w = (0.25 * rng.standard_normal((16, 8))).astype(np.float32)
        got, want = np.asarray(compiled.main(x, w).to_host()), np.asarray(exported.call(x, w))
        print(f"b={batch} s={seq}: shape {got.shape}, max difference from jax {np.max(np.abs(got - want)):.1e}")


if __name__ == "__main__":
    main()
