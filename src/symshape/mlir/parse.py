"""MLIR text -> xDSL ``ModuleOp``, keeping the value names of the text.

The context knows builtin and func (from xDSL), arith and tensor (xDSL's, with the few ops it
lacks, `symshape.mlir.dialects.upstream`) and symshape's stablehlo, mhlo, shape and constraint
subsets, each in generic and pretty form (``tests/test_mlir_op_forms.py`` checks every op with a
rule against the forms ``iree-opt`` and jaxlib print); any other op, attribute or type stays
*unregistered* and is read in generic form. An empty text is an empty module, as for ``mlir-opt``.
Before parsing, locations are dropped (``loc(...)`` and the ``#loc`` aliases that ``jax.export``
writes after their uses, which xDSL cannot resolve) and old quoted opaque attributes
(``#mhlo<"precision DEFAULT">``) are rewritten to the bare form.

xDSL forgets numeric names (``%0``); `source_names` returns the name each SSA value had in the
text (``arg0``, ``3``, ``5#1`` for result 1 of ``%5:2``), recorded while parsing.

When the text uses a pretty form of another dialect (``chlo``, ``linalg``) and jaxlib is installed,
`parse_module` lets jaxlib's MLIR print it in generic form first (``jax_generic_text``) and
maps the names back by position.
"""

from __future__ import annotations

import importlib
import re
import weakref
from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.parser import Parser, Span
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRTokenKind

from symshape.errors import ModelError

_NAMES: weakref.WeakKeyDictionary[ModuleOp, dict[SSAValue, str]] = weakref.WeakKeyDictionary()


def make_context() -> Context:
    """A context with every dialect symshape reads; unknown ones are allowed (unregistered)."""
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func

    from symshape.mlir.dialects.constraint import SymShape
    from symshape.mlir.dialects.mhlo import MHLO
    from symshape.mlir.dialects.shape import Shape
    from symshape.mlir.dialects.stablehlo import StableHLO
    from symshape.mlir.dialects.upstream import ArithWithRemf, TensorWithGenerate

    ctx = Context(allow_unregistered=True)
    for dialect in (Builtin, Func, ArithWithRemf, TensorWithGenerate, StableHLO, MHLO, Shape, SymShape):
        ctx.load_dialect(dialect)
    return ctx


class _NamingParser(Parser):
    """A parser that remembers the text name of every SSA value it defines."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, text, name)
        self.value_names: dict[SSAValue, str] = {}

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """The module, or an empty one for a text without ops (as ``mlir-opt`` reads it)."""
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as err:
            # xDSL says this at the end of the text only when it read no op at all
            if err.msg == "Could not parse entire input!" and self._current_token.kind == MLIRTokenKind.EOF:
                return ModuleOp([])
            raise

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        super()._register_ssa_definition(name, values, span)
        if len(values) == 1:
            self.value_names[values[0]] = name
        else:
            for i, v in enumerate(values):
                self.value_names[v] = f"{name}#{i}"


def read_mlir_text(path: str | Path) -> str:
    """The text of an ``.mlir`` file; ModelError when it cannot be read or is not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ModelError(f"cannot read '{path}': {err.strerror or err}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ModelError(
            f"'{path}' is not UTF-8 text (byte 0x{data[err.start]:02x} on line {line}); MLIR files are UTF-8, "
            "check that this is the .mlir text and not bytecode or another file"
        ) from None


def _one_line(err: ParseError) -> str:
    """One line from the ``file:line:col / source line / carets / message`` of an xDSL ParseError."""
    lines = [ln for ln in str(err).splitlines() if ln.strip()]
    m = re.match(r".*:(\d+):(\d+)$", lines[0]) if lines else None
    if m and len(lines) >= 4 and set(lines[2].strip()) == {"^"}:
        message = " ".join(ln.strip() for ln in lines[3:])
        return f"line {m.group(1)}, column {m.group(2)} ('{lines[1].strip()}'): {message}"
    return " ".join(ln.strip() for ln in lines)


def parse_module(text: str, ctx: Context | None = None, *, source: str = "<string>") -> ModuleOp:
    """Parse ``text``; ModelError (with the line and a hint) when it is not valid MLIR."""
    ctx = ctx or make_context()
    clean = clean_text(text)
    try:
        return _parse(ctx, clean, source)
    except ParseError as err:
        generic = jax_generic_text(text)
        if generic is None:
            raise ModelError(
                f"cannot parse '{source}' at {_one_line(err)}; symshape reads every op in generic form and the "
                "pretty forms of func, arith, tensor, shape, stablehlo, mhlo and symshape; print the module in "
                "generic form (mlir-opt --mlir-print-op-generic) or install jaxlib to convert it"
            ) from None
    try:
        module = _parse(ctx, clean_text(generic), source)
    except ParseError as err:
        raise ModelError(f"cannot parse '{source}' even in generic form, at {_one_line(err)}") from None
    _rename_like_source(module, clean)
    return module


def _parse(ctx: Context, text: str, source: str) -> ModuleOp:
    parser = _NamingParser(ctx, text, source)
    module = parser.parse_module()
    _NAMES[module] = parser.value_names
    _properties_as_attributes(module)
    return module


def _properties_as_attributes(module: ModuleOp) -> None:
    """Keep everything of the HLO/shape ops in the attribute dictionary.

    Their classes declare no properties, so any StableHLO version verifies; MLIR reads
    inherent attributes from the dictionary too.
    """
    from symshape.mlir.dialects.hlo_syntax import HloOp

    for op in module.walk():
        if isinstance(op, HloOp) and op.properties:
            op.attributes.update(op.properties)
            op.properties.clear()


def source_names(module: ModuleOp) -> dict[SSAValue, str]:
    """The text name of each value of ``module`` (without ``%``), when it was parsed by us."""
    return _NAMES.get(module, {})


# ------------------------------------------------------------------------- clean up


_OPAQUE_STRING = re.compile(r'#([A-Za-z_][\w$.]*)<"((?:[^"\\]|\\.)*)">')
_LOC_ALIAS_LINE = re.compile(r"^#loc[\w$.]*\s*=\s*$", re.M)


def clean_text(text: str) -> str:
    """Drop locations and unquote ``#dialect<"body">`` attributes, leaving strings untouched."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = _string_end(text, i)
            out.append(text[i:j])
            i = j
        elif text.startswith("loc(", i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.$#")):
            i = _balanced_end(text, i + 3)
        elif c == "#" and (m := _OPAQUE_STRING.match(text, i)):
            out.append(f"#{m.group(1)}<{m.group(2)}>")
            i = m.end()
        elif c == "#" and (m := _DIALECT_ATTR.match(text, i)):
            j = _angle_end(text, m.end())  # one line per attribute body, so printing is stable
            out.append(_NEWLINE_RUN.sub(" ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return _LOC_ALIAS_LINE.sub("", "".join(out))


_DIALECT_ATTR = re.compile(r"#[A-Za-z_][\w.]*<")
_NEWLINE_RUN = re.compile(r"\s*\n\s*")


def _angle_end(text: str, start: int) -> int:
    """The index after the ``>`` closing the ``<`` just before ``start`` (``->`` is not one)."""
    depth, i, n = 1, start, len(text)
    while i < n and depth:
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            continue
        if c == "<":
            depth += 1
        elif c == ">" and text[i - 1] != "-":
            depth -= 1
        i += 1
    return i


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def _balanced_end(text: str, open_at: int) -> int:
    """The index after the ``)`` matching the ``(`` at ``open_at`` (strings skipped)."""
    depth = 0
    i = open_at
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


# ------------------------------------------------------------ the jaxlib fallback


def jax_generic_text(text: str) -> str | None:
    """``text`` printed in generic form by jaxlib's MLIR (stablehlo and chlo loaded), or None."""
    try:
        jax_mlir = importlib.import_module("jax._src.interpreters.mlir")
        ir = importlib.import_module("jax._src.lib.mlir").ir
    except ImportError:
        return None
    import io

    try:
        ctx = jax_mlir.make_ir_context()
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text, context=ctx)
    except Exception:  # noqa: BLE001 - any MLIR diagnostic: the caller reports the xDSL error
        return None
    stream = io.StringIO()
    module.operation.print(file=stream, print_generic_op_form=True, enable_debug_info=False)
    return stream.getvalue()


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
    end = _balanced_end(source, start - 1)
    return re.findall(r"%([\w$.-]+)\s*:", source[start:end])
