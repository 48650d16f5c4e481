"""Small ``jax.export`` programs with symbolic shapes, of the kinds real models are made of, for
the ``for-iree`` pipeline: each is exported, rewritten, compiled by IREE once and run at several
sizes against ``Exported.call`` (tests/tools/mlir_passes/test_for_iree.py, benchmarks/for_iree.py).

A program is ``(function, {symbol: smallest legal size}, argument specs)``; a spec is a shape
(symbol names or ints) and a dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Spec = tuple[tuple[str | int, ...], str]


@dataclass(frozen=True)
class Program:
    """One program: the function, each symbol's smallest legal size, its argument specs."""

    fn: Callable[..., Any]
    lowest: Mapping[str, int]
    specs: Sequence[Spec]

    def exported(self) -> Any:
        """The ``jax.export.Exported`` of the program with symbolic shapes."""
        import jax
        from jax import export

        names = ",".join(self.lowest)
        dims = dict(zip(self.lowest, export.symbolic_shape(names), strict=True))
        args = [
            jax.ShapeDtypeStruct(tuple(dims[d] if isinstance(d, str) else d for d in shape), dtype)
            for shape, dtype in self.specs
        ]
        return export.export(jax.jit(self.fn))(*args)

    def inputs(self, sizes: Mapping[str, int], seed: int) -> list[np.ndarray]:
        """Random arguments at ``sizes`` (integers in [0, 64): valid indices of the tables)."""
        rng = np.random.default_rng(seed)
        out: list[np.ndarray] = []
        for shape, dtype in self.specs:
            dims = tuple(sizes[d] if isinstance(d, str) else d for d in shape)
            if np.issubdtype(np.dtype(dtype), np.integer):
                out.append(rng.integers(0, 64, size=dims).astype(dtype))
            else:
                out.append(rng.standard_normal(dims).astype(dtype))
        return out

    def sizes(self) -> list[dict[str, int]]:
        """Three assignments: the smallest legal sizes, then two larger, each symbol different."""
        return [
            {s: lo + step * (i + 1) if step else lo for i, (s, lo) in enumerate(self.lowest.items())}
            for step in (0, 3, 9)
        ]


def _softmax(x: Any) -> Any:
    import jax

    return jax.nn.softmax(x, axis=-1)


def _layernorm(x: Any, g: Any) -> Any:
    import jax.numpy as jnp

    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * g


def _attention(q: Any, k: Any, v: Any) -> Any:
    import jax
    import jax.numpy as jnp

    s = jnp.einsum("bqd,bkd->bqk", q, k) / 4.0
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, -1), v)


def _heads(x: Any) -> Any:
    b, s, _ = x.shape
    return x.reshape(b, s, 4, 8).transpose(0, 2, 1, 3)


def _flatten(x: Any) -> Any:
    return x.reshape(-1, x.shape[-1]) * 2.0


def _mlp(x: Any, w: Any, b: Any) -> Any:
    import jax.numpy as jnp

    return jnp.maximum(x @ w + b, 0.0)


def _embed(table: Any, ids: Any) -> Any:
    return table[ids]


def _pad_to_8(x: Any) -> Any:
    import jax.numpy as jnp

    return jnp.pad(x, ((0, (-x.shape[0]) % 8), (0, 0)))


def _concat_tail(a: Any, b: Any) -> Any:
    import jax.numpy as jnp

    return jnp.concatenate([a, b], 0)[1:] * 2


def _conv_same(x: Any, w: Any) -> Any:
    import jax

    return jax.lax.conv_general_dilated(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


F32, I32 = "float32", "int32"
PROGRAMS: dict[str, Program] = {
    "softmax rows of 64": Program(_softmax, {"b": 1}, [(("b", 64), F32)]),
    "softmax": Program(_softmax, {"b": 1, "n": 1}, [(("b", "n"), F32)]),
    "layernorm": Program(_layernorm, {"b": 1, "s": 1}, [(("b", "s", 32), F32), ((32,), F32)]),
    "attention": Program(
        _attention, {"b": 1, "q": 1, "k": 1}, [(("b", "q", 16), F32), (("b", "k", 16), F32), (("b", "k", 16), F32)]
    ),
    "split heads": Program(_heads, {"b": 1, "s": 1}, [(("b", "s", 32), F32)]),
    "flatten": Program(_flatten, {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    "mlp": Program(_mlp, {"n": 1}, [(("n", 32), F32), ((32, 16), F32), ((16,), F32)]),
    "embedding": Program(_embed, {"b": 1, "s": 1}, [((64, 32), F32), (("b", "s"), I32)]),
    "pad to 8": Program(_pad_to_8, {"n": 1}, [(("n", 4), F32)]),
    "concat then slice": Program(_concat_tail, {"n": 1, "m": 1}, [(("n", 4), F32), (("m", 4), F32)]),
}

PENDING: dict[str, Program] = {
    "strided conv, SAME padding": Program(
        _conv_same, {"b": 1, "h": 1, "w": 1}, [(("b", "h", "w", 3), F32), ((3, 3, 3, 8), F32)]
    ),
}
"""Programs ``for-iree`` does not yet bring through IREE (benchmarks/for_iree.py reports them):
IREE lowers a convolution only with static output spatial dims."""
