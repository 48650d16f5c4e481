# pyright: strict
"""MLIR text through MLIR's own C++ parser (its Python bindings), with the text's value names.

Two packages ship the bindings: jaxlib (``jaxlib.mlir.ir``) and ``iree-base-compiler``
(``iree.compiler.ir``). Both parse every dialect symshape reads (stablehlo and chlo registered,
the rest unregistered, ``allow_unregistered_dialects``) equally fast; jaxlib's is preferred: its
context is built in 16 ms against IREE's 84 ms (IREE loads all its dialects), which is most of
the read of a 1k-op module, and it also knows mhlo's pretty forms (see
``benchmarks/mlir_scale.py``). ``SYMSHAPE_MLIR_BINDINGS=iree|jax`` picks one.

MLIR forgets the names the text gave its values (``%arg0``, ``%a``, ``%5:2``). Locations are
dropped from the text first, so the parser gives every op and block argument the line and column
it was read at; `TextNames` reads the names back from there: the ``%a, %b:2 =`` before an op's
name, the ``%x`` at a block argument.
"""

from __future__ import annotations

import importlib
import importlib.util
import operator
import os
import re
from collections.abc import Callable
from typing import Any

from symshape.ir.clean import MAX_MLIR_DEPTH, nesting_depth

__all__ = ["TextNames", "available_bindings", "mlir_verifies", "parse_with_bindings", "strip_locations"]

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|(?<![\w.$#])loc\(')
_IN_LOC = re.compile(r'"(?:[^"\\\n]|\\.)*"|[()]')
_DEPTH = {"(": 1, ")": -1}
_LOC_ALIAS_LINE = re.compile(r"^#loc[\w$.]*\s*=\s*$\n?", re.M)
_POSITION = re.compile(r'loc\("-":(\d+):(\d+)\)')
_RESULTS = re.compile(r'(?:^|[\s({,])((?:%[\w$.-]+(?::\d+)?\s*,\s*)*%[\w$.-]+(?::\d+)?)\s*=\s*(?:"?([\w.$-]+)"?)?\s*$')
_ARG = re.compile(r"%([\w$.-]+)")
_LINE_DEF = re.compile(r'^[ \t]*((?:%[\w$.-]+(?::\d+)?[ \t]*,[ \t]*)*%[\w$.-]+(?::\d+)?)[ \t]*=[ \t]*"?([\w.$-]+)"?'
                       r"(?:[^\n]*\) (applies) )?", re.M)


# A generic op with properties: ``"mhlo.conv"(%a, %b) <{...}>``. An op the context does not
# register keeps them where the Python bindings cannot read them (``op.attributes`` lists
# discardable attributes only).
_WITH_PROPERTIES = re.compile(r'"([\w.$-]+)"\([^()]*\)\s*(?:\[[^\]]*\]\s*)?<\{')


def _same_op(written: str, name: str) -> bool:
    """Whether the text's op name is ``name`` (``call`` is ``func.call`` in a function: an op of
    the enclosing op's dialect may leave the dialect out)."""
    return written == name or ("." not in written and name.endswith(f".{written}"))


def _split_results(text: str) -> list[str]:
    """``%a, %b:2`` -> a, b#0, b#1."""
    names: list[str] = []
    for part in text.split(","):
        name, _, many = part.strip()[1:].partition(":")
        names.extend([f"{name}#{i}" for i in range(int(many))] if many else [name])
    return names


def _nested_loc() -> re.Pattern[str]:
    """A string (kept: group 1), or a ``loc(...)`` whose parentheses nest at most four deep outside
    strings: what `strip_locations` removes, in one C-level substitution. The lookbehind follows
    ``loc`` so every match starts with ``"`` or ``l`` (the regex engine skips to those); the
    possessive forms cannot backtrack (their alternatives never start alike)."""
    string = r'"(?:[^"\\\n]++|\\.)*+"'
    body = rf'(?:[^()"]++|{string})*+'
    for _ in range(3):  # callsite(loc(..) at loc(..)), fused[loc(..)], "name"(loc(..)) nest so
        body = rf'(?:[^()"]++|{string}|\({body}\))*+'
    return re.compile(rf'({string})|loc(?<![\w.$#]loc)\({body}\)')


_NESTED_LOC = _nested_loc()
_KEPT_STRING = operator.methodcaller("group", 1)
"""`_NESTED_LOC`'s replacement: the string matched, or None (nothing) for a location. A C
callable: the template ``\\1`` calls a Python function per match (100k in a 100k-op module)."""


def strip_locations(text: str) -> str:
    """``text`` without ``loc(...)`` and ``#loc = ...`` lines (strings are left untouched).

    One substitution removes every location nested at most four deep (a loc of jax's output
    is); when no ``loc(`` is left, it scanned the text as `_strip_scan` does and is its result.
    Otherwise (deeper, unclosed, or ``loc(`` inside a string) the scan reads the text."""
    flat = _NESTED_LOC.sub(_KEPT_STRING, text)
    if "loc(" not in flat:
        return _LOC_ALIAS_LINE.sub("", flat)
    return _strip_scan(text)


def _strip_scan(text: str) -> str:
    """`strip_locations` token by token: strings skipped, a location's parentheses counted."""
    out: list[str] = []
    pos = 0
    m = _TOKEN.search(text, pos)
    while m is not None:
        if m.group(0).startswith('"'):
            m = _TOKEN.search(text, m.end())
            continue
        out.append(text[pos:m.start()])
        depth, end = 1, m.end()
        while depth and (inner := _IN_LOC.search(text, end)) is not None:
            end = inner.end()
            depth += _DEPTH.get(inner.group(0), 0)
        pos = end if depth == 0 else len(text)
        m = _TOKEN.search(text, pos)
    out.append(text[pos:])
    return _LOC_ALIAS_LINE.sub("", "".join(out))


def available_bindings() -> list[str]:
    """The binding packages installed, preferred first (``SYMSHAPE_MLIR_BINDINGS`` narrows it)."""
    wanted = os.environ.get("SYMSHAPE_MLIR_BINDINGS", "")
    found: list[str] = []
    for name, package in (("jax", "jaxlib"), ("iree", "iree.compiler")):
        if wanted and wanted != name:
            continue
        try:
            if importlib.util.find_spec(package) is not None:
                found.append(name)
        except ModuleNotFoundError:  # iree itself absent
            continue
    return found


def _context(which: str) -> Any:
    """A context with stablehlo and chlo (and func, arith, tensor, ...) that allows any dialect."""
    if which == "iree":
        ir: Any = importlib.import_module("iree.compiler.ir")
        ctx = ir.Context()
    else:
        ir = importlib.import_module("jaxlib.mlir.ir")
        ext: Any = importlib.import_module("jaxlib.mlir._mlir_libs._jax_mlir_ext")
        ctx = ir.Context()
        registry = ir.DialectRegistry()
        ext.register_dialects(registry)  # the upstream dialects jax uses (func, arith, tensor, ...)
        ctx.append_dialect_registry(registry)
        ctx.load_all_available_dialects()
        for name in ("stablehlo", "chlo"):
            importlib.import_module(f"jaxlib.mlir.dialects.{name}").register_dialect(ctx)
        importlib.import_module("jaxlib.mlir.dialects.mhlo").register_mhlo_dialect(ctx)
    ctx.allow_unregistered_dialects = True
    return ctx


# A dense elements attribute of complex type: the bindings cannot give it to Python (reading it
# aborts the process: "Can't cast unknown element type DenseTypedElementsAttr").
_COMPLEX_DENSE = re.compile(r"dense<[^:]*>\s*:\s*tensor<(?:[0-9?]+x)*complex<")


def parse_with_bindings(text: str, which: str) -> tuple[Any, TextNames] | None:
    """The module ``text`` holds (parsed and verified by MLIR) and its value names; None when
    MLIR refuses it (the caller reads it with xDSL, which says why in symshape's words), when
    an op these bindings do not register has properties (``<{...}>``), which they cannot read,
    or when it has a complex constant, which they cannot convert."""
    if nesting_depth(text) > MAX_MLIR_DEPTH or _COMPLEX_DENSE.search(text):
        return None
    ctx = _context(which)
    if any(not ctx.is_registered_operation(name) for name in set(_WITH_PROPERTIES.findall(text))):
        return None  # their properties would be lost: the next bindings, or xDSL, read them
    ir: Any = importlib.import_module("iree.compiler.ir" if which == "iree" else "jaxlib.mlir.ir")
    clean = strip_locations(text)
    try:
        module = ir.Module.parse(clean, context=ctx)
    except Exception:  # noqa: BLE001 - any MLIR diagnostic: the xDSL reader reports it
        return None
    return module, TextNames(clean)


def mlir_verifies(text: str) -> bool:
    """Whether MLIR's own parser reads ``text`` with every op registered (so its verifier checked
    every op), with the first bindings installed; False when it cannot tell."""
    which = next(iter(available_bindings()), None)
    if which is None or nesting_depth(text) > MAX_MLIR_DEPTH:
        return False
    ctx = _context(which)
    ctx.allow_unregistered_dialects = False
    ir: Any = importlib.import_module("iree.compiler.ir" if which == "iree" else "jaxlib.mlir.ir")
    try:
        ir.Module.parse(text, context=ctx)
    except Exception:  # noqa: BLE001 - an op it does not register, or a diagnostic: the caller verifies
        return False
    return True


class TextNames:
    """The text names of results and block arguments, from the positions MLIR recorded.

    Printing a location costs 12 µs, so `in_order` first names every op's results from the
    ``%a, %b:2 = op`` lines of the text in order (one regex pass), and `results` reads one op's
    location only when that order does not fit the ops (a definition not at the start of a line).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.encode("utf-8").split(b"\n")

    def in_order(self, ops: list[Any], nested: Callable[[Any], int]) -> dict[Any, str] | None:
        """Result value -> name for ``ops`` (every op, outermost first, as the text has them), or
        None when they do not fit the text's definitions one to one (`by_op`)."""
        by_op = self.by_op(ops, nested)
        if by_op is None:
            return None
        return {value: name for op, names in by_op.items() for value, name in zip(op.results, names, strict=True)}

    def by_op(self, ops: list[Any], nested: Callable[[Any], int]) -> dict[Any, list[str]] | None:
        """`in_order` as op -> its results' names (ops without results left out), for a reader
        that asks op by op: one lookup per op instead of one per result value. The ops a pretty
        ``reduce(...) applies stablehlo.add`` made have no text; ``nested(op)`` counts them."""
        defs = [(m.group(1), m.group(2), m.group(3) is not None) for m in _LINE_DEF.finditer(self.text)]
        out: dict[Any, list[str]] = {}
        k = skip = 0
        for op in ops:
            if skip:
                skip -= 1
                continue
            count = len(op.results)
            if not count:
                continue
            if k >= len(defs) or not _same_op(defs[k][1], op.name):
                return None
            names = _split_results(defs[k][0])
            if len(names) != count:
                return None
            out[op] = names
            skip = nested(op) if defs[k][2] else 0
            k += 1
        return out if k == len(defs) else None

    def _position(self, location: Any) -> tuple[bytes, int] | None:
        m = _POSITION.fullmatch(str(location))
        if m is None:
            return None
        line, column = int(m.group(1)), int(m.group(2))
        return (self.lines[line - 1], column - 1) if 0 < line <= len(self.lines) else None

    def results(self, op: Any) -> list[str | None]:
        """``%a, %b:2 = op`` -> a, b#0, b#1 (None each when the text does not say)."""
        count = len(op.results)
        at = self._position(op.location)
        if at is None or not count:
            return [None] * count
        line, column = at
        m = _RESULTS.search(line[:column].decode("utf-8", "replace"))
        if m is None or (m.group(2) is not None and m.group(2) != op.name):
            return [None] * count
        names: list[str | None] = [*_split_results(m.group(1))]
        return names if len(names) == count else [None] * count

    def argument(self, arg: Any) -> str | None:
        """The ``%x`` a block argument was read at."""
        at = self._position(arg.location)
        if at is None:
            return None
        line, column = at
        m = _ARG.match(line[column:].decode("utf-8", "replace"))
        return m.group(1) if m else None
