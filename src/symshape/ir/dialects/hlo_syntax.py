"""The common pretty form of the StableHLO/MHLO/shape subsets, read into the generic attributes.

Every op has the same lenient definition (`HloOp`: any operands, results and regions; attributes
kept as given), so the generic form of any StableHLO version parses. The common pretty form is
``op %a, %b, keyword = value, WORD {attrs} : types``: ``dims = [0, 1]``, ``contracting_dims =
[1] x [0]``, ``precision = [DEFAULT]``, ``compare GE, %a, %b, SIGNED``, ``type = FFT``, and
``%x [1:3, 0:4:2]`` slice ranges, with the types as ``T`` (one for all), ``(A, B) -> R`` or ``A, B``.
Ops with their own form subclass `HloOp` in `symshape.ir.dialects.hlo_formats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Region
from xdsl.irdl import IRDLOperation, var_operand_def, var_region_def, var_result_def
from xdsl.parser import Parser, UnresolvedOperand

Attrs = dict[str, Attribute]


def make_attr(parser: Parser, text: str) -> Attribute:
    """An attribute from its textual form, in the parser's context (for built pretty attrs).

    Memoized by the parser (symshape's offers `memo_text`): a new parser per attribute cost
    ~250 µs, a quarter of the read of a 10k-op module, whose ops repeat few ``dims = [...]``."""
    memo = getattr(parser, "memo_text", None)
    if memo is None:
        return Parser(parser.ctx, text).parse_attribute()
    return memo(text, lambda: Parser(parser.ctx, text).parse_attribute())


def parse_int_list(parser: Parser) -> list[int]:
    """``[1, 2]`` (the opening bracket already consumed or not)."""
    parser.parse_optional_punctuation("[")
    items: list[int] = []
    if parser.parse_optional_punctuation("]") is None:
        items.append(parser.parse_integer(allow_boolean=True))
        while parser.parse_optional_punctuation(","):
            items.append(parser.parse_integer(allow_boolean=True))
        parser.parse_punctuation("]")
    return items


def parse_word_list(parser: Parser) -> list[str]:
    """``[b, 0, 1, f]`` or ``[DEFAULT, HIGHEST]``: identifiers and integers as text."""
    parser.parse_punctuation("[")
    items: list[str] = []
    while parser.parse_optional_punctuation("]") is None:
        if items:
            parser.parse_punctuation(",")
        word = parser.parse_optional_identifier()
        items.append(word if word is not None else str(parser.parse_integer()))
    return items


def i64_array(values: list[int]) -> str:
    """``array<i64: 1, 2>``."""
    return f"array<i64{': ' if values else ''}{', '.join(str(v) for v in values)}>"


def int_list(values: list[int], op_name: str, kind: str = "i64") -> str:
    """A list attribute as the op's dialect keeps it: stablehlo an ``array<i64: 1, 2>``, mhlo
    dense elements, ``dense<[1, 2]> : tensor<2xi64>`` (``kind`` i1: ``true``/``false``)."""
    items = [("true" if v else "false") if kind == "i1" else str(v) for v in values]
    if op_name.startswith("mhlo."):
        return f"dense<[{', '.join(items)}]> : tensor<{len(items)}x{kind}>"
    return f"array<{kind}{': ' if items else ''}{', '.join(items)}>"


def parse_type_spec(parser: Parser) -> tuple[list[Attribute] | None, list[Attribute] | None, list[Attribute]]:
    """After ``:``: ``(A, B) -> R``, ``A, B -> R``, ``A -> (R1, R2)`` or a plain list ``A[, B]``.

    Returns (operand types, result types, plain types); the first two are None without ``->``.
    Memoized by its text when the parser offers it (symshape's does: `memo_rest_of_line`).
    """
    memo = getattr(parser, "memo_rest_of_line", None)
    if memo is None:
        return _parse_type_spec(parser)
    ins, outs, plain = memo(lambda: _frozen(_parse_type_spec(parser)))
    return (None if ins is None else list(ins), None if outs is None else list(outs), list(plain))


_Frozen = tuple[tuple[Attribute, ...] | None, tuple[Attribute, ...] | None, tuple[Attribute, ...]]


def _frozen(spec: tuple[list[Attribute] | None, list[Attribute] | None, list[Attribute]]) -> _Frozen:
    ins, outs, plain = spec
    return (None if ins is None else tuple(ins), None if outs is None else tuple(outs), tuple(plain))


def _parse_type_spec(parser: Parser) -> tuple[list[Attribute] | None, list[Attribute] | None, list[Attribute]]:
    if parser.parse_optional_punctuation("(") is not None:
        ins: list[Attribute] = []
        if parser.parse_optional_punctuation(")") is None:
            ins = list(_types(parser))
            parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        return ins, _parse_results(parser), []
    plain: list[Attribute] = list(_types(parser))
    if parser.parse_optional_punctuation("->") is not None:
        return plain, _parse_results(parser), []
    return None, None, plain


def _types(parser: Parser) -> list[Attribute]:
    return list(parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type))


def _parse_results(parser: Parser) -> list[Attribute]:
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        out = _types(parser)
        parser.parse_punctuation(")")
        return out
    return [parser.parse_type()]


class HloOp(IRDLOperation):
    """An op of the subset: any operands, results and regions; pretty syntax per class.

    ``KEYWORDS`` maps a pretty keyword (``dims``) to its generic attribute (``broadcast_dimensions``),
    ``ENUMS`` a keyword with a bare enum word to ``(attribute, enum kind)`` (``type = FFT``), as
    `symshape.ir.dialects.hlo_ops.HLO_OPS` lists them; ``LEADING_ENUM``/``TRAILING_ENUM`` name
    the attributes of bare words (``compare GE, ..., SIGNED``).
    """

    args = var_operand_def()
    outs = var_result_def()
    bodies = var_region_def()

    KEYWORDS: ClassVar[Mapping[str, str]] = {}
    ENUMS: ClassVar[Mapping[str, tuple[str, str]]] = {}
    LEADING_ENUM: ClassVar[tuple[str, str] | None] = None  # (attribute, enum kind)
    TRAILING_ENUM: ClassVar[tuple[str, str] | None] = None
    NO_RESULTS: ClassVar[bool] = False
    RESULT_TYPE: ClassVar[str | None] = None  # the result type when the text gives none (!shape.witness)
    OPERAND_TYPE: ClassVar[str | None] = None  # the operand type when the text gives none

    @classmethod
    def dialect_name(cls) -> str:
        """``stablehlo`` or ``mhlo``."""
        return cls.name.split(".", 1)[0]

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        """``operands (, keyword = value | , ENUM)* attr-dict : types`` (see the module doc)."""
        attrs: Attrs = {}
        operands = cls.parse_items(parser, attrs)
        return cls.finish(parser, operands, attrs)

    @classmethod
    def parse_items(cls, parser: Parser, attrs: Attrs) -> list[UnresolvedOperand]:
        """The comma-separated operands, keywords and enum words before the attribute dict."""
        operands: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("(") is not None:  # ``mhlo.add(%a, %b) : ...``
            if parser.parse_optional_punctuation(")") is None:
                operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
                parser.parse_punctuation(")")
            return operands
        first = True
        while first or parser.parse_optional_punctuation(",") is not None:
            first = False
            operand = parser.parse_optional_unresolved_operand()
            if operand is not None:
                operands.append(operand)
                if parser.parse_optional_punctuation("[") is not None:
                    attrs.update(_slice_ranges(parser))
                continue
            if (text := parser.parse_optional_str_literal()) is not None:
                attrs["msg"] = StringAttr(text)
                continue
            word = parser.parse_optional_identifier()
            if word is None:
                break
            if parser.parse_optional_punctuation("=") is not None:
                attrs.update(cls.parse_keyword(parser, word))
            else:
                cls.set_enum(parser, attrs, word)
        return operands

    @classmethod
    def set_enum(cls, parser: Parser, attrs: Attrs, word: str) -> None:
        """A bare enum word: the leading one first (``GE``), then the trailing one (``SIGNED``)."""
        slot = cls.LEADING_ENUM if cls.LEADING_ENUM and cls.LEADING_ENUM[0] not in attrs else cls.TRAILING_ENUM
        if slot is None:
            parser.raise_error(f"unexpected word '{word}' in '{cls.name}'")
        attrs[slot[0]] = cls.enum_attr(parser, slot[1], word)

    @classmethod
    def enum_attr(cls, parser: Parser, kind: str, word: str) -> Attribute:
        """``#stablehlo<kind WORD>`` (``#stablehlo<comparison_direction GE>``)."""
        return make_attr(parser, f"#{cls.dialect_name()}<{kind} {word}>")

    @classmethod
    def parse_keyword(cls, parser: Parser, word: str) -> Attrs:
        """``word = value`` -> generic attributes."""
        if word in ("contracting_dims", "batching_dims"):
            lhs = parse_int_list(parser)
            parser.parse_keyword("x")
            rhs = parse_int_list(parser)
            kind = word.split("_")[0]
            return {f"_{kind}": make_attr(parser, f"[{i64_array(lhs)}, {i64_array(rhs)}]")}
        if word == "precision":
            words = parse_word_list(parser)
            text = ", ".join(f"#{cls.dialect_name()}<precision {w}>" for w in words)
            return {"precision_config": make_attr(parser, f"[{text}]")}
        if word in cls.ENUMS:
            attribute, kind = cls.ENUMS[word]
            return {attribute: cls.enum_attr(parser, kind, parser.parse_identifier())}
        target = cls.KEYWORDS.get(word, word)
        if parser.parse_optional_punctuation("[") is not None:
            values = parse_int_list(parser)
            return {target: make_attr(parser, i64_array(values))}
        if (text := parser.parse_optional_str_literal()) is not None:
            return {target: StringAttr(text)}
        if (number := parser.parse_optional_integer(allow_boolean=False)) is not None:
            return {target: make_attr(parser, f"{number} : i64")}
        return {target: parser.parse_attribute()}

    @classmethod
    def finish(
        cls, parser: Parser, operands: list[UnresolvedOperand], attrs: Attrs, regions: list[Region] | None = None
    ) -> HloOp:
        """Attribute dict, ``:`` types, operand resolution and the op itself."""
        extra = parser.parse_optional_attr_dict()
        attrs = {**_fold_dot_dims(parser, cls.dialect_name(), attrs), **extra}
        ins, outs, plain = ([], [], []) if parser.parse_optional_punctuation(":") is None else parse_type_spec(parser)
        if ins is None:
            ins, outs = cls.infer_types(parser, len(operands), plain)
        if cls.RESULT_TYPE is not None and not outs and not cls.NO_RESULTS:
            outs = [Parser(parser.ctx, cls.RESULT_TYPE).parse_type()]
        if cls.OPERAND_TYPE is not None and not ins and operands:
            ins = [Parser(parser.ctx, cls.OPERAND_TYPE).parse_type()]
        if len(ins) == 1 and len(operands) > 1:
            ins = ins * len(operands)
        if len(ins) != len(operands):
            parser.raise_error(f"'{cls.name}' has {len(operands)} operands but {len(ins)} types")
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, ins, strict=True)]
        return cls.create(operands=values, result_types=outs or [], attributes=attrs, regions=regions or [])

    @classmethod
    def infer_types(cls, parser: Parser, n: int, plain: list[Attribute]) -> tuple[list[Attribute], list[Attribute]]:
        """Types without ``->``: one type for all (``add``), ``pred, T`` (``select``), or one each."""
        if cls.NO_RESULTS or cls.RESULT_TYPE is not None:
            return plain, []
        if len(plain) == 1:
            return plain * n, plain[:1]
        if len(plain) == 2 and n == 3:
            return [plain[0], plain[1], plain[1]], [plain[1]]
        if len(plain) == n:
            return plain, list(plain)
        parser.raise_error(f"cannot tell the operand and result types of '{cls.name}' from {len(plain)} types")
        raise AssertionError  # unreachable: raise_error raises


def _slice_ranges(parser: Parser) -> Attrs:
    """``[0:2, 1:4:2]`` (the bracket already consumed) -> start/limit/strides."""
    starts: list[int] = []
    limits: list[int] = []
    strides: list[int] = []
    while parser.parse_optional_punctuation("]") is None:
        if starts:
            parser.parse_punctuation(",")
        starts.append(parser.parse_integer())
        parser.parse_punctuation(":")
        limits.append(parser.parse_integer())
        strides.append(parser.parse_integer() if parser.parse_optional_punctuation(":") else 1)
    return {
        "start_indices": make_attr(parser, i64_array(starts)),
        "limit_indices": make_attr(parser, i64_array(limits)),
        "strides": make_attr(parser, i64_array(strides)),
    }


def _fold_dot_dims(parser: Parser, dialect: str, attrs: Attrs) -> Attrs:
    """``batching_dims``/``contracting_dims`` pairs -> ``dot_dimension_numbers = #d.dot<...>``."""
    pairs = {k: attrs.pop(k) for k in ("_batching", "_contracting") if k in attrs}
    if not pairs:
        return attrs
    fields: list[str] = []
    for kind, value in pairs.items():
        items = cast("ArrayAttr[Attribute]", value).data  # ``[lhs, rhs]``, made by parse_keyword
        lhs, rhs = (str(a).replace("array<i64: ", "[").replace("array<i64>", "[]").replace(">", "]") for a in items)
        fields.append(f"lhs{kind}_dimensions = {lhs}, rhs{kind}_dimensions = {rhs}")
    attrs["dot_dimension_numbers"] = make_attr(parser, f"#{dialect}.dot<{', '.join(fields)}>")
    return attrs
