"""The integer idioms compilers print for floor division and modulo, recognized as what they
compute.

C-style ``divide``/``remainder`` truncate, so a front end that means Python's ``//`` and ``%``
corrects the truncated result with a ``select`` (jax's ``@floor_divide`` and ``@remainder``
helpers, inline or called)::

    q = divide(a, b)                                  r = remainder(a, b)
    c = and(ne(sign(a), sign(b)), ne(remainder(a, b), 0))   c = and(ne(lt(r, 0), lt(b, 0)), ne(r, 0))
    select(c, q - 1, q)          == floor(a / b)      select(c, r + b, r)     == a mod b (floor)

Whenever the correction condition is unknown (``sign(a)`` when ``a`` may be 0, ``a % b != 0``),
the select is not: it is ``floor(a / b)`` (or the floor modulo) by this identity, for every
``a`` and every ``b != 0``. The scalar integer rules record how each scalar was computed
(`record`: a meaning and the operand names, through calls and casts as aliases), and the
select rules ask `folded_select` for the value when the condition is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from symshape.context import OpContext
from symshape.expr import Dim
from symshape.rules.shared.arith import IntOp, RuleDecisions, floor_div, floor_mod

DEFS = "scalar_defs"
ALIAS = "alias"
Def = tuple[str, tuple[str, ...]]  # (meaning, operand value names)
_SCALAR_LIMIT = 1  # only scalars and one-element vectors are recorded


def _defs(ctx: OpContext) -> dict[str, Def]:
    return ctx.table(DEFS, dict[str, Def])


def _is_scalar(ctx: OpContext, i: int) -> bool:
    shape = ctx.shape_or_none(i)
    return shape is not None and all(isinstance(d, int) and d <= _SCALAR_LIMIT for d in shape)


def record(ctx: OpContext, meaning: str, inputs: Sequence[int], out: int = 0) -> None:
    """Output ``out`` of this op is ``meaning`` of the inputs at ``inputs`` (scalars only)."""
    if out >= ctx.num_outputs or not ctx.op.outputs[out] or not all(_is_scalar(ctx, i) for i in inputs):
        return
    _defs(ctx)[ctx.op.outputs[out]] = (meaning, tuple(ctx.op.inputs[i] for i in inputs))


def alias(ctx: OpContext, dst: str, src: str) -> None:
    """Value ``dst`` is value ``src`` (a call's argument or result, a cast, a scalar reshape)."""
    if dst and src and dst != src:
        _defs(ctx)[dst] = (ALIAS, (src,))


def _resolve(defs: dict[str, Def], name: str) -> str:
    for _ in range(64):  # aliases form chains through nested calls, never cycles
        found = defs.get(name)
        if found is None or found[0] != ALIAS:
            return name
        name = found[1][0]
    return name


class _Reader:
    """The recorded definitions, seen through aliases."""

    def __init__(self, ctx: OpContext) -> None:
        self.ctx = ctx
        self.defs = _defs(ctx)

    def of(self, name: str, meaning: str) -> tuple[str, ...] | None:
        """The operands of ``name`` when it was computed as ``meaning``."""
        found = self.defs.get(_resolve(self.defs, name))
        return tuple(_resolve(self.defs, n) for n in found[1]) if found and found[0] == meaning else None

    def value(self, name: str) -> Dim | None:
        els = self.ctx.value(name)[1]
        return self.ctx.canon(els[0]) if els is not None and len(els) == 1 else None

    def same(self, a: str, b: str) -> bool:
        """The same value: one name after aliases, or equal known values."""
        if _resolve(self.defs, a) == _resolve(self.defs, b):
            return True
        va, vb = self.value(a), self.value(b)
        return va is not None and vb is not None and self.ctx.prove_eq(va, vb) is True

    def is_const(self, name: str, k: int) -> bool:
        v = self.value(name)
        return isinstance(v, int) and v == k


def _floor_division_condition(r: _Reader, cond: str) -> tuple[str, str] | None:
    """``(a, b)`` when ``cond`` is ``and(ne(sign(a), sign(b)), ne(remainder(a, b), 0))``."""
    both = r.of(cond, "and")
    if both is None:
        return None
    for first, second in permutations(both):
        signs, nonzero = r.of(first, "ne"), r.of(second, "ne")
        if signs is None or nonzero is None:
            continue
        sa, sb = r.of(signs[0], "sign"), r.of(signs[1], "sign")
        for rem_name, zero in permutations(nonzero):
            parts = r.of(rem_name, "rem")
            if sa and sb and parts and r.is_const(zero, 0) and r.same(parts[0], sa[0]) and r.same(parts[1], sb[0]):
                return sa[0], sb[0]
    return None


def _floor_modulo_condition(r: _Reader, cond: str) -> tuple[str, str, str] | None:
    """``(r, a, b)`` when ``cond`` is ``and(ne(lt(r, 0), lt(b, 0)), ne(r, 0))`` with ``r = remainder(a, b)``."""
    both = r.of(cond, "and")
    if both is None:
        return None
    for first, second in permutations(both):
        signs, nonzero = r.of(first, "ne"), r.of(second, "ne")
        if signs is None or nonzero is None:
            continue
        neg_r, neg_b = r.of(signs[0], "lt"), r.of(signs[1], "lt")
        for rem_name, zero in permutations(nonzero):
            parts = r.of(rem_name, "rem")
            if not (neg_r and neg_b and parts and r.is_const(zero, 0)):
                continue
            if r.is_const(neg_r[1], 0) and r.is_const(neg_b[1], 0):
                if r.same(neg_r[0], rem_name) and r.same(neg_b[0], parts[1]):
                    return rem_name, parts[0], parts[1]
    return None


def folded_select(ctx: OpContext, cond: str, on_true: str, on_false: str) -> Dim | None:
    """The value of ``select(cond, on_true, on_false)`` when it is a floor-division or
    floor-modulo correction (see the module docstring), else None."""
    r = _Reader(ctx)
    decide = RuleDecisions(ctx)
    ab = _floor_division_condition(r, cond)
    if ab is not None:
        quotient = r.of(on_false, "trunc_div")
        less = r.of(on_true, "sub")
        if quotient and less and r.same(quotient[0], ab[0]) and r.same(quotient[1], ab[1]):
            if r.same(less[0], on_false) and r.is_const(less[1], 1):
                return _apply(r, decide, floor_div, ab)
    found = _floor_modulo_condition(r, cond)
    if found is not None:
        rem_name, a, b = found
        grown = r.of(on_true, "add")
        if grown and r.same(on_false, rem_name) and any(
            r.same(x, rem_name) and r.same(y, b) for x, y in permutations(grown)
        ):
            return _apply(r, decide, floor_mod, (a, b))
    return None


def _apply(r: _Reader, decide: RuleDecisions, op: IntOp, ab: tuple[str, str]) -> Dim | None:
    a, b = r.value(ab[0]), r.value(ab[1])
    if a is None or b is None:
        return None
    got = op(decide, a, b)
    return None if got is None else r.ctx.canon(got)
