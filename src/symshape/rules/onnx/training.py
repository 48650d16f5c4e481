"""The ai.onnx.preview.training domain: optimizers and Gradient.

The optimizers take ``R, T`` then n tensors of each kind (X, G, and one or two states) and give
the new X and states: each output has the shape of its X or state input. Gradient's i-th output
has the shape of its i-th input (the ``xs`` it differentiates for).
https://onnx.ai/onnx/operators/onnx_aionnxpreviewtraining_Adam.html
"""

from __future__ import annotations

from symshape.engine.context import OpContext
from symshape.rules.registry import register

TRAINING = "ai.onnx.preview.training"
KINDS = {"Adagrad": 3, "Momentum": 3, "Adam": 4}  # X, G, then the states


@register(TRAINING, "Adagrad", "Momentum", "Adam")
def optimizer(ctx: OpContext) -> None:
    """Outputs: the new X_1..X_n, then the new states, each shaped as its input.

    https://onnx.ai/onnx/operators/onnx_aionnxpreviewtraining_Adagrad.html
    https://onnx.ai/onnx/operators/onnx_aionnxpreviewtraining_Momentum.html
    https://onnx.ai/onnx/operators/onnx_aionnxpreviewtraining_Adam.html
    """
    kinds = KINDS[ctx.op.op_type]
    tensors = ctx.num_inputs - 2
    if tensors <= 0 or tensors % kinds:
        raise ctx.invalid(
            f"{tensors} tensor inputs after R and T",
            f"a multiple of {kinds} (X, G and the states of each tensor)",
            "check the optimizer's inputs",
        )
    n = tensors // kinds
    updated = [2 + i for i in range(n)] + [2 + 2 * n + i for i in range(tensors - 2 * n)]
    for out, i in enumerate(updated):
        ctx.set_output(out, ctx.shape(i))


@register(TRAINING, "Gradient")
def gradient(ctx: OpContext) -> None:
    """dY/dX_i has the shape of X_i, the i-th input.

    https://onnx.ai/onnx/operators/onnx_aionnxpreviewtraining_Gradient.html
    """
    for i in range(min(ctx.num_outputs, ctx.num_inputs)):
        ctx.set_output(i, ctx.shape(i))
