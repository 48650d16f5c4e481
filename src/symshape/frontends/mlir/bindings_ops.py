# pyright: strict
"""Small readers of MLIR binding ops (``iree.compiler.ir`` / ``jaxlib.mlir.ir``), typed ``Any``
at the boundary (the bindings ship no stubs): the block walk and the attributes the frontend
asks for by name, as the Python values of `symshape.frontends.mlir.bindings_attributes`."""

from __future__ import annotations

import sys
from typing import Any

from symshape.frontends.mlir.bindings_attributes import binding_attr

__all__ = ["BlockOps", "attr", "owner_op"]


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


def attr(op: Any, name: str) -> Any:
    """The Python value of attribute ``name`` of ``op``, or None."""
    return binding_attr(op.attributes[name]) if name in op.attributes else None


def owner_op(value: Any) -> Any:
    """The op that defines ``value`` (None for a block argument)."""
    if type(value).__name__ != "OpResult":
        return None
    return value.owner.operation
