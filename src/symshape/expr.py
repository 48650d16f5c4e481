"""Canonical integer expressions over symbols: the algebra every other module builds on.

Levels (JAX's shape_poly layout, minus its trampoline):

* an **atom** is a symbol or an opaque integer function of expressions
  (``floor(n/d)``, ``Mod(n, d)``, ``Max(...)``, ``Min(...)``);
* a **monomial** is a sorted tuple of atoms (repetition means a power);
* an **expression** (`Expr`) is a sorted tuple of ``(monomial, coefficient)`` terms.

A value of type `Dim` is either a plain ``int`` or an `Expr` that is not constant: constants
always come back as ``int``. Atoms and expressions are hash-consed, so structural equality is
object identity and ``==``/``hash`` are the ``object`` defaults (never a semantic answer; ask
`symshape.facts.Facts.prove_eq` for that).

Only simplifications that hold for *all* integer values of the symbols happen here; the ones
that need facts (``(a*b)//b -> a`` when ``b >= 1``) live in `symshape.facts`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Union

Dim = Union[int, "Expr"]
Mono = tuple["Atom", ...]
DimMap = Callable[[Dim], Dim]


class Atom:
    """A symbol or an opaque integer function of expressions; interned, compared by identity.

    ``order`` is the deterministic sort key used to build normal forms.
    """

    __slots__ = ("order", "_str", "_free", "__weakref__")
    order: tuple[int, str]
    _str: str
    _free: frozenset[str]

    def __str__(self) -> str:
        return self._str

    __repr__ = __str__

    @property
    def free(self) -> frozenset[str]:
        """Names of the symbols this atom depends on."""
        return self._free

    def rebuild(self, fn: DimMap) -> Dim:  # pragma: no cover - overridden
        """Rebuild this atom with ``fn`` applied to every child expression."""
        raise NotImplementedError



class Sym(Atom):
    """A named integer symbol (a dimension, or a value only known at run time)."""

    __slots__ = ("name",)
    name: str

    def rebuild(self, fn: DimMap) -> Dim:  # noqa: ARG002 - a symbol has no children
        """A symbol has no children; substitution handles it directly."""
        return _atom_expr(self)


class FloorDiv(Atom):
    """``floor(num / den)`` for integers (den != 0); ceil-div is written through it."""

    __slots__ = ("num", "den")
    num: Dim
    den: Dim

    def rebuild(self, fn: DimMap) -> Dim:
        """Re-simplify after mapping both operands."""
        return floordiv(fn(self.num), fn(self.den))  # type: ignore[operator]


class ModAtom(Atom):
    """``Mod(num, den)`` with floor semantics (result has the sign of ``den``)."""

    __slots__ = ("num", "den")
    num: Dim
    den: Dim

    def rebuild(self, fn: DimMap) -> Dim:
        """Re-simplify after mapping both operands."""
        return mod(fn(self.num), fn(self.den))  # type: ignore[operator]


class MaxAtom(Atom):
    """``Max(args...)``: at least two arguments, no two differ by a constant."""

    __slots__ = ("args",)
    args: tuple[Dim, ...]

    def rebuild(self, fn: DimMap) -> Dim:
        """Re-simplify after mapping every argument."""
        return smax(*(fn(a) for a in self.args))  # type: ignore[operator]


class MinAtom(Atom):
    """``Min(args...)``: at least two arguments, no two differ by a constant."""

    __slots__ = ("args",)
    args: tuple[Dim, ...]

    def rebuild(self, fn: DimMap) -> Dim:
        """Re-simplify after mapping every argument."""
        return smin(*(fn(a) for a in self.args))  # type: ignore[operator]


_ATOMS: dict[tuple[object, ...], Atom] = {}


def _make_atom(cls: type[Atom], key: tuple[object, ...], text: str, free: frozenset[str]) -> Atom:
    atom = _ATOMS.get(key)
    if atom is None:
        atom = object.__new__(cls)
        atom._str = text
        atom._free = free
        atom.order = (0, text) if cls is Sym else (1, text)
        _ATOMS[key] = atom
    return atom


def _free_of(*dims: Dim) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for d in dims:
        if isinstance(d, Expr):
            out = out | d.free
    return out


def _sym_atom(name: str) -> Sym:
    key = ("s", name)
    atom = _ATOMS.get(key)
    if atom is None:
        atom = _make_atom(Sym, key, name, frozenset((name,)))
        atom.name = name  # type: ignore[attr-defined]
    return atom  # type: ignore[return-value]


def _paren(d: Dim) -> str:
    text = str(d)
    if isinstance(d, int):
        return f"({text})" if d < 0 else text
    if len(d.terms) == 1 and d.terms[0][1] == 1 and len(d.terms[0][0]) == 1:
        return text  # a single atom; a product needs parentheses as a denominator
    return f"({text})"


def _binary_atom(cls: type[Atom], tag: str, num: Dim, den: Dim) -> Expr:
    key = (tag, num, den)
    atom = _ATOMS.get(key)
    if atom is None:
        if cls is FloorDiv:
            text = f"floor({_paren(num)}/{_paren(den)})"
        else:
            text = f"Mod({num}, {den})"
        atom = _make_atom(cls, key, text, _free_of(num, den))
        atom.num = num  # type: ignore[attr-defined]
        atom.den = den  # type: ignore[attr-defined]
    return _atom_expr(atom)


def _nary_atom(cls: type[Atom], tag: str, args: tuple[Dim, ...]) -> Expr:
    key = (tag, *args)
    atom = _ATOMS.get(key)
    if atom is None:
        text = f"{tag}({', '.join(str(a) for a in args)})"
        atom = _make_atom(cls, key, text, _free_of(*args))
        atom.args = args  # type: ignore[attr-defined]
    return _atom_expr(atom)


class Expr:
    """A non-constant integer polynomial over atoms, interned.

    ``terms`` is a tuple of ``(monomial, coefficient)`` sorted by `_mono_key`, with no zero
    coefficient; the constant term, if any, has the empty monomial and sorts last.
    """

    __slots__ = ("terms", "_str", "_free", "_atoms", "__weakref__")
    terms: tuple[tuple[Mono, int], ...]

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


_EXPRS: dict[tuple[tuple[Mono, int], ...], Expr] = {}
_MONO_KEYS: dict[Mono, tuple[object, ...]] = {}


def _mono_key(mono: Mono) -> tuple[object, ...]:
    key = _MONO_KEYS.get(mono)
    if key is None:
        # Higher degree first, then atom order; the constant (degree 0) sorts last.
        key = _MONO_KEYS[mono] = (-len(mono), tuple(a.order for a in mono))
    return key


def _intern(terms: tuple[tuple[Mono, int], ...]) -> Expr:
    expr = _EXPRS.get(terms)
    if expr is None:
        expr = object.__new__(Expr)
        expr.terms = terms
        expr._str = None  # type: ignore[assignment]
        expr._free = None  # type: ignore[assignment]
        expr._atoms = None  # type: ignore[assignment]
        _EXPRS[terms] = expr
    return expr


def _atom_expr(atom: Atom) -> Expr:
    return _intern((((atom,), 1),))


def from_terms(terms: Mapping[Mono, int]) -> Dim:
    """Build the canonical `Dim` of a ``{monomial: coefficient}`` map (monomials sorted)."""
    items = [(m, c) for m, c in terms.items() if c]
    if not items:
        return 0
    if len(items) == 1 and not items[0][0]:
        return items[0][1]
    items.sort(key=lambda mc: _mono_key(mc[0]))
    return _intern(tuple(items))


def terms_of(d: Dim) -> dict[Mono, int]:
    """The ``{monomial: coefficient}`` map of ``d`` (a fresh dict the caller may change)."""
    if isinstance(d, int):
        return {(): d} if d else {}
    return dict(d.terms)


def sym(name: str) -> Expr:
    """The expression made of the single symbol ``name``."""
    return _atom_expr(_sym_atom(name))


def as_symbol(d: Dim) -> str | None:
    """The symbol name when ``d`` is exactly one symbol, else None."""
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        if coeff == 1 and len(mono) == 1 and isinstance(mono[0], Sym):
            return mono[0].name
    return None


def add(a: Dim, b: Dim) -> Dim:
    """``a + b``."""
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if isinstance(b, int) and b == 0:
        return a
    if isinstance(a, int) and a == 0:
        return b
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
        return from_terms({m: c * b for m, c in a.terms})
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
    """Write ``d = k*q + r`` term-wise: ``q`` takes the part of each coefficient divisible by
    ``k`` (k > 0), ``r`` the rest (the constant remainder lies in ``[0, k)``)."""
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
        # floor((k*q + r)/k) = q + floor(r/k)
        q, r = _split_multiple(a, b)
        return add(q, _floordiv_rest(r, b))
    if isinstance(a, int) and a == 0:
        return 0
    return _binary_atom(FloorDiv, "f", a, b)


def _floordiv_rest(r: Dim, k: int) -> Dim:
    if isinstance(r, int):
        return r // k
    g = math.gcd(content(r), k)
    if g > 1:  # floor(g*x / (g*m)) = floor(x/m)
        r = from_terms({m: c // g for m, c in r.terms})
        k //= g
        if k == 1:
            return r
    if isinstance(r, Expr) and len(r.terms) == 1 and r.terms[0][1] == 1:
        (atom,) = r.terms[0][0] if len(r.terms[0][0]) == 1 else (None,)
        if isinstance(atom, FloorDiv) and isinstance(atom.den, int) and atom.den > 0:
            return floordiv(atom.num, atom.den * k)  # floor(floor(x/m)/k) = floor(x/(m*k))
    return _binary_atom(FloorDiv, "f", r, k)


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
        if b < 0:
            return mul(mod(mul(a, -1), -b), -1)
        if b == 1:
            return 0
        _, r = _split_multiple(a, b)
        if isinstance(r, int):
            return r
        g = math.gcd(content(r), b)
        if g > 1:  # Mod(g*x, g*m) = g*Mod(x, m)
            inner = from_terms({m: c // g for m, c in r.terms})
            return mul(mod(inner, b // g), g)
        return _binary_atom(ModAtom, "m", r, b)
    if isinstance(a, int) and a == 0:
        return 0
    if a is b:
        return 0
    return _binary_atom(ModAtom, "m", a, b)


def _dim_key(d: Dim) -> tuple[int, object]:
    return (0, d) if isinstance(d, int) else (1, d.key)


def _minmax(args: Iterable[Dim], is_max: bool) -> Dim:
    cls, tag = (MaxAtom, "Max") if is_max else (MinAtom, "Min")
    flat: list[Dim] = []
    for a in args:
        if isinstance(a, Expr) and len(a.terms) == 1 and a.terms[0][1] == 1:
            mono = a.terms[0][0]
            if len(mono) == 1 and type(mono[0]) is cls:
                flat.extend(mono[0].args)  # type: ignore[attr-defined]
                continue
        flat.append(a)
    kept: list[Dim] = []
    for a in flat:
        dominated = False
        for i, k in enumerate(kept):
            diff = add(a, mul(k, -1))
            if isinstance(diff, int):  # a and k differ by a constant: keep the winner
                if (diff > 0) == is_max and diff != 0:
                    kept[i] = a
                dominated = True
                break
        if not dominated:
            kept.append(a)
    if len(kept) == 1:
        return kept[0]
    kept.sort(key=_dim_key)
    return _nary_atom(cls, tag, tuple(kept))


def smax(*args: Dim) -> Dim:
    """``Max(args...)`` (at least one argument)."""
    return _minmax(args, True)


def smin(*args: Dim) -> Dim:
    """``Min(args...)`` (at least one argument)."""
    return _minmax(args, False)


def map_atoms(d: Dim, fn: DimMap) -> Dim:
    """Rebuild ``d`` with ``fn`` applied to each top-level atom (as an expression)."""
    if isinstance(d, int):
        return d
    out: Dim = 0
    for mono, coeff in d.terms:
        term: Dim = coeff
        for atom in mono:
            term = mul(term, fn(_atom_expr(atom)))  # type: ignore[operator]
        out = add(out, term)
    return out


def subs(d: Dim, mapping: Mapping[str, Dim]) -> Dim:
    """Substitute symbols by name, re-simplifying compound atoms."""
    if isinstance(d, int) or not (d.free & mapping.keys()):
        return d

    def one(atom_expr: Dim) -> Dim:
        assert isinstance(atom_expr, Expr)
        atom = atom_expr.terms[0][0][0]
        if isinstance(atom, Sym):
            return mapping.get(atom.name, atom_expr)
        if not (atom.free & mapping.keys()):
            return atom_expr
        return atom.rebuild(lambda child: subs(child, mapping))

    return map_atoms(d, one)


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


def _eval_atom(atom: Atom, env: Mapping[str, int]) -> int:
    if isinstance(atom, Sym):
        return env[atom.name]
    if isinstance(atom, FloorDiv):
        return evaluate(atom.num, env) // evaluate(atom.den, env)
    if isinstance(atom, ModAtom):
        return evaluate(atom.num, env) % evaluate(atom.den, env)
    values = [evaluate(a, env) for a in atom.args]  # type: ignore[attr-defined]
    return max(values) if isinstance(atom, MaxAtom) else min(values)


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
        rest_terms = terms_of(rest)
        m, c = next(iter(sorted(rest_terms.items(), key=lambda mc: _mono_key(mc[0]))))
        qm = _mono_divide(m, lead_m)
        if qm is None or c % lead_c:
            return None
        qc = c // lead_c
        quotient[qm] = quotient.get(qm, 0) + qc
        rest = add(rest, mul(from_terms({qm: -qc}) if qm else -qc, b))
    return None


def _mono_divide(m: Mono, by: Mono) -> Mono | None:
    remaining = list(m)
    for atom in by:
        try:
            remaining.remove(atom)
        except ValueError:
            return None
    return tuple(remaining)


def _format(terms: tuple[tuple[Mono, int], ...]) -> str:
    parts: list[str] = []
    for i, (mono, coeff) in enumerate(terms):
        sign = "-" if coeff < 0 else "+"
        mag = abs(coeff)
        if mono:
            body = _format_mono(mono)
            text = body if mag == 1 else f"{mag}*{body}"
        else:
            text = str(mag)
        if i == 0:
            parts.append(f"-{text}" if sign == "-" else text)
        else:
            parts.append(f" {sign} {text}")
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


def atoms_deep(d: Dim) -> Iterable[Atom]:
    """Every atom in ``d``, including those nested inside compound atoms."""
    if isinstance(d, int):
        return
    for atom in d.atoms:
        yield atom
        if isinstance(atom, (FloorDiv, ModAtom)):
            yield from atoms_deep(atom.num)
            yield from atoms_deep(atom.den)
        elif isinstance(atom, (MaxAtom, MinAtom)):
            for arg in atom.args:
                yield from atoms_deep(arg)


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
