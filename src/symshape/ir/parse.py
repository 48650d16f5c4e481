"""MLIR text -> xDSL ``ModuleOp``, keeping the value names of the text.

The context knows builtin, func and cf (from xDSL), arith and tensor (xDSL's, with the few ops it
lacks, `symshape.ir.dialects.upstream`) and symshape's stablehlo, mhlo, shape and constraint
subsets, each in generic and pretty form (``tests/ir/test_op_forms.py`` checks every op with a
rule against the forms ``iree-opt`` and jaxlib print); any other op, attribute or type stays
*unregistered* and is read in generic form. An empty text is an empty module, as for ``mlir-opt``.
Before parsing, locations are dropped (``loc(...)`` and the ``#loc`` aliases that ``jax.export``
writes after their uses, which xDSL cannot resolve) and old quoted opaque attributes
(``#mhlo<"precision DEFAULT">``) are rewritten to the bare form.

xDSL forgets numeric names (``%0``); `source_names` returns the name each SSA value had in the
text (``arg0``, ``3``, ``5#1`` for result 1 of ``%5:2``), recorded while parsing.

Every attribute keeps the text it was read from (`source_attribute_texts`), and the printer
prints an attribute no pass replaced from that text (`symshape.ir.printing`): a value is never
re-derived through Python numbers (``dense<0xFF800000> : tensor<f32>`` is -inf, bit for bit;
xDSL would print the float it holds, and a NaN's payload or a bf16 it cannot print exactly would
change). The values the analysis reads are right too: a hex literal in a float dense attribute
is the float's bits, as MLIR reads it (xDSL reads the integer).

When the text uses a pretty form of another dialect (``chlo``, ``linalg``, a stablehlo op that
has no rule), `parse_module` lets MLIR's own parser print it in generic form first
(`generic_text`: jaxlib's, else IREE's) and maps the names back by position.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import AttrParser, Parser, Span
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from symshape.errors import FIX_MODEL, ModelError, where_file
from symshape.ir.clean import NEWLINE_RUN, balanced_end, opaque_quotes
from symshape.ir.clean import clean_text as clean_text
from symshape.ir.generic_text import generic_text

_NAMES: weakref.WeakKeyDictionary[ModuleOp, dict[SSAValue, str]] = weakref.WeakKeyDictionary()
_FOREIGN_PROPERTIES: weakref.WeakSet[Operation] = weakref.WeakSet()
_OFFSETS: weakref.WeakKeyDictionary[ModuleOp, tuple[str, dict[Operation, int]]] = weakref.WeakKeyDictionary()
_ATTRIBUTE_TEXTS: weakref.WeakKeyDictionary[ModuleOp, AttributeTexts] = weakref.WeakKeyDictionary()
_METADATA: weakref.WeakKeyDictionary[ModuleOp, str] = weakref.WeakKeyDictionary()
_VERIFIED: weakref.WeakSet[ModuleOp] = weakref.WeakSet()
_METADATA_BLOCK = re.compile(r"^\{-#.*?^#-\}[ \t]*$", re.M | re.S)

AttributeTexts = dict[int, tuple[Attribute, str]]
"""``id(attribute)`` -> (the attribute, the text it was read from). Keyed by identity, not by
value: two texts of one value (``1.0`` and ``1.000``) each print as written, and an equal
attribute a pass builds prints as xDSL prints it. The attribute is held so its id stays its own."""


def make_context() -> Context:
    """A context with every dialect symshape reads; unknown ones are allowed (unregistered)."""
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.cf import Cf
    from xdsl.dialects.func import Func

    from symshape.ir.dialects.chlo import CHLO
    from symshape.ir.dialects.constraint import SymShape
    from symshape.ir.dialects.mhlo import MHLO
    from symshape.ir.dialects.shape import Shape
    from symshape.ir.dialects.stablehlo import StableHLO
    from symshape.ir.dialects.upstream import ArithWithRemf, TensorWithGenerate

    ctx = Context(allow_unregistered=True)
    for dialect in (Builtin, Func, Cf, ArithWithRemf, TensorWithGenerate, StableHLO, MHLO, CHLO, Shape, SymShape):
        ctx.load_dialect(dialect)
    return ctx


class _LinearLexer(MLIRLexer):
    """xDSL's lexer with a string-literal pattern that cannot backtrack: xDSL's nests ``+`` in
    ``*``, which takes exponential time on an unclosed string (found by the reader fuzzer; a
    70-character unclosed string took minutes). The possessive form matches the same strings."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')


T = TypeVar("T")


@dataclass
class _HexLiteral(AttrParser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]
    """A hex element of a dense literal: for a float type, the float's bits (MLIR's reading)."""

    def to_type(self, parser: AttrParser, type: Any) -> Any:  # noqa: A002 - xDSL's parameter name
        """The float these bits encode for a float type; otherwise as xDSL reads it."""
        if isinstance(type, AnyFloat) and isinstance(self.value, int) and not isinstance(self.value, bool):
            bits = self.value.to_bytes(type.compile_time_size, "little")
            return next(iter(type.iter_unpack(bits)))
        return super().to_type(parser, type)


_ALIAS_USE = re.compile(r"[#!][\w$.-]+")


class _NamingParser(Parser):
    """A parser that remembers the text name of every SSA value it defines, and the text of
    every attribute."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(_LinearLexer(Input(text, name)))
        self.value_names: dict[SSAValue, str] = {}
        self.attribute_texts: AttributeTexts = {}
        self.op_offsets: dict[Operation, int] = {}
        self._memo: dict[str, tuple[Any]] = {}
        self._made: dict[str, tuple[Any]] = {}

    def memo_text(self, text: str, make: Callable[[], T]) -> T:
        """``make()`` memoized by ``text`` for this parse (immutable values only)."""
        found = self._made.get(text)
        if found is None:
            found = self._made[text] = (make(),)
        return found[0]

    def memo_rest_of_line(self, parse: Callable[[], T]) -> T:
        """``parse()`` of the text from here to the end of the line (a trailing ``loc(...)``
        left out), memoized by that text: an op's type spec is its line's tail, a module has few
        distinct ones, and xDSL's type parser was half of the read of a 10k-op module. A parse
        that stops elsewhere is not memoized. The values must be immutable (types are)."""
        lexer = self._parser_state.lexer
        text = lexer.input.content
        start = self._current_token.span.start
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        at_loc = text.rfind(" loc(", start, end)
        key = text[start:end if at_loc < 0 else at_loc].rstrip()
        found = self._memo.get(key)
        if found is not None:
            stop = start + len(key)
            lexer.pos = stop
            self._parser_state.current_token = lexer.lex()
            return found[0]
        value = parse()
        if text[start:self._current_token.span.start].rstrip() == key:
            self._memo[key] = (value,)
        return value

    def parse_optional_attribute(self) -> Attribute | None:
        """An attribute, its source text remembered (`AttributeTexts`)."""
        start = self._current_token.span.start
        attr = super().parse_optional_attribute()
        if attr is not None:
            source = self._parser_state.lexer.input.content
            text = NEWLINE_RUN.sub(" ", source[start:self._current_token.span.start].rstrip())
            if not (self.attribute_aliases and any(a in self.attribute_aliases for a in _ALIAS_USE.findall(text))):
                self.attribute_texts[id(attr)] = (attr, text)  # an alias use prints as its value instead
        return attr

    def _parse_tensor_literal_element(self) -> AttrParser._TensorLiteralElement:  # pyright: ignore[reportPrivateUsage]
        element = super()._parse_tensor_literal_element()
        if element.span.text.startswith(("0x", "0X")):
            return _HexLiteral(element.is_negative, element.value, element.span)
        return element

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """The module, or an empty one for a text without ops (as ``mlir-opt`` reads it)."""
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as err:
            # xDSL says this at the end of the text only when it read no op at all
            if err.msg == "Could not parse entire input!" and self._current_token.kind == MLIRTokenKind.EOF:
                return ModuleOp([])
            raise

    def parse_operation(self) -> Operation:
        """An op; a failure other than a ParseError (a custom format's type constraint raises
        VerifyException, a custom parser may raise anything) becomes a ParseError at the op."""
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except ParseError:
            raise
        except (VerifyException, DiagnosticException) as err:
            raise ParseError(start, _first_line(err)) from None
        except Exception as err:  # noqa: BLE001 - any failure of a custom parser is unreadable input
            raise ParseError(start, f"{type(err).__name__}: {_first_line(err)}") from None
        self.op_offsets[op] = start.start
        return op

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        super()._register_ssa_definition(name, values, span)
        if len(values) == 1:
            self.value_names[values[0]] = name
        else:
            for i, v in enumerate(values):
                self.value_names[v] = f"{name}#{i}"


def _first_line(err: Exception) -> str:
    """The first non-empty line of an exception's message (xDSL's may span several)."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    return lines[0] if lines else type(err).__name__


def _one_line(err: ParseError) -> str:
    """Where and what of an xDSL ParseError on one line: ``line 3, column 7 ('source line'):
    message`` (the line is left out when the error is at the end of the text)."""
    loc = err.span.get_location()
    line, column = int(loc.line), int(loc.col)
    content = err.span.input.content
    source = (content if isinstance(content, str) else content.decode("utf-8", "replace")).splitlines()
    text = source[line - 1].strip() if 0 < line <= len(source) else ""
    message = " ".join(ln.strip() for ln in err.msg.splitlines() if ln.strip())
    message = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in message)
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)
    quoted = f" ('{text}')" if text else ""
    return f"line {line}, column {column}{quoted}: {message}"


_READS = (
    "MLIR that parses: every op in generic form, and the pretty forms of builtin, func, arith, tensor, cf, "
    "shape, stablehlo, mhlo and symshape"
)


def parse_module(text: str, ctx: Context | None = None, *, source: str = "<string>") -> ModuleOp:
    """Parse ``text``; ModelError (with the line and a hint) when it is not valid MLIR.

    A text xDSL cannot read is given to MLIR's own parser when jaxlib or IREE is installed
    (`generic_text`), for the pretty forms of ops symshape has no definition of.
    """
    ctx = ctx or make_context()
    clean = clean_text(text)
    try:
        module = _parse(ctx, clean, source, opaque_quotes(text))
    except ParseError as err:
        generic = generic_text(text)
        if generic is None:
            raise ModelError(
                where=where_file(source),
                found=f"cannot parse it at {_one_line(err)}",
                expected=_READS,
                fix=f"{FIX_MODEL}, or print the module in generic form (mlir-opt --mlir-print-op-generic)",
            ) from None
    else:
        _keep_metadata(module, text)
        return module
    try:
        module = _parse(ctx, clean_text(generic), source)
    except ParseError as err:
        raise ModelError(
            where=where_file(source),
            found=f"cannot parse it even in the generic form MLIR prints, at {_one_line(err)}",
            expected=_READS,
            fix=FIX_MODEL,
        ) from None
    _OFFSETS.pop(module, None)  # the generic text's lines are not the source's
    _rename_like_source(module, clean)
    _keep_metadata(module, text)
    return module


def parse_attribute_text(ctx: Context, text: str) -> Attribute:
    """The attribute or type ``text`` spells (hex floats and quoted opaque attributes read as MLIR reads them)."""
    return _NamingParser(ctx, clean_text(text) if '<"' in text else text).parse_attribute()


def adopt_module(module: ModuleOp, names: dict[SSAValue, str], texts: AttributeTexts, *, verified: bool) -> None:
    """Record for ``module``, built by another reader, what `parse_module` records, and whether
    MLIR's own verifier checked every op (`verified_by_mlir`)."""
    _NAMES[module] = names
    _ATTRIBUTE_TEXTS[module] = texts
    _properties_as_attributes(module)
    if verified:
        _VERIFIED.add(module)


def verified_by_mlir(module: ModuleOp) -> bool:
    """Whether MLIR's verifier checked every op of ``module`` as read (`adopt_module`)."""
    return module in _VERIFIED


def _keep_metadata(module: ModuleOp, text: str) -> None:
    """Keep the file's ``{-# ... #-}`` blocks (``dialect_resources``: the weights torch-mlir
    writes as ``dense_resource`` blobs), which xDSL reads but does not print."""
    blocks = _METADATA_BLOCK.findall(text)
    if blocks:
        _METADATA[module] = "\n".join(blocks)


def source_metadata(module: ModuleOp) -> str:
    """The ``{-# ... #-}`` blocks of the text ``module`` was read from ("" if none)."""
    return _METADATA.get(module, "")


def _parse(ctx: Context, text: str, source: str, quotes: dict[str, str] | None = None) -> ModuleOp:
    """``text`` (cleaned) as a module; ``quotes`` puts back the quotes of the opaque attributes
    the cleaning took off (`opaque_quotes`) in the texts the attributes print from."""
    parser = _NamingParser(ctx, text, source)
    module = parser.parse_module()
    for unquoted, written in (quotes or {}).items():
        for key, (attr, attr_text) in parser.attribute_texts.items():
            if unquoted in attr_text:
                parser.attribute_texts[key] = (attr, attr_text.replace(unquoted, written))
    _NAMES[module] = parser.value_names
    _OFFSETS[module] = (text, parser.op_offsets)
    _ATTRIBUTE_TEXTS[module] = parser.attribute_texts
    _properties_as_attributes(module)
    return module


def _properties_as_attributes(module: ModuleOp) -> None:
    """Keep in the attribute dictionary the properties an op's class does not declare.

    The HLO/shape op classes declare none, so any StableHLO version verifies; an upstream op
    that a newer MLIR gave a property xDSL lacks (``arith.trunci``'s ``overflowFlags``) verifies
    too. MLIR reads inherent attributes from the dictionary as well.
    """
    from xdsl.irdl import IRDLOperation

    from symshape.ir.dialects.hlo_syntax import HloOp

    for op in module.walk():
        if not op.properties:
            continue
        if isinstance(op, HloOp):
            op.attributes.update(op.properties)
            op.properties.clear()
        elif isinstance(op, IRDLOperation):
            declared = type(op).get_irdl_definition().properties
            for name in [n for n in op.properties if n not in declared]:
                op.attributes[name] = op.properties.pop(name)
                _FOREIGN_PROPERTIES.add(op)


def has_foreign_properties(op: Operation) -> bool:
    """Whether ``op`` had properties its xDSL class does not declare (kept as attributes): its
    custom form would put them in the attribute dictionary, which MLIR refuses for inherent
    attributes, so it is printed in generic form."""
    return op in _FOREIGN_PROPERTIES


def source_line(module: ModuleOp, op: Operation) -> int | None:
    """The line of ``op`` in the text ``module`` was parsed from (None when unknown)."""
    text, offsets = _OFFSETS.get(module, ("", {}))
    offset = offsets.get(op)
    return None if offset is None else text.count("\n", 0, offset) + 1


def source_attribute_texts(module: ModuleOp) -> AttributeTexts:
    """The text each attribute of ``module`` was read from (see `AttributeTexts`)."""
    return _ATTRIBUTE_TEXTS.get(module, {})


def source_names(module: ModuleOp) -> dict[SSAValue, str]:
    """The text name of each value of ``module`` (without ``%``), when it was parsed by us."""
    return _NAMES.get(module, {})


_DEF = re.compile(r"^\s*((?:%[\w$.-]+(?::\d+)?\s*,\s*)*%[\w$.-]+(?::\d+)?)\s*=", re.M)
_FUNC_ARGS = re.compile(r"func\.func\s+(?:\w+\s+)?@[\w$.-]+\s*\(")


def _rename_like_source(module: ModuleOp, source: str) -> None:
    """Give the values of a jaxlib-converted module the names of the pretty ``source``.

    The generic print keeps the op order, so the n-th result-defining line of the source names
    the results of the n-th op with results; function arguments come from the signatures.
    """
    names = _NAMES.setdefault(module, {})
    defs: list[list[str]] = []
    for m in _DEF.finditer(source):
        group: list[str] = []
        for part in m.group(1).split(","):
            name, _, count = part.strip()[1:].partition(":")
            group.extend([f"{name}#{i}" for i in range(int(count))] if count else [name])
        defs.append(group)
    ops = [op for op in module.walk() if op.results]
    if len(ops) == len(defs) and all(len(op.results) == len(d) for op, d in zip(ops, defs, strict=True)):
        for op, group in zip(ops, defs, strict=True):
            for value, name in zip(op.results, group, strict=True):
                names[value] = name
    signatures = [_arg_names(source, m.end()) for m in _FUNC_ARGS.finditer(source)]
    funcs = [op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]
    if len(signatures) == len(funcs):
        for fn, args in zip(funcs, signatures, strict=True):
            entry = fn.regions[0].blocks.first  # never None: funcs have a block
            block_args = entry.args if entry is not None else ()
            if len(block_args) == len(args):
                for value, name in zip(block_args, args, strict=True):
                    names[value] = name


def _arg_names(source: str, start: int) -> list[str]:
    """The ``%names`` of a function signature starting after its ``(``."""
    end = balanced_end(source, start - 1)
    return re.findall(r"%([\w$.-]+)\s*:", source[start:end])
