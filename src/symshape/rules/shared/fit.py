"""Sizes an op requires, recorded as facts in the strongest form: a range on the input symbol.

A window op needs its padded input to hold a window (``h + pads >= dilation*(k - 1) + 1``),
an output size is ``>= 0``: conditions the program itself requires to run (onnxruntime rejects
the model otherwise), so they are facts, not guards. When the condition is ``f(h) >= lo`` for one
symbol ``h`` and ``f`` never decreases as ``h`` grows (sums with positive coefficients of ``h``,
floors by positive constants, ``Max``/``Min`` of such), it holds exactly when ``h >= h0`` for the
least ``h0`` with ``f(h0) >= lo``: `require_ge` records that range on ``h`` (found by bisection
with plain integer evaluation), so the next layer's window fit is *proven* from it. A stack of
stride-2 convolutions thus needs no guard: ``floor((h + 7)/8) - 4 >= 0`` becomes ``h >= 33``.
"""

from __future__ import annotations

from symshape.algebra.expr import (
    Dim,
    Expr,
    FloorDiv,
    MaxAtom,
    MinAtom,
    Sym,
    add,
    evaluate,
    floordiv,
    mul,
    smax,
    smin,
    sym,
)
from symshape.engine.context import OpContext

SEARCH_LIMIT = 2**62  # past this, a size is not a size


def fdiv(num: Dim, k: int) -> Dim:
    """``floor(num/k)`` for ``k >= 1``, folding one nested floor:
    ``floor((floor(x/m) + c)/k) = floor((x + c*m)/(m*k))`` (true for all integers x, c)."""
    if isinstance(num, Expr) and k > 1:
        inner, c = _floor_plus_const(num)
        if inner is not None and isinstance(inner.den, int) and inner.den > 0:
            return floordiv(add(inner.num, c * inner.den), inner.den * k)
    return floordiv(num, k)


def cdiv(num: Dim, k: int) -> Dim:
    """``ceil(num/k)`` for ``k >= 1`` through `fdiv`."""
    return fdiv(add(num, k - 1), k)


def _floor_plus_const(d: Expr) -> tuple[FloorDiv | None, int]:
    atom: FloorDiv | None = None
    const = 0
    for mono, coeff in d.terms:
        if not mono:
            const = coeff
        elif len(mono) == 1 and coeff == 1 and isinstance(mono[0], FloorDiv) and atom is None:
            atom = mono[0]
        else:
            return None, 0
    return atom, const


def require_ge(ctx: OpContext, d: Dim, lo: int, rule: str, what: str) -> None:
    """Record the fact ``d >= lo``: as a range on the one symbol of ``d`` when ``d`` is
    non-decreasing in it, else as a predicate. A constant below ``lo`` is a malformed model."""
    c = ctx.canon(d)
    if ctx.facts.prove_ge(c, lo):
        return
    if isinstance(c, int):
        raise ctx.invalid(f"{what} is {c}", f"{what} >= {lo}", "check the attributes and input sizes")
    least = least_symbol_value(ctx, c, lo)
    if least is not None:
        name, value = least
        ctx.assume_range(sym(name), value, None, rule)
        return
    ctx.assume_range(c, lo, None, rule)


def least_symbol_value(ctx: OpContext, d: Expr, lo: int) -> tuple[str, int] | None:
    """``(h, h0)`` such that ``d >= lo`` exactly when ``h >= h0``, for ``d`` non-decreasing in
    its one symbol ``h`` (within ``h``'s known range); None when ``d`` is not of that kind or no
    size in range reaches ``lo``."""
    if len(d.free) != 1 or not nondecreasing(d):
        return None
    (name,) = d.free
    facts = ctx.facts.get(name)
    if facts.lo is None:  # unbounded below: no least value to search from
        return None
    low = facts.lo
    high = facts.hi if facts.hi is not None else SEARCH_LIMIT

    def reaches(v: int) -> bool:
        return evaluate(d, {name: v}) >= lo

    if reaches(low):
        return name, low
    step, top = 1, low + 1
    while not reaches(top):
        if top >= high:
            return None
        step *= 2
        top = min(low + step, high)
    bottom = low  # reaches(bottom) is False, reaches(top) is True
    while top - bottom > 1:
        mid = (bottom + top) // 2
        if reaches(mid):
            top = mid
        else:
            bottom = mid
    return name, top


def nondecreasing(d: Dim) -> bool:
    """Whether ``d`` never decreases as any of its symbols grows (a sufficient syntactic test)."""
    if isinstance(d, int):
        return True
    for mono, coeff in d.terms:
        if not mono:
            continue
        if coeff < 0 or len(mono) != 1:
            return False
        atom = mono[0]
        if isinstance(atom, Sym):
            continue
        if isinstance(atom, FloorDiv):
            if not (isinstance(atom.den, int) and atom.den > 0 and nondecreasing(atom.num)):
                return False
        elif isinstance(atom, (MaxAtom, MinAtom)):
            if not all(nondecreasing(a) for a in atom.args):
                return False
        else:
            return False
    return True


def trunc_div(ctx: OpContext, n: Dim, k: int) -> Dim:
    """``n/k`` rounded toward zero (C's integer division, as onnxruntime's pooling computes it)
    for ``k >= 1``: ``floor(n/k)`` when ``n >= 0`` is proven, ``-floor(-n/k)`` when ``n <= 0``,
    else ``Max(floor(n/k), Min(0, ceil(n/k)))``, an identity over all integers."""
    if k == 1:
        return n
    if ctx.prove_ge(n, 0):
        return fdiv(n, k)
    if ctx.prove_ge(mul(n, -1), 0):
        return mul(fdiv(mul(n, -1), k), -1)
    return smax(fdiv(n, k), smin(0, cdiv(n, k)))
