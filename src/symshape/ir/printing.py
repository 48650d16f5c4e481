"""Print a module so that MLIR's own tools read it back: ``mlir-opt``/``iree-opt`` with
``--allow-unregistered-dialect`` parse any op in generic form, but a custom (pretty) form only for
a dialect they have loaded. symshape's own ops (``symshape.symbolic_dim @S0``) and the other
dialects MLIR does not ship (stablehlo, mhlo, chlo) are therefore printed in generic form; the
upstream dialects whose custom forms xDSL prints as MLIR does stay pretty (`PRETTY_DIALECTS`),
except an op that carries a property its xDSL class lacks (`has_foreign_properties`).

An attribute read from the text and not replaced by a pass is printed as it was written
(`symshape.ir.parse.source_attribute_texts`): what a pass did not rewrite comes out exactly as
it went in.
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar, cast

from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType, UnitAttr, UnregisteredOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

from symshape.ir.parse import AttributeTexts, has_foreign_properties, source_attribute_texts, source_metadata

T = TypeVar("T")

PRETTY_DIALECTS = frozenset({"builtin", "func", "arith", "tensor", "shape", "cf"})
"""Dialects that ship with MLIR and whose custom forms xDSL prints as MLIR reads them
(``tests/ir/test_printing.py`` feeds every pass's output to ``iree-opt``)."""


@dataclass(eq=False, repr=False)
class SourcePrinter(Printer):
    """xDSL's printer, but an attribute in ``source_texts`` (read from the text and kept by the
    passes) is printed as it was written."""

    source_texts: AttributeTexts = field(default_factory=AttributeTexts)

    def print_attribute(self, attribute: Attribute) -> None:
        """As it was written, if it was read from the text; else as xDSL prints it."""
        source = self.source_texts.get(id(attribute))
        if source is not None and source[0] is attribute:
            self.print_string(source[1])
            return
        super().print_attribute(attribute)


@dataclass(eq=False, repr=False)
class MlirCompatiblePrinter(SourcePrinter):
    """A printer that uses the generic form for every op outside `PRETTY_DIALECTS`.

    Tensor types are printed once each and then copied: a module has few distinct ones, and
    xDSL's type printer was a third of the print of a 10k-op module. A generic op without
    regions is written as one line built from cached texts (`_generic_line`): xDSL's printer
    spends most of a 100k-op print in its per-token calls."""

    type_texts: dict[Attribute, str] = field(default_factory=dict[Attribute, str])
    _attr_texts: dict[int, tuple[Attribute, str]] = field(default_factory=dict[int, tuple[Attribute, str]])
    """``id(attribute)`` -> (the attribute, its text): by identity, as `SourcePrinter` decides
    by identity; the attribute is held so its id stays its own. Only one-line texts."""
    _key_texts: dict[str, str] = field(default_factory=dict[str, str])
    _kinds: dict[type[Operation], tuple[bool, bool, bool]] = field(
        default_factory=dict[type[Operation], tuple[bool, bool, bool]])
    """Per op class: isolated from above, unregistered, printed by `Operation.print` (generic)."""

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        """As xDSL prints it, a one-line text written straight to the stream."""
        if self.stream is None or "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        """As xDSL's, the newline and indentation written in one call (xDSL makes two ``print``s)."""
        if self.stream is None:
            super()._print_new_line(indent, print_message)
            return
        self.stream.write("\n")
        self._current_line += 1
        if print_message:
            for callback in self._next_line_callback:
                callback()
            self._next_line_callback = []
        num_spaces = (self._indent if indent is None else indent) * self.indent_num_spaces
        self.stream.write(" " * num_spaces)
        self._current_column = num_spaces

    def print_attribute(self, attribute: Attribute) -> None:
        """As `SourcePrinter` prints it; a tensor type not read from the text from `type_texts`."""
        if id(attribute) in self.source_texts or not isinstance(attribute, TensorType):
            super().print_attribute(attribute)
            return
        attribute = cast(Attribute, attribute)
        text = self.type_texts.get(attribute)
        if text is None:
            scratch = io.StringIO()
            Printer(stream=scratch).print_attribute(attribute)
            text = self.type_texts[attribute] = scratch.getvalue()
        self.print_string(text)

    def print_op(self, op: Operation) -> None:
        """Print ``op`` pretty only when MLIR's tools know its dialect (its regions decide per op)."""
        saved = self.print_generic_format
        foreign = op.name.split(".", 1)[0] not in PRETTY_DIALECTS or has_foreign_properties(op)
        generic = saved or foreign
        if not op.regions and self._generic_line(op, generic):
            return
        self.print_generic_format = generic
        try:
            super().print_op(op)
        finally:
            self.print_generic_format = saved

    def _captured(self, print_fn: Callable[[T], object], arg: T) -> str:
        """What ``print_fn(arg)`` prints, caught instead of written."""
        stream, scratch = self.stream, io.StringIO()
        self.stream = scratch
        try:
            print_fn(arg)
            return scratch.getvalue()
        finally:
            self.stream = stream

    def _attribute_text(self, attribute: Attribute) -> str:
        """The text `print_attribute` prints for ``attribute``, cached by identity."""
        found = self._attr_texts.get(id(attribute))
        if found is not None:
            return found[1]
        plain: Attribute = attribute  # not narrowed by the check below
        text = None
        if id(plain) not in self.source_texts and isinstance(attribute, TensorType):
            text = self.type_texts.get(plain)  # a type printed before, without the capture
        if text is None:
            text = self._captured(self.print_attribute, plain)
        if "\n" not in text:
            self._attr_texts[id(plain)] = (plain, text)
        return text

    def _attr_dict_text(self, attributes: Mapping[str, Attribute]) -> str:
        """``{name = value, ...}`` as xDSL's `print_attr_dict` prints it."""
        parts: list[str] = []
        for name, value in attributes.items():
            key = self._key_texts.get(name)
            if key is None:
                key = self._key_texts[name] = self._captured(self.print_identifier_or_string_literal, name)
            parts.append(key if isinstance(value, UnitAttr) else f"{key} = {self._attribute_text(value)}")
        return "{" + ", ".join(parts) + "}"

    def _value_text(self, value: SSAValue) -> str:
        """``%name``, the name given as `print_ssa_value` gives it."""
        name = self._ssa_values.get(value)
        if name is None:
            hint = value.name_hint
            if hint:
                names = self.ssa_names
                count = names.get(hint, 0)
                name = f"{hint}_{count}" if count else hint
                names[hint] = count + 1
            else:
                name = self._get_new_valid_name_id()
            self._ssa_values[value] = name
        return "%" + name

    def _generic_line(self, op: Operation, generic: bool) -> bool:
        """Print a region-less op in generic form as one string, exactly as xDSL's `print_op`
        would; False (nothing printed) when xDSL's own path is needed. Reads the op's operand
        and successor tuples directly: xDSL's accessors build a view object per call."""
        kind = type(op)
        found = self._kinds.get(kind)
        if found is None:
            found = self._kinds[kind] = (
                bool(op.get_traits_of_type(IsolatedFromAbove)), issubclass(kind, UnregisteredOp),
                Operation.print is kind.print)
        isolated, unregistered, prints_generic = found
        if (isolated or op._successors or self.print_debuginfo or self.print_properties_as_attributes  # pyright: ignore[reportPrivateUsage]
                or self.diagnostic.op_messages or not (generic or unregistered or prints_generic)):
            return False
        value_text, texts = self._value_text, self._attr_texts
        operands = op._operands  # pyright: ignore[reportPrivateUsage]
        name = cast(UnregisteredOp, op).op_name.data if unregistered else op.name
        text = ", ".join([value_text(r) for r in op.results]) + " = " if op.results else ""  # names results first
        text += f'"{name}"(' + ", ".join([value_text(v) for v in operands]) + ")"
        if op.properties:
            text += " <" + self._attr_dict_text(op.properties) + ">"
        attributes = op.attributes
        if unregistered:
            attributes = {k: v for k, v in attributes.items() if k != "op_name__"}
        if attributes:
            text += " " + self._attr_dict_text(attributes)
        types: list[str] = []
        for v in operands:
            known = texts.get(id(v.type))
            types.append(known[1] if known is not None else self._attribute_text(v.type))
        text += " : (" + ", ".join(types) + ") -> "
        outs = [r.type for r in op.results]
        if not outs:
            text += "()"
        elif len(outs) == 1 and not isinstance(outs[0], FunctionType):
            text += self._attribute_text(outs[0])
        else:
            text += "(" + ", ".join([self._attribute_text(t) for t in outs]) + ")"
        if "\n" in text:
            return False
        self.print_string(text)
        return True


_LEADING: weakref.WeakKeyDictionary[ModuleOp, list[str]] = weakref.WeakKeyDictionary()


def add_leading_comments(module: ModuleOp, text: str) -> None:
    """Print ``text`` (``//`` comment lines) before ``module``: what a reporting pass says goes
    into the same output as the module (``opt -o FILE`` included), and the output still parses."""
    _LEADING.setdefault(module, []).append(text)


def print_module(module: ModuleOp, *, generic: bool = False, custom: bool = False) -> str:
    """``module`` as text MLIR's tools read (the default), every op generic (``generic=True``), or
    every op in the custom form xDSL knows, symshape's assembly formats included (``custom=True``,
    read back by symshape only). Comments a pass added (`add_leading_comments`) come first; the
    file's ``{-# ... #-}`` blocks (resources) follow as read."""
    stream = io.StringIO()
    stream.writelines(_LEADING.get(module, ()))
    texts = source_attribute_texts(module)
    if custom and not generic:
        SourcePrinter(stream=stream, source_texts=texts).print_op(module)
    else:
        MlirCompatiblePrinter(stream=stream, print_generic_format=generic, source_texts=texts).print_op(module)
    metadata = source_metadata(module)
    return stream.getvalue() + "\n" + (f"\n{metadata}\n" if metadata else "")
