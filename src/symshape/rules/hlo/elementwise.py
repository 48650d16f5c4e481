"""StableHLO and MHLO elementwise ops: unary and binary arithmetic, compare, select, clamp.

HLO never broadcasts implicitly: the operands of an elementwise op have the result's shape
(``SameOperandsAndResultShape``), which is a fact. Integer values (shape tensors, the scalars
``get_dimension_size`` makes) are computed through the shared table of integer operations
(`symshape.rules.shared.arith`), so a ``divide`` truncates as the spec says.
https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

import re

from symshape.algebra.expr import Dim, smax, smin
from symshape.engine.context import OpContext
from symshape.rules.hlo.float_sizes import float_sizes
from symshape.rules.hlo.table import hlo_family, hlo_rule
from symshape.rules.shared.arith import (
    COMPARISON_DIRECTIONS,
    HLO_INT_OPS,
    HLO_UNARY_INT_OPS,
    RuleDecisions,
    binary_elements,
    compare_elements,
)
from symshape.rules.shared.idioms import alias, decided_select, folded_select, record
from symshape.rules.shared.mlir_common import enum_word, is_int_dtype, same_shapes

# What an integer op computes, for the idioms of `symshape.rules.shared.idioms`.
_MEANINGS = {"sign": "sign", "negate": "neg", "add": "add", "subtract": "sub", "multiply": "mul",
             "divide": "trunc_div", "remainder": "rem", "and": "and"}


@hlo_rule(*(m for m in hlo_family("unary") if m != "bitcast_convert"))
def unary(ctx: OpContext) -> None:
    """The result has the operand's shape; integer values pass through convert/negate/abs/sign/not.

    https://openxla.org/stablehlo/spec#convert (and the other unary elementwise ops)
    """
    els = ctx.elements(0)
    ok = els is not None and is_int_dtype(ctx.output_dtype(0))
    ctx.set_output(0, ctx.shape(0), _unary_elements(ctx, els) if els is not None and ok else float_sizes(ctx))
    _record(ctx, 1)


def _unary_elements(ctx: OpContext, els: tuple[Dim, ...]) -> tuple[Dim, ...] | None:
    """The integer values of a unary op's result (``not`` only on known ``i1`` values)."""
    op_type = ctx.op.op_type
    mapped: list[Dim | None]
    if op_type == "not":
        boolean = ctx.output_dtype(0) == "i1"
        mapped = [1 - e if boolean and isinstance(e, int) and e in (0, 1) else None for e in els]
    else:
        fn = HLO_UNARY_INT_OPS.get(op_type)
        if fn is None:
            return None
        decide = RuleDecisions(ctx)
        mapped = [fn(decide, e) for e in els]
    return None if any(m is None for m in mapped) else tuple(ctx.canon(m) for m in mapped if m is not None)


@hlo_rule(*hlo_family("binary"))
def binary(ctx: OpContext) -> None:
    """Both operands and the result have one shape (a fact); integer arithmetic is tracked.

    https://openxla.org/stablehlo/spec#add
    """
    shape = same_shapes(ctx, [0, 1], "elementwise operands")
    op = HLO_INT_OPS.get(ctx.op.op_type)
    values = binary_elements(ctx, op, partial=True) if op is not None else None
    if values is None and ctx.op.op_type in ("and", "or"):
        values = _absorbed(ctx)
    if values is None:
        float_sizes(ctx)
    ctx.set_output(0, shape, values)
    _record(ctx, 2)


def _record(ctx: OpContext, arity: int) -> None:
    """Remember how an integer scalar was computed (a cast is the same value)."""
    op_type = ctx.op.op_type
    if op_type == "convert" and is_int_dtype(ctx.output_dtype(0)) and is_int_dtype(ctx.dtype(0)):
        alias(ctx, ctx.op.outputs[0], ctx.op.inputs[0])
    elif op_type in _MEANINGS:
        record(ctx, _MEANINGS[op_type], range(arity))


def _absorbed(ctx: OpContext) -> tuple[Dim, ...] | None:
    """``and`` with all-zero or (``i1``) ``or`` with all-one values on one side, the other unknown."""
    absorbing = 0 if ctx.op.op_type == "and" else 1
    if absorbing == 1 and ctx.output_dtype(0) != "i1":
        return None
    for i in (0, 1):
        els = ctx.elements(i)
        if els is not None and all(isinstance(e, int) and e == absorbing for e in els):
            return els
    return None


@hlo_rule("bitcast_convert")
def bitcast_convert(ctx: OpContext) -> None:
    """Same shape between element types of one bit width; from a wider type, a trailing dim of
    ``wide / narrow`` elements is added (``tensor<?xf32> -> tensor<?x4xi8>``); to a wider type,
    the operand's trailing dim must be that ratio (a fact) and is dropped.

    https://openxla.org/stablehlo/spec#bitcast_convert
    """
    shape = ctx.shape(0)
    src, dst = _bit_width(ctx.dtype(0)), _bit_width(ctx.output_dtype(0))
    if src is None or dst is None or src == dst:
        ctx.set_output(0, shape)
        return
    if src > dst:
        ctx.set_output(0, (*shape, src // dst))
        return
    if not shape:
        raise ctx.invalid(
            f"a rank-0 {ctx.dtype(0)} operand converted to the wider {ctx.output_dtype(0)}",
            f"an operand whose last dim holds the {dst // src} narrow elements of each wide one",
        )
    ctx.eq(shape[-1], dst // src, "bitcast_convert", ("the operand's last dim", "the ratio of the bit widths"))
    ctx.set_output(0, shape[:-1])


_WIDTH = re.compile(r"(?:[su]?i|f|bf)(\d+)|f(\d)E\w+")


def _bit_width(dtype: str | None) -> int | None:
    """Bits per element of an integer, float or complex type (None for ``i1``, ``index`` and
    others whose storage the spec leaves to the implementation)."""
    if dtype is None:
        return None
    if dtype.startswith("complex<") and dtype.endswith(">"):
        inner = _bit_width(dtype[8:-1])
        return None if inner is None else 2 * inner
    m = _WIDTH.fullmatch(dtype)
    if m is None or dtype in ("i1", "tf32"):
        return None
    return int(m.group(1) or m.group(2))


@hlo_rule("compare")
def compare_op(ctx: OpContext) -> None:
    """Same-shape operands; the ``i1`` result is known where the comparison is decided.

    https://openxla.org/stablehlo/spec#compare
    """
    shape = same_shapes(ctx, [0, 1], "compare operands")
    direction = enum_word(ctx.attr("comparison_direction", ""))
    op = COMPARISON_DIRECTIONS.get(direction)
    ctx.set_output(0, shape, None if op is None else compare_elements(ctx, op))
    unsigned = enum_word(ctx.attr("compare_type", "")) == "UNSIGNED" and ctx.dtype(0) != "i1"
    if op is not None and not (unsigned and direction not in ("EQ", "NE")):
        record(ctx, direction.lower(), (0, 1))


@hlo_rule("select")
def select(ctx: OpContext) -> None:
    """``pred`` is a scalar or has the result's shape; both branches have it (facts).

    https://openxla.org/stablehlo/spec#select
    """
    shape = same_shapes(ctx, [1, 2], "select branches")
    pred = ctx.shape(0)
    if pred:
        same_shapes(ctx, [1, 0], "select predicate")
    out = decided_select(ctx.elements(0), ctx.elements(1), ctx.elements(2))
    if out is None and is_int_dtype(ctx.output_dtype(0)):
        folded = folded_select(ctx, *ctx.op.inputs[:3])
        out = None if folded is None else (folded,)
    ctx.set_output(0, shape, out)


@hlo_rule("clamp")
def clamp(ctx: OpContext) -> None:
    """``min`` and ``max`` are scalars or have the operand's shape (facts).

    https://openxla.org/stablehlo/spec#clamp
    """
    shape = ctx.shape(1)
    for i in (0, 2):
        if ctx.shape(i):
            same_shapes(ctx, [1, i], "clamp bound")
    lo, x, hi = ctx.elements(0), ctx.elements(1), ctx.elements(2)
    out = None
    if lo is not None and x is not None and hi is not None and {len(lo), len(hi)} <= {1, len(x)}:
        def bound(b: tuple[Dim, ...], i: int) -> Dim:  # a scalar bound or the i-th element
            return b[0] if len(b) == 1 else b[i]

        out = tuple(ctx.canon(smin(smax(e, bound(lo, i)), bound(hi, i))) for i, e in enumerate(x))
    ctx.set_output(0, shape, out)
