"""The jax frontend: a serialized `jax.export.Exported`, read through the MLIR frontend."""
