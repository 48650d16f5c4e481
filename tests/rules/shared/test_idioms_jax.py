"""The integer idioms jax prints, each exported by jax itself and checked against
``jax.eval_shape`` and StableHLO's shape refinement at several sizes (tests/jax_oracle.py):
every result dim must be exact, every guard must hold where jax runs.

jax lowers Python's ``//`` and ``%`` on sizes through its ``@floor_divide`` / ``@remainder``
helpers (a truncating divide corrected by ``sign``/``remainder``/``select``), called or inlined;
SAME padding of a strided window goes through ``-floordiv(-h, stride)``; ``jnp.roll`` through
``divmod``; ``dynamic_slice`` through a clamped start vector whose one element may be unknown.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jax import lax

from tests.jax_oracle import Arg, Subject, case, grid, run

pytestmark = pytest.mark.needs_jax

I32 = jnp.int32
SMALL_1D = [{"s": s} for s in (1, 2, 3, 4, 7, 12)]


def conv(x: jax.Array, w: jax.Array, strides: tuple[int, ...], padding: str = "SAME") -> jax.Array:
    return lax.conv_general_dilated(x, w, strides, padding)


def max_pool_same(x: jax.Array, window: tuple[int, int], strides: tuple[int, int]) -> jax.Array:
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, *window), (1, 1, *strides), "SAME")


FLOOR_DIVISION = [
    # A numerator that may be 0 (s = 1): sign(s - 1) is unknown, the select is still floor.
    case("floor_divide_numerator_may_be_zero", lambda x: jnp.zeros(((x.shape[0] - 1) // 2,)), "s", envs=SMALL_1D),
    # Used twice, so jax emits the helper as a private function called twice (not inlined).
    case("floor_divide_called_twice", lambda x: (jnp.zeros(((x.shape[0] - 1) // 3,)),
                                                 jnp.zeros(((x.shape[0] - 2) // 3 + 1,))), "s", envs=SMALL_1D),
    # A negative numerator: -floordiv(-s, 4) is ceil(s / 4).
    case("ceil_through_floor_of_negative", lambda x: jnp.zeros((-((-x.shape[0]) // 4),)), "s", envs=SMALL_1D),
    case("python_modulo_of_a_size", lambda x: jnp.zeros(((x.shape[0] - 1) % 3, 2)), "s", envs=SMALL_1D),
    case("divmod_of_a_difference", lambda x, y: jnp.zeros(((x.shape[0] - y.shape[0]) // 2,
                                                           (x.shape[0] - y.shape[0]) % 2)), "a + b", "b",
         envs=grid(["a", "b"], (1, 2, 3, 6))),
    case("strided_slice_from_offset", lambda x: x[:, 3::2], "b, s", envs=grid(["b", "s"], (1, 2, 3, 4, 9))),
]

WINDOWS = [
    case("conv_same_stride2", lambda x, w: conv(x, w, (2, 2)), "b, 3, h, w", (4, 3, 3, 3),
         envs=[{"b": 1, "h": h, "w": w} for h in (1, 2, 5) for w in (1, 4, 7)]),
    case("conv_same_stride3_even_kernel", lambda x, w: conv(x, w, (3, 1)), "b, 3, h, w", (4, 3, 2, 4),
         envs=[{"b": 2, "h": h, "w": w} for h in (1, 3, 4, 8) for w in (1, 5)]),
    case("conv_1d_same_stride2", lambda x, w: conv(x, w, (2,)), "b, 3, t", (5, 3, 3),
         envs=grid(["b", "t"], (1, 2, 5, 8))),
    case("max_pool_same_3x3_stride2", lambda x: max_pool_same(x, (3, 3), (2, 2)), "b, 4, h, w",
         envs=[{"b": 1, "h": h, "w": w} for h in (1, 2, 6) for w in (1, 3, 9)]),
    case("conv_same_stride2_twice", lambda x, w, v: conv(conv(x, w, (2, 2)), v, (2, 2)), "b, 3, h, w",
         (4, 3, 3, 3), (2, 4, 3, 3), envs=[{"b": 1, "h": h, "w": w} for h in (1, 4, 9) for w in (2, 5, 16)]),
    case("valid_window_longer_than_input", lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 5), (1, 2), "VALID"),
         "b, t", envs=grid(["b", "t"], (1, 2, 4, 5, 9))),
]

SLICES = [
    case("roll_by_one", lambda x: jnp.roll(x, 1, axis=1), "b, s"),
    case("roll_back_by_two_on_axis_0", lambda x: jnp.roll(x, -2, axis=0), "b, s"),
    case("dynamic_slice_in_dim_start_from_shape", lambda x: lax.dynamic_slice_in_dim(x, x.shape[1] // 2, 3, axis=1),
         "b, s + 3"),
    case("dynamic_slice_data_start_one_axis", lambda x, i: lax.dynamic_slice(x, (i, 0), (2, x.shape[1])),
         "b + 2, s", Arg((), I32)),
    case("dynamic_slice_data_starts_both_axes", lambda x, i, j: lax.dynamic_slice(x, (i, j), (1, x.shape[1] - 1)),
         "b, s + 1", Arg((), I32), Arg((), I32)),
]


@pytest.mark.parametrize(("subject", "envs"), FLOOR_DIVISION)
def test_floor_division_idioms_are_exact(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), WINDOWS)
def test_strided_same_windows_are_exact(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), SLICES)
def test_slices_with_computed_starts_are_exact(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    run(subject, envs)


def test_a_strided_same_conv_keeps_its_dims_as_ceil() -> None:
    """jax's own symbolic output of SAME stride 2 is ``ceil(h / 2)``; symshape says the same
    (as ``floor((h + 1) / 2)``), with no guard."""
    subject = Subject(lambda x, w: conv(x, w, (2, 2)), ["b, 3, h, w", (4, 3, 3, 3)])
    analysis = subject.analysis
    (out,) = subject.outputs
    assert [str(d) for d in analysis.shape(out) or ()] == ["b", "4", "floor((h + 1)/2)", "floor((w + 1)/2)"]
    assert not analysis.graph.guards


PER_PROGRAM = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PER_PROGRAM
@given(stride=st.integers(1, 4), kernel=st.integers(1, 4), pool=st.booleans())
def test_drawn_same_windows_down_to_size_1(stride: int, kernel: int, pool: bool) -> None:
    """SAME conv or max pool with a drawn stride and window, exact at every length from 1."""
    fn: Any
    if pool:
        fn = lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, kernel), (1, stride), "SAME")  # noqa: E731
        subject = Subject(fn, ["b, t"])
    else:
        fn = lambda x, w: lax.conv_general_dilated(x, w, (stride,), "SAME")  # noqa: E731
        subject = Subject(fn, ["b, 2, t", (3, 2, kernel)])
    run(subject, [{"b": 1, "t": t} for t in (1, 2, 3, kernel + 1, 4 * stride + 3)])


@PER_PROGRAM
@given(shift=st.integers(-1, 3), divisor=st.integers(1, 5), negate=st.booleans())
def test_drawn_floor_division_and_modulo_of_a_size(shift: int, divisor: int, negate: bool) -> None:
    """``(s + shift) // divisor`` and ``% divisor`` on a size (``s >= 1``, so the numerator may
    be 0), or on its negation: exact at every size, as jax's own symbolic dims say."""
    def fn(x: jax.Array) -> jax.Array:
        n = -(x.shape[0] + shift) if negate else x.shape[0] + shift
        return jnp.zeros((n // divisor + (2 * x.shape[0] + 8 if negate else 0), n % divisor))

    run(Subject(fn, ["s"]), SMALL_1D)
