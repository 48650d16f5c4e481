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
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from symshape.ir.parse import AttributeTexts, has_foreign_properties, source_attribute_texts, source_metadata

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
    xDSL's type printer was a third of the print of a 10k-op module."""

    type_texts: dict[Attribute, str] = field(default_factory=dict[Attribute, str])

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
        self.print_generic_format = saved or foreign
        try:
            super().print_op(op)
        finally:
            self.print_generic_format = saved


def print_module(module: ModuleOp, *, generic: bool = False, custom: bool = False) -> str:
    """``module`` as text MLIR's tools read (the default), every op generic (``generic=True``), or
    every op in the custom form xDSL knows, symshape's assembly formats included (``custom=True``,
    read back by symshape only). The file's ``{-# ... #-}`` blocks (resources) follow as read."""
    stream = io.StringIO()
    texts = source_attribute_texts(module)
    if custom and not generic:
        SourcePrinter(stream=stream, source_texts=texts).print_op(module)
    else:
        MlirCompatiblePrinter(stream=stream, print_generic_format=generic, source_texts=texts).print_op(module)
    metadata = source_metadata(module)
    return stream.getvalue() + "\n" + (f"\n{metadata}\n" if metadata else "")
