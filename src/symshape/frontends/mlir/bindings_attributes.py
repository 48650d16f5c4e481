# pyright: strict
"""Python views of MLIR binding attributes and types, the same values `symshape.frontends.mlir.attributes`
gives for xDSL's (so the rules cannot tell which parser read the module).

The bindings (``iree.compiler.ir``, ``jaxlib.mlir.ir``) come without type stubs: their objects
are typed ``Any`` at this boundary and dispatched on the class name the bindings downcast to
(``IntegerAttr``, ``DenseI64ArrayAttr``, ...). Types and dialect attributes are read from their
printed form, cached by that text: a module has few distinct ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from symshape.engine.program import MAX_TRACKED, ConstTensor, SourceDim, TensorType
from symshape.ir.attr_values import DialectAttr, dialect_attr, encoding_bounds

__all__ = ["binding_attr", "binding_type", "clear_caches", "named_attrs", "type_text"]

_TENSOR = re.compile(r"tensor<((?:[0-9?]+x)*)([^,>*][^,>]*(?:<[^>]*>)?)(?:,\s*(#.*))?>", re.S)
_UNRANKED = re.compile(r"tensor<\*x(.+)>")
_SCALAR = re.compile(r"index|[su]?i\d+|f\d+|bf16|tf32|f8E\w+|f4E\w+|f6E\w+")
_DIALECT = re.compile(r"#([A-Za-z_][\w$.]*)<(.*)>", re.S)
_TYPES: dict[Any, TensorType] = {}
_TYPE_TEXTS: dict[Any, str] = {}
_DIALECT_ATTRS: dict[str, Any] = {}


def binding_type(t: Any) -> TensorType:
    """The Program view of a type (as `symshape.frontends.mlir.attributes.tensor_type`): dims, ``?`` as None.

    Cached by the type object (MLIR uniques types; printing one costs 10 µs, hashing 1 µs)."""
    found = _TYPES.get(t)
    if found is None:
        found = _TYPES[t] = _type_of_text(str(t))
    return found


def clear_caches() -> None:
    """Forget the cached types (each holds its MLIR context alive) and dialect attributes."""
    _TYPES.clear()
    _TYPE_TEXTS.clear()
    _DIALECT_ATTRS.clear()


def type_text(t: Any) -> str:
    """``str(t)``, cached by the type object."""
    found = _TYPE_TEXTS.get(t)
    if found is None:
        found = _TYPE_TEXTS[t] = str(t)
    return found


def _type_of_text(text: str) -> TensorType:
    if text.startswith("!torch."):  # torch-mlir's types (symshape.frontends.mlir.torch_types)
        from symshape.frontends.mlir.torch_types import torch_type

        return torch_type(text) or TensorType(text, None)
    m = _TENSOR.fullmatch(text)
    if m:
        dims: tuple[SourceDim, ...] = tuple(None if d == "?" else int(d) for d in m.group(1).split("x")[:-1])
        bounds = encoding_bounds(m.group(3), len(dims)) if m.group(3) else None
        return TensorType(m.group(2), dims, bounds)
    m = _UNRANKED.fullmatch(text)
    if m:
        return TensorType(m.group(1), None)
    if _SCALAR.fullmatch(text):
        return TensorType(text, ())
    if text == "!shape.size":
        return TensorType("index", ())
    if text in ("!shape.shape", "!shape.value_shape"):
        return TensorType("index", (None,))
    return TensorType(text, None)


def named_attrs(op: Any) -> dict[str, Any]:
    """Every attribute of an op (inherent and discardable) as Python values."""
    return _dictionary(op.attributes)


def binding_attr(attr: Any) -> Any:
    """A Python view of an attribute: int, float, str, list, dict, `ConstTensor`, `DialectAttr`."""
    convert = _BY_CLASS.get(type(attr).__name__)
    return convert(attr) if convert is not None else _by_text(str(attr))


def _integer(attr: Any) -> int:
    value = int(attr.value)
    return int(value != 0) if type_text(attr.type) == "i1" else value


def _dense_array(attr: Any) -> list[Any]:
    return [v if isinstance(v, float) else int(v) for v in attr]


def _dense_elements(attr: Any) -> ConstTensor:
    """Dims, element type and (small integer) contents, as `symshape.frontends.mlir.attributes.dense_const`."""
    shaped = attr.type
    dims = tuple(int(d) for d in shaped.shape)
    dtype = str(shaped.element_type)
    numel = 1
    for d in dims:
        numel *= d
    values = None
    if type(attr).__name__ == "DenseIntElementsAttr" and numel <= MAX_TRACKED:
        raw = [] if numel == 0 else [attr[0]] * numel if attr.is_splat else [attr[i] for i in range(numel)]
        values = tuple(int(v != 0) if dtype == "i1" else int(v) for v in raw)
    return ConstTensor(dims, dtype, values)


def _dictionary(attr: Any) -> dict[str, Any]:
    """A ``DictAttr``, or an op's attributes: name -> Python value."""
    out: dict[str, Any] = {}
    for i in range(len(attr)):
        named = attr[i]
        out[named.name] = binding_attr(named.attr)
    return out


def _by_text(text: str) -> Any:
    """Dialect attributes as xDSL reads them unregistered: ``#stablehlo<comparison_direction GE>``
    -> ``comparison_direction`` = GE, ``#stablehlo.dot<...>`` -> ``dot`` with its fields."""
    if text in _DIALECT_ATTRS:
        return _DIALECT_ATTRS[text]
    value: Any = text
    m = _DIALECT.fullmatch(text)
    if m and not text.startswith("#arith."):  # arith's attributes are registered in xDSL: kept as text
        name, body = m.group(1), m.group(2).strip()
        if len(body) >= 2 and body[0] == body[-1] == '"':  # an opaque attribute: #mhlo<"precision DEFAULT">
            body = bytes(body[1:-1], "utf-8").decode("unicode_escape")
        if "." in name:
            value = dialect_attr(name, body)
        else:
            word, _, rest = body.partition(" ")
            value = dialect_attr(f"{name}.{word}", rest) if rest else DialectAttr(name, {"value": body}, body)
    _DIALECT_ATTRS[text] = value
    return value


def _symbol(attr: Any) -> str:
    return str(attr).split("::", 1)[0].lstrip("@").strip('"')


_BY_CLASS: dict[str, Callable[[Any], Any]] = {
    "IntegerAttr": _integer,
    "BoolAttr": lambda a: int(bool(a.value)),
    "FloatAttr": lambda a: float(a.value),
    "StringAttr": lambda a: str(a.value),
    "DenseI8ArrayAttr": _dense_array,
    "DenseI16ArrayAttr": _dense_array,
    "DenseI32ArrayAttr": _dense_array,
    "DenseI64ArrayAttr": _dense_array,
    "DenseBoolArrayAttr": _dense_array,
    "DenseF32ArrayAttr": _dense_array,
    "DenseF64ArrayAttr": _dense_array,
    "DenseIntElementsAttr": _dense_elements,
    "DenseFPElementsAttr": _dense_elements,
    "DenseElementsAttr": _dense_elements,
    "ArrayAttr": lambda a: [binding_attr(x) for x in a],
    "DictAttr": _dictionary,
    "FlatSymbolRefAttr": lambda a: str(a.value),
    "SymbolRefAttr": _symbol,
    "UnitAttr": lambda _a: True,
}
