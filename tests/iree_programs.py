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
        """Random arguments at ``sizes``: integers in [0, 64) (valid indices of the tables), floats
        of scale 0.25 (sums of products stay small, so float32 rounding stays under atol)."""
        rng = np.random.default_rng(seed)
        out: list[np.ndarray] = []
        for shape, dtype in self.specs:
            dims = tuple(sizes[d] if isinstance(d, str) else d for d in shape)
            if np.issubdtype(np.dtype(dtype), np.integer):
                out.append(rng.integers(0, 64, size=dims).astype(dtype))
            else:
                out.append((0.25 * rng.standard_normal(dims)).astype(dtype))
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


def _causal_attention(x: Any, wq: Any, wk: Any, wv: Any) -> Any:
    import jax
    import jax.numpy as jnp

    q, k, v = x @ wq, x @ wk, x @ wv
    s = q @ jnp.swapaxes(k, -1, -2) / 4.0
    mask = jnp.tril(jnp.ones((x.shape[1], x.shape[1]), bool))
    return jax.nn.softmax(jnp.where(mask, s, -1e9), -1) @ v


def _grouped_query(q: Any, k: Any) -> Any:
    import jax.numpy as jnp

    return jnp.einsum("bhqd,bhkd->bhqk", q, jnp.repeat(k, 2, axis=1))


def _padding_mask(x: Any, m: Any) -> Any:
    import jax
    import jax.numpy as jnp

    s = jnp.where(m[:, None, :] > 0, x @ jnp.swapaxes(x, -1, -2), -1e9)
    return jax.nn.softmax(s, -1) @ x


def _top2(x: Any) -> Any:
    import jax

    return jax.lax.top_k(x, 2)[0] * 2


def _upsample(x: Any) -> Any:
    import jax.numpy as jnp

    return jnp.repeat(jnp.repeat(x, 2, axis=1), 2, axis=2)


def _masked_mean(x: Any, m: Any) -> Any:
    import jax.numpy as jnp

    return (x * m[..., None]).sum(1) / jnp.maximum(m.sum(1, keepdims=True), 1)


def _next_token(logits: Any) -> Any:
    import jax.numpy as jnp

    return jnp.argmax(logits, -1)


def _cross_entropy(logits: Any, labels: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return -jnp.take_along_axis(jax.nn.log_softmax(logits, -1), labels[..., None], -1).mean()


def _rope(x: Any) -> Any:
    import jax.numpy as jnp

    d = x.shape[-1]
    angle = jnp.arange(x.shape[1], dtype=jnp.float32)[:, None] / (10000 ** (jnp.arange(0, d, 2) / d))
    even, odd = x[..., ::2], x[..., 1::2]
    cos, sin = jnp.cos(angle), jnp.sin(angle)
    return jnp.concatenate([even * cos - odd * sin, even * sin + odd * cos], -1)


def _cumsum_scan(x: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.scan(lambda c, r: (c + r, c + r), jnp.zeros(x.shape[1:], x.dtype), x)[1]


def _row_loop(x: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.fori_loop(0, x.shape[0], lambda i, a: a + x[i], jnp.zeros(x.shape[1:], x.dtype))


def _max_pool(x: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


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
    "causal attention": Program(
        _causal_attention, {"b": 1, "s": 1}, [(("b", "s", 16), F32), ((16, 16), F32), ((16, 16), F32), ((16, 16), F32)]
    ),
    "grouped-query scores": Program(
        _grouped_query, {"b": 1, "q": 1, "k": 1}, [(("b", 4, "q", 8), F32), (("b", 2, "k", 8), F32)]
    ),
    "padding mask": Program(_padding_mask, {"b": 1, "s": 1}, [(("b", "s", 8), F32), (("b", "s"), F32)]),
    "top-2": Program(_top2, {"n": 1}, [(("n", 8), F32)]),
    "2x upsample": Program(_upsample, {"b": 1, "h": 1, "w": 1}, [(("b", "h", "w", 3), F32)]),
    "masked mean": Program(_masked_mean, {"b": 1, "s": 1}, [(("b", "s", 8), F32), (("b", "s"), F32)]),
    "next token": Program(_next_token, {"b": 1, "s": 1}, [(("b", "s", 32), F32)]),
    "cross entropy": Program(_cross_entropy, {"b": 1, "s": 1}, [(("b", "s", 64), F32), (("b", "s"), I32)]),
    # from h = w = 2: at 1 the output is empty, and IREE's run fails on it with or without for-iree
    "2x2 max pool": Program(_max_pool, {"b": 1, "h": 2, "w": 2}, [(("b", "h", "w", 3), F32)]),
}

PENDING: dict[str, Program] = {
    "strided conv, SAME padding": Program(
        _conv_same, {"b": 1, "h": 1, "w": 1}, [(("b", "h", "w", 3), F32), ((3, 3, 3, 8), F32)]
    ),
    "rotary embedding": Program(_rope, {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    "scan": Program(_cumsum_scan, {"t": 1, "n": 1}, [(("t", "n"), F32)]),
    "loop over rows": Program(_row_loop, {"t": 1, "n": 1}, [(("t", "n"), F32)]),
}
"""Programs ``for-iree`` does not yet bring through IREE (benchmarks/for_iree.py reports them):
a convolution with dynamic spatial dims (IREE needs them static), a strided ``dynamic_gather``
(``x[..., ::2]``), a broadcast inside a loop body, the row ``dynamic_gather`` of ``x[i]``."""
