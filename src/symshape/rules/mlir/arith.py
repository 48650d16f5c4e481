"""The ``arith`` dialect on index and integer scalars, tracked as values.

Shape computations are scalarized: ``tensor.dim``/``shape.shape_of`` make dims into values,
``arith`` computes on them through the shared table of integer operations
(`symshape.rules.shared.arith`, where ``divsi`` truncates and ``floordivsi`` floors), and
``tensor.from_elements`` packs them into a shape tensor, so a ``dynamic_reshape`` or
``real_dynamic_slice`` sees exact expressions (seed 000 stage one).
https://mlir.llvm.org/docs/Dialects/ArithOps/
"""

from __future__ import annotations

from symshape.engine.context import OpContext
from symshape.rules.registry import register
from symshape.rules.shared.arith import ARITH_INT_OPS, CMPI_PREDICATES, binary_elements, compare_elements
from symshape.rules.shared.idioms import alias, decided_select, folded_select, record
from symshape.rules.shared.mlir_common import (
    assume_at_least,
    check_declared,
    declared_dims,
    is_int_dtype,
    same_shapes,
)

# What an integer op computes, for the idioms of `symshape.rules.shared.idioms`.
_MEANINGS = {"addi": "add", "subi": "sub", "muli": "mul", "divsi": "trunc_div", "remsi": "rem", "andi": "and"}
_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")  # arith::CmpIPredicate 0..5


@register(("arith",), "constant", then=check_declared)
def arith_constant(ctx: OpContext) -> None:
    """An integer scalar or a dense tensor. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithconstant-arithconstantop"""
    value = ctx.attr("value")
    if isinstance(value, bool | int):
        ctx.set_output(0, (), (int(value),))
    elif hasattr(value, "dims"):
        ctx.set_output(0, value.dims, value.values)
    else:
        ctx.set_output(0, declared_dims(ctx))


_UNTRACKED_BINARY = (
    "addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf", "remf", "shli", "shrsi",
    "shrui", "cmpf",
)


@register(("arith",), *ARITH_INT_OPS, *_UNTRACKED_BINARY, then=check_declared)
def arith_binary(ctx: OpContext) -> None:
    """Same-shape operands (a fact); integer results are tracked symbolically.

    https://mlir.llvm.org/docs/Dialects/ArithOps/
    """
    shape = same_shapes(ctx, [0, 1], "arith operands")
    op = ARITH_INT_OPS.get(ctx.op.op_type)
    if ctx.op.op_type in _DIVISIONS:
        _nonzero_divisor(ctx)
    ctx.set_output(0, shape, binary_elements(ctx, op) if op is not None else None)
    if ctx.op.op_type in _MEANINGS:
        record(ctx, _MEANINGS[ctx.op.op_type], (0, 1))


_DIVISIONS = ("divsi", "divui", "floordivsi", "ceildivsi", "ceildivui", "remsi", "remui")


def _nonzero_divisor(ctx: OpContext) -> None:
    """A division by zero is undefined behaviour in ``arith``, so a divisor proven ``>= 0``
    is ``>= 1`` whenever the program runs: a fact (``n / d`` then has a value, not an unknown)."""
    for d in ctx.elements(1) or ():
        if not isinstance(d, int) and ctx.facts.prove_ge(d, 0) and not ctx.facts.prove_ge(d, 1):
            assume_at_least(ctx, d, 1, f"the divisor of arith.{ctx.op.op_type} is non-zero")


_CASTS = (
    "index_cast",
    "index_castui",
    "extsi",
    "extui",
    "trunci",
    "bitcast",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "extf",
    "truncf",
    "negf",
)


@register(("arith",), *_CASTS, then=check_declared)
def arith_cast(ctx: OpContext) -> None:
    """Same shape; integer values pass through. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithindex_cast-arithindexcastop"""
    keep = is_int_dtype(ctx.output_dtype(0)) and is_int_dtype(ctx.dtype(0))
    ctx.set_output(0, ctx.shape(0), ctx.elements(0) if keep else None)
    if keep and ctx.op.op_type in ("index_cast", "extsi"):  # sign-preserving: the same value
        alias(ctx, ctx.op.outputs[0], ctx.op.inputs[0])


@register(("arith",), "cmpi", then=check_declared)
def cmpi(ctx: OpContext) -> None:
    """A decided comparison is a known ``i1``; the unsigned predicates agree with the signed
    ones on values proven ``>= 0``. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithcmpi-arithcmpiop
    """
    shape = same_shapes(ctx, [0, 1], "cmpi operands")
    predicate = int(ctx.attr("predicate", -1))
    op = CMPI_PREDICATES.get(predicate)
    ctx.set_output(0, shape, None if op is None else compare_elements(ctx, op))
    if 0 <= predicate < len(_PREDICATES):
        record(ctx, _PREDICATES[predicate], (0, 1))


@register(("arith",), "select", then=check_declared)
def arith_select(ctx: OpContext) -> None:
    """Branches share a shape (a fact); a known condition picks its branch, whatever the other
    is. https://mlir.llvm.org/docs/Dialects/ArithOps/#arithselect-arithselectop"""
    shape = same_shapes(ctx, [1, 2], "select branches")
    out = decided_select(ctx.elements(0), ctx.elements(1), ctx.elements(2))
    if out is None and is_int_dtype(ctx.output_dtype(0)):
        folded = folded_select(ctx, *ctx.op.inputs[:3])
        out = None if folded is None else (folded,)
    ctx.set_output(0, shape, out)
