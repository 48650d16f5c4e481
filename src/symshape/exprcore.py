# pyright: strict
"""The canonical form of integer expressions: atoms, monomials, hash-consed polynomials.

`symshape.expr` is the public face of the algebra (import from there); this module holds the
representation and the constructors that keep it canonical, `symshape.expr` the operations over
whole expressions (substitute, evaluate, divide, expand). Levels (JAX's shape_poly layout):

* an **atom** (`Atom`) is a symbol (`Sym`) or an opaque integer function of expressions:
  `FloorDiv` ``floor(n/d)``, `ModAtom` ``Mod(n, d)``, `MaxAtom` and `MinAtom`;
* a **monomial** (`Mono`) is a sorted tuple of atoms (repetition means a power);
* an **expression** (`Expr`) is a sorted tuple of ``(monomial, coefficient)`` terms.

A `Dim` is a plain ``int`` or a non-constant `Expr`: constants always come back as ``int``. Atoms
and expressions are hash-consed, so structural equality is object identity and ``==``/``hash``
are the ``object`` defaults, never a semantic answer (ask `symshape.facts.Facts.prove_eq`).

Only identities that hold for *all* integers happen here. Normal forms for a constant ``k > 0``:

* ``floor(n/k)``: multiples of ``k`` leave the atom and the constant left inside lies in
  ``[0, k)`` (``floor((4*x + 9)/4) -> x + 2``); a common factor of ``n`` and ``k`` cancels;
  ``floor(floor(x/m)/k) -> floor(x/(m*k))``; the numerator's leading coefficient is positive
  (``floor(-x/k) -> -floor((x + k - 1)/k)``), so floor and ceiling forms of a value meet.
* ``Mod(n, k)``: the same reduction except the sign flip, plus ``Mod(x + c*Mod(y, m), k) ->
  Mod(x + c*y, k)`` when ``k`` divides ``m``.
* ``Max``/``Min``: nested ones flatten, and of two arguments differing by a constant only the
  winner stays (``Max(a, a + 1) -> a + 1``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Union

Dim = Union[int, "Expr"]
Mono = tuple["Atom", ...]
Terms = tuple[tuple[Mono, int], ...]
DimMap = Callable[[Dim], Dim]


class Atom:
    """A symbol or an opaque integer function of expressions; interned, compared by identity.

    ``order`` is the deterministic sort key used to build normal forms (symbols first, then the
    printed ``text``); ``free`` holds the names of the symbols it depends on.
    """

    __slots__ = ("__weakref__", "free", "order", "text")
    order: tuple[int, str]
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
        kids = [fn(c) for c in self.children()]
        if isinstance(self, FloorDiv):
            return floordiv(kids[0], kids[1])
        if isinstance(self, ModAtom):
            return mod(kids[0], kids[1])
        if isinstance(self, MaxAtom):
            return smax(*kids)
        if isinstance(self, MinAtom):
            return smin(*kids)
        return atom_expr(self)


class Sym(Atom):
    """A named integer symbol (a dimension, or a value only known at run time)."""

    __slots__ = ("name",)
    name: str


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


class ModAtom(BinaryAtom):
    """``Mod(num, den)`` with floor semantics (the result has the sign of ``den``)."""

    __slots__ = ()


class NaryAtom(Atom):
    """An atom over ``args``: at least two, sorted, no two differing by a constant."""

    __slots__ = ("args",)
    args: tuple[Dim, ...]

    def children(self) -> tuple[Dim, ...]:
        """The arguments."""
        return self.args


class MaxAtom(NaryAtom):
    """``Max(args...)``."""

    __slots__ = ()


class MinAtom(NaryAtom):
    """``Min(args...)``."""

    __slots__ = ()


# One intern table per atom class keeps the lookups typed.
_SYMS: dict[str, Sym] = {}
_FLOORS: dict[tuple[Dim, Dim], FloorDiv] = {}
_MODS: dict[tuple[Dim, Dim], ModAtom] = {}
_MAXES: dict[tuple[Dim, ...], MaxAtom] = {}
_MINS: dict[tuple[Dim, ...], MinAtom] = {}


def _init_atom(atom: Atom, text: str, free: frozenset[str]) -> None:
    atom.text = text
    atom.free = free
    atom.order = (0, text) if isinstance(atom, Sym) else (1, text)


def _free_of(dims: Iterable[Dim]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for d in dims:
        if isinstance(d, Expr):
            out = out | d.free
    return out


def _sym_atom(name: str) -> Sym:
    atom = _SYMS.get(name)
    if atom is None:
        atom = _SYMS[name] = Sym.__new__(Sym)
        atom.name = name
        _init_atom(atom, name, frozenset((name,)))
    return atom


def _paren(d: Dim) -> str:
    text = str(d)
    if isinstance(d, int):
        return f"({text})" if d < 0 else text
    if len(d.terms) == 1 and d.terms[0][1] == 1 and len(d.terms[0][0]) == 1:
        return text  # a single atom; a product needs parentheses as a denominator
    return f"({text})"


def _floor_atom(num: Dim, den: Dim) -> Expr:
    atom = _FLOORS.get((num, den))
    if atom is None:
        atom = _FLOORS[num, den] = FloorDiv.__new__(FloorDiv)
        atom.num, atom.den = num, den
        _init_atom(atom, f"floor({_paren(num)}/{_paren(den)})", _free_of((num, den)))
    return atom_expr(atom)


def _mod_atom(num: Dim, den: Dim) -> Expr:
    atom = _MODS.get((num, den))
    if atom is None:
        atom = _MODS[num, den] = ModAtom.__new__(ModAtom)
        atom.num, atom.den = num, den
        _init_atom(atom, f"Mod({num}, {den})", _free_of((num, den)))
    return atom_expr(atom)


def _nary_atom(is_max: bool, args: tuple[Dim, ...]) -> Expr:
    table: dict[tuple[Dim, ...], MaxAtom] | dict[tuple[Dim, ...], MinAtom] = _MAXES if is_max else _MINS
    atom = table.get(args)
    if atom is None:
        atom = MaxAtom.__new__(MaxAtom) if is_max else MinAtom.__new__(MinAtom)
        atom.args = args
        tag = "Max" if is_max else "Min"
        _init_atom(atom, f"{tag}({', '.join(str(a) for a in args)})", _free_of(args))
        if isinstance(atom, MaxAtom):
            _MAXES[args] = atom
        else:
            _MINS[args] = atom
    return atom_expr(atom)


class Expr:
    """A non-constant integer polynomial over atoms, interned.

    ``terms`` is a tuple of ``(monomial, coefficient)`` sorted by `_mono_key` (higher degree
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
        expr = _EXPRS.get(terms)
        if expr is None:
            expr = _EXPRS[terms] = cls.__new__(cls)
            expr.terms = terms
            expr._str = expr._free = expr._atoms = None
        return expr

    def __str__(self) -> str:
        text = self._str
        if text is None:
            text = self._str = _format(self.terms)
        return text

    def __repr__(self) -> str:
        return f"Expr({self})"

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

    # Arithmetic: operands are Dim; results are Dim (int when constant).
    def __add__(self, other: Dim) -> Dim:
        return add(self, other)

    def __radd__(self, other: Dim) -> Dim:
        return add(other, self)

    def __sub__(self, other: Dim) -> Dim:
        return add(self, mul(other, -1))

    def __rsub__(self, other: Dim) -> Dim:
        return add(other, mul(self, -1))

    def __mul__(self, other: Dim) -> Dim:
        return mul(self, other)

    def __rmul__(self, other: Dim) -> Dim:
        return mul(other, self)

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


_EXPRS: dict[Terms, Expr] = {}
_MONO_KEYS: dict[Mono, tuple[int, tuple[tuple[int, str], ...]]] = {}


def mono_key(mono: Mono) -> tuple[int, tuple[tuple[int, str], ...]]:
    """The sort key of a monomial in an `Expr`'s terms."""
    key = _MONO_KEYS.get(mono)
    if key is None:
        # Higher degree first, then atom order; the constant (degree 0) sorts last.
        key = _MONO_KEYS[mono] = (-len(mono), tuple(a.order for a in mono))
    return key


def atom_expr(atom: Atom) -> Expr:
    """The expression made of the single atom ``atom``."""
    return Expr.interned((((atom,), 1),))


def from_terms(terms: Mapping[Mono, int]) -> Dim:
    """Build the canonical `Dim` of a ``{monomial: coefficient}`` map (monomials sorted)."""
    items = [(m, c) for m, c in terms.items() if c]
    if not items:
        return 0
    if len(items) == 1 and not items[0][0]:
        return items[0][1]
    items.sort(key=lambda mc: mono_key(mc[0]))
    return Expr.interned(tuple(items))


def terms_of(d: Dim) -> dict[Mono, int]:
    """The ``{monomial: coefficient}`` map of ``d`` (a fresh dict the caller may change)."""
    if isinstance(d, int):
        return {(): d} if d else {}
    return dict(d.terms)


def sym(name: str) -> Expr:
    """The expression made of the single symbol ``name``."""
    return atom_expr(_sym_atom(name))


def single_atom(d: Dim) -> Atom | None:
    """The atom when ``d`` is exactly one atom with coefficient 1, else None."""
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        if coeff == 1 and len(mono) == 1:
            return mono[0]
    return None


def as_symbol(d: Dim) -> str | None:
    """The symbol name when ``d`` is exactly one symbol, else None."""
    atom = single_atom(d)
    return atom.name if isinstance(atom, Sym) else None


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


def _mono_mul(m1: Mono, m2: Mono) -> Mono:
    if not m1:
        return m2
    if not m2:
        return m1
    return tuple(sorted(m1 + m2, key=lambda a: a.order))


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
            m = _mono_mul(m1, m2)
            acc[m] = acc.get(m, 0) + c1 * c2
    return from_terms(acc)


def product(dims: Iterable[Dim]) -> Dim:
    """The product of ``dims`` (1 for none)."""
    out: Dim = 1
    for d in dims:
        out = mul(out, d)
    return out


def content(d: Dim) -> int:
    """The gcd of all coefficients (``|d|`` for a constant, 0 for 0)."""
    if isinstance(d, int):
        return abs(d)
    g = 0
    for _, c in d.terms:
        g = math.gcd(g, c)
    return g


def _split_multiple(d: Dim, k: int) -> tuple[Dim, Dim]:
    """``d = k*q + r`` term-wise (k > 0): ``q`` gets each coefficient divisible by ``k``, ``r``
    the rest; the constant remainder lies in ``[0, k)``."""
    q: dict[Mono, int] = {}
    r: dict[Mono, int] = {}
    for m, c in terms_of(d).items():
        if not m:
            q[m], r[m] = divmod(c, k)
        elif c % k == 0:
            q[m] = c // k
        else:
            r[m] = c
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
    g = math.gcd(content(r), k)
    if g > 1:  # floor(g*x / (g*m)) = floor(x/m)
        r, k = _divide_content(r, g), k // g
        if k == 1 or isinstance(r, int):
            return floordiv(r, k)
    inner = single_atom(r)
    if isinstance(inner, FloorDiv) and isinstance(inner.den, int) and inner.den > 0:
        return floordiv(inner.num, inner.den * k)  # floor(floor(x/m)/k) = floor(x/(m*k))
    return _floor_atom(r, k)


def ceildiv(a: Dim, b: Dim) -> Dim:
    """``ceil(a / b)``, written through floordiv: ``floor((a + b - 1)/b)`` for ``b > 0``."""
    if isinstance(b, int) and b > 0:
        return floordiv(add(a, b - 1), b)
    return mul(floordiv(mul(a, -1), b), -1)


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
    g = math.gcd(content(r), k)
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


def _dim_key(d: Dim) -> tuple[int, int, str]:
    return (0, d, "") if isinstance(d, int) else (1, 0, d.key)


def _minmax(args: Iterable[Dim], is_max: bool) -> Dim:
    cls = MaxAtom if is_max else MinAtom
    flat: list[Dim] = []
    for a in args:
        inner = single_atom(a)
        if isinstance(inner, cls):
            flat.extend(inner.args)
        else:
            flat.append(a)
    kept: list[Dim] = []
    for a in flat:
        for i, k in enumerate(kept):
            diff = add(a, mul(k, -1))
            if isinstance(diff, int):  # a and k differ by a constant: keep the winner
                if diff != 0 and (diff > 0) == is_max:
                    kept[i] = a
                break
        else:
            kept.append(a)
    if not kept:
        raise ValueError("Max/Min of no arguments")
    kept = _absorb(kept, MinAtom if is_max else MaxAtom)
    if len(kept) == 1:
        return kept[0]
    kept.sort(key=_dim_key)
    return _nary_atom(is_max, tuple(kept))


def _absorb(args: list[Dim], dual: type[NaryAtom]) -> list[Dim]:
    """Absorption: ``Max(x, Min(x, y)) -> x`` and ``Min(x, Max(x, y)) -> x``."""
    members = set(args)
    out: list[Dim] = []
    for a in args:
        inner = single_atom(a)
        if not (isinstance(inner, dual) and any(x in members for x in inner.args)):
            out.append(a)
    return out


def smax(*args: Dim) -> Dim:
    """``Max(args...)`` (at least one argument)."""
    return _minmax(args, True)


def smin(*args: Dim) -> Dim:
    """``Min(args...)`` (at least one argument)."""
    return _minmax(args, False)


def _format(terms: Terms) -> str:
    parts: list[str] = []
    for i, (mono, coeff) in enumerate(terms):
        mag = abs(coeff)
        if mono:
            body = _format_mono(mono)
            text = body if mag == 1 else f"{mag}*{body}"
        else:
            text = str(mag)
        if i == 0:
            parts.append(f"-{text}" if coeff < 0 else text)
        else:
            parts.append(f" {'-' if coeff < 0 else '+'} {text}")
    return "".join(parts)


def _format_mono(mono: Mono) -> str:
    pieces: list[str] = []
    i = 0
    while i < len(mono):
        j = i
        while j < len(mono) and mono[j] is mono[i]:
            j += 1
        text = str(mono[i])
        pieces.append(text if j - i == 1 else f"{text}**{j - i}")
        i = j
    return "*".join(pieces)
