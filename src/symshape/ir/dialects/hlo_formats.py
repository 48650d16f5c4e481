"""The StableHLO/MHLO ops with a pretty form of their own, read into the generic attributes.

``constant dense<1> : T``, ``custom_call @target(%a) : (A) -> R``, ``composite "name" %a``,
``reduce(%x init: %i) applies stablehlo.add across dimensions = [1]``, ``while(%it = %x) ...
cond {...} do {...}``, ``convolution(%x, %w) dim_numbers = ..., window = {...}``, ``compare GE,
%a, %b, SIGNED``, ``complex %a, %b : C``, ``tuple %a, %b : tuple<A, B>``, ``get_tuple_element
%t[1]``, ``reduce_precision %x, format = e5m10``. `FORMATS` names them for
`symshape.ir.dialects.hlo_ops.HloOpSpec.syntax`; everything else reads as `HloOp`.
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import AnyFloat, ComplexType, IntegerAttr, IntegerType, StringAttr, TensorType, TupleType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import traits_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import IsTerminator

from symshape.ir.dialects.hlo_syntax import Attrs, HloOp, int_list, make_attr, parse_int_list, parse_word_list


class ConstantFormat(HloOp):
    """``constant dense<1> : tensor<i32>``: the value attribute carries the result type."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        extra = parser.parse_optional_attr_dict()
        value = parser.parse_attribute()
        rtype = getattr(value, "type", None)
        if rtype is None:
            parser.raise_error(f"'{cls.name}' needs a typed value, e.g. dense<1> : tensor<i32>")
        return cls.create(result_types=[rtype], attributes={"value": value, **extra})


class CustomCallFormat(HloOp):
    """``custom_call @target(%a, %b) {attrs} : (A, B) -> R``."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        target = parser.parse_symbol_name()
        parser.parse_punctuation("(")
        operands: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation(")") is None:
            operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(")")
        return cls.finish(parser, operands, {"call_target_name": target})


class CompositeFormat(HloOp):
    """``composite "chlo.erf" %x {decomposition = @impl, version = 1 : i32} : (A) -> R``."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        name = parser.parse_str_literal()
        operands: list[UnresolvedOperand] = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
        return cls.finish(parser, operands, {"name": StringAttr(name)})


class ReduceFormat(HloOp):
    """``reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : T`` or with a
    ``reducer(%a: T, %b: T) { ... }`` region."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        inputs, inits = _parse_init_pairs(parser)
        applies = None
        if parser.parse_optional_keyword("applies") is not None:
            applies = parser.parse_identifier()
        attrs: Attrs = {}
        if parser.parse_optional_keyword("across") is not None:
            parser.parse_keyword("dimensions")
            parser.parse_punctuation("=")
            attrs["dimensions"] = make_attr(parser, int_list(parse_int_list(parser), cls.name))
        op = cls.finish(parser, inputs + inits, attrs)
        init_types = [v.type for v in op.operands[len(inputs):]]
        if applies is not None:
            op.add_region(_applies_region(parser, applies, init_types))
        elif parser.parse_optional_keyword("reducer") is not None:
            op.add_region(_reducer_region(parser))
        return op


def _parse_init_pairs(parser: Parser) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand]]:
    inputs: list[UnresolvedOperand] = []
    inits: list[UnresolvedOperand] = []
    while True:
        parser.parse_punctuation("(")
        inputs.append(parser.parse_unresolved_operand())
        parser.parse_keyword("init")
        parser.parse_punctuation(":")
        inits.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(")")
        if parser.parse_optional_punctuation(",") is None:
            return inputs, inits


def _applies_region(parser: Parser, op_name: str, types: list[Attribute]) -> Region:
    """The body of ``applies stablehlo.add``: ``return(add(lhs, rhs))`` per init value."""
    block = Block(arg_types=types + types)
    n = len(types)
    body_cls = parser.ctx.get_optional_op(op_name)
    ret_cls = parser.ctx.get_optional_op(op_name.split(".")[0] + ".return")
    if body_cls is None or ret_cls is None:
        parser.raise_error(f"unknown reduction op '{op_name}'")
    results: list[SSAValue] = []
    for i, t in enumerate(types):
        op = body_cls.create(operands=[block.args[i], block.args[n + i]], result_types=[t])
        block.add_op(op)
        results.append(op.results[0])
    block.add_op(ret_cls.create(operands=results))
    return Region([block])


def _reducer_region(parser: Parser) -> Region:
    """``reducer(%a: T, %c: T) (%b: U, %d: U) { ... }``: lhs of each pair first, then rhs."""
    groups: list[list[Parser.Argument]] = []
    while parser.parse_optional_punctuation("(") is not None:
        group = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_argument)
        parser.parse_punctuation(")")
        groups.append(group)
    args = [g[0] for g in groups] + [g[1] for g in groups]
    return parser.parse_region(args)


class WhileFormat(HloOp):
    """``while(%iterArg = %x, ...) : T, ... cond { ... } do { ... }``."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        parser.parse_punctuation("(")
        names: list[Parser.UnresolvedArgument] = []
        operands: list[UnresolvedOperand] = []
        while parser.parse_optional_punctuation(")") is None:
            if names:
                parser.parse_punctuation(",")
            names.append(parser.parse_argument(expect_type=False))
            parser.parse_punctuation("=")
            operands.append(parser.parse_unresolved_operand())
        extra = parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if parser.parse_optional_punctuation(":") is not None:
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_keyword("cond")
        cond = parser.parse_region([n.resolve(t) for n, t in zip(names, types, strict=True)])
        parser.parse_keyword("do")
        body = parser.parse_region([n.resolve(t) for n, t in zip(names, types, strict=True)])
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
        return cls.create(operands=values, result_types=types, attributes=extra, regions=[cond, body])


class ConvolutionFormat(HloOp):
    """``convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [...], pad = [[...]], lhs_dilate = [...], rhs_dilate = [...]} {attrs} : ...``."""

    WINDOW: ClassVar[dict[str, str]] = {
        "stride": "window_strides", "lhs_dilate": "lhs_dilation", "rhs_dilate": "rhs_dilation",
        "reverse": "window_reversal",
    }

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        parser.parse_punctuation("(")
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(")")
        attrs: Attrs = {}
        if parser.parse_optional_keyword("dim_numbers") is not None:
            parser.parse_punctuation("=")
            lhs = parse_word_list(parser)
            parser.parse_keyword("x")
            rhs = parse_word_list(parser)
            parser.parse_punctuation("->")
            out = parse_word_list(parser)
            body = f"[{', '.join(lhs)}]x[{', '.join(rhs)}]->[{', '.join(out)}]"
            attrs["dimension_numbers"] = make_attr(parser, f"#{cls.dialect_name()}.conv<{body}>")
            parser.parse_optional_punctuation(",")
        if parser.parse_optional_keyword("window") is not None:
            parser.parse_punctuation("=")
            attrs.update(cls._parse_window(parser))
        return cls.finish(parser, operands, attrs)

    @classmethod
    def _parse_window(cls, parser: Parser) -> Attrs:
        parser.parse_punctuation("{")
        attrs: Attrs = {}
        while parser.parse_optional_punctuation("}") is None:
            if attrs:
                parser.parse_punctuation(",")
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "pad":
                parser.parse_punctuation("[")
                rows = [parse_int_list(parser)]
                while parser.parse_optional_punctuation(",") is not None:
                    rows.append(parse_int_list(parser))
                parser.parse_punctuation("]")
                flat = ", ".join(f"[{', '.join(str(v) for v in r)}]" for r in rows)
                attrs["padding"] = make_attr(parser, f"dense<[{flat}]> : tensor<{len(rows)}x2xi64>")
            else:
                kind = "i1" if key == "reverse" else "i64"
                text = int_list(parse_int_list(parser), cls.name, kind)
                attrs[cls.WINDOW.get(key, key)] = make_attr(parser, text)
        return attrs


class CompareFormat(HloOp):
    """``compare GE, %a, %b, SIGNED : (A, B) -> R``."""

    LEADING_ENUM: ClassVar[tuple[str, str] | None] = ("comparison_direction", "comparison_direction")
    TRAILING_ENUM: ClassVar[tuple[str, str] | None] = ("compare_type", "comparison_type")


class ReturnFormat(HloOp):
    """``return %a, %b : A, B``."""

    NO_RESULTS: ClassVar[bool] = True
    traits = traits_def(IsTerminator())


class ComplexFormat(HloOp):
    """``complex %a, %b : tensor<4xcomplex<f32>>``: the operands have the parts' element type."""

    @classmethod
    def infer_types(cls, parser: Parser, n: int, plain: list[Attribute]) -> tuple[list[Attribute], list[Attribute]]:
        if len(plain) == 1 and isinstance(out := plain[0], TensorType):
            element = cast("TensorType[Attribute]", out).element_type
            if isinstance(element, ComplexType):
                complex_type = cast("ComplexType[AnyFloat]", element)
                part = TensorType(complex_type.element_type, out.get_shape())
                return [part] * n, [out]
        return super().infer_types(parser, n, plain)


class TupleFormat(HloOp):
    """``tuple %a, %b : tuple<A, B>``: the operands have the tuple's element types."""

    @classmethod
    def infer_types(cls, parser: Parser, n: int, plain: list[Attribute]) -> tuple[list[Attribute], list[Attribute]]:
        if len(plain) == 1 and isinstance(out := plain[0], TupleType):
            return list(out.types.data), [out]
        return super().infer_types(parser, n, plain)


class GetTupleElementFormat(HloOp):
    """``get_tuple_element %t[1] : (tuple<A, B>) -> B``."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer()
        parser.parse_punctuation("]")
        return cls.finish(parser, [operand], {"index": IntegerAttr(index, IntegerType(32))})


class ReducePrecisionFormat(HloOp):
    """``reduce_precision %x, format = e5m10 : T``: 5 exponent and 10 mantissa bits."""

    @classmethod
    def parse_keyword(cls, parser: Parser, word: str) -> Attrs:
        if word != "format":
            return super().parse_keyword(parser, word)
        text = parser.parse_identifier()
        exponent, sep, mantissa = text.removeprefix("e").partition("m")
        if not (text.startswith("e") and sep and exponent.isdigit() and mantissa.isdigit()):
            parser.raise_error(f"expected a format like e5m10, got '{text}'")
        i32 = IntegerType(32)
        return {"exponent_bits": IntegerAttr(int(exponent), i32), "mantissa_bits": IntegerAttr(int(mantissa), i32)}


FORMATS: dict[str, type[HloOp]] = {
    "operands": HloOp,
    "constant": ConstantFormat,
    "custom_call": CustomCallFormat,
    "composite": CompositeFormat,
    "reduce": ReduceFormat,
    "while": WhileFormat,
    "convolution": ConvolutionFormat,
    "compare": CompareFormat,
    "return": ReturnFormat,
    "complex": ComplexFormat,
    "tuple": TupleFormat,
    "get_tuple_element": GetTupleElementFormat,
    "reduce_precision": ReducePrecisionFormat,
}
