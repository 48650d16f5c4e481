"""The execution oracle: run a model with onnxruntime and check the analysis against it.

`run_shapes` runs a copy of the model with every intermediate value exposed as an output and
returns the observed shape of each; `make_feeds` builds valid random inputs for an assignment of
the input symbols; `assignments` picks several assignments (distinct, non-1 sizes plus edge
samples where a dim that may be 1 is 1); `check` compares every analysed dim with what ran.

onnxruntime is an optional dependency: it is imported inside the functions that need it.

Example:
    >>> from symshape.api import analyze_onnx
    >>> from symshape.verify import assignments, check, make_feeds, run_shapes
    >>> result = analyze_onnx("model.onnx")  # doctest: +SKIP
    >>> for env in assignments(result):  # doctest: +SKIP
    ...     observed = run_shapes("model.onnx", make_feeds(result.program, env))
    ...     print(check(result, observed, env).summary())
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from symshape.errors import SymshapeError
from symshape.expr import Dim, Expr, evaluate, sym
from symshape.parse import is_identifier, parse_dim
from symshape.program import Program

if TYPE_CHECKING:
    import onnx

    from symshape.result import Analysis

Shape = tuple[int, ...]
Env = dict[str, int]
_POOL = (2, 3, 5, 7, 11, 13, 6, 10, 14, 9, 15, 4, 17, 8, 12, 16, 19, 18, 20, 22)


class OracleError(SymshapeError):
    """The execution oracle cannot run: onnxruntime is missing or refuses the model."""

    anchor = "oracleerror"


# ------------------------------------------------------------------------------------ running
def _onnxruntime() -> Any:
    try:
        import onnxruntime
    except ImportError:
        raise OracleError(
            "the execution oracle needs onnxruntime: pip install 'symshape[test]' (or onnxruntime)"
        ) from None
    return onnxruntime


def run_shapes(
    model_path: str | Path,
    feeds: Mapping[str, np.ndarray],
    *,
    skipped: list[str] | None = None,
) -> dict[str, Shape]:
    """Run ``model_path`` on CPU and return the observed shape of every top-level value.

    The file is never modified: a copy in memory gets each node output added to
    ``graph.output`` (with only its element type, from the model's value_info or from ONNX
    shape inference). Values whose type cannot be found, non-tensor values and values
    onnxruntime refuses as outputs are left out; their names are appended to ``skipped``.
    Graph inputs are reported with the shapes of ``feeds``.
    """
    import onnx

    model = onnx.load(str(model_path))
    exposed, untyped = expose_values(model)
    if skipped is not None:
        skipped.extend(untyped)
    ort = _onnxruntime()
    session, refused = _session(ort, model, exposed)
    if skipped is not None:
        skipped.extend(refused)
    names = [o.name for o in session.get_outputs()]
    results = session.run(names, dict(feeds))
    observed: dict[str, Shape] = {k: tuple(int(d) for d in np.shape(v)) for k, v in feeds.items()}
    for name, value in zip(names, results, strict=True):
        if isinstance(value, np.ndarray) or np.isscalar(value):
            observed[name] = tuple(int(d) for d in np.shape(value))
    return observed


def expose_values(model: onnx.ModelProto) -> tuple[list[str], list[str]]:
    """Add every typed node output of the main graph to ``graph.output`` (in place).

    Returns ``(added, untyped)``: the names added, and the outputs whose element type is unknown.
    """
    import onnx

    types = _elem_types(model)
    present = {o.name for o in model.graph.output}
    added: list[str] = []
    untyped: list[str] = []
    for node in model.graph.node:
        for out in node.output:
            if not out or out in present:
                continue
            present.add(out)
            elem = types.get(out)
            if elem is None:
                untyped.append(out)
                continue
            model.graph.output.append(onnx.helper.make_tensor_value_info(out, elem, None))
            added.append(out)
    return added, untyped


def _elem_types(model: onnx.ModelProto) -> dict[str, int]:
    """Element types of tensor values: declared value_info first, then ONNX shape inference."""
    import onnx

    types: dict[str, int] = {}
    infos = list(model.graph.value_info) + list(model.graph.output) + list(model.graph.input)
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
        infos += list(inferred.graph.value_info)
    except Exception:  # noqa: BLE001, S110 - inference is a best-effort source of types
        pass
    for vi in infos:
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
            types.setdefault(vi.name, vi.type.tensor_type.elem_type)
    for t in model.graph.initializer:
        types.setdefault(t.name, t.data_type)
    return types


def _session(ort: Any, model: onnx.ModelProto, extra: list[str]) -> tuple[Any, list[str]]:
    """An inference session; extra outputs onnxruntime refuses are dropped (and returned)."""
    refused: list[str] = []
    keep = list(extra)
    for _ in range(8):
        try:
            return _make_session(ort, model), refused
        except Exception as err:  # noqa: BLE001 - onnxruntime raises its own exception types
            named = [n for n in keep if re.search(rf"\b{re.escape(n)}\b", str(err))]
            if not named:
                bad = _bisect_refused(ort, model, keep)
                if not bad:
                    raise OracleError(f"onnxruntime cannot load the model: {err}") from None
                named = bad
            _drop_outputs(model, set(named))
            refused.extend(named)
            keep = [n for n in keep if n not in set(named)]
    raise OracleError("onnxruntime keeps refusing extra outputs; giving up")


def _make_session(ort: Any, model: onnx.ModelProto) -> Any:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def _drop_outputs(model: onnx.ModelProto, names: set[str]) -> None:
    kept = [o for o in model.graph.output if o.name not in names]
    del model.graph.output[:]
    model.graph.output.extend(kept)


def _bisect_refused(ort: Any, model: onnx.ModelProto, extra: list[str]) -> list[str]:
    """The extra outputs whose presence alone makes the session fail."""
    import onnx

    base = onnx.ModelProto()
    base.CopyFrom(model)
    _drop_outputs(base, set(extra))
    bad: list[str] = []
    pending = [extra]
    while pending:
        group = pending.pop()
        trial = onnx.ModelProto()
        trial.CopyFrom(base)
        trial.graph.output.extend(o for o in model.graph.output if o.name in set(group))
        try:
            _make_session(ort, trial)
        except Exception:  # noqa: BLE001 - onnxruntime raises its own exception types
            if len(group) == 1:
                bad.extend(group)
            else:
                half = len(group) // 2
                pending += [group[:half], group[half:]]
    return bad


# ------------------------------------------------------------------------------------- inputs
def input_dims(program: Program, name: str) -> tuple[Dim, ...]:
    """The declared dims of graph input ``name`` as ints and expressions over input symbols."""
    value = program.values[name]
    if value.type is None or value.type.dims is None:
        raise OracleError(f"input '{name}' has no declared rank; cannot build a feed for it")
    out: list[Dim] = []
    for axis, d in enumerate(value.type.dims):
        if isinstance(d, int) and d >= 0:
            out.append(d)
        elif isinstance(d, str) and d.strip():
            out.append(sym(d) if is_identifier(d) else parse_dim(d))
        else:
            out.append(sym(f"{name}_d{axis}"))
    return tuple(out)


def input_symbol_names(program: Program) -> list[str]:
    """The symbols the graph inputs declare, in order of first appearance."""
    names: list[str] = []
    for name in program.inputs:
        value = program.values[name]
        if value.type is None or value.type.dims is None:
            continue
        for d in input_dims(program, name):
            if isinstance(d, Expr):
                names.extend(s for s in sorted(d.free) if s not in names)
    return names


def make_feeds(
    model: onnx.ModelProto | Program,
    sizes: Mapping[str, int],
    *,
    seed: int = 0,
    int_high: int = 10,
    overrides: Mapping[str, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Random inputs for the input-symbol assignment ``sizes``.

    Integer inputs get values in ``[0, int_high)`` (valid token ids for a vocabulary of at least
    ``int_high``), except by name: ``*mask*`` gets ones, ``*token_type*`` zeros and
    ``*position*`` a valid ``0..n-1`` range along the last axis. Bool inputs are True, floating
    inputs standard normal. ``overrides`` replaces any input by name.
    """
    if not isinstance(model, Program):
        from symshape.onnx.reader import model_to_program

        model = model_to_program(model)
    rng = np.random.default_rng(seed)
    feeds: dict[str, np.ndarray] = {}
    for name in model.inputs:
        if overrides and name in overrides:
            feeds[name] = overrides[name]
            continue
        value = model.values[name]
        dtype = np.dtype(value.type.dtype if value.type else "float32")
        shape = tuple(evaluate(d, sizes) for d in input_dims(model, name))
        feeds[name] = _random_input(rng, name.lower(), dtype, shape, int_high)
    return feeds


def _random_input(
    rng: np.random.Generator, name: str, dtype: np.dtype, shape: Shape, high: int
) -> np.ndarray:
    if dtype == np.bool_:
        return np.ones(shape, dtype=np.bool_)
    if np.issubdtype(dtype, np.integer):
        if "mask" in name:
            return np.ones(shape, dtype=dtype)
        if "token_type" in name:
            return np.zeros(shape, dtype=dtype)
        if "position" in name and shape:
            return np.broadcast_to(np.arange(shape[-1], dtype=dtype), shape).copy()
        return rng.integers(0, high, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# -------------------------------------------------------------------------------- assignments
def assignments(
    analysis: Analysis,
    n: int = 3,
    edge: bool = True,
    *,
    values: Mapping[str, Sequence[int]] | None = None,
) -> list[Env]:
    """Assignments of the input symbols: ``n`` with distinct non-1 sizes, then edge samples.

    Each free input symbol gets a different value from a pool of small sizes (adjusted to the
    symbol's divisor and range); symbols bound to expressions of others are computed. Edge
    samples set each symbol whose range admits 1 to 1, one at a time and then all at once.
    ``values`` fixes candidate sizes for named symbols (used in turn); those symbols only take
    part in edge samples when their candidates include 1.
    """
    graph = analysis.graph
    declared = input_symbol_names(analysis.program)
    base = sorted({s for name in declared for s in _free(graph.canon(sym(name)))}, key=_order(declared))
    chosen = values or {}
    out: list[Env] = []
    for k in range(n * 20):
        if len(out) == n:
            break
        used: set[int] = set()
        env: Env = {}
        for i, s in enumerate(base):
            if s in chosen:
                options = list(chosen[s])
                env[s] = options[len(out) % len(options)]
            else:
                env[s] = _pick(graph.facts.get(s), i + k * len(base), used)
            used.add(env[s])
        full = _complete(analysis, declared, env)
        derived = [v for name, v in full.items() if name not in env]
        if _admitted(analysis, full) and not set(derived) & (used | {1}) and len(set(derived)) == len(derived):
            out.append(full)
    if edge and out:
        facts = graph.facts
        ones = [s for s in base if 1 in chosen.get(s, ()) or (s not in chosen and facts.get(s).admits(1))]
        groups = [{s} for s in ones] + ([set(ones)] if len(ones) > 1 else [])
        for group in groups:
            for sample in out[:n]:
                env = {**_base_env(sample, base), **dict.fromkeys(group, 1)}
                full = _complete(analysis, declared, env)
                if _admitted(analysis, full):
                    out.append(full)
                    break
    return _unique(out)


def _admitted(analysis: Analysis, env: Env) -> bool:
    """Whether every declared input symbol's value satisfies its recorded range and divisor."""
    return all(analysis.graph.facts.get(name).admits(v) for name, v in env.items())


def _free(d: Dim) -> frozenset[str]:
    return d.free if isinstance(d, Expr) else frozenset()


def _order(declared: list[str]) -> Any:
    return lambda s: (declared.index(s) if s in declared else len(declared), s)


def _pick(facts: Any, start: int, used: set[int]) -> int:
    """A pool value after ``start`` that the symbol's facts admit and no other symbol uses."""
    for step in range(len(_POOL) * 4):
        base = _POOL[(start + step) % len(_POOL)]
        v = base * facts.divisor if facts.divisor > 1 else base
        if facts.lo is not None and v < facts.lo:
            v = facts.lo + (-facts.lo) % facts.divisor + step * facts.divisor
        if facts.hi is not None and v > facts.hi:
            continue
        if v not in used and v != 1 and facts.admits(v):
            return v
    lo = facts.lo if facts.lo is not None else 0
    return next(v for v in itertools.count(max(lo, 2)) if facts.admits(v))


def _base_env(env: Env, base: list[str]) -> Env:
    return {s: env[s] for s in base}


def _complete(analysis: Analysis, declared: list[str], env: Env) -> Env:
    """Add the value of each declared input symbol bound to an expression of others."""
    full = dict(env)
    for name in declared:
        if name not in full:
            full[name] = evaluate(analysis.graph.canon(sym(name)), env)
    return full


def _unique(envs: Iterable[Env]) -> list[Env]:
    seen: set[tuple[tuple[str, int], ...]] = set()
    out: list[Env] = []
    for env in envs:
        key = tuple(sorted(env.items()))
        if key not in seen:
            seen.add(key)
            out.append(env)
    return out


# -------------------------------------------------------------------------------- the check
@dataclass(frozen=True)
class DimMismatch:
    """A claimed dim that disagrees with what ran (axis -1: the rank itself)."""

    value: str
    axis: int
    expected: str
    observed: int
    env: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        where = ", ".join(f"{k}={v}" for k, v in self.env)
        return f"{self.value}[{self.axis}]: claimed '{self.expected}', observed {self.observed} at {where}"


@dataclass
class Report:
    """How the analysis fared against one or more runs.

    ``correct``: dims expressed in input symbols (or static) that evaluate to the observed size.
    ``wrong``: unsound claims. ``excused``: wrong claims at an assignment where a listed guard
    fails. ``unresolved``: dims over fresh or data-dependent symbols (still checked for
    consistency and, for data-dependent symbols, against their range: a violation is wrong).
    ``missing``: observed values the analysis has no shape for. ``unobserved``: analysed values
    the run could not expose. ``failed_guards``: guards false at an assignment that ran.
    """

    correct: int = 0
    unresolved: int = 0
    wrong: list[DimMismatch] = field(default_factory=list[DimMismatch])
    excused: list[DimMismatch] = field(default_factory=list[DimMismatch])
    unresolved_dims: list[tuple[str, int, str]] = field(default_factory=list[tuple[str, int, str]])
    missing: list[str] = field(default_factory=list[str])
    unobserved: list[str] = field(default_factory=list[str])
    failed_guards: list[str] = field(default_factory=list[str])

    @property
    def checked(self) -> int:
        """Dims compared with a run."""
        return self.correct + self.unresolved + len(self.wrong) + len(self.excused)

    def merge(self, other: Report) -> Report:
        """Both reports' findings (counts add up, lists concatenate)."""
        return Report(
            self.correct + other.correct,
            self.unresolved + other.unresolved,
            self.wrong + other.wrong,
            self.excused + other.excused,
            self.unresolved_dims + other.unresolved_dims,
            self.missing + other.missing,
            self.unobserved + other.unobserved,
            self.failed_guards + other.failed_guards,
        )

    def summary(self) -> str:
        """One line of counts, then the first few unsound dims."""
        line = (
            f"{self.checked} dims checked: {self.correct} correct, {len(self.wrong)} wrong, "
            f"{len(self.excused)} excused by failed guards, {self.unresolved} unresolved, "
            f"{len(self.missing)} values missing, {len(self.unobserved)} unobserved"
        )
        return "\n".join([line, *(f"  WRONG {w}" for w in self.wrong[:20])])


def check(analysis: Analysis, observed: Mapping[str, Shape], env: Mapping[str, int]) -> Report:
    """Compare every analysed dim with ``observed`` at the input-symbol assignment ``env``."""
    report = Report()
    key = tuple(sorted(env.items()))
    symbols = analysis.symbols()
    learned = _learn_fresh(analysis, observed, env, report, key)
    full_env = {**env, **learned}
    failed = _failed_guards(analysis, full_env)
    report.failed_guards.extend(failed)
    for name in analysis.value_names():
        dims = analysis.shape(name)
        seen = observed.get(name)
        if dims is None:
            continue
        if seen is None:
            report.unobserved.append(name)
            continue
        if len(dims) != len(seen):
            _wrong(report, DimMismatch(name, -1, f"rank {len(dims)}", len(seen), key), failed)
            continue
        for axis, (d, size) in enumerate(zip(dims, seen, strict=True)):
            _check_dim(report, symbols, full_env, env, (name, axis, d, size, key), failed)
    names = set(analysis.value_names())
    report.missing.extend(v for v in observed if v not in names)
    return report


def _check_dim(
    report: Report,
    symbols: Mapping[str, Mapping[str, Any]],
    full_env: Mapping[str, int],
    env: Mapping[str, int],
    item: tuple[str, int, Dim, int, tuple[tuple[str, int], ...]],
    failed: list[str],
) -> None:
    name, axis, d, size, key = item
    fresh = sorted(s for s in _free(d) if s not in env)
    if fresh:
        report.unresolved += 1
        report.unresolved_dims.append((name, axis, str(d)))
        bad = _out_of_range(d, size, symbols)
        if bad or (all(s in full_env for s in fresh) and _value(d, full_env) != size):
            _wrong(report, DimMismatch(name, axis, str(d) + bad, size, key), failed)
        return
    if _value(d, full_env) == size:
        report.correct += 1
    else:
        _wrong(report, DimMismatch(name, axis, str(d), size, key), failed)


def _value(d: Dim, env: Mapping[str, int]) -> int | None:
    try:
        return evaluate(d, env)
    except ZeroDivisionError:
        return None


def _out_of_range(d: Dim, size: int, symbols: Mapping[str, Mapping[str, Any]]) -> str:
    """For a dim that is one symbol: a note when ``size`` lies outside the symbol's range."""
    if not (isinstance(d, Expr) and len(d.free) == 1 and d is sym(next(iter(d.free)))):
        return ""
    info = symbols.get(next(iter(d.free)))
    if info is None:
        return ""
    lo, hi = info["range"]
    if (lo is not None and size < lo) or (hi is not None and size > hi):
        return f" (outside its range [{lo}, {hi}])"
    return ""


def _wrong(report: Report, mismatch: DimMismatch, failed: list[str]) -> None:
    (report.excused if failed else report.wrong).append(mismatch)


def _learn_fresh(
    analysis: Analysis,
    observed: Mapping[str, Shape],
    env: Mapping[str, int],
    report: Report,
    key: tuple[tuple[str, int], ...],
) -> dict[str, int]:
    """Values of fresh symbols read off dims that are exactly that symbol.

    Two dims claimed to be the same fresh symbol must have the same size: a disagreement is
    recorded as wrong (the analysis claimed them equal).
    """
    learned: dict[str, int] = {}
    for name in analysis.value_names():
        dims, seen = analysis.shape(name), observed.get(name)
        if dims is None or seen is None or len(dims) != len(seen):
            continue
        for axis, (d, size) in enumerate(zip(dims, seen, strict=True)):
            if isinstance(d, Expr) and len(d.free) == 1 and d is sym(next(iter(d.free))):
                s = next(iter(d.free))
                if s in env:
                    continue
                if s in learned and learned[s] != size:
                    report.wrong.append(DimMismatch(name, axis, f"{s} (= {learned[s]} elsewhere)", size, key))
                learned.setdefault(s, size)
    return learned


_REL = re.compile(r"^(.*?)\s(==|>=|!=|<=)\s(.*)$")


def _failed_guards(analysis: Analysis, env: Mapping[str, int]) -> list[str]:
    """The guard conditions that evaluate to false under ``env`` (unknown symbols: skipped)."""
    failed: list[str] = []
    for cond, origin, _reason in analysis.guards():
        m = _REL.match(cond)
        if m is None:
            continue
        lhs, rel, rhs = parse_dim(m.group(1)), m.group(2), parse_dim(m.group(3))
        if (_free(lhs) | _free(rhs)) - env.keys():
            continue
        a, b = _value(lhs, env), _value(rhs, env)
        if a is None or b is None:
            continue
        ok = {"==": a == b, ">=": a >= b, "!=": a != b, "<=": a <= b}[rel]
        if not ok:
            failed.append(f"{cond} ({origin})")
    return failed
