# pyright: strict
"""Small readers of MLIR binding ops (``iree.compiler.ir`` / ``jaxlib.mlir.ir``), typed ``Any``
at the boundary (the bindings ship no stubs): the block walk and the attributes the frontend
asks for by name, as the Python values of `symshape.mlir.bindings_attributes`."""

from __future__ import annotations

import sys
from typing import Any, cast

from symshape.mlir.bindings_attributes import binding_attr

__all__ = ["BlockOps", "arg_attr", "attr", "entry_block", "is_private", "owner_op"]


class BlockOps:
    """Every op of a module by its block, from one MLIR walk, outermost first.

    Iterating ``block.operations`` builds an ``OpView`` per op, and IREE's bindings then look
    for a Python module of the op's dialect (none for stablehlo) on every op: 90 µs an op, ten
    times the rest of the reading. The walk hands over plain ``Operation`` objects.
    """

    def __init__(self, module: Any) -> None:
        ir = sys.modules[type(module).__module__]
        self.all: list[Any] = []
        self.by_block: dict[Any, list[Any]] = {}

        def visit(op: Any) -> Any:
            if op != module:
                self.all.append(op)
                self.by_block.setdefault(op.block, []).append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.PRE_ORDER)

    def of(self, block: Any) -> list[Any]:
        """The ops of ``block``, in order."""
        return self.by_block.get(block, [])

    def nested(self, op: Any) -> int:
        """The ops inside ``op``'s regions."""
        return sum(self.count(b) for region in op.regions for b in region.blocks)

    def count(self, block: Any) -> int:
        """The ops of ``block`` and of every region nested in them."""
        total = 0
        for op in self.of(block):
            total += 1 + sum(self.count(b) for region in op.regions for b in region.blocks)
        return total


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
