"""More ops of the MLIR fuzzer (see `tests.fuzz.mlir_ops`): the jnp and lax functions whose
result dims are arithmetic of the operand's (``n // 2 + 1`` of rfft, ``n - 1`` of diff, the
uneven ``array_split``), one-hot and linspace sized by a dim, batching by
vmap, transposed convolution, resize, dynamic updates and while/switch control flow."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
from jax import lax

from tests.fuzz.mlir_ops import Params, as_float, at_least_1d, axis_of, op, positive


@op
def op_fft(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """rfft (``n // 2 + 1``), irfft (``2 * (m - 1)``) or rfft with a length ``n``."""
    x = as_float(at_least_1d(a[0]))
    i = axis_of(x, p[0])
    choice = abs(p[1]) % 3
    if choice == 0:
        return jnp.abs(jnp.fft.rfft(x, axis=i))
    if choice == 1:
        return jnp.fft.irfft(x.astype(jnp.complex64), axis=i)
    return jnp.abs(jnp.fft.rfft(x, n=positive(p[2], 8), axis=i))


@op
def op_diff(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    return jnp.diff(x, n=positive(p[1], 2), axis=axis_of(x, p[0]))


@op
def op_array_split(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Uneven parts: the first ``n % k`` parts one longer."""
    x = at_least_1d(a[0])
    parts = jnp.array_split(x, positive(p[1]), axis=axis_of(x, p[0]))
    return parts[abs(p[2]) % len(parts)]


@op
def op_one_hot(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    return jax.nn.one_hot(x.astype(jnp.int32), x.shape[axis_of(x, p[0])] if p[1] % 2 else positive(p[2]))


@op
def op_linspace(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    return jnp.linspace(0.0, 1.0, x.shape[axis_of(x, p[0])] + p[1] % 3, endpoint=p[2] % 2 == 0)


@op
def op_stack(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(a[0])
    return jnp.stack([x, x * 2.0], axis=p[0] % (x.ndim + 1))


@op
def op_diagonal(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    if x.ndim < 2:
        return jnp.diag(x, p[1] % 3 - 1)
    return jnp.diagonal(x, offset=p[1] % 5 - 2) if p[2] % 2 else jnp.tril(x, p[1] % 3 - 1)


@op
def op_outer(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x, y = as_float(a[0]).reshape(-1), as_float(a[1]).reshape(-1)
    return jnp.outer(x, y) if p[0] % 2 else jnp.kron(x, y[: positive(p[1])])


@op
def op_vmap(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """A padded, sliced and reduced row, mapped over the leading axis (batching rules)."""
    x = as_float(at_least_1d(a[0]))

    def row(r: jax.Array) -> jax.Array:
        r = jnp.pad(r, [(0, 1)] * r.ndim)
        return r[..., ::2].sum(axis=0, keepdims=True) if r.ndim else r

    return jax.vmap(row)(x)


@op
def op_dot_general(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """A batched contraction: the leading axis batched, the last contracted (jnp.einsum)."""
    x = as_float(a[0])
    while x.ndim < 3:
        x = x[None]
    return jnp.einsum("b...k,bjk->b...j", x, x[:, : positive(p[0]) if p[1] % 2 else None].reshape(x.shape[0], -1,
                                                                                             x.shape[-1]))


@op
def op_update(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """dynamic_update_slice of a window, ``.at[].set`` of a slice, or a scatter-add of rows."""
    x = as_float(at_least_1d(a[0]))
    i = axis_of(x, p[0])
    choice = abs(p[1]) % 3
    if choice == 0:
        window = lax.slice_in_dim(x, 0, 1, axis=i) * 3.0
        return lax.dynamic_update_slice_in_dim(x, window, p[2], axis=i)
    if choice == 1:
        return x.at[p[2] % 3 :: 2].set(0.0)
    return x.at[jnp.arange(x.shape[0]) // 2].add(1.0)


@op
def op_take_along(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = at_least_1d(a[0])
    i = axis_of(x, p[0])
    return jnp.take_along_axis(x, jnp.argsort(x, axis=i), axis=i)


@op
def op_conv_transpose(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """A strided transposed 1-d conv over the last axis (NWC layout)."""
    x = as_float(a[0])
    while x.ndim < 3:
        x = x[None]
    kernel = jnp.ones((positive(p[0]), x.shape[-1], 2), jnp.float32)
    padding = ("SAME", "VALID")[abs(p[1]) % 2] if p[2] % 2 else [(abs(p[1]) % 3, abs(p[3]) % 2)]
    return lax.conv_transpose(x.reshape(x.shape[0], -1, x.shape[-1]), kernel, (positive(p[4]),), padding,
                              dimension_numbers=("NWC", "WIO", "NWC"))


@op
def op_resize(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """jax.image.resize of the last axis to twice its length (or one more)."""
    x = as_float(at_least_1d(a[0]))
    n = x.shape[-1]
    return jax.image.resize(x, (*x.shape[:-1], 2 * n if p[0] % 2 else n + 1), ("nearest", "linear")[p[1] % 2])


@op
def op_while(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """A while loop counting to a dim, carrying a growing slice-and-pad of the operand."""
    x = as_float(at_least_1d(a[0]))

    def body(state: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        k, v = state
        return k + 1, jnp.roll(v, 1, axis=0) + 1.0

    return lax.while_loop(lambda s: s[0] < x.shape[0] // 2, body, (jnp.int32(0), x))[1]


@op
def op_switch(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x = as_float(at_least_1d(a[0]))
    branches = [lambda v: v[::-1], lambda v: jnp.cumsum(v, axis=0), lambda v: jnp.sort(v, axis=-1)]
    return lax.switch(jnp.int32(abs(p[0]) % 3) + (x.sum() > 0).astype(jnp.int32), branches, x)


@op
def op_nonzero_sized(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """nonzero with a static or dim-sized ``size`` (padded or truncated)."""
    x = at_least_1d(a[0])
    size = x.shape[0] if p[0] % 2 else positive(p[1])
    return jnp.nonzero(x.reshape(-1) > 0, size=size, fill_value=0)[0]


@op
def op_searchsorted(a: Sequence[jax.Array], p: Params) -> jax.Array:
    x, y = as_float(a[0]).reshape(-1), as_float(a[1])
    return jnp.searchsorted(jnp.sort(x), y)


@op
def op_symbolic_slice(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Slice bounds that are dim expressions: ``d // k``, ``-(d // k)``, ``d - c`` and another
    operand's dim (jax refuses what it cannot prove in range; clamping does the rest)."""
    x, y = at_least_1d(a[0]), at_least_1d(a[1])
    i, k = axis_of(x, p[0]), positive(p[1], 3) + 1
    d, e = x.shape[i], y.shape[axis_of(y, p[2])]
    bounds = ((d // k, None), (-(d // k), None), (None, d - abs(p[3]) % 3), (d % k, e), (None, e // k))
    start, stop = bounds[abs(p[4]) % len(bounds)]
    return x[(slice(None),) * i + (slice(start, stop, None if p[5] % 2 else positive(p[6])),)]


@op
def op_reshape_floordiv(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """The first ``d // k * k`` of an axis, reshaped to ``(d // k, k)``."""
    x = at_least_1d(a[0])
    i, k = axis_of(x, p[0]), positive(p[1], 3) + 1
    q = x.shape[i] // k
    cut = lax.slice_in_dim(x, 0, q * k, axis=i)
    return cut.reshape((*x.shape[:i], q, k, *x.shape[i + 1:]) if p[2] % 2 else (*x.shape[:i], -1, k, *x.shape[i + 1:]))


@op
def op_pad_by_dims(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Padding amounts that are dims: ``d // 2`` before, another operand's dim after."""
    x, y = as_float(at_least_1d(a[0])), at_least_1d(a[1])
    i = axis_of(x, p[0])
    widths = [(0, 0)] * x.ndim
    widths[i] = (x.shape[i] // 2, y.shape[axis_of(y, p[1])] if p[2] % 2 else abs(p[3]) % 2)
    return jnp.pad(x, widths)


@op
def op_broadcast_to_other(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """An axis cut to length 1, broadcast to another operand's dim (which may be 1 at run time)."""
    x, y = at_least_1d(a[0]), at_least_1d(a[1])
    i = axis_of(x, p[0])
    one = lax.slice_in_dim(x, 0, 1, axis=i)
    return jnp.broadcast_to(one, (*x.shape[:i], y.shape[axis_of(y, p[1])], *x.shape[i + 1:]))


@op
def op_concat_dim_sized(a: Sequence[jax.Array], p: Params) -> jax.Array:
    """Zeros of ``d % k`` (or ``d // k``) rows concatenated to the operand."""
    x = as_float(at_least_1d(a[0]))
    i, k = axis_of(x, p[0]), positive(p[1], 3) + 1
    d = x.shape[i]
    rows = d % k if p[2] % 2 else d // k
    return jnp.concatenate([x, jnp.zeros((*x.shape[:i], rows, *x.shape[i + 1:]), jnp.float32)], axis=i)
