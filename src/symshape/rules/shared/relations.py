"""Decisions the interval bounds of `symshape.facts` miss, for the rules: relations between
the atoms of one expression (``Mod(x, m) <= m - 1``, ``floor(h/16) = floor(floor(h/4)/4)``).

Every test here is sound: it proves a lower bound of the expression is non-negative.
"""

from __future__ import annotations

import math

from symshape.context import OpContext
from symshape.expr import Dim, Expr, add, atoms_deep, expand_mod, floordiv, mul
from symshape.exprcore import FloorDiv, ModAtom, from_terms


def prove_nonneg(ctx: OpContext, d: Dim) -> bool:
    """``d >= 0``, also through relations interval bounds miss.

    Tries the facts' interval bounds on ``d`` and on its Mod-free form (``h - Mod(h, 4)`` is
    ``4*floor(h/4)``), then two relaxations that keep the relation between atoms: each
    ``Mod(x, m)`` term (``m >= 1``) bounded by ``0 <= Mod(x, m) <= m - 1`` (``X - Mod(-2, X)``
    is at least 1), and floors of one numerator nested (``4*floor(h/16) + 3 - floor(h/4)``).
    """
    facts = ctx.facts
    if isinstance(d, int):
        return d >= 0
    if facts.prove_ge(d, 0):
        return True
    for form in (d, ctx.canon(expand_mod(d))):
        if isinstance(form, int):
            return form >= 0
        if facts.prove_ge(form, 0):
            return True
        for relaxed in (_relax_mods(ctx, form), _relax_floors(form)):
            if relaxed is not None and facts.prove_ge(ctx.canon(relaxed), 0):
                return True
    return False


def _relax_mods(ctx: OpContext, d: Expr) -> Dim | None:
    """A lower bound of ``d``: ``Mod(x, m)`` by 0 (positive coefficient) or ``m - 1``."""
    facts = ctx.facts
    lowered: Dim = 0
    relaxed = False
    for mono, coeff in d.terms:
        atom = mono[0] if len(mono) == 1 else None
        if isinstance(atom, ModAtom) and facts.prove_ge(atom.den, 1):
            relaxed = True
            if coeff < 0:
                lowered = add(lowered, mul(coeff, add(atom.den, -1)))
            continue
        lowered = add(lowered, from_terms({mono: coeff}))
    return lowered if relaxed else None


def _relax_floors(d: Expr) -> Dim | None:
    """A lower bound of ``L*d`` (``L >= 1``): floors of one numerator ``x`` are rewritten over
    the finest one, ``floor(x/(k*m)) = floor(floor(x/k)/m)``, and relaxed by
    ``(y - m + 1)/m <= floor(y/m) <= y/m``; the finest floor stays as a variable."""
    groups: dict[Dim, list[FloorDiv]] = {}
    for mono, _ in d.terms:
        atom = mono[0] if len(mono) == 1 else None
        if isinstance(atom, FloorDiv) and isinstance(atom.den, int) and atom.den > 0:
            groups.setdefault(atom.num, []).append(atom)
    plan: dict[FloorDiv, tuple[Dim, int]] = {}
    for num, atoms in groups.items():
        finest = min(a.den for a in atoms if isinstance(a.den, int))
        base = floordiv(num, finest)
        for a in atoms:
            den = a.den if isinstance(a.den, int) else 0
            if den != finest and den % finest == 0:
                plan[a] = (base, den // finest)
    if not plan:
        return None
    scale = math.lcm(*(m for _, m in plan.values()))
    out: Dim = 0
    for mono, coeff in d.terms:
        atom = mono[0] if len(mono) == 1 else None
        if isinstance(atom, FloorDiv) and atom in plan:
            y, m = plan[atom]
            bound = add(y, 1 - m) if coeff > 0 else y
            out = add(out, mul(coeff * (scale // m), bound))
        else:
            out = add(out, from_terms({mono: coeff * scale}))
    return out


def simplest(ctx: OpContext, d: Dim) -> Dim:
    """``d`` or its Mod-free form (equal for all integers), whichever composes better.

    Mods by constants are written as floors unless that more than doubles the text: a padded
    size ``f + 1 + Mod(-f + 3, 4)`` then cancels to ``4*floor(f/4) + 4`` and meets the other
    dims computed from ``f``; a Mod by a symbol stays (its floor form is no simpler).
    """
    d = ctx.canon(d)
    if isinstance(d, int):
        return d
    e = ctx.canon(expand_mod(d))
    if e is d or isinstance(e, int):
        return e
    constant_mods = all(isinstance(a.den, int) for a in atoms_deep(d) if isinstance(a, ModAtom))
    if len(str(e)) < len(str(d)) or (constant_mods and len(str(e)) <= 2 * len(str(d))):
        return e
    return d
