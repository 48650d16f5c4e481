"""Why a dim is unknown: the root cause of each fresh symbol the walk had to invent.

A rule that cannot express a result gives up (or makes a fresh symbol). The op where the chain
broke is the *root cause*: every later dim computed from that symbol, and every later op that
gives up because an input is unknown for that reason, points back to the same `Cause`, so the
summary can say "165 dims from 3 causes" in 3 lines. Causes are recorded during the walk
(`CauseLog`, part of `symshape.engine.context.State`) and carried to the `Analysis`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from symshape.algebra.expr import Dim, Expr
from symshape.engine.program import Op, Program

_FLOAT_PREFIXES = ("f", "bf", "complex")  # float32, f32, bfloat16, bf16, complex64


@dataclass(frozen=True)
class Cause:
    """The op where a chain of unknown dims starts, why, and a fact that would resolve it."""

    op_type: str
    op_name: str
    reason: str
    fact: str | None = None

    def where(self) -> str:
        """``Type 'name'`` (``input 'x'`` for a graph input)."""
        return f"{self.op_type} '{self.op_name}'" if self.op_name else self.op_type

    def __str__(self) -> str:
        text = f"{self.where()}: {self.reason}"
        return f"{text}; declare '{self.fact}' to resolve it" if self.fact else text


@dataclass
class CauseLog:
    """Per-walk causes: by fresh symbol and by unknown value.

    ``values`` says why a value's shape or contents are unknown in this walk: set for the
    outputs of an op that fell back to its declared types (or whose rule explained why), and
    memoized for every value a trace passes through. Nothing is recorded for an op that
    succeeds, so the walk pays nothing when all is known; producers are looked up on demand.
    """

    symbols: dict[str, Cause] = field(default_factory=dict[str, Cause])
    values: dict[str, Cause] = field(default_factory=dict[str, Cause])
    top: Program | None = None
    _producers: dict[int, tuple[Program, dict[str, Op]]] = field(
        default_factory=dict[int, tuple[Program, dict[str, Op]]]
    )

    def new_walk(self, program: Program) -> None:
        """A walk of ``program`` starts: why values were unknown in the last one no longer holds."""
        self.values.clear()
        self.top = program

    def producer(self, program: Program, name: str) -> Op | None:
        """The op of ``program`` (or of the walked program) that computes ``name``."""
        for p in (program, self.top):
            if p is not None:
                found = self._producer_map(p).get(name)
                if found is not None:
                    return found
        return None

    def _producer_map(self, program: Program) -> dict[str, Op]:
        entry = self._producers.get(id(program))
        if entry is None or entry[0] is not program:
            entry = self._producers[id(program)] = (program, {o: op for op in program.ops for o in op.outputs if o})
        return entry[1]


@dataclass(frozen=True)
class ValueView:
    """What a trace reads of the walk: shapes, tracked contents, and declared element types."""

    program: Program
    shapes: Mapping[str, tuple[Dim, ...]]
    elements: Mapping[str, tuple[Dim, ...]]
    floats: Mapping[str, tuple[float, ...]]
    dtype: Callable[[str], str | None]
    max_tracked: int

    def is_unknown(self, name: str) -> bool:
        """No shape, or a small tensor (not a float one) whose contents are not tracked."""
        dims = self.shapes.get(name)
        if dims is None:
            return True
        if name in self.elements or name in self.floats:
            return False
        dtype = self.dtype(name)
        if dtype is not None and dtype.startswith(_FLOAT_PREFIXES):
            return False
        size = 1
        for d in dims:
            if not isinstance(d, int):
                return False
            size *= d
        return size <= self.max_tracked

    def unknown_inputs(self, op: Op) -> list[str]:
        """The inputs of ``op`` that are unknown (`is_unknown`), in order."""
        return [name for name in op.inputs if name and self.is_unknown(name)]

    def describe(self, name: str) -> str:
        """``'x' = [h - 1, 2]`` when the contents are tracked, else ``'x'``."""
        els = self.elements.get(name)
        if els is None:
            return f"'{name}'"
        return f"'{name}' = [{', '.join(str(e) for e in els)}]"


def trace(log: CauseLog, view: ValueView, value: str) -> Cause:
    """Why ``value`` is unknown: follow unknown inputs up to the first op whose inputs are known.

    Follows one chain (the first unknown input of each producer), so the cost is its length, and
    memoizes the answer for every value on it.
    """
    path: list[str] = []
    seen = {value}
    name = value
    while True:
        found = log.values.get(name)
        if found is not None:
            break
        op = log.producer(view.program, name)
        if op is None:
            found = _unproduced(view, name)
            break
        unknown = view.unknown_inputs(op)
        if not unknown or unknown[0] in seen:  # all inputs known (or a malformed cycle)
            found = _broken_at(view, op, name)
            break
        path.append(name)
        name = unknown[0]
        seen.add(name)
    for step in path:
        log.values[step] = found
    log.values[name] = found
    return found


def earlier_cause(
    log: CauseLog, view: ValueView, op: Op, canon: Callable[[Dim], Dim], i: int | None = None
) -> Cause | None:
    """The cause behind input ``i`` of ``op`` (None: behind all its unknown inputs, when they share one).

    An input is behind a cause when its shape or small contents are unknown (traced to the op
    where they were lost), or when its tracked contents (or, for input ``i``, its dims) hold a
    fresh symbol with a cause.
    """
    if i is not None:
        names = [op.inputs[i]] if i < len(op.inputs) and op.inputs[i] else []
    else:
        names = view.unknown_inputs(op)
    found = {trace(log, view, n) for n in names if view.is_unknown(n)}
    if not found:
        held = names if i is not None else [n for n in op.inputs if n]
        found = _symbol_causes(log, view, held, canon, with_dims=i is not None)
    return next(iter(found)) if len(found) == 1 else None


def _symbol_causes(
    log: CauseLog, view: ValueView, names: list[str], canon: Callable[[Dim], Dim], *, with_dims: bool
) -> set[Cause]:
    """The causes of the fresh symbols in the tracked contents (and dims) of values ``names``."""
    out: set[Cause] = set()
    for n in names:
        held = [*view.elements.get(n, ()), *(view.shapes.get(n, ()) if with_dims else ())]
        for d in held:
            c = canon(d)
            if isinstance(c, Expr):
                out.update(log.symbols[s] for s in c.free if s in log.symbols)
    return out


def _unproduced(view: ValueView, name: str) -> Cause:
    """A value no op made: a graph input (or one from outside the graph being walked)."""
    if name not in view.shapes:
        return Cause("input", name, "the input has no declared rank")
    return Cause("input", name, "its values are data, not known statically")


def _broken_at(view: ValueView, op: Op, name: str) -> Cause:
    """The op whose inputs are known but whose output ``name`` is not."""
    inputs = ", ".join(view.describe(i) for i in op.inputs if i) or "no inputs"
    if name not in view.shapes:
        return Cause(op.op_type, op.name, f"the shape of '{name}' is not known (from {inputs})")
    return Cause(op.op_type, op.name, f"the values of '{name}' are not tracked: no exact formula from {inputs}")
