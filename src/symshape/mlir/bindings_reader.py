# pyright: strict
"""MLIR text -> one `FuncView` per root function, through MLIR's own parser (`bindings_parse`).

`BindingsIR` lets `symshape.mlir.program_builder.build_views` read binding ops, so the Programs
are those it builds from xDSL ops (same value names, attributes, inlining, regions and calls),
about twenty times faster to read. `read_views` returns None where this reader does not apply and
the xDSL reader must: no bindings installed, text MLIR refuses, or a module that names its
arguments' dims through symshape's own constraint ops or torch-mlir's
(`symshape.mlir.declared_dims`), which only the xDSL reader reads.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Sequence
from typing import Any

from symshape.mlir.bindings_attributes import binding_type, clear_caches, named_attrs, type_text
from symshape.mlir.bindings_ops import BlockOps, attr, owner_op
from symshape.mlir.bindings_parse import TextNames, available_bindings, parse_with_bindings
from symshape.mlir.ir_adapter import DeclaredDims
from symshape.mlir.program_builder import FuncView, build_views
from symshape.program import TensorType

__all__ = ["BindingsIR", "read_views"]

_XDSL_ONLY = re.compile(r"symshape\.|torch\.(?:symbolic_int|bind_symbolic_shape)|,\s*\[@[^\]]*\]\s*>")


def read_views(text: str) -> list[FuncView] | None:
    """The root functions of the module ``text`` holds, or None (see the module docstring)."""
    if _XDSL_ONLY.search(text):
        return None
    for which in available_bindings():  # IREE's has no mhlo: the next one may still read it
        parsed = parse_with_bindings(text, which)
        if parsed is not None:
            module, names = parsed
            collecting = gc.isenabled()
            gc.disable()  # a read makes millions of objects and no cycles: the collector's passes were 25% of it
            try:
                return _views(module.operation, names)
            finally:
                clear_caches()
                if collecting:
                    gc.enable()
    return None


def _views(module: Any, names: TextNames) -> list[FuncView]:
    """`build_views` for a module the bindings parsed."""
    ops = BlockOps(module)
    ir = BindingsIR(ops, names)
    ir.local.update(names.in_order(ops.all, ops.nested) or {})
    return build_views(ir)


class BindingsIR:
    """`symshape.mlir.ir_adapter.IRReader` over binding ops. Value names are read from the text
    (`TextNames`) as the builder first asks for them."""

    def __init__(self, ops: BlockOps, names: TextNames) -> None:
        self.block_ops = ops
        self.text = names
        self.local: dict[Any, str | None] = {}

    def all_ops(self) -> Iterable[Any]:
        return self.block_ops.all

    def ops(self, block: Any) -> Iterable[Any]:
        return self.block_ops.of(block)

    def block_args(self, block: Any) -> Sequence[Any]:
        return block.arguments

    def region_blocks(self, op: Any) -> list[Any]:
        return [next(iter(r.blocks), None) for r in op.regions]

    def count_ops(self, block: Any) -> int:
        return self.block_ops.count(block)

    def op_name(self, op: Any) -> str:
        return op.name

    def operands(self, op: Any) -> Sequence[Any]:
        return op.operands

    def results(self, op: Any) -> Sequence[Any]:
        return op.results

    def attr(self, op: Any, name: str) -> Any:
        return attr(op, name)

    def attrs(self, op: Any) -> dict[str, Any]:
        return named_attrs(op)

    def value_type(self, value: Any) -> TensorType:
        return binding_type(value.type)

    def is_tensor(self, value: Any) -> bool:
        return type_text(value.type).startswith("tensor<")

    def defining_op(self, value: Any) -> Any:
        return owner_op(value)

    def local_name(self, value: Any) -> str | None:
        if value in self.local:
            return self.local[value]
        op = owner_op(value)
        if op is None:
            name = self.local[value] = self.text.argument(value)
            return name
        self.local.update(zip(op.results, self.text.results(op), strict=True))
        return self.local.get(value)

    def named_dims(self, fn: Any) -> list[DeclaredDims]:
        return []  # modules that name dims otherwise are read by xDSL (`read_views`)

    def read_by_the_frontend(self, op: Any) -> bool:
        return False
