"""The execution oracle of the benchmark: what sizes every value really has.

The model runs once per sample in one onnxruntime session (optimizations off) with every node
output of the main graph exposed as a graph output. Samples assign the symbols the graph inputs
declare (``batch``, ``past_seq + seq``, or ``<input>_d<axis>`` for anonymous dims): two with
distinct sizes other than 1, edge samples (every symbol 1, and a ``past`` symbol 0), and a rerun
of the first sample with other random data, which tells data-dependent dims apart. The oracle
knows nothing about any analyzer: it reads declared input dims and runs the model.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper

from symshape.algebra.expr import Dim, Expr, evaluate, sym
from symshape.algebra.parse import is_identifier, parse_dim

Shape = tuple[int, ...]
Env = dict[str, int]
FeedFn = Callable[[onnx.ModelProto, Env, int], dict[str, np.ndarray]]
_POOLS = ((3, 5, 7, 6, 9, 10, 11, 12), (6, 4, 9, 11, 5, 13, 7, 14))
_SCALES = (1, 8, 32)
MAX_FEED_ELEMENTS = 1 << 21
RANDOM_TRIES = 40


@dataclass
class Sample:
    """One run: the input-symbol assignment, its kind and the observed shapes."""

    name: str
    env: Env
    edge: bool
    shapes: dict[str, Shape] = field(default_factory=dict[str, Shape])


@dataclass
class Observation:
    """Every sample that ran, and the (value, axis) pairs that changed with the data alone."""

    samples: list[Sample]
    values: list[str]
    data_dependent: set[tuple[str, int]]
    failed: list[str]
    seconds: float


def declared_dims(model: onnx.ModelProto) -> dict[str, list[Dim]]:
    """Each graph input's dims as ints and expressions over the declared symbols."""
    inits = {t.name for t in model.graph.initializer}
    out: dict[str, list[Dim]] = {}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        dims: list[Dim] = []
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.HasField("dim_value"):
                dims.append(int(d.dim_value))
            elif d.dim_param.strip():
                p = d.dim_param.strip()
                dims.append(sym(p) if is_identifier(p) else parse_dim(p))
            else:
                dims.append(sym(f"{vi.name}_d{axis}"))
        out[vi.name] = dims
    return out


def input_symbols(model: onnx.ModelProto) -> list[str]:
    names: list[str] = []
    for dims in declared_dims(model).values():
        for d in dims:
            if isinstance(d, Expr):
                names += [s for s in sorted(d.free) if s not in names]
    return names


def generic_feeds(model: onnx.ModelProto, env: Env, seed: int) -> dict[str, np.ndarray]:
    """Random inputs by name: masks are ones, positions count up, ids are small, floats normal."""
    rng = np.random.default_rng(seed)
    types = {vi.name: vi.type.tensor_type.elem_type for vi in model.graph.input}
    feeds: dict[str, np.ndarray] = {}
    for name, dims in declared_dims(model).items():
        shape = tuple(evaluate(d, env) for d in dims)
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(types[name]))
        low = name.lower()
        if dtype == np.bool_:
            feeds[name] = rng.random(shape) > 0.5
        elif np.issubdtype(dtype, np.integer):
            if "mask" in low:
                feeds[name] = np.ones(shape, dtype=dtype)
            elif "position" in low and shape:
                feeds[name] = np.broadcast_to(np.arange(shape[-1], dtype=dtype), shape).copy()
            elif "token_type" in low:
                feeds[name] = np.zeros(shape, dtype=dtype)
            else:
                feeds[name] = rng.integers(0, 10, size=shape).astype(dtype)
        else:
            feeds[name] = rng.standard_normal(shape).astype(dtype)
    return feeds


def exposed(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[str]]:
    """A copy whose outputs are every typed node output of the main graph (shape-less)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    types: dict[str, int] = {}
    inferred = onnx.shape_inference.infer_shapes(model)
    for vi in [*inferred.graph.value_info, *inferred.graph.output]:
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
            types[vi.name] = vi.type.tensor_type.elem_type
    have = {o.name for o in copy.graph.output}
    values = [o.name for o in copy.graph.output]
    for node in copy.graph.node:
        for name in node.output:
            if name and name not in have and name in types:
                copy.graph.output.append(helper.make_tensor_value_info(name, types[name], None))
                have.add(name)
                values.append(name)
    return copy, values


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 4
    opts.intra_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def _run(sess: ort.InferenceSession, names: list[str], feeds: Mapping[str, np.ndarray]) -> dict[str, Shape]:
    results = sess.run(names, dict(feeds))
    return {n: tuple(int(x) for x in np.shape(r)) for n, r in zip(names, results, strict=True)}


def _factor(symbol: str, scale: int) -> int:
    """Batch symbols stay small; audio lengths start large; the rest grow with ``scale``."""
    low = symbol.lower()
    if "batch" in low:
        return 1
    if re.search(r"sample|audio|wave", low):
        return 64 * scale
    return scale


def size_samples(symbols: list[str]) -> list[tuple[str, Env, bool]]:
    """Candidate distinct-size assignments (the first two that run are kept): small pools, then
    seeded random sizes up to 48 (exports traced at one size may only run at some sizes), then
    the pools at larger scales."""
    def pools(scale: int) -> list[tuple[str, Env, bool]]:
        return [(f"s{k}x{scale}", {s: (pool[i % len(pool)] + i // len(pool)) * _factor(s, scale)
                                   for i, s in enumerate(symbols)}, False) for k, pool in enumerate(_POOLS)]

    rng = np.random.default_rng(0)
    randoms = [(f"r{k}", {s: int(rng.integers(2, 7 if "batch" in s.lower() else 49)) * _factor(s, 1)
                          for s in symbols}, False) for k in range(RANDOM_TRIES)]
    return pools(1) + randoms + [c for scale in _SCALES[1:] for c in pools(scale)]


def edge_samples(symbols: list[str], first: Env) -> list[tuple[str, Env, bool]]:
    """All symbols 1, each symbol 1 alone, and each ``past`` symbol 0 (those that run are kept)."""
    out: list[tuple[str, Env, bool]] = [("ones", dict.fromkeys(symbols, 1), True)]
    if len(symbols) > 1:
        out += [(f"{s}=1", {**first, s: 1}, True) for s in symbols]
    out += [(f"{s}=0", {**first, s: 0}, True) for s in symbols if re.search("past", s, re.I)]
    return out


def observe(
    model: onnx.ModelProto,
    plan: list[tuple[str, Env, bool]] | None = None,
    feed_fn: FeedFn = generic_feeds,
) -> Observation:
    """Run the samples of ``plan`` (default: two of `size_samples` that run, then `edge_samples`)."""
    start = time.perf_counter()
    copy, values = exposed(model)
    sess = _session(copy)
    names = [o.name for o in sess.get_outputs()]
    symbols = input_symbols(model)
    samples: list[Sample] = []
    failed: list[str] = []

    def attempt(name: str, env: Env, edge: bool) -> None:
        try:
            feeds = feed_fn(model, env, 0)
            if sum(a.size for a in feeds.values()) > MAX_FEED_ELEMENTS:
                failed.append(f"{name} {env}: inputs too large, skipped")
                return
            shapes = _run(sess, names, feeds)
        except Exception as err:  # noqa: BLE001 - onnxruntime raises its own types
            failed.append(f"{name} {env}: {str(err).splitlines()[0][-120:]}")
            return
        shapes.update({k: tuple(int(x) for x in a.shape) for k, a in feeds.items()})
        samples.append(Sample(name, env, edge, shapes))

    for name, env, edge in plan if plan is not None else size_samples(symbols):
        if plan is None and len(samples) >= 2:
            break
        if plan is None and samples and any(env[s] == samples[0].env[s] for s in symbols):
            continue  # the second sample moves every symbol
        attempt(name, env, edge)
    if plan is None and samples:
        for name, env, edge in edge_samples(symbols, samples[0].env):
            if all(s.env != env for s in samples):
                attempt(name, env, edge)
    dd = _data_dependent(sess, names, model, samples, feed_fn, failed)
    ran = set(names)
    return Observation(samples, [v for v in values if v in ran], dd, failed, time.perf_counter() - start)


def _data_dependent(sess: ort.InferenceSession, names: list[str], model: onnx.ModelProto,
                    samples: list[Sample], feed_fn: FeedFn, failed: list[str]) -> set[tuple[str, int]]:
    """(value, axis) pairs whose size changes when only the data of the first sample changes."""
    if not samples:
        return set()
    base = samples[0]
    try:
        other = _run(sess, names, feed_fn(model, base.env, 1))
    except Exception as err:  # noqa: BLE001
        failed.append(f"data rerun: {err}")
        return set()
    return {(v, a) for v, sh in other.items() for a, n in enumerate(sh)
            if v in base.shapes and len(base.shapes[v]) == len(sh) and base.shapes[v][a] != n}
