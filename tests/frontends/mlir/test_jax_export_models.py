"""Issue 15's real ``jax.export`` set: whole programs exported with symbolic shapes, each function
result dim from symshape held against jax's own symbolic output shape (``exported.out_avals``, read
through our expression parser) and, at several sizes jax accepts, against ``jax.eval_shape`` and
StableHLO's shape refinement (tests/jax_oracle.py; every claim symshape makes must hold there).

The programs: a 2-layer GPT-style decoder (token embedding, positions from iota, causal mask from
iota, layernorm, MLP), LLaMA-style attention with RoPE, GQA and a KV cache concat (past + seq), a
conv net with strided SAME and VALID convs and pools, a U-Net skip concat, an RNN by ``lax.scan``
over the sequence, ``jnp.roll``, MoE top-k routing with a gather, and functions taking and giving
pytrees (dicts and tuples of arrays, parameters first). ``census`` counts exact / wrong /
unresolved result dims over the whole set (printed by ``test_census``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from symshape.algebra.expr import Dim, evaluate
from symshape.algebra.parse import parse_dim
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.frontends.mlir.jax_export import jax_dim_text
from tests import jax_oracle
from tests.frontends.mlir.test_jax_export import all_symbols_are_identifiers
from tests.jax_oracle import Arg, Env, Subject, check_subject

pytestmark = pytest.mark.needs_jax

D, HEADS, VOCAB, HIDDEN = 16, 4, 13, 32
DH = D // HEADS
I32 = jnp.int32
Tree = dict[str, Any]


# ------------------------------------------------------------------------------ GPT-style stack


def layernorm(x: jax.Array, scale: jax.Array) -> jax.Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * scale


def split_heads(t: jax.Array, n: int) -> jax.Array:
    b, s, _ = t.shape
    return t.reshape(b, s, n, DH).transpose(0, 2, 1, 3)


def causal_attention(q: jax.Array, k: jax.Array, v: jax.Array, offset: Any = 0) -> jax.Array:
    """``s`` queries over ``offset + s`` keys; the mask comes from iota."""
    s, t = q.shape[2], k.shape[2]
    rows = lax.broadcasted_iota(I32, (s, t), 0) + offset
    mask = rows >= lax.broadcasted_iota(I32, (s, t), 1)
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(float(DH))
    probs = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
    out = jnp.einsum("bhqk,bhkd->bhqd", probs, v)
    return out.transpose(0, 2, 1, 3).reshape(out.shape[0], s, -1)


GPT_LAYER = {"ln1": (D,), "wqkv": (D, 3 * D), "wo": (D, D), "ln2": (D,), "w1": (D, HIDDEN), "w2": (HIDDEN, D)}
GPT = {"embed": (VOCAB, D), "layers": [GPT_LAYER, GPT_LAYER], "lnf": (D,)}


def gpt(params: Tree, tokens: jax.Array) -> jax.Array:
    """Two decoder layers over token ids (b, s); sinusoidal positions from iota; tied LM head."""
    x = params["embed"][tokens]
    s = tokens.shape[1]
    pos = lax.broadcasted_iota(jnp.float32, (s, D), 0) / (10000.0 ** (lax.broadcasted_iota(jnp.float32, (s, D), 1) / D))
    x = x + jnp.sin(pos)
    for layer in params["layers"]:
        q, k, v = jnp.split(layernorm(x, layer["ln1"]) @ layer["wqkv"], 3, axis=-1)
        x = x + causal_attention(split_heads(q, HEADS), split_heads(k, HEADS), split_heads(v, HEADS)) @ layer["wo"]
        x = x + jax.nn.gelu(layernorm(x, layer["ln2"]) @ layer["w1"]) @ layer["w2"]
    return layernorm(x, params["lnf"]) @ params["embed"].T


# ------------------------------------------------------------------------------ LLaMA-style

KV_HEADS = 2
LLAMA = {"norm": (D,), "wq": (D, D), "wk": (D, KV_HEADS * DH), "wv": (D, KV_HEADS * DH), "wo": (D, D),
         "w_gate": (D, HIDDEN), "w_up": (D, HIDDEN), "w_down": (HIDDEN, D)}


def rms_norm(x: jax.Array, scale: jax.Array) -> jax.Array:
    return x * lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * scale


def rope(t: jax.Array, offset: Any) -> jax.Array:
    """Rotary embedding of (b, heads, s, DH) at positions offset .. offset + s - 1."""
    s = t.shape[2]
    pos = (lax.broadcasted_iota(jnp.float32, (s, DH // 2), 0) + offset)
    freq = 1.0 / (10000.0 ** (lax.broadcasted_iota(jnp.float32, (s, DH // 2), 1) * 2.0 / DH))
    cos, sin = jnp.cos(pos * freq), jnp.sin(pos * freq)
    a, b = t[..., : DH // 2], t[..., DH // 2:]
    return jnp.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)


def llama_step(params: Tree, x: jax.Array, cache: tuple[jax.Array, jax.Array],
               ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    """One LLaMA block over ``s`` new positions after ``p`` cached ones (cache: (b, kv, p, DH))."""
    past_k, past_v = cache
    p = past_k.shape[2]
    h = rms_norm(x, params["norm"])
    q = rope(split_heads(h @ params["wq"], HEADS), p)
    k = rope(split_heads(h @ params["wk"], KV_HEADS), p)
    v = split_heads(h @ params["wv"], KV_HEADS)
    keys, values = jnp.concatenate([past_k, k], axis=2), jnp.concatenate([past_v, v], axis=2)
    group = HEADS // KV_HEADS
    out = causal_attention(q, jnp.repeat(keys, group, axis=1), jnp.repeat(values, group, axis=1), p)
    x = x + out @ params["wo"]
    h = rms_norm(x, params["norm"])
    x = x + (jax.nn.silu(h @ params["w_gate"]) * (h @ params["w_up"])) @ params["w_down"]
    return x, (keys, values)


# ------------------------------------------------------------------------------ conv nets


def conv(x: jax.Array, w: jax.Array, stride: int, padding: str) -> jax.Array:
    return lax.conv_general_dilated(x, w, (stride, stride), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))


def max_pool(x: jax.Array, size: int, stride: int, padding: str) -> jax.Array:
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, size, size, 1), (1, stride, stride, 1), padding)


def avg_pool(x: jax.Array, size: int, stride: int, padding: str) -> jax.Array:
    return lax.reduce_window(x, 0.0, lax.add, (1, size, size, 1), (1, stride, stride, 1), padding) / (size * size)


CONV_NET = {"c1": (3, 3, 3, 8), "c2": (3, 3, 8, 8), "c3": (1, 1, 8, 4)}


def conv_net_valid(params: Tree, x: jax.Array) -> jax.Array:
    """VALID convs and pools only (no padding arithmetic): 3x3, stride-2 3x3, 2x2 pool."""
    x = jax.nn.relu(conv(x, params["c1"], 1, "VALID"))
    x = jax.nn.relu(conv(x, params["c2"], 2, "VALID"))
    return avg_pool(conv(x, params["c3"], 1, "VALID"), 2, 2, "VALID")


def conv_net_same(params: Tree, x: jax.Array) -> jax.Array:
    """A strided SAME conv and a strided SAME pool (jax pads by ``-floordiv(-h, 2)``)."""
    x = jax.nn.relu(conv(x, params["c1"], 2, "SAME"))
    x = jax.nn.relu(conv(x, params["c2"], 1, "SAME"))
    return max_pool(conv(x, params["c3"], 1, "VALID"), 3, 2, "SAME")


def conv_net_same_stride1(params: Tree, x: jax.Array) -> jax.Array:
    """SAME at stride 1 (padding (1, 1) whatever the size) then a VALID stride-2 conv."""
    x = jax.nn.relu(conv(x, params["c1"], 1, "SAME"))
    return conv(x, params["c2"], 2, "VALID")


UNET = {"down": (3, 3, 4, 8), "mid": (3, 3, 8, 8), "up": (3, 3, 8, 4), "out": (1, 1, 8, 2)}


def unet(params: Tree, x: jax.Array) -> jax.Array:
    """Down by a 2x2 stride-2 pool, a SAME conv, up by repeat, concat with the skip (channels)."""
    skip = x
    h = avg_pool(x, 2, 2, "VALID")
    h = jax.nn.relu(conv(h, params["down"], 1, "SAME"))
    h = jax.nn.relu(conv(h, params["mid"], 1, "SAME"))
    h = jnp.repeat(jnp.repeat(h, 2, axis=1), 2, axis=2)
    h = conv(h, params["up"], 1, "SAME")
    return conv(jnp.concatenate([skip, h], axis=-1), params["out"], 1, "SAME")


# ------------------------------------------------------------------------------ sequences, MoE


def rnn_over_seq(params: Tree, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """An Elman RNN scanned over the sequence axis of (b, s, D): every state and the last."""

    def step(h: jax.Array, xt: jax.Array) -> tuple[jax.Array, jax.Array]:
        h = jnp.tanh(xt @ params["wx"] + h @ params["wh"])
        return h, h

    last, states = lax.scan(step, jnp.zeros((x.shape[0], D)), x.transpose(1, 0, 2))
    return states.transpose(1, 0, 2), last


def roll_then_diff(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``jnp.roll`` along a symbolic axis (shift 1 and -3)."""
    return x - jnp.roll(x, 1, axis=1), jnp.roll(x, -3, axis=0)


EXPERTS, TOP_K = 4, 2
MOE = {"gate": (D, EXPERTS), "w1": (EXPERTS, D, HIDDEN), "w2": (EXPERTS, HIDDEN, D)}


def moe(params: Tree, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Top-k routing: each token's k experts gathered by index, weighted by softmaxed scores."""
    b, s, _ = x.shape
    tokens = x.reshape(b * s, D)
    scores, experts = lax.top_k(tokens @ params["gate"], TOP_K)
    weights = jax.nn.softmax(scores, axis=-1)
    w1, w2 = params["w1"][experts], params["w2"][experts]  # (b*s, k, D, H), (b*s, k, H, D)
    h = jax.nn.gelu(jnp.einsum("td,tkdh->tkh", tokens, w1))
    out = jnp.einsum("tkh,tkhd,tk->td", h, w2, weights)
    return out.reshape(b, s, D), experts.reshape(b, s, TOP_K)


def strided_halves(x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Even and odd positions, and the second half (``s // 2`` from the shape)."""
    return x[:, ::2], x[:, 1::2], x[:, x.shape[1] // 2:]


def last_two(x: jax.Array) -> jax.Array:
    """``dynamic_slice_in_dim`` with a start from the shape (``s - 2``)."""
    return lax.dynamic_slice_in_dim(x, x.shape[1] - 2, 2, axis=1)


VIT = {"patch": (4, 4, 3, D), "cls": (1, 1, D), "ln": (D,)}


def vit_patches(params: Tree, x: jax.Array) -> jax.Array:
    """ViT: 4x4 patches by a stride-4 VALID conv on (b, 4*k, 4*m, 3), flattened, a class token
    in front, then one GPT-style layer norm."""
    p = conv(x, params["patch"], 4, "VALID")
    b, k, m, _ = p.shape
    tokens = jnp.concatenate([jnp.broadcast_to(params["cls"], (b, 1, D)), p.reshape(b, k * m, D)], axis=1)
    return layernorm(tokens, params["ln"])


def causal_conv1d(w: jax.Array, x: jax.Array) -> jax.Array:
    """Left-pad by kernel - 1, then a VALID conv over (b, s, c): the length stays s."""
    padded = jnp.pad(x, ((0, 0), (w.shape[0] - 1, 0), (0, 0)))
    return lax.conv_general_dilated(padded, w, (1,), "VALID", dimension_numbers=("NWC", "WIO", "NWC"))


def shifted_windows(x: jax.Array) -> jax.Array:
    """Swin's shifted windows: roll by half a window along both spatial axes, then partition."""
    return window_partition(jnp.roll(x, (-2, -2), axis=(1, 2)))


def gpt_with_cache(params: Tree, tokens: jax.Array, caches: list[tuple[jax.Array, jax.Array]],
                   ) -> tuple[jax.Array, list[tuple[jax.Array, jax.Array]]]:
    """Two GPT layers over ``s`` new tokens after ``p`` cached positions, a cache per layer."""
    x = params["embed"][tokens]
    new = []
    for layer, (past_k, past_v) in zip(params["layers"], caches, strict=True):
        q, k, v = jnp.split(layernorm(x, layer["ln1"]) @ layer["wqkv"], 3, axis=-1)
        keys = jnp.concatenate([past_k, split_heads(k, HEADS)], axis=2)
        values = jnp.concatenate([past_v, split_heads(v, HEADS)], axis=2)
        x = x + causal_attention(split_heads(q, HEADS), keys, values, past_k.shape[2]) @ layer["wo"]
        x = x + jax.nn.gelu(layernorm(x, layer["ln2"]) @ layer["w1"]) @ layer["w2"]
        new.append((keys, values))
    return layernorm(x, params["lnf"]) @ params["embed"].T, new


def sequence_ops(x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """cumsum along the sequence (a window as long as the axis), top-k along it, argmax, and a
    reshape with -1 (b*s*16/8 rows)."""
    values, _ = lax.top_k(x.transpose(0, 2, 1), 2)
    return jnp.cumsum(x, axis=1), values, jnp.argmax(x, axis=1), x.reshape(-1, 8)


def cross_entropy(logits: jax.Array, labels: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Token cross entropy with one-hot labels from iota; the loss is a scalar."""
    one_hot = labels[..., None] == lax.broadcasted_iota(I32, logits.shape, 2)
    losses = -(jax.nn.log_softmax(logits) * one_hot).sum(-1)
    return losses.mean(), losses


def scanned_layers(params: Tree, x: jax.Array) -> jax.Array:
    """Layers stacked on a leading axis and applied by ``lax.scan`` (the carry is (b, s, D))."""

    def layer(h: jax.Array, w: jax.Array) -> tuple[jax.Array, None]:
        return h + jnp.tanh(layernorm(h, jnp.ones((D,))) @ w), None

    out, _ = lax.scan(layer, x, params["w"])
    return out


def unet_strided(params: Tree, x: jax.Array) -> jax.Array:
    """U-Net down by a stride-2 SAME conv (the common form), up by repeat, skip concat (even
    sizes ``2*k``: the concat needs the way up to give the size back)."""
    h = jax.nn.relu(conv(x, params["down"], 2, "SAME"))
    h = jnp.repeat(jnp.repeat(h, 2, axis=1), 2, axis=2)
    return jnp.concatenate([x, conv(h, params["up"], 1, "SAME")], axis=-1)


def window_partition(x: jax.Array) -> jax.Array:
    """Swin-style windows of 4x4 from (b, 4*h, 4*w, c): (b*h*w, 16, c)."""
    b, hh, ww, c = x.shape
    x = x.reshape(b, hh // 4, 4, ww // 4, 4, c).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, 16, c)


def pytree_in_out(batch: Tree, scale: tuple[jax.Array, jax.Array]) -> Tree:
    """A dict and a tuple in, a dict of results out."""
    feats, mask = batch["feats"], batch["mask"]
    a, b = scale
    pooled = (feats * mask[..., None]).sum(1) / jnp.maximum(mask.sum(1, keepdims=True), 1.0)
    return {"pooled": pooled * a, "tokens": feats @ b, "flat": feats.reshape(feats.shape[0], -1)}


def kwargs_style(params: Tree, x: jax.Array, past: jax.Array) -> Tree:
    """A cache grows by the new positions; positions of each are iota offsets."""
    grown = jnp.concatenate([past, x @ params["w"]], axis=1)
    positions = lax.broadcasted_iota(I32, (x.shape[1],), 0) + past.shape[1]
    return {"cache": grown, "positions": positions, "last": grown[:, -1]}


def shared_helpers(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """jax makes one private function of ``jnp.remainder`` and one of ``jnp.clip``, each called
    twice: analyzed at each call, their arguments are not inputs."""
    return jnp.remainder(x, 3.0) + jnp.remainder(y, 5.0), jnp.clip(x, 0, 1) * jnp.clip(y, -1, 2)


# ------------------------------------------------------------------------------ the set


@dataclass(frozen=True)
class Row:
    """One program: the function, its argument specs, jax constraints, the sizes to check,
    and a known defect (a strict xfail) if any."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    envs: tuple[Env, ...]
    constraints: tuple[str, ...] = ()
    xfail: str | None = None


BS = ({"b": 1, "s": 1}, {"b": 2, "s": 5}, {"b": 3, "s": 8})
BSP = ({"b": 1, "s": 1, "p": 0}, {"b": 2, "s": 3, "p": 4}, {"b": 1, "s": 6, "p": 1})
HW = ({"b": 1, "h": 7, "w": 9}, {"b": 2, "h": 8, "w": 8}, {"b": 1, "h": 12, "w": 5})
KM = ({"b": 1, "k": 1, "m": 2}, {"b": 2, "k": 3, "m": 1}, {"b": 1, "k": 2, "m": 2})
ROWS: dict[str, Row] = {
    "gpt_2_layers": Row(gpt, (GPT, Arg("b, s", I32)), BS),
    "llama_rope_gqa_kv_cache": Row(llama_step, (LLAMA, "b, s, 16", ("b, 2, p, 4", "b, 2, p, 4")), BSP),
    "conv_net_valid": Row(conv_net_valid, (CONV_NET, "b, h, w, 3"), HW),
    "conv_net_same_stride_2": Row(conv_net_same, (CONV_NET, "b, h, w, 3"), HW),
    "conv_net_same_stride_1": Row(conv_net_same_stride1, (CONV_NET, "b, h, w, 3"), HW),
    "unet_skip_concat": Row(unet, (UNET, "b, 2*k, 2*m, 4"), KM),
    "rnn_scan_over_seq": Row(rnn_over_seq, ({"wx": (D, D), "wh": (D, D)}, "b, s, 16"), BS),
    "roll": Row(roll_then_diff, ("b, s",), BS),
    "strided_halves": Row(strided_halves, ("b, s + 2",), BS),
    "dynamic_slice_start_from_shape": Row(last_two, ("b, s + 2, 3",), BS),
    "moe_top_k_gather": Row(moe, (MOE, "b, s, 16"), BS),
    "sequence_ops": Row(sequence_ops, ("b, s, 16",), BS, constraints=("s >= 2",)),
    "cross_entropy": Row(cross_entropy, ("b, s, 13", Arg("b, s", I32)), BS),
    "scanned_layers": Row(scanned_layers, ({"w": (3, D, D)}, "b, s, 16"), BS),
    "unet_strided_same": Row(unet_strided, ({"down": (3, 3, 4, 8), "up": (3, 3, 8, 4)}, "b, 2*k, 2*m, 4"), KM),
    "swin_windows": Row(window_partition, ("b, 4*k, 4*m, 3",), KM),
    "swin_shifted_windows_roll": Row(shifted_windows, ("b, 4*k, 4*m, 3",), KM),
    "vit_patches_cls_token": Row(vit_patches, (VIT, "b, 4*k, 4*m, 3"), KM),
    "causal_conv1d": Row(causal_conv1d, ((3, 16, 8), "b, s, 16"), BS),
    "gpt_2_layers_kv_cache": Row(gpt_with_cache, (GPT, Arg("b, s", I32), [("b, 4, p, 4", "b, 4, p, 4")] * 2), BSP),
    "pytree_dict_and_tuple": Row(pytree_in_out, ({"feats": "b, s, 16", "mask": "b, s"}, ((16,), (16, 8))), BS),
    "cache_grows": Row(kwargs_style, ({"w": (16, 8)}, "b, s, 16", "b, p, 8"), BSP),
    "shared_helpers": Row(shared_helpers, ("b, s", "b, s"), BS),
}

SUBJECTS = {name: Subject(row.fn, list(row.args), row.constraints) for name, row in ROWS.items()}


# ------------------------------------------------------------------------------ the comparison


def jax_dims(subject: Subject) -> list[tuple[Dim, ...]]:
    """jax's own symbolic result shapes, read through our parser."""
    out: list[tuple[Dim, ...]] = []
    for aval in subject.exported.out_avals:
        dims: list[Dim] = []
        for d in aval.shape:
            text = jax_dim_text(str(d)) if not isinstance(d, int) else str(d)
            assert text is not None, f"jax's dim '{d}' has no translation"
            dims.append(parse_dim(text))
        out.append(tuple(dims))
    return out


def size_grid(symbols: list[str], constraints: tuple[str, ...] = ()) -> list[dict[str, int]]:
    """Every combination of sizes 1..8 (1..5 for four or more symbols) that meets jax's
    constraints (its dimension variables are >= 1; ``"s >= 2"`` style constraints on top)."""
    top = 8 if len(symbols) <= 3 else 5
    combos = itertools.product(range(1, top + 1), repeat=len(symbols))
    envs = [dict(zip(symbols, combo, strict=True)) for combo in combos]
    return [env for env in envs if all(jax_oracle.eval_term(c, env) for c in constraints)]


def classify(subject: Subject, envs: tuple[Env, ...]) -> dict[str, list[str]]:
    """Each result dim, by ``result k dim i``: *exact* (jax's expression, or equal to it at
    every size of `size_grid`), *wrong* (a different value at a size where none of symshape's
    guards fails: unsound), *guarded* (different only where a guard of symshape fails, a size
    jax accepts: over-strict), or *unresolved* (not over the input symbols). The programs' own
    sizes ``envs`` are checked against ``jax.eval_shape`` in the other test."""
    analysis, symbols = subject.analysis, list(subject.symbols)
    grid = size_grid(symbols, tuple(subject.constraints))
    claims = [holds for _, holds in jax_oracle.claims(analysis)]

    def guarded(env: Env) -> bool:
        try:
            return all(holds(env) for holds in claims)
        except KeyError:  # a claim over a symbol that is not an input (fresh): it cannot be checked
            return False

    found: dict[str, list[str]] = {"exact": [], "wrong": [], "guarded": [], "unresolved": []}
    outputs = subject.outputs
    assert len(outputs) == len(subject.exported.out_avals)
    for k, (name, theirs) in enumerate(zip(outputs, jax_dims(subject), strict=True)):
        ours = analysis.shape(name)
        for axis, want in enumerate(theirs):
            label = f"result {k} dim {axis}"
            got = ours[axis] if ours is not None and len(ours) == len(theirs) else None
            if got is None or (not isinstance(got, int) and not set(got.free) <= set(symbols)):
                found["unresolved"].append(f"{label}: {got}")
                continue
            differ = [env for env in grid if evaluate(got, env) != evaluate(want, env)]
            if got is want or got == want or not differ:
                found["exact"].append(label)
            elif any(guarded(env) for env in differ):
                found["wrong"].append(f"{label}: {got}, jax {want}, at {next(e for e in differ if guarded(e))}")
            else:
                found["guarded"].append(f"{label}: {got}, jax {want}, differ at {differ[0]} (a guard fails there)")
    return found


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.xfail(strict=True, reason=r.xfail)]
                                               if r.xfail else []) for n, r in ROWS.items()])
def test_result_dims_are_jax_symbolic_shapes(name: str) -> None:
    """Every function result dim is the expression jax's own shape polymorphism gives it."""
    found = classify(SUBJECTS[name], ROWS[name].envs)
    assert not found["wrong"], f"unsound: {found['wrong']}"
    assert not found["guarded"], f"over-strict: {found['guarded']}"
    assert not found["unresolved"], f"inexact: {found['unresolved']}"


@pytest.mark.parametrize("name", list(ROWS))
def test_result_dims_match_eval_shape_at_several_sizes(name: str) -> None:
    """At each size jax accepts: every claim symshape makes holds, every value symshape gives a
    shape to has it (StableHLO refinement), and every result expressible over the inputs equals
    ``jax.eval_shape`` (the programs with a known defect are checked for soundness only)."""
    row = ROWS[name]
    check_subject(SUBJECTS[name], list(row.envs), complete=row.xfail is None)


@pytest.mark.parametrize("name", list(ROWS))
def test_every_symbol_is_an_identifier(name: str) -> None:
    """Input, dimension-variable and fresh symbols alike read back through our parser and sympy."""
    all_symbols_are_identifiers(SUBJECTS[name].analysis)


def census() -> dict[str, int]:
    """exact / wrong / unresolved result dims over the whole set."""
    totals = {"exact": 0, "wrong": 0, "guarded": 0, "unresolved": 0}
    for name, row in ROWS.items():
        for kind, items in classify(SUBJECTS[name], row.envs).items():
            totals[kind] += len(items)
    return totals


def test_census() -> None:
    """The count the issue reports (209 of 224 exact on its set): no wrong dim in ours."""
    totals = census()
    print(f"jax exports: {totals['exact']} exact, {totals['wrong']} wrong, {totals['guarded']} guarded (over-strict), "
          f"{totals['unresolved']} unresolved")
    assert totals["wrong"] == 0


def test_keyword_arguments_are_flattened_after_the_positional_ones() -> None:
    """``kwargs['past']`` (and a dict-valued keyword, keys sorted by jax) take the arguments
    after the positional ones; each result dim is jax's."""

    def step(x: jax.Array, *, past: jax.Array, extra: Tree) -> tuple[jax.Array, jax.Array]:
        return jnp.concatenate([past, x], axis=1), extra["z"] @ extra["a"]

    scope = jax.export.SymbolicScope()

    def spec(text: str) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(jax.export.symbolic_shape(text, scope=scope), jnp.float32)

    exported = jax.export.export(jax.jit(step))(spec("b, s, 8"), past=spec("b, p, 8"),
                                                extra={"z": spec("n, m"), "a": spec("m, 2*k")})
    analysis = analyze_mlir_text(exported.mlir_module())
    outputs = [o for o in analysis.program.outputs if o.startswith("@main:")]
    for name, aval in zip(outputs, exported.out_avals, strict=True):
        theirs = [parse_dim(jax_dim_text(str(d)) or "") if not isinstance(d, int) else d for d in aval.shape]
        assert list(analysis.shape(name) or ()) == theirs, (name, aval)


def test_a_multi_platform_export_skips_the_platform_index_argument() -> None:
    """With ``platforms=("cpu", "cuda")`` main's first argument is the platform index (a scalar
    with no specification): the pytree leaves after it still take theirs, ``4*k`` included."""

    def masked(tree: Tree, w: jax.Array) -> jax.Array:
        return (tree["a"] * tree["m"][..., None]) @ w.T

    scope = jax.export.SymbolicScope()

    def spec(text: str) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(jax.export.symbolic_shape(text, scope=scope), jnp.float32)

    exported = jax.export.export(jax.jit(masked), platforms=("cpu", "cuda"))(
        {"a": spec("b, 4*k, 8"), "m": spec("b, 4*k")}, spec("n, 8"))
    analysis = analyze_mlir_text(exported.mlir_module())
    (name,) = [o for o in analysis.program.outputs if o.startswith("@main:")]
    b, k4, n = analysis.shape(name) or ()
    assert (str(b), str(k4), str(n)) == ("b", "4*k", "n")
    assert not analysis.guards()
