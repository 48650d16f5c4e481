"""Decisions the interval bounds of `symshape.engine.facts` miss, for the rules: relations between
the atoms of one expression (``Mod(x, m) <= m - 1``, ``floor(h/16) = floor(floor(h/4)/4)``).

Every test here is sound: it proves a lower bound of the expression is non-negative.
"""

from __future__ import annotations

import math

from symshape.algebra.core import FloorDiv, ModAtom, from_terms
from symshape.algebra.expr import (
    Dim,
    Expr,
    MaxAtom,
    MinAtom,
    add,
    atoms_deep,
    expand_mod,
    floordiv,
    map_atoms,
    mul,
    single_atom,
    smax,
    smin,
)
from symshape.algebra.piecewise import distribute, minmax_args, spread
from symshape.engine.context import OpContext


def prove_nonneg(ctx: OpContext, d: Dim, depth: int = 3) -> bool:
    """``d >= 0``, also through relations interval bounds miss.

    Tries the facts' interval bounds on ``d`` and on its Mod-free form (``h - Mod(h, 4)`` is
    ``4*floor(h/4)``), then two relaxations that keep the relation between atoms: each
    ``Mod(x, m)`` term (``m >= 1``) bounded by ``0 <= Mod(x, m) <= m - 1`` (``X - Mod(-2, X)``
    is at least 1), floors of one numerator nested (``4*floor(h/16) + 3 - floor(h/4)``), each
    floor by a constant relaxed toward its numerator (``n - floor(n/3) >= 0``), and a sum holding
    a ``Max``/``Min`` moved into it (``Max(x, y) >= 0`` when one argument is, ``Min`` when all
    are), ``depth`` times at most.
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
        for relaxed in (_into_floor(form), _relax_mods(ctx, form), _relax_floors(form), _relax_each_floor(form)):
            if relaxed is not None and facts.prove_ge(ctx.canon(relaxed), 0):
                return True
    return depth > 0 and _nonneg_by_cases(ctx, d, depth - 1)


def _nonneg_by_cases(ctx: OpContext, d: Expr, depth: int) -> bool:
    """``d >= 0`` through the ``Max``/``Min`` it holds linearly (see `distribute`)."""
    spread = distribute(d)
    parts = minmax_args(spread)
    if parts is None:
        return False
    is_max, args = parts
    proven = (prove_nonneg(ctx, ctx.canon(a), depth) for a in args)
    return any(proven) if is_max else all(proven)


def prove_le(ctx: OpContext, a: Dim, b: Dim) -> bool:
    """``a <= b``, through `prove_nonneg`."""
    return prove_nonneg(ctx, ctx.canon(add(b, mul(a, -1))))


def prune_minmax(ctx: OpContext, d: Dim) -> Dim:
    """``d`` with every ``Max``/``Min`` argument another one dominates dropped (at any depth),
    deciding with `prove_nonneg`, which sees more than the interval bounds of `ctx.canon`."""
    if isinstance(d, int) or all(not a.children() for a in d.atoms):
        return d

    def one(atom_d: Dim) -> Dim:
        atom = single_atom(atom_d)
        if atom is None or not atom.children():
            return atom_d
        if not isinstance(atom, (MaxAtom, MinAtom)):
            return atom.rebuild(lambda c: prune_minmax(ctx, c))
        is_max = isinstance(atom, MaxAtom)
        args = [prune_minmax(ctx, a) for a in atom.args]
        kept: list[Dim] = []
        for i, x in enumerate(args):
            # x is dropped when some other y wins over it (for Max: y >= x); of equals the first stays
            if not any(
                j != i and _wins(ctx, y, x, is_max) and (j < i or not _wins(ctx, x, y, is_max))
                for j, y in enumerate(args)
            ):
                kept.append(x)
        return smax(*kept) if is_max else smin(*kept)

    return ctx.canon(map_atoms(d, one))


def _wins(ctx: OpContext, y: Dim, x: Dim, is_max: bool) -> bool:
    return prove_le(ctx, x, y) if is_max else prove_le(ctx, y, x)


def tidy(ctx: OpContext, d: Dim) -> Dim:
    """The shorter exact form of ``d``: canonical, or with its sums and floors moved into its
    ``Max``/``Min`` (`spread`), each with the dominated arguments pruned (`prune_minmax`):
    ``n - Max(n - 3, 0)`` is ``Min(3, n)``, ``Max(0, Max(0, n - 1) - Min(1, n))`` is
    ``Max(0, n - 2)``."""
    best = prune_minmax(ctx, ctx.canon(d))
    if isinstance(best, int) or all(not a.children() for a in best.atoms):
        return best
    form = prune_minmax(ctx, ctx.canon(spread(best)))
    return form if isinstance(form, int) or len(str(form)) <= len(str(best)) else best


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


def _into_floor(d: Expr) -> Dim | None:
    """``d`` itself with its other terms moved into its one ``floor(y/k)`` of coefficient 1 or -1
    (an identity: ``r + floor(y/k) = floor((y + k*r)/k)``), so ``c - floor((c + 1)/2)`` reads
    ``floor(c/2)`` and its interval bound sees it is ``>= 0``."""
    floors = [(mono[0], c) for mono, c in d.terms if len(mono) == 1 and isinstance(mono[0], FloorDiv)]
    if len(floors) != 1:
        return None
    atom, coeff = floors[0]
    if not (isinstance(atom.den, int) and atom.den > 0 and coeff in (1, -1)):
        return None
    rest = add(d, mul(from_terms({(atom,): 1}), -coeff))
    inside = floordiv(add(atom.num, mul(rest, coeff * atom.den)), atom.den)
    return mul(inside, coeff)


def guard(ctx: OpContext, lhs: Dim, rel: str, rhs: Dim, rule: str, reason: str) -> None:
    """``ctx.guard`` with `prove_nonneg` (floors, Min/Max by cases) deciding whether the facts
    refute the guard, which the facts' bounds alone often cannot."""
    ctx.guard(lhs, rel, rhs, rule, reason, nonneg=lambda d: prove_nonneg(ctx, d))


def _relax_each_floor(d: Expr) -> Dim | None:
    """A lower bound of ``L*d`` (``L >= 1``): each top-level ``c*floor(y/m)`` (``m >= 1`` a
    constant) replaced by ``c*y/m`` (``c < 0``) or ``c*(y - m + 1)/m`` (``c > 0``)."""
    dens: list[int] = []
    for mono, _ in d.terms:
        atom = mono[0] if len(mono) == 1 else None
        if isinstance(atom, FloorDiv) and isinstance(atom.den, int) and atom.den > 0:
            dens.append(atom.den)
    if not dens:
        return None
    scale = math.lcm(*dens)
    out: Dim = 0
    for mono, coeff in d.terms:
        atom = mono[0] if len(mono) == 1 else None
        if isinstance(atom, FloorDiv) and isinstance(atom.den, int) and atom.den > 0:
            y, m = atom.num, atom.den
            bound = add(y, 1 - m) if coeff > 0 else y
            out = add(out, mul(coeff * (scale // m), bound))
        else:
            out = add(out, from_terms({mono: coeff * scale}))
    return out


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
