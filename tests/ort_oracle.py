"""A small execution oracle for rule tests.

Build a model with `onnx.helper`, run it with onnxruntime at several concrete input sizes with
every intermediate value exposed as a graph output, and compare each observed shape (and the
contents of small integer tensors) with symshape's symbolic dims evaluated by
`symshape.expr.evaluate` under the same sizes. The symbolic side never sees the concrete sizes,
and the concrete side (`symshape.verify.run_values`, which only runs the model) never sees the
analysis: the two meet only in `check`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from symshape.api import analyze_onnx
from symshape.expr import Dim, Expr, evaluate
from symshape.onnx.reader import elem_types
from symshape.result import Analysis
from symshape.verify import run_values

Env = Mapping[str, int]
InputSpec = tuple[str, int, Sequence[int | str]]  # (name, TensorProto elem type, dims)
FeedFn = Callable[[str, tuple[int, ...], np.dtype], np.ndarray]


def make_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[InputSpec],
    outputs: Sequence[str] | None = None,
    initializers: Mapping[str, np.ndarray] | None = None,
    opset: int = 18,
) -> onnx.ModelProto:
    """A model over ``inputs`` (dims: ints or dim_param names); outputs default to the last
    node's outputs and carry no declared shape (symshape must find it)."""
    ins = [helper.make_tensor_value_info(n, t, list(d)) for n, t, d in inputs]
    out_names = list(outputs) if outputs is not None else [o for o in nodes[-1].output if o]
    inits = [numpy_helper.from_array(np.asarray(a), name) for name, a in (initializers or {}).items()]
    graph = helper.make_graph(list(nodes), "g", ins, [], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 9
    types = elem_types(model)
    for name in out_names:
        graph.output.append(helper.make_tensor_value_info(name, types.get(name, TensorProto.FLOAT), None))
    return model


def _default_feed(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    del name
    rng = np.random.default_rng(0)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(0, 3, size=shape).astype(dtype)


def run(model: onnx.ModelProto, env: Env, feed: FeedFn | None = None) -> dict[str, np.ndarray]:
    """Run every node of ``model`` with input dims given by ``env``; name -> array."""
    feeds: dict[str, np.ndarray] = {}
    init_names = {i.name for i in model.graph.initializer}
    for vi in model.graph.input:
        if vi.name in init_names:
            continue
        dims = tuple(
            d.dim_value if d.HasField("dim_value") else int(env[d.dim_param]) for d in vi.type.tensor_type.shape.dim
        )
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type))
        feeds[vi.name] = (feed or _default_feed)(vi.name, dims, dtype)
    return run_values(model, feeds)


@dataclass
class Report:
    """What `check` found: the analysis, mismatches, and dims that are not in input symbols."""

    analysis: Analysis
    mismatches: list[str] = field(default_factory=list[str])
    not_expressed: list[str] = field(default_factory=list[str])
    checked_dims: int = 0


def _eval(d: Dim, env: Env) -> int | None:
    try:
        return evaluate(d, env)
    except KeyError:
        return None


def check(
    model: onnx.ModelProto,
    envs: Sequence[Env],
    *,
    facts: Sequence[str] = (),
    feed: FeedFn | None = None,
    values: Sequence[str] | None = None,
) -> Report:
    """Analyze ``model`` once, run it at every ``env``, and compare every value's dims.

    A dim that evaluates differently from the observed size is a mismatch (unsound); a dim
    that cannot be evaluated from the input symbols is "not expressed". Symbol facts (ranges,
    divisors) and every listed guard must also hold at each tested size.
    """
    analysis = analyze_onnx(model, facts=facts)
    report = Report(analysis)
    for env in envs:
        observed = run(model, env, feed)
        _check_facts(report, env)
        for name, array in observed.items():
            if values is not None and name not in values:
                continue
            _check_value(report, name, array, env)
    return report


def _check_facts(report: Report, env: Env) -> None:
    analysis = report.analysis
    for name, info in analysis.symbols().items():
        if name in env:
            lo, hi = info["range"]
            v = env[name]
            if (lo is not None and v < lo) or (hi is not None and v > hi) or v % info["divisor"]:
                report.mismatches.append(f"{dict(env)}: symbol {name}={v} violates its facts {info}")
    for cond, origin, _ in analysis.guards():
        lhs, rel, rhs = _split_condition(cond)
        if lhs is None:
            continue
        a, b = _eval_text(lhs, env), _eval_text(rhs, env)
        if a is None or b is None:
            continue
        ok = {"==": a == b, ">=": a >= b, "!=": a != b}[rel]
        if not ok:
            report.mismatches.append(f"{dict(env)}: guard '{cond}' from {origin} is false")


def _split_condition(cond: str) -> tuple[str | None, str, str]:
    for rel in (" == ", " >= ", " != "):
        if rel in cond:
            lhs, rhs = cond.split(rel, 1)
            return lhs, rel.strip(), rhs
    return None, "", ""


def _eval_text(text: str, env: Env) -> int | None:
    from symshape.parse import parse_dim

    d = parse_dim(text)
    if isinstance(d, Expr) and not d.free <= set(env):
        return None
    return evaluate(d, env)


def _check_value(report: Report, name: str, array: np.ndarray, env: Env) -> None:
    analysis = report.analysis
    shape = analysis.shape(name)
    if shape is None:
        report.not_expressed.append(f"{name}: no shape")
        return
    if len(shape) != array.ndim:
        report.mismatches.append(f"{dict(env)}: '{name}' rank {len(shape)} != observed {array.shape}")
        return
    for axis, (d, n) in enumerate(zip(shape, array.shape, strict=True)):
        report.checked_dims += 1
        got = _eval(d, env)
        if got is None:
            report.not_expressed.append(f"'{name}' dim {axis} = '{d}'")
        elif got != n:
            report.mismatches.append(f"{dict(env)}: '{name}' dim {axis} = '{d}' = {got}, observed {n}")
    els = analysis.elements(name)
    if els is None or not np.issubdtype(array.dtype, np.integer) or array.size != len(els):
        return
    for k, (e, v) in enumerate(zip(els, array.reshape(-1).tolist(), strict=True)):
        got = _eval(e, env)
        if got is not None and got != v:
            report.mismatches.append(f"{dict(env)}: '{name}' element {k} = '{e}' = {got}, observed {v}")


def assert_exact(report: Report) -> None:
    """Every dim matched at every size and is expressed in the input symbols."""
    problems = report.mismatches + [f"not expressed: {x}" for x in report.not_expressed]
    if problems:
        raise AssertionError("\n".join(sorted(set(problems))[:40]))
    if report.checked_dims == 0:
        raise AssertionError("no dims were checked")
