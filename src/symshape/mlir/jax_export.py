# pyright: strict
"""``jax.export`` modules: the names jax gave the arguments' dims, and the facts it guarantees.

The shape specifications quoted in the ``shape_assertion`` messages (``args[0].shape = (2*b,
s)``) name the arguments' dims, and ``jax.global_constant = "b"`` names dimension-variable
arguments; jax checks that every dimension variable is ``>= 1`` before running, so that is a fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, StringAttr
from xdsl.dialects.builtin import TensorType as XTensorType
from xdsl.ir import BlockArgument, Operation

from symshape.expr import sym
from symshape.mlir.attributes import attr_value, is_tensor, op_full_name, split_top
from symshape.program import SourceDim
from symshape.userfacts import Fact, Relation

__all__ = ["arg_attr", "jax_arg_dims", "label_names"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_FUNCTIONS = {"floor", "ceiling", "Mod", "Max", "Min"}


def label_names(label: str) -> set[str]:
    """The symbol names in a declared dim label (``2*b + s`` -> b, s; function names excluded)."""
    return set(_WORD.findall(label)) - _FUNCTIONS


def arg_attr(fn: func.FuncOp, index: int, key: str) -> str | None:
    """The non-empty string attribute ``key`` of ``fn``'s argument ``index``, else None."""
    attrs = fn.arg_attrs
    if attrs is None or index >= len(attrs.data):
        return None
    entry = attrs.data[index]
    value = entry.data.get(key)
    return value.data if isinstance(value, StringAttr) and value.data else None


_SPEC = re.compile(r"args\[(\d+)\]\.shape = \(")


def jax_arg_dims(fn: func.FuncOp, funcs: dict[str, func.FuncOp] | None = None,
                 ) -> tuple[dict[int, tuple[SourceDim, ...]], list[Fact]]:
    """Declared dims of ``fn``'s arguments named the way ``jax.export`` named them, and the
    facts ``v >= 1`` for each dimension variable ``v`` (jax checks them before running).

    The names come from the shape specifications quoted in the ``shape_assertion`` messages
    (``args[0].shape = (2*b, s)``), else from a call passing ``get_dimension_size`` of an
    argument to a callee argument marked ``jax.global_constant = "b"``.
    """
    block = fn.body.blocks.first
    if block is None:
        return {}, []
    specs: dict[int, str] = {}
    for op in block.ops:
        if op_full_name(op).endswith(".custom_call"):
            message = op.attributes.get("error_message")
            if isinstance(message, StringAttr):
                specs.update(_parse_specs(message.data))
    arrays: list[tuple[int, tuple[int, ...]]] = [  # (argument index, static shape)
        (i, a.type.get_shape())
        for i, a in enumerate(block.args)
        if is_tensor(a.type) and arg_attr(fn, i, "jax.global_constant") is None
    ]
    declared: dict[int, tuple[SourceDim, ...]] = {}
    for k, text in sorted(specs.items()):
        if k < len(arrays):
            index, shape = arrays[k]
            dims = _spec_dims(text, tuple(shape))
            if dims is not None:
                declared[index] = dims
    for (i, axis), name in _call_dim_names(block, funcs or {}).items():
        arg_type = block.args[i].type
        if i in declared or not isinstance(arg_type, XTensorType):
            continue
        named: list[SourceDim] = [None if d == DYNAMIC_INDEX else int(d) for d in arg_type.get_shape()]
        named[axis] = name if named[axis] is None else named[axis]
        declared[i] = tuple(named)
    names = {n for dims in declared.values() for d in dims if isinstance(d, str) for n in label_names(d)}
    return declared, [Relation(sym(n), ">=", 1) for n in sorted(names)]


def _call_dim_names(block: Any, funcs: dict[str, func.FuncOp]) -> dict[tuple[int, int], str]:
    """``(argument, axis) -> name`` from ``call @f(get_dimension_size %arg, dim = a)`` where
    the callee's parameter has ``jax.global_constant = "name"``."""
    out: dict[tuple[int, int], str] = {}
    for op in block.ops:
        if op_full_name(op) != "func.call":
            continue
        callee = funcs.get(attr_value(op, "callee"))
        if callee is None:
            continue
        for k, operand in enumerate(op.operands):
            name = arg_attr(callee, k, "jax.global_constant")
            source = operand.owner
            if not name or not re.fullmatch(r"[A-Za-z]\w*", name) or not isinstance(source, Operation):
                continue
            if op_full_name(source).endswith(".get_dimension_size") and source.operands:
                arg = source.operands[0]
                axis = attr_value(source, "dimension")
                if isinstance(arg, BlockArgument) and arg.owner is block and isinstance(axis, int):
                    out.setdefault((arg.index, axis), name)
    return out


def _parse_specs(message: str) -> Iterator[tuple[int, str]]:
    for m in _SPEC.finditer(message):
        depth, i = 1, m.end()
        while i < len(message) and depth:
            depth += {"(": 1, ")": -1}.get(message[i], 0)
            i += 1
        yield int(m.group(1)), message[m.end():i - 1]


def _spec_dims(text: str, shape: tuple[int, ...]) -> tuple[SourceDim, ...] | None:
    parts = [p.strip() for p in split_top(text)]
    if len(parts) != len(shape):
        return None
    dims: list[SourceDim] = []
    for part, static in zip(parts, shape, strict=True):
        if re.fullmatch(r"-?\d+", part):
            if static != DYNAMIC_INDEX and static != int(part):
                return None
            dims.append(int(part))
        elif static != DYNAMIC_INDEX or not _jax_expr_ok(part):
            dims.append(static if static != DYNAMIC_INDEX else None)
        else:
            dims.append(part)
    return tuple(dims)


def _jax_expr_ok(text: str) -> bool:
    """Only polynomials in identifiers (jax's floordiv/mod/max/min terms are left unnamed)."""
    return re.fullmatch(r"[A-Za-z0-9_+\-* ]+", text) is not None
