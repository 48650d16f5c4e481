"""jax as the oracle for whole blocks: a tiny GPT-style decoder layer (layernorm, causal multi-head
attention with heads split by reshape, a GELU MLP, residuals), the same layer over a KV cache,
rotary position embeddings from iota, token embeddings with a tied LM head, and layers stacked
by scan. Each is exported with symbolic batch / sequence / cache sizes, analyzed by symshape, and
checked against ``jax.eval_shape`` and StableHLO's shape refinement at every size jax accepts
(tests/jax_oracle.py): every intermediate value of the traced function included."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from tests.jax_oracle import Arg, Subject, case, grid, run

pytestmark = pytest.mark.needs_jax

D, HEADS, VOCAB = 16, 4, 11
DH = D // HEADS
Params = dict[str, jax.Array]
# Parameters are a dict passed last: a pytree before an array argument is bound wrongly today (issue 15,
# see tests/rules/hlo/test_control_jax.py), and these tests are about the ops, so they steer clear of it.
PARAMS = {"ln1": (D,), "wqkv": (D, 3 * D), "wo": (D, D), "ln2": (D,), "w1": (D, 4 * D), "w2": (4 * D, D)}


def layernorm(x: jax.Array, scale: jax.Array) -> jax.Array:
    mean = x.mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5) * scale


def heads(t: jax.Array) -> jax.Array:
    """(b, s, D) -> (b, HEADS, s, DH)."""
    b, s, _ = t.shape
    return t.reshape(b, s, HEADS, DH).transpose(0, 2, 1, 3)


def attend(q: jax.Array, k: jax.Array, v: jax.Array, offset: int | jax.Array = 0) -> jax.Array:
    """Causal attention of ``s`` queries over ``offset + s`` keys; the mask comes from iota."""
    s, t = q.shape[2], k.shape[2]
    rows = lax.broadcasted_iota(jnp.int32, (s, t), 0) + offset
    mask = rows >= lax.broadcasted_iota(jnp.int32, (s, t), 1)
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(float(DH))
    probs = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
    out = jnp.einsum("bhqk,bhkd->bhqd", probs, v)
    b, _, _, _ = out.shape
    return out.transpose(0, 2, 1, 3).reshape(b, s, D)


def decoder_layer(x: jax.Array, params: Params) -> jax.Array:
    q, k, v = jnp.split(layernorm(x, params["ln1"]) @ params["wqkv"], 3, axis=-1)
    x = x + attend(heads(q), heads(k), heads(v)) @ params["wo"]
    return x + jax.nn.gelu(layernorm(x, params["ln2"]) @ params["w1"]) @ params["w2"]


def decoder_with_cache(x: jax.Array, k_cache: jax.Array, v_cache: jax.Array, params: Params,
                       ) -> tuple[jax.Array, jax.Array, jax.Array]:
    """One decoding step of ``s`` new positions after ``p`` cached ones; the caches grow to p + s."""
    q, k, v = jnp.split(layernorm(x, params["ln1"]) @ params["wqkv"], 3, axis=-1)
    keys = jnp.concatenate([k_cache, heads(k)], axis=2)
    values = jnp.concatenate([v_cache, heads(v)], axis=2)
    x = x + attend(heads(q), keys, values, offset=k_cache.shape[2]) @ params["wo"]
    x = x + jax.nn.gelu(layernorm(x, params["ln2"]) @ params["w1"]) @ params["w2"]
    return x, keys, values


def rotary(x: jax.Array) -> jax.Array:
    """Rotary position embedding of (b, s, DH): angles from an iota over the sequence."""
    half = x.shape[-1] // 2
    freqs = 1.0 / (10000.0 ** (jnp.arange(half) / half))
    angles = jnp.arange(x.shape[1])[:, None] * freqs[None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * jnp.cos(angles) - x2 * jnp.sin(angles), x1 * jnp.sin(angles) + x2 * jnp.cos(angles)],
                           axis=-1)


def language_model(tokens: jax.Array, table: jax.Array, params: Params) -> jax.Array:
    """Token + learned-position embeddings (positions gathered by an iota over the sequence), one
    decoder layer, logits through the tied embedding table."""
    x = table[tokens] + params["pos"][jnp.arange(tokens.shape[1])]
    x = decoder_layer(x, params)
    return layernorm(x, params["ln2"]) @ table.T


def stacked_layers(x: jax.Array, stacked: Params) -> jax.Array:
    """Three decoder layers with stacked parameters, applied by scan."""
    y, _ = lax.scan(lambda h, p: (decoder_layer(h, p), None), x, stacked)
    return y


def mixer(x: jax.Array, token_w: jax.Array, channel_w: jax.Array) -> jax.Array:
    """MLP-mixer style: one MLP across tokens (a symbolic size), one across channels."""
    y = x + jnp.swapaxes(jax.nn.gelu(jnp.swapaxes(layernorm(x, jnp.ones(D)), 1, 2) @ token_w), 1, 2)
    return y + jax.nn.gelu(layernorm(y, jnp.ones(D)) @ channel_w)


LM_PARAMS = {**PARAMS, "pos": (32, D)}
STACKED = {k: (3, *v) for k, v in PARAMS.items()}
TOKENS = Arg("b, s", jnp.int32)
# b and s from 1; s <= 32 for the learned positions.
SEQ = grid(["b", "s"], (1, 2, 13))
CACHE = [{"b": b, "s": s, "p": p} for b in (1, 3) for s in (1, 4) for p in (1, 2, 9)]

MODELS = [
    case("gpt_decoder_layer", decoder_layer, f"b, s, {D}", PARAMS, envs=SEQ),
    case("gpt_decoder_layer_over_a_kv_cache", decoder_with_cache, f"b, s, {D}", f"b, {HEADS}, p, {DH}",
         f"b, {HEADS}, p, {DH}", PARAMS, envs=CACHE),
    case("gpt_decoder_layer_over_an_empty_cache", decoder_with_cache, f"b, s, {D}",
         f"b, {HEADS}, n - 1, {DH}", f"b, {HEADS}, n - 1, {DH}", PARAMS,
         envs=[{"b": b, "s": s, "n": n} for b in (1, 2) for s in (1, 3) for n in (1, 2, 4)]),
    case("rotary_embedding", rotary, f"b, s, {DH}", envs=SEQ),
    case("language_model_with_tied_head", language_model, TOKENS, (VOCAB, D), LM_PARAMS, envs=SEQ),
    case("three_layers_by_scan", stacked_layers, f"b, s, {D}", STACKED, envs=SEQ),
    case("mixer_block", mixer, f"b, s, {D}", "s, s", (D, D), envs=SEQ),
    case("per_example_decoder_by_vmap", jax.vmap(lambda x, w: attend(heads(x[None]), heads(x[None]),
                                                                      heads(x[None]))[0] @ w, in_axes=(0, None)),
         f"b, s, {D}", (D, D), envs=SEQ),
]


@pytest.mark.parametrize(("subject", "envs"), MODELS)
def test_transformer_blocks(subject: Subject, envs: list[dict[str, int]]) -> None:
    run(subject, envs)


def test_the_kv_cache_grows_by_the_new_positions() -> None:
    """The cache outputs are p + s long: an expression symshape must find, and the same at every
    size (checked against jax directly, not through the oracle's tables)."""
    subject = Subject(decoder_with_cache, [f"b, s, {D}", f"b, {HEADS}, p, {DH}", f"b, {HEADS}, p, {DH}", PARAMS])
    analysis = subject.analysis
    out, keys, values = subject.outputs
    for env in CACHE:
        shapes = subject.expected_outputs(env)
        assert shapes[1] == shapes[2] == (env["b"], HEADS, env["p"] + env["s"], DH)
    assert [str(d) for d in analysis.shape(keys) or ()] == ["b", str(HEADS), "p + s", str(DH)]
    assert analysis.same_shape(keys, values) is True
    assert analysis.same_shape(out, subject.analysis.program.inputs[0]) is True  # x keeps its shape
    assert not analysis.guards() and not analysis.warnings
