"""One value from two branches chosen by a shape comparison: ``T if p >= 0 else E``, exactly.

An If whose condition compares sizes (``x.shape[0] > 5``) returns a dim that depends on it:
``x[:5]`` in one branch and ``x`` in the other is ``Min(a, 5)``. With the condition written as
``p >= 0`` (``p`` an integer expression), `piecewise` tries, in order:

* ``Min(T, E)`` or ``Max(T, E)``, when the right branch provably wins: ``E - T`` is ``k*p + r``
  with ``0 <= r <= k`` (``Min``; ``k <= r <= 0`` for ``Max``), or the facts *under each side of
  the condition* prove it (``p`` of one symbol with coefficient 1 or -1 becomes a range on it);
* the identity ``E + (T - E)*Min(1, Max(0, p + 1))`` (the bracket is 1 for ``p >= 0``, 0 below:
  true for every integer), which needs no proof.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, as_symbol, from_terms, mul, smax, smin
from symshape.engine.context import OpContext
from symshape.engine.facts import Facts
from symshape.rules.shared.producers import producer


def under(facts: Facts, p: Dim, holds: bool) -> Facts | None:
    """A copy of ``facts`` that also knows ``p >= 0`` (``holds``) or ``p <= -1``; None when
    ``p`` is not ``±s + c`` for one symbol ``s`` or the side is impossible."""
    if isinstance(p, int):
        return None
    terms = dict(p.terms)
    const = terms.pop((), 0)
    if len(terms) != 1:
        return None
    ((mono, coeff),) = terms.items()
    name = as_symbol(from_terms({mono: 1}))
    if name is None or coeff not in (1, -1):
        return None
    # coeff*s + const >= 0 (or <= -1)
    lo, hi = (-const, None) if coeff == 1 else (None, const)
    if not holds:
        lo, hi = (None, -const - 1) if coeff == 1 else (const + 1, None)
    out = facts.copy()
    new = out.restrict(name, lo=lo, hi=hi)
    if new.lo is not None and new.hi is not None and new.lo > new.hi:
        return None
    return out


def piecewise(ctx: OpContext, p: Dim, then: Dim, other: Dim) -> Dim:
    """``then`` when ``p >= 0``, else ``other``, as one expression."""
    t, e = ctx.canon(then), ctx.canon(other)
    if ctx.prove_eq(t, e) is True:
        return t
    if ctx.prove_ge(p, 0):
        return t
    if ctx.prove_ge(mul(p, -1), 1):
        return e
    diff = ctx.canon(add(e, mul(t, -1)))
    linear = _multiple_of(diff, p)
    if linear is not None:
        k, r = linear  # e - t == k*p + r: its sign follows p's when 0 <= r <= k (or k <= r <= 0)
        if k > 0 and 0 <= r <= k:
            return ctx.canon(smin(t, e))
        if k < 0 and k <= r <= 0:
            return ctx.canon(smax(t, e))
    yes, no = under(ctx.facts, p, True), under(ctx.facts, p, False)
    if yes is not None and no is not None:
        if yes.prove_ge(diff, 0) and no.prove_ge(mul(diff, -1), 0):
            return ctx.canon(smin(t, e))
        if yes.prove_ge(mul(diff, -1), 0) and no.prove_ge(diff, 0):
            return ctx.canon(smax(t, e))
    bracket = smin(1, smax(0, add(p, 1)))
    return ctx.canon(add(e, mul(add(t, mul(e, -1)), bracket)))


def _multiple_of(d: Dim, p: Dim) -> tuple[int, int] | None:
    """``(k, r)`` with ``d == k*p + r`` for integers ``k != 0`` and ``r``, if there are such."""
    if isinstance(p, int) or isinstance(d, int):
        return None
    mono, coeff = next((m, c) for m, c in p.terms if m)
    found = dict(d.terms).get(mono)
    if found is None or found % coeff:
        return None
    k = found // coeff
    rest = add(d, mul(p, -k))
    return (k, rest) if isinstance(rest, int) else None


# a comparison as ``p >= 0`` over its two sides: (coefficient of lhs - rhs, constant)
_COMPARISONS = {"Greater": (1, -1), "GreaterOrEqual": (1, 0), "Less": (-1, -1), "LessOrEqual": (-1, 0)}


def condition(ctx: OpContext, name: str) -> Dim | None:
    """The boolean value ``name`` as ``p`` with "true" exactly when ``p >= 0``: a comparison of
    two tracked integer scalars (``x.shape[0] > 5``), possibly negated, read off the ops computing
    it (an If condition, a Where selecting between shape values)."""
    negated = False
    made_by = producer(ctx, name) if name else None
    while made_by is not None and made_by.op_type == "Not" and made_by.inputs:
        negated = not negated  # not (p >= 0) is -p - 1 >= 0
        made_by = producer(ctx, made_by.inputs[0])
    if made_by is None or made_by.op_type not in _COMPARISONS:
        return None
    sides = _sides(ctx, made_by.inputs)
    if sides is None:
        return None
    sign, const = _COMPARISONS[made_by.op_type]
    p = add(mul(add(sides[0], mul(sides[1], -1)), sign), const)
    return ctx.canon(add(mul(p, -1), -1) if negated else p)


def equality(ctx: OpContext, name: str) -> Dim | None:
    """``a - b`` when the boolean value ``name`` is ``Equal(a, b)`` of two tracked scalars."""
    made_by = producer(ctx, name) if name else None
    if made_by is None or made_by.op_type != "Equal":
        return None
    sides = _sides(ctx, made_by.inputs)
    return None if sides is None else ctx.canon(add(sides[0], mul(sides[1], -1)))


def _sides(ctx: OpContext, names: list[str]) -> tuple[Dim, Dim] | None:
    """The one tracked element of each of two values."""
    if len(names) != 2:
        return None
    out: list[Dim] = []
    for side in names:
        _, els = ctx.value(side)
        if els is None or len(els) != 1:
            return None
        out.append(ctx.canon(els[0]))
    return out[0], out[1]
