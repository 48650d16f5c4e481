"""The MLIR entry points of the analysis, and which user facts reach which function.

`module_to_programs` (`symshape.frontends.mlir.program_builder`) gives one `FuncView` per root function;
`analyze_module` analyzes each under the facts that name only its symbols, `analyze_mlir_text`
and `analyze_mlir_file` analyze all root functions as one Program. Facts arrive as values
(`symshape.engine.userfacts`); strings in ``--assume`` syntax are read once, here at the API's edge.
The facts a module implies itself (jax's dimension variables are ``>= 1``, see
`symshape.frontends.mlir.jax_export`) travel in `FuncView.facts`. A module is verified first (as
``symshape opt`` does): an invalid one (a call to a function it does not define) is a one-line
ModelError naming the op, not a silently partial analysis.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symshape.engine.program import Op, Program, TensorType, Value
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact, as_facts
from symshape.errors import ModelError, UserFactError, where_fact, where_file
from symshape.frontends.mlir.jax_export import label_names
from symshape.frontends.mlir.program_builder import FuncView, module_to_programs, symbol_stem
from symshape.rules.walker import ProgressFn, analyze

__all__ = ["DialectAttr", "FuncView", "analyze_mlir_file", "analyze_mlir_text", "analyze_module", "combined_program",
           "declared_symbols", "facts_for", "function_symbol", "module_to_programs", "op_attrs", "op_full_name",
           "py_attr", "tensor_type"]

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

    from symshape.frontends.mlir.attributes import op_attrs, op_full_name, py_attr, tensor_type
    from symshape.ir.attr_values import DialectAttr

_IDENT_UNSAFE = re.compile(r"[^A-Za-z0-9_]")
_ATTRIBUTES = ("DialectAttr", "op_attrs", "op_full_name", "py_attr", "tensor_type")


def __getattr__(name: str) -> Any:
    """The attribute readers re-exported from `symshape.frontends.mlir.attributes`, imported on first use:
    they import xDSL, which a module read through the MLIR bindings never needs (0.6 s)."""
    if name in _ATTRIBUTES:
        return getattr(importlib.import_module("symshape.frontends.mlir.attributes"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def declared_symbols(view: FuncView) -> set[str]:
    """The symbol names a user fact may use for ``view``: its arguments' dims and scalars."""
    names: set[str] = set()
    for name in view.program.inputs:
        value = view.program.values[name]
        for d in value.type.dims or () if value.type is not None else ():
            if isinstance(d, str):
                names.update(label_names(d))
    for op in view.program.ops:
        if op.dialect == "func" and op.op_type == "arg":
            names.add(str(op.attrs["symbol"]))
    return names


def facts_for(views: Sequence[FuncView], facts: Sequence[Fact]) -> list[list[Fact]]:
    """The user facts that apply to each view (those naming only its symbols).

    A fact no view declares all the symbols of raises `UserFactError` (a typo, not a no-op).
    """
    known = [declared_symbols(v) for v in views]
    out: list[list[Fact]] = [[] for _ in views]
    for fact in facts:
        hits = [i for i, names in enumerate(known) if fact.symbols <= names]
        if not hits:
            all_names = ", ".join(sorted(set[str]().union(*known))) or "none"
            raise UserFactError(
                where=where_fact(str(fact)),
                found="it names a symbol no function of the module declares",
                expected=f"symbols of the functions' arguments ({all_names})",
                fix="check the spelling, or name a dim the module's arguments have",
            )
        for i in hits:
            out[i].append(fact)
    return out


def analyze_module(module: ModuleOp, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None,
                   source: str = "") -> dict[str, Analysis]:
    """Analyze each root function; inlined functions map to their caller's `Analysis`.

    A user fact applies to the functions that declare all of its symbols.
    """
    from symshape.ir.module import verify

    out: dict[str, Analysis] = {}
    verify(module, source or "<module>")
    views = module_to_programs(module)
    for view, own in zip(views, facts_for(views, as_facts(facts)), strict=True):
        result = analyze(view.program, facts=[*view.facts, *own], progress=progress, source=source)
        out[view.name] = result
        for name in view.inlined:
            out[name] = result
    return out


def combined_program(views: Sequence[FuncView]) -> tuple[Program, list[Fact]]:
    """All root functions in one Program. Where several functions have an argument of the same
    name, its unnamed dims and scalar symbols are prefixed by the function, as an identifier
    (``main_arg0_d2``, see `function_symbol`), so every symbol stays one name the expression
    syntax, ``--assume`` and sympy read."""
    if len(views) == 1:
        return views[0].program, list(views[0].facts)
    stems: dict[str, int] = {}
    for view in views:
        for name in view.program.inputs:
            stems[symbol_stem(name)] = stems.get(symbol_stem(name), 0) + 1
    shared = {stem for stem, count in stems.items() if count > 1}
    taken = set[str]().union(*(declared_symbols(v) for v in views))
    program = Program("module", [], [], {}, [])
    facts: list[Fact] = []
    for view in views:
        _add_renamed(program, view, shared, taken)
        facts.extend(view.facts)
    return program, facts


def _add_renamed(program: Program, view: FuncView, shared: set[str], taken: set[str]) -> None:
    """Add ``view``'s Program to ``program``, its symbols of a ``shared`` stem prefixed."""
    p = view.program
    renamed: dict[str, str] = {}

    def prefixed(label: str) -> str:
        if label not in renamed:
            renamed[label] = function_symbol(view.name, label, taken)
        return renamed[label]

    for name in p.inputs:
        value, stem = p.values[name], symbol_stem(name)
        if value.type is not None and value.type.dims is not None and stem in shared:
            dims = tuple(prefixed(d) if isinstance(d, str) and d.startswith(stem) else d for d in value.type.dims)
            value = Value(name, TensorType(value.type.dtype, dims))
        program.values[name] = value
    program.values.update({k: v for k, v in p.values.items() if k not in program.values})
    program.inputs.extend(p.inputs)
    program.outputs.extend(p.outputs)
    for op in p.ops:
        label = op.attrs.get("symbol") if op.dialect == "func" and op.op_type == "arg" else None
        if label is not None and not op.attrs.get("dim_variable") and symbol_stem(op.name) in shared:
            attrs = {**op.attrs, "symbol": prefixed(str(label))}
            op = Op(op.dialect, op.op_type, op.name, op.inputs, op.outputs, attrs)
        program.ops.append(op)


def function_symbol(function: str, label: str, taken: set[str]) -> str:
    """``label`` of ``function`` as one identifier no other symbol has: ``main_arg0_d2``
    (``@other.fn`` -> ``other_fn_arg0_d2``; a clash gets ``_2``, ``_3``, ...). Adds it to
    ``taken``."""
    base = f"{_IDENT_UNSAFE.sub('_', function)}_{label}"
    name, k = base, 1
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    taken.add(name)
    return name


def analyze_mlir_text(text: str, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None,
                      source: str = "<string>", reader: str | None = None) -> Analysis:
    """Analyze every root function of an MLIR module given as text, in one `Analysis`.

    ``reader`` (default: ``SYMSHAPE_MLIR_READER``, else ``auto``): ``xdsl``, or ``bindings`` /
    ``auto`` for MLIR's own parser where installed (`symshape.frontends.mlir.bindings_reader`), which
    falls back to xDSL for what it does not read."""
    views = _text_views(text, source, reader or os.environ.get("SYMSHAPE_MLIR_READER", "auto"))
    if not views:
        raise ModelError(where=where_file(source), found="it defines no function with a body",
                         expected="at least one func.func with a body", fix="nothing to analyze; pass the module "
                         "that defines the functions")
    program, implied = combined_program([v for v in views if not v.helper] or views)
    return analyze(program, facts=[*implied, *as_facts(facts)], progress=progress, source=source)


def _text_views(text: str, source: str, reader: str) -> list[FuncView]:
    """The root functions of ``text``, read by the bindings when ``reader`` allows, else by xDSL."""
    if reader != "xdsl":
        from symshape.frontends.mlir.bindings_reader import read_views

        views = read_views(text)
        if views is not None:
            return views
    from symshape.ir.module import verify
    from symshape.ir.parse import parse_module

    module = parse_module(text, source=source)
    verify(module, source)
    return module_to_programs(module)


def analyze_mlir_file(
    path: str | Path, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> Analysis:
    """Analyze an ``.mlir`` file (see `analyze_mlir_text`)."""
    from symshape.ir.mlir_file import read_mlir_text

    path = Path(path)
    text = read_mlir_text(path)
    return analyze_mlir_text(text, facts, progress, source=str(path))
