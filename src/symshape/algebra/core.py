# pyright: strict
"""The representation of integer expressions and the constructors the operators of `Expr` need.

Import from `symshape.algebra.expr`, the public face, whose docstring describes the levels. Here: the
`Atom` base and the atoms an operator builds (`FloorDiv` for ``//``, `ModAtom` for ``%``), the
hash-consed polynomial `Expr`, and ``+ - * // %`` in normal form. A `Dim` is a plain ``int`` or a
non-constant `Expr`: constants always come back as ``int``. Structural equality is object
identity; ``==``/``hash`` are the ``object`` defaults, never a semantic answer (ask
`symshape.engine.facts.Facts.prove_eq`). Only identities that hold for *all* integers happen here.
Normal forms for a constant ``k > 0``:

* ``floor(n/k)``: multiples of ``k`` leave the atom and the constant left inside lies in
  ``[0, k)`` (``floor((4*x + 9)/4) -> x + 2``); a common factor of ``n`` and ``k`` cancels;
  ``floor(floor(x/m)/k) -> floor(x/(m*k))``; the numerator's leading coefficient is positive
  (``floor(-x/k) -> -floor((x + k - 1)/k)``), so floor and ceiling forms of a value meet.
* ``Mod(n, k)``: the same reduction except the sign flip, plus ``Mod(x + c*Mod(y, m), k) ->
  Mod(x + c*y, k)`` when ``k`` divides ``m``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import ClassVar, Union

from symshape.algebra.interning import InternTable
from symshape.algebra.terms import (
    MonoKey,
    coeff_gcd,
    format_terms,
    mono_mul,
    solo_key,
    split_multiple,
    term_key,
)

Dim = Union[int, "Expr"]
Mono = tuple["Atom", ...]
Terms = tuple[tuple[Mono, int], ...]
DimMap = Callable[[Dim], Dim]


class Atom:
    """A symbol or an opaque integer function of expressions; interned, compared by identity.

    ``order`` is the deterministic sort key used to build normal forms (symbols, whose class
    ``rank`` is 0, first; then the printed ``text``), ``solo_key`` the sort key of the monomial of
    this atom alone; ``free`` holds the names of the symbols it depends on.
    """

    __slots__ = ("__weakref__", "free", "order", "solo_key", "text")
    rank: ClassVar[int] = 1
    order: tuple[int, str]
    solo_key: MonoKey
    text: str
    free: frozenset[str]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text

    def children(self) -> tuple[Dim, ...]:
        """The operand expressions of this atom (none for a symbol)."""
        return ()

    def rebuild(self, fn: DimMap) -> Dim:
        """This atom with ``fn`` applied to every child, re-simplified (a symbol stays itself)."""
        raise NotImplementedError(type(self).__name__)


class BinaryAtom(Atom):
    """An atom of a numerator ``num`` and a denominator ``den`` (never literally 0)."""

    __slots__ = ("den", "num")
    num: Dim
    den: Dim

    def children(self) -> tuple[Dim, ...]:
        """``(num, den)``."""
        return (self.num, self.den)


class FloorDiv(BinaryAtom):
    """``floor(num / den)``; ceil-div is written through it."""

    __slots__ = ()

    def rebuild(self, fn: DimMap) -> Dim:
        """``floor(fn(num) / fn(den))``, re-simplified."""
        return floordiv(fn(self.num), fn(self.den))


class ModAtom(BinaryAtom):
    """``Mod(num, den)`` with floor semantics (the result has the sign of ``den``)."""

    __slots__ = ()

    def rebuild(self, fn: DimMap) -> Dim:
        """``Mod(fn(num), fn(den))``, re-simplified."""
        return mod(fn(self.num), fn(self.den))


# One intern table per atom class keeps the lookups typed.
_FLOORS: InternTable[tuple[Dim, Dim], FloorDiv] = InternTable()
_MODS: InternTable[tuple[Dim, Dim], ModAtom] = InternTable()


def init_atom(atom: Atom, text: str, free: frozenset[str]) -> None:
    """Fill in the fields every atom has (its children are set already)."""
    atom.text = text
    atom.free = free
    atom.order = (atom.rank, text)
    atom.solo_key = solo_key(atom.order)


def free_of(dims: Iterable[Dim]) -> frozenset[str]:
    """The symbol names ``dims`` depend on."""
    out: frozenset[str] = frozenset()
    for d in dims:
        if isinstance(d, Expr):
            out = out | d.free
    return out


def _paren(d: Dim) -> str:
    text = str(d)
    if isinstance(d, int):
        return f"({text})" if d < 0 else text
    if len(d.terms) == 1 and d.terms[0][1] == 1 and len(d.terms[0][0]) == 1:
        return text  # a single atom; a product needs parentheses as a denominator
    return f"({text})"


def _floor_atom(num: Dim, den: Dim) -> Expr:
    atom = _FLOORS.find((num, den))
    if atom is None:
        atom = _FLOORS.add((num, den), FloorDiv.__new__(FloorDiv))
        atom.num, atom.den = num, den
        init_atom(atom, f"floor({_paren(num)}/{_paren(den)})", free_of((num, den)))
    return atom_expr(atom)


def _mod_atom(num: Dim, den: Dim) -> Expr:
    atom = _MODS.find((num, den))
    if atom is None:
        atom = _MODS.add((num, den), ModAtom.__new__(ModAtom))
        atom.num, atom.den = num, den
        init_atom(atom, f"Mod({num}, {den})", free_of((num, den)))
    return atom_expr(atom)


class Expr:
    """A non-constant integer polynomial over atoms, interned.

    ``terms`` is a tuple of ``(monomial, coefficient)`` sorted by `mono_key` (higher degree
    first, then atom order), with no zero coefficient; the constant term, if any, has the empty
    monomial and sorts last. ``_str``, ``_free`` and ``_atoms`` are computed on first use.
    """

    __slots__ = ("__weakref__", "_atoms", "_free", "_str", "terms")
    terms: Terms
    _str: str | None
    _free: frozenset[str] | None
    _atoms: frozenset[Atom] | None

    @classmethod
    def interned(cls, terms: Terms) -> Expr:
        """The unique expression with these (already canonical) terms; build with `from_terms`."""
        entry = _EXPRS.get(terms)
        expr = None if entry is None else entry()
        if expr is None:
            expr = _EXPRS.add(terms, cls.__new__(cls))
            expr.terms = terms
            expr._str = expr._free = expr._atoms = None
        return expr

    def __str__(self) -> str:
        text = self._str
        if text is None:
            text = self._str = format_terms(self.terms)
        return text

    def __repr__(self) -> str:
        return str(self)  # as an atom's (and sympy's): a printed shape reads (batch, seq, 32)

    @property
    def free(self) -> frozenset[str]:
        """Names of the symbols this expression depends on."""
        free = self._free
        if free is None:
            out: set[str] = set()
            for atom in self.atoms:
                out |= atom.free
            free = self._free = frozenset(out)
        return free

    @property
    def atoms(self) -> frozenset[Atom]:
        """The atoms at the top level of this expression (not inside other atoms)."""
        atoms = self._atoms
        if atoms is None:
            atoms = self._atoms = frozenset(a for mono, _ in self.terms for a in mono)
        return atoms

    @property
    def key(self) -> str:
        """Deterministic sort key (the printed form)."""
        return str(self)

    # Arithmetic: operands are Dim; results are Dim (int when constant). ``+`` and ``*`` are
    # commutative in normal form, so the reflected ones are the same methods.
    def __add__(self, other: Dim) -> Dim:
        return add(self, other)

    __radd__ = __add__

    def __sub__(self, other: Dim) -> Dim:
        return add(self, mul(other, -1))

    def __rsub__(self, other: Dim) -> Dim:
        return add(other, mul(self, -1))

    def __mul__(self, other: Dim) -> Dim:
        return mul(self, other)

    __rmul__ = __mul__

    def __neg__(self) -> Dim:
        return mul(self, -1)

    def __floordiv__(self, other: Dim) -> Dim:
        return floordiv(self, other)

    def __rfloordiv__(self, other: Dim) -> Dim:
        return floordiv(other, self)

    def __mod__(self, other: Dim) -> Dim:
        return mod(self, other)

    def __rmod__(self, other: Dim) -> Dim:
        return mod(other, self)


_EXPRS: InternTable[Terms, Expr] = InternTable()


def atom_expr(atom: Atom) -> Expr:
    """The expression made of the single atom ``atom``."""
    return Expr.interned((((atom,), 1),))


def from_terms(terms: Mapping[Mono, int]) -> Dim:
    """Build the canonical `Dim` of a ``{monomial: coefficient}`` map (monomials sorted)."""
    items = [(m, c) for m, c in terms.items() if c]
    if not items:
        return 0
    if len(items) == 1:
        if not items[0][0]:
            return items[0][1]
    else:
        items.sort(key=term_key)
    return Expr.interned(tuple(items))


def terms_of(d: Dim) -> dict[Mono, int]:
    """The ``{monomial: coefficient}`` map of ``d`` (a fresh dict the caller may change)."""
    if isinstance(d, int):
        return {(): d} if d else {}
    return dict(d.terms)


def single_atom(d: Dim) -> Atom | None:
    """The atom when ``d`` is exactly one atom with coefficient 1, else None."""
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        if coeff == 1 and len(mono) == 1:
            return mono[0]
    return None


def add(a: Dim, b: Dim) -> Dim:
    """``a + b``."""
    if isinstance(a, int):
        if isinstance(b, int):
            return a + b
        if a == 0:
            return b
    elif isinstance(b, int) and b == 0:
        return a
    acc = terms_of(a)
    for m, c in terms_of(b).items():
        acc[m] = acc.get(m, 0) + c
    return from_terms(acc)


def mul(a: Dim, b: Dim) -> Dim:
    """``a * b``."""
    if isinstance(a, int):
        if isinstance(b, int):
            return a * b
        a, b = b, a
    if isinstance(b, int):
        if b == 0:
            return 0
        if b == 1:
            return a
        return Expr.interned(tuple((m, c * b) for m, c in a.terms))
    acc: dict[Mono, int] = {}
    for m1, c1 in a.terms:
        for m2, c2 in b.terms:
            m = mono_mul(m1, m2)
            acc[m] = acc.get(m, 0) + c1 * c2
    return from_terms(acc)


def _split_multiple(d: Dim, k: int) -> tuple[Dim, Dim]:
    """``d = k*q + r`` with ``r``'s constant in ``[0, k)`` (see `split_multiple`)."""
    q, r = split_multiple(terms_of(d), k)
    return from_terms(q), from_terms(r)


def _divide_content(d: Expr, g: int) -> Dim:
    return from_terms({m: c // g for m, c in d.terms})


def floordiv(a: Dim, b: Dim) -> Dim:
    """``floor(a / b)``; raises ZeroDivisionError for a literal zero divisor."""
    if isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("floordiv by 0")
        if isinstance(a, int):
            return a // b
        if b < 0:
            return floordiv(mul(a, -1), -b)
        if b == 1:
            return a
        q, r = _split_multiple(a, b)  # floor((k*q + r)/k) = q + floor(r/k)
        return add(q, _floordiv_rest(r, b))
    if isinstance(a, int) and a == 0:
        return 0
    return _floor_atom(a, b)


def _floordiv_rest(r: Dim, k: int) -> Dim:
    if isinstance(r, int):
        return r // k
    if r.terms[0][1] < 0:  # floor(-x/k) = -floor((x + k - 1)/k): leading coefficient > 0
        return mul(floordiv(add(mul(r, -1), k - 1), k), -1)
    g = math.gcd(coeff_gcd(r.terms), k)
    if g > 1:  # floor(g*x / (g*m)) = floor(x/m)
        r, k = _divide_content(r, g), k // g
        if k == 1 or isinstance(r, int):
            return floordiv(r, k)
    inner = single_atom(r)
    if isinstance(inner, FloorDiv) and isinstance(inner.den, int) and inner.den > 0:
        return floordiv(inner.num, inner.den * k)  # floor(floor(x/m)/k) = floor(x/(m*k))
    return _floor_atom(r, k)


def mod(a: Dim, b: Dim) -> Dim:
    """``Mod(a, b)`` with floor semantics; raises ZeroDivisionError for a literal zero."""
    if isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("Mod by 0")
        if isinstance(a, int):
            return a % b
        if b < 0:  # Mod(a, -k) = -Mod(-a, k)
            return mul(mod(mul(a, -1), -b), -1)
        return _mod_const(a, b)
    if isinstance(a, int) and a == 0:
        return 0
    if a is b:
        return 0
    return _mod_atom(a, b)


def _mod_const(a: Expr, k: int) -> Dim:
    if k == 1:
        return 0
    _, r = _split_multiple(_drop_inner_mods(a, k), k)
    if isinstance(r, int):
        return r
    g = math.gcd(coeff_gcd(r.terms), k)
    if g > 1:  # Mod(g*x, g*m) = g*Mod(x, m)
        return mul(mod(_divide_content(r, g), k // g), g)
    return _mod_atom(r, k)


def _drop_inner_mods(a: Expr, k: int) -> Dim:
    """``c*Mod(y, m) -> c*y`` inside ``Mod(., k)`` when ``k | m`` (they differ by a multiple of k)."""
    out: Dim = a
    for mono, coeff in a.terms:
        inner = mono[0] if len(mono) == 1 else None
        if isinstance(inner, ModAtom) and isinstance(inner.den, int) and inner.den % k == 0:
            out = add(out, mul(add(inner.num, mul(atom_expr(inner), -1)), coeff))
    return out
