# pyright: strict
"""``jax.export`` modules: the names jax gave the arguments' dims, and the facts it guarantees.

Every ``shape_assertion`` message quotes jax's shape specifications of all the arguments that
have a symbolic dim, in jax's pytree flattening order, by their path in ``(args, kwargs)``:
``args[0][0].shape = (b, s, 8),args[0]['mask'].shape = (b, s),kwargs['w'].shape = (4*k, 8)``.
The exported ``main`` takes the flattened array arguments in that same order (jax keeps every
argument of a shape-polymorphic export), so the k-th specification belongs to the k-th argument
that has a ``?`` dim (arguments without one are static and have no specification). Each dim of
a specification is an expression in jax's syntax (``4*k``, ``- s + b``, ``floordiv(b, 2)``),
translated to ours. Without assertions (exported with shape assertions disabled), the callee
arguments marked ``jax.global_constant = "b"`` name the dims whose ``get_dimension_size`` is
passed to them. jax checks that every dimension variable is ``>= 1`` before running, so that is
a fact.
"""

from __future__ import annotations

import re
from typing import Any

from symshape.algebra.expr import sym
from symshape.engine.program import SourceDim
from symshape.engine.userfacts import Relation
from symshape.frontends.mlir.ir_adapter import DeclaredDims, IRReader, arg_attr, entry_block
from symshape.ir.attr_values import split_top

__all__ = ["jax_arg_dims", "jax_dim_text", "jax_dims", "jax_specs", "label_names", "spec_dims"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_FUNCTIONS = {"floor", "ceiling", "Mod", "Max", "Min"}
_NAME = re.compile(r"[A-Za-z_]\w*")


def label_names(label: str) -> set[str]:
    """The symbol names in a declared dim label (``2*b + s`` -> b, s; function names excluded)."""
    return set(_WORD.findall(label)) - _FUNCTIONS


# ------------------------------------------------------------------ the specifications jax quotes

_SPECS_START = "polymorphic shapes specifications: "
_SPEC = re.compile(r"((?:args|kwargs).*?)\.shape = \(")  # a path: args[0]['a key'].w


def jax_specs(message: str) -> list[tuple[str, str]] | None:
    """``(path, dims text)`` for each specification a ``shape_assertion`` message quotes, in
    jax's order (``args[0][1]``, ``b, s``); None when the message quotes none."""
    start = message.find(_SPECS_START)
    if start < 0:
        return None
    pos = start + len(_SPECS_START)
    out: list[tuple[str, str]] = []
    while (m := _SPEC.match(message, pos)) is not None:
        depth, i = 1, m.end()
        while i < len(message) and depth:
            depth += {"(": 1, ")": -1}.get(message[i], 0)
            i += 1
        if depth:
            return None
        out.append((m.group(1), message[m.end():i - 1]))
        if not message.startswith(",", i):
            break
        pos = i + 1
    return out


_JAX_CALLS = {"floordiv": "floor", "mod": "Mod", "max": "Max", "min": "Min", "non_negative": "Max"}


def jax_dim_text(text: str) -> str | None:
    """One dim of a jax specification in our syntax (``floordiv(b, 2)`` -> ``floor((b)/(2))``,
    ``mod`` -> ``Mod``, ``max``/``min`` -> ``Max``/``Min``, ``non_negative(e)`` -> ``Max(e, 0)``);
    None for a function jax has that ours does not."""
    out: list[str] = []
    i = 0
    while i < len(text):
        m = _NAME.match(text, i)
        if m is None:
            out.append(text[i])
            i += 1
            continue
        name, i = m.group(0), m.end()
        if not text.startswith("(", i):
            out.append(name)
            continue
        if name not in _JAX_CALLS:
            return None
        depth, j = 1, i + 1
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        args = [jax_dim_text(a) for a in split_top(text[i + 1:j - 1])]
        if depth or any(a is None for a in args):
            return None
        out.append(_call(name, [a for a in args if a is not None]))
        if not out[-1]:
            return None
        i = j
    return "".join(out)


def _call(name: str, args: list[str]) -> str:
    if name == "floordiv" and len(args) == 2:
        return f"floor(({args[0]})/({args[1]}))"
    if name == "non_negative" and len(args) == 1:
        return f"Max({args[0]}, 0)"
    if name in ("mod", "max", "min") and len(args) == 2:
        return f"{_JAX_CALLS[name]}({args[0]}, {args[1]})"
    return ""


# ------------------------------------------------------------------ the arguments' declared dims


def jax_arg_dims(fn: Any, funcs: dict[str, Any] | None = None) -> DeclaredDims:
    """`jax_dims` of an xDSL ``func.func`` (the callees by name in ``funcs``)."""
    from symshape.frontends.mlir.xdsl_ir import XdslIR

    return jax_dims(XdslIR(None), fn, funcs or {})


def jax_dims(ir: IRReader, fn: Any, funcs: dict[str, Any]) -> DeclaredDims:
    """Declared dims of ``fn``'s arguments named the way ``jax.export`` named them, and the
    facts ``v >= 1`` for each dimension variable ``v`` (jax checks them before running).

    The names come from the shape specifications quoted in the ``shape_assertion`` messages
    (see the module docstring), else from a call passing ``get_dimension_size`` of an argument
    to a callee argument marked ``jax.global_constant = "b"``.
    """
    block = entry_block(ir, fn)
    if block is None:
        return {}, []
    args = ir.block_args(block)
    declared = _spec_dims_by_arg(ir, fn, block)
    if not declared:
        for (i, axis), name in sorted(_call_dim_names(ir, block, funcs).items()):
            dims = ir.value_type(args[i]).dims
            if dims is None or not ir.is_tensor(args[i]):
                continue
            base = declared.get(i) or dims
            declared[i] = tuple(name if k == axis and d is None else d for k, d in enumerate(base))
    names = {n for dims in declared.values() for d in dims if isinstance(d, str) for n in label_names(d)}
    return declared, [Relation(sym(n), ">=", 1) for n in sorted(names)]


def _specs(ir: IRReader, block: Any) -> list[tuple[str, str]] | None:
    """The specifications the first ``shape_assertion`` message of ``block`` quotes."""
    for op in ir.ops(block):
        if ir.op_name(op).endswith(".custom_call"):
            message = ir.attr(op, "error_message")
            specs = jax_specs(message) if isinstance(message, str) else None
            if specs is not None:
                return specs
    return None


def _spec_dims_by_arg(ir: IRReader, fn: Any, block: Any) -> dict[int, tuple[SourceDim, ...]]:
    """Argument index -> dims, from the specifications; empty if they do not fit the arguments
    (a count or a rank that differs, a static dim the specification contradicts)."""
    specs = _specs(ir, block)
    if not specs:
        return {}
    symbolic: list[tuple[int, tuple[SourceDim, ...]]] = []
    for i, arg in enumerate(ir.block_args(block)):
        dims = ir.value_type(arg).dims
        if (dims is not None and None in dims and ir.is_tensor(arg)
                and arg_attr(ir, fn, i, "jax.global_constant") is None):
            symbolic.append((i, dims))
    if len(symbolic) != len(specs):
        return {}
    declared: dict[int, tuple[SourceDim, ...]] = {}
    for (index, shape), (_, text) in zip(symbolic, specs, strict=True):
        dims = spec_dims(text, shape)
        if dims is None:
            return {}
        declared[index] = dims
    return declared


def _call_dim_names(ir: IRReader, block: Any, funcs: dict[str, Any]) -> dict[tuple[int, int], str]:
    """``(argument, axis) -> name`` from ``call @f(get_dimension_size %arg, dim = a)`` where
    the callee's parameter has ``jax.global_constant = "name"``."""
    out: dict[tuple[int, int], str] = {}
    index_of = {a: i for i, a in enumerate(ir.block_args(block))}
    for op in ir.ops(block):
        if ir.op_name(op) != "func.call":
            continue
        callee = funcs.get(ir.attr(op, "callee"))
        if callee is None:
            continue
        for k, operand in enumerate(ir.operands(op)):
            name = arg_attr(ir, callee, k, "jax.global_constant")
            source = ir.defining_op(operand)
            if not name or not _NAME.fullmatch(name) or source is None:
                continue
            operands = ir.operands(source)
            if ir.op_name(source).endswith(".get_dimension_size") and operands:
                arg = index_of.get(operands[0]) if ir.defining_op(operands[0]) is None else None
                axis = ir.attr(source, "dimension")
                if arg is not None and isinstance(axis, int):
                    out.setdefault((arg, axis), name)
    return out


def spec_dims(text: str, shape: tuple[SourceDim, ...]) -> tuple[SourceDim, ...] | None:
    """The dims of one specification (``b, s, 8``) against the argument's shape (None for ``?``)."""
    parts = split_top(text)
    if len(parts) != len(shape):
        return None
    dims: list[SourceDim] = []
    for part, static in zip(parts, shape, strict=True):
        if re.fullmatch(r"-?\d+", part):
            if static is not None and static != int(part):
                return None
            dims.append(int(part))
        elif static is not None:
            return None
        else:
            dims.append(jax_dim_text(part))
    return tuple(dims)
