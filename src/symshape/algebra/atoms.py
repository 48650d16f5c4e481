# pyright: strict
"""``Max`` and ``Min`` atoms and their normal form: the lattice operations of the algebra.

They sit above `symshape.algebra.core` because no operator of `Expr` needs them. Normal form (only
identities that hold for all integers): nested ones flatten, of two arguments differing by a
constant only the winner stays (``Max(a, a + 1) -> a + 1``), an argument that is the dual of a
set containing another argument is absorbed (``Max(x, Min(x, y)) -> x``), and the arguments are
sorted by their printed form.
"""

from __future__ import annotations

from collections.abc import Iterable

from symshape.algebra.core import Atom, Dim, DimMap, Expr, add, atom_expr, free_of, init_atom, mul, single_atom
from symshape.algebra.interning import InternTable


class Sym(Atom):
    """A named integer symbol (a dimension, or a value only known at run time)."""

    __slots__ = ("name",)
    name: str
    rank = 0

    def rebuild(self, fn: DimMap) -> Dim:
        """The symbol itself: it has no children."""
        return atom_expr(self)


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

    def rebuild(self, fn: DimMap) -> Dim:
        """``Max`` of ``fn`` of each argument, re-simplified."""
        return smax(*[fn(a) for a in self.args])


class MinAtom(NaryAtom):
    """``Min(args...)``."""

    __slots__ = ()

    def rebuild(self, fn: DimMap) -> Dim:
        """``Min`` of ``fn`` of each argument, re-simplified."""
        return smin(*[fn(a) for a in self.args])


_SYMS: InternTable[str, Sym] = InternTable()
_MAXES: InternTable[tuple[Dim, ...], MaxAtom] = InternTable()
_MINS: InternTable[tuple[Dim, ...], MinAtom] = InternTable()


def sym(name: str) -> Expr:
    """The expression made of the single symbol ``name``."""
    atom = _SYMS.find(name)
    if atom is None:
        atom = _SYMS.add(name, Sym.__new__(Sym))
        atom.name = name
        init_atom(atom, name, frozenset((name,)))
    return atom_expr(atom)


def _nary_atom(is_max: bool, args: tuple[Dim, ...]) -> Expr:
    atom = _MAXES.find(args) if is_max else _MINS.find(args)
    if atom is None:
        atom = _MAXES.add(args, MaxAtom.__new__(MaxAtom)) if is_max else _MINS.add(args, MinAtom.__new__(MinAtom))
        atom.args = args
        tag = "Max" if is_max else "Min"
        init_atom(atom, f"{tag}({', '.join(str(a) for a in args)})", free_of(args))
    return atom_expr(atom)


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
