"""Integer arithmetic on tracked shape values: one table of operations by meaning, and the names
each dialect gives them (ONNX ``Div``, StableHLO ``divide`` and arith ``divsi`` all truncate).

An operation takes the decisions (`Decide`) and two dims and returns the exact result, or None
when the result cannot be written exactly under what is proven: an undecided value is None,
never a guess. Division and remainder come in the C flavours (``trunc_div`` toward zero,
``rem`` with the dividend's sign) and the floor ones (``floor_div``, ``mod`` with the divisor's
sign, as in Python); comparisons give 1 or 0. ``tests/rules/shared/test_arith.py`` checks every entry
against plain Python integers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from symshape.algebra.expr import Dim, Expr, add, ceildiv, expand_mod, floordiv, mod, mul, smax, smin
from symshape.algebra.piecewise import trunc_div as piecewise_trunc_div
from symshape.algebra.piecewise import trunc_rem
from symshape.engine.context import OpContext
from symshape.engine.nonneg import prove_nonneg
from symshape.rules.shared.mlir_common import elements_or_unknowns, is_int_dtype


class Decide(Protocol):
    """The decisions an operation needs (`symshape.engine.facts.Facts` has them)."""

    def prove_ge(self, d: Dim, k: int = 0) -> bool:
        """Whether ``d >= k`` is proven."""
        ...

    def prove_le(self, d: Dim, k: int) -> bool:
        """Whether ``d <= k`` is proven."""
        ...

    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """True/False when ``a == b`` is decided, else None."""
        ...


IntOp = Callable[[Decide, Dim, Dim], Dim | None]
UnaryIntOp = Callable[[Decide, Dim], Dim | None]


class RuleDecisions:
    """A rule's decisions: the facts, with ``d >= k`` also proven through the relations between
    the atoms of ``d`` that interval bounds miss (`symshape.rules.shared.relations`)."""

    def __init__(self, ctx: OpContext) -> None:
        self.ctx = ctx

    def prove_ge(self, d: Dim, k: int = 0) -> bool:
        """``d >= k``."""
        return prove_nonneg(self.ctx, self.ctx.canon(add(d, -k)))

    def prove_le(self, d: Dim, k: int) -> bool:
        """``d <= k``."""
        return prove_nonneg(self.ctx, self.ctx.canon(add(k, mul(d, -1))))

    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """``a == b`` decided."""
        return self.ctx.prove_eq(a, b)


# ---------------------------------------------------------------- division and remainder


def _divisor_sign(facts: Decide, b: Dim) -> int:
    """1 or -1 when ``b`` is proven positive or negative, 0 when it may be 0 (no result then)."""
    if isinstance(b, int):
        return (b > 0) - (b < 0)
    return 1 if facts.prove_ge(b, 1) else -1 if facts.prove_le(b, -1) else 0


def trunc_div(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    """``a / b`` rounded toward zero (C; ONNX Div, HLO divide, arith.divsi)."""
    if isinstance(a, int) and isinstance(b, int):
        return None if b == 0 else (abs(a) // abs(b)) * (1 if (a >= 0) == (b > 0) else -1)
    a, b = expand_mod(a), expand_mod(b)  # h - Mod(h, 4) is 4*floor(h/4): provably >= 0, divides
    sign = _divisor_sign(facts, b)
    if sign == 0:
        return None
    if sign < 0:
        a, b = mul(a, -1), mul(b, -1)  # a / b = (-a) / (-b)
    if facts.prove_ge(a, 0):
        return floordiv(a, b)
    if facts.prove_le(a, 0):
        return mul(floordiv(mul(a, -1), b), -1)
    return piecewise_trunc_div(a, b)  # a dividend of unknown sign: exact, one floor per sign


def _flip(facts: Decide, a: Dim, b: Dim) -> tuple[Dim, Dim, int] | None:
    """``(a, b, 1)``, or ``(-a, -b, -1)`` when ``b`` is a negative symbolic divisor (the floor
    forms keep symbolic divisors positive); None when ``b`` may be 0."""
    sign = _divisor_sign(facts, b)
    if sign == 0:
        return None
    return (a, b, 1) if sign > 0 or isinstance(b, int) else (mul(a, -1), mul(b, -1), -1)


def floor_div(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    """``floor(a / b)`` (arith.floordivsi, shape.div, Python ``//``)."""
    flipped = _flip(facts, a, b)
    return None if flipped is None else floordiv(flipped[0], flipped[1])


def ceil_div(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    """``ceil(a / b)`` (arith.ceildivsi)."""
    flipped = _flip(facts, a, b)
    return None if flipped is None else ceildiv(flipped[0], flipped[1])


def rem(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    """``a - b * trunc(a / b)``: the sign of the dividend (C ``%``; HLO remainder, arith.remsi,
    ONNX Mod with ``fmod=1``)."""
    if isinstance(a, int) and isinstance(b, int):
        return None if b == 0 else (abs(a) % abs(b)) * (1 if a >= 0 else -1)
    sign = _divisor_sign(facts, b)
    if sign == 0:
        return None
    if sign < 0:
        b = mul(b, -1)  # the remainder does not depend on the divisor's sign
    if facts.prove_ge(a, 0):
        return mod(a, b)
    if facts.prove_le(a, 0):
        return mul(mod(mul(a, -1), b), -1)
    return trunc_rem(a, b)  # a dividend of unknown sign: exact, one Mod per sign


def floor_mod(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    """``a - b * floor(a / b)``: the sign of the divisor (Python ``%``; ONNX Mod with ``fmod=0``)."""
    flipped = _flip(facts, a, b)
    if flipped is None:
        return None
    a, b, sign = flipped
    return mul(mod(a, b), sign)  # Mod(a, -k) = -Mod(-a, k)


# ----------------------------------------------------------------------- comparisons


def _compare(yes: Callable[[Decide, Dim], bool], no: Callable[[Decide, Dim], bool]) -> IntOp:
    """A comparison of ``a - b``: 1 when ``yes`` is proven, 0 when ``no`` is, else None."""

    def op(facts: Decide, a: Dim, b: Dim) -> Dim | None:
        diff = a - b if isinstance(a, Expr) else -(b - a) if isinstance(b, Expr) else a - b
        return 1 if yes(facts, diff) else 0 if no(facts, diff) else None

    return op


def _equal(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    decided = facts.prove_eq(a, b)
    return None if decided is None else int(decided)


def _not_equal(facts: Decide, a: Dim, b: Dim) -> Dim | None:
    decided = facts.prove_eq(a, b)
    return None if decided is None else int(not decided)


def _constants(fn: Callable[[int, int], int]) -> IntOp:
    """An operation known only on integer constants (the bitwise ones)."""

    def op(facts: Decide, a: Dim, b: Dim) -> Dim | None:  # noqa: ARG001 - uniform signature
        return fn(a, b) if isinstance(a, int) and isinstance(b, int) else None

    return op


# ----------------------------------------------------------------------------- tables

INT_OPS: dict[str, IntOp] = {
    "add": lambda facts, a, b: add(a, b),
    "sub": lambda facts, a, b: add(a, mul(b, -1)),
    "mul": lambda facts, a, b: mul(a, b),
    "trunc_div": trunc_div,
    "floor_div": floor_div,
    "ceil_div": ceil_div,
    "rem": rem,
    "mod": floor_mod,
    "max": lambda facts, a, b: smax(a, b),
    "min": lambda facts, a, b: smin(a, b),
    "eq": _equal,
    "ne": _not_equal,
    "lt": _compare(lambda f, d: f.prove_le(d, -1), lambda f, d: f.prove_ge(d, 0)),
    "le": _compare(lambda f, d: f.prove_le(d, 0), lambda f, d: f.prove_ge(d, 1)),
    "gt": _compare(lambda f, d: f.prove_ge(d, 1), lambda f, d: f.prove_le(d, 0)),
    "ge": _compare(lambda f, d: f.prove_ge(d, 0), lambda f, d: f.prove_le(d, -1)),
    "and": _constants(lambda a, b: a & b),
    "or": _constants(lambda a, b: a | b),
    "xor": _constants(lambda a, b: a ^ b),
}


def _sign(facts: Decide, e: Dim) -> Dim | None:
    return 1 if facts.prove_ge(e, 1) else -1 if facts.prove_le(e, -1) else 0 if facts.prove_eq(e, 0) else None


def _abs(facts: Decide, e: Dim) -> Dim | None:
    return e if facts.prove_ge(e, 0) else mul(e, -1) if facts.prove_le(e, 0) else None


UNARY_INT_OPS: dict[str, UnaryIntOp] = {
    "neg": lambda facts, e: mul(e, -1),
    "abs": _abs,
    "sign": _sign,
}


def unsigned(op: IntOp) -> IntOp:
    """The unsigned twin of ``op``: it agrees with ``op`` only when both operands are proven
    ``>= 0`` (a tracked ``-1`` sentinel is ``2**64 - 1`` unsigned); otherwise the value is unknown."""

    def unsigned_op(facts: Decide, a: Dim, b: Dim) -> Dim | None:
        return op(facts, a, b) if facts.prove_ge(a, 0) and facts.prove_ge(b, 0) else None

    return unsigned_op


def _named(names: dict[str, str]) -> dict[str, IntOp]:
    return {name: INT_OPS[meaning] for name, meaning in names.items()}


ONNX_INT_OPS = _named({
    "Add": "add", "Sub": "sub", "Mul": "mul", "Div": "trunc_div", "Max": "max", "Min": "min",
    "Equal": "eq", "Less": "lt", "LessOrEqual": "le", "Greater": "gt", "GreaterOrEqual": "ge",
})  # Mod is ``mod`` or, with ``fmod=1``, ``rem``: the rule picks by the attribute
HLO_INT_OPS = _named({
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "trunc_div", "remainder": "rem",
    "maximum": "max", "minimum": "min", "and": "and", "or": "or", "xor": "xor",
})
ONNX_UNARY_INT_OPS: dict[str, UnaryIntOp] = {
    "Neg": UNARY_INT_OPS["neg"], "Abs": UNARY_INT_OPS["abs"], "Sign": UNARY_INT_OPS["sign"],
}
HLO_UNARY_INT_OPS: dict[str, UnaryIntOp] = {
    "convert": lambda facts, e: e, "negate": UNARY_INT_OPS["neg"], "abs": UNARY_INT_OPS["abs"],
    "sign": UNARY_INT_OPS["sign"],
}
COMPARISON_DIRECTIONS = _named({"EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge"})
ARITH_INT_OPS: dict[str, IntOp] = {
    **_named({
        "addi": "add", "subi": "sub", "muli": "mul", "divsi": "trunc_div", "floordivsi": "floor_div",
        "ceildivsi": "ceil_div", "remsi": "rem", "maxsi": "max", "minsi": "min", "andi": "and", "ori": "or",
        "xori": "xor",
    }),
    "divui": unsigned(trunc_div),
    "ceildivui": unsigned(ceil_div),
    "remui": unsigned(rem),
    "maxui": unsigned(INT_OPS["max"]),
    "minui": unsigned(INT_OPS["min"]),
}
# arith.cmpi predicates (``arith::CmpIPredicate``): eq ne slt sle sgt sge ult ule ugt uge.
CMPI_PREDICATES: dict[int, IntOp] = {
    **{k: INT_OPS[m] for k, m in enumerate(("eq", "ne", "lt", "le", "gt", "ge"))},
    **{6 + k: unsigned(INT_OPS[m]) for k, m in enumerate(("lt", "le", "gt", "ge"))},
}
SHAPE_INT_OPS = _named({"add": "add", "mul": "mul", "div": "floor_div"})


# ---------------------------------------------------------------------- on elements


def binary_elements(ctx: OpContext, op: IntOp, *, partial: bool = False) -> tuple[Dim, ...] | None:
    """``op`` over the tracked values of operands 0 and 1 (equal lengths), or None.

    With ``partial``, an untracked small integer operand next to a tracked one takes one symbol
    per element (`elements_or_unknowns`), so ``s + 4`` keeps ``s`` and a later ``limit - start``
    cancels it.
    """
    a, b = ctx.elements(0), ctx.elements(1)
    if partial and (a is None) != (b is None):
        a, b = elements_or_unknowns(ctx, 0), elements_or_unknowns(ctx, 1)
    if a is None or b is None or len(a) != len(b) or not is_int_dtype(ctx.output_dtype(0)):
        return None
    decide = RuleDecisions(ctx)
    out = [op(decide, x, y) for x, y in zip(a, b, strict=True)]
    if any(o is None for o in out):
        return None
    return tuple(ctx.canon(o) for o in out if o is not None)


def compare_elements(ctx: OpContext, op: IntOp) -> tuple[Dim, ...] | None:
    """The 1/0 results of comparing the tracked values of operands 0 and 1, or None."""
    a, b = ctx.elements(0), ctx.elements(1)
    if a is None or b is None or len(a) != len(b):
        return None
    decide = RuleDecisions(ctx)
    got = [op(decide, x, y) for x, y in zip(a, b, strict=True)]
    return None if any(g is None for g in got) else tuple(g for g in got if g is not None)
