"""An execution oracle for rule tests: run a model with onnxruntime, every intermediate exposed.

`check_model` analyzes a hand-built model, runs it at several concrete input sizes, and checks
every dim the analysis claims against the observed size:

* a dim over input symbols must evaluate (``symshape.expr.evaluate``) to the observed size;
* a data-dependent symbol is bound to the size observed where it first appears; every other
  place it appears must then match (this checks that shared symbols are really equal), and the
  value must lie in the symbol's recorded range and satisfy every recorded predicate;
* tracked elements must evaluate to the observed values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.expr import Dim, Expr, as_symbol, evaluate
from symshape.result import Analysis
from symshape.verify import run_values

OPSET = 21


def make_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    initializers: Sequence[onnx.TensorProto] = (),
    opset: int = OPSET,
) -> onnx.ModelProto:
    """A checked model from nodes and value infos (ir_version that onnxruntime accepts)."""
    graph = helper.make_graph(list(nodes), "test", list(inputs), list(outputs), list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    if all(o.type.tensor_type.HasField("shape") for o in outputs):  # the checker wants output shapes
        onnx.checker.check_model(model)
    return model


def tensor(name: str, dims: Sequence[int | str | None], dtype: int = TensorProto.FLOAT) -> onnx.ValueInfoProto:
    """A tensor value info; ``None`` leaves the output's shape unset."""
    return helper.make_tensor_value_info(name, dtype, None if dims is None else list(dims))


@dataclass
class Observed:
    """What one run bound: the data symbols' observed values, for assertions in tests."""

    env: dict[str, int] = field(default_factory=dict[str, int])
    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict[str, tuple[int, ...]])


def _input_env(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, int]:
    env: dict[str, int] = {}
    for vi in model.graph.input:
        dims = vi.type.tensor_type.shape.dim
        for axis, d in enumerate(dims):
            if d.HasField("dim_param"):
                size = int(feeds[vi.name].shape[axis])
                assert env.get(d.dim_param, size) == size, f"inconsistent feed for {d.dim_param}"
                env[d.dim_param] = size
    return env


def _bind(result: Analysis, shapes: Mapping[str, tuple[int, ...]], env: dict[str, int]) -> None:
    """Bind each data symbol that appears alone as a dim to the first size observed for it."""
    for name, observed in shapes.items():
        claimed = result.shape(name)
        if claimed is None or len(claimed) != len(observed):
            continue
        for d, size in zip(claimed, observed, strict=True):
            s = as_symbol(d)
            if s is not None and s not in env:
                env[s] = size


def _value(d: Dim, env: Mapping[str, int], where: str) -> int:
    if isinstance(d, Expr) and not d.free <= env.keys():
        raise AssertionError(f"{where}: '{d}' has symbols no run binds: {sorted(d.free - env.keys())}")
    return evaluate(d, env)


def _check_ranges(result: Analysis, env: Mapping[str, int], inputs: set[str]) -> None:
    for name, info in result.symbols().items():
        if name in inputs or name not in env:
            continue
        lo, hi = info["range"]
        assert lo is None or env[name] >= lo, f"symbol {name}={env[name]} below its range {info['range']}"
        assert hi is None or env[name] <= hi, f"symbol {name}={env[name]} above its range {info['range']}"
    for p in result.graph.predicates:
        lhs, rhs = result.public(p.lhs), result.public(p.rhs)
        free = set().union(*(d.free for d in (lhs, rhs) if isinstance(d, Expr)))
        if not free <= env.keys():
            continue
        a, b = evaluate(lhs, env), evaluate(rhs, env)
        ok = {"<=": a <= b, "<": a < b, "divisible": b != 0 and a % b == 0}[p.rel]
        assert ok, f"predicate {lhs} {p.rel} {rhs} fails at {a} {p.rel} {b} (origin {p.origin})"


def run_and_compare(model: onnx.ModelProto, result: Analysis, feeds: Mapping[str, np.ndarray]) -> Observed:
    """Run ``model`` on ``feeds`` and check every claimed dim and tracked element."""
    arrays = run_values(model, feeds)
    shapes = {n: tuple(int(x) for x in a.shape) for n, a in arrays.items()}
    env = _input_env(model, feeds)
    inputs = set(env)
    _bind(result, shapes, env)
    for name, observed in shapes.items():
        claimed = result.shape(name)
        assert claimed is not None, f"no shape claimed for '{name}'"
        assert len(claimed) == len(observed), f"'{name}': rank {len(claimed)} claimed, {len(observed)} observed"
        for axis, (d, size) in enumerate(zip(claimed, observed, strict=True)):
            got = _value(d, env, f"'{name}' dim {axis}")
            assert got == size, f"'{name}' dim {axis}: '{d}' = {got} but onnxruntime gives {size} ({env})"
        els = result.elements(name)
        if els is not None and name in arrays:
            flat = arrays[name].reshape(-1).tolist()
            values = [_value(e, env, f"'{name}' elements") for e in els]
            assert values == [int(x) for x in flat], f"'{name}' elements {values} != {flat}"
    _check_ranges(result, env, inputs)
    return Observed(env, shapes)


def check_model(
    model: onnx.ModelProto,
    samples: Sequence[Mapping[str, np.ndarray]],
    *,
    facts: Sequence[str] = (),
    allow_warnings: bool = False,
) -> tuple[Analysis, list[Observed]]:
    """Analyze ``model`` and compare it with onnxruntime on every sample."""
    result = analyze_onnx(model, facts=facts)
    if not allow_warnings:
        assert not result.warnings, [w.message for w in result.warnings]
    return result, [run_and_compare(model, result, feeds) for feeds in samples]


def rand(*shape: int, seed: int = 0) -> np.ndarray:
    """Float32 data with a deterministic seed."""
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
