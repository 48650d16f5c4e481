"""Python views of xDSL attributes and types, for the rules (`symshape.engine.program` values).

``IntegerAttr`` -> int (``i1`` as 0/1), dense elements -> `ConstTensor` (contents only when
small and integer), arrays -> lists, unregistered dialect attributes (``#stablehlo.dot<...>``,
``#stablehlo<comparison_direction GE>``) -> `DialectAttr` with their ``key = value`` fields,
tensor types -> `TensorType` (``?`` is None; scalars are rank 0).
"""

from __future__ import annotations

import functools
from typing import Any, TypeGuard, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    UnrankedTensorType,
    UnregisteredAttr,
    UnregisteredOp,
)
from xdsl.dialects.builtin import TensorType as XTensorType
from xdsl.ir import Attribute, Operation

from symshape.engine.program import MAX_TRACKED, ConstTensor, SourceDim, TensorType
from symshape.ir.attr_values import dialect_attr, encoding_bounds
from symshape.memory import ByIdentity


def py_attr(attr: Attribute) -> Any:
    """A Python view of an attribute: int, float, str, list, dict, `ConstTensor`, `DialectAttr`."""
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        typ = attr.get_type()
        return int(value != 0) if isinstance(typ, IntegerType) and typ.bitwidth == 1 else value
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, StringAttr):
        return attr.data
    return _py_structured_attr(attr)


def _py_structured_attr(attr: Attribute) -> Any:
    """`py_attr` for arrays, dictionaries, references, units and unregistered dialect attributes."""
    if isinstance(attr, DenseArrayBase):
        return [int(v) if not isinstance(v, float) else v for v in attr.get_values()]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return dense_const(cast("DenseIntOrFPElementsAttr", attr))
    if isinstance(attr, ArrayAttr):
        return [py_attr(a) for a in cast("ArrayAttr[Attribute]", attr).data]
    if isinstance(attr, DictionaryAttr):
        return {k: py_attr(v) for k, v in attr.data.items()}
    if isinstance(attr, SymbolRefAttr):
        return attr.root_reference.data
    if isinstance(attr, UnitAttr):
        return True
    if isinstance(attr, UnregisteredAttr):
        return dialect_attr(attr.attr_name.data, attr.value.data)
    return str(attr)


def dense_const(attr: DenseIntOrFPElementsAttr) -> ConstTensor:
    """Dims, element type and (small integer) contents of a dense elements attribute."""
    dims = tuple(attr.get_shape())
    etype = attr.get_element_type()
    dtype = str(etype)
    numel = 1
    for d in dims:
        numel *= d
    values = None
    if isinstance(etype, (IntegerType, IndexType)) and numel <= MAX_TRACKED:
        raw = attr.get_values()
        width1 = isinstance(etype, IntegerType) and etype.width.data == 1
        values = tuple(int(v != 0) if width1 else int(cast(int, v)) for v in raw)
    return ConstTensor(dims, dtype, values)


def is_tensor(t: Attribute) -> TypeGuard[XTensorType[Attribute]]:
    """``isinstance(t, TensorType)`` (xDSL's) with a typed element type: a bare isinstance
    narrows to ``TensorType[Unknown]``, which pyright strict rejects at every use."""
    return isinstance(t, XTensorType)


@functools.lru_cache(maxsize=4096)
def tensor_type(t: Attribute) -> TensorType:
    """The Program view of an MLIR type: dims (None for ``?``) or None when unranked/opaque.

    Cached: a module has few distinct types, and printing an element type costs ~25 µs."""
    if is_tensor(t):
        dims: tuple[SourceDim, ...] = tuple(None if d == DYNAMIC_INDEX else int(d) for d in t.get_shape())
        bounds = None if isinstance(t.encoding, NoneAttr) else encoding_bounds(str(t.encoding), len(dims))
        return TensorType(str(t.element_type), dims, bounds)
    if isinstance(t, UnrankedTensorType):
        return TensorType(str(cast("UnrankedTensorType[Attribute]", t).element_type), None)
    if isinstance(t, (IndexType, IntegerType, AnyFloat)):
        return TensorType(str(t), ())
    text = str(t)
    if text == "!shape.size":
        return TensorType("index", ())
    if text in ("!shape.shape", "!shape.value_shape"):
        return TensorType("index", (None,))
    return TensorType(text, None)


def op_full_name(op: Operation) -> str:
    """``mhlo.add`` also for unregistered ops."""
    kind = type(op)
    name = _CLASS_NAMES.get(kind, "")
    if name == "":
        name = _CLASS_NAMES[kind] = None if issubclass(kind, UnregisteredOp) else kind.name
    return cast(UnregisteredOp, op).op_name.data if name is None else name


_CLASS_NAMES: dict[type[Operation], str | None] = {}
"""The name of each op class, None for an unregistered op's (its own name is in the op): the
reader and the passes ask a 100k-op module's names a million times a run."""


def attr_of(op: Operation, name: str) -> Attribute | None:
    """Attribute or property ``name`` of ``op`` (``is None`` tests: some attributes are falsy)."""
    if name in op.attributes:
        return op.attributes[name]
    return op.properties.get(name)


def attr_value(op: Operation, name: str) -> Any:
    """The Python view (`py_attr`) of attribute or property ``name``, or None."""
    attr = attr_of(op, name)
    return None if attr is None else py_attr(attr)


def op_attrs(op: Operation) -> dict[str, Any]:
    """Attributes and properties of ``op`` as Python values."""
    out: dict[str, Any] = {}
    for source in (op.properties, op.attributes):
        for key, value in source.items():
            if key != "op_name__":
                out[key] = py_attr(value)
    return out


def _view_of(attr: Attribute) -> tuple[Any, bool]:
    """`py_attr` of ``attr``, and whether it is a list or dict (copied out for each op)."""
    value = py_attr(attr)
    return value, isinstance(value, (list, dict))


class AttrViews:
    """`py_attr` and `op_attrs` with each attribute object converted once.

    A module's ops share few attribute objects (both xDSL's text parser and the rebuild from
    MLIR's bindings make one per distinct attribute), while converting one (an array's packed
    values, a dialect attribute's text) costs tens of µs. Keyed by identity (`ByIdentity`). Lists
    and dicts are copied out, so each op still gets values of its own (the frozen `DialectAttr`
    and `ConstTensor` views are shared).
    """

    def __init__(self) -> None:
        self.seen = ByIdentity[Attribute, tuple[Any, bool]]()

    def view(self, attr: Attribute) -> Any:
        """`py_attr` of ``attr`` (a fresh copy where the view is a list or dict)."""
        value, mutable = self.seen.get(attr, _view_of)
        return _fresh(value) if mutable else value

    def op_attrs(self, op: Operation) -> dict[str, Any]:
        """`op_attrs` of ``op``."""
        out: dict[str, Any] = {}
        for source in (op.properties, op.attributes):
            for key, value in source.items():
                if key != "op_name__":
                    out[key] = self.view(value)
        return out


def _fresh(value: Any) -> Any:
    """A copy of ``value``'s lists and dicts, at every depth (the scalars in them are immutable)."""
    if isinstance(value, list):
        return [_fresh(v) for v in cast("list[Any]", value)]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in cast("dict[str, Any]", value).items()}
    return value
