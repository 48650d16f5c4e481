"""jax as the oracle for control flow (cond, switch, fori_loop, while_loop, scan, their vmaps) and
for pytree arguments and results: exported with symbolic shapes, analyzed by symshape, and
checked against ``jax.eval_shape`` and StableHLO's shape refinement at every size jax accepts
(tests/jax_oracle.py)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from tests.jax_oracle import Arg, Subject, case, run

pytestmark = pytest.mark.needs_jax

I32 = jnp.int32


def running_mean(xs: jax.Array) -> jax.Array:
    """scan over the leading axis with a carry of one row."""

    def step(carry: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        carry = 0.9 * carry + 0.1 * x
        return carry, carry

    _, ys = lax.scan(step, jnp.zeros(xs.shape[1:], xs.dtype), xs)
    return ys


def rnn(xs: jax.Array, w: jax.Array, h0: jax.Array) -> tuple[jax.Array, jax.Array]:
    """An Elman RNN over time (``xs`` is time-major): the last state and every output."""

    def step(h: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        h = jnp.tanh(x @ w + h)
        return h, h.sum(axis=-1)

    return lax.scan(step, h0, xs)


def halve_until_small(x: jax.Array) -> jax.Array:
    """while_loop with a data-dependent trip count; the carry keeps its shape."""
    return lax.while_loop(lambda v: v.sum() > 1.0, lambda v: v * 0.5, x)


def counted_while(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A while_loop carrying a counter and an array whose trip count is a dim of the input."""

    def body(state: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        i, acc = state
        return i + 1, acc + x[i]

    return lax.while_loop(lambda s: s[0] < x.shape[0], body, (jnp.int32(0), jnp.zeros(x.shape[1:], x.dtype)))


CONTROL = [
    case("cond_same_shapes", lambda p, x: lax.cond(p, lambda v: v * 2.0, lambda v: v - 1.0, x), Arg((), jnp.bool_),
         "b, s"),
    case("cond_reduces_then_broadcasts", lambda p, x: lax.cond(p, lambda v: v.sum(0), lambda v: v.max(0), x),
         Arg((), jnp.bool_), "b, s"),
    case("cond_slices_differently_then_pads_back", lambda p, x: lax.cond(
        p, lambda v: jnp.pad(v[:, 1:], ((0, 0), (0, 1))), lambda v: jnp.pad(v[:, :-1], ((0, 0), (1, 0))), x),
        Arg((), jnp.bool_), "b, s"),
    case("switch_three_branches", lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, lambda v: v[::-1]], x),
         Arg((), I32), "b, s"),
    case("fori_loop_static_trip_count", lambda x: lax.fori_loop(0, 3, lambda i, v: v @ v.T @ v, x), "b, s"),
    case("fori_loop_trip_count_from_a_dim", lambda x: lax.fori_loop(0, x.shape[0], lambda i, v: v.at[i].add(1.0), x),
         "b, s"),
    case("while_data_dependent", halve_until_small, "b, s"),
    case("while_counted_by_a_dim", counted_while, "b, s"),
    case("scan_running_mean", running_mean, "t, b, s"),
    case("scan_rnn", rnn, "t, b, 4", (4, 4), "b, 4"),
    case("scan_with_symbolic_hidden_size", rnn, "t, b, d", "d, d", "b, d"),
    case("scan_reverse", lambda xs: lax.scan(lambda c, x: (c + x, c * x), jnp.zeros(xs.shape[1:]), xs,
                                             reverse=True), "t, s"),
    case("associative_scan_over_a_static_axis", lambda x: lax.associative_scan(jnp.add, x, axis=1), "b, 8"),
    case("scan_over_empty_rows", lambda x: lax.scan(lambda c, r: (c + r, c), jnp.zeros(x.shape[1:]), x), "t, n - 1"),
    case("map_over_rows", lambda x: lax.map(lambda r: jnp.outer(r, r).sum(0), x), "b, s"),
    case("vmap_of_cond", jax.vmap(lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x)), Arg("b", jnp.bool_), "b, s"),
    case("vmap_of_scan", jax.vmap(running_mean), "b, t, s"),
    case("checkpointed_block", jax.checkpoint(lambda x, w: jnp.tanh(x @ w) @ w.T), "b, d", "d, k"),
]


def mlp(params: dict[str, Any], x: jax.Array) -> jax.Array:
    """A two-layer MLP with its parameters as a dict of arrays."""
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def swap_pair(pair: tuple[jax.Array, jax.Array]) -> dict[str, jax.Array]:
    a, b = pair
    return {"first": b.T, "second": a.sum(axis=0), "both": jnp.concatenate([a, b.T], axis=1)}


def nested_tree(tree: dict[str, Any]) -> list[jax.Array]:
    x, (y, z) = tree["x"], tree["yz"]
    return [x + y, z.reshape(-1), x @ z]


PYTREES = [
    case("mlp_params_dict", mlp, {"w1": "d, h", "b1": "h", "w2": "h, 3", "b2": (3,)}, "b, d"),
    case("tuple_argument_dict_result", swap_pair, ("b, s", "s, b")),
    case("nested_dict_tuple_list", nested_tree, {"x": "b, s", "yz": ("b, s", "s, t")}),
    case("tuple_result", lambda x: (x, x.T, x.sum()), "b, s"),
    case("unused_argument_is_dropped", lambda x, unused: x * 2.0, "b, s", "t"),
    case("vmap_over_a_dict", jax.vmap(lambda d: d["a"] * d["b"].sum()), {"a": "b, s", "b": "b, t"}),
    case("dict_leaves_before_a_positional_array", lambda p, x: (p["u"] * 2.0, p["v"] + 1.0, x * 3.0),
         {"u": "s", "v": "t"}, "b"),
    case("static_leaf_then_symbolic_leaf", lambda p, x: (p["a"].sum() + p["b"], x), {"a": (3,), "b": "t"}, "b"),
]


@pytest.mark.parametrize(("subject", "envs"), CONTROL)
def test_control_flow(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), PYTREES)
def test_pytree_arguments_and_results(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)
