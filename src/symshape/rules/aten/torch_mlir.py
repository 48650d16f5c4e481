"""Rules for the two ops of torch-mlir's torch dialect that carry torch's own dims.

``torch.symbolic_int "s77" {min_val, max_val}`` is an input symbol (its range arrives as a fact
from the frontend, `symshape.frontends.mlir.torch_reader`); ``torch.bind_symbolic_shape %x, [%s0, %s1],
affine_map<()[s0, s1] -> (s0 + s1, 8)>`` states what torch's ShapeEnv proved of ``%x``'s dims,
taken as facts (an equation per dim; one that contradicts the rules' dims is reported as a
contradiction, never merged silently).
https://github.com/llvm/torch-mlir/blob/main/include/torch-mlir/Dialect/Torch/IR/TorchOps.td
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import GiveUp, OpContext
from symshape.ir.torch_affine import affine_dim
from symshape.rules.registry import register

TORCH = "torch"


@register(TORCH, "symbolic_int")
def symbolic_int(ctx: OpContext) -> None:
    """The value is the input symbol torch named.

    https://github.com/llvm/torch-mlir/blob/main/include/torch-mlir/Dialect/Torch/IR/TorchOps.td
    """
    label = ctx.attr("symbol", ctx.attr("symbol_name"))
    if not isinstance(label, str) or not label.isidentifier():
        raise GiveUp(f"the symbol name {label!r} is not an identifier")
    ctx.set_output(0, (), (ctx.input_symbol(label, "torch.symbolic_int"),))


@register(TORCH, "bind_symbolic_shape")
def bind_symbolic_shape(ctx: OpContext) -> None:
    """Dim ``k`` of input 0 equals expression ``k`` of the map over the symbol inputs.

    https://github.com/llvm/torch-mlir/blob/main/include/torch-mlir/Dialect/Torch/IR/TorchOps.td
    """
    shape = ctx.shape(0)
    symbols: list[Dim] = []
    for i in range(1, ctx.num_inputs):
        els = ctx.elements(i)
        if els is None or len(els) != 1:
            raise GiveUp(f"symbol operand {i} has no known value")
        symbols.append(els[0])
    trees = list(ctx.attr("shape") or [])
    if not trees and shape:
        raise GiveUp("its affine map was not read (only torch-mlir's own types are)")
    if len(trees) != len(shape):
        raise GiveUp(f"the map has {len(trees)} results for a rank-{len(shape)} tensor")
    for axis, (d, tree) in enumerate(zip(shape, trees, strict=True)):
        e = affine_dim(tree, symbols)
        if e is not None:
            ctx.eq(d, ctx.canon(e), "torch.bind_symbolic_shape", (ctx.dim_name(0, axis), "the dim torch bound"))
