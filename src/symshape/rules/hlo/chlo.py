"""CHLO's implicitly broadcasting binary ops (``chlo.broadcast_add`` and its family).

Unlike StableHLO, these broadcast their operands the numpy way: when the ranks differ, the
lower-rank operand's dims map to the result dims ``broadcast_dimensions`` names (by default the
trailing ones), its other result dims count as 1, and each result dim is the broadcast of the
two (`symshape.rules.shared.common.broadcast_dim`: a dim that may be 1 or 0 gives the exact
``Max*Min`` form, never a silent merge). Equal ranks broadcast axis by axis, as CHLO's own
type inference does (`getBroadcastType` in stablehlo's ChloOps.cpp).
https://github.com/openxla/stablehlo/blob/main/stablehlo/dialect/ChloOps.td
"""

from __future__ import annotations

from collections.abc import Callable

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.ir.dialects.hlo_ops import CHLO_BINARY as BINARY
from symshape.rules.registry import register
from symshape.rules.shared.arith import COMPARISON_DIRECTIONS, HLO_INT_OPS, IntOp, RuleDecisions
from symshape.rules.shared.common import broadcast_dim, broadcast_elements, broadcast_shapes
from symshape.rules.shared.mlir_common import check_declared, enum_word, ints, is_int_dtype


@register("chlo", *(f"broadcast_{name}" for name in BINARY), then=check_declared)
def broadcast_binary(ctx: OpContext) -> None:
    """Numpy broadcasting of the two operands, mapped by ``broadcast_dimensions`` when given;
    integer values are tracked where the dims are static and the mapping is the trailing one."""
    lhs, rhs = ctx.shape(0), ctx.shape(1)
    mapping = ints(ctx, "broadcast_dimensions")
    if len(lhs) == len(rhs) or mapping is None:
        shape = broadcast_shapes(ctx, [lhs, rhs])
    else:
        large, small = (lhs, rhs) if len(lhs) > len(rhs) else (rhs, lhs)
        shape = _mapped_broadcast(ctx, large, small, mapping)
    trailing = mapping is None or mapping == list(range(len(shape) - min(len(lhs), len(rhs)), len(shape)))
    op = _int_op(ctx)
    ctx.set_output(0, shape, _values(ctx, op) if op is not None and trailing else None)


@register("chlo", "broadcast_select", then=check_declared)
def broadcast_select(ctx: OpContext) -> None:
    """Numpy broadcasting of the predicate and both branches (no ``broadcast_dimensions``)."""
    shape = broadcast_shapes(ctx, [ctx.shape(i) for i in range(3)])

    def pick(c: Dim, a: Dim, b: Dim) -> Dim | None:
        return (a if c else b) if isinstance(c, int) else None

    values = broadcast_elements(ctx, [0, 1, 2], pick) if is_int_dtype(ctx.output_dtype(0)) else None
    ctx.set_output(0, shape, values)


def _mapped_broadcast(
    ctx: OpContext, large: tuple[Dim, ...], small: tuple[Dim, ...], mapping: list[int]
) -> tuple[Dim, ...]:
    """The lower-rank operand's dims placed at ``mapping`` in the higher-rank shape, broadcast."""
    in_range = all(0 <= m < len(large) for m in mapping)
    if len(mapping) != len(small) or len(set(mapping)) != len(mapping) or not in_range:
        raise ctx.invalid(
            f"broadcast_dimensions {mapping} for operands of ranks {len(large)} and {len(small)}",
            f"{len(small)} distinct result dims in [0, {len(large) - 1}] (one per lower-rank operand dim)",
        )
    out = list(large)
    for d, axis in zip(small, mapping, strict=True):
        out[axis] = broadcast_dim(ctx, [large[axis], d], axis)
    return tuple(ctx.canon(d) for d in out)


def _int_op(ctx: OpContext) -> IntOp | None:
    """What the op computes on integer values (``broadcast_compare`` by its direction; signed
    order only, as an unsigned comparison of negative values differs), or None."""
    name = ctx.op.op_type.removeprefix("broadcast_")
    if name != "compare":
        return HLO_INT_OPS.get(name) if is_int_dtype(ctx.output_dtype(0)) else None
    if not is_int_dtype(ctx.dtype(0)):
        return None
    direction = enum_word(ctx.attr("comparison_direction", ""))
    unsigned = enum_word(ctx.attr("compare_type", "")) == "UNSIGNED" and ctx.dtype(0) != "i1"
    return None if unsigned and direction not in ("EQ", "NE") else COMPARISON_DIRECTIONS.get(direction)


def _values(ctx: OpContext, op: IntOp) -> tuple[Dim, ...] | None:
    """``op`` over the operands' tracked values, numpy-broadcast."""
    decide = RuleDecisions(ctx)
    fn: Callable[[Dim, Dim], Dim | None] = lambda a, b: op(decide, a, b)  # noqa: E731
    got = broadcast_elements(ctx, [0, 1], fn)
    return None if got is None else tuple(ctx.canon(v) for v in got)
