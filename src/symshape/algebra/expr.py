# pyright: strict
"""Canonical integer expressions over symbols: the algebra every other module builds on.

Import the algebra from here. Levels (JAX's shape_poly layout):

* an **atom** (`Atom`) is a symbol (`Sym`) or an opaque integer function of expressions:
  `FloorDiv` ``floor(n/d)``, `ModAtom` ``Mod(n, d)``, `MaxAtom` and `MinAtom`;
* a **monomial** (`Mono`) is a sorted tuple of atoms (repetition means a power);
* an **expression** (`Expr`) is a sorted tuple of ``(monomial, coefficient)`` terms.

A `Dim` is a plain ``int`` or a non-constant `Expr`: constants always come back as ``int``. Atoms
and expressions are hash-consed (held weakly, so unused ones are freed), so structural equality
is object identity. The modules, bottom up, each importing only those before it:
`symshape.algebra.interning` (weak intern tables), `symshape.algebra.terms` (monomials and term maps over
any ordered atoms, printing), `symshape.algebra.core` (the `Atom` base, `Expr`, and ``+ - * // %`` in
normal form: read its docstring for the floor and mod normal forms), `symshape.algebra.atoms`
(symbols, ``Max``/``Min``), and this module, which re-exports them and adds the operations over
whole expressions: `subs`, `evaluate`, `map_atoms`, `exact_div`, `expand_mod`, `atoms_deep`,
`degree_in`. It never imports `symshape.engine.facts` (decisions live there): only identities valid for
*all* integers happen here.

Decision on ``Mod``: it stays an atom. It prints as ``Mod(n, 8)`` (the dim_param convention of
onnxruntime's symbolic shape inference) and has tight bounds ``[0, k - 1]``. Rewriting every
``Mod(n, k)`` as ``n - k*floor(n/k)`` would change every printed pad or remainder dim and lose
those bounds (``n - k*floor(n/k)`` over intervals is unbounded). Instead `expand_mod` writes Mod
atoms as floors, `symshape.engine.facts.Facts.prove_eq` compares both sides in that form (so
``Mod(n, k) == n - k*floor(n/k)`` and ``H + Mod(-H, w) == w*ceil(H/w)`` are proven), and
`symshape.engine.facts.Facts.simplify` contracts ``n - k*floor(n/k)`` back to ``Mod(n, k)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from weakref import WeakKeyDictionary

from symshape.algebra.atoms import MaxAtom, MinAtom, NaryAtom, Sym, smax, smin, sym
from symshape.algebra.core import (
    Atom,
    BinaryAtom,
    Dim,
    DimMap,
    Expr,
    FloorDiv,
    ModAtom,
    Mono,
    Terms,
    add,
    atom_expr,
    floordiv,
    from_terms,
    mod,
    mul,
    single_atom,
    terms_of,
)
from symshape.algebra.terms import coeff_gcd, mono_key

__all__ = [
    "Atom",
    "BinaryAtom",
    "Dim",
    "DimMap",
    "Expr",
    "FloorDiv",
    "MaxAtom",
    "MinAtom",
    "ModAtom",
    "Mono",
    "NaryAtom",
    "Sym",
    "Terms",
    "add",
    "as_symbol",
    "atoms_deep",
    "ceildiv",
    "content",
    "degree_in",
    "evaluate",
    "evaluate_defined",
    "exact_div",
    "expand_mod",
    "floordiv",
    "from_terms",
    "map_atoms",
    "mod",
    "mul",
    "product",
    "single_atom",
    "smax",
    "smin",
    "subs",
    "sym",
    "terms_of",
]


def as_symbol(d: Dim) -> str | None:
    """The symbol name when ``d`` is exactly one symbol, else None."""
    atom = single_atom(d)
    return atom.name if isinstance(atom, Sym) else None


def product(dims: Iterable[Dim]) -> Dim:
    """The product of ``dims`` (1 for none)."""
    out: Dim = 1
    for d in dims:
        out = mul(out, d)
    return out


def ceildiv(a: Dim, b: Dim) -> Dim:
    """``ceil(a / b)``, written through floordiv: ``floor((a + b - 1)/b)`` for ``b > 0``."""
    if isinstance(b, int) and b > 0:
        return floordiv(add(a, b - 1), b)
    return mul(floordiv(mul(a, -1), b), -1)


def content(d: Dim) -> int:
    """The gcd of all coefficients (``|d|`` for a constant, 0 for 0)."""
    return abs(d) if isinstance(d, int) else coeff_gcd(d.terms)


def map_atoms(d: Dim, fn: DimMap) -> Dim:
    """Rebuild ``d`` with ``fn`` applied to each top-level atom (as an expression)."""
    if isinstance(d, int):
        return d
    out: Dim = 0
    for mono, coeff in d.terms:
        term: Dim = coeff
        for atom in mono:
            term = mul(term, fn(atom_expr(atom)))
        out = add(out, term)
    return out


def _mentions(free: frozenset[str], mapping: Mapping[str, Dim]) -> bool:
    """Whether any name in ``free`` is a key of ``mapping`` (``free & keys()`` copies the keys)."""
    return any(name in mapping for name in free)


def subs(d: Dim, mapping: Mapping[str, Dim]) -> Dim:
    """Substitute symbols by name, re-simplifying compound atoms."""
    if isinstance(d, int) or not _mentions(d.free, mapping):
        return d

    def one(atom_expr: Dim) -> Dim:
        atom = single_atom(atom_expr)
        if isinstance(atom, Sym):
            return mapping.get(atom.name, atom_expr)
        if atom is None or not _mentions(atom.free, mapping):
            return atom_expr
        return atom.rebuild(lambda child: subs(child, mapping))

    return map_atoms(d, one)


def free_symbols(d: Dim) -> frozenset[str]:
    """The symbol names in ``d`` (none for an int)."""
    return d.free if isinstance(d, Expr) else frozenset()


def evaluate(d: Dim, env: Mapping[str, int]) -> int:
    """The integer value of ``d`` under ``env`` (KeyError for a missing symbol)."""
    if isinstance(d, int):
        return d
    total = 0
    for mono, coeff in d.terms:
        value = coeff
        for atom in mono:
            value *= _eval_atom(atom, env)
        total += value
    return total


def evaluate_defined(d: Dim, env: Mapping[str, int]) -> int | None:
    """`evaluate`, or None where ``d`` has no value (a division by 0) or ``env`` misses a symbol."""
    try:
        return evaluate(d, env)
    except (ZeroDivisionError, KeyError):
        return None


def _eval_atom(atom: Atom, env: Mapping[str, int]) -> int:
    if isinstance(atom, Sym):
        return env[atom.name]
    if isinstance(atom, FloorDiv):
        return evaluate(atom.num, env) // evaluate(atom.den, env)
    if isinstance(atom, ModAtom):
        return evaluate(atom.num, env) % evaluate(atom.den, env)
    values = [evaluate(a, env) for a in atom.children()]
    return max(values) if isinstance(atom, MaxAtom) else min(values)


def expand_mod(d: Dim) -> Dim:
    """``d`` with every ``Mod(n, m)`` (at any depth) written as ``n - m*floor(n/m)``.

    An identity for every ``m != 0``; `symshape.engine.facts.Facts.prove_eq` decides in this form.
    """
    if isinstance(d, int) or not any(_has_mod(a) for a in d.atoms):
        return d
    done = _EXPANDED.get(d)
    if done is None:
        done = _EXPANDED[d] = map_atoms(d, _expand_atom)
    return done


# Weak keys: an entry goes with its expression (its value, which has no Mod, never holds it).
_EXPANDED: WeakKeyDictionary[Expr, Dim] = WeakKeyDictionary()


def _has_mod(atom: Atom) -> bool:
    return isinstance(atom, ModAtom) or any(
        isinstance(c, Expr) and any(_has_mod(a) for a in c.atoms) for c in atom.children()
    )


def _expand_atom(atom_expr: Dim) -> Dim:
    atom = single_atom(atom_expr)
    if atom is None or not _has_mod(atom):
        return atom_expr
    if isinstance(atom, ModAtom):
        num, den = expand_mod(atom.num), expand_mod(atom.den)
        return add(num, mul(mul(den, floordiv(num, den)), -1))
    return atom.rebuild(expand_mod)


def exact_div(a: Dim, b: Dim) -> Dim | None:
    """``q`` with ``q * b == a`` identically, or None when no polynomial quotient exists.

    Multivariate long division by the leading term; it is exact, so a non-None answer is
    always a true identity (it may miss quotients that need a different term order).
    """
    if isinstance(b, int):
        if b == 0:
            return None
        if isinstance(a, int):
            return a // b if a % b == 0 else None
        return from_terms({m: c // b for m, c in a.terms}) if content(a) % b == 0 else None
    if isinstance(a, int) and a == 0:
        return 0
    lead_m, lead_c = b.terms[0]
    quotient: dict[Mono, int] = {}
    rest = a
    for _ in range(64):
        if isinstance(rest, int) and rest == 0:
            return from_terms(quotient)
        m, c = min(terms_of(rest).items(), key=lambda mc: mono_key(mc[0]))
        qm = _mono_divide(m, lead_m)
        if qm is None or c % lead_c:
            return None
        qc = c // lead_c
        quotient[qm] = quotient.get(qm, 0) + qc
        rest = add(rest, mul(from_terms({qm: -qc}), b))
    return None


def _mono_divide(m: Mono, by: Mono) -> Mono | None:
    remaining = list(m)
    for atom in by:
        if atom not in remaining:
            return None
        remaining.remove(atom)
    return tuple(remaining)


def atoms_deep(d: Dim) -> Iterator[Atom]:
    """Every atom in ``d``, including those nested inside compound atoms (in a stable order)."""
    if isinstance(d, int):
        return
    seen: set[Atom] = set()
    for mono, _ in d.terms:
        for atom in mono:
            if atom not in seen:
                seen.add(atom)
                yield atom
                for child in atom.children():
                    yield from atoms_deep(child)


def degree_in(d: Dim, name: str) -> tuple[int, Dim] | None:
    """If ``name`` occurs in ``d`` only as a top-level linear term ``c*name``, return
    ``(c, d - c*name)``; else None."""
    if isinstance(d, int):
        return None
    coeff = 0
    rest: dict[Mono, int] = {}
    for mono, c in d.terms:
        if len(mono) == 1 and isinstance(mono[0], Sym) and mono[0].name == name:
            coeff = c
            continue
        for atom in mono:
            if name in atom.free:
                return None
        rest[mono] = c
    if coeff == 0:
        return None
    return coeff, from_terms(rest)
