"""com.microsoft state-space and linear-attention ops: LinearAttention, LinearAttentionGate and
GatedDeltaNet, and the attribute helpers the other contrib families share (the causal
convolutions and state replays are in `symshape.rules.onnx_contrib.conv_state`).

The contract is the onnxruntime 1.32 schema (its doc and its shape inference) plus what the CPU
kernels reject (``linear_attention.cc``, ``gated_delta_net.cc``, ``causal_conv_with_state.cc``,
``varlen_causal_conv_with_state.cc``): every such rejection is a fact. A packed batch's request
count is the length of ``cu_seqlens`` minus one, a shape, never a value.
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim, add, mul, product
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import (
    FIX_CONTRACT,
    MS,
    div_exact,
    eq_dims,
    eq_shape,
    eq_vector,
    not_scalar,
    required_int,
    shape_of_rank,
)
from symshape.rules.registry import register
from symshape.rules.shared.fit import require_ge

MAX_CAPACITY = 8  # state_update_capacity and state_window are in [0, 8]
DELTA_RULES = ("linear", "gated", "delta", "gated_delta")


# ------------------------------------------------------------------------------ helpers
def one_of(ctx: OpContext, i: int, axis: int, options: Sequence[tuple[Dim, str]], rule: str) -> int | None:
    """Dim ``axis`` of input ``i`` is one of ``options`` (size, description): the index of the
    one it is proven to be; the one left when the others are refuted (recorded as a fact); a
    ModelError when all are refuted; None while more than one is possible."""
    got = ctx.shape(i)[axis]
    open_: list[int] = []
    for k, (want, _) in enumerate(options):
        same = ctx.prove_eq(got, want)
        if same:
            return k
        if same is None:
            open_.append(k)
    if not open_:
        allowed = " or ".join(what for _, what in options)
        raise ctx.invalid(f"{ctx.dim_name(i, axis)} is {got}", allowed, FIX_CONTRACT)
    if len(open_) == 1:
        eq_dims(ctx, got, options[open_[0]][0], rule, i, axis, options[open_[0]][1])
        return open_[0]
    return None


def int_attr(ctx: OpContext, name: str, default: int, lo: int, hi: int | None = None) -> int:
    """An integer attribute in ``[lo, hi]`` (ModelError otherwise)."""
    value = ctx.attr(name, default)
    if not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        expected = f"an integer >= {lo}" if hi is None else f"an integer in [{lo}, {hi}]"
        raise ctx.invalid(f"attribute '{name}' is {value!r}", expected, FIX_CONTRACT)
    return value


def str_attr(ctx: OpContext, name: str, default: str, allowed: Sequence[str]) -> str:
    """A string attribute among ``allowed`` (ModelError otherwise)."""
    value = str(ctx.attr(name, default))
    if value not in allowed:
        raise ctx.invalid(f"attribute '{name}' is '{value}'", "one of " + ", ".join(allowed), FIX_CONTRACT)
    return value


def require_together(ctx: OpContext, names: Sequence[tuple[int, str]]) -> bool:
    """Optional inputs that come together: whether they are present (ModelError for some)."""
    present = [ctx.has_input(i) for i, _ in names]
    if any(present) and not all(present):
        listed = " and ".join(n for _, n in names)
        raise ctx.invalid(f"only some of {listed} are given", f"{listed} together or none", FIX_CONTRACT)
    return all(present)


def presence(ctx: OpContext, i: int, name: str, wanted: bool, why: str) -> None:
    """Input ``i`` is present exactly when ``wanted`` (the kernels reject either mismatch)."""
    if ctx.has_input(i) != wanted:
        found = f"'{name}' is {'given' if ctx.has_input(i) else 'missing'}"
        raise ctx.invalid(found, f"'{name}' present exactly when {why}", FIX_CONTRACT)


def packed_batch(ctx: OpContext, i: int, name: str) -> Dim:
    """The request count of a packed batch: ``len(cu_seqlens) - 1`` (at least one request)."""
    (n,) = shape_of_rank(ctx, i, (1,), name)
    require_ge(ctx, n, 2, f"{name} has at least 2 elements", f"the length of '{name}'")
    return ctx.canon(add(n, -1))


def with_window(ctx: OpContext, window: int, dims: tuple[Dim, ...]) -> tuple[Dim, ...]:
    """A state's dims, led by the window of states kept when ``state_window > 0``."""
    return (window, *dims) if window > 0 else dims


# ------------------------------------------------------------------- linear attention
@register(MS, "LinearAttention")
def linear_attention(ctx: OpContext) -> None:
    """Packed ``(B, T, H*d)`` recurrence: ``output (B, T, max(H_q, H_kv)*d_v)`` and
    ``present_state (B, H_kv, d_k, d_v)``, led by ``(W,)`` when ``state_window = W > 0``.

    ``d_k = D_q/H_q``, ``d_v = D_v/H_kv``; the key has ``n_k = D_k/d_k`` heads with
    ``n_k | H_kv``. Facts (the CPU kernel's checks): shared ``B``, ``T``; the divisions; decay
    ``(B, T, H_kv)`` or ``(B, T, H_kv*d_k)``, required by the gated rules; beta ``(B, T, H_kv)``
    or ``(B, T, 1)``, required by the delta rules; the past state has the present's shape.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.LinearAttention
    """
    hq, hkv = required_int(ctx, "q_num_heads"), required_int(ctx, "kv_num_heads")
    if max(hq, hkv) % min(hq, hkv):
        raise ctx.invalid(f"q_num_heads {hq} and kv_num_heads {hkv}", "one a multiple of the other", FIX_CONTRACT)
    rule = str_attr(ctx, "update_rule", "gated_delta", DELTA_RULES)
    window = int_attr(ctx, "state_window", 0, 0, MAX_CAPACITY)
    batch, seq, dq = shape_of_rank(ctx, 0, (3,), "query")
    require_ge(ctx, dq, 1, "query hidden size is positive", "the query hidden size")
    d_k = div_exact(ctx, dq, hq, "the query hidden size")
    for i, name in ((1, "key"), (2, "value")):
        dims = shape_of_rank(ctx, i, (3,), name)
        eq_dims(ctx, dims[0], batch, "batch size", i, 0, "batch_size")
        eq_dims(ctx, dims[1], seq, "sequence length", i, 1, "sequence_length")
    dk_in = ctx.shape(1)[2]
    require_ge(ctx, dk_in, 1, "key hidden size is positive", "the key hidden size")
    if isinstance(d_k, int):
        n_k = div_exact(ctx, dk_in, d_k, "the key hidden size (n_k heads of d_k)")
        if isinstance(n_k, int) and n_k > 0 and hkv % n_k:
            raise ctx.invalid(f"the key has {n_k} heads", f"a divisor of kv_num_heads {hkv}", FIX_CONTRACT)
    d_v = div_exact(ctx, ctx.shape(2)[2], hkv, "the value hidden size")
    gated, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    for i, name, needed, last in ((4, "decay", gated, ((hkv, "H_kv"), (mul(hkv, d_k), "H_kv*d_k"))),
                                  (5, "beta", delta, ((hkv, "H_kv"), (1, "1")))):
        if needed and not ctx.has_input(i):
            raise ctx.invalid(f"'{name}' is missing", f"'{name}' for update_rule '{rule}'", FIX_CONTRACT)
        if ctx.has_input(i):
            dims = shape_of_rank(ctx, i, (3,), name)
            eq_dims(ctx, dims[0], batch, f"{name} shape", i, 0, "batch_size")
            eq_dims(ctx, dims[1], seq, f"{name} shape", i, 1, "sequence_length")
            one_of(ctx, i, 2, last, f"{name} shape")
    state = with_window(ctx, window, (batch, hkv, d_k, d_v))
    if ctx.has_input(3):
        eq_shape(ctx, 3, state, "past_state shape", "past_state", "present_state")
    ctx.set_output(0, (batch, seq, ctx.canon(mul(max(hq, hkv), d_v))))
    ctx.set_output(1, state)


@register(MS, "LinearAttentionGate")
def linear_attention_gate(ctx: OpContext) -> None:
    """``decay = decay_scale * Softplus(a + dt_bias)`` and ``beta = Sigmoid(b)``: both have a's
    shape. Facts: a's last dim ``H >= 1``; dt_bias and decay_scale hold ``H`` elements; ``b``
    (required for beta) has a's shape.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.LinearAttentionGate
    """
    a = not_scalar(ctx, 0, "'a'", "input 'a'")
    heads = a[-1]
    require_ge(ctx, heads, 1, "a's last dim is positive", "the last dim of 'a'")
    for i, name in ((1, "dt_bias"), (2, "decay_scale")):
        ctx.eq(ctx.numel(i), heads, f"{name} size", (f"the element count of '{ctx.op.inputs[i]}'", "H"))
    wants_beta = ctx.num_outputs > 1 and bool(ctx.op.outputs[1])
    if wants_beta:
        if not ctx.has_input(3):
            raise ctx.invalid("the beta output without input 'b'", "input 'b' when beta is requested", FIX_CONTRACT)
        eq_shape(ctx, 3, a, "b shape", "b", "a")
    ctx.set_output(0, a)
    ctx.set_output(1, a)


# ----------------------------------------------------------------------- gated delta net
@register(MS, "GatedDeltaNet")
def gated_delta_net(ctx: OpContext) -> None:
    """Token-major delta rule: ``output (*tokens, H_v, d_v)``, ``final_state (B, H_v, d_v, d_k)``,
    ``state_update (B, C*(w + H_k*d_k + H_v*d_v))`` with ``w = H_v`` (``H_v*d_k`` for a
    per-key decay) and ``C = state_update_capacity``.

    ``tokens`` is ``(N,)`` (rank-3 q/k/v) or ``(B, S)`` (rank 4); packed QKV is ``(*tokens,
    2*H_q*d_k + H_v*d_v)`` with the head sizes from initial_state. ``B`` is ``len(cu_seqlens) -
    1``, else initial_state's dim 0 (``B | N``), else (rank 4) dim 0. Facts: the kernel's shape
    checks, ``H_q == H_k``, ``H_q | H_v``, input presence against update_rule, gate_activation
    and the capacity, ``N >= 1`` and ``B >= 1``.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatedDeltaNet
    """
    rule = str_attr(ctx, "update_rule", "gated_delta", DELTA_RULES)
    gate = str_attr(ctx, "gate_activation", "none", ("none", "softplus", "qwen", "sigmoid", "kda"))
    capacity = int_attr(ctx, "state_update_capacity", 0, 0, MAX_CAPACITY)
    tokens, (hv, dv, dk), qk_width = _gdn_heads(ctx)
    require_ge(ctx, product(tokens), 1, "total_tokens is positive", "the token count")
    batch = _gdn_batch(ctx, tokens)
    state = (batch, hv, dv, dk)
    if ctx.has_input(6):
        eq_shape(ctx, 6, state, "initial_state shape", "initial_state", "(batch, H_v, d_v, d_k)")
    per_key = _decay_beta(ctx, rule, tuple(tokens), hv, dk)
    _gate_inputs(ctx, gate, hv, dk, per_key)
    presence(ctx, 9, "capture_count", capacity > 0, "state_update_capacity > 0")
    eq_vector(ctx, 9, batch, "capture_count shape", "batch_size")
    eq_vector(ctx, 10, 1, "state_update_active shape", "1")
    ctx.set_output(0, (*tokens, hv, dv))
    ctx.set_output(1, state)
    width = add(add(mul(hv, dk) if per_key else hv, qk_width), mul(hv, dv))
    ctx.set_output(2, (batch, ctx.canon(mul(capacity, width))))


def _gdn_heads(ctx: OpContext) -> tuple[tuple[Dim, ...], tuple[Dim, Dim, Dim], Dim]:
    """GatedDeltaNet's token dims, ``(H_v, d_v, d_k)`` and ``H_k*d_k`` (the key width)."""
    packed = not require_together(ctx, ((1, "key"), (2, "value")))
    q = shape_of_rank(ctx, 0, (2, 3) if packed else (3, 4), "query")
    tokens = q[:-1] if packed else q[:-2]
    if len(tokens) == 2 and ctx.has_input(3):
        raise ctx.invalid("cu_seqlens with (batch, sequence) tokens", "rank-3 q/k/v (or rank-2 packed)", FIX_CONTRACT)
    if packed:
        if not ctx.has_input(6):
            raise ctx.invalid("packed QKV without initial_state", "initial_state (it gives the head sizes)")
        _, hv, dv, dk = shape_of_rank(ctx, 6, (4,), "initial_state")
        width = div_exact(ctx, add(q[-1], mul(mul(hv, dv), -1)), 2, "the packed QKV width minus H_v*d_v")
        return tokens, (hv, dv, dk), width
    hq, dk = q[-2], q[-1]
    for i, name in ((1, "key"), (2, "value")):
        ctx.require_rank(ctx.shape(i), len(q), f"input '{name}'", f"rank {len(q)}, the query's", FIX_CONTRACT)
        for axis, t in enumerate(tokens):
            eq_dims(ctx, ctx.shape(i)[axis], t, "total_tokens", i, axis, f"dim {axis} of the query")
    eq_dims(ctx, ctx.shape(1)[-2], hq, "num_heads_k", 1, len(q) - 2, "num_heads_q")
    eq_dims(ctx, ctx.shape(1)[-1], dk, "head_size_qk", 1, len(q) - 1, "the query head size")
    hv, dv = ctx.shape(2)[-2], ctx.shape(2)[-1]
    if isinstance(hq, int) and hq > 0:
        if isinstance(hv, int) and hv % hq:
            raise ctx.invalid(f"num_heads_v {hv} with num_heads_q {hq}", "a positive multiple of num_heads_q")
        if not isinstance(hv, int):
            ctx.assume_divisible(hv, hq, "num_heads_v is a multiple of num_heads_q")
    return tokens, (hv, dv, dk), ctx.canon(mul(hq, dk))


def _gdn_batch(ctx: OpContext, tokens: tuple[Dim, ...]) -> Dim:
    """``len(cu_seqlens) - 1``, else ``B`` of ``(B, S)`` tokens, else initial_state's dim 0
    (then ``B | N``, uniform packing)."""
    if ctx.has_input(3):
        batch = packed_batch(ctx, 3, "cu_seqlens")
    elif len(tokens) == 2:
        batch = tokens[0]
    elif ctx.has_input(6):
        batch = shape_of_rank(ctx, 6, (4,), "initial_state")[0]
        if isinstance(batch, int) and batch > 0:
            div_exact(ctx, tokens[0], batch, "total_tokens (uniform packing)")
    else:
        raise ctx.invalid("no cu_seqlens and no initial_state", "one of them (they give the batch size)", FIX_CONTRACT)
    require_ge(ctx, batch, 1, "batch size is positive", "the batch size")
    return batch


def _decay_beta(ctx: OpContext, rule: str, tokens: tuple[Dim, ...], hv: Dim, dk: Dim) -> bool:
    """GatedDeltaNet's decay ``(*tokens, H_v[, d_k])`` and beta ``(*tokens, H_v)``, present
    exactly as update_rule needs them; whether the decay is per key dim."""
    presence(ctx, 4, "decay", rule in ("gated", "gated_delta"), f"update_rule '{rule}' is gated")
    presence(ctx, 5, "beta", rule in ("delta", "gated_delta"), f"update_rule '{rule}' is a delta rule")
    n = len(tokens)
    per_key = False
    if ctx.has_input(4):
        decay = shape_of_rank(ctx, 4, (n + 1, n + 2), "decay")
        per_key = len(decay) == n + 2
        eq_shape(ctx, 4, (*tokens, hv, dk) if per_key else (*tokens, hv), "decay shape", "decay", "(*tokens, H_v)")
    if ctx.has_input(5):
        eq_shape(ctx, 5, (*tokens, hv), "beta shape", "beta", "(*tokens, H_v)")
    return per_key


def _gate_inputs(ctx: OpContext, gate: str, hv: Dim, dk: Dim, per_key: bool) -> None:
    """a_log ``(H_v)`` and dt_bias ``(H_v)`` (or, for a per-key decay, ``(H_v, d_k)`` or
    ``(H_v*d_k)``): both exactly when gate_activation fuses the decay."""
    fused = gate != "none"
    presence(ctx, 7, "a_log", fused, "gate_activation is softplus or sigmoid")
    presence(ctx, 8, "dt_bias", fused, "gate_activation is softplus or sigmoid")
    if not fused:
        return
    eq_vector(ctx, 7, hv, "a_log shape", "num_heads_v")
    bias = shape_of_rank(ctx, 8, (1, 2) if per_key else (1,), "dt_bias")
    if len(bias) == 2:
        eq_shape(ctx, 8, (hv, dk), "dt_bias shape", "dt_bias", "(H_v, d_k)")
    elif per_key:
        one_of(ctx, 8, 0, ((hv, "num_heads_v"), (mul(hv, dk), "num_heads_v * head_size_qk")), "dt_bias shape")
    else:
        eq_dims(ctx, bias[0], hv, "dt_bias shape", 8, 0, "num_heads_v")
