# pyright: strict
"""`symshape.frontends.mlir.ir_adapter.IRReader` over an xDSL ``ModuleOp`` (what `symshape.ir.parse` read):
the value names the text gave (`symshape.ir.parse.source_names`), and the dims our
``[@batch, @S1]`` encodings and torch-mlir's ``torch.bind_symbolic_shape`` name, which only
this reader reads (`symshape.frontends.mlir.declared_dims`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from symshape.engine.program import TensorType
from symshape.frontends.mlir.attributes import AttrViews, attr_of, is_tensor, op_full_name, tensor_type
from symshape.frontends.mlir.declared_dims import ModuleSymbols, encoded_dims, torch_dims
from symshape.frontends.mlir.ir_adapter import DeclaredDims
from symshape.ir.parse import source_names
from symshape.memory import ByIdentity

__all__ = ["XdslIR"]

_READ_BY_THE_FRONTEND = ("torch.symbolic_int", "torch.bind_symbolic_shape")  # see declared_dims.torch_dims


class XdslIR:
    """An xDSL module as the builder reads it (``module`` None: a function read on its own,
    without the text's names or the module's symbols)."""

    def __init__(self, module: ModuleOp | None) -> None:
        self.module = module
        self.source = source_names(module) if module is not None else {}
        self.symbols = ModuleSymbols(module) if module is not None else None
        self.bound: set[SSAValue] = set()  # arguments whose torch.bind_symbolic_shape named their dims
        # each type object's view: `tensor_type`'s cache hashes an xDSL type by value (a recursive
        # dataclass hash, 3 µs), while a module's values share few type objects
        self.types = ByIdentity[Attribute, TensorType]()
        self.views = AttrViews()

    def all_ops(self) -> Iterable[Operation]:
        return () if self.module is None else (op for op in self.module.walk() if op is not self.module)

    def ops(self, block: Block) -> Iterable[Operation]:
        return block.ops

    def block_args(self, block: Block) -> Sequence[SSAValue]:
        return block.args

    def region_blocks(self, op: Operation) -> list[Any]:
        return [r.blocks.first for r in op.regions]

    def count_ops(self, block: Block) -> int:
        return sum(1 for _ in block.walk())

    def op_name(self, op: Operation) -> str:
        return op_full_name(op)

    def operands(self, op: Operation) -> Sequence[SSAValue]:
        return op.operands

    def results(self, op: Operation) -> Sequence[SSAValue]:
        return op.results

    def attr(self, op: Operation, name: str) -> Any:
        attr = attr_of(op, name)
        return None if attr is None else self.views.view(attr)

    def attrs(self, op: Operation) -> dict[str, Any]:
        return self.views.op_attrs(op)

    def value_type(self, value: SSAValue) -> TensorType:
        return self.types.get(value.type, tensor_type)

    def is_tensor(self, value: SSAValue) -> bool:
        return is_tensor(value.type)

    def defining_op(self, value: SSAValue) -> Operation | None:
        owner = value.owner
        return owner if isinstance(owner, Operation) else None

    def local_name(self, value: SSAValue) -> str | None:
        return self.source.get(value) or value.name_hint

    def named_dims(self, fn: Any) -> list[DeclaredDims]:
        bound, torch_facts = torch_dims(fn)
        block = fn.body.blocks.first
        if block is not None:
            self.bound.update(block.args[i] for i in bound)
        encoded: DeclaredDims = encoded_dims(fn, self.symbols) if self.symbols is not None else ({}, [])
        return [encoded, (bound, torch_facts)]

    def read_by_the_frontend(self, op: Operation) -> bool:
        """A ``torch.symbolic_int``, or a ``torch.bind_symbolic_shape`` whose argument's dims
        `named_dims` named: nothing is left for a rule to do."""
        name = self.op_name(op)
        if name not in _READ_BY_THE_FRONTEND:
            return False
        return name == "torch.symbolic_int" or (bool(op.operands) and op.operands[0] in self.bound)
