"""Small ``jax.export`` programs with symbolic shapes, of the kinds real models are made of, for
the ``for-iree`` pipeline: each is exported, rewritten, compiled by IREE once and run at several
sizes against ``Exported.call`` (tests/tools/mlir_passes/test_for_iree.py, benchmarks/for_iree.py).

A program is ``(function, {symbol: smallest legal size}, argument specs)``; a spec is a shape and
a dtype, each dim an int, a symbol or an expression over the symbols in jax's syntax (``"4*k"``: a
size that is a multiple of 4). A program whose function takes a pytree (a dict of inputs) says how in
``tree``; its outputs may be any pytree, which IREE returns flat, in ``jax.tree_util`` order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from symshape.algebra.expr import evaluate
from symshape.algebra.parse import parse_dim

Spec = tuple[tuple[str | int, ...], str]


def random_arrays(shapes: Sequence[tuple[int, ...]], dtypes: Sequence[str], seed: int) -> list[np.ndarray]:
    """One random array per shape: integers in [0, 64) (valid indices of the tables), booleans
    half true, floats of scale 0.25 (sums of products stay small, so float32 rounding stays under
    atol)."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    for dims, dtype in zip(shapes, dtypes, strict=True):
        if np.dtype(dtype) == np.bool_:
            out.append(rng.integers(0, 2, size=dims).astype(bool))
        elif np.issubdtype(np.dtype(dtype), np.integer):
            out.append(rng.integers(0, 64, size=dims).astype(dtype))
        else:
            out.append((0.25 * rng.standard_normal(dims)).astype(dtype))
    return out


@dataclass(frozen=True)
class Program:
    """One program: the function, each symbol's smallest legal size, its argument specs; when the
    function does not take one argument per spec, ``tree``: a pytree of indices into ``specs``
    (``({"x": 0, "mask": 1},)`` calls ``fn({"x": a0, "mask": a1})``); ``constraints`` on the
    symbols for ``jax.export`` (``"s <= 64"``: at most as many tokens as position embeddings)."""

    fn: Callable[..., Any]
    lowest: Mapping[str, int]
    specs: Sequence[Spec]
    tree: Any = None
    constraints: Sequence[str] = ()

    def arguments(self, leaves: Sequence[Any]) -> tuple[Any, ...]:
        """The arguments of ``fn`` made of one value per spec."""
        if self.tree is None:
            return tuple(leaves)
        import jax

        return tuple(jax.tree_util.tree_map(lambda i: leaves[i], self.tree))

    def exported(self) -> Any:
        """The ``jax.export.Exported`` of the program with symbolic shapes."""
        import jax
        from jax import export

        scope = export.SymbolicScope(tuple(self.constraints))
        structs = [
            jax.ShapeDtypeStruct(export.symbolic_shape(",".join(map(str, shape)), scope=scope), dtype)
            for shape, dtype in self.specs
        ]
        return export.export(jax.jit(self.fn))(*self.arguments(structs))

    def shapes(self, sizes: Mapping[str, int]) -> list[tuple[int, ...]]:
        """Each spec's shape at ``sizes``."""
        return [tuple(d if isinstance(d, int) else evaluate(parse_dim(d), sizes) for d in shape)
                for shape, _ in self.specs]

    def inputs(self, sizes: Mapping[str, int], seed: int) -> tuple[Any, ...]:
        """Random arguments of ``fn`` at ``sizes``: integers in [0, 64) (valid indices of the
        tables), booleans half true, floats of scale 0.25 (sums of products stay small, so float32
        rounding stays under atol). IREE takes them as ``jax.tree_util.tree_leaves``."""
        return self.arguments(random_arrays(self.shapes(sizes), [dtype for _, dtype in self.specs], seed))

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


# Model-sized programs (issue 23): blocks of GPT-2, LLaMA, BERT, conv nets, U-Net, Swin, ViT, MoE,
# control flow, pytrees and the shape idioms jax code is written with. Heads are 8 wide throughout.


def _split_heads(x: Any, heads: int) -> Any:
    b, s, d = x.shape
    return x.reshape(b, s, heads, d // heads).transpose(0, 2, 1, 3)


def _merge_heads(x: Any) -> Any:
    b, h, s, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, s, h * dh)


def _causal(q: Any, k: Any, v: Any) -> Any:
    """Attention of ``s`` queries, the last of ``t >= s`` keys (a cache before them), each query
    seeing the keys up to its own position."""
    import jax
    import jax.numpy as jnp

    s, t = q.shape[-2], k.shape[-2]
    scores = q @ jnp.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    seen = jnp.arange(t)[None, :] <= jnp.arange(s)[:, None] + (t - s)
    return jax.nn.softmax(jnp.where(seen, scores, -1e9), -1) @ v


def _gpt2_block(x: Any, g1: Any, g2: Any, wqkv: Any, wo: Any, w1: Any, w2: Any) -> Any:
    import jax
    import jax.numpy as jnp

    q, k, v = (_split_heads(t, 4) for t in jnp.split(_layernorm(x, g1) @ wqkv, 3, axis=-1))
    x = x + _merge_heads(_causal(q, k, v)) @ wo
    return x + jax.nn.gelu(_layernorm(x, g2) @ w1) @ w2


def _gpt2(ids: Any, wte: Any, wpe: Any, g: Any, *block: Any) -> Any:
    x = wte[ids] + wpe[: ids.shape[1]]
    return _layernorm(_gpt2_block(x, *block), g) @ wte.T


def _rms_norm(x: Any, g: Any) -> Any:
    import jax

    return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g


def _rope_half(x: Any, start: Any = 0) -> Any:
    """Rotary embedding of ``b x heads x s x d`` at positions ``start ..``, rotating halves."""
    import jax.numpy as jnp

    d = x.shape[-1]
    angle = (start + jnp.arange(x.shape[-2], dtype=jnp.float32))[:, None] / 10000 ** (jnp.arange(0, d, 2) / d)
    angle = jnp.concatenate([angle, angle], -1)
    rotated = jnp.concatenate([-x[..., d // 2 :], x[..., : d // 2]], -1)
    return x * jnp.cos(angle) + rotated * jnp.sin(angle)


def _llama_block(x: Any, g1: Any, g2: Any, wq: Any, wk: Any, wv: Any, wo: Any, w1: Any, w3: Any, w2: Any) -> Any:
    import jax
    import jax.numpy as jnp

    h = _rms_norm(x, g1)
    q, k, v = _rope_half(_split_heads(h @ wq, 4)), _rope_half(_split_heads(h @ wk, 2)), _split_heads(h @ wv, 2)
    x = x + _merge_heads(_causal(q, jnp.repeat(k, 2, axis=1), jnp.repeat(v, 2, axis=1))) @ wo
    h = _rms_norm(x, g2)
    return x + (jax.nn.silu(h @ w1) * (h @ w3)) @ w2


def _kv_decode(x: Any, past_k: Any, past_v: Any, wq: Any, wk: Any, wv: Any, wo: Any) -> Any:
    """``s`` new tokens after a cache of ``p``: the output and the cache grown to ``p + s``."""
    import jax.numpy as jnp

    q = _split_heads(x @ wq, 2)
    k = jnp.concatenate([past_k, _split_heads(x @ wk, 2)], 2)
    v = jnp.concatenate([past_v, _split_heads(x @ wv, 2)], 2)
    return _merge_heads(_causal(q, k, v)) @ wo, k, v


def _llama_decode(x: Any, past_k: Any, past_v: Any, wq: Any, wk: Any, wv: Any) -> Any:
    """LLaMA attention for new tokens at positions ``p ..`` with RoPE, a grouped cache of ``p``."""
    import jax.numpy as jnp

    p = past_k.shape[2]
    q = _rope_half(_split_heads(x @ wq, 4), p)
    k = jnp.concatenate([past_k, _rope_half(_split_heads(x @ wk, 2), p)], 2)
    v = jnp.concatenate([past_v, _split_heads(x @ wv, 2)], 2)
    return _merge_heads(_causal(q, jnp.repeat(k, 2, axis=1), jnp.repeat(v, 2, axis=1))), k, v


def _bert_layer(x: Any, mask: Any, wqkv: Any, wo: Any, g1: Any, w1: Any, w2: Any, g2: Any) -> Any:
    """A post-norm encoder layer; ``mask`` is true at real tokens, false at padding."""
    import jax
    import jax.numpy as jnp

    q, k, v = (_split_heads(t, 4) for t in jnp.split(x @ wqkv, 3, axis=-1))
    bias = jnp.where(mask, 0.0, -10000.0)[:, None, None, :]
    scores = q @ jnp.swapaxes(k, -1, -2) / np.sqrt(8.0) + bias
    x = _layernorm(x + _merge_heads(jax.nn.softmax(scores, -1) @ v) @ wo, g1)
    return _layernorm(x + jax.nn.gelu(x @ w1, approximate=False) @ w2, g2)


def _conv(x: Any, w: Any, stride: int, padding: str) -> Any:
    import jax

    return jax.lax.conv_general_dilated(x, w, (stride, stride), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _valid_conv_net(x: Any, w1: Any, w2: Any) -> Any:
    import jax

    h = jax.nn.relu(_conv(jax.nn.relu(_conv(x, w1, 1, "VALID")), w2, 1, "VALID"))
    return h.mean((1, 2))


def _resnet_stem(x: Any, w: Any) -> Any:
    import jax
    import jax.numpy as jnp

    h = jax.nn.relu(_conv(x, w, 2, "SAME"))
    return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")


def _unet(x: Any, w1: Any, w2: Any, w3: Any) -> Any:
    import jax
    import jax.numpy as jnp

    skip = jax.nn.relu(_conv(x, w1, 1, "SAME"))
    low = jax.nn.relu(_conv(_max_pool(skip), w2, 1, "SAME"))
    return _conv(jnp.concatenate([skip, _upsample(low)], -1), w3, 1, "SAME")


def _windows(x: Any, n: int) -> Any:
    b, h, w, c = x.shape
    return x.reshape(b, h // n, n, w // n, n, c).transpose(0, 1, 3, 2, 4, 5).reshape(-1, n * n, c)


def _unwindows(t: Any, shape: tuple[Any, ...], n: int) -> Any:
    b, h, w, c = shape
    return t.reshape(b, h // n, w // n, n, n, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, h, w, c)


def _swin_windows(x: Any, wqkv: Any, wo: Any) -> Any:
    import jax.numpy as jnp

    q, k, v = jnp.split(_windows(x, 4) @ wqkv, 3, axis=-1)
    return x + _unwindows(_attention(q, k, v) @ wo, x.shape, 4)


def _swin_shifted(x: Any, wqkv: Any, wo: Any) -> Any:
    import jax.numpy as jnp

    shifted = jnp.roll(x, (-2, -2), (1, 2))
    return x + jnp.roll(_swin_windows(shifted, wqkv, wo) - shifted, (2, 2), (1, 2))


def _patch_merging(x: Any, w: Any) -> Any:
    import jax.numpy as jnp

    parts = [x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]]
    return jnp.concatenate(parts, -1) @ w


def _vit_patchify(img: Any, w: Any, cls: Any) -> Any:
    import jax.numpy as jnp

    b, h, wd, c = img.shape
    patches = img.reshape(b, h // 4, 4, wd // 4, 4, c).transpose(0, 1, 3, 2, 4, 5)
    tokens = patches.reshape(b, (h // 4) * (wd // 4), 16 * c) @ w
    return jnp.concatenate([jnp.broadcast_to(cls, (b, 1, cls.shape[-1])), tokens], 1)


def _halve_until_small(x: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.while_loop(lambda c: jnp.abs(c[0]).max() > 0.01, lambda c: (c[0] * 0.5, c[1] + 1),
                              (x, jnp.int32(0)))


def _branch(x: Any, w: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.cond(x.sum() > 0, lambda y: jnp.tanh(y @ w), lambda y: (y * 2.0) @ w, x)


def _rnn(xs: Any, wx: Any, wh: Any) -> Any:
    import jax
    import jax.numpy as jnp

    def step(h: Any, x: Any) -> Any:
        h = jnp.tanh(x @ wx + h @ wh)
        return h, h

    return jax.lax.scan(step, jnp.zeros((xs.shape[1], wh.shape[0]), xs.dtype), xs)


def _moe_top2(x: Any, wr: Any, w1: Any, w2: Any) -> Any:
    import jax
    import jax.numpy as jnp

    tokens = x.reshape(-1, x.shape[-1])
    gate, expert = jax.lax.top_k(tokens @ wr, 2)
    combine = jnp.einsum("tk,tke->te", jax.nn.softmax(gate, -1), jax.nn.one_hot(expert, wr.shape[1], dtype=x.dtype))
    out = jnp.einsum("teh,ehd->ted", jax.nn.relu(jnp.einsum("td,edh->teh", tokens, w1)), w2)
    return jnp.einsum("te,ted->td", combine, out).reshape(x.shape)


def _pytree(batch: Any, params: Any) -> Any:
    import jax.numpy as jnp

    hidden = params["embed"][batch["tokens"]] * batch["mask"][..., None]
    lengths = batch["mask"].sum(1)
    pooled = hidden.sum(1) / jnp.maximum(lengths, 1)[:, None]
    return {"logits": pooled @ params["head"], "hidden": hidden}, lengths


def _shape_idioms(x: Any) -> Any:
    import jax.numpy as jnp

    b, n = x.shape
    flat = x.reshape(-1)
    kept = jnp.where(flat > flat.sum() / flat.size, flat, 0.0).reshape(b, n)
    halves = jnp.concatenate([x[:, : n // 2] * 2, x[:, n // 2 :]], 1)
    pairs = x.reshape(b, -1, 2).sum(-1)
    return kept + halves, pairs * jnp.arange(n // 2), jnp.full((b,), n, jnp.int32)


def _same_max_pool(x: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")


def _write_past_end(x: Any, row: Any) -> Any:
    """A ``dynamic_update_slice`` of a ``1 x n`` row at start ``t``: the spec clamps it to ``t - 1``."""
    import jax

    return jax.lax.dynamic_update_slice(x, row, (x.shape[0], 0)) * 2.0


F32, I32, BOOL = "float32", "int32", "bool"
D = 32  # the model width
_GPT2 = [((D,), F32), ((D,), F32), ((D, 3 * D), F32), ((D, D), F32), ((D, 2 * D), F32), ((2 * D, D), F32)]
_LLAMA = [((D,), F32), ((D,), F32), ((D, D), F32), ((D, 16), F32), ((D, 16), F32), ((D, D), F32),
          ((D, 2 * D), F32), ((D, 2 * D), F32), ((2 * D, D), F32)]
_CACHE = [(("b", 2, "p", 8), F32), (("b", 2, "p", 8), F32)]  # jax.export sizes are >= 1: p from 1
_WINDOWS = [(("b", "4*k", "4*m", 16), F32), ((16, 48), F32), ((16, 16), F32)]
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
    "GPT-2 block": Program(_gpt2_block, {"b": 1, "s": 1}, [(("b", "s", D), F32), *_GPT2]),
    "GPT-2, embeddings to tied head": Program(
        _gpt2, {"b": 1, "s": 1}, [(("b", "s"), I32), ((64, D), F32), ((64, D), F32), ((D,), F32), *_GPT2],
        constraints=("s <= 64",),
    ),
    "LLaMA block": Program(_llama_block, {"b": 1, "s": 1}, [(("b", "s", D), F32), *_LLAMA]),
    "KV-cache decode": Program(
        _kv_decode, {"b": 1, "s": 1, "p": 1}, [(("b", "s", 16), F32), *_CACHE, *[((16, 16), F32)] * 4]
    ),
    "LLaMA decode, RoPE from p": Program(
        _llama_decode, {"b": 1, "s": 1, "p": 1}, [(("b", "s", D), F32), *_CACHE, ((D, D), F32), *[((D, 16), F32)] * 2]
    ),
    "Swin window attention": Program(_swin_windows, {"b": 1, "k": 1, "m": 1}, _WINDOWS),
    "Swin shifted windows": Program(_swin_shifted, {"b": 1, "k": 1, "m": 1}, _WINDOWS),
    "ViT patchify": Program(
        _vit_patchify, {"b": 1, "a": 1, "c": 1}, [(("b", "4*a", "4*c", 3), F32), ((48, D), F32), ((D,), F32)]
    ),
    "while loop": Program(_halve_until_small, {"b": 1, "n": 1}, [(("b", "n"), F32)]),
    "cond": Program(_branch, {"b": 1}, [(("b", 16), F32), ((16, 8), F32)]),
    "RNN scan": Program(_rnn, {"t": 1, "b": 1}, [(("t", "b", 8), F32), ((8, 16), F32), ((16, 16), F32)]),
    "pytree in and out": Program(
        _pytree, {"b": 1, "s": 1}, [(("b", "s"), I32), (("b", "s"), BOOL), ((64, 16), F32), ((16, 8), F32)],
        tree=({"tokens": 0, "mask": 1}, {"embed": 2, "head": 3}),
    ),
    "shape idioms": Program(_shape_idioms, {"b": 1, "k": 1}, [(("b", "2*k"), F32)]),
    "scan": Program(_cumsum_scan, {"t": 1, "n": 1}, [(("t", "n"), F32)]),
    # mask[:, None, None, :] is a broadcast (b, s) -> (b, 1, 1, s), an identity convert, then (b, 4, s, s):
    # IREE drops the convert and merges the two broadcasts without their annotations, so for-iree merges them
    "BERT layer, padding mask": Program(
        _bert_layer, {"b": 1, "s": 1},
        [(("b", "s", D), F32), (("b", "s"), BOOL), ((D, 3 * D), F32), ((D, D), F32), ((D,), F32),
         ((D, 2 * D), F32), ((2 * D, D), F32), ((D,), F32)],
    ),
    # einsum td,edh->teh: IREE would lower the dot_general through a (?, 128) -> (?, 4, 32)
    # "stablehlo.dynamic_reshape" it cannot legalize; for-iree makes it a matmul by a static matrix
    "MoE top-2": Program(
        _moe_top2, {"b": 1, "s": 1}, [(("b", "s", 16), F32), ((16, 4), F32), ((4, 16, D), F32), ((4, D, 16), F32)]
    ),
    "rotary embedding": Program(_rope, {"b": 1, "s": 1}, [(("b", "s", 16), F32)]),
    "loop over rows": Program(_row_loop, {"t": 1, "n": 1}, [(("t", "n"), F32)]),
    # x[:, 0::2, 0::2]: a strided dynamic_gather, which IREE cannot legalize, as a strided extract_slice
    "Swin patch merging": Program(
        _patch_merging, {"b": 1, "k": 1, "m": 1}, [(("b", "2*k", "2*m", 8), F32), ((32, 16), F32)]
    ),
    # a convolution with dynamic spatial dims as tensor.pad + linalg.generic (IREE needs them static)
    "strided conv, SAME padding": Program(
        _conv_same, {"b": 1, "h": 1, "w": 1}, [(("b", "h", "w", 3), F32), ((3, 3, 3, 8), F32)]
    ),
    # a convolution with dynamic spatial dims as tensor.pad + linalg.generic (IREE needs them static)
    "VALID conv net": Program(
        _valid_conv_net, {"b": 1, "h": 5, "w": 5}, [(("b", "h", "w", 3), F32), ((3, 3, 3, 8), F32), ((3, 3, 8, 8), F32)]
    ),
    # a convolution with dynamic spatial dims as tensor.pad + linalg.generic (IREE needs them static)
    "U-Net": Program(
        _unet, {"b": 1, "k": 1, "m": 1},
        [(("b", "2*k", "2*m", 3), F32), ((3, 3, 3, 8), F32), ((3, 3, 8, 8), F32), ((1, 1, 16, 2), F32)],
    ),
    # padding from h and w parity: jax's custom_call @stablehlo.dynamic_reduce_window, as tensor.pad
    # with the init value and a reduce_window without padding
    "3x3 stride-2 SAME max pool": Program(_same_max_pool, {"b": 1, "h": 1, "w": 1}, [(("b", "h", "w", 3), F32)]),
    "write a row past the end": Program(_write_past_end, {"t": 1, "n": 1}, [(("t", "n"), F32), ((1, "n"), F32)]),
}

PENDING: dict[str, Program] = {
    # the conv runs; the SAME pool after it pads by floor((floor((h+1)/2)+1)/2) - floor((h+1)/4), which
    # the analysis cannot prove >= 0 (nested floors), so its dynamic_reduce_window custom_call stays
    "ResNet stem": Program(_resnet_stem, {"b": 1, "h": 1, "w": 1}, [(("b", "h", "w", 3), F32), ((7, 7, 3, 8), F32)]),
}
"""Programs ``for-iree`` does not yet bring through IREE (benchmarks/for_iree.py reports them):
a pool whose padding the analysis cannot prove non-negative."""
