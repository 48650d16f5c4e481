"""jax as the oracle for elementwise ops, broadcasting, reductions, iota, cumulative ops, sorting
and normalization: each function is exported with symbolic shapes, symshape analyzes the export,
and at every size of a grid that jax accepts (1 included) every dim symshape reports must equal
what ``jax.eval_shape`` and StableHLO's shape refinement say (see tests/jax_oracle.py)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from tests.jax_oracle import Arg, Subject, case, run

pytestmark = pytest.mark.needs_jax

I32 = jnp.int32


def layernorm(x: jax.Array) -> jax.Array:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5)


ELEMENTWISE = [
    case("add_same_shape", lambda x, y: x + y, "b, s", "b, s"),
    case("add_row_broadcast", lambda x, y: x + y, "b, s", "s"),
    case("add_column_broadcast", lambda x, y: x + y[:, None], "b, s", "b"),
    case("outer_product", lambda x, y: x[:, None] * y[None, :], "b", "s"),
    case("size_one_dims_broadcast_both_ways", jnp.maximum, "1, s", "b, 1"),
    case("rank_promotion", lambda x, y: x - y, "b, s", "t, 1, s"),
    case("broadcast_to_a_new_leading_axis", lambda x: jnp.broadcast_to(x, (3, *x.shape)), "b, s"),
    case("unary_chain", lambda x: jnp.tanh(jnp.exp(-jnp.abs(x)) * 2.0 + 1.0), "b, s, 4"),
    case("integer_division_and_casts", lambda x: (x // 2 + x % 3).astype(jnp.float32), Arg("b, s", I32)),
    case("clip_and_sign", lambda x: jnp.clip(x, -1.0, 1.0) * jnp.sign(x), "b, 2*s"),
    case("compare_select_broadcast", lambda x, y: jnp.where(x > y, x, 0.0), "b, s", "s"),
    case("where_with_three_shapes", lambda c, x, y: jnp.where(c, x, y), Arg("b, 1", jnp.bool_), "1, s", "b, s"),
    case("zero_size_rows", lambda x, y: x * y, "n - 1, s", "s"),  # n = 1: an empty batch
    case("sum_of_spec_terms", lambda x, y: x + y, "b + 2, s", "b + 2, 1"),
]

REDUCTIONS = [
    case("sum_axis0", lambda x: x.sum(axis=0), "b, s"),
    case("sum_axis1", lambda x: x.sum(axis=1), "b, s"),
    case("sum_all", jnp.sum, "b, s"),
    case("sum_keepdims", lambda x: x.sum(axis=1, keepdims=True) + x, "b, s"),
    case("mean_two_axes", lambda x: x.mean(axis=(0, 2)), "b, s, 4"),
    case("max_and_argmax", lambda x: (x.max(axis=-1), jnp.argmax(x, axis=0)), "b, s"),
    case("var_std", lambda x: (x.var(axis=0), x.std(axis=1)), "b, s"),
    case("logsumexp", lambda x: jax.nn.logsumexp(x, axis=-1), "b, s, t"),
    case("prod_and_any", lambda x: (jnp.prod(x, axis=1), jnp.any(x > 0, axis=0)), "b, s"),
    case("reduce_over_empty_rows", lambda x: x.sum(axis=0), "n - 1, s"),
    case("count_nonzero", lambda x: jnp.count_nonzero(x, axis=1), "b, s"),
]

IOTA = [
    case("arange_of_a_dim", lambda x: x + jnp.arange(x.shape[0], dtype=x.dtype)[:, None], "b, s"),
    case("broadcasted_iota", lambda x: lax.broadcasted_iota(I32, x.shape, 1) + x, Arg("b, s", I32)),
    case("causal_mask", lambda x: jnp.where(jnp.tril(jnp.ones((x.shape[1], x.shape[1]), bool)), x[:, None], 0.0),
         "b, s"),
    case("eye_of_a_dim", lambda x: jnp.eye(x.shape[0]) @ x, "b, s"),
    case("arange_of_a_product", lambda x: jnp.arange(x.shape[0] * x.shape[1]).reshape(x.shape), "b, s"),
]

CUMULATIVE = [
    case("cumsum_axis1", lambda x: jnp.cumsum(x, axis=1), "b, s"),
    case("cumsum_reverse_axis0", lambda x: lax.cumsum(x, axis=0, reverse=True), "b, s"),
    case("cumprod", lambda x: jnp.cumprod(x, axis=-1), "b, s"),
    case("cummax", lambda x: lax.cummax(x, axis=1), "b, s, 3"),
    case("cumsum_flattened", jnp.cumsum, "b, s"),
    case("diff", lambda x: jnp.diff(x, axis=1), "b, s"),
]

SORTING = [
    case("sort_last_axis", lambda x: jnp.sort(x, axis=-1), "b, s"),
    case("argsort_axis0", lambda x: jnp.argsort(x, axis=0), "b, s"),
    case("sort_keys_with_values", lambda k, v: lax.sort((k, v), dimension=1, num_keys=1), "b, s", "b, s"),
    case("top_k", lambda x: lax.top_k(x, 3), "b, s + 3"),
    case("sort_of_empty_rows", lambda x: jnp.sort(x, axis=1), "n - 1, s"),
    case("top_k_then_gather_rows", lambda x: jnp.take_along_axis(x, lax.top_k(x, 2)[1], axis=1), "b, s + 1"),
]

NORMALIZATION = [
    case("softmax", lambda x: jax.nn.softmax(x, axis=-1), "b, s, t"),
    case("log_softmax_axis0", lambda x: jax.nn.log_softmax(x, axis=0), "b, s"),
    case("layernorm", layernorm, "b, s, 16"),
    case("layernorm_affine", lambda x, g, h: layernorm(x) * g + h, "b, s, d", "d", "d"),
    case("gelu_silu", lambda x: jax.nn.gelu(x) + jax.nn.silu(x), "b, s"),
    case("standardize", lambda x: jax.nn.standardize(x, axis=0), "b, s"),
    case("one_hot_of_a_dim", lambda i, x: jax.nn.one_hot(i, x.shape[1]) * x[:, None, :], Arg("b, t", I32), "b, s"),
]


@pytest.mark.parametrize(("subject", "envs"), ELEMENTWISE)
def test_elementwise_and_broadcasting(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), REDUCTIONS)
def test_reductions(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), IOTA)
def test_iota_from_a_shape(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), CUMULATIVE)
def test_cumulative(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), SORTING)
def test_sort_argsort_top_k(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), NORMALIZATION)
def test_softmax_and_normalization(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)
