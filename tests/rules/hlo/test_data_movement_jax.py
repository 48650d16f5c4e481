"""jax as the oracle for the data-movement ops: reshape (with -1 and merged dims), concatenate,
slicing (static, strided, negative, dynamic_slice), pad (positive, negative, interior),
transpose, gather/take and scatter. Each function is exported with symbolic shapes, analyzed by
symshape, and checked against ``jax.eval_shape`` and StableHLO's shape refinement at every size
jax accepts (tests/jax_oracle.py)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from tests.jax_oracle import Arg, Subject, case, run

pytestmark = pytest.mark.needs_jax

I32 = jnp.int32

RESHAPES = [
    case("flatten", lambda x: x.reshape(-1), "b, s"),
    case("merge_leading_dims", lambda x: x.reshape(-1, x.shape[-1]), "b, s, 4"),
    case("merge_trailing_dims", lambda x: x.reshape(x.shape[0], -1), "b, s, t"),
    case("split_a_static_dim", lambda x: x.reshape(x.shape[0], x.shape[1], 2, 3), "b, s, 6"),
    case("split_a_symbolic_dim", lambda x: x.reshape(x.shape[0], 2, -1), "b, 2*s"),
    case("split_heads_and_merge_back", lambda x: x.reshape(*x.shape[:2], 4, -1).reshape(x.shape), "b, s, 4*d"),
    case("minus_one_in_the_middle", lambda x: x.reshape(x.shape[0], -1, 3), "b, 3*s"),
    case("expand_and_squeeze", lambda x: jnp.squeeze(jnp.expand_dims(x, (0, 2)), axis=0), "b, s"),
    case("ravel_then_reshape_to_product", lambda x: x.ravel().reshape(x.shape[1], x.shape[0]), "b, s"),
    case("reshape_of_an_empty_batch", lambda x: x.reshape(-1, 4), "n - 1, 8"),
    case("flatten_spatial", lambda x: x.reshape(x.shape[0], x.shape[1], -1).mean(-1), "b, 3, h, w"),
]

CONCATS = [
    case("concat_axis0", lambda x, y: jnp.concatenate([x, y], axis=0), "b, s", "t, s"),
    case("concat_axis1_with_a_static_part", lambda x, y: jnp.concatenate([x, y], axis=1), "b, s", "b, 3"),
    case("concat_three", lambda x: jnp.concatenate([x, 2 * x, x[:, :1]], axis=1), "b, s"),
    case("stack", lambda x, y: jnp.stack([x, y], axis=1), "b, s", "b, s"),
    case("hstack_vstack", lambda x: (jnp.hstack([x, x]), jnp.vstack([x, x])), "b, s"),
    case("concat_with_empty_parts", lambda x, y: jnp.concatenate([x, y]), "n - 1, s", "m - 1, s"),
    case("repeat_and_tile", lambda x: (jnp.repeat(x, 2, axis=0), jnp.tile(x, (1, 3))), "b, s"),
    case("split_into_equal_halves", lambda x: jnp.split(x, 2, axis=1), "b, 2*s"),
    case("split_at_indices", lambda x: jnp.split(x, [1, 3], axis=1), "b, s + 3"),
]

SLICES = [
    case("drop_first_column", lambda x: x[:, 1:], "b, s"),
    case("drop_last_row", lambda x: x[:-1], "b, s"),
    case("negative_start", lambda x: x[:, -2:], "b, s + 1"),
    case("strided_slice", lambda x: x[:, ::2], "b, s"),
    case("strided_with_offset", lambda x: x[1::3, 1:], "b, s"),
    case("strided_from_offset_2", lambda x: x[:, 2::2], "b, s"),
    case("reversed", lambda x: x[::-1, ::-1], "b, s"),
    case("reversed_strided", lambda x: x[::-2], "b, s"),
    case("first_k_of_a_symbolic_dim", lambda x: x[:, :3], "b, s + 3"),
    case("middle_window", lambda x: x[:, 2:-2], "b, s + 4"),
    case("lax_slice_with_strides", lambda x: lax.slice(x, (0, 1), (x.shape[0], x.shape[1]), (2, 3)), "b, s"),
    case("slice_in_dim_negative", lambda x: lax.slice_in_dim(x, 0, x.shape[1] - 1, axis=1), "b, s"),
    case("dynamic_slice_fixed_size", lambda x, i: lax.dynamic_slice(x, (i, 0), (2, x.shape[1])),
         "b + 2, s", Arg((), I32)),
    case("dynamic_update_slice", lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 0)), "b, s", "1, s",
         Arg((), I32)),
    case("index_a_row", lambda x, i: x[i], "b, s", Arg((), I32)),
    case("prefix_of_a_static_table", lambda x, table: table[: x.shape[0]] * x.sum(), "b", (6, 4)),
    case("shift_by_one", lambda x: x[:, 1:] - x[:, :-1], "b, s"),
]

PADS = [
    case("pad_positive", lambda x: jnp.pad(x, ((1, 2), (0, 3))), "b, s"),
    case("pad_edge_mode", lambda x: jnp.pad(x, ((2, 2), (1, 1)), mode="edge"), "b, s"),
    case("pad_negative_low", lambda x: lax.pad(x, 0.0, ((-1, 0, 0), (0, 0, 0))), "b + 1, s"),
    case("pad_negative_both", lambda x: lax.pad(x, 0.0, ((0, 0, 0), (-1, -2, 0))), "b, s + 3"),
    case("pad_mixed_signs", lambda x: lax.pad(x, 0.0, ((2, -1, 0), (-1, 3, 0))), "b, s + 1"),
    case("pad_interior", lambda x: lax.pad(x, 0.0, ((0, 0, 1), (1, 1, 2))), "b, s"),
    case("pad_then_slice_back", lambda x: jnp.pad(x, ((0, 0), (3, 3)))[:, 3:-3], "b, s"),
    case("pad_of_an_empty_axis", lambda x: jnp.pad(x, ((1, 1), (0, 0))), "n - 1, s"),
]

TRANSPOSES = [
    case("transpose_2d", jnp.transpose, "b, s"),
    case("transpose_3d_permutation", lambda x: x.transpose(2, 0, 1), "b, s, t"),
    case("swapaxes_then_matmul", lambda x: jnp.swapaxes(x, 1, 2) @ x, "b, s, d"),
    case("moveaxis", lambda x: jnp.moveaxis(x, 0, -1), "b, s, 4"),
    case("transpose_reshape_transpose", lambda x: x.T.reshape(-1, 2).T, "2*b, s"),
]

GATHERS = [
    case("take_rows", lambda x, i: jnp.take(x, i, axis=0), "b, s", Arg("k", I32)),
    case("take_columns", lambda x, i: jnp.take(x, i, axis=1), "b, s", Arg("k", I32)),
    case("embedding_lookup", lambda table, ids: table[ids], "v, 8", Arg("b, s", I32)),
    case("take_along_axis", lambda x, i: jnp.take_along_axis(x, i, axis=1), "b, s", Arg("b, k", I32)),
    case("fancy_index_two_axes", lambda x, i, j: x[i, j], "b, s", Arg("k", I32), Arg("k", I32)),
    case("take_no_indices", lambda x, i: jnp.take(x, i, axis=0), "b, s", Arg("n - 1", I32)),
    case("gather_with_static_index", lambda x: x[:, jnp.array([0, 2, 1])], "b, s + 3"),
    case("argmax_then_take", lambda x: jnp.take_along_axis(x, jnp.argmax(x, axis=1)[:, None], axis=1), "b, s"),
]

SCATTERS = [
    case("scatter_set_rows", lambda x, i, u: x.at[i].set(u), "b, s", Arg("k", I32), "k, s"),
    case("scatter_no_updates", lambda x, i, u: x.at[i].set(u), "b, s", Arg("n - 1", I32), "n - 1, s"),
    case("scatter_add_columns", lambda x, i: x.at[:, i].add(1.0), "b, s", Arg("k", I32)),
    case("scatter_max_scalar_index", lambda x, i: x.at[i].max(0.0), "b, s", Arg((), I32)),
    case("segment_sum_fixed_segments", lambda x, seg: jax.ops.segment_sum(x, seg, num_segments=4),
         "b, s", Arg("b", I32)),
    case("one_hot_scatter", lambda i, x: jnp.zeros_like(x).at[jnp.arange(x.shape[0]), i].set(1.0),
         Arg("b", I32), "b, s"),
]


@pytest.mark.parametrize(("subject", "envs"), RESHAPES)
def test_reshape(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), CONCATS)
def test_concatenate_and_split(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), SLICES)
def test_slicing(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), PADS)
def test_pad(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), TRANSPOSES)
def test_transpose(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), GATHERS)
def test_gather_and_take(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), SCATTERS)
def test_scatter(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)
