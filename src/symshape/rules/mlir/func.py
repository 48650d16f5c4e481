"""The ``func`` dialect: scalar arguments, inlined calls and called functions.

``func.arg`` and ``func.bind`` are not MLIR ops: the frontend (`symshape.frontends.mlir.frontend`) emits
them for an integer scalar argument and for the values an inlined call passes in and out.
https://mlir.llvm.org/docs/Dialects/Func/
"""

from __future__ import annotations

from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import register
from symshape.rules.shared.idioms import alias
from symshape.rules.shared.mlir_common import check_declared


@register(("func",), "arg", then=check_declared)
def func_arg(ctx: OpContext) -> None:
    """An integer scalar argument's value is a symbol named after it (``jax.global_constant``).

    https://mlir.llvm.org/docs/Dialects/Func/
    """
    label = str(ctx.attr("symbol"))
    lo = 1 if ctx.attr("dim_variable") else None  # jax checks its dimension variables are >= 1
    value = ctx.input_symbol(label, "scalar argument", lo=lo)
    ctx.set_output(0, (), (value,))


@register(("func",), "bind", then=check_declared)
def func_bind(ctx: OpContext) -> None:
    """An inlined call passes a value to a callee argument, or a returned value back.

    https://mlir.llvm.org/docs/Dialects/Func/#funccall-funccallop
    """
    ctx.set_output(0, ctx.shape(0), ctx.elements(0))
    alias(ctx, ctx.op.outputs[0], ctx.op.inputs[0])


@register(("func",), "call", then=check_declared)
def func_call(ctx: OpContext) -> None:
    """Run the callee's ops (a copy per call site) on the operands' shapes and values.

    https://mlir.llvm.org/docs/Dialects/Func/#funccall-funccallop
    """
    body = ctx.op.subgraphs.get("body")
    if body is None or not body.ops and not body.outputs:
        raise GiveUp(f"the callee @{ctx.attr('callee')} has no body here")
    for i, name in enumerate(body.inputs):
        ctx.bind(name, ctx.shape(i), ctx.elements(i))
        alias(ctx, name, ctx.op.inputs[i])
    ctx.run_ops(body, body.ops)
    for i, name in enumerate(body.outputs):
        shape, els = ctx.value(name)
        if shape is None:
            raise GiveUp(f"result #{i} of @{ctx.attr('callee')} is unknown")
        ctx.set_output(i, shape, els)
        alias(ctx, ctx.op.outputs[i], name)
