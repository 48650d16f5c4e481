"""Random construction trees for the algebra tests, with a naive evaluator as the oracle.

A tree is a nested tuple: ``("sym", name)``, ``("int", k)``, ``(op, child, ...)``. `build` makes
the canonical `Dim` through symshape's constructors; `naive` evaluates the *tree* with plain
Python integers, never looking at the canonical form, so the two are independent.

Symbols ``a``, ``b``, ``c`` take any integer; ``d`` and ``e`` are the divisor symbols, assumed
``>= 1`` (every assignment strategy here keeps them there), so a tree divides only by non-zero
constants or by positive divisor trees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from symshape.algebra.expr import Dim, ceildiv, floordiv, mod, smax, smin, sym
from symshape.engine.facts import Facts

Tree = tuple[Any, ...]
FREE = ("a", "b", "c")
POSITIVE = ("d", "e")
NAMES = FREE + POSITIVE
DIVISORS = (1, 2, 3, 4, 6, 8, -1, -2, -3)

_OPS: dict[str, tuple[Callable[..., Dim], Callable[..., int]]] = {
    "add": (lambda x, y: x + y, lambda x, y: x + y),
    "sub": (lambda x, y: x - y, lambda x, y: x - y),
    "mul": (lambda x, y: x * y, lambda x, y: x * y),
    "neg": (lambda x: -x, lambda x: -x),
    "fdiv": (floordiv, lambda x, y: x // y),
    "mod": (mod, lambda x, y: x % y),
    "cdiv": (ceildiv, lambda x, y: -((-x) // y)),
    "max": (smax, max),
    "min": (smin, min),
}


def build(t: Tree) -> Dim:
    """The canonical Dim of a tree (through the constructors under test)."""
    if t[0] == "sym":
        return sym(t[1])
    if t[0] == "int":
        return t[1]
    return _OPS[t[0]][0](*(build(c) for c in t[1:]))


def naive(t: Tree, env: dict[str, int]) -> int:
    """The value of a tree with plain integers (the oracle)."""
    if t[0] == "sym":
        return env[t[1]]
    if t[0] == "int":
        return t[1]
    return _OPS[t[0]][1](*(naive(c, env) for c in t[1:]))


def text(t: Tree) -> str:
    """A readable form of the tree, for failure messages."""
    if t[0] in ("sym", "int"):
        return str(t[1])
    return f"{t[0]}({', '.join(text(c) for c in t[1:])})"


# ------------------------------------------------------------------ hypothesis strategies
leaves = st.one_of(
    st.sampled_from(NAMES).map(lambda n: ("sym", n)),
    st.integers(-4, 9).map(lambda k: ("int", k)),
)
positive_trees = st.one_of(
    st.sampled_from(POSITIVE).map(lambda n: ("sym", n)),
    st.tuples(st.just("add"), st.sampled_from(POSITIVE).map(lambda n: ("sym", n)),
              st.integers(0, 3).map(lambda k: ("int", k))),
    st.just(("mul", ("sym", "d"), ("sym", "e"))),
)
const_divisors = st.sampled_from(DIVISORS).map(lambda k: ("int", k))


def _extend(children: st.SearchStrategy[Tree]) -> st.SearchStrategy[Tree]:
    return st.one_of(
        st.tuples(st.sampled_from(["add", "sub", "mul"]), children, children),
        st.tuples(st.just("neg"), children),
        st.tuples(st.sampled_from(["fdiv", "mod", "cdiv"]), children, const_divisors),
        st.tuples(st.sampled_from(["fdiv", "mod", "cdiv"]), children, positive_trees),
        st.tuples(st.sampled_from(["max", "min"]), children, children),
        st.tuples(st.sampled_from(["max", "min"]), children, children, children),
    )


trees = st.recursive(leaves, _extend, max_leaves=10)
polynomials = st.recursive(
    leaves, lambda c: st.tuples(st.sampled_from(["add", "sub", "mul"]), c, c), max_leaves=6
)
envs = st.fixed_dictionaries(
    {**{n: st.integers(-7, 12) for n in FREE}, **{n: st.integers(1, 9) for n in POSITIVE}}
)


@st.composite
def facts_and_envs(draw: st.DrawFn) -> tuple[Facts, list[dict[str, int]]]:
    """Random per-symbol facts (range, divisor) and assignments that satisfy them."""
    f = Facts()
    choices: dict[str, list[int]] = {}
    for name in NAMES:
        low = 1 if name in POSITIVE else -8
        lo = draw(st.one_of(st.none(), st.integers(low, 6)))
        hi = draw(st.one_of(st.none(), st.integers(max(lo if lo is not None else low, low), 16)))
        divisor = draw(st.sampled_from([1, 1, 2, 3, 4]))
        if name in POSITIVE and lo is None:
            lo = 1
        span = range(lo if lo is not None else -12, (hi if hi is not None else 20) + 1)
        if not [v for v in span if v % divisor == 0]:
            divisor = 1
        f.restrict(name, lo=lo, hi=hi, divisor=divisor)
        choices[name] = [v for v in span if f.get(name).admits(v)]
    envs = draw(st.lists(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in choices.items()}),
                         min_size=3, max_size=6))
    return f, envs


# ------------------------------------------------------------------ seeded random trees
def random_tree(rng: random.Random, depth: int = 4) -> Tree:
    """A random tree from ``rng`` (for the seeded fuzzer: no hypothesis shrinking needed)."""
    if depth == 0 or rng.random() < 0.25:
        return ("sym", rng.choice(NAMES)) if rng.random() < 0.6 else ("int", rng.randint(-4, 9))
    op = rng.choice(list(_OPS))
    if op == "neg":
        return (op, random_tree(rng, depth - 1))
    if op in ("fdiv", "mod", "cdiv"):
        if rng.random() < 0.6:
            den: Tree = ("int", rng.choice(DIVISORS))
        else:
            den = ("add", ("sym", rng.choice(POSITIVE)), ("int", rng.randint(0, 3)))
        return (op, random_tree(rng, depth - 1), den)
    return (op, random_tree(rng, depth - 1), random_tree(rng, depth - 1))


def random_env(rng: random.Random) -> dict[str, int]:
    """An assignment with ``d, e >= 1``; edge values 0 and 1 come up often."""
    env = {n: rng.choice([0, 1, -1, rng.randint(-9, 15)]) for n in FREE}
    env.update({n: rng.choice([1, 2, rng.randint(1, 12)]) for n in POSITIVE})
    return env
