"""The op table of the MLIR fuzzer: each entry turns arrays of a program into a new array.

An op reads its operands from the program's pool of arrays and its static parameters from a
tuple of small integers drawn by hypothesis; it takes axes, window sizes and bounds from those
integers modulo the operand's rank, so one recipe means the same program whether jax traces it
with symbolic dims (for ``jax.export``) or with concrete ones (for ``jax.eval_shape``). An op
that does not fit its operand simply raises: jax refuses the program, and the fuzzer discards it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

Params = tuple[int, ...]  # drawn ints, each in [-5, 9]
OpFn = Callable[[Sequence[jax.Array], Params], jax.Array]
OPS: dict[str, OpFn] = {}


def op(fn: OpFn) -> OpFn:
    OPS[fn.__name__.removeprefix("op_")] = fn
    return fn


def axis_of(x: jax.Array, k: int) -> int:
    return k % max(x.ndim, 1)


def positive(k: int, top: int = 3) -> int:
    """A positive size from a drawn int: 1 .. top."""
    return abs(k) % top + 1


def at_least_1d(x: jax.Array) -> jax.Array:
    return x.reshape(1) if x.ndim == 0 else x


def as_float(x: jax.Array) -> jax.Array:
    return x.astype(jnp.float32)


@op
def op_unary(a: Sequence[jax.Array], p: Params) -> jax.Array:
    return jnp.sin(as_float(a[0])) * 2.0 if p[0] % 2 else as_float(a[0]) + 1.0


@op
def op_flatten(a: Sequence[jax.Array], p: Params) -> jax.Array:
    return a[0].reshape(-1)


@op
def op_reshape_keep_first(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """``reshape(d0, -1)`` or ``reshape(-1, d_last)``."""
    x = at_least_1d(a[0])
    return x.reshape(x.shape[0], -1) if p[0] % 2 else x.reshape(-1, x.shape[-1])


@op
def op_merge_axes(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    if x.ndim < 2:
        return x.reshape(1, -1)
    i = p[0] % (x.ndim - 1)
    return x.reshape((*x.shape[:i], x.shape[i] * x.shape[i + 1], *x.shape[i + 2:]))


@op
def op_split_axis(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """An axis split by a constant factor (jax refuses unless it divides); -1 or the quotient."""
    x = at_least_1d(a[0])
    i, k = axis_of(x, p[0]), positive(p[1], 4)
    inner = (-1, k) if p[2] % 2 else (x.shape[i] // k, -1)
    return x.reshape((*x.shape[:i], *inner, *x.shape[i + 1:]))


@op
def op_transpose(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = a[0]
    perm = sorted(range(x.ndim), key=lambda i: (p[i % len(p)] * 7 + i) % 11)
    return jnp.transpose(x, perm)


@op
def op_expand_squeeze(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = jnp.expand_dims(a[0], p[0] % (a[0].ndim + 1))
    return jnp.squeeze(x, p[0] % x.ndim) if p[1] % 3 == 0 else x


@op
def op_broadcast_reduced(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """An axis reduced to 1 then broadcast back to the operand's shape (or to a new leading dim
    taken from a second operand): the broadcast operand has a dim that is 1."""
    x, y = at_least_1d(a[0]), at_least_1d(a[1])
    r = x.sum(axis=axis_of(x, p[0]), keepdims=True)
    shape = (y.shape[axis_of(y, p[2])], *x.shape) if p[1] % 2 else x.shape
    return jnp.broadcast_to(r, shape)


@op
def op_implicit_broadcast(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """``x + y`` with y a reduction of x (keepdims) or x's broadcast over a new leading axis."""
    x = at_least_1d(a[0])
    y = x.max(axis=axis_of(x, p[0]), keepdims=True) if p[1] % 2 else x[..., :1]
    return as_float(x) * as_float(y) if p[2] % 2 else jnp.where(x > 0, x, y)


@op
def op_add_two(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Two operands added: jax refuses unless their shapes broadcast."""
    return as_float(a[0]) + as_float(a[1])


@op
def op_matmul(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    y = jnp.swapaxes(x, -1, -2) if x.ndim >= 2 else x
    return jnp.matmul(x, y) if p[0] % 2 else jnp.matmul(y, x)


@op
def op_matmul_two(a: Sequence[jax.Array], p: Params) -> jax.Array:
    return jnp.matmul(as_float(at_least_1d(a[0])), as_float(at_least_1d(a[1])))


@op
def op_einsum(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    letters = "abcd"[: x.ndim]
    other = letters[::-1] if p[0] % 2 else letters
    keep = "".join(c for i, c in enumerate(letters) if (p[1] >> i) & 1)
    return jnp.einsum(f"{letters},{other}->{keep}", x, jnp.transpose(x, tuple(range(x.ndim))[::-1])
                      if p[0] % 2 else x)


@op
def op_concat(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    parts = [x, lax.slice_in_dim(x, positive(p[1]) - 1, None, axis=i)] if p[2] % 2 else [x, x]
    return jnp.concatenate(parts, axis=i)


@op
def op_concat_two(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x, y = at_least_1d(a[0]), at_least_1d(a[1])
    return jnp.concatenate([as_float(x), as_float(y)], axis=axis_of(x, p[0]))


@op
def op_split(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """``jnp.split`` at static indices (clamped) or into equal parts (jax needs the divisor)."""
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    parts = jnp.split(x, [abs(p[1]), abs(p[1]) + abs(p[2])], axis=i) if p[3] % 2 else jnp.split(x, positive(p[1]), i)
    return parts[abs(p[4]) % len(parts)]


@op
def op_slice(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """A Python slice with negative, out-of-range and missing bounds and a step (maybe negative)."""
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    start = None if p[1] == 9 else p[1]
    stop = None if p[2] == 9 else p[2]
    step = None if p[3] in (0, 9) else (p[3] if p[3] > -4 else -1)
    index = (slice(None),) * i + (slice(start, stop, step),)
    return x[index]


@op
def op_lax_slice(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    start = abs(p[1]) % 3
    return lax.slice_in_dim(x, start, x.shape[i] - abs(p[2]) % 2, positive(p[3]), axis=i)


@op
def op_pad(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    if p[3] % 2:
        widths = [(0, 0)] * x.ndim
        widths[i] = (abs(p[1]) % 4, abs(p[2]) % 4)
        return jnp.pad(x, widths, mode="edge" if p[4] % 3 == 0 else "constant")
    config = [(0, 0, 0)] * x.ndim
    config[i] = (p[1] % 4 - 1, p[2] % 4 - 1, abs(p[4]) % 3)  # lax.pad: negative lows/highs and interior
    return lax.pad(as_float(x), 0.0, config)


@op
def op_conv(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """A 1- or 2-d conv over the trailing axes of a rank-3/4 operand, NC(spatial) layout."""
    x = as_float(a[0])
    while x.ndim < 3:
        x = x[None]
    x = x if x.ndim <= 4 else x.reshape(x.shape[0], x.shape[1], x.shape[2], -1)
    n = x.ndim - 2
    kernel = jnp.ones((positive(p[0], 2), x.shape[1], *(positive(p[1 + j]) for j in range(n))), jnp.float32)
    padding: Any = ("SAME", "VALID", "SAME_LOWER")[abs(p[4]) % 3] if p[5] % 2 else [
        (abs(p[4]) % 3, abs(p[5]) % 2)] * n
    return lax.conv_general_dilated(x, kernel, [positive(p[6])] * n, padding, lhs_dilation=[positive(p[7], 2)] * n
                                    if p[3] % 4 == 0 else None, rhs_dilation=[positive(p[3], 2)] * n)


@op
def op_reduce_window(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Max or sum pooling on every axis: windows, strides, window/base dilation, SAME/VALID or
    explicit padding."""
    x = as_float(at_least_1d(a[0]))
    window = [positive(p[j % 8]) if j % 2 == 0 else 1 for j in range(x.ndim)]
    strides = [positive(p[(j + 3) % 8]) for j in range(x.ndim)]
    padding: Any = "SAME" if p[1] % 3 == 0 else "VALID" if p[1] % 3 == 1 else [
        (abs(p[2]) % 2, abs(p[4]) % 3)] * x.ndim
    if p[5] % 3 == 0:
        return lax.reduce_window(x, -jnp.inf, lax.max, window, strides, padding)
    dilation = [positive(p[6], 2)] * x.ndim
    base = [positive(p[7], 2)] * x.ndim
    return lax.reduce_window(x, 0.0, lax.add, window, strides, padding, base, dilation)


@op
def op_where(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x, y = as_float(a[0]), as_float(a[1])
    return jnp.where(x > 0, x, y) if p[0] % 2 else jnp.where(x > 0, x, 0.0)


@op
def op_cond(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(at_least_1d(a[0]))
    i = axis_of(x, p[0])
    return lax.cond(x.sum() > 0, lambda v: jnp.flip(v, i), lambda v: jnp.pad(lax.slice_in_dim(v, 1, None, axis=i),
                                                                             [(0, int(j == i)) for j in range(v.ndim)]),
                    x)


@op
def op_fori(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(a[0])
    upper = positive(p[0]) if p[1] % 2 else at_least_1d(x).shape[0]
    return lax.fori_loop(0, upper, lambda k, v: v * 0.5 + 1.0, x)


@op
def op_scan(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(at_least_1d(a[0]))

    def step(c: jax.Array, r: jax.Array) -> tuple[jax.Array, jax.Array]:
        return c + r, (c * r).sum(keepdims=True) if p[0] % 2 else c

    carry, ys = lax.scan(step, jnp.zeros(x.shape[1:]), x, reverse=p[1] % 2 == 1)
    return ys if p[2] % 3 else carry


@op
def op_reduce(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(at_least_1d(a[0]))
    fn = (jnp.sum, jnp.max, jnp.mean, jnp.argmax)[abs(p[1]) % 4]
    return fn(x, axis=axis_of(x, p[0]), keepdims=p[2] % 2 == 1)


@op
def op_floordiv_dims(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Arithmetic on dims: a slice to ``d // k``, zeros of ``(d // k, d % k + 1)`` or ``d*e - 1``."""
    x = at_least_1d(a[0])
    i, k = axis_of(x, p[0]), positive(p[1], 4) + 1
    d = x.shape[i]
    choice = abs(p[2]) % 3
    if choice == 0:
        return lax.slice_in_dim(x, 0, d // k, axis=i)
    if choice == 1:
        return jnp.zeros((d // k, d % k + 1), jnp.float32)
    return jnp.ones((d * x.shape[-1] - 1,), jnp.float32)


@op
def op_gather(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """``jnp.take`` with indices from an arange of a dim, or a row gather; a dynamic slice."""
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    choice = abs(p[1]) % 3
    if choice == 0:
        return jnp.take(x, jnp.arange(at_least_1d(a[1]).shape[0]) % 3, axis=i, mode="clip")
    if choice == 1:
        return x[jnp.arange(x.shape[0]) // 2]
    return lax.dynamic_slice_in_dim(x, p[2], x.shape[i] - abs(p[3]) % 2, axis=i)


@op
def op_iota(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    d = x.shape[axis_of(x, p[0])]
    choice = abs(p[1]) % 3
    if choice == 0:
        return jnp.arange(d) * 2
    if choice == 1:
        return jnp.arange(0, d * 2, positive(p[2]))
    return lax.broadcasted_iota(jnp.int32, (d, x.shape[-1]), p[2] % 2)


@op
def op_cumsum(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    return lax.cumsum(as_float(x), axis=i, reverse=p[1] % 2 == 1) if p[2] % 2 else jnp.cumsum(x, i)


@op
def op_sort(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    return jnp.sort(x, axis=i) if p[1] % 2 else jnp.argsort(x, axis=i)


@op
def op_top_k(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(at_least_1d(a[0]))
    values, indices = lax.top_k(x, positive(p[0]))
    return values if p[1] % 2 else indices


@op
def op_repeat_tile(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    return jnp.repeat(x, positive(p[1]), axis=axis_of(x, p[0])) if p[2] % 2 else jnp.tile(x, positive(p[1]))


@op
def op_roll_flip(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    return jnp.roll(x, p[1], axis=axis_of(x, p[0])) if p[2] % 2 else jnp.flip(x, axis_of(x, p[0]))
