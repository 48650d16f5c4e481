"""Scan at opset 8: batched, with an optional ``sequence_lens`` first input.

Every input carries a batch axis first; the scan inputs are ``(batch, seq, ...)`` and are sliced
along axis 1. The body sees one batch entry: the states without their batch axis and one slice
of each scan input. The node's final states are ``(batch, ...state)`` and its scan outputs
``(batch, seq, ...element)``. The batch and sequence lengths shared by the inputs are facts.
Opset 9 replaced this form (see `symshape.rules.onnx.control_flow`).
https://onnx.ai/onnx/operators/onnx__Scan.html#scan-8
"""

from __future__ import annotations

from dataclasses import replace

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.loops import rank_only, settle_stepped
from symshape.rules.shared.subgraph import Tensor, declared_fallback, subgraph_of


def _batched(ctx: OpContext, i: int, rank: int, what: str) -> tuple[Dim, ...]:
    """Input ``i``'s dims, at least ``rank`` of them (a batch axis, and a sequence axis)."""
    dims = ctx.shape(i)
    if len(dims) < rank:
        raise ctx.invalid(
            f"{what} '{ctx.op.inputs[i]}' has rank {len(dims)}",
            f"rank >= {rank}: a batch axis first" + (", then the sequence axis" if rank > 1 else ""),
        )
    return dims


def _inputs(ctx: OpContext, n: int, m: int) -> tuple[Dim, Dim, list[Tensor], list[Tensor]]:
    """Batch, sequence length, the states and the slices the body sees; the shared batch and
    length are facts."""
    scans = [_batched(ctx, 1 + n + k, 2, "scan input") for k in range(m)]
    batch, length = scans[0][0], scans[0][1]
    for k, dims in enumerate(scans[1:], start=1):
        ctx.eq(dims[0], batch, "scan batch", (ctx.dim_name(1 + n + k, 0), ctx.dim_name(1 + n, 0)))
        ctx.eq(dims[1], length, "scan lengths", (ctx.dim_name(1 + n + k, 1), ctx.dim_name(1 + n, 1)))
    states: list[Tensor] = []
    for j in range(n):
        dims = _batched(ctx, 1 + j, 1, "initial state")
        ctx.eq(dims[0], batch, "scan batch", (ctx.dim_name(1 + j, 0), ctx.dim_name(1 + n, 0)))
        states.append((dims[1:], None))
    if ctx.has_input(0):
        lens = ctx.shape(0)
        if len(lens) == 1:
            ctx.eq(lens[0], batch, "sequence_lens", (ctx.dim_name(0, 0), ctx.dim_name(1 + n, 0)))
    slices: list[Tensor] = [(dims[2:], None) for dims in scans]
    return batch, length, states, slices


@register(ONNX, "Scan", since=8, until=8)
def scan8(ctx: OpContext) -> None:
    """Final states and scan outputs of the batched Scan-8 from one run of its body (to a fixpoint
    of the states' dims).

    https://onnx.ai/onnx/operators/onnx__Scan.html#scan-8
    """
    body = subgraph_of(ctx, "body")
    m = int(ctx.attr("num_scan_inputs", 0))
    n = ctx.num_inputs - 1 - m
    if m < 1 or n < 0 or len(body.inputs) != n + m or len(body.outputs) != ctx.num_outputs:
        raise ctx.invalid(
            f"num_scan_inputs {m}, {ctx.num_inputs} inputs and a body of {len(body.inputs)} inputs",
            "sequence_lens, then the states and num_scan_inputs scan inputs, as many as the body takes",
        )
    batch, length, states, slices = _inputs(ctx, n, m)
    reordered = replace(body, inputs=body.inputs[n:] + body.inputs[:n])
    run = settle_stepped(ctx, reordered, slices, states)
    for j, (dims, _) in enumerate(run.final(ctx, length)):
        ctx.set_output(j, (batch, *dims))
    for k in range(ctx.num_outputs - n):
        scanned = run.scan_output(ctx, n + k, f"scan{k}")
        if scanned is None:
            declared_fallback(ctx, n + k, f"the shape of body scan output #{k} is unknown")
            continue
        ctx.set_output(n + k, (batch, length, *scanned[0]))
    if ctx.num_outputs and not run.adopt_guards(ctx):
        for i in range(ctx.num_outputs):
            rank_only(ctx, i, (batch, length) if i >= n else (batch,))
