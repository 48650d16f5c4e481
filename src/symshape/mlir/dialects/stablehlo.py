"""The subset of StableHLO that symshape reads: ops with shape semantics, generic and pretty.

xDSL removed its stablehlo dialect (xdsl#5289), so symshape keeps its own. Every op has the same
lenient definition (any operands, results and regions; attributes kept as given), so the generic
form of any StableHLO version parses. The pretty forms ``stablehlo-opt`` and ``jax.export``
print (``stablehlo.add %0, %1 : tensor<?xf32>``, ``dims = [0, 1]``, ``contracting_dims = [1] x
[0]``, ``stablehlo.compare GE, %a, %b, SIGNED``, ``stablehlo.custom_call @target(...)``,
``stablehlo.reduce(... init: ...) applies ...``, ``stablehlo.slice %x [1:3, 0:4:2]``,
``stablehlo.while``) are parsed into the attributes of the generic form. Ops print in generic
form, which every MLIR parser accepts. https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import IsTerminator

# ---------------------------------------------------------------- the pretty-form reader

Attrs = dict[str, Attribute]


def make_attr(parser: Parser, text: str) -> Attribute:
    """An attribute from its textual form, in the parser's context (for built pretty attrs)."""
    return Parser(parser.ctx, text).parse_attribute()


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


def parse_type_spec(parser: Parser) -> tuple[list[Attribute] | None, list[Attribute] | None, list[Attribute]]:
    """After ``:``: ``(A, B) -> R``, ``A, B -> R``, ``A -> (R1, R2)`` or a plain list ``A[, B]``.

    Returns (operand types, result types, plain types); the first two are None without ``->``.
    """
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

    ``KEYWORDS`` maps a pretty keyword (``dims``) to its generic attribute (``broadcast_dimensions``);
    ``LEADING_ENUM``/``TRAILING_ENUM`` name the attributes of bare words (``compare GE, ..., SIGNED``).
    """

    args = var_operand_def()
    outs = var_result_def()
    bodies = var_region_def()

    KEYWORDS: ClassVar[dict[str, str]] = {}
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
        attrs[slot[0]] = make_attr(parser, f"#{cls.dialect_name()}<{slot[1]} {word}>")

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


# ------------------------------------------------------------------- special pretty forms


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
            attrs["dimensions"] = make_attr(parser, i64_array(parse_int_list(parser)))
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
                values = parse_int_list(parser)
                kind = "i1" if key == "reverse" else "i64"
                text = f"array<{kind}{': ' if values else ''}{', '.join(str(v) for v in values)}>"
                attrs[cls.WINDOW.get(key, key)] = make_attr(parser, text)
        return attrs


class FunctionalFormat(HloOp):
    """``op(%a, %b) {attrs} : (A, B) -> R`` (the form ``stablehlo.einsum``-like ops fall back to)."""

    @classmethod
    def parse(cls, parser: Parser) -> HloOp:
        parser.parse_punctuation("(")
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(")")
        return cls.finish(parser, operands, {})


# -------------------------------------------------------------------------- the ops

UNARY = (
    "abs", "cbrt", "ceil", "convert", "cosine", "count_leading_zeros", "exponential",
    "exponential_minus_one", "floor", "imag", "is_finite", "log", "log_plus_one", "logistic",
    "negate", "not", "popcnt", "real", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign",
    "sine", "sqrt", "tan", "tanh", "bitcast_convert", "reduce_precision", "erf",
)
BINARY = (
    "add", "and", "atan2", "complex", "divide", "maximum", "minimum", "multiply", "or", "power",
    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "xor",
)
PLAIN = (
    "select", "clamp", "reshape", "dynamic_reshape", "real_dynamic_slice", "dynamic_pad",
    "dynamic_update_slice", "compute_reshape_shape", "cstr_reshapable", "gather", "dynamic_gather",
    "scatter", "sort", "optimization_barrier", "map", "reduce_window", "select_and_scatter",
    "batch_norm_inference", "batch_norm_training", "tuple", "after_all", "create_token",
    "dynamic_conv", "rng", "cholesky", "triangular_solve", "fft", "case", "if", "all_reduce",
    "unary_einsum", "get_tuple_element", "dot",
)
KEYWORD_OPS: dict[str, dict[str, str]] = {
    "broadcast_in_dim": {"dims": "broadcast_dimensions"},
    "dynamic_broadcast_in_dim": {"dims": "broadcast_dimensions"},
    "broadcast": {"sizes": "broadcast_sizes"},
    "transpose": {"dims": "permutation"},
    "reverse": {"dims": "dimensions"},
    "concatenate": {"dim": "dimension"},
    "get_dimension_size": {"dim": "dimension"},
    "set_dimension_size": {"dim": "dimension"},
    "iota": {"dim": "iota_dimension"},
    "dynamic_iota": {"dim": "iota_dimension"},
    "slice": {},
    "dynamic_slice": {"sizes": "slice_sizes"},
    "pad": {"low": "edge_padding_low", "high": "edge_padding_high", "interior": "interior_padding"},
    "dot_general": {},
    "einsum": {"config": "einsum_config"},
}
SPECIAL: dict[str, type[HloOp]] = {
    "constant": ConstantFormat,
    "custom_call": CustomCallFormat,
    "composite": CompositeFormat,
    "reduce": ReduceFormat,
    "while": WhileFormat,
    "convolution": ConvolutionFormat,
}


class CompareFormat(HloOp):
    """``compare GE, %a, %b, SIGNED : (A, B) -> R``."""

    LEADING_ENUM: ClassVar[tuple[str, str] | None] = ("comparison_direction", "comparison_direction")
    TRAILING_ENUM: ClassVar[tuple[str, str] | None] = ("compare_type", "comparison_type")


class ReturnFormat(HloOp):
    """``return %a, %b : A, B``."""

    NO_RESULTS: ClassVar[bool] = True
    traits = traits_def(IsTerminator())


def op_class(dialect: str, mnemonic: str) -> type[HloOp]:
    """The op class for ``dialect.mnemonic`` with the pretty syntax its mnemonic uses."""
    base: type[HloOp] = SPECIAL.get(mnemonic, HloOp)
    if mnemonic == "compare":
        base = CompareFormat
    elif mnemonic == "return":
        base = ReturnFormat
    body: dict[str, object] = {"name": f"{dialect}.{mnemonic}", "__doc__": f"``{dialect}.{mnemonic}``."}
    if mnemonic in KEYWORD_OPS:
        body["KEYWORDS"] = KEYWORD_OPS[mnemonic]
        body["__annotations__"] = {"KEYWORDS": ClassVar[dict[str, str]]}
    cls = cast(type[HloOp], type(_class_name(mnemonic), (base,), body))
    return irdl_op_definition(cls)


def _class_name(mnemonic: str) -> str:
    return "".join(part.capitalize() for part in mnemonic.split("_")) + "Op"


MNEMONICS: tuple[str, ...] = (
    *UNARY, *BINARY, *PLAIN, *KEYWORD_OPS, *SPECIAL, "compare", "return",
)


def make_ops(dialect: str, extra: tuple[str, ...] = ()) -> list[type[Operation]]:
    """One class per mnemonic (the HLO dialects share syntax and attribute names)."""
    return [op_class(dialect, m) for m in (*MNEMONICS, *extra)]


_OPS = make_ops("stablehlo")

StableHLO = Dialect("stablehlo", _OPS, [])
