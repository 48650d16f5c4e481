"""jax as the oracle for convolutions (strides, dilations, VALID / explicit / SAME padding, groups,
layouts), pooling through reduce_window, and a small conv net: exported with symbolic spatial
sizes, analyzed by symshape, and checked against ``jax.eval_shape`` and StableHLO's shape
refinement at every size jax accepts (tests/jax_oracle.py)."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from tests.jax_oracle import Subject, case, grid, run

pytestmark = pytest.mark.needs_jax

# Inputs at least as large as every window below (5 = the 3-tap kernel dilated by 2).
SPATIAL = [{"b": b, "h": h, "w": w} for b in (1, 2) for h, w in ((5, 5), (6, 13), (9, 8), (13, 6))]
# Inputs down to 1, shorter than most windows: StableHLO's "empty window" outputs are 0 long.
SMALL = [{"b": 1, "h": h, "w": w} for h in (1, 2, 4) for w in (1, 3, 4)]


Padding = str | Sequence[tuple[int, int]]


def conv(x: jax.Array, w: jax.Array, strides: Sequence[int] = (1, 1), padding: Padding = "VALID",
         lhs_dilation: Sequence[int] | None = None, rhs_dilation: Sequence[int] | None = None,
         groups: int = 1) -> jax.Array:
    return lax.conv_general_dilated(x, w, tuple(strides), padding, lhs_dilation=lhs_dilation,
                                    rhs_dilation=rhs_dilation, feature_group_count=groups)


def pool(x: jax.Array, op: str, window: Sequence[int], strides: Sequence[int], padding: Padding) -> jax.Array:
    """NCHW pooling with ``lax.reduce_window`` (max, or sum then divide for the average)."""
    dims, steps = (1, 1, *window), (1, 1, *strides)
    pads = padding if isinstance(padding, str) else ((0, 0), (0, 0), *padding)
    if op == "max":
        return lax.reduce_window(x, -jnp.inf, lax.max, dims, steps, pads)
    return lax.reduce_window(x, 0.0, lax.add, dims, steps, pads) / float(window[0] * window[1])


def conv_net(x: jax.Array, w1: jax.Array, w2: jax.Array, dense: jax.Array) -> jax.Array:
    """conv 3x3 VALID -> relu -> max pool 2x2/2 -> conv 3x3 stride 2 dilated -> global mean -> dense."""
    y = jax.nn.relu(conv(x, w1))
    y = pool(y, "max", (2, 2), (2, 2), "VALID")
    y = jax.nn.relu(conv(y, w2, (2, 2), ((1, 1), (1, 1)), rhs_dilation=(1, 2)))
    return y.mean(axis=(2, 3)) @ dense


def residual_block(x: jax.Array, w: jax.Array) -> jax.Array:
    """A stride-1 SAME conv keeps the spatial size, so the skip connection adds."""
    return x + jax.nn.relu(conv(x, w, padding="SAME"))


W3 = (8, 3, 3, 3)  # OIHW: 8 output channels, 3 input channels, 3x3
X = "b, 3, h, w"
NCHW = ("NCHW", "OIHW", "NCHW")

# name -> (subject, the known defect at the SPATIAL sizes, the known defect at the SMALL sizes)
ROWS: dict[str, tuple[Subject, str | None, str | None]] = {
    "valid_stride1": (Subject(lambda x, w: conv(x, w), [X, W3]), None, None),
    "valid_stride2": (Subject(lambda x, w: conv(x, w, (2, 2)), [X, W3]), None, None),
    "valid_stride_2x3": (Subject(lambda x, w: conv(x, w, (2, 3)), [X, W3]), None, None),
    "valid_rhs_dilation": (Subject(lambda x, w: conv(x, w, rhs_dilation=(2, 2)), [X, W3]), None, None),
    "valid_stride_and_dilation": (Subject(lambda x, w: conv(x, w, (2, 2), rhs_dilation=(2, 1)), [X, W3]),
                                  None, None),
    "explicit_padding": (Subject(lambda x, w: conv(x, w, padding=((1, 2), (0, 3))), [X, W3]), None, None),
    "explicit_padding_strided": (Subject(lambda x, w: conv(x, w, (2, 2), ((1, 1), (2, 0))), [X, W3]), None, None),
    "negative_padding": (Subject(lambda x, w: conv(x, w, padding=((-1, 0), (0, -1))), [X, (2, 3, 1, 1)]),
                         None, None),
    "lhs_dilation": (Subject(lambda x, w: conv(x, w, padding=((2, 2), (2, 2)), lhs_dilation=(2, 2)), [X, W3]),
                     None, None),
    "same_stride1": (Subject(lambda x, w: conv(x, w, padding="SAME"), [X, W3]), None, None),
    "same_stride1_even_kernel": (Subject(lambda x, w: conv(x, w, padding="SAME"), [X, (4, 3, 2, 4)]), None, None),
    "same_stride2": (Subject(lambda x, w: conv(x, w, (2, 2), "SAME"), [X, W3]), None, None),
    "same_stride_2x1": (Subject(lambda x, w: conv(x, w, (2, 1), "SAME"), [X, W3]), None, None),
    "depthwise_groups": (Subject(lambda x, w: conv(x, w, groups=4), ["b, 4, h, w", (8, 1, 3, 3)]),
                         None, None),
    "nhwc_layout": (Subject(lambda x, w: lax.conv_general_dilated(x, w, (1, 2), "VALID", dimension_numbers=(
        "NHWC", "HWIO", "NHWC")), ["b, h, w, 3", (3, 3, 3, 8)]), None, None),
    "conv_transpose": (Subject(lambda x, w: lax.conv_transpose(x, w, (2, 2), "VALID", dimension_numbers=NCHW),
                               [X, W3]), None, None),
    "max_pool_2x2_stride2": (Subject(lambda x: pool(x, "max", (2, 2), (2, 2), "VALID"), [X]), None, None),
    "avg_pool_3x3_stride1": (Subject(lambda x: pool(x, "avg", (3, 3), (1, 1), "VALID"), [X]), None, None),
    "max_pool_3x3_stride2": (Subject(lambda x: pool(x, "max", (3, 3), (2, 2), "VALID"), [X]), None, None),
    "max_pool_explicit_padding": (Subject(lambda x: pool(x, "max", (3, 3), (2, 2), ((1, 1), (1, 1))), [X]),
                                  None, None),
    "avg_pool_same_stride1": (Subject(lambda x: pool(x, "avg", (3, 3), (1, 1), "SAME"), [X]), None, None),
    "max_pool_same_stride2": (Subject(lambda x: pool(x, "max", (2, 2), (2, 2), "SAME"), [X]),
                              None, None),
    "window_dilation": (Subject(lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 1, 1), "VALID",
                                                            window_dilation=(1, 1, 2, 3)), [X]), None, None),
    "global_average_pool": (Subject(lambda x: x.mean(axis=(2, 3)), [X]), None, None),
    "residual_block": (Subject(residual_block, ["b, 4, h, w", (4, 4, 3, 3)]), None, None),
}

LARGE_INPUTS = [case(name, subject, envs=SPATIAL, xfail=known) for name, (subject, known, _) in ROWS.items()]
SMALL_INPUTS = [case(name, subject, envs=SMALL, xfail=known) for name, (subject, _, known) in ROWS.items()]

CONV_NET = Subject(conv_net, [X, (8, 3, 3, 3), (4, 8, 3, 3), (4, 10)])
POOL_ALONG_TIME = Subject(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 4), (1, 2), "VALID"), ["b, t"])

OTHER = [
    case("conv_1d", lambda x, w: lax.conv_general_dilated(x, w, (2,), "VALID"), "b, 3, t", (5, 3, 2),
         envs=grid(["b", "t"], (1, 2, 3, 8, 11))),
    case("conv_of_an_empty_batch", lambda x, w: conv(x, w, (2, 1)), "n - 1, 3, h, w", W3,
         envs=[{"n": n, "h": h, "w": w} for n in (1, 2, 4) for h, w in ((5, 5), (6, 9))]),
    case("symbolic_channels", lambda x, w: conv(x, w), "b, c, h, w", "4, c, 1, 1",
         envs=[{"b": 2, "c": c, "h": 3, "w": 4} for c in (1, 2, 5)]),
    case("pool_along_time", POOL_ALONG_TIME, envs=grid(["b", "t"], (2, 3, 4, 5, 9))),
    case("pool_along_time_of_length_1", POOL_ALONG_TIME, envs=[{"b": 1, "t": 1}, {"b": 3, "t": 1}]),
    case("small_conv_net", CONV_NET, envs=[{"b": b, "h": h, "w": w} for b in (1, 2) for h in (6, 7, 12)
                                           for w in (6, 9, 16)]),
    case("small_conv_net_down_to_size_1", CONV_NET, envs=SMALL),
]


@pytest.mark.parametrize(("subject", "envs"), LARGE_INPUTS)
def test_conv_and_pooling(subject: Subject, envs: list[dict[str, int]]) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), SMALL_INPUTS)
def test_conv_and_pooling_down_to_size_1(subject: Subject, envs: list[dict[str, int]]) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), OTHER)
def test_other_windows_and_a_conv_net(subject: Subject, envs: list[dict[str, int]]) -> None:
    run(subject, envs)
