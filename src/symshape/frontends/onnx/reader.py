"""ONNX ModelProto -> `Program`.

Weights are never loaded: initializers contribute their dims, and only small integer tensors
(shape constants, axes, indices) have their contents read.
"""

from __future__ import annotations

import functools
import math
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

from symshape.engine.program import MAX_TRACKED, ConstTensor, Op, Program, SourceDim, TensorType, Value
from symshape.errors import ModelError, where_file, where_graph, where_initializer, where_op
from symshape.frontends.onnx.checks import check_node, check_tensor, type_name
from symshape.frontends.onnx.cycles import cycle_text, cycle_through
from symshape.frontends.onnx.wellformed import check_opsets, check_text

_FLOAT_DTYPES = {"float32", "float64", "float16", "bfloat16"}
_INT_DTYPES = {"int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64", "bool"}


def load_model(path: str | Path) -> onnx.ModelProto:
    """Read a model without its external weights; ModelError when it cannot be read."""
    path = Path(path)
    where = where_file(path)
    if not path.exists():
        raise ModelError(where=where, found="the file does not exist", expected=_AN_ONNX_FILE, fix="check the path")
    if path.is_dir():
        raise ModelError(
            where=where, found="it is a directory", expected=_AN_ONNX_FILE, fix="give the path of an .onnx model file"
        )
    try:
        model = onnx_load(path, load_external_data=False)
    except Exception as err:  # noqa: BLE001 - protobuf raises several unrelated types
        raise ModelError(
            where=where,
            found=f"cannot read it as an ONNX model ({err})",
            expected="a complete .onnx file",
            fix="check that the file is an ONNX model and not truncated (re-export or download it again)",
        ) from None
    if not model.HasField("graph"):
        found = "the file is empty" if path.stat().st_size == 0 else "the model has no graph"
        raise ModelError(
            where=where, found=found, expected="an ONNX model with a graph", fix="give the path of an .onnx model"
        )
    return model


_AN_ONNX_FILE = "the path of an ONNX model file (.onnx)"


def onnx_load(path: str | Path, load_external_data: bool = True) -> onnx.ModelProto:
    """`onnx.load` with a complete type: onnx annotates its path parameter with a bare
    ``os.PathLike``, which pyright strict reports as partially unknown at every use."""
    load: Callable[..., onnx.ModelProto] = vars(onnx)["load"]
    return load(str(path), load_external_data=load_external_data)


@functools.lru_cache(maxsize=64)
def dtype_name(elem_type: int) -> str:
    """numpy-style name of an ONNX element type (``float32``, ``int64``, ...)."""
    try:
        return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type)).name
    except Exception:  # noqa: BLE001 - exotic types (float8, int4) have no numpy dtype
        return type_name(elem_type)


def _type_of(vi: onnx.ValueInfoProto) -> TensorType | None:
    """The declared type; an optional tensor is typed as the tensor it may hold (what
    OptionalGetElement returns), other optionals, sequences and maps as ``sequence``."""
    t = vi.type
    while t.HasField("optional_type") and t.optional_type.elem_type.HasField("tensor_type"):
        t = t.optional_type.elem_type
    if t.HasField("tensor_type"):
        tt = t.tensor_type
        dtype = dtype_name(tt.elem_type)
        if not tt.HasField("shape"):
            return TensorType(dtype, None)
        dims: list[SourceDim] = []
        for d in tt.shape.dim:
            if d.HasField("dim_value"):
                dims.append(int(d.dim_value))
            elif d.HasField("dim_param"):
                dims.append(d.dim_param)
            else:
                dims.append(None)
        return TensorType(dtype, tuple(dims))
    if t.HasField("sequence_type") or t.HasField("optional_type") or t.HasField("map_type"):
        return TensorType("sequence", None)
    return None


def tensor_const(t: onnx.TensorProto, where: str | None = None, subject: str = "the tensor") -> ConstTensor:
    """Dims, dtype and (small integer) contents of a TensorProto, never loading large data;
    ModelError (at ``where``, an initializer by default, naming the tensor as ``subject``) when
    its dims, type or stored data are malformed."""
    where = where_initializer(t.name) if where is None else where
    raw = t.raw_data
    if raw and len(raw) <= 512 and t.data_location != onnx.TensorProto.EXTERNAL:
        key = (t.data_type, tuple(t.dims), raw)  # exporters repeat small constants thousands of times
        known = _SMALL_CONSTS.get(key)
        if known is None:
            if len(_SMALL_CONSTS) > 100_000:
                _SMALL_CONSTS.clear()
            known = _SMALL_CONSTS[key] = _tensor_const(t, where, subject)
        return known
    return _tensor_const(t, where, subject)


_SMALL_CONSTS: dict[tuple[int, tuple[int, ...], bytes], ConstTensor] = {}  # bounded below


def _tensor_const(t: onnx.TensorProto, where: str, subject: str) -> ConstTensor:
    check_tensor(t, where, subject)
    dims = tuple(int(d) for d in t.dims)
    dtype = dtype_name(t.data_type)
    numel = math.prod(dims)
    values = None
    uses_external = t.data_location == onnx.TensorProto.EXTERNAL
    floats = None
    if numel <= MAX_TRACKED and not uses_external:
        if dtype in _INT_DTYPES:
            values = _small_ints(t, numel)
        elif dtype in _FLOAT_DTYPES:
            floats = _small_floats(t)
    return ConstTensor(dims, dtype, values, floats)


def _small_floats(t: onnx.TensorProto) -> tuple[float, ...] | None:
    try:
        return tuple(float(x) for x in numpy_helper.to_array(t).reshape(-1).tolist())
    except Exception:  # noqa: BLE001 - malformed raw data: treat contents as unknown
        return None


def _small_ints(t: onnx.TensorProto, numel: int) -> tuple[int, ...] | None:
    """The contents of a small integer tensor (the int64 cases without numpy's overhead)."""
    if t.data_type == onnx.TensorProto.INT64:
        if t.raw_data:
            if len(t.raw_data) == 8 * numel:
                return tuple(np.frombuffer(t.raw_data, dtype="<i8").tolist())
            return None
        if len(t.int64_data) == numel:
            return tuple(t.int64_data)
    try:
        return tuple(int(x) for x in numpy_helper.to_array(t).reshape(-1).tolist())
    except Exception:  # noqa: BLE001 - malformed raw data: treat contents as unknown
        return None


def _attr_value(a: onnx.AttributeProto, opset: dict[str, int], where: str, dtypes: dict[str, int]) -> Any:
    kind = a.type
    A = onnx.AttributeProto  # noqa: N806
    if kind == A.INT:
        return int(a.i)
    if kind == A.FLOAT:
        return float(a.f)
    if kind == A.STRING:
        return a.s.decode("utf-8", "replace")
    if kind == A.INTS:
        return [int(x) for x in a.ints]
    if kind == A.FLOATS:
        return [float(x) for x in a.floats]
    if kind == A.STRINGS:
        return [s.decode("utf-8", "replace") for s in a.strings]
    if kind == A.TENSOR:
        return tensor_const(a.t, where, f"the tensor of attribute '{a.name}'")
    if kind == A.GRAPH:
        return graph_to_program(a.g, opset, dtypes)
    if kind == A.GRAPHS:
        return [graph_to_program(g, opset, dtypes) for g in a.graphs]
    return None


def graph_to_program(graph: onnx.GraphProto, opset: dict[str, int], outer: dict[str, int] | None = None) -> Program:
    """Convert one GraphProto (a model's main graph or a subgraph); ModelError when a node does
    not fit its operator schema (``outer``: element types of the enclosing graphs' initializers)."""
    values: dict[str, Value] = {}
    dtypes = dict(outer or {})
    for t in graph.initializer:
        c = tensor_const(t)
        values[t.name] = Value(t.name, TensorType(c.dtype, c.dims), c.values, is_initializer=True, floats=c.floats)
        dtypes[t.name] = t.data_type
    for vi in list(graph.value_info) + list(graph.output):
        if vi.name not in values:  # exporters may list initializers in value_info too
            values[vi.name] = Value(vi.name, _type_of(vi))
    inputs: list[str] = []
    for vi in graph.input:
        if vi.name in values and values[vi.name].is_initializer:
            continue  # an initializer listed as input (old IR): keep it constant
        if vi.name in inputs:
            raise ModelError(
                where=where_graph(graph.name),
                found=f"it declares the input '{vi.name}' twice",
                expected="each input name once",
                fix="rename one of them",
            )
        values[vi.name] = Value(vi.name, _type_of(vi))
        inputs.append(vi.name)
    ops = [_node_op(node, i, opset, dtypes) for i, node in enumerate(graph.node)]
    outputs = [o.name for o in graph.output]
    return Program(graph.name or "main", inputs, outputs, values, ops, dict(opset))


def _node_op(node: onnx.NodeProto, index: int, opset: dict[str, int], dtypes: dict[str, int]) -> Op:
    op_type = node.op_type
    domain = "" if node.domain == "ai.onnx" else node.domain
    name = node.name or f"{op_type}_{index}"
    where = where_op(domain, op_type, name)
    check_node(node, domain, opset.get(domain, 0), where, dtypes)
    attrs: dict[str, Any] = {}
    subgraphs: dict[str, Program] = {}
    for a in node.attribute:
        v = _attr_value(a, opset, where, dtypes)
        if isinstance(v, Program):
            subgraphs[a.name] = v
        elif v is not None:  # a kind no rule reads (untyped, sparse, type protos): as if absent
            attrs[a.name] = v
    return Op(domain, op_type, name, list(node.input), list(node.output), attrs, opset.get(domain, 0), subgraphs)


def model_to_program(model: onnx.ModelProto) -> Program:
    """Convert a model; ModelError for a model without a graph, or whose nodes read values no
    earlier node produces, assign a value twice, or whose outputs nothing produces."""
    if not model.HasField("graph"):
        raise ModelError(
            where="the model",
            found="it has no graph",
            expected="an ONNX model with a graph",
            fix="give a complete model",
        )
    check_opsets(model, "the model")
    check_text(model.graph)
    if model.functions:
        model = inline_functions(model)
    opset = {("" if o.domain == "ai.onnx" else o.domain): int(o.version) for o in model.opset_import}
    program = graph_to_program(model.graph, opset)
    _check_order(program, set())
    return program


def inline_functions(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model with every call of a model-local function (``FunctionProto``) replaced by its body,
    as onnx's own inliner does it (nested functions, attribute references, overloads): values
    inside a body are named as inlined (``t__1``), the call sites' inputs and outputs keep theirs."""
    from onnx import inliner

    try:
        return inliner.inline_local_functions(model, convert_version=False)
    except Exception as err:  # noqa: BLE001 - onnx's C++ inliner raises plain exceptions
        first = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
        raise ModelError(
            where="the model's local functions",
            found=f"onnx's inliner refuses them ({first})",
            expected="functions whose bodies, attributes and opsets are well formed",
            fix="check the model with onnx.checker.check_model(model, full_check=True)",
        ) from None


def _check_order(program: Program, outer: set[str], scope: str = "") -> None:
    """Every value read is defined earlier (in this graph or an enclosing one), once."""
    local = set(program.inputs) | {n for n, v in program.values.items() if v.is_initializer}
    known = outer | local
    made: dict[str, str] = {}
    for index, op in enumerate(program.ops):
        where = where_op(op.dialect, op.op_type, f"{scope}{op.name}")
        for name in op.inputs:
            if name and name not in known:
                raise _undefined(program, index, name, where)
        for key, sub in op.subgraphs.items():
            _check_order(sub, known, f"{scope}{op.name}/{key}/")
        for o in op.outputs:
            if not o:
                continue
            if o in made or o in local:
                first = f"node '{scope}{made[o]}'" if o in made else "a graph input or initializer"
                raise ModelError(
                    where=where,
                    found=f"output '{o}' is already assigned by {first}",
                    expected="each value assigned once (ONNX is in SSA form)",
                    fix="rename one of them or re-export the model",
                )
            made[o] = op.name
            known.add(o)
    for name in program.outputs:
        if name not in known:
            raise ModelError(
                where=where_graph(scope or program.name),
                found=f"graph output '{name}' is not a graph input, an initializer or the output of any node",
                expected="outputs that the graph defines",
                fix="fix the graph's outputs or re-export the model",
            )


def _undefined(program: Program, index: int, name: str, where: str) -> ModelError:
    """The error for an input no earlier node makes: a cycle (named by its values) or not."""
    cycle = cycle_through(program.ops, index, name)
    if cycle is not None:
        return ModelError(
            where=where,
            found=f"input '{name}' is on a cycle: {cycle_text(cycle)}",
            expected="an acyclic graph (each value computed from graph inputs, initializers and earlier nodes)",
            fix="cut the cycle at one of those values or re-export the model",
        )
    return ModelError(
        where=where,
        found=f"input '{name}' is used before any node produces it",
        expected="a graph input, an initializer or the output of an earlier node (the graph is not "
        "topologically sorted or the value is undefined)",
        fix="run onnx.checker or re-export the model",
    )


def elem_types(model: onnx.ModelProto, *, isolated: bool = False) -> dict[str, int]:
    """Element types of tensor values: declared value_info first, then ONNX's own inference
    (best effort: custom domains can make it fail), then initializers. ``isolated`` runs the
    inference in a child interpreter (`infer_in_child`), for the commands that write a model;
    whoever runs the model in onnxruntime next (verify, the tests) shares that risk anyway."""
    if isolated:
        inferred = decode_types(infer_in_child(model.SerializeToString()) or b"")
    else:
        try:
            inferred = inferred_types(model)
        except Exception:  # noqa: BLE001 - inference is a best-effort source of types
            inferred = []
    return merge_types(model, inferred)


def merge_types(model: onnx.ModelProto, inferred: Iterable[tuple[str, int]]) -> dict[str, int]:
    """The declared types (value_info, outputs, inputs), then ``inferred``, then the initializers'."""
    types: dict[str, int] = {}
    for vi in [*model.graph.value_info, *model.graph.output, *model.graph.input]:
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
            types.setdefault(vi.name, vi.type.tensor_type.elem_type)
    for name, elem_type in inferred:
        types.setdefault(name, elem_type)
    for t in model.graph.initializer:
        types.setdefault(t.name, t.data_type)
    return types


def inferred_types(model: onnx.ModelProto) -> list[tuple[str, int]]:
    """``(name, element type)`` of each value onnx's shape inference types, in this process."""
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    return [(vi.name, vi.type.tensor_type.elem_type) for vi in [*inferred.graph.value_info, *inferred.graph.output]
            if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type]


def encode_types(pairs: Iterable[tuple[str, int]]) -> bytes:
    """``name<TAB>type`` lines, the children's answer (cheaper to read than value_info protos; a
    name holding a newline is left out)."""
    return "\n".join(f"{name}\t{elem_type}" for name, elem_type in pairs if "\n" not in name).encode()


def decode_types(data: bytes) -> list[tuple[str, int]]:
    """The pairs `encode_types` wrote."""
    out: list[tuple[str, int]] = []
    for line in data.decode().splitlines():
        name, _, elem_type = line.rpartition("\t")
        out.append((name, int(elem_type)))
    return out


# The child interpreter: `inferred_types` and `encode_types` of the model on stdin.
_INFER = r"""
import sys, onnx
model = onnx.ModelProto.FromString(sys.stdin.buffer.read())
inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
lines = [f"{vi.name}\t{vi.type.tensor_type.elem_type}" for vi in [*inferred.graph.value_info, *inferred.graph.output]
         if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type and "\n" not in vi.name]
sys.stdout.buffer.write("\n".join(lines).encode())
"""


def infer_in_child(payload: bytes) -> bytes | None:
    """The `encode_types` answer for the serialized model ``payload``, computed in a child
    interpreter: onnx's C++ aborts on some malformed models (a vector index assertion, found by
    the reader fuzzer), which would end this process. None when it fails or dies."""
    try:
        done = subprocess.run([sys.executable, "-c", _INFER], input=payload, capture_output=True,  # noqa: S603
                              timeout=600, check=False)
    except (OSError, ValueError, subprocess.TimeoutExpired):  # ValueError: a model over 2 GB
        return None
    return done.stdout if done.returncode == 0 else None
