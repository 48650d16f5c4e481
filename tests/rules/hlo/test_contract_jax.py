"""jax as the oracle for contractions (dot_general, einsum, matmul), attention blocks and vmap'ed
functions: exported with symbolic shapes, analyzed by symshape, and checked against
``jax.eval_shape`` and StableHLO's shape refinement at every size jax accepts (tests/jax_oracle.py)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from tests.jax_oracle import Subject, case, run

pytestmark = pytest.mark.needs_jax


def attention(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(q.shape[-1])
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores, axis=-1), v)


def multi_head_attention(x: jax.Array, wq: jax.Array, wk: jax.Array, wv: jax.Array, wo: jax.Array) -> jax.Array:
    """Heads split by a reshape of the model dim (16 = 4 heads of 4), a causal mask from iota."""
    b, s, d = x.shape
    heads = 4

    def split(t: jax.Array) -> jax.Array:
        return t.reshape(b, s, heads, d // heads).transpose(0, 2, 1, 3)

    q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
    scores = q @ k.transpose(0, 1, 3, 2) / 2.0
    mask = lax.broadcasted_iota(jnp.int32, (s, s), 0) >= lax.broadcasted_iota(jnp.int32, (s, s), 1)
    scores = jnp.where(mask, scores, -1e9)
    out = jax.nn.softmax(scores, axis=-1) @ v
    return out.transpose(0, 2, 1, 3).reshape(b, s, d) @ wo


def cross_attention_with_cache(q: jax.Array, past: jax.Array, new: jax.Array) -> jax.Array:
    """Keys are a cache of ``p`` past positions plus ``s`` new ones: length ``p + s``."""
    keys = jnp.concatenate([past, new], axis=1)
    return attention(q, keys, keys)


CONTRACTIONS = [
    case("matmul", jnp.matmul, "b, k", "k, n"),
    case("matmul_static_inner", lambda x, w: x @ w, "b, 8", (8, 5)),
    case("batched_matmul", jnp.matmul, "b, m, k", "b, k, n"),
    case("matmul_broadcasts_batch", jnp.matmul, "b, m, k", "k, n"),
    case("matrix_vector", lambda m, v: m @ v, "b, k", "k"),
    case("vector_vector", jnp.dot, "k", "k"),
    case("einsum_bilinear", lambda x, w, y: jnp.einsum("bi,ij,bj->b", x, w, y), "b, i", "i, j", "b, j"),
    case("einsum_outer_batch", lambda x, y: jnp.einsum("bi,bj->bij", x, y), "b, i", "b, j"),
    case("einsum_transposed_output", lambda x, y: jnp.einsum("bik,bkj->jib", x, y), "b, i, k", "b, k, j"),
    case("einsum_trace", lambda x: jnp.einsum("bii->b", x), "b, n, n"),
    case("dot_general_two_batch_dims", lambda x, y: lax.dot_general(x, y, (((3,), (2,)), ((0, 1), (0, 1)))),
         "b, h, s, d", "b, h, d, t"),
    case("dot_general_contract_two_dims", lambda x, y: lax.dot_general(x, y, (((1, 2), (0, 1)), ((), ()))),
         "b, s, 4", "s, 4, n"),
    case("tensordot", lambda x, y: jnp.tensordot(x, y, axes=([1], [0])), "b, k, 3", "k, n"),
    case("matmul_of_empty_batch", jnp.matmul, "n - 1, k", "k, 4"),
    case("matmul_with_empty_contraction", jnp.matmul, "b, n - 1", "n - 1, 3"),
    case("einsum_over_an_empty_axis", lambda x, y: jnp.einsum("bi,bj->ij", x, y), "n - 1, i", "n - 1, j"),
    case("kron_like_reshape", lambda x, y: (x[:, None, :, None] * y[None, :, None, :]).reshape(
        x.shape[0] * y.shape[0], -1), "a, 2", "c, 3"),
]

ATTENTION = [
    case("attention", attention, "b, s, 16", "b, t, 16", "b, t, 16"),
    case("self_attention_symbolic_width", lambda x: attention(x, x, x), "b, s, d"),
    case("multi_head_causal_attention", multi_head_attention, "b, s, 16", (16, 16), (16, 16), (16, 16), (16, 16)),
    case("attention_over_a_cache", cross_attention_with_cache, "b, s, 8", "b, p, 8", "b, s, 8"),
]


def row_normalize(row: jax.Array) -> jax.Array:
    return row / (jnp.abs(row).sum() + 1.0)


VMAPPED = [
    case("vmap_matvec", jax.vmap(lambda m, v: m @ v), "b, n, k", "b, k"),
    case("vmap_in_axes_none", jax.vmap(lambda x, w: x @ w, in_axes=(0, None)), "b, s, k", "k, n"),
    case("vmap_out_axes_1", jax.vmap(row_normalize, in_axes=1, out_axes=1), "b, s"),
    case("vmap_of_vmap", jax.vmap(jax.vmap(lambda a, b: jnp.dot(a, b))), "b, s, k", "b, s, k"),
    case("vmap_attention_per_example", jax.vmap(lambda q, k: jax.nn.softmax(q @ k.T, axis=-1)), "b, s, d", "b, t, d"),
    case("vmap_concat_per_example", jax.vmap(lambda a, b: jnp.concatenate([a, b])), "b, s", "b, t"),
    case("vmap_slice_per_example", jax.vmap(lambda a: a[1:] - a[:-1]), "b, s"),
]


@pytest.mark.parametrize(("subject", "envs"), CONTRACTIONS)
def test_contractions(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), ATTENTION)
def test_attention_blocks(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), VMAPPED)
def test_vmapped_functions(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


def test_contraction_mismatch_is_rejected_by_jax_and_never_silently_merged() -> None:
    """``x @ w`` with two different symbols for the contracted dims: jax cannot export it, so a
    program that relates them must say how; with one symbol the dims are the same class."""
    scope_subject = Subject(jnp.matmul, ["b, k", "k, n"])
    analysis = scope_subject.analysis
    out = scope_subject.outputs[0]
    assert [str(d) for d in analysis.shape(out) or ()] == ["b", "n"]
    with pytest.raises(Exception, match="dot_general"):
        _ = Subject(jnp.matmul, ["b, k", "j, n"]).exported
