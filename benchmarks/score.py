"""Score one tool's dims against the execution oracle.

For every observed (value, axis), across all samples:

- **correct**: an int equal to the observed size in every sample, or an expression over the
  names the tool gives the graph inputs' dims that evaluates to the observed size in every
  sample (parsed with ``symshape.algebra.parse.parse_dim``, sympy as a fallback for other syntax);
- **unsound**: a differing int, an expression that evaluates to a different size, a wrong rank,
  or an invented name (``unk__3``, ``_d7``) given to dims of different sizes in one sample;
- **unresolved**: no shape, no dim, or an expression over invented names (consistent, but not a
  function of the inputs).

Counts are kept for all dims, for the dims whose size varies across samples (the interesting
ones), and for data-dependent dims (changed with the data alone), which no tool can express.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from oracle import Observation  # type: ignore[import-not-found]
from symshape.algebra.expr import Expr, evaluate
from symshape.algebra.parse import is_identifier, parse_dim

KINDS = ("correct", "unsound", "unresolved")
_MISSING = object()


@dataclass
class Score:
    """Counts per category and a few examples of each failure."""

    all: Counter[str] = field(default_factory=Counter[str])
    varying: Counter[str] = field(default_factory=Counter[str])
    datadep: Counter[str] = field(default_factory=Counter[str])
    examples: dict[str, list[dict[str, Any]]] = field(default_factory=dict[str, list[dict[str, Any]]])
    by_op: dict[str, Counter[str]] = field(default_factory=dict[str, Counter[str]])

    def to_json(self) -> dict[str, Any]:
        return {"all": dict(self.all), "varying": dict(self.varying), "datadep": dict(self.datadep),
                "examples": self.examples, "by_op": {k: dict(v) for k, v in self.by_op.items()}}


class _Parser:
    """Cached parsing of dim strings: a symshape Dim, a sympy expression, or None."""

    def __init__(self) -> None:
        self.cache: dict[str, Any] = {}

    def __call__(self, text: str) -> Any:
        hit = self.cache.get(text, _MISSING)
        if hit is _MISSING:
            hit = self.cache[text] = self._parse(text)
        return hit

    @staticmethod
    def _parse(text: str) -> Any:
        try:
            return parse_dim(text)
        except Exception:  # noqa: BLE001 - not symshape syntax: try sympy
            pass
        try:
            import sympy

            return sympy.sympify(text)
        except Exception:  # noqa: BLE001 - unparsable: an opaque name
            return None


def _free(parsed: Any, text: str) -> frozenset[str]:
    if parsed is None:
        return frozenset([text])
    if isinstance(parsed, int):
        return frozenset()
    if isinstance(parsed, Expr):
        return parsed.free
    return frozenset(str(s) for s in parsed.free_symbols)


def _value(parsed: Any, env: dict[str, int]) -> int | None:
    try:
        if isinstance(parsed, (int, Expr)):
            return evaluate(parsed, env)
        v = parsed.subs(env)
        return int(v) if v.is_integer else None
    except Exception:  # noqa: BLE001 - division by zero at an edge sample, etc.
        return None


def _env(tool: dict[str, Any], inputs: list[str], observed: dict[str, tuple[int, ...]]) -> dict[str, int]:
    """The tool's own names for the graph inputs' dims, bound to the observed sizes."""
    env: dict[str, int] = {}
    bad: set[str] = set()
    for name in inputs:
        dims, seen = tool.get(name), observed.get(name)
        if not dims or seen is None or len(dims) != len(seen):
            continue
        for d, n in zip(dims, seen, strict=True):
            if isinstance(d, str) and is_identifier(d):
                if env.get(d, n) != n:
                    bad.add(d)
                env[d] = n
    return {k: v for k, v in env.items() if k not in bad}


def _verdict(dim: Any, size: int, env: dict[str, int], parse: _Parser, fresh: dict[str, set[int]]) -> str:
    if dim is None:
        return "unresolved"
    if isinstance(dim, int):
        return "correct" if dim == size else "unsound"
    parsed = parse(dim)
    if _free(parsed, dim) <= env.keys():
        return "correct" if _value(parsed, env) == size else "unsound"
    fresh.setdefault(dim, set()).add(size)
    return "unresolved"


def score(tool: dict[str, Any], inputs: list[str], obs: Observation, producers: dict[str, str]) -> Score:
    """Classify every observed (value, axis) for one tool (see the module docstring)."""
    parse = _Parser()
    verdicts: dict[tuple[str, int], str] = {}
    claims: dict[tuple[str, int], Any] = {}
    for sample in obs.samples:
        env = _env(tool, inputs, sample.shapes)
        fresh: dict[str, set[int]] = {}
        for value in obs.values:
            seen = sample.shapes.get(value)
            if seen is None:
                continue
            dims = tool.get(value)
            for axis, size in enumerate(seen):
                key = (value, axis)
                if dims is None:
                    v, claim = "unresolved", None
                elif len(dims) != len(seen):
                    v, claim = "unsound", f"rank {len(dims)}"
                else:
                    claim = dims[axis]
                    v = _verdict(claim, size, env, parse, fresh)
                claims[key] = claim
                verdicts[key] = _worse(verdicts.get(key), v)
        inconsistent = {d for d, sizes in fresh.items() if len(sizes) > 1}
        for key, claim in claims.items():
            if isinstance(claim, str) and claim in inconsistent:
                verdicts[key] = "unsound"
    return _tally(verdicts, claims, obs, producers)


def _worse(old: str | None, new: str) -> str:
    if old is None:
        return new
    return max(old, new, key=lambda k: {"correct": 0, "unresolved": 1, "unsound": 2}[k])


def _sizes(obs: Observation, key: tuple[str, int]) -> list[int]:
    out = []
    for s in obs.samples:
        sh = s.shapes.get(key[0])
        if sh is not None and key[1] < len(sh):
            out.append(sh[key[1]])
    return out


def _tally(verdicts: dict[tuple[str, int], str], claims: dict[tuple[str, int], Any],
           obs: Observation, producers: dict[str, str]) -> Score:
    sc = Score()
    for key, v in verdicts.items():
        sizes = _sizes(obs, key)
        op = producers.get(key[0], "?")
        if key in obs.data_dependent:
            sc.datadep[v] += 1
            continue
        sc.all[v] += 1
        if len(set(sizes)) > 1:
            sc.varying[v] += 1
        if v != "correct":
            sc.by_op.setdefault(op, Counter())[v] += 1
            ex = sc.examples.setdefault(v, [])
            if len(ex) < 12:
                claim = claims.get(key)
                ex.append({"value": key[0], "axis": key[1], "op": op, "claim": claim,
                           "observed": dict(zip([s.name for s in obs.samples], sizes, strict=False))})
    return sc


def fmt(c: Counter[str]) -> str:
    """``correct/unsound/unresolved`` with the total."""
    return "/".join(str(c.get(k, 0)) for k in KINDS)
