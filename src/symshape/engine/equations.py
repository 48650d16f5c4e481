# pyright: strict
"""The algebra of one equation ``d == 0``, without the graph's state.

`cancel` puts it in normal form (``d == 0`` and ``-d == 0`` are one equation; a common factor
proven non-zero goes), `divisibility_lessons` reads what it teaches about divisors (``c*s + k*R
== 0`` and ``c*Mod(a*s, k) == 0`` give ``k | s`` up to the gcds), `exact_quotient` divides a
polynomial by a constant that divides every coefficient. `symshape.engine.constraints` solves with them.
"""

from __future__ import annotations

import math

from symshape.algebra.expr import Atom, Dim, Expr, ModAtom, Mono, add, as_symbol, content, from_terms
from symshape.engine.facts import Facts


def cancel(d: Expr, facts: Facts) -> Dim:
    """Divide out the coefficient gcd (signed, so the leading coefficient is positive: ``d == 0``
    and ``-d == 0`` are one equation) and every common factor proven non-zero."""
    g = content(d) if d.terms[0][1] > 0 else -content(d)
    terms: dict[Mono, int] = {m: c // g for m, c in d.terms}
    common = set(d.terms[0][0])
    for mono in terms:
        common &= set(mono)
    for atom in sorted(common, key=lambda a: a.order):
        if facts.prove_nonzero(from_terms({(atom,): 1})):
            while all(atom in m for m in terms):
                terms = {_drop_one(m, atom): c for m, c in terms.items()}
    return from_terms(terms)


def divisibility_lessons(d: Expr) -> tuple[list[tuple[str, int]], tuple[Dim, int] | None]:
    """What ``d == 0`` teaches: ``(name, k)`` pairs meaning ``k | name``, and, for ``c*Mod(n, k)
    == 0`` with ``n`` not a scaled symbol, the predicate ``k | n`` to keep as ``(n, k)``."""
    atom = d.terms[0][0][0] if len(d.terms) == 1 and len(d.terms[0][0]) == 1 else None
    if isinstance(atom, ModAtom) and isinstance(atom.den, int):
        found = _scaled_symbol(atom.num)
        if found is None:
            return [], (atom.num, atom.den)
        a, name = found
        return [(name, atom.den // math.gcd(a, atom.den))], None
    lessons: list[tuple[str, int]] = []
    for mono, coeff in d.terms:
        name = as_symbol(from_terms({mono: 1}))
        if name is not None:
            k = content(add(d, from_terms({mono: -coeff})))
            lessons.append((name, k // math.gcd(k, abs(coeff)) if k else 1))
    return lessons, None


def exact_quotient(rest: Dim, by: int) -> Dim:
    """``rest / by`` where ``by`` divides every coefficient of ``rest``."""
    if isinstance(rest, int):
        return rest // by
    return from_terms({m: c // by for m, c in rest.terms})


def _scaled_symbol(d: Dim) -> tuple[int, str] | None:
    """``(a, name)`` when ``d`` is ``a*name``."""
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        name = as_symbol(from_terms({mono: 1}))
        if name is not None:
            return abs(coeff), name
    return None


def _drop_one(mono: Mono, atom: Atom) -> Mono:
    out = list(mono)
    out.remove(atom)
    return tuple(out)


__all__ = ["cancel", "divisibility_lessons", "exact_quotient"]
