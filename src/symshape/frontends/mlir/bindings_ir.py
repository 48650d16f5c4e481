# pyright: strict
"""`symshape.frontends.mlir.ir_adapter.IRReader` over ops of MLIR's Python bindings (`BindingsIR`), which
`symshape.frontends.mlir.bindings_reader` and `symshape.frontends.mlir.torch_module` build their Programs from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from symshape.engine.program import TensorType
from symshape.frontends.mlir.bindings_attributes import binding_type, named_attrs, type_text
from symshape.frontends.mlir.bindings_ops import BlockOps, attr, owner_op
from symshape.frontends.mlir.bindings_parse import TextNames
from symshape.frontends.mlir.ir_adapter import DeclaredDims

__all__ = ["BindingsIR"]


class BindingsIR:
    """`symshape.frontends.mlir.ir_adapter.IRReader` over binding ops. Value names are read from the text
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
