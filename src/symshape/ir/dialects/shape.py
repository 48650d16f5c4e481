"""The subset of the MLIR ``shape`` dialect symshape reads (seed 003's shape computations).

Types ``!shape.shape``, ``!shape.size``, ``!shape.witness``, ``!shape.value_shape``; the extent
ops (``shape_of``, ``const_shape``, ``value_as_shape``, ``broadcast``, ``get_extent``, ...),
the constraint ops (``cstr_*``, ``assuming_all``, ``const_witness``) and ``assuming`` regions.
Pretty forms follow upstream (``shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>``).
The ops seed 003's shape functions are written with (``meet``, ``broadcast``, ``cstr_eq``,
``cstr_broadcastable``, ``cstr_require``, ``const_witness``, ``assuming_all``, ``assuming``,
``assuming_yield``) also print in MLIR's own pretty form (ShapeOps.td's assembly formats), so
``iree-opt`` reads them; the others print in generic form. An ``error`` message on ``cstr_eq``
and ``cstr_broadcastable`` is a discardable attribute (``{error = "..."}``): upstream has it only
on ``meet``, ``broadcast`` and (as ``msg``) ``cstr_require``.
https://mlir.llvm.org/docs/Dialects/ShapeDialect/
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from symshape.ir.dialects.hlo_syntax import HloOp, make_attr, parse_int_list


@irdl_attr_definition
class ShapeType(ParametrizedAttribute, TypeAttribute):
    """``!shape.shape``: a shape, possibly invalid."""

    name = "shape.shape"


@irdl_attr_definition
class SizeType(ParametrizedAttribute, TypeAttribute):
    """``!shape.size``: one extent, possibly invalid."""

    name = "shape.size"


@irdl_attr_definition
class WitnessType(ParametrizedAttribute, TypeAttribute):
    """``!shape.witness``: the outcome of a constraint check."""

    name = "shape.witness"


@irdl_attr_definition
class ValueShapeType(ParametrizedAttribute, TypeAttribute):
    """``!shape.value_shape``: a value with its shape."""

    name = "shape.value_shape"


class ShapeOp(HloOp):
    """A shape-dialect op: ``operands attr-dict : operand types -> result types``."""


class CstrOp(ShapeOp):
    """``cstr_* %a, %b : A, B``: the result is a witness."""

    RESULT_TYPE: ClassVar[str | None] = "!shape.witness"


@irdl_op_definition
class ShapeOfOp(ShapeOp):
    """``shape.shape_of %t : tensor<?x4xf32> -> tensor<2xindex>``."""

    name = "shape.shape_of"


@irdl_op_definition
class ConstShapeOp(ShapeOp):
    """``shape.const_shape [2, 3] : tensor<2xindex>``."""

    name = "shape.const_shape"

    @classmethod
    def parse(cls, parser: Parser) -> ConstShapeOp:
        extents = parse_int_list(parser)
        extra = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        rtype = parser.parse_type()
        body = f"[{', '.join(str(e) for e in extents)}]" if extents else ""
        value = make_attr(parser, f"dense<{body}> : tensor<{len(extents)}xindex>")
        return cls.create(result_types=[rtype], attributes={"shape": value, **extra})


@irdl_op_definition
class ConstSizeOp(ShapeOp):
    """``shape.const_size 4``."""

    name = "shape.const_size"

    @classmethod
    def parse(cls, parser: Parser) -> ConstSizeOp:
        value = parser.parse_integer()
        extra = parser.parse_optional_attr_dict()
        attrs = {"value": make_attr(parser, f"{value} : index"), **extra}
        return cls.create(result_types=[SizeType()], attributes=attrs)


@irdl_op_definition
class ConstWitnessOp(ShapeOp):
    """``shape.const_witness true``."""

    name = "shape.const_witness"

    @classmethod
    def parse(cls, parser: Parser) -> ConstWitnessOp:
        passing = parser.parse_boolean()
        extra = parser.parse_optional_attr_dict()
        flag = make_attr(parser, "true" if passing else "false")
        return cls.create(result_types=[WitnessType()], attributes={"passing": flag, **extra})

    @property
    def passing(self) -> bool:
        """The constant outcome (``true``: the constraint holds)."""
        flag = self.attributes.get("passing")
        return isinstance(flag, IntegerAttr) and bool(flag.value.data)

    def print(self, printer: Printer) -> None:
        printer.print_string(" true" if self.passing else " false")
        printer.print_op_attributes(self.attributes, reserved_attr_names=("passing",))


@irdl_op_definition
class AssumingAllOp(CstrOp):
    """``shape.assuming_all %w0, %w1``."""

    name = "shape.assuming_all"
    OPERAND_TYPE: ClassVar[str | None] = "!shape.witness"

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class AssumingOp(ShapeOp):
    """``%r = shape.assuming %w -> (tensor<?xf32>) { ... shape.assuming_yield %x : ... }``."""

    name = "shape.assuming"

    @classmethod
    def parse(cls, parser: Parser) -> AssumingOp:
        witness = parser.resolve_operand(parser.parse_unresolved_operand(), WitnessType())
        types = []
        if parser.parse_optional_punctuation("->") is not None:
            parser.parse_punctuation("(")
            if parser.parse_optional_punctuation(")") is None:
                types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                parser.parse_punctuation(")")
        region = parser.parse_region()
        extra = parser.parse_optional_attr_dict()
        return cls.create(operands=[witness], result_types=types, attributes=extra, regions=[region])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        if self.results:
            printer.print_string(" -> (")
            printer.print_list([r.type for r in self.results], printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.regions[0], print_entry_block_args=False, print_block_terminators=True)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class AssumingYieldOp(ShapeOp):
    """``shape.assuming_yield %x : tensor<?xf32>``."""

    name = "shape.assuming_yield"
    NO_RESULTS: ClassVar[bool] = True
    traits = traits_def(IsTerminator())

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
            _print_types(printer, [o.type for o in self.operands])


class ShapesCstrOp(CstrOp):
    """A constraint on extent tensors: ``cstr_* %a, %b {error = "..."} : A, B``."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        _print_types(printer, [o.type for o in self.operands])


@irdl_op_definition
class CstrEqOp(ShapesCstrOp):
    """``%w = shape.cstr_eq %a, %b {error = "..."} : tensor<1xindex>, tensor<1xindex>``."""

    name = "shape.cstr_eq"


@irdl_op_definition
class CstrBroadcastableOp(ShapesCstrOp):
    """``%w = shape.cstr_broadcastable %a, %b {error = "..."} : tensor<2xindex>, tensor<1xindex>``."""

    name = "shape.cstr_broadcastable"


@irdl_op_definition
class CstrRequireOp(CstrOp):
    """``%w = shape.cstr_require %pred, "message"``."""

    name = "shape.cstr_require"
    OPERAND_TYPE: ClassVar[str | None] = "i1"

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(", ")
        printer.print_string_literal(message_of(self, "msg"))
        printer.print_op_attributes(self.attributes, reserved_attr_names=("msg",))


@irdl_op_definition
class MeetOp(ShapeOp):
    """``%m = shape.meet %a, %b, error = "..." : index, index -> index``."""

    name = "shape.meet"

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_error(printer, self, ", error = ")
        _print_types(printer, [o.type for o in self.operands], [r.type for r in self.results])


@irdl_op_definition
class BroadcastOp(ShapeOp):
    """``%s = shape.broadcast %a, %b error = "..." : tensor<2xindex>, tensor<1xindex> -> tensor<?xindex>``."""

    name = "shape.broadcast"

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("error") is not None:
            parser.parse_punctuation("=")
            attrs["error"] = StringAttr(parser.parse_str_literal())
        return cls.finish(parser, operands, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_error(printer, self, " error = ")
        _print_types(printer, [o.type for o in self.operands], [r.type for r in self.results])


def message_of(op: ShapeOp, key: str = "error") -> str:
    """The message attribute ``key`` of ``op`` ("" when it has none)."""
    attr = op.attributes.get(key)
    return attr.data if isinstance(attr, StringAttr) else ""


def _print_error(printer: Printer, op: ShapeOp, lead: str) -> None:
    """``lead "message"`` for the inherent ``error`` attribute, then the other attributes."""
    if "error" in op.attributes:
        printer.print_string(lead)
        printer.print_string_literal(message_of(op))
    printer.print_op_attributes(op.attributes, reserved_attr_names=("error",))


def _print_types(printer: Printer, ins: list[Attribute], outs: list[Attribute] | None = None) -> None:
    printer.print_string(" : ")
    printer.print_list(ins, printer.print_attribute)
    if outs is not None:
        printer.print_string(" -> ")
        printer.print_list(outs, printer.print_attribute)


def _simple(mnemonic: str, base: type[ShapeOp] = ShapeOp, **syntax: object) -> type[ShapeOp]:
    """A ``shape.<mnemonic>`` class with the common syntax (``syntax`` overrides its hooks)."""
    cls = type(
        "".join(p.capitalize() for p in mnemonic.split("_")) + "Op",
        (base,),
        {
            "name": f"shape.{mnemonic}",
            "__doc__": f"``shape.{mnemonic}``.",
            "__annotations__": {k: ClassVar[object] for k in syntax if k.isupper()},
            **syntax,
        },
    )
    return irdl_op_definition(cls)


_PLAIN = (
    "value_as_shape", "get_extent", "num_elements", "rank", "to_extent_tensor", "split_at",
    "concat", "mul", "add", "div", "max", "min", "value_of", "dim", "any", "shape_eq",
    "is_broadcastable", "reduce",
)

Shape = Dialect(
    "shape",
    [
        ShapeOfOp, ConstShapeOp, ConstSizeOp, ConstWitnessOp, AssumingAllOp, AssumingOp, AssumingYieldOp,
        CstrEqOp, CstrBroadcastableOp, CstrRequireOp, MeetOp, BroadcastOp,
        *(_simple(m) for m in _PLAIN),
        _simple("from_extents", RESULT_TYPE="!shape.shape"),
        _simple("index_to_size", OPERAND_TYPE="index", RESULT_TYPE="!shape.size"),  # ``index_to_size %i``
        _simple("size_to_index", RESULT_TYPE="index"),  # ``size_to_index %s : !shape.size``
        _simple("with_shape", RESULT_TYPE="!shape.value_shape"),  # ``with_shape %t, %s : T, !shape.shape``
        _simple("yield", NO_RESULTS=True, traits=traits_def(IsTerminator())),
        _simple("return", NO_RESULTS=True, traits=traits_def(IsTerminator())),
    ],
    [ShapeType, SizeType, WitnessType, ValueShapeType],
)
