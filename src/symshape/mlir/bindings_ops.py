# pyright: strict
"""Small readers of MLIR binding ops (``iree.compiler.ir`` / ``jaxlib.mlir.ir``), typed ``Any``
at the boundary (the bindings ship no stubs): the block walk and the attributes the frontend
asks for by name, as the Python values of `symshape.mlir.bindings_attributes`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from symshape.mlir.bindings_attributes import binding_attr

__all__ = ["arg_attr", "attr", "block_ops", "entry_block", "is_private", "owner_op", "walk"]


def block_ops(block: Any) -> list[Any]:
    """The ops of a block, as ``Operation`` (not the dialect's ``OpView``, whose ``name`` may be
    the symbol name)."""
    return [op.operation for op in block.operations]


def walk(op: Any) -> Iterator[Any]:
    """``op`` and every op nested in it, outermost first."""
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in block_ops(block):
                yield from walk(inner)


def entry_block(fn: Any) -> Any:
    """The first block of an op's first region, or None (a function declaration)."""
    blocks = list(fn.regions[0].blocks) if len(fn.regions) else []
    return blocks[0] if blocks else None


def attr(op: Any, name: str) -> Any:
    """The Python value of attribute ``name`` of ``op``, or None."""
    return binding_attr(op.attributes[name]) if name in op.attributes else None


def is_private(fn: Any) -> bool:
    """Whether a function is ``private`` (a single call of it is inlined)."""
    return attr(fn, "sym_visibility") == "private"


def arg_attr(fn: Any, index: int, key: str) -> str | None:
    """The non-empty string attribute ``key`` of ``fn``'s argument ``index`` (`jax_export.arg_attr`)."""
    attrs = attr(fn, "arg_attrs")
    if not isinstance(attrs, list) or index >= len(cast("list[Any]", attrs)):
        return None
    entry = cast("list[Any]", attrs)[index]
    value = cast("dict[str, Any]", entry).get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, str) and value else None


def owner_op(value: Any) -> Any:
    """The op that defines ``value`` (None for a block argument)."""
    if type(value).__name__ != "OpResult":
        return None
    return value.owner.operation
