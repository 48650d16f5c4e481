# pyright: strict
"""`symshape.mlir.jax_export` over binding ops: the names ``jax.export`` gave the arguments' dims
(from the ``shape_assertion`` messages, else from ``jax.global_constant`` callee arguments), and
the facts ``v >= 1`` jax checks for each dimension variable."""

from __future__ import annotations

import re
from typing import Any

from symshape.expr import sym
from symshape.mlir.attributes import split_top
from symshape.mlir.bindings_attributes import binding_type
from symshape.mlir.bindings_ops import BlockOps, arg_attr, attr, owner_op
from symshape.mlir.jax_export import jax_dim_text, jax_specs, label_names
from symshape.program import SourceDim
from symshape.userfacts import Fact, Relation

__all__ = ["jax_arg_dims"]

_NAME = re.compile(r"[A-Za-z_]\w*")


def jax_arg_dims(fn: Any, block: Any, funcs: dict[str, Any], ops: BlockOps,
                 ) -> tuple[dict[int, tuple[SourceDim, ...]], list[Fact]]:
    """`jax_export.jax_arg_dims` over binding ops: the dims jax named, and ``v >= 1`` for each."""
    declared = _spec_dims_by_arg(fn, block, ops)
    if not declared:
        for (i, axis), name in sorted(_call_dim_names(block, funcs, ops).items()):
            dims = binding_type(block.arguments[i].type).dims
            if dims is None or not str(block.arguments[i].type).startswith("tensor<"):
                continue
            base = declared.get(i) or dims
            declared[i] = tuple(name if k == axis and d is None else d for k, d in enumerate(base))
    found = {n for dims in declared.values() for d in dims if isinstance(d, str) for n in label_names(d)}
    return declared, [Relation(sym(n), ">=", 1) for n in sorted(found)]


def _specs(block: Any, ops: BlockOps) -> list[tuple[str, str]] | None:
    """The specifications the first ``shape_assertion`` message of ``block`` quotes."""
    for op in ops.of(block):
        if op.name.endswith(".custom_call"):
            message = attr(op, "error_message")
            specs = jax_specs(message) if isinstance(message, str) else None
            if specs is not None:
                return specs
    return None


def _spec_dims_by_arg(fn: Any, block: Any, ops: BlockOps) -> dict[int, tuple[SourceDim, ...]]:
    """Argument index -> dims from the specifications (`jax_export._spec_dims_by_arg`)."""
    specs = _specs(block, ops)
    if not specs:
        return {}
    symbolic: list[tuple[int, tuple[SourceDim, ...]]] = []
    for i, arg in enumerate(block.arguments):
        dims = binding_type(arg.type).dims
        if (dims is not None and None in dims and str(arg.type).startswith("tensor<")
                and arg_attr(fn, i, "jax.global_constant") is None):
            symbolic.append((i, dims))
    if len(symbolic) != len(specs):
        return {}
    declared: dict[int, tuple[SourceDim, ...]] = {}
    for (index, shape), (_, text) in zip(symbolic, specs, strict=True):
        dims = _spec_dims(text, shape)
        if dims is None:
            return {}
        declared[index] = dims
    return declared


def _spec_dims(text: str, shape: tuple[SourceDim, ...]) -> tuple[SourceDim, ...] | None:
    parts = [p.strip() for p in split_top(text)]
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


def _call_dim_names(block: Any, funcs: dict[str, Any], ops: BlockOps) -> dict[tuple[int, int], str]:
    out: dict[tuple[int, int], str] = {}
    for op in ops.of(block):
        if op.name != "func.call":
            continue
        callee = funcs.get(attr(op, "callee"))
        if callee is None:
            continue
        for k, operand in enumerate(op.operands):
            name = arg_attr(callee, k, "jax.global_constant")
            source = owner_op(operand)
            if not name or not _NAME.fullmatch(name) or source is None:
                continue
            if source.name.endswith(".get_dimension_size") and len(source.operands):
                arg = source.operands[0]
                axis = attr(source, "dimension")
                if type(arg).__name__ == "BlockArgument" and arg.owner == block and isinstance(axis, int):
                    out.setdefault((arg.arg_number, axis), name)
    return out
