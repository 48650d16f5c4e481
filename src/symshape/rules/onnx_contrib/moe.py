"""com.microsoft mixture-of-experts ops and their neighbours: MoE, QMoE, MoEPacked,
MoEGroupRouter, RouterGateUpProj, SwiGLU, MatMulPacked and GatherPacked.

An expert block is token-local: its output keeps the input's shape, and what the kernels check
(``moe_helper.h``'s ``CheckInputs``, ``moe_cpu.cc``, ``moe_quantization_cpu.cc``,
``gather_packed.cc``, the onnxruntime 1.32 schemas' inference) is recorded as facts: one router
row per token, one weight slab per expert, ``k <= num_experts``.
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
    not_scalar,
    required_int,
    shape_of_rank,
)
from symshape.rules.onnx_contrib.recurrent_state import int_attr, str_attr
from symshape.rules.registry import register
from symshape.rules.shared.fit import require_ge

# GatherPacked's packed_type IDs (GGML types) that onnxruntime 1.32's CPU kernel accepts:
# id -> (elements per block, bytes per block), as its row_bytes check computes them.
GGML_BLOCKS: dict[int, tuple[int, int]] = {
    0: (1, 4), 1: (1, 2), 2: (32, 18), 6: (32, 22), 8: (32, 34), 13: (256, 176), 14: (256, 210),
    16: (256, 66), 17: (256, 74), 18: (256, 98), 20: (32, 18), 22: (256, 82), 23: (256, 136),
    30: (1, 2), 42: (256, 72),
}


def _rows(ctx: OpContext, ranks: Sequence[int]) -> tuple[tuple[Dim, ...], Dim]:
    """The token input ``(..., hidden)`` of one of ``ranks`` and its row count."""
    x = shape_of_rank(ctx, 0, ranks, "input")
    return x, ctx.canon(product(x[:-1]))


def _router(ctx: OpContext, i: int, rows: Dim, name: str) -> Dim:
    """A router input ``(rows, num_experts)``: its expert count."""
    r = shape_of_rank(ctx, i, (2,), name)
    eq_dims(ctx, r[0], rows, "one router row per token", i, 0, "the input's token count")
    return r[1]


def _per_expert(ctx: OpContext, inputs: Sequence[tuple[int, str, tuple[int, ...]]], experts: Dim) -> None:
    """Each present input (index, name, allowed ranks) has one slab per expert (dim 0)."""
    for i, name, ranks in inputs:
        if ctx.has_input(i):
            dims = shape_of_rank(ctx, i, ranks, name)
            eq_dims(ctx, dims[0], experts, f"{name} experts", i, 0, "num_experts")


def _top_k(ctx: OpContext, experts: Dim, name: str = "k") -> None:
    k = int_attr(ctx, name, 1, 1)
    require_ge(ctx, add(experts, -k), 0, f"attribute '{name}' <= num_experts", f"num_experts minus {name}")


@register(MS, "MoE")
def moe(ctx: OpContext) -> None:
    """Mixture of experts: the output has the input's shape (``(T, H)`` or ``(B, S, H)``).

    Facts: router_probs is ``(tokens, E)``; every fc weight is 3-D and every weight and bias
    leads with ``E``; fc2's bias is ``(E, H)``; ``k <= E``.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MoE
    """
    x, rows = _rows(ctx, (2, 3))
    experts = _router(ctx, 1, rows, "router_probs")
    _per_expert(ctx, [(2, "fc1_experts_weights", (3,)), (3, "fc1_experts_bias", (2,)),
                      (4, "fc2_experts_weights", (3,)), (5, "fc2_experts_bias", (2,)),
                      (6, "fc3_experts_weights", (3,)), (7, "fc3_experts_bias", (2,))], experts)
    if ctx.has_input(5):
        eq_dims(ctx, ctx.shape(5)[1], x[-1], "fc2 bias width", 5, 1, "hidden_size")
    _top_k(ctx, experts)
    ctx.set_output(0, x)


@register(MS, "QMoE")
def qmoe(ctx: OpContext) -> None:
    """Quantized mixture of experts: the output has the input's shape.

    Facts: router_probs (and router_weights) ``(tokens, E)``; the 3-D weights, their scales,
    biases and zero points, the global scales ``(E)`` lead with ``E``; fc2's bias is
    ``(E, H)``; ``k <= E``.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.QMoE
    """
    x, rows = _rows(ctx, (2, 3))
    experts = _router(ctx, 1, rows, "router_probs")
    slabs: list[tuple[int, str, tuple[int, ...]]] = []
    for fc, base in ((1, 2), (2, 5), (3, 8)):
        slabs += [(base, f"fc{fc}_experts_weights", (3,)), (base + 1, f"fc{fc}_scales", (2, 3)),
                  (base + 2, f"fc{fc}_experts_bias", (2,)), (10 + fc, f"fc{fc}_zero_points", (2, 3))]
    _per_expert(ctx, [*slabs, (15, "fc1_global_scale", (1,)), (16, "fc2_global_scale", (1,))], experts)
    if ctx.has_input(7):
        eq_dims(ctx, ctx.shape(7)[1], x[-1], "fc2 bias width", 7, 1, "hidden_size")
    if ctx.has_input(14):
        eq_shape(ctx, 14, (rows, experts), "router_weights shape", "router_weights", "router_probs")
    _top_k(ctx, experts)
    ctx.set_output(0, x)


@register(MS, "MoEPacked")
def moe_packed(ctx: OpContext) -> None:
    """Mixture of experts on block-packed weights: the output has the input's shape
    ``(..., H)``. Facts (the documented contract; no CPU kernel): router_probs and
    router_weights ``(rows, E)`` with rows the product of the leading dims; gate and up
    ``(E, I, *)``, down ``(E, H, *)``; ``k <= E``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MoEPacked
    """
    x, rows = _rows(ctx, tuple(range(1, 9)))
    experts = _router(ctx, 1, rows, "router_probs")
    _per_expert(ctx, [(2, "gate_experts_weights", (3,)), (3, "up_experts_weights", (3,)),
                      (4, "down_experts_weights", (3,))], experts)
    if ctx.has_input(3):
        eq_dims(ctx, ctx.shape(3)[1], ctx.shape(2)[1], "inter_size", 3, 1, "dim 1 of the gate weights")
    eq_dims(ctx, ctx.shape(4)[1], x[-1], "hidden_size", 4, 1, "the input's hidden size")
    if ctx.has_input(5):
        eq_shape(ctx, 5, (rows, experts), "router_weights shape", "router_weights", "router_probs")
    _top_k(ctx, experts)
    ctx.set_output(0, x)


@register(MS, "MoEGroupRouter")
def moe_group_router(ctx: OpContext) -> None:
    """Group-limited sigmoid router: every output is ``(rows, E)``, rows the product of the
    logits' leading dims. With projection_weight ``(E, width)`` the logits are ``(rows,
    width)`` activations (``256 | width``). Facts: expert_bias holds ``E`` elements;
    ``n_group | E``, ``top_k <= E``; the full-score outputs come together, without the legacy
    one, with one group and ``E <= 512``; a projection needs them.
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MoEGroupRouter
    """
    required_int(ctx, "top_k")
    groups = int_attr(ctx, "n_group", 1, 1)
    active = int_attr(ctx, "topk_group", 1, 1)
    int_attr(ctx, "group_topk", 2, 1)
    if active > groups:
        raise ctx.invalid(f"topk_group {active} with n_group {groups}", "topk_group <= n_group", FIX_CONTRACT)
    wanted = [i < ctx.num_outputs and bool(ctx.op.outputs[i]) for i in range(3)]
    full = wanted[1] or wanted[2]
    if full and not (wanted[1] and wanted[2] and not wanted[0] and groups == active == 1):
        raise ctx.invalid("full-score outputs " + ("with the legacy output" if wanted[0] else "alone or grouped"),
                          "selection_scores and router_weights together, one group, no router_probs", FIX_CONTRACT)
    logits = shape_of_rank(ctx, 0, tuple(range(2, 9)), "logits")
    if ctx.has_input(2):
        if not full:
            raise ctx.invalid("projection_weight without full-score outputs", "selection_scores and router_weights")
        ctx.require_rank(logits, 2, "input 'logits'", "rank 2 with projection_weight", FIX_CONTRACT)
        div_exact(ctx, logits[1], 256, "the projected width")
        require_ge(ctx, logits[1], 256, "the projected width is positive", "the projected width")
        weight = shape_of_rank(ctx, 2, (2,), "projection_weight")
        eq_dims(ctx, weight[1], logits[1], "projection width", 2, 1, "the logits' width")
        experts = weight[0]
    else:
        experts = logits[-1]
    ctx.eq(ctx.numel(1), experts, "expert_bias length", (f"the element count of '{ctx.op.inputs[1]}'", "E"))
    div_exact(ctx, experts, groups, "num_experts")
    _top_k(ctx, experts, "top_k")
    if full:
        require_ge(ctx, add(512, mul(experts, -1)), 0, "full-score routing has <= 512 experts", "512 - num_experts")
    out = (ctx.canon(product(logits[:-1])), experts)
    for i in range(3):
        ctx.set_output(i, out)


@register(MS, "RouterGateUpProj")
def router_gate_up_proj(ctx: OpContext) -> None:
    """``X (..., K) @ W (K, R + 2*I)`` split into ``router (..., R)`` and the SwiGLU of the
    two halves ``activated (..., I)``, ``R = router_size``. Facts: the contraction, an even
    ``W`` width past ``R`` with ``I >= 1``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.RouterGateUpProj
    """
    router = required_int(ctx, "router_size")
    str_attr(ctx, "activation", "swiglu", ("swiglu",))
    x = not_scalar(ctx, 0, "X")
    w = shape_of_rank(ctx, 1, (2,), "W")
    eq_dims(ctx, w[0], x[-1], "contraction", 1, 0, ctx.dim_name(0, len(x) - 1))
    inter = div_exact(ctx, add(w[1], -router), 2, "W's width minus router_size")
    require_ge(ctx, inter, 1, "W is wider than router_size", "the shared-expert width")
    ctx.set_output(0, (*x[:-1], router))
    ctx.set_output(1, (*x[:-1], inter))


@register(MS, "SwiGLU")
def swiglu(ctx: OpContext) -> None:
    """Clamped SwiGLU: with ``up``, the output has gate's shape (up's too, a fact); without,
    gate ``(..., 2*I)`` holds both halves and the output is ``(..., I)`` (an even width is a
    fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SwiGLU
    """
    gate = not_scalar(ctx, 0, "gate")
    if ctx.has_input(1):
        eq_shape(ctx, 1, gate, "up shape", "up", "gate")
        ctx.set_output(0, gate)
        return
    ctx.set_output(0, (*gate[:-1], div_exact(ctx, gate[-1], 2, "gate's last dim")))


@register(MS, "MatMulPacked")
def matmul_packed(ctx: OpContext) -> None:
    """``A (..., K) @ B^T`` for a block-packed ``B (N, row_bytes)``: the output is ``(..., N)``.
    Facts: ``A``'s last dim is the attribute ``K``, ``B`` has ``N`` rows.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.MatMulPacked
    """
    n = required_int(ctx, "N")
    k = required_int(ctx, "K")
    if not isinstance(ctx.attr("packed_type"), int):
        raise ctx.invalid("the attribute 'packed_type' is missing", "a packed-format ID", FIX_CONTRACT)
    a = not_scalar(ctx, 0, "A")
    eq_dims(ctx, a[-1], k, "contraction", 0, len(a) - 1, "the attribute K")
    b = shape_of_rank(ctx, 1, (2,), "B")
    eq_dims(ctx, b[0], n, "B rows", 1, 0, "the attribute N")
    ctx.set_output(0, (*a[:-1], n))


@register(MS, "GatherPacked")
def gather_packed(ctx: OpContext) -> None:
    """Embedding rows of a block-packed table ``data (vocab, row_bytes)``: the output is
    ``indices.shape + (K,)``. For the packed types the CPU kernel knows, ``row_bytes`` is
    ``K / block * block_bytes`` (a fact; ``K`` a whole number of blocks).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherPacked
    """
    k = required_int(ctx, "K")
    kind = ctx.attr("packed_type")
    if not isinstance(kind, int):
        raise ctx.invalid("the attribute 'packed_type' is missing", "a packed-format ID", FIX_CONTRACT)
    dtype = ctx.attr("output_dtype", 16)
    if dtype not in (1, 10, 16):
        raise ctx.invalid(f"output_dtype {dtype!r}", "1 (FLOAT), 10 (FLOAT16) or 16 (BFLOAT16)", FIX_CONTRACT)
    data = shape_of_rank(ctx, 0, (2,), "data")
    block = GGML_BLOCKS.get(kind)
    if block is not None:
        elems, size = block
        if k % elems:
            raise ctx.invalid(f"K {k} for packed_type {kind}", f"a multiple of its block size {elems}", FIX_CONTRACT)
        eq_dims(ctx, data[1], k // elems * size, "row_bytes", 0, 1, f"the row size of {k} packed elements")
    ctx.set_output(0, (*ctx.shape(1), k))
