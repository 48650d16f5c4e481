"""Rules for symshape's own constraint ops when they sit in a data function (seed 000).

``symshape.tie_shape %t, %d0, %d1`` says the dims of ``%t`` are ``%d0, %d1``; the predicate ops
say what their names say. The IR states them, so they are facts (``ctx.eq``,
``assume_range``, ``assume_divisible``); an op with the unit attribute ``guard`` is an
assumption someone else made and is left alone. The ``shape-optimization`` pass writes these
ops while it loads the constraint IR of intermediate values, and removes them afterwards.
Spec: ``src/symshape/ir/dialects/constraint.py``.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul, product
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import register

SYMSHAPE = "symshape"


def _scalar(ctx: OpContext, i: int) -> Dim:
    els = ctx.require_elements(i)
    if len(els) != 1:
        raise GiveUp(f"operand #{i} is not a scalar")
    return els[0]


@register(SYMSHAPE, "tie_shape")
def tie_shape(ctx: OpContext) -> None:
    """The result is the operand; each dim equals the index operand given for it."""
    dims = ctx.shape(0)
    for axis, d in enumerate(dims):
        if ctx.has_input(axis + 1):
            value = ctx.elements(axis + 1)
            if value is not None and len(value) == 1:
                ctx.eq(d, value[0], "tie_shape", (ctx.dim_name(0, axis), f"the tied value #{axis + 1}"))
    ctx.set_output(0, dims, ctx.elements(0))


@register(SYMSHAPE, "tie_predicate_eq", "tie_predicate_ne", "tie_predicate_lt", "tie_predicate_le")
@register(SYMSHAPE, "tie_predicate_divisible")
def tie_predicate(ctx: OpContext) -> None:
    """``lhs == rhs``, ``lhs < rhs``, ``lhs <= rhs``, ``lhs % rhs == 0`` (a constant ``rhs``);
    ``lhs != rhs`` has no place in the graph and is only checked at run time."""
    if ctx.attr("guard") is not None or ctx.op.op_type == "tie_predicate_ne":
        return
    lhs, rhs = _scalar(ctx, 0), _scalar(ctx, 1)
    kind = ctx.op.op_type.removeprefix("tie_predicate_")
    if kind == "eq":
        ctx.eq(lhs, rhs, "tie_predicate_eq")
    elif kind in ("lt", "le"):
        diff = ctx.canon(add(rhs, mul(lhs, -1)))
        low = 1 if kind == "lt" else 0
        if not ctx.facts.prove_ge(diff, low):
            ctx.assume_range(diff, low, None, f"tie_predicate_{kind}")
    elif isinstance(rhs, int) and rhs > 0:
        ctx.assume_divisible(lhs, rhs, "tie_predicate_divisible")


@register(SYMSHAPE, "tie_predicate_mul_eq")
def tie_predicate_mul_eq(ctx: OpContext) -> None:
    """``lhs == product(factors)``."""
    if ctx.attr("guard") is None:
        factors = [_scalar(ctx, i) for i in range(1, ctx.num_inputs)]
        ctx.eq(_scalar(ctx, 0), product(factors), "tie_predicate_mul_eq")


@register(SYMSHAPE, "tie_predicate_group_mul_eq")
def tie_predicate_group_mul_eq(ctx: OpContext) -> None:
    """``product(lhs group) == product(rhs group)`` (group sizes in ``operandSegmentSizes``)."""
    sizes: list[int] | None = ctx.attr("operandSegmentSizes")
    if ctx.attr("guard") is not None or not isinstance(sizes, list) or len(sizes) != 2:
        return
    values = [_scalar(ctx, i) for i in range(ctx.num_inputs)]
    split = int(sizes[0])
    ctx.eq(product(values[:split]), product(values[split:]), "tie_predicate_group_mul_eq")
