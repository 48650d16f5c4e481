"""A ``dynamic_reshape`` whose result type is static (after `refine_types` made the proven
constant dims static) is a plain ``reshape``: the shape operand can only hold those sizes, and
a compiler lowers a static reshape without reading it (issue 15 class 2)."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Dialect, Operation
from xdsl.rewriter import Rewriter

from symshape.frontends.mlir.attributes import is_tensor
from symshape.ir.dialects.mhlo import MHLO
from symshape.ir.dialects.stablehlo import StableHLO
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import op_name

_DIALECTS: dict[str, Dialect] = {"stablehlo": StableHLO, "mhlo": MHLO}


def hlo_class(dialect: str, mnemonic: str) -> type[Operation] | None:
    """The class symshape reads ``dialect.mnemonic`` (stablehlo or mhlo) with, to create such an op."""
    found = _DIALECTS.get(dialect)
    if found is None:
        return None
    return next((op for op in found.operations if op.name == f"{dialect}.{mnemonic}"), None)


def static_reshapes(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Replace each ``dynamic_reshape`` with a static result type by ``reshape``; how many."""
    count = 0
    for op in [o for block in fs.func.body.blocks for o in block.ops]:
        dialect, _, short = op_name(op).partition(".")
        if short != "dynamic_reshape" or len(op.operands) != 2 or len(op.results) != 1:
            continue
        t = op.results[0].type
        cls = hlo_class(dialect, "reshape")
        if cls is None or not is_tensor(t) or DYNAMIC_INDEX in t.get_shape():
            continue
        new = cls.create(operands=[op.operands[0]], result_types=[t])
        new.results[0].name_hint = op.results[0].name_hint
        fs.moved(op.results[0], new.results[0])
        rewriter.replace_op(op, new)
        count += 1
    return count
