"""Hypothesis-driven oracle tests: fixed programs exported once and checked at random sizes, and
programs whose static parameters (slice bounds and steps, pad amounts, conv strides and dilations)
are themselves drawn, exported per example and checked at a few sizes. The oracle is jax
(``jax.eval_shape`` and StableHLO's shape refinement, tests/jax_oracle.py); hypothesis prints the
falsifying example and its seed on failure.

Drawn programs are checked for soundness (no wrong dim, no false claim, an output symshape cannot
express is listed as unresolved); completeness is the job of the table tests, where each known
gap is one strict xfail row (e.g. the pytree rows in tests/rules/hlo/test_control_jax.py)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jax import lax

from tests.jax_oracle import Arg, Subject, check_at, check_subject

pytestmark = pytest.mark.needs_jax

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PER_PROGRAM = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pipeline(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """concat, strided slice, pad, reshape with -1, a contraction and a reduction."""
    z = jnp.concatenate([x, y], axis=0)[:, ::2]
    z = jnp.pad(z, ((1, 0), (2, 1)))
    return z.reshape(-1), (z @ z.T).sum(axis=0)


def strided_conv_and_pool(x: jax.Array, w: jax.Array) -> jax.Array:
    y = lax.conv_general_dilated(x, w, (2, 3), ((1, 0), (2, 2)), rhs_dilation=(2, 1))
    return lax.reduce_window(y, -jnp.inf, lax.max, (1, 1, 2, 3), (1, 1, 2, 1), "VALID")


def cached_attention(q: jax.Array, past: jax.Array, new: jax.Array) -> jax.Array:
    keys = jnp.concatenate([past, new], axis=1)
    scores = jnp.einsum("bqd,bkd->bqk", q, keys)
    mask = lax.broadcasted_iota(jnp.int32, scores.shape[1:], 0) + past.shape[1] >= lax.broadcasted_iota(
        jnp.int32, scores.shape[1:], 1)
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1), keys)


def gather_scatter(x: jax.Array, idx: jax.Array) -> jax.Array:
    rows = jnp.take(x, idx, axis=0)
    return x.at[idx].add(rows * 2.0)[:, 1:]


PIPELINE = Subject(pipeline, ["b, s", "t, s"])
CONV_POOL = Subject(strided_conv_and_pool, ["b, 2, h, w", (3, 2, 3, 2)])
ATTENTION = Subject(cached_attention, ["b, s, 8", "b, p, 8", "b, s, 8"])
GATHER_SCATTER = Subject(gather_scatter, ["b, s", Arg("k", jnp.int32)])
EMPTY_ROWS = Subject(lambda x, y: (jnp.concatenate([x, y]) * 2.0, x.T @ x, jnp.pad(y, ((1, 1), (0, 0)))[1:]),
                     ["n - 1, s", "m - 1, s"])

sizes = st.integers(1, 48)


@FAST
@given(b=sizes, s=sizes, t=sizes)
def test_pipeline_at_random_sizes(b: int, s: int, t: int) -> None:
    check_at(PIPELINE, {"b": b, "s": s, "t": t})


@FAST
@given(b=st.integers(1, 3), h=st.integers(4, 60), w=st.integers(4, 60))
def test_strided_dilated_conv_then_pool_at_random_sizes(b: int, h: int, w: int) -> None:
    """h, w >= 4: the dilated 5x2 kernel and the pooling window fit, at least once."""
    env = {"b": b, "h": h, "w": w}
    assume(CONV_POOL.accepts(env))
    check_at(CONV_POOL, env)


@FAST
@given(b=sizes, s=sizes, p=sizes)
def test_attention_over_a_cache_at_random_sizes(b: int, s: int, p: int) -> None:
    check_at(ATTENTION, {"b": b, "s": s, "p": p})


@FAST
@given(b=sizes, s=sizes, k=sizes)
def test_gather_scatter_at_random_sizes(b: int, s: int, k: int) -> None:
    check_at(GATHER_SCATTER, {"b": b, "s": s, "k": k})


@FAST
@given(n=st.integers(1, 30), m=st.integers(1, 30), s=st.integers(1, 30))
def test_empty_inputs_at_random_sizes(n: int, m: int, s: int) -> None:
    """n = m = 1 makes both inputs empty: the concatenation too, x.T @ x is s x s zeros, and
    the padded-then-sliced y is one row long."""
    check_at(EMPTY_ROWS, {"n": n, "m": m, "s": s})


# ------------------------------------------------------- drawn programs, a few sizes each

SIZES_2D = [{"b": b, "s": s} for b, s in ((1, 1), (3, 2), (1, 5), (2, 8), (1, 13))]
bound = st.one_of(st.none(), st.integers(-6, 6))


def _exportable(subject: Subject) -> bool:
    try:
        _ = subject.text
    except Exception:  # jax cannot export every static choice with symbolic sizes  # noqa: BLE001
        return False
    return True


def _check_drawn(subject: Subject, envs: list[dict[str, int]]) -> None:
    assume(_exportable(subject))
    check_subject(subject, envs, min_accepted=1, complete=False)


@PER_PROGRAM
@given(start=bound, stop=bound, step=st.sampled_from([None, 1, 2, 3, -1, -2]))
def test_drawn_slices(start: int | None, stop: int | None, step: int | None) -> None:
    """``x[:, start:stop:step]`` with negative, missing and out-of-range bounds."""
    _check_drawn(Subject(lambda x: x[:, start:stop:step], ["b, s"]), SIZES_2D)


pad = st.tuples(st.integers(-2, 3), st.integers(-2, 3), st.integers(0, 2))


@PER_PROGRAM
@given(rows=pad, cols=pad)
def test_drawn_pads(rows: tuple[int, int, int], cols: tuple[int, int, int]) -> None:
    """``lax.pad`` with negative edges and interior padding; sizes the negative edges would
    make negative are rejected by jax (and so are not checked)."""
    _check_drawn(Subject(lambda x: lax.pad(x, 0.0, (rows, cols)), ["b + 2, s + 2"]), SIZES_2D)


@PER_PROGRAM
@given(stride=st.integers(1, 3), dilation=st.integers(1, 3), kernel=st.integers(1, 3),
       low=st.integers(0, 2), high=st.integers(0, 2))
def test_drawn_convolutions(stride: int, dilation: int, kernel: int, low: int, high: int) -> None:
    """1-d conv with explicit padding: inputs at least as long as the dilated kernel."""
    span = dilation * (kernel - 1) + 1
    envs = [{"b": b, "t": t} for b, t in ((1, span), (2, span + 1), (1, span + 4), (3, 3 * span + 2))]
    fn: Any = lambda x, w: lax.conv_general_dilated(x, w, (stride,), ((low, high),), rhs_dilation=(dilation,))  # noqa: E731
    _check_drawn(Subject(fn, ["b, 2, t", (3, 2, kernel)]), envs)


@PER_PROGRAM
@given(window=st.integers(1, 4), stride=st.integers(1, 3))
def test_drawn_pooling(window: int, stride: int) -> None:
    envs = [{"b": 1, "t": t} for t in (window, window + 1, window + 5, 4 * window + 3)]
    fn: Any = lambda x: lax.reduce_window(x, 0.0, lax.add, (1, window), (1, stride), "VALID")  # noqa: E731
    _check_drawn(Subject(fn, ["b, t"]), envs)


@PER_PROGRAM
@given(parts=st.lists(st.integers(1, 4), min_size=1, max_size=3), axis=st.integers(0, 1))
def test_drawn_reshapes(parts: list[int], axis: int) -> None:
    """Split a symbolic axis into a static factor and -1, then merge it with its neighbour."""
    factor = 1
    for p in parts:
        factor *= p
    spec = f"b, {factor}*s" if axis == 1 else f"{factor}*b, s"

    def fn(x: jax.Array) -> jax.Array:
        split = (*x.shape[:axis], *parts, -1, *x.shape[axis + 1:])
        return x.reshape(split).reshape(-1, x.shape[1 - axis] if axis == 0 else x.shape[0])

    _check_drawn(Subject(fn, [spec]), SIZES_2D)
