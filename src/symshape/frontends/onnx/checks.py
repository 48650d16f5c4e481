# pyright: strict
"""Structural checks of an ONNX graph against the operator schemas, before any rule runs.

onnxruntime refuses these models at load time, so they are malformed input (`ModelError`), not
facts to prove: an attribute of the wrong type (``axis=1.5``), a missing required attribute or
input, too many inputs or outputs, an initializer whose element type the op does not accept (a
float ``shape`` for Reshape), an initializer whose stored data does not match its dims. (The
element types of graph inputs are not checked: only constants are.) Ops without a registered
schema (custom domains, com.microsoft) are not checked. A node of a domain the model imports no
opset for has its attribute and constant types checked against the newest schema (the rules
run at their newest there), its missing inputs and attributes left to the rules' own checks.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import onnx
from onnx import defs

from symshape.errors import ModelError

_A = onnx.AttributeProto
_KIND: dict[int, str] = {
    _A.UNDEFINED: "untyped",
    _A.FLOAT: "a float",
    _A.INT: "an int",
    _A.STRING: "a string",
    _A.TENSOR: "a tensor",
    _A.GRAPH: "a graph",
    _A.FLOATS: "a list of floats",
    _A.INTS: "a list of ints",
    _A.STRINGS: "a list of strings",
    _A.TENSORS: "a list of tensors",
    _A.GRAPHS: "a list of graphs",
    _A.SPARSE_TENSOR: "a sparse tensor",
    _A.SPARSE_TENSORS: "a list of sparse tensors",
    _A.TYPE_PROTO: "a type",
    _A.TYPE_PROTOS: "a list of types",
}
_SCHEMA_KIND: dict[defs.OpSchema.AttrType, int] = {
    getattr(defs.OpSchema.AttrType, n): int(_A.AttributeType.Value(n))
    for n in _A.AttributeType.keys()  # noqa: SIM118 - a protobuf enum wrapper, not a dict
    if hasattr(defs.OpSchema.AttrType, n)
}
_FIX = "fix the model or re-export it (onnx.checker.check_model tells more)"

_T = onnx.TensorProto
# element type -> (bytes per element in raw_data, typed field, values per element in that field)
_STORAGE: dict[int, tuple[int, str, int]] = {
    _T.FLOAT: (4, "float_data", 1),
    _T.DOUBLE: (8, "double_data", 1),
    _T.INT64: (8, "int64_data", 1),
    _T.UINT64: (8, "uint64_data", 1),
    _T.UINT32: (4, "uint64_data", 1),
    _T.INT32: (4, "int32_data", 1),
    _T.INT16: (2, "int32_data", 1),
    _T.UINT16: (2, "int32_data", 1),
    _T.INT8: (1, "int32_data", 1),
    _T.UINT8: (1, "int32_data", 1),
    _T.BOOL: (1, "int32_data", 1),
    _T.FLOAT16: (2, "int32_data", 1),
    _T.BFLOAT16: (2, "int32_data", 1),
    _T.COMPLEX64: (8, "float_data", 2),
    _T.COMPLEX128: (16, "double_data", 2),
}


_KNOWN_TYPES = frozenset(_T.DataType.values())
_NEWEST = 2**31 - 1  # the largest opset version ONNX's schema lookup takes


def type_name(elem_type: int) -> str:
    """ONNX's name of an element type (``float``, ``int64``), or ``type <n>`` when unknown."""
    try:
        return _T.DataType.Name(elem_type).lower()
    except ValueError:
        return f"type {elem_type}"


def check_tensor(t: onnx.TensorProto, where: str, subject: str = "the tensor") -> None:
    """ModelError (at ``where``, naming the tensor as ``subject``) when ``t`` has a negative dim,
    an unknown element type, or stored data whose size does not match its dims (data that is
    absent or external is not checked)."""
    if any(d < 0 for d in t.dims):
        raise ModelError(
            where=where, found=f"{subject} has negative dims {list(t.dims)}", expected="dims >= 0", fix=_FIX
        )
    if t.data_type not in _KNOWN_TYPES:
        raise ModelError(
            where=where,
            found=f"{subject} has the unknown element type {t.data_type}",
            expected="an ONNX element type (TensorProto.DataType)",
            fix=_FIX,
        )
    storage = _STORAGE.get(t.data_type)
    if storage is None or t.data_location == _T.EXTERNAL:
        return
    size, field, per = storage
    numel = math.prod(int(d) for d in t.dims)
    if t.raw_data:
        if len(t.raw_data) != size * numel:
            raise ModelError(
                where=where,
                found=f"{subject} ({type_name(t.data_type)}, dims {list(t.dims)}) has {len(t.raw_data)} bytes "
                "of raw_data",
                expected=f"{size * numel} bytes",
                fix=_FIX,
            )
        return
    count = len(getattr(t, field))
    if count and count != per * numel:
        raise ModelError(
            where=where,
            found=f"{subject} ({type_name(t.data_type)}, dims {list(t.dims)}) stores {count} values in {field}",
            expected=f"{per * numel} values",
            fix=_FIX,
        )


@functools.lru_cache(maxsize=512)
def _schema(op_type: str, version: int, domain: str) -> defs.OpSchema | None:
    """The schema at ``version``; the newest for version 0 (a domain the model imports no opset
    for: the rules run at their newest then too, so the types they read are checked; `check_node`
    leaves missing inputs and attributes to the rules there)."""
    try:
        return defs.get_schema(op_type, version if version > 0 else _NEWEST, domain)
    except defs.SchemaError:
        return None


def check_node(node: onnx.NodeProto, domain: str, version: int, where: str, dtypes: Mapping[str, int]) -> None:
    """ModelError when ``node`` does not fit its operator schema (see the module docstring).

    ``dtypes`` maps initializers (of this graph and the enclosing ones) to their element type.
    """
    schema = _schema(node.op_type, version, domain)
    if schema is None:
        return
    inputs = node.input
    key = (
        node.op_type,
        version,
        domain,
        len(node.output),
        tuple([(a.name, a.type) for a in node.attribute]),
        tuple(map(bool, inputs)),
        tuple(map(dtypes.get, inputs)),
    )
    if key in _PASSED:  # the checks depend only on this signature; exporters repeat a few thousand times
        return
    _check_attributes(node, schema, where, version > 0)
    if version > 0:  # without an opset import, what is missing is left to the rules' own checks
        _check_arity(node, schema, where)
    _check_input_types(node, schema, where, dtypes)
    _PASSED.add(key)


_PASSED: set[tuple[object, ...]] = set()


def _check_attributes(node: onnx.NodeProto, schema: defs.OpSchema, where: str, required: bool) -> None:
    present = {a.name for a in node.attribute}
    for a in node.attribute:
        spec = schema.attributes.get(a.name)
        if spec is None or a.ref_attr_name:
            continue
        expected = _SCHEMA_KIND.get(spec.type, 0)
        if expected != a.type:
            raise ModelError(
                where=where,
                found=f"attribute '{a.name}' is {_KIND.get(a.type, str(a.type))} ({_attr_text(a)})",
                expected=_KIND.get(expected, str(expected)),
                fix=_FIX,
            )
    for name, spec in schema.attributes.items():
        if required and spec.required and name not in present:
            expected = _KIND.get(_SCHEMA_KIND.get(spec.type, 0), "a value")
            raise ModelError(
                where=where, found=f"the {name} attribute is required but missing", expected=expected, fix=_FIX
            )


def _attr_text(a: onnx.AttributeProto) -> str:
    try:
        value = onnx.helper.get_attribute_value(a)
    except Exception:  # noqa: BLE001 - only used for the message
        return "?"
    if isinstance(value, bytes):
        return repr(value.decode("utf-8", "replace"))
    if isinstance(value, onnx.GraphProto | onnx.TensorProto):
        return f"'{value.name}'"
    return repr(value)[:60]


def _check_arity(node: onnx.NodeProto, schema: defs.OpSchema, where: str) -> None:
    inputs = list(node.input)
    if len(inputs) > schema.max_input:
        raise ModelError(
            where=where,
            found=f"{len(inputs)} inputs",
            expected=f"at most {schema.max_input}",
            fix=_FIX,
        )
    option = defs.OpSchema.FormalParameterOption
    for i, formal in enumerate(schema.inputs):
        if formal.option == option.Single and (i >= len(inputs) or not inputs[i]):
            raise ModelError(
                where=where,
                found=f"the required input #{i} ('{formal.name}') is missing",
                expected="the name of a value",
                fix=_FIX,
            )
    if len(inputs) < schema.min_input:
        raise ModelError(
            where=where,
            found=f"{len(inputs)} inputs",
            expected=f"at least {schema.min_input}",
            fix=_FIX,
        )
    outputs = len(node.output)  # fewer outputs than the schema lists do not hurt the analysis
    if outputs > schema.max_output or outputs == 0 < schema.min_output:
        if schema.min_output == schema.max_output:
            bounds = str(schema.min_output)
        elif schema.max_output >= 2**31 - 1:
            bounds = f"at least {schema.min_output}"
        else:
            bounds = f"{schema.min_output} to {schema.max_output}"
        raise ModelError(where=where, found=f"{outputs} outputs", expected=bounds, fix=_FIX)


def _check_input_types(node: onnx.NodeProto, schema: defs.OpSchema, where: str, dtypes: Mapping[str, int]) -> None:
    if not schema.inputs:
        return
    allowed_of = {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}
    for i, name in enumerate(node.input):
        elem = dtypes.get(name) if name else None
        if not elem:
            continue
        formal = schema.inputs[min(i, len(schema.inputs) - 1)]
        allowed = allowed_of.get(formal.type_str, [formal.type_str])
        tensors = [t for t in allowed if t.startswith("tensor(")]
        actual = f"tensor({type_name(elem)})"
        if tensors and actual not in allowed:
            names = ", ".join(t[7:-1] for t in tensors)
            raise ModelError(
                where=where,
                found=f"input #{i} '{name}' ('{formal.name}') is {type_name(elem)}",
                expected=f"one of: {names}",
                fix="cast it (or re-export the model)",
            )
