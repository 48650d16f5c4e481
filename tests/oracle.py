"""The execution oracle for tests on hand-built ONNX models: build, run with onnxruntime, compare.

Public functions:

* building: `make_model(nodes, inputs, outputs=None, initializers=(), opset=OPSET)`,
  `tensor(name, dims, dtype)` (a graph input or a declared output), `const(name, values, dtype)`
  (an integer initializer), `weight(name, dims)` (zeros), `array(name, ndarray)`;
* data: `rand(*shape, seed=0)` (float32), `feeds_for(model, env, feed=None)` (inputs whose
  symbolic dims take the sizes in ``env``);
* running: `run(model, feeds)`, every intermediate value exposed as an output
  (``symshape.tools.verify.run_values``, which only runs the model and never sees an analysis);
* checking: `check(model, samples, facts=..., analysis=...) -> Report`, then
  `assert_sound(report)` or the stricter `assert_exact(report)`; `check_model(model, samples)`
  does all three steps the common way and returns ``(analysis, observations)``;
  `check_value(report, name, array, env)` compares one value (to test the oracle itself);
  `guards_hold(analysis, env)` says whether a run is one the analysis made claims about.

Typical use::

    m = make_model([helper.make_node("Relu", ["x"], ["y"])], [tensor("x", ["n", 3])], ["y"])
    report = assert_exact(check(m, [{"n": 2}, {"n": 5}]))
    assert report.analysis.shape("y") == (sym("n"), 3)

A sample is either an assignment of the input symbols (``{"n": 2}``; inputs are then made by
`feeds_for`) or the input arrays themselves (``{"x": rand(2, 3)}``). For every sample, `check`
runs the model and compares every analyzed dim, every tracked element, every symbol's range and
divisor, every kept predicate and every listed guard against what onnxruntime observed. A
data-dependent symbol that appears alone as a dim is bound to the first size observed for it;
every other place it appears must then agree. `assert_sound` fails on any mismatch, on any dim
that no run can evaluate, and on any value the runtime could not expose; `assert_exact` also
fails when a dim needs a data-dependent symbol (is not expressed in the input symbols).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from symshape.algebra.expr import Dim, Expr, as_symbol, evaluate
from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.tools.verify import run_values

OPSET = 21  # the newest default-domain opset onnxruntime 1.2x runs end to end
IR_VERSION = 10  # opset 21 needs IR 10

Env = Mapping[str, int]
Feeds = Mapping[str, np.ndarray]
FeedFn = Callable[[str, tuple[int, ...], np.dtype], np.ndarray]


# ----------------------------------------------------------------------------- building
def tensor(name: str, dims: Sequence[int | str | None] | None, dtype: int = TensorProto.FLOAT) -> onnx.ValueInfoProto:
    """A tensor value info; ``None`` dims leave its shape unset."""
    return helper.make_tensor_value_info(name, dtype, None if dims is None else list(dims))


def const(name: str, values: Sequence[int] | int, dtype: int = TensorProto.INT64) -> onnx.TensorProto:
    """An integer initializer (a scalar when ``values`` is an int)."""
    if isinstance(values, int):
        return helper.make_tensor(name, dtype, [], [values])
    return helper.make_tensor(name, dtype, [len(values)], list(values))


def weight(name: str, dims: Sequence[int]) -> onnx.TensorProto:
    """A float initializer of zeros."""
    return helper.make_tensor(name, TensorProto.FLOAT, list(dims), np.zeros(int(np.prod(dims)), np.float32).tolist())


def array(name: str, values: np.ndarray) -> onnx.TensorProto:
    """An initializer holding ``values`` with its dtype and shape."""
    return numpy_helper.from_array(np.asarray(values), name)


def make_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto | str] | None = None,
    initializers: Sequence[onnx.TensorProto] = (),
    opset: int = OPSET,
) -> onnx.ModelProto:
    """A model over ``inputs`` (see `tensor`).

    ``outputs`` are value infos, or names declared with no type and no shape (symshape must find
    both); by default the last node's outputs. When every output declares a shape, the ONNX
    checker runs on the model.
    """
    names = [o for o in nodes[-1].output if o] if outputs is None else outputs
    outs = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) if isinstance(o, str) else o for o in names]
    graph = helper.make_graph(list(nodes), "test", list(inputs), outs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = IR_VERSION
    if all(o.type.tensor_type.HasField("shape") for o in outs):
        onnx.checker.check_model(model)
    return model


# ----------------------------------------------------------------------------- data and running
def rand(*shape: int, seed: int = 0) -> np.ndarray:
    """Float32 data with a deterministic seed."""
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def feeds_for(model: onnx.ModelProto, env: Env, feed: FeedFn | None = None) -> dict[str, np.ndarray]:
    """Inputs whose symbolic dims take the sizes in ``env``: normal floats, integers in [0, 3),
    or whatever ``feed(name, shape, dtype)`` returns."""
    rng = np.random.default_rng(0)
    init_names = {i.name for i in model.graph.initializer}
    feeds: dict[str, np.ndarray] = {}
    for vi in model.graph.input:
        if vi.name in init_names:
            continue
        tt = vi.type.tensor_type
        shape = tuple(d.dim_value if d.HasField("dim_value") else int(env[d.dim_param]) for d in tt.shape.dim)
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type))
        if feed is not None:
            feeds[vi.name] = feed(vi.name, shape, dtype)
        elif np.issubdtype(dtype, np.floating):
            feeds[vi.name] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[vi.name] = rng.integers(0, 3, size=shape).astype(dtype)
    return feeds


def run(model: onnx.ModelProto, feeds: Feeds, skipped: list[str] | None = None) -> dict[str, np.ndarray]:
    """Run ``model`` with every node output exposed: name -> array (inputs included)."""
    return run_values(model, feeds, skipped=skipped)


# ----------------------------------------------------------------------------- checking
@dataclass
class Observed:
    """One run: the sizes bound (input symbols and observed data symbols) and every shape seen."""

    env: dict[str, int] = field(default_factory=dict[str, int])
    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict[str, tuple[int, ...]])


@dataclass
class Report:
    """What `check` found, per kind of problem, and how much it compared."""

    analysis: Analysis
    runs: list[Observed] = field(default_factory=list[Observed])
    mismatches: list[str] = field(default_factory=list[str])  # a claim the runtime refutes
    unbound: list[str] = field(default_factory=list[str])  # a claim no run can evaluate
    data_dependent: list[str] = field(default_factory=list[str])  # needs a symbol bound by observation
    skipped: list[str] = field(default_factory=list[str])  # claimed tensors the runtime could not expose
    checked_dims: int = 0
    checked_elements: int = 0


def check(
    model: onnx.ModelProto,
    samples: Sequence[Env] | Sequence[Feeds],
    *,
    facts: Sequence[str] = (),
    analysis: Analysis | None = None,
    feed: FeedFn | None = None,
    values: Sequence[str] | None = None,
) -> Report:
    """Analyze ``model`` (unless ``analysis`` is given), run it on every sample and compare.

    ``values`` restricts the per-value comparison to those names (facts are always checked).
    """
    report = Report(analysis if analysis is not None else analyze_onnx(model, facts=facts))
    for sample in samples:
        feeds, env = _feeds_and_env(model, sample, feed)
        _bind_input_symbols(report.analysis, feeds, env)
        skipped: list[str] = []
        arrays = run(model, feeds, skipped)
        claimed = (s for s in skipped if report.analysis.shape_or_none(s) is not None)  # sequences are no tensors
        report.skipped.extend(s for s in claimed if s not in report.skipped)
        inputs = set(env)
        shapes = {n: tuple(int(x) for x in a.shape) for n, a in arrays.items()}
        _bind_data_symbols(report.analysis, shapes, env)
        for name, arr in arrays.items():
            if values is None or name in values:
                check_value(report, name, arr, env, inputs)
        _check_facts(report, env)
        report.runs.append(Observed(env, shapes))
    return report


def _feeds_and_env(model: onnx.ModelProto, sample: Env | Feeds, feed: FeedFn | None) -> tuple[Feeds, dict[str, int]]:
    """The feeds of a sample and the input symbols they bind (consistently)."""
    if all(isinstance(v, np.ndarray) for v in sample.values()) and sample:
        feeds: Feeds = {k: np.asarray(v) for k, v in sample.items()}
        env: dict[str, int] = {}
    else:
        env = {k: int(v) for k, v in sample.items()}
        feeds = feeds_for(model, env, feed)
    for vi in model.graph.input:
        if vi.name not in feeds:
            continue
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.HasField("dim_param") and d.dim_param.isidentifier():
                size = int(feeds[vi.name].shape[axis])
                assert env.setdefault(d.dim_param, size) == size, f"inconsistent sample for {d.dim_param}"
    return feeds, env


def _bind_input_symbols(analysis: Analysis, feeds: Feeds, env: dict[str, int]) -> None:
    """Bind each symbol an input dim is (a label such as ``?`` or ``p2o.DynamicDimension.1`` read
    as the analysis spells it) to the size fed; two dims the analysis read as one symbol must
    then have been fed the same size, or the sample refutes the merge."""
    for name, array in feeds.items():
        for axis, d in enumerate(analysis.shape_or_none(name) or ()):
            s = as_symbol(d)
            if s is not None and axis < array.ndim:
                size = int(array.shape[axis])
                assert env.setdefault(s, size) == size, f"input dims read as one symbol '{s}' were fed different sizes"


def _bind_data_symbols(analysis: Analysis, shapes: Mapping[str, tuple[int, ...]], env: dict[str, int]) -> None:
    """Bind each symbol that appears alone as a dim to the first size observed for it, in the
    program's order: the op that makes a symbol comes first (a later dim claimed equal to it
    only under a guard, e.g. a Reshape target element that must not be 0, may differ)."""
    for name in analysis.value_names():
        observed, claimed = shapes.get(name), analysis.shape_or_none(name)
        if observed is None or claimed is None or len(claimed) != len(observed):
            continue
        for d, size in zip(claimed, observed, strict=True):
            s = as_symbol(d)
            if s is not None and s not in env:
                env[s] = size


def _free(d: Dim) -> frozenset[str]:
    return d.free if isinstance(d, Expr) else frozenset()


def _compare(report: Report, d: Dim, observed: float, env: Env, inputs: set[str], where: str) -> None:
    """One claimed dim or element against its observed value."""
    if not _free(d) <= env.keys():
        report.unbound.append(f"{where} = '{d}': no run binds {sorted(_free(d) - env.keys())}")
        return
    if not _free(d) <= inputs:
        report.data_dependent.append(f"{where} = '{d}' needs {sorted(_free(d) - inputs)}")
    try:
        got = evaluate(d, env)
    except ZeroDivisionError:
        report.mismatches.append(f"{dict(env)}: {where} = '{d}' divides by zero, observed {observed}")
        return
    if got != observed:
        report.mismatches.append(f"{dict(env)}: {where} = '{d}' = {got}, observed {observed}")


def check_value(report: Report, name: str, arr: np.ndarray, env: Env, inputs: set[str] | None = None) -> None:
    """Compare the claimed dims and tracked elements of ``name`` with the array observed."""
    inputs = set(env) if inputs is None else inputs
    analysis = report.analysis
    shape = analysis.shape_or_none(name)
    if shape is None:
        report.mismatches.append(f"{dict(env)}: '{name}' has no shape claimed")
        return
    if len(shape) != arr.ndim:
        report.mismatches.append(f"{dict(env)}: '{name}' rank {len(shape)} != observed {arr.shape}")
        return
    for axis, (d, n) in enumerate(zip(shape, arr.shape, strict=True)):
        report.checked_dims += 1
        _compare(report, d, int(n), env, inputs, f"'{name}' dim {axis}")
    els = analysis.elements(name)
    if els is None:
        return
    if arr.size != len(els):
        report.mismatches.append(f"{dict(env)}: '{name}' tracks {len(els)} elements, observed {arr.size}")
        return
    for k, (e, v) in enumerate(zip(els, arr.reshape(-1).tolist(), strict=True)):
        report.checked_elements += 1
        _compare(report, e, v, env, inputs, f"'{name}' element {k}")


def _holds(lhs: int, rel: str, rhs: int) -> bool:
    return {
        "==": lhs == rhs,
        ">=": lhs >= rhs,
        "!=": lhs != rhs,
        "<=": lhs <= rhs,
        "<": lhs < rhs,
        "divisible": rhs != 0 and lhs % rhs == 0,
    }[rel]


def _check_facts(report: Report, env: Env) -> None:
    """Every bound symbol's range and divisor, every predicate and guard, hold at ``env``."""
    analysis = report.analysis
    for name, info in analysis.symbols().items():
        if name not in env:
            continue
        lo, hi = info["range"]
        v = env[name]
        if (lo is not None and v < lo) or (hi is not None and v > hi) or v % info["divisor"]:
            report.mismatches.append(f"{dict(env)}: symbol {name}={v} violates its facts {info}")
    claims = [(p.lhs, p.rel, p.rhs, f"predicate from {p.origin}") for p in analysis.graph.predicates]
    claims += [(g.lhs, g.rel, g.rhs, f"guard from {g.origin}") for g in analysis.graph.guards]
    for lhs_, rel, rhs_, what in claims:
        lhs, rhs = analysis.public(lhs_), analysis.public(rhs_)
        if not (_free(lhs) | _free(rhs)) <= env.keys():
            continue
        if not _relation_holds(lhs, rel, rhs, env):
            report.mismatches.append(f"{dict(env)}: {what} '{lhs} {rel} {rhs}' is false or undefined")


def guards_hold(analysis: Analysis, env: Env) -> bool:
    """Whether every listed guard is true at ``env`` (a guard over a symbol ``env`` does not bind
    counts as true): where one is false, the analysis claimed nothing about that run."""
    for g in analysis.graph.guards:
        lhs, rhs = analysis.public(g.lhs), analysis.public(g.rhs)
        if (_free(lhs) | _free(rhs)) <= env.keys() and not _relation_holds(lhs, g.rel, rhs, env):
            return False
    return True


def _relation_holds(lhs: Dim, rel: str, rhs: Dim, env: Env) -> bool:
    """``lhs rel rhs`` at ``env``; a side that divides by zero there is undefined: not true."""
    try:
        return _holds(evaluate(lhs, env), rel, evaluate(rhs, env))
    except ZeroDivisionError:
        return False


def _problems(report: Report) -> list[str]:
    problems = report.mismatches + report.unbound + [f"not exposed by the runtime: {s}" for s in report.skipped]
    if report.checked_dims == 0:
        problems.append("no dims were checked")
    return problems


def assert_sound(report: Report) -> Report:
    """Every claim held at every sample, every dim could be evaluated, every value was seen."""
    problems = _problems(report)
    if problems:
        raise AssertionError("\n".join(sorted(set(problems))[:40]))
    return report


def assert_exact(report: Report) -> Report:
    """`assert_sound`, and every dim is expressed in the input symbols alone."""
    problems = _problems(report) + [f"not expressed in the inputs: {x}" for x in report.data_dependent]
    if problems:
        raise AssertionError("\n".join(sorted(set(problems))[:40]))
    return report


def check_model(
    model: onnx.ModelProto,
    samples: Sequence[Env] | Sequence[Feeds],
    *,
    facts: Sequence[str] = (),
    allow_warnings: bool = False,
) -> tuple[Analysis, list[Observed]]:
    """`check` then `assert_sound`, with no analysis warning unless allowed."""
    report = check(model, samples, facts=facts)
    if not allow_warnings:
        assert not report.analysis.warnings, [w.message for w in report.analysis.warnings]
    assert_sound(report)
    return report.analysis, report.runs
