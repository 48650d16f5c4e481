"""Mutations of ONNX models for the reader fuzzer, each driven by a `random.Random`.

Two levels: bytes (`mutate_bytes`: flips, truncation, inserted and deleted runs, which mostly
break the protobuf framing) and fields (`mutate_model`: edits through the protobuf API that keep
the file readable and reach the checks and the rules: wrong dims, dangling names, attributes of
the wrong type or value, wrong element types, broken initializers, reordered or cyclic nodes,
odd opsets). The test models in ``tests/models`` and the bundled example are the seeds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import AttributeProto, GraphProto, NodeProto, TensorProto, numpy_helper

ROOT = Path(__file__).resolve().parents[2]
SEED_MODELS = sorted((ROOT / "tests" / "models").glob("*.onnx")) + [
    ROOT / "src" / "symshape" / "examples" / "bert_tiny.onnx"
]

_ODD_INTS = (-(2**63), -(2**31), -5, -2, -1, 0, 1, 2, 3, 7, 64, 2**31, 2**62, 2**63 - 1)
_ODD_PARAMS = ("", " ", "n", "a+b", "2*n", "n//0", "floor(n/2", "-1", "1e9", "Max(", "é", "a" * 300, "n**99")


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One to four byte-level edits of ``data``."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buf:
            break
        kind = rng.randrange(5)
        at = rng.randrange(len(buf))
        if kind == 0:
            buf[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            buf[at] = rng.choice((0x00, 0xFF, 0x7F, 0x80, rng.randrange(256)))
        elif kind == 2:
            del buf[at:]
        elif kind == 3:
            buf[at:at] = rng.randbytes(rng.randint(1, 16))
        else:
            del buf[at : at + rng.randint(1, 64)]
    return bytes(buf)


def graphs(graph: GraphProto) -> list[GraphProto]:
    """``graph`` and every subgraph in it (If branches, Loop bodies), outermost first."""
    found = [graph]
    for node in graph.node:
        for a in node.attribute:
            if a.type == AttributeProto.GRAPH:
                found.extend(graphs(a.g))
            for g in a.graphs:
                found.extend(graphs(g))
    return found


def mutate_model(
    model: onnx.ModelProto, rng: random.Random
) -> tuple[onnx.ModelProto, list[str]]:
    """A copy of ``model`` with one to three field edits, and
    their names."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    done: list[str] = []
    edits = list(_EDITS)
    for _ in range(rng.randint(1, 3)):
        name, edit = rng.choice(edits)
        if edit(m, rng):
            done.append(name)
    return m, done


def _some_graph(m: onnx.ModelProto, rng: random.Random) -> GraphProto:
    all_graphs = graphs(m.graph)
    return all_graphs[0] if rng.random() < 0.7 else rng.choice(all_graphs)


def _some_node(m: onnx.ModelProto, rng: random.Random) -> NodeProto | None:
    g = _some_graph(m, rng)
    return rng.choice(g.node) if len(g.node) else None


def _value_names(g: GraphProto) -> list[str]:
    names = [v.name for v in g.input] + [t.name for t in g.initializer]
    return names + [o for n in g.node for o in n.output]


# ------------------------------------------------------------------------------ the edits


def _input_dims(m: onnx.ModelProto, rng: random.Random) -> bool:
    g = _some_graph(m, rng)
    infos = list(g.input) + list(g.output) + list(g.value_info)
    if not infos:
        return False
    t = rng.choice(infos).type
    if not t.HasField("tensor_type"):
        return False
    shape = t.tensor_type.shape
    choice = rng.randrange(5)
    if choice == 0:
        t.tensor_type.ClearField("shape")
    elif choice == 1 and len(shape.dim):
        del shape.dim[rng.randrange(len(shape.dim))]
    elif choice == 2:
        shape.dim.add().dim_value = rng.choice(_ODD_INTS)
    elif len(shape.dim):
        d = shape.dim[rng.randrange(len(shape.dim))]
        if choice == 3:
            d.dim_value = rng.choice(_ODD_INTS)
        else:
            d.dim_param = rng.choice(_ODD_PARAMS)
    return True


def _elem_type(m: onnx.ModelProto, rng: random.Random) -> bool:
    g = _some_graph(m, rng)
    infos = list(g.input) + list(g.output) + list(g.value_info)
    new = rng.choice((0, 1, 6, 7, 8, 9, 16, 23, 99, -1 & 0x7FFFFFFF))
    if infos and rng.random() < 0.5:
        t = rng.choice(infos).type
        if t.HasField("tensor_type"):
            t.tensor_type.elem_type = new
            return True
        return False
    if len(g.initializer):
        rng.choice(g.initializer).data_type = new
        return True
    return False


def _initializer(m: onnx.ModelProto, rng: random.Random) -> bool:
    g = _some_graph(m, rng)
    if not len(g.initializer):
        return False
    t: TensorProto = rng.choice(g.initializer)
    choice = rng.randrange(6)
    if choice == 0 and len(t.dims):
        t.dims[rng.randrange(len(t.dims))] = rng.choice(_ODD_INTS)
    elif choice == 1:
        t.dims.append(rng.choice((0, 1, 2, 3)))
    elif choice == 2:
        t.raw_data = t.raw_data[: rng.randrange(len(t.raw_data) + 1)] if t.raw_data else rng.randbytes(3)
    elif choice == 3:
        t.data_location = TensorProto.EXTERNAL
        entry = t.external_data.add()
        entry.key, entry.value = rng.choice(
            (("location", "missing.bin"), ("location", "../../etc/passwd"), ("offset", "-1"), ("length", "x"))
        )
    elif choice == 4:
        t.ClearField("raw_data")
        t.int64_data.extend(rng.choice(_ODD_INTS) for _ in range(rng.randint(0, 3)))
    else:
        t.name = rng.choice(_value_names(g) + ["", "fresh"])
    return True


def _constants(m: onnx.ModelProto, rng: random.Random) -> bool:
    """Odd values in a small integer constant (an initializer or a Constant node's tensor): the
    shapes, axes, starts and ends the rules read, same length so the tensor stays well formed."""
    g = _some_graph(m, rng)
    tensors = [t for t in g.initializer if t.data_type in (TensorProto.INT64, TensorProto.INT32)]
    tensors += [a.t for n in g.node if n.op_type == "Constant" for a in n.attribute if a.type == AttributeProto.TENSOR]
    tensors = [
        t
        for t in tensors
        if t.data_type in (TensorProto.INT64, TensorProto.INT32)
        and math.prod(t.dims) <= 64
        and t.data_location != TensorProto.EXTERNAL  # an earlier edit may point it at a file
    ]
    if not tensors:
        return False
    t = rng.choice(tensors)
    try:
        arr = numpy_helper.to_array(t).copy()
    except ValueError:  # an earlier edit broke its dims or data: that is the reader's to find
        return False
    if arr.size:
        info = np.iinfo(arr.dtype)
        flat = arr.reshape(-1)
        odd = [v for v in _ODD_INTS if info.min <= v <= info.max]
        for _ in range(rng.randint(1, arr.size)):
            flat[rng.randrange(arr.size)] = rng.choice(odd)
    t.CopyFrom(numpy_helper.from_array(arr, t.name))
    return True


def _attribute(m: onnx.ModelProto, rng: random.Random) -> bool:
    node = _some_node(m, rng)
    if node is None:
        return False
    if not len(node.attribute) or rng.random() < 0.2:
        a = node.attribute.add()
        a.name = rng.choice(("axis", "perm", "to", "value", "keepdims", "allowzero", "bogus"))
        a.type, a.i = AttributeProto.INT, rng.choice(_ODD_INTS)
        return True
    a = rng.choice(node.attribute)
    choice = rng.randrange(5)
    if choice == 0:
        node.attribute.remove(a)
    elif choice == 1:
        a.type = rng.choice(list(AttributeProto.AttributeType.values()))
    elif choice == 2 and a.type == AttributeProto.INT:
        a.i = rng.choice(_ODD_INTS)
    elif choice == 3 and a.type == AttributeProto.INTS:
        a.ints[:] = [rng.choice(_ODD_INTS[3:10]) for _ in range(rng.randint(0, 5))]
    elif a.type == AttributeProto.TENSOR:
        a.t.dims.append(rng.choice((0, 2, 5)))
    else:
        a.ClearField("i")
        a.ClearField("ints")
    return True


def _dangling(m: onnx.ModelProto, rng: random.Random) -> bool:
    g = _some_graph(m, rng)
    node = rng.choice(g.node) if len(g.node) else None
    choice = rng.randrange(4)
    if choice == 0 and node is not None and len(node.input):
        node.input[rng.randrange(len(node.input))] = rng.choice(("nowhere", "", *_value_names(g)))
    elif choice == 1 and node is not None and len(node.output):
        node.output[rng.randrange(len(node.output))] = rng.choice(("", *_value_names(g)))
    elif choice == 2 and len(g.output):
        g.output[rng.randrange(len(g.output))].name = rng.choice(("nowhere", *_value_names(g)))
    elif node is not None:
        node.input.append(rng.choice(("nowhere", "", *_value_names(g))))
    return True


def _nodes(m: onnx.ModelProto, rng: random.Random) -> bool:
    g = _some_graph(m, rng)
    if not len(g.node):
        return False
    i, j = rng.randrange(len(g.node)), rng.randrange(len(g.node))
    choice = rng.randrange(5)
    if choice == 0:
        del g.node[i]
    elif choice == 1:  # swap: a use before its definition
        a, b = NodeProto(), NodeProto()
        a.CopyFrom(g.node[i])
        b.CopyFrom(g.node[j])
        g.node[i].CopyFrom(b)
        g.node[j].CopyFrom(a)
    elif choice == 2:  # a cycle: an earlier node reads a later node's output
        lo, hi = sorted((i, j))
        if len(g.node[lo].input) and len(g.node[hi].output):
            g.node[lo].input[0] = g.node[hi].output[0]
    elif choice == 3:
        g.node.add().CopyFrom(g.node[i])
    else:
        g.node[i].op_type = rng.choice(("Reshape", "Concat", "Loop", "If", "Nope", "", "Gather", "Slice"))
    return True


def _opset(m: onnx.ModelProto, rng: random.Random) -> bool:
    choice = rng.randrange(3)
    if choice == 0 and len(m.opset_import):
        m.opset_import[0].version = rng.choice((-1, 0, 1, 7, 13, 99, 2**62))
    elif choice == 1:
        del m.opset_import[:]
    else:
        m.ir_version = rng.choice((0, 1, 3, 99))
    return True


_Edit = Callable[[onnx.ModelProto, random.Random], bool]
_EDITS: list[tuple[str, _Edit]] = [
    ("dims", _input_dims),
    ("elem_type", _elem_type),
    ("initializer", _initializer),
    ("attribute", _attribute),
    ("constants", _constants),
    ("constants", _constants),
    ("dangling", _dangling),
    ("nodes", _nodes),
    ("opset", _opset),
]
