"""``d >= 0`` beyond the interval bounds of `symshape.engine.facts`: relations between the atoms
of one expression (``Mod(x, m) <= m - 1``, ``floor(h/16) = floor(floor(h/4)/4)``), Min/Max by
cases. The constraint graph decides every guard with it, and rules ask it directly.

Every test here is sound: it proves a lower bound of the expression is non-negative.
"""

from __future__ import annotations

import math
from typing import Protocol

from symshape.algebra.core import FloorDiv, ModAtom, from_terms
from symshape.algebra.expr import Dim, Expr, add, expand_mod, floordiv, mul
from symshape.algebra.piecewise import distribute, minmax_args
from symshape.engine.facts import Facts


class Decides(Protocol):
    """What the proofs read: the facts and the canonical form (a constraint graph, a rule's context)."""

    @property
    def facts(self) -> Facts: ...

    def canon(self, d: Dim) -> Dim: ...


def prove_nonneg(graph: Decides, d: Dim, depth: int = 3) -> bool:
    """``d >= 0``, also through relations interval bounds miss.

    Tries the facts' interval bounds on ``d`` and on its Mod-free form (``h - Mod(h, 4)`` is
    ``4*floor(h/4)``), then two relaxations that keep the relation between atoms: each
    ``Mod(x, m)`` term (``m >= 1``) bounded by ``0 <= Mod(x, m) <= m - 1`` (``X - Mod(-2, X)``
    is at least 1), floors of one numerator nested (``4*floor(h/16) + 3 - floor(h/4)``), each
    floor by a constant relaxed toward its numerator (``n - floor(n/3) >= 0``), and a sum holding
    a ``Max``/``Min`` moved into it (``Max(x, y) >= 0`` when one argument is, ``Min`` when all
    are), ``depth`` times at most.
    """
    facts = graph.facts
    if isinstance(d, int):
        return d >= 0
    if facts.prove_ge(d, 0):
        return True
    for form in (d, graph.canon(expand_mod(d))):
        if isinstance(form, int):
            return form >= 0
        if facts.prove_ge(form, 0):
            return True
        for relaxed in (_into_floor(form), _relax_mods(graph, form), _relax_floors(form), _relax_each_floor(form)):
            if relaxed is not None and facts.prove_ge(graph.canon(relaxed), 0):
                return True
    return depth > 0 and _nonneg_by_cases(graph, d, depth - 1)


def _nonneg_by_cases(graph: Decides, d: Expr, depth: int) -> bool:
    """``d >= 0`` through the ``Max``/``Min`` it holds linearly (see `distribute`)."""
    spread = distribute(d)
    parts = minmax_args(spread)
    if parts is None:
        return False
    is_max, args = parts
    proven = (prove_nonneg(graph, graph.canon(a), depth) for a in args)
    return any(proven) if is_max else all(proven)


def prove_le(graph: Decides, a: Dim, b: Dim) -> bool:
    """``a <= b``, through `prove_nonneg`."""
    return prove_nonneg(graph, graph.canon(add(b, mul(a, -1))))


def _relax_mods(graph: Decides, d: Expr) -> Dim | None:
    """A lower bound of ``d``: ``Mod(x, m)`` by 0 (positive coefficient) or ``m - 1``."""
    facts = graph.facts
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
