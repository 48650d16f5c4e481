"""The subset of StableHLO that symshape reads: the ops of `symshape.ir.dialects.hlo_ops`.

xDSL removed its stablehlo dialect (xdsl#5289), so symshape keeps its own. Each op of the table
gets a lenient class (any operands, results and regions; attributes kept as given), so the
generic form of any StableHLO version parses, and reads the pretty form ``stablehlo-opt`` and
``jax.export`` print (`symshape.ir.dialects.hlo_syntax`, `symshape.ir.dialects.hlo_formats`)
into the attributes of the generic form. Ops print in generic form, which every MLIR parser
accepts. https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.ir import Dialect, Operation
from xdsl.irdl import irdl_op_definition

from symshape.ir.dialects.hlo_formats import FORMATS
from symshape.ir.dialects.hlo_ops import HLO_OPS, HloOpSpec, dialect_ops
from symshape.ir.dialects.hlo_syntax import HloOp, make_attr, parse_int_list

__all__ = ["HloOp", "StableHLO", "make_attr", "make_ops", "op_class", "parse_int_list"]


def op_class(dialect: str, mnemonic: str, spec: HloOpSpec | None = None) -> type[HloOp]:
    """The op class for ``dialect.mnemonic``, reading the pretty form its table entry names."""
    spec = spec or HLO_OPS[mnemonic]
    body: dict[str, object] = {"name": f"{dialect}.{mnemonic}", "__doc__": f"``{dialect}.{mnemonic}``."}
    hooks: dict[str, object] = {"KEYWORDS": spec.keywords, "ENUMS": spec.enums, "RESULT_TYPE": spec.result_type}
    body.update({k: v for k, v in hooks.items() if v})
    body["__annotations__"] = {k: ClassVar[object] for k in hooks if k in body}
    cls = cast(type[HloOp], type(_class_name(mnemonic), (FORMATS[spec.syntax],), body))
    return irdl_op_definition(cls)


def _class_name(mnemonic: str) -> str:
    return "".join(part.capitalize() for part in mnemonic.replace("-", "_").split("_")) + "Op"


def make_ops(dialect: str) -> list[type[Operation]]:
    """One class per op ``dialect`` defines (the HLO dialects share syntax and attribute names)."""
    return [op_class(dialect, m) for m in dialect_ops(dialect)]


StableHLO = Dialect("stablehlo", make_ops("stablehlo"), [])
