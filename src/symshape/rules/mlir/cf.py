"""``cf.assert``: the asserting form of a shape check (seed 003), as hand-written code and MLIR's
own lowering of ``shape.cstr_*`` print it.

The program stops when the condition is false, so every run that returns has it: the comparison
that made the condition (``d % 2 == 0``, ``d <= 128``, ``a == b``; attached by the frontend,
`symshape.frontends.mlir.program_builder`) is a fact, like the validity facts of the ops.

Facts hold for the whole function, not only after the assert. That is sound for what symshape
claims: a dim or a guard is a statement about the runs that return, and the asserts of a
function's entry block run on every one of them (an assert in a branch or a loop body is analyzed
on a scratch graph, `symshape.rules.shared.subgraph`, so it stays local). A value computed before
the assert may then be simplified with the fact: on every run that returns, it is that value.
https://mlir.llvm.org/docs/Dialects/ControlFlowDialect/#cfassert-cfassertop
"""

from __future__ import annotations

from symshape.engine.context import OpContext
from symshape.errors import FIX_MODEL, ContradictionError
from symshape.rules.registry import register
from symshape.rules.shared.mlir_common import assert_condition


@register(("cf",), "assert")
def cf_assert(ctx: OpContext) -> None:
    """The asserted comparison is a fact; an assertion that always fails is a contradiction.

    https://mlir.llvm.org/docs/Dialects/ControlFlowDialect/#cfassert-cfassertop
    """
    message = str(ctx.attr("msg", ""))
    cond = ctx.elements(0)
    if cond is not None and len(cond) == 1 and cond[0] == 0:
        raise ContradictionError(
            where=ctx.where(),
            found=f"the assertion always fails: {message}",
            expected="a condition that can hold",
            fix=FIX_MODEL,
        )
    assert_condition(ctx, message)
