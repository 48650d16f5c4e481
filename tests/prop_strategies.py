"""Shared pieces for the property tests (the ``test_*_property.py`` modules of tests/algebra/ and
tests/engine/, and the parser's fuzz and round trip): bounded random facts with their brute-force
assignments, expression trees over them, and a derandomized hypothesis profile.

The oracle stays the one of ``tests/_expr_trees.py``: a tree is evaluated with plain Python
integers (`naive`), never through the canonical form. What this module adds is *finite* facts, so
a claim can be checked against every assignment that satisfies them (brute force), and trees whose
denominators are arbitrary subtrees (possibly negative or zero at some points: such points are
skipped, since the expression is undefined there).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import settings
from hypothesis import strategies as st

from symshape.algebra.expr import Dim
from symshape.engine.facts import Facts
from tests._expr_trees import Tree, build, naive

# Every property test here is derandomized: the same examples on every run (and in CI), and the
# whole set stays within its runtime budget.
PROP = settings(derandomize=True, deadline=None, max_examples=150, database=None)

NAMES = ("x", "y", "z")
Env = dict[str, int]


@dataclass(frozen=True)
class Spec:
    """Finite facts for each symbol: ``lo <= s <= hi`` and ``divisor | s``."""

    ranges: tuple[tuple[str, int, int, int], ...]  # (name, lo, hi, divisor)

    def facts(self) -> Facts:
        """A fresh `Facts` holding exactly this spec."""
        f = Facts()
        for name, lo, hi, div in self.ranges:
            f.restrict(name, lo=lo, hi=hi, divisor=div)
        return f

    def values(self, name: str) -> list[int]:
        """Every value ``name`` may take under the spec."""
        for n, lo, hi, div in self.ranges:
            if n == name:
                return [v for v in range(lo, hi + 1) if v % div == 0]
        raise KeyError(name)

    def envs(self) -> list[Env]:
        """Every assignment satisfying the spec (the brute-force domain)."""
        names = [r[0] for r in self.ranges]
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*map(self.values, names))]

    def __str__(self) -> str:
        return ", ".join(f"{n} in [{lo}, {hi}]" + (f" and {d} | {n}" if d > 1 else "") for n, lo, hi, d in self.ranges)


@st.composite
def specs(draw: st.DrawFn, names: tuple[str, ...] = NAMES, width: int = 6) -> Spec:
    """Random finite facts: each symbol gets a small range (maybe negative) and maybe a divisor,
    always with at least one admitted value."""
    ranges: list[tuple[str, int, int, int]] = []
    for name in names:
        lo = draw(st.integers(-5, 4))
        hi = lo + draw(st.integers(0, width))
        div = draw(st.sampled_from([1, 1, 1, 2, 3]))
        if not any(v % div == 0 for v in range(lo, hi + 1)):
            div = 1
        ranges.append((name, lo, hi, div))
    return Spec(tuple(ranges))


# ------------------------------------------------------------------ trees over NAMES
sym_leaves = st.sampled_from(NAMES).map(lambda n: ("sym", n))
leaves = st.one_of(sym_leaves, st.integers(-4, 6).map(lambda k: ("int", k)))
const_dens = st.sampled_from([1, 2, 3, 4, -1, -2, -3]).map(lambda k: ("int", k))


def _extend(children: st.SearchStrategy[Tree]) -> st.SearchStrategy[Tree]:
    return st.one_of(
        st.tuples(st.sampled_from(["add", "sub", "mul"]), children, children),
        st.tuples(st.just("neg"), children),
        st.tuples(st.sampled_from(["fdiv", "mod", "cdiv"]), children, const_dens),
        st.tuples(st.sampled_from(["fdiv", "mod", "cdiv"]), children, children),
        st.tuples(st.sampled_from(["max", "min"]), children, children),
        st.tuples(st.sampled_from(["max", "min"]), children, children, children),
    )


# Denominators may be any subtree: building one that is literally 0 raises ZeroDivisionError
# (`buildable` filters those), and points where a denominator is 0 are skipped by `values_of`.
any_trees = st.recursive(leaves, _extend, max_leaves=8)
polys = st.recursive(leaves, lambda c: st.tuples(st.sampled_from(["add", "sub", "mul"]), c, c), max_leaves=6)


def try_build(tree: Tree) -> Dim | None:
    """The canonical Dim of ``tree``, or None when the constructors reject a literal zero divisor."""
    try:
        return build(tree)
    except ZeroDivisionError:
        return None


def defined_at(tree: Tree, env: Env) -> int | None:
    """The naive value of ``tree`` at ``env``, or None where a denominator is 0 (undefined)."""
    try:
        return naive(tree, env)
    except ZeroDivisionError:
        return None


def values_of(tree: Tree, envs: Iterable[Env]) -> Iterator[tuple[Env, int]]:
    """``(env, value)`` for every assignment in ``envs`` where ``tree`` is defined."""
    for env in envs:
        value = defined_at(tree, env)
        if value is not None:
            yield env, value


def holds(rel: str, lhs: int, rhs: int) -> bool:
    """``lhs rel rhs`` for the relations the graph keeps (``divisible`` means ``rhs | lhs``)."""
    if rel == "divisible":
        return lhs == 0 if rhs == 0 else lhs % rhs == 0
    table = {"==": lhs == rhs, "<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs, "!=": lhs != rhs}
    return table[rel]


# ------------------------------------------------------------------ an independent text evaluator
class _Names(dict[str, object]):
    """Python's eval namespace: the functions of the dim syntax, and a value for every symbol."""

    def __init__(self, env: Env) -> None:
        super().__init__(
            floor=lambda v: math.floor(v),
            ceiling=lambda v: math.ceil(v),
            ceil=lambda v: math.ceil(v),
            Max=lambda *v: max(v),
            max=lambda *v: max(v),
            Min=lambda *v: min(v),
            min=lambda *v: min(v),
            Mod=lambda n, d: n % d,
        )
        self.env = env

    def __missing__(self, name: str) -> object:
        return Fraction(name_value(name, self.env))


def name_value(name: str, env: Env) -> int:
    """The value of symbol ``name``: from ``env``, else a fixed small value derived from the name
    (fuzzed text makes up names such as ``xfloor``)."""
    return env[name] if name in env else sum(map(ord, name)) % 11 - 5


def python_value(text: str, env: Env) -> Fraction | None:
    """``text`` evaluated by Python with exact rational arithmetic, or None where Python cannot
    (a syntax Python does not share, such as ``007``, or a division by 0 at ``env``)."""
    try:
        value = eval(text, {"__builtins__": {}}, _Names(env))  # the oracle: Python's own arithmetic
    except (SyntaxError, ZeroDivisionError, TypeError, AttributeError):
        return None
    if not isinstance(value, int | Fraction):  # a bare function name, which we read as a symbol
        return None
    return Fraction(value)
