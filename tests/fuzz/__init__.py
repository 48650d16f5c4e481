"""Fuzzers that check symshape against execution and hostile input (issue 11).

`onnx_programs` (random ONNX shape programs against onnxruntime), `mlir_programs` (random jnp
programs against ``jax.eval_shape``) and `readers` (parsers and readers fed hostile bytes) each
expose ``run(minutes, seed, out) -> failures``; ``python -m tests.fuzz --minutes N`` runs them.
"""
