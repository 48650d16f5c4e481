"""The subset of the MLIR ``shape`` dialect symshape reads (seed 003's shape computations).

Types ``!shape.shape``, ``!shape.size``, ``!shape.witness``, ``!shape.value_shape``; the extent
ops (``shape_of``, ``const_shape``, ``value_as_shape``, ``broadcast``, ``get_extent``, ...),
the constraint ops (``cstr_*``, ``assuming_all``, ``const_witness``) and ``assuming`` regions.
Pretty forms follow upstream (``shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>``);
ops print in generic form. https://mlir.llvm.org/docs/Dialects/ShapeDialect/
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, traits_def
from xdsl.parser import Parser
from xdsl.traits import IsTerminator

from symshape.mlir.dialects.hlo_syntax import HloOp, make_attr, parse_int_list


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


@irdl_op_definition
class AssumingAllOp(CstrOp):
    """``shape.assuming_all %w0, %w1``."""

    name = "shape.assuming_all"
    OPERAND_TYPE: ClassVar[str | None] = "!shape.witness"


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


@irdl_op_definition
class AssumingYieldOp(ShapeOp):
    """``shape.assuming_yield %x : tensor<?xf32>``."""

    name = "shape.assuming_yield"
    NO_RESULTS: ClassVar[bool] = True
    traits = traits_def(IsTerminator())


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
    "value_as_shape", "broadcast", "get_extent", "num_elements", "rank", "to_extent_tensor", "split_at",
    "concat", "mul", "add", "div", "max", "min", "value_of", "dim", "any", "meet", "shape_eq",
    "is_broadcastable", "reduce",
)
_CSTR = ("cstr_broadcastable", "cstr_eq")

Shape = Dialect(
    "shape",
    [
        ShapeOfOp, ConstShapeOp, ConstSizeOp, ConstWitnessOp, AssumingAllOp, AssumingOp, AssumingYieldOp,
        *(_simple(m) for m in _PLAIN),
        *(_simple(m, CstrOp) for m in _CSTR),
        _simple("cstr_require", CstrOp, OPERAND_TYPE="i1"),
        _simple("from_extents", RESULT_TYPE="!shape.shape"),
        _simple("index_to_size", OPERAND_TYPE="index", RESULT_TYPE="!shape.size"),  # ``index_to_size %i``
        _simple("size_to_index", RESULT_TYPE="index"),  # ``size_to_index %s : !shape.size``
        _simple("with_shape", RESULT_TYPE="!shape.value_shape"),  # ``with_shape %t, %s : T, !shape.shape``
        _simple("yield", NO_RESULTS=True, traits=traits_def(IsTerminator())),
        _simple("return", NO_RESULTS=True, traits=traits_def(IsTerminator())),
    ],
    [ShapeType, SizeType, WitnessType, ValueShapeType],
)
