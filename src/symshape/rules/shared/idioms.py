"""Selects whose condition is unknown but whose value is not: the integer idioms compilers
print for floor division, modulo, min, max and clamps, recognized as what they compute.

C-style ``divide``/``remainder`` truncate, so a front end that means Python's ``//`` and ``%``
corrects the truncated result with a ``select`` (jax's ``@floor_divide`` and ``@remainder``
helpers, inline or called)::

    q = divide(a, b)                                        r = remainder(a, b)
    c = and(ne(sign(a), sign(b)), ne(remainder(a, b), 0))   c = and(ne(lt(r, 0), lt(b, 0)), ne(r, 0))
    select(c, q - 1, q)  == floor(a / b)                    select(c, r + b, r)  == a mod b (floor)

MLIR's own expansion of ``arith.floordivsi`` spells the condition ``and(ne(a, q * b),
ne(slt(a, 0), slt(b, 0)))``; it is recognized too.

Whenever the correction condition is unknown (``sign(a)`` when ``a`` may be 0, ``a % b != 0``),
the select is not: it is ``floor(a / b)`` (or the floor modulo) by this identity, for every
``a`` and every ``b != 0``. The scalar integer rules record how each scalar was computed
(`record`: a meaning and the operand names, through calls and casts as aliases), and the
select rules ask `folded_select` for the value when the condition is unknown.

Simpler selects fold the same way: equal branches are that value, and a select between the two
values its condition compares is ``Min``/``Max`` of them or one of them (torch-mlir clamps a slice
bound with ``cmpi slt`` + ``select``; "``-1`` keeps the dim" is ``select(t == -1, d, t)``).
A select whose condition is decided picks its branch even when the other has no formula
(`decided_select`): BladeDISC's and TF's reshape lowering resolve each target element ``d`` as
``select(d == -1, num_elements / product(others), d)``, and a size is never -1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

from symshape.algebra.expr import Dim, smax, smin
from symshape.engine.context import OpContext
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


def _signs_differ(r: _Reader, name: str) -> tuple[str, str] | None:
    """``(a, b)`` when ``name`` is ``ne(sign(a), sign(b))`` or ``ne(lt(a, 0), lt(b, 0))`` (the
    two agree whenever the remainder is non-zero, which the other half of the condition asks)."""
    pair = r.of(name, "ne")
    if pair is None:
        return None
    sa, sb = r.of(pair[0], "sign"), r.of(pair[1], "sign")
    if sa and sb:
        return sa[0], sb[0]
    na, nb = r.of(pair[0], "lt"), r.of(pair[1], "lt")
    if na and nb and r.is_const(na[1], 0) and r.is_const(nb[1], 0):
        return na[0], nb[0]
    return None


def _inexact(r: _Reader, name: str, a: str, b: str) -> bool:
    """``name`` is ``ne(remainder(a, b), 0)`` or ``ne(a, divide(a, b) * b)`` (either order)."""
    pair = r.of(name, "ne")
    if pair is None:
        return False
    for x, y in permutations(pair):
        parts = r.of(x, "rem")
        if parts and r.is_const(y, 0) and r.same(parts[0], a) and r.same(parts[1], b):
            return True
        product = r.of(y, "mul")
        if product and r.same(x, a):
            for q, k in permutations(product):
                quotient = r.of(q, "trunc_div")
                if quotient and r.same(k, b) and r.same(quotient[0], a) and r.same(quotient[1], b):
                    return True
    return False


def _floor_division_condition(r: _Reader, cond: str) -> tuple[str, str] | None:
    """``(a, b)`` when ``cond`` is ``and(signs of a and b differ, a / b is inexact)``: jax's
    ``@floor_divide`` (sign, remainder) or MLIR's expansion of ``arith.floordivsi`` (slt, muli)."""
    both = r.of(cond, "and")
    if both is None:
        return None
    for first, second in permutations(both):
        ab = _signs_differ(r, first)
        if ab is not None and _inexact(r, second, *ab):
            return ab
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


# select(p REL q, p, q) for each comparison: the smaller, the larger, or one of them always.
Pick = Callable[[Dim, Dim], Dim]


def _first(p: Dim, q: Dim) -> Dim:  # noqa: ARG001 - a Pick
    return p


def _second(p: Dim, q: Dim) -> Dim:  # noqa: ARG001 - a Pick
    return q


_PICK_FIRST: dict[str, Pick] = {"lt": smin, "le": smin, "gt": smax, "ge": smax, "eq": _second, "ne": _first}
_PICK_SECOND: dict[str, Pick] = {"lt": smax, "le": smax, "gt": smin, "ge": smin, "eq": _first, "ne": _second}


def _compare_select(r: _Reader, cond: str, on_true: str, on_false: str) -> Dim | None:
    """``select(p < q, p, q)`` is ``Min(p, q)``, ``select(p == q, q, p)`` is ``p``, and so on:
    the branches are the compared values, so the select is one exact expression of them."""
    for rel in _PICK_FIRST:
        pq = r.of(cond, rel)
        if pq is None:
            continue
        p, q = r.value(pq[0]), r.value(pq[1])
        if p is None or q is None:
            return None
        if r.same(on_true, pq[0]) and r.same(on_false, pq[1]):
            return r.ctx.canon(_PICK_FIRST[rel](p, q))
        if r.same(on_true, pq[1]) and r.same(on_false, pq[0]):
            return r.ctx.canon(_PICK_SECOND[rel](p, q))
    return None


def decided_select(
    cond: Sequence[Dim] | None, on_true: Sequence[Dim] | None, on_false: Sequence[Dim] | None
) -> tuple[Dim, ...] | None:
    """The elements of a select whose condition elements are all known (one, or one per
    element): each from the branch it picks, so a branch nothing picks may be unknown (a
    vector ``select(target == -1, inferred, target)`` over a shape tensor); else None."""
    if cond is None or not all(isinstance(c, int) for c in cond):
        return None
    n = len(on_true) if on_true is not None else len(on_false) if on_false is not None else 0
    if not n or len(cond) not in (1, n):
        return None
    out: list[Dim] = []
    for i in range(n):
        picked = on_true if cond[0 if len(cond) == 1 else i] else on_false
        if picked is None or len(picked) != n:
            return None
        out.append(picked[i])
    return tuple(out)


def folded_select(ctx: OpContext, cond: str, on_true: str, on_false: str) -> Dim | None:
    """The value of ``select(cond, on_true, on_false)``: the chosen branch when the condition is
    decided (``select(d == -1, inferred, d)`` is ``d`` for a size ``d``, however ``inferred`` was
    computed); else, when the condition is unknown but the select is not: equal branches, a
    comparison of the branches (`_compare_select`), a floor-division or floor-modulo correction
    (see the module docstring); else None."""
    r = _Reader(ctx)
    decided = r.value(cond)
    if isinstance(decided, int):  # the chosen branch alone: the other may have no formula
        return r.value(on_true if decided else on_false)
    if r.same(on_true, on_false):
        return r.value(on_true)
    picked = _compare_select(r, cond, on_true, on_false)
    if picked is not None:
        return picked
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
