"""Inputs for the oracle: feeds for an assignment of input symbols, and the assignments."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from symshape.algebra.expr import Dim, atoms_deep, evaluate, free_symbols, sym
from symshape.engine.inputs import declared_input_dims, input_symbol_names
from symshape.engine.program import Program
from symshape.engine.provenance import holds
from symshape.errors import where_input, where_symbol
from symshape.tools.verify.run import OracleError, Shape

if TYPE_CHECKING:
    import onnx

    from symshape.engine.result import Analysis

Env = dict[str, int]
_POOL = (2, 3, 5, 7, 11, 13, 6, 10, 14, 9, 15, 4, 17, 8, 12, 16, 19, 18, 20, 22)
_TRIES = 100  # assignments tried per one wanted
_MAX_MODULUS = 4096


def input_dims(program: Program, name: str) -> tuple[Dim, ...]:
    """The declared dims of graph input ``name``, which a feed needs."""
    dims = declared_input_dims(program, name)
    if dims is None:
        raise OracleError(
            where=where_input(name),
            found="it has no declared rank",
            expected="a declared shape, to build a feed for it",
            fix="declare the input's shape in the model",
        )
    return dims


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
        from symshape.frontends.onnx.reader import model_to_program

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


def given_values(analysis: Analysis) -> dict[str, np.ndarray]:
    """The graph inputs whose contents the user gave (``--value sr=16000``), as feeds: a run at
    other values would take another path than the one analyzed."""
    program = analysis.program
    out: dict[str, np.ndarray] = {}
    for name in program.inputs:
        value, els, dims = program.values[name], analysis.elements(name), analysis.shape_or_none(name)
        if value.const is None and els is not None and dims is not None and all(isinstance(e, int) for e in els):
            dtype = np.dtype(value.type.dtype if value.type else "int64")
            out[name] = np.array(els, dtype=dtype).reshape([int(d) for d in dims if isinstance(d, int)])
    return out


def _random_input(rng: np.random.Generator, name: str, dtype: np.dtype, shape: Shape, high: int) -> np.ndarray:
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
    base = sorted({s for name in declared for s in free_symbols(graph.canon(sym(name)))}, key=_order(declared))
    chosen = values or {}
    modulus = _modulus(analysis)
    steps = {s: _candidates(graph.facts.get(s), modulus) for s in base if s not in (values or {})}
    out: list[Env] = []
    spare: list[Env] = []  # admitted, but a derived size repeats another size
    for k in range(n * _TRIES):
        if len(out) == n:
            break
        used: set[int] = set()
        env: Env = {}
        for i, s in enumerate(base):
            if s in chosen:
                options = list(chosen[s])
                env[s] = options[len(out) % len(options)]
            else:
                env[s] = _pick(s, graph.facts.get(s), steps[s], i + k * len(base), used)
            used.add(env[s])
        full = complete(analysis, declared, env)
        derived = [v for name, v in full.items() if name not in env]
        if not admitted(analysis, full):
            continue
        distinct = not set(derived) & (used | {1}) and len(set(derived)) == len(derived)
        (out if distinct else spare).append(full)
    out += spare[: n - len(out)]
    if not out:  # distinct sizes may all fail a requirement two symbols share (their broadcast)
        out += _shared_sizes(analysis, declared, base, steps, chosen, n)
    if edge and out:
        out += _edge_samples(analysis, declared, base, chosen, out[:n])
    return _unique(out)


def _edge_samples(
    analysis: Analysis, declared: list[str], base: list[str], chosen: Mapping[str, Sequence[int]], samples: list[Env]
) -> list[Env]:
    """Each symbol that may be 1 set to 1 (one at a time, then all at once), in the first of
    ``samples`` where the rest is admitted."""
    facts = analysis.graph.facts
    ones = [s for s in base if 1 in chosen.get(s, ()) or (s not in chosen and facts.get(s).admits(1))]
    groups = [{s} for s in ones] + ([set(ones)] if len(ones) > 1 else [])
    out: list[Env] = []
    for group in groups:
        for sample in samples:
            full = complete(analysis, declared, {**_base_env(sample, base), **dict.fromkeys(group, 1)})
            if admitted(analysis, full):
                out.append(full)
                break
    return out


def _shared_sizes(
    analysis: Analysis, declared: list[str], base: list[str], steps: dict[str, list[int]],
    chosen: Mapping[str, Sequence[int]], n: int,
) -> list[Env]:
    """Up to ``n`` admitted assignments that give every free symbol one size (from the first
    symbol's candidates): what sizes must look like when the inputs broadcast together."""
    if not base:
        return []
    out: list[Env] = []
    for v in chosen.get(base[0], steps.get(base[0], [])):
        full = complete(analysis, declared, dict.fromkeys(base, v))
        if all(v in chosen[s] for s in base if s in chosen) and admitted(analysis, full):
            out.append(full)
            if len(out) == n:
                break
    return out


def admitted(analysis: Analysis, env: Env) -> bool:
    """Whether ``env`` satisfies what the analysis knows the inputs must: each symbol's range and
    divisor, each kept predicate (``Mod(a*b, 4) == 0`` from a Reshape, ``a + b <= 64``), each
    unsolved equation and each broadcast, where all their symbols have a value."""
    graph = analysis.graph
    if not all(graph.facts.get(name).admits(v) for name, v in env.items()):
        return False
    for p in graph.predicates:
        lhs, rhs = analysis.public(p.lhs), analysis.public(p.rhs)
        a, b = _known(lhs, env), _known(rhs, env)
        if a is not None and b is not None and not holds(a, p.rel, b):
            return False
    for r in graph.residuals:
        v = _known(analysis.public(r.expr), env)
        if v is not None and v != 0:
            return False
    for b in graph.broadcasts.values():
        a, c = _known(analysis.public(b.lhs), env), _known(analysis.public(b.rhs), env)
        if a is not None and c is not None and not holds(a, "broadcasts", c):
            return False
    return True


def _known(d: Dim, env: Env) -> int | None:
    """``d`` at ``env`` when every symbol of it has a value (None otherwise, or on a zero divisor)."""
    if free_symbols(d) - env.keys():
        return None
    try:
        return evaluate(d, env)
    except ZeroDivisionError:
        return None


def _order(declared: list[str]) -> Callable[[str], tuple[int, str]]:
    return lambda s: (declared.index(s) if s in declared else len(declared), s)


def _pick(name: str, facts: Any, steps: list[int], start: int, used: set[int]) -> int:
    """An unused size of ``steps`` (`_candidates`); ``start`` rotates the choice between assignments."""
    for j in range(len(steps)):
        v = steps[(start + j) % len(steps)]
        if v not in used:
            return v
    raise OracleError(
        where=where_symbol(name),
        found=f"no size fits its facts {facts}",
        expected="a size the facts admit",
        fix="pass values= for this symbol",
    )


def _candidates(facts: Any, modulus: int) -> list[int]:
    """The sizes the facts admit, but 1: the pool of small sizes (multiples of the divisor) first,
    then a window above the lower bound wide enough to hold every residue of ``modulus`` (the
    model's own divisors: ``floor((h + 15)/16) == 2*floor((h + 31)/32)`` holds for some residues
    of 32 only)."""
    pool = [k * facts.divisor for k in (_POOL if facts.divisor == 1 else range(1, 41))]
    lo = max(facts.lo if facts.lo is not None else 0, 2)
    lo += -lo % facts.divisor
    window = range(lo, lo + facts.divisor * max(100, 2 * modulus), facts.divisor)
    return [v for v in dict.fromkeys([*pool, *window]) if v != 1 and facts.admits(v)]


def _modulus(analysis: Analysis) -> int:
    """The least common multiple of the constant divisors in the equations and predicates the
    inputs must meet (capped: a residue search beyond a few thousand sizes is not tried)."""
    graph = analysis.graph
    exprs = [r.expr for r in graph.residuals] + [e for p in graph.predicates for e in (p.lhs, p.rhs)]
    out = 1
    for d in exprs:
        for atom in atoms_deep(analysis.public(d)):
            den = getattr(atom, "den", None)
            if isinstance(den, int) and den > 1 and math.lcm(out, den) <= _MAX_MODULUS:
                out = math.lcm(out, den)
    return out


def _base_env(env: Env, base: list[str]) -> Env:
    return {s: env[s] for s in base}


def complete(analysis: Analysis, declared: list[str], env: Env) -> Env:
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
