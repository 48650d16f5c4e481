"""Decisions the interval bounds of `symshape.engine.facts` miss, for the rules: relations between
the atoms of one expression (``Mod(x, m) <= m - 1``, ``floor(h/16) = floor(floor(h/4)/4)``).

Every test here is sound: it proves a lower bound of the expression is non-negative.
"""

from __future__ import annotations

from symshape.algebra.core import ModAtom
from symshape.algebra.expr import (
    Dim,
    MaxAtom,
    MinAtom,
    atoms_deep,
    expand_mod,
    map_atoms,
    single_atom,
    smax,
    smin,
)
from symshape.algebra.piecewise import spread
from symshape.engine.context import OpContext
from symshape.engine.nonneg import prove_le


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
