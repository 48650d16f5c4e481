# pyright: strict
"""Argument dims a module names itself, outside jax's conventions (`symshape.frontends.mlir.jax_export`).

* Our own constraint IR: a function argument typed ``tensor<?x?xf32, [@batch, @S1]>`` has dims
  named ``batch`` and ``S1`` (``@C4``, or a ``symshape.symbolic_dim`` with a ``value``, is that
  constant), and each ``symshape.symbolic_dim @batch {lo = 1, hi = 64, divisor = 8, likely =
  ...}`` the module defines gives its facts.
* torch-mlir's ``torch.symbolic_int "s0" {min_val = 2, max_val = 64}`` and
  ``torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0 * 2, 4)>`` on a function
  argument: that argument's dims are ``2*s0`` and 4, and ``s0`` lies in ``[2, 64]`` (torch checks
  its ranges before running; a ``max_val`` of ``sys.maxsize - 1`` is torch's "unbounded").

A name that is not an identifier is not used (the dim stays unnamed), so every symbol stays one
the expression syntax, ``--assume`` and sympy read.
"""

from __future__ import annotations

import re
import sys
from typing import cast

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr, AffineSymExpr

from symshape.algebra.expr import sym
from symshape.engine.program import SourceDim
from symshape.engine.userfacts import Divisible, Fact, Likely, Range
from symshape.frontends.mlir.attributes import attr_of, attr_value, is_tensor, op_full_name
from symshape.ir.dialects.constraint import symbol_encoding

__all__ = ["ModuleSymbols", "encoded_dims", "torch_dims"]

_IDENT = re.compile(r"[A-Za-z_]\w*")
_CONSTANT = re.compile(r"C(\d+)")
_TORCH_UNBOUNDED = sys.maxsize - 1


class ModuleSymbols:
    """The ``symshape.symbolic_dim`` ops at the top of a module, by name."""

    def __init__(self, module: ModuleOp) -> None:
        self.ops: dict[str, Operation] = {}
        for op in module.ops:
            if op_full_name(op) == "symshape.symbolic_dim":
                name = attr_value(op, "sym_name")
                if isinstance(name, str):
                    self.ops[name] = op

    def constant(self, name: str) -> int | None:
        """The value of a constant symbol (``@C4``, or one with a ``value``), else None."""
        op = self.ops.get(name)
        value = attr_value(op, "value") if op is not None else None
        if isinstance(value, int):
            return value
        m = _CONSTANT.fullmatch(name)
        return int(m.group(1)) if op is None and m else None

    def facts(self, name: str) -> list[Fact]:
        """The range, divisor and likely sizes ``symshape.symbolic_dim @name`` states."""
        op = self.ops.get(name)
        if op is None:
            return []
        lo, hi, divisor, likely = (attr_value(op, k) for k in ("lo", "hi", "divisor", "likely"))
        out: list[Fact] = []
        if isinstance(lo, int) or isinstance(hi, int):
            out.append(Range(name, lo if isinstance(lo, int) else None, hi if isinstance(hi, int) else None))
        if isinstance(divisor, int) and divisor > 1:
            out.append(Divisible(sym(name), divisor))
        sizes = [v for v in cast("list[object]", likely) if isinstance(v, int)] if isinstance(likely, list) else []
        if sizes:
            out.append(Likely(name, tuple(sizes)))
        return out


def encoded_dims(fn: func.FuncOp, symbols: ModuleSymbols) -> tuple[dict[int, tuple[SourceDim, ...]], list[Fact]]:
    """Argument index -> dims named by ``[@S0, @C4]`` encodings, and the named symbols' facts."""
    block = fn.body.blocks.first
    if block is None:
        return {}, []
    declared: dict[int, tuple[SourceDim, ...]] = {}
    named: set[str] = set()
    for i, arg in enumerate(block.args):
        names = symbol_encoding(arg.type.encoding) if is_tensor(arg.type) else None
        if names is None or not is_tensor(arg.type) or len(names) != len(arg.type.get_shape()):
            continue
        dims: list[SourceDim] = []
        for static, name in zip(arg.type.get_shape(), names, strict=True):
            value = symbols.constant(name)
            if static != DYNAMIC_INDEX:
                dims.append(int(static))
            elif value is not None:
                dims.append(value)
            elif _IDENT.fullmatch(name):
                dims.append(name)
                named.add(name)
            else:
                dims.append(None)
        declared[i] = tuple(dims)
    return declared, [f for name in sorted(named) for f in symbols.facts(name)]


def torch_dims(fn: func.FuncOp) -> tuple[dict[int, tuple[SourceDim, ...]], list[Fact]]:
    """Argument index -> dims from ``torch.bind_symbolic_shape`` of the function's arguments,
    over the ``torch.symbolic_int`` names, and those symbols' ranges."""
    block = fn.body.blocks.first
    if block is None:
        return {}, []
    declared: dict[int, tuple[SourceDim, ...]] = {}
    range_by_symbol: dict[str, Fact] = {}
    for op in block.ops:
        if op_full_name(op) != "torch.bind_symbolic_shape" or not op.operands:
            continue
        arg, shape_map = op.operands[0], attr_of(op, "shape_expressions")
        sources = [s.owner for s in op.operands[1:]]
        ints = [s for s in sources if isinstance(s, Operation) and op_full_name(s) == "torch.symbolic_int"]
        names = [attr_value(s, "symbol_name") for s in ints]
        if (not isinstance(arg, BlockArgument) or arg.owner is not block or not is_tensor(arg.type)
                or not isinstance(shape_map, AffineMapAttr) or len(ints) != len(sources)
                or not all(isinstance(n, str) and _IDENT.fullmatch(n) for n in names)):
            continue
        words = [str(n) for n in names]
        exprs = [_affine_text(e, words) for e in shape_map.data.results]
        shape = arg.type.get_shape()
        if len(exprs) != len(shape) or "" in exprs or any(
                s != DYNAMIC_INDEX and e != str(s) for s, e in zip(shape, exprs, strict=True)):
            continue
        declared[arg.index] = tuple(int(s) if s != DYNAMIC_INDEX else e for s, e in zip(shape, exprs, strict=True))
        for s, name in zip(ints, words, strict=True):
            range_by_symbol.setdefault(name, _torch_range(s, name))
    return declared, list(range_by_symbol.values())


def _torch_range(op: Operation, name: str) -> Fact:
    lo, hi = attr_value(op, "min_val"), attr_value(op, "max_val")
    return Range(name, lo if isinstance(lo, int) else None,
                 hi if isinstance(hi, int) and hi < _TORCH_UNBOUNDED else None)


_OPS = {AffineBinaryOpKind.Add: "+", AffineBinaryOpKind.Mul: "*"}


def _affine_text(e: AffineExpr, names: list[str]) -> str:
    """``e`` over symbols ``s<i>`` -> ``names[i]``, in our expression syntax ("" if not one)."""
    if isinstance(e, AffineConstantExpr):
        return str(e.value)
    if isinstance(e, AffineSymExpr):
        return names[e.position]
    if not isinstance(e, AffineBinaryOpExpr):
        return ""  # a dim operand: torch binds symbols only
    lhs, rhs = _affine_text(e.lhs, names), _affine_text(e.rhs, names)
    if not lhs or not rhs:
        return ""
    if e.kind in _OPS:
        return f"({lhs}) {_OPS[e.kind]} ({rhs})"
    if e.kind == AffineBinaryOpKind.FloorDiv:
        return f"floor(({lhs})/({rhs}))"
    if e.kind == AffineBinaryOpKind.CeilDiv:
        return f"ceiling(({lhs})/({rhs}))"
    return f"Mod({lhs}, {rhs})"
