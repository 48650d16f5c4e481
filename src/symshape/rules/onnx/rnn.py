"""Recurrent layers: RNN, GRU, LSTM.

``X`` is ``(seq, batch, input)`` (``layout=1``: ``(batch, seq, input)``); ``W`` is ``(dirs,
gates*hidden, input)`` and ``R`` ``(dirs, gates*hidden, hidden)`` with 1, 3 or 4 gates. The
outputs are ``Y (seq, dirs, batch, hidden)`` (``layout=1``: ``(batch, seq, dirs, hidden)``) and
``Y_h``/``Y_c (dirs, batch, hidden)`` (``layout=1``: ``(batch, dirs, hidden)``). What the kernels
check of the weights and states is a fact.
https://onnx.ai/onnx/operators/onnx__LSTM.html
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import eq_dims, eq_shape, shape_of_rank
from symshape.rules.registry import ONNX, register

GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


@register(ONNX, "RNN", "GRU", "LSTM")
def recurrent(ctx: OpContext) -> None:
    """Sizes from X and the weights; ``hidden_size`` (the attribute, else R's last dim).

    https://onnx.ai/onnx/operators/onnx__RNN.html
    https://onnx.ai/onnx/operators/onnx__GRU.html
    https://onnx.ai/onnx/operators/onnx__LSTM.html
    """
    gates = GATES[ctx.op.op_type]
    batch_first = bool(ctx.attr("layout", 0))
    x = shape_of_rank(ctx, 0, (3,), "X")
    seq, batch = (x[1], x[0]) if batch_first else (x[0], x[1])
    dirs = 2 if ctx.attr("direction", "forward") == "bidirectional" else 1
    r = shape_of_rank(ctx, 2, (3,), "R")
    attr = ctx.attr("hidden_size")
    hidden: Dim = attr if isinstance(attr, int) else r[2]
    eq_shape(ctx, 1, (dirs, mul(gates, hidden), x[2]), "weights", "W", "(dirs, gates*hidden, input)")
    eq_shape(ctx, 2, (dirs, mul(gates, hidden), hidden), "weights", "R", "(dirs, gates*hidden, hidden)")
    if ctx.has_input(3):
        eq_shape(ctx, 3, (dirs, mul(2 * gates, hidden)), "bias", "B", "(dirs, 2*gates*hidden)")
    if ctx.has_input(4):
        eq_dims(ctx, shape_of_rank(ctx, 4, (1,), "sequence_lens")[0], batch, "sequence_lens", 4, 0, "the batch")
    state = (batch, dirs, hidden) if batch_first else (dirs, batch, hidden)
    for i in (5, 6) if gates == 4 else (5,):
        if ctx.has_input(i):
            eq_shape(ctx, i, state, "initial state", ctx.op.inputs[i], "(dirs, batch, hidden)")
    if gates == 4 and ctx.has_input(7):
        eq_shape(ctx, 7, (dirs, mul(3, hidden)), "peepholes", "P", "(dirs, 3*hidden)")
    ctx.set_output(0, (batch, seq, dirs, hidden) if batch_first else (seq, dirs, batch, hidden))
    ctx.set_output(1, state)
    if gates == 4:
        ctx.set_output(2, state)
