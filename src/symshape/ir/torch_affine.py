# pyright: strict
"""The ``affine_map<()[s0, s1] -> (s0 + s1, 8)>`` of torch-mlir's ``torch.bind_symbolic_shape``,
read from MLIR's bindings into a small tree of tuples (a typed value an op attribute carries),
and evaluated over `symshape.algebra.expr` dims.

A tree is ``("s", i)`` (symbol operand ``i``), ``("c", k)``, or ``(op, lhs, rhs)`` with ``op`` one
of ``add``, ``mul``, ``floordiv``, ``ceildiv``, ``mod`` (MLIR's affine semantics: floor division
and a non-negative remainder for a positive divisor, which is all torch prints).
https://mlir.llvm.org/docs/Dialects/Affine/#affine-expressions
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symshape.algebra.expr import Dim, add, ceildiv, floordiv, mod, mul

__all__ = ["AffineTree", "affine_dim", "affine_trees"]

AffineTree = tuple[Any, ...]
_BINARY = {"AffineAddExpr": "add", "AffineMulExpr": "mul", "AffineFloorDivExpr": "floordiv",
           "AffineCeilDivExpr": "ceildiv", "AffineModExpr": "mod"}


def affine_trees(attr: Any) -> list[AffineTree] | None:
    """The result expressions of a bindings ``AffineMapAttr``, or None if it is not one, has
    dimension operands (torch binds symbols only) or an expression of another kind."""
    if type(attr).__name__ != "AffineMapAttr":
        return None
    amap = attr.value
    if amap.n_dims != 0:
        return None
    trees = [_tree(e) for e in amap.results]
    return None if any(t is None for t in trees) else [t for t in trees if t is not None]


def _tree(e: Any) -> AffineTree | None:
    kind = type(e).__name__
    if kind == "AffineSymbolExpr":
        return ("s", int(e.position))
    if kind == "AffineConstantExpr":
        return ("c", int(e.value))
    op = _BINARY.get(kind)
    if op is None:
        return None
    lhs, rhs = _tree(e.lhs), _tree(e.rhs)
    return None if lhs is None or rhs is None else (op, lhs, rhs)


def affine_dim(tree: AffineTree, symbols: Sequence[Dim]) -> Dim | None:
    """``tree`` with symbol ``i`` as ``symbols[i]``; None for a symbol out of range or a zero
    divisor."""
    kind = tree[0]
    if kind == "s":
        index = int(tree[1])
        return symbols[index] if 0 <= index < len(symbols) else None
    if kind == "c":
        return int(tree[1])
    lhs, rhs = affine_dim(tree[1], symbols), affine_dim(tree[2], symbols)
    if lhs is None or rhs is None:
        return None
    if kind == "add":
        return add(lhs, rhs)
    if kind == "mul":
        return mul(lhs, rhs)
    if not isinstance(rhs, int) or rhs <= 0:
        return None  # MLIR's affine maps divide by positive constants only
    return {"floordiv": floordiv, "ceildiv": ceildiv, "mod": mod}[kind](lhs, rhs)
