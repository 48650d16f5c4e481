# pyright: strict
"""What `symshape.frontends.mlir.program_builder` asks of a parsed MLIR module, whichever parser read it.

Two parsers read MLIR: xDSL (`symshape.frontends.mlir.xdsl_ir`) and MLIR's own through its Python
bindings (`symshape.frontends.mlir.bindings_reader`). Their ops, blocks and values are different objects
(typed ``Any`` here: the bindings ship no stubs), so the builder reads them only through an
`IRReader`: the ops of a block, an op's name, operands, results and attributes as Python values
(`symshape.frontends.mlir.attributes.py_attr`'s), a value's type as a `TensorType`, and the few helpers
below that need nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, cast

from symshape.engine.program import SourceDim, TensorType
from symshape.engine.userfacts import Fact

__all__ = ["DeclaredDims", "IRReader", "arg_attr", "entry_block", "is_private"]

DeclaredDims = tuple[dict[int, tuple[SourceDim, ...]], list[Fact]]


class IRReader(Protocol):
    """One parsed module, as the builder reads it."""

    def all_ops(self) -> Iterable[Any]:
        """Every op of the module (not the module itself), outermost first."""
        ...

    def ops(self, block: Any) -> Iterable[Any]:
        """The ops of ``block``, in order."""
        ...

    def block_args(self, block: Any) -> Sequence[Any]:
        """The arguments of ``block``."""
        ...

    def region_blocks(self, op: Any) -> list[Any]:
        """The first block of each region of ``op`` (None for an empty region)."""
        ...

    def count_ops(self, block: Any) -> int:
        """The ops of ``block`` and of every region nested in them."""
        ...

    def op_name(self, op: Any) -> str:
        """``dialect.op`` (also for unregistered ops)."""
        ...

    def operands(self, op: Any) -> Sequence[Any]:
        """The values ``op`` reads."""
        ...

    def results(self, op: Any) -> Sequence[Any]:
        """The values ``op`` defines."""
        ...

    def attr(self, op: Any, name: str) -> Any:
        """The Python value of attribute (or property) ``name`` of ``op``, or None."""
        ...

    def attrs(self, op: Any) -> dict[str, Any]:
        """Every attribute (and property) of ``op`` as Python values."""
        ...

    def value_type(self, value: Any) -> TensorType:
        """The Program view of ``value``'s type: dims (None for ``?``) and dtype."""
        ...

    def is_tensor(self, value: Any) -> bool:
        """Whether ``value`` is a ``tensor<...>`` (a ``!shape.shape`` also has dims)."""
        ...

    def defining_op(self, value: Any) -> Any:
        """The op that defines ``value`` (None for a block argument)."""
        ...

    def local_name(self, value: Any) -> str | None:
        """The name the text gave ``value`` (``arg0`` for ``%arg0``, ``5#1`` for ``%5#1``)."""
        ...

    def named_dims(self, fn: Any) -> list[DeclaredDims]:
        """Arguments' dims the module names other than through jax (`symshape.frontends.mlir.declared_dims`)."""
        ...

    def read_by_the_frontend(self, op: Any) -> bool:
        """Whether an op of a root function's entry block only named dims `named_dims` read."""
        ...


def entry_block(ir: IRReader, op: Any) -> Any:
    """The first block of ``op``'s first region, or None (a function declaration)."""
    blocks = ir.region_blocks(op)
    return blocks[0] if blocks else None


def is_private(ir: IRReader, fn: Any) -> bool:
    """Whether a function is ``private`` (a single call of it is inlined)."""
    return ir.attr(fn, "sym_visibility") == "private"


def arg_attr(ir: IRReader, fn: Any, index: int, key: str) -> str | None:
    """The non-empty string attribute ``key`` of ``fn``'s argument ``index``, else None."""
    attrs = ir.attr(fn, "arg_attrs")
    if not isinstance(attrs, list) or index >= len(cast("list[Any]", attrs)):
        return None
    entry = cast("list[Any]", attrs)[index]
    value = cast("dict[str, Any]", entry).get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, str) and value else None
