"""Small helpers for tests on hand-built ONNX graphs: build, analyze, and run with onnxruntime.

The oracle: every intermediate value becomes a graph output, onnxruntime runs the model at a
concrete assignment of the input symbols, and each symbolic dim is evaluated under the same
assignment and compared with the observed size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.expr import evaluate
from symshape.result import Analysis
from symshape.verify import run_shapes

OPSET = 17


def const(name: str, values: Sequence[int] | int, dtype: int = TensorProto.INT64) -> onnx.TensorProto:
    """An integer initializer (a scalar when ``values`` is an int)."""
    if isinstance(values, int):
        return helper.make_tensor(name, dtype, [], [values])
    return helper.make_tensor(name, dtype, [len(values)], list(values))


def weight(name: str, dims: Sequence[int]) -> onnx.TensorProto:
    """A float initializer of zeros."""
    return helper.make_tensor(name, TensorProto.FLOAT, list(dims), np.zeros(int(np.prod(dims)), np.float32).tolist())


def model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Mapping[str, Sequence[int | str | None]],
    outputs: Sequence[str],
    initializers: Sequence[onnx.TensorProto] = (),
    opset: int = OPSET,
) -> onnx.ModelProto:
    """A float-input model; ``inputs`` maps names to declared dims."""
    graph = helper.make_graph(
        list(nodes),
        "test",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(d)) for n, d in inputs.items()],
        [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outputs],
        list(initializers),
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def observed_shapes(m: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, tuple[int, ...]]:
    """Run ``m`` with every node output exposed; returns the observed shape of each value."""
    return run_shapes(m, feeds)


def feeds_for(m: onnx.ModelProto, env: Mapping[str, int]) -> dict[str, np.ndarray]:
    """Random float inputs whose symbolic dims take the values in ``env``."""
    rng = np.random.default_rng(0)
    feeds = {}
    for vi in m.graph.input:
        dims = [d.dim_value if d.HasField("dim_value") else env[d.dim_param] for d in vi.type.tensor_type.shape.dim]
        feeds[vi.name] = rng.standard_normal(dims).astype(np.float32)
    return feeds


def check_against_runtime(m: onnx.ModelProto, result: Analysis, envs: Sequence[Mapping[str, int]]) -> int:
    """Assert every analyzed dim equals the observed size at each assignment; returns #checked."""
    checked = 0
    for env in envs:
        observed = observed_shapes(m, feeds_for(m, env))
        for name, shape in observed.items():
            dims = result.shape(name)
            assert dims is not None, f"no shape for '{name}'"
            assert len(dims) == len(shape), f"rank of '{name}': {dims} vs observed {shape}"
            for axis, (d, size) in enumerate(zip(dims, shape, strict=True)):
                value = evaluate(d, env)
                assert value == size, f"'{name}'[{axis}] = '{d}' -> {value} at {env}, observed {size}"
                checked += 1
    return checked


def analyze_model(m: onnx.ModelProto, facts: Sequence[str] = ()) -> Analysis:
    """Analyze an in-memory model."""
    return analyze_onnx(m, facts=facts)
