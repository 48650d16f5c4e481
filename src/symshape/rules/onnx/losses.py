"""Losses: SoftmaxCrossEntropyLoss and NegativeLogLikelihoodLoss.

Scores ``(N, C, d1, ..., dk)`` and labels ``(N, d1, ..., dk)``: the loss is a scalar for
``reduction`` ``mean`` (the default) or ``sum``, and ``(N, d1, ..., dk)`` for ``none``. The
labels' dims equal the scores' but C (a fact), and so does an optional weight ``(C)``.
https://onnx.ai/onnx/operators/onnx__SoftmaxCrossEntropyLoss.html
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.rules.onnx_contrib.layers import eq_dims, eq_shape
from symshape.rules.registry import ONNX, register


def _loss_shape(ctx: OpContext) -> tuple[Dim, ...]:
    """The loss's shape, after the labels' and weight's facts."""
    scores = ctx.shape(0)
    labels = ctx.shape(1)
    if len(scores) < 2 or len(labels) != len(scores) - 1:
        raise ctx.invalid(
            f"scores of rank {len(scores)} and labels of rank {len(labels)}",
            "scores (N, C, d1, ..., dk) and labels (N, d1, ..., dk)",
            "check the shapes of the loss's inputs",
        )
    rest = (scores[0], *scores[2:])
    for axis, (got, want) in enumerate(zip(labels, rest, strict=True)):
        eq_dims(ctx, got, want, "labels shape", 1, axis, f"dim {axis if axis == 0 else axis + 1} of the scores")
    if ctx.has_input(2):
        eq_shape(ctx, 2, (scores[1],), "weight shape", "weight", "the classes (C)")
    return rest if ctx.attr("reduction", "mean") == "none" else ()


@register(ONNX, "SoftmaxCrossEntropyLoss")
def softmax_cross_entropy_loss(ctx: OpContext) -> None:
    """The loss, and ``log_prob`` with the scores' shape.

    https://onnx.ai/onnx/operators/onnx__SoftmaxCrossEntropyLoss.html
    """
    ctx.set_output(0, _loss_shape(ctx))
    ctx.set_output(1, ctx.shape(0))


@register(ONNX, "NegativeLogLikelihoodLoss")
def negative_log_likelihood_loss(ctx: OpContext) -> None:
    """https://onnx.ai/onnx/operators/onnx__NegativeLogLikelihoodLoss.html"""
    ctx.set_output(0, _loss_shape(ctx))
