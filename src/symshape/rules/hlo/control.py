"""StableHLO and MHLO control flow: ``while``, ``case`` and ``if``.

Regions run through `symshape.rules.shared.subgraph`: a loop body on a scratch graph until its
carried shapes settle, branches on scratch graphs merged where they provably agree.
https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from symshape.engine.context import GiveUp, OpContext
from symshape.errors import ContradictionError
from symshape.rules.hlo.table import hlo_rule
from symshape.rules.shared.loops import settle
from symshape.rules.shared.subgraph import (
    Tensor,
    adopt_guards,
    declared_fallback,
    keep_region,
    merge_branches,
    run_subgraph,
    take_branch,
)


@hlo_rule("while")
def while_op(ctx: OpContext) -> None:
    """The body may run any number of times, so it runs on a scratch graph (its facts hold only
    when it runs): a carried dim (or element vector) it provably maps to itself is kept, by
    induction; the others become fresh ``data`` symbols and the body runs again (`settle`).
    https://openxla.org/stablehlo/spec#while
    """
    body = ctx.op.subgraphs.get("body")
    if body is None:
        raise GiveUp("the loop body is not available")
    if not (len(body.inputs) == len(body.outputs) == ctx.num_inputs == ctx.num_outputs):
        raise ctx.invalid(
            f"the body's {len(body.inputs)} arguments and {len(body.outputs)} results "
            f"do not fit {ctx.num_inputs} operands and {ctx.num_outputs} results",
            "one body argument and one body result per operand",
        )
    carried: list[Tensor] = [(ctx.shape(i), ctx.elements(i)) for i in range(ctx.num_inputs)]
    res, final, excluded = settle(ctx, body, [], carried)
    keep_region(ctx, res)
    for i, (dims, els) in enumerate(final):
        ctx.set_output(i, dims, els)
    if not adopt_guards(ctx, res, excluded):  # the kept dims rest on the body's guards
        for i in range(ctx.num_outputs):
            declared_fallback(ctx, i, "the body made an assumption about its own symbols")


@hlo_rule("case", "if")
def case(ctx: OpContext) -> None:
    """The branch an index (``case``) or predicate (``if``) known as a constant selects runs on
    the main graph; otherwise each branch runs on a scratch graph (its facts hold only when it
    is taken) and a result dim is kept where all live branches provably agree, else it is a
    fresh ``data`` symbol. https://openxla.org/stablehlo/spec#case, https://openxla.org/stablehlo/spec#if
    """
    keys = sorted((k for k in ctx.op.subgraphs if k.startswith("branch")), key=lambda k: int(k[6:]))
    branches = [ctx.op.subgraphs[k] for k in keys]
    if not branches:
        raise GiveUp("the branches are not available")
    for k, sub in enumerate(branches):
        if len(sub.outputs) != ctx.num_outputs:
            raise ctx.invalid(
                f"branch #{k} returns {len(sub.outputs)} values", f"{ctx.num_outputs} values (one per result)"
            )
    taken = _taken_branch(ctx, len(branches))
    if taken is not None:
        take_branch(ctx, branches[taken], f"branch{taken}")
        return
    results = [run_subgraph(ctx, sub, f"branch{k}", (), scratch=True) for k, sub in enumerate(branches)]
    live = [k for k, r in enumerate(results) if not r.dead]
    for k in live:
        keep_region(ctx, results[k])
    if not live:
        raise ContradictionError(
            where=ctx.where(),
            found="no branch can run: " + "; ".join(r.dead for r in results),
            expected="at least one branch that can run",
            fix="check the ops each branch's contradiction names",
        )
    if len(live) == 1:  # the others are never taken
        take_branch(ctx, branches[live[0]], f"branch{live[0]}")
        return
    merge_branches(ctx, [results[k] for k in live])


def _taken_branch(ctx: OpContext, n: int) -> int | None:
    """The branch a constant selector picks: ``if`` takes branch 0 on true; ``case`` runs the
    last branch for an index out of range."""
    value = ctx.const_ints(0)
    if value is None or len(value) != 1:
        return None
    if ctx.op.op_type == "if":
        return 0 if value[0] else 1
    return value[0] if 0 <= value[0] < n else n - 1
