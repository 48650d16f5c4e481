"""``symshape opt``'s fast reader: MLIR's own parser (the bindings jaxlib or IREE ship) reads and
verifies the text in C++, and the module is rebuilt op by op as the xDSL ops the passes rewrite.

On a 100k-op jax export xDSL's text parser took 22 s and its verifier 4 s; the bindings read the
text in 1 s and the rebuild takes a few more. The result is the module xDSL's reader builds from
the generic form MLIR prints (`symshape.ir.parse`, which `opt` falls back to): the same ops,
value names, attributes (each printed as MLIR printed it) and properties, so the passes see the
same IR (``tests/tools/mlir_passes/test_readers_agree.py`` compares the outputs).

`read_module` returns None where this reader does not apply and xDSL's must: no bindings, text
MLIR refuses (xDSL's reader then says why in symshape's words), symshape's own ops or torch-mlir's
types (verified by symshape's definitions only), a value used before the op that defines it.
"""

from __future__ import annotations

import re
import sys
from typing import Any, NamedTuple

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from symshape.frontends.mlir.bindings_ops import BlockOps
from symshape.frontends.mlir.bindings_parse import TextNames, available_bindings, parse_with_bindings
from symshape.ir.dialects.hlo_syntax import HloOp
from symshape.ir.parse import AttributeTexts, adopt_module, parse_attribute_text
from symshape.memory import gc_paused
from symshape.tools.mlir_passes.xdsl_build import OpMaker, append_ops

__all__ = ["read_module"]

Attrs = dict[str, Attribute]

_XDSL_ONLY = re.compile(r"\{-#|\bsymshape\.|!torch\.|torch\.(?:symbolic_int|bind_symbolic_shape)|\[@[\w$.-]+")
_XDSL_ONLY_WORDS = ("{-#", "symshape.", "!torch.", "torch.symbolic_int", "torch.bind_symbolic_shape", "[@")
"""A text `_XDSL_ONLY` can match has one of these (a substring test is a tenth of the regex's scan)."""


class _Kind(NamedTuple):
    """An op name's maker (its xDSL class), the properties the class declares (None: every
    attribute stays one), and whether MLIR registers the op (and so verified it)."""

    make: OpMaker
    declared: frozenset[str] | None
    registered: bool


class _NotRebuilt(Exception):
    """The bindings' module has a form the rebuild does not take (xDSL's reader reads it)."""


def read_module(text: str, ctx: Context) -> ModuleOp | None:
    """The module ``text`` holds, read and verified by MLIR's parser and rebuilt in ``ctx``;
    None when xDSL's reader must read it (see the module docstring)."""
    if any(word in text for word in _XDSL_ONLY_WORDS) and _XDSL_ONLY.search(text):
        return None
    for which in available_bindings():  # IREE's has no mhlo: the next one may still read it
        parsed = parse_with_bindings(text, which)
        if parsed is None:
            continue
        module, names = parsed
        try:
            with gc_paused():  # a rebuild makes hundreds of thousands of objects and no cycles
                return _Rebuild(ctx, module, names).module()
        except _NotRebuilt:
            return None
    return None


class _Rebuild:
    """Binding ops -> xDSL ops, with the text's value names and the attribute texts MLIR prints."""

    def __init__(self, ctx: Context, module: Any, names: TextNames) -> None:
        self.ctx = ctx
        self.source = module.operation
        self.block_ops = BlockOps(self.source)
        self.text_names = names
        self.result_names = names.by_op(self.block_ops.all, self.block_ops.nested)
        self.registered = module.context.is_registered_operation
        self.values: dict[Any, SSAValue] = {}
        self.names: dict[SSAValue, str] = {}
        self.blocks: dict[Any, Block] = {}
        self.converted: dict[Any, Attribute] = {}
        self.parts: dict[Any, Attribute] = {}
        self.texts: AttributeTexts = {}
        self.classes: dict[str, _Kind] = {}
        self.unverified = False

    def module(self) -> ModuleOp:
        """The rebuilt module, handed to `symshape.ir.parse` with its names and texts."""
        top = self.source
        props, attrs = self._split(top, self._class(top.name).declared, True)
        module = ModuleOp.create(properties=props, attributes=attrs, regions=[self._region(r) for r in top.regions])
        adopt_module(module, self.names, self.texts, verified=not self.unverified)
        return module

    def _region(self, region: Any) -> Region:
        blocks = list(region.blocks)
        for b in blocks:  # every block first: a branch may name a later one
            block = self.blocks[b] = Block(arg_types=[self._attribute(a.type) for a in b.arguments])
            for arg, value in zip(b.arguments, block.args, strict=True):
                self.values[arg] = value
                self._name(value, self.text_names.argument(arg))
        for b in blocks:
            append_ops(self.blocks[b], [self._op(op) for op in self.block_ops.of(b)])
        return Region([self.blocks[b] for b in blocks])

    def _op(self, op: Any) -> Operation:
        kind = self._class(op.name)
        self.unverified |= not kind.registered  # MLIR did not verify it: symshape's definitions must
        values = self.values
        successors = op.successors
        try:
            operands = [values[v] for v in op.operands]
            targets = [self.blocks[b] for b in successors] if len(successors) else []
        except KeyError:
            raise _NotRebuilt from None  # a use before its definition (a graph region)
        props, attrs = self._split(op, kind.declared, kind.registered)
        results = list(op.results)
        regions = op.regions
        new = kind.make(operands, [self._attribute(r.type) for r in results], props, attrs, targets,
                        [self._region(r) for r in regions] if len(regions) else [])
        if not results:
            return new
        in_order = self.result_names
        texts = self.text_names.results(op) if in_order is None else in_order.get(op, [None] * len(results))
        for value, result, text in zip(results, new.results, texts, strict=True):
            values[value] = result
            self._name(result, text)
        return new

    def _name(self, value: SSAValue, name: str | None) -> None:
        """Name ``value`` as the text did, and hint the name to xDSL's printer as its parser
        does (``%x#1`` is hinted ``x``; ``%0`` is not)."""
        if name is None:
            return
        self.names[value] = name
        base = name.partition("#")[0]
        if not base[:1].isdigit() and SSAValue.is_valid_name(base):  # a valid name starts with no digit
            value.name_hint = base

    def _class(self, name: str) -> _Kind:
        """What the rebuild needs of the op's xDSL class (`_Kind`)."""
        found = self.classes.get(name)
        if found is None:
            cls = self.ctx.get_optional_op(name)
            if cls is None:
                raise _NotRebuilt
            declared = None
            if issubclass(cls, IRDLOperation) and not issubclass(cls, HloOp):
                declared = frozenset(cls.get_irdl_definition().properties)
            found = self.classes[name] = _Kind(OpMaker(cls), declared, self.registered(name))
        return found

    def _split(self, op: Any, declared: frozenset[str] | None, registered: bool) -> tuple[Attrs, Attrs]:
        """Properties and attributes, as xDSL's reader splits MLIR's generic form: an op whose
        class declares properties takes those, and the other inherent attributes of an op MLIR
        registers (its ``<{...}>``), which `symshape.ir.parse` moves to the attributes and marks
        foreign; the rest are attributes."""
        named = op.attributes
        count = len(named)
        props: Attrs = {}
        attrs: Attrs = {}
        if not count:
            return props, attrs
        items = [named[i] for i in range(count)]  # iterating gives the names only
        if declared is None:
            return props, {item.name: self._attribute(item.attr) for item in items}
        foreign = {item.name for item in items if item.name not in declared}
        inherent = self._inherent(op) if registered and foreign else set[str]()
        for item in items:
            name: str = item.name
            (props if name in declared or name in inherent else attrs)[name] = self._attribute(item.attr)
        return props, attrs

    def _inherent(self, op: Any) -> set[str]:
        """The names of ``op``'s inherent attributes: its generic form's ``<{...}>`` (printed
        without regions; only for the few upstream ops with attributes xDSL's class lacks)."""
        asm: str = op.get_asm(print_generic_op_form=True, skip_regions=True, use_local_scope=True)
        start = asm.find("<{")
        if start < 0:
            return set()
        try:
            return set(Parser(self.ctx, asm[start + 1:]).parse_optional_attr_dict())
        except ParseError:
            raise _NotRebuilt from None

    def _attribute(self, attribute: Any) -> Attribute:
        """The xDSL attribute (or type) of a binding one, read once from the text MLIR prints
        (binding attributes are uniqued: equal ones hash alike)."""
        found = self.converted.get(attribute)
        if found is None:
            text = str(attribute)
            found = self._function_type(attribute) if text.startswith("(") else None
            if found is None:
                found = parse_attribute_text(self.ctx, text)
            self.converted[attribute] = found
            self.texts[id(found)] = (found, text)
        return found

    def _function_type(self, attribute: Any) -> FunctionType | None:
        """A function type attribute (``func.func``'s signature), put together from its types,
        each read once: a jax export's main has thousands of arguments, and xDSL's parser read
        its 40k-character signature in half a second. None for any other attribute."""
        ir = sys.modules[type(attribute).__module__]  # the bindings hand over attributes and types downcast
        if not isinstance(attribute, ir.TypeAttr):
            return None
        signature = attribute.value
        if not isinstance(signature, ir.FunctionType):
            return None
        return FunctionType.from_lists([self._part(t) for t in signature.inputs],
                                       [self._part(t) for t in signature.results])

    def _part(self, type_: Any) -> Attribute:
        """A type inside a function type, as xDSL's parser reads it there: its own object (not
        the one `_attribute` gives, whose text is kept, so it prints as xDSL prints it)."""
        found = self.parts.get(type_)
        if found is None:
            found = self.parts[type_] = parse_attribute_text(self.ctx, str(type_))
        return found
