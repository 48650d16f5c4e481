"""What a rule sees of one op: `OpContext`, the per-walk `State`, and `GiveUp`.

Rules import this module and `symshape.rules.registry`, never the walker (`symshape.rules.walker`):
the walker hands each context the function that runs an op (`State.run_op`), so rules that run
subgraphs or callee bodies (`OpContext.run_ops`) need no import of it. Decisions go through the
context (`canon`, `prove_eq`, `facts`, `assume_range`, ...), so a rule never reaches into the
constraint graph's internals.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from symshape.algebra.expr import Dim, Expr, product
from symshape.engine.causes import Cause, CauseLog, ValueView, earlier_cause
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.facts import Bound, Facts, SymbolFacts
from symshape.engine.program import MAX_TRACKED, Op, Program
from symshape.engine.provenance import Rel, SymbolKind
from symshape.engine.result import Region, Unresolved, Warning_
from symshape.errors import FIX_MODEL, ModelError, where_op

T = TypeVar("T")


class GiveUp(Exception):  # noqa: N818 - control flow, never user-facing
    """Raised by a rule through the context when an input it needs is unknown.

    ``unknown_input`` names the input it needed (so the unknown dims point to that input's own
    cause, not to this op); ``fact`` is a user fact that would let the rule go on.
    """

    def __init__(self, reason: str, *, unknown_input: int | None = None, fact: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.unknown_input = unknown_input
        self.fact = fact


def _no_runner(program: Program, state: State, op: Op) -> None:
    raise RuntimeError("State.run_op is set by the walker (symshape.rules.walker)")


@dataclass
class State:
    """What the walk knows about values: raw shapes and tracked integer elements.

    ``tables`` holds per-walk side tables that a rule family owns (sequence values, say), each
    under the family's own key, so the walker needs no field for them. ``causes`` records why
    each fresh symbol was needed (`symshape.engine.causes`).
    """

    graph: ConstraintGraph
    shapes: dict[str, tuple[Dim, ...]] = field(default_factory=dict[str, tuple[Dim, ...]])
    elements: dict[str, tuple[Dim, ...]] = field(default_factory=dict[str, tuple[Dim, ...]])
    floats: dict[str, tuple[float, ...]] = field(default_factory=dict[str, tuple[float, ...]])
    tables: dict[str, object] = field(default_factory=dict[str, object])
    unresolved: list[Unresolved] = field(default_factory=list[Unresolved])
    warnings: list[Warning_] = field(default_factory=list[Warning_])
    fresh_memo: dict[tuple[str, ...], Expr] = field(default_factory=dict[tuple[str, ...], Expr])
    watched: dict[str, SymbolFacts] = field(default_factory=dict[str, SymbolFacts])
    causes: CauseLog = field(default_factory=CauseLog)
    regions: dict[str, Region] = field(default_factory=dict[str, Region])  # values in loop bodies and branches
    run_op: Callable[[Program, State, Op], None] = _no_runner

    def watch(self, dims: Iterable[Dim]) -> None:
        """Remember the facts of the symbols in ``dims``: if they change, walk again."""
        for d in dims:
            if isinstance(d, Expr):
                for name in d.free:
                    if name not in self.watched:
                        self.watched[name] = self.graph.facts.get(name)


class OpContext:
    """What a rule sees of one op: its inputs' shapes and elements, attributes, and outputs."""

    def __init__(self, state: State, program: Program, op: Op) -> None:
        self.state = state
        self.program = program
        self.op = op
        self.graph = state.graph

    # ------------------------------------------------------------- inputs
    @property
    def num_inputs(self) -> int:
        """Number of input slots (missing optional inputs count)."""
        return len(self.op.inputs)

    def has_input(self, i: int) -> bool:
        """Whether optional input ``i`` is present."""
        return i < len(self.op.inputs) and bool(self.op.inputs[i])

    def input_name(self, i: int) -> str:
        """The name of input ``i`` (ModelError when it is missing)."""
        if not self.has_input(i):
            raise self.invalid(f"the required input #{i} is missing", "the name of a value", "check the model")
        return self.op.inputs[i]

    def shape_or_none(self, i: int) -> tuple[Dim, ...] | None:
        """Canonical dims of input ``i``, or None when its rank is unknown or it is missing."""
        if i >= len(inputs := self.op.inputs) or not inputs[i]:  # `has_input`, inline (asked often)
            return None
        return self._canon_all(self.state.shapes.get(inputs[i]))

    def shape(self, i: int) -> tuple[Dim, ...]:
        """Canonical dims of input ``i``; gives up on the op when unknown."""
        dims = self.shape_or_none(i)
        if dims is None:
            name = self.op.inputs[i] if self.has_input(i) else ""
            raise GiveUp(f"the shape of input #{i} ('{name}') is unknown", unknown_input=i)
        return dims

    def elements(self, i: int) -> tuple[Dim, ...] | None:
        """Canonical tracked elements of integer input ``i`` (flattened), or None."""
        if i >= len(inputs := self.op.inputs) or not inputs[i]:
            return None
        return self._canon_all(self.state.elements.get(inputs[i]))

    def _canon_all(self, raw: tuple[Dim, ...] | None) -> tuple[Dim, ...] | None:
        if raw is None:
            return None
        canon = self.graph.canon
        return tuple([d if d.__class__ is int else canon(d) for d in raw])

    def require_elements(self, i: int) -> tuple[Dim, ...]:
        """Tracked elements of input ``i``; gives up on the op when they are unknown."""
        els = self.elements(i)
        if els is None:
            raise GiveUp(f"the values of input #{i} are not known statically", unknown_input=i)
        return els

    def const_ints(self, i: int) -> tuple[int, ...] | None:
        """Input ``i``'s elements when all are integer constants, else None."""
        els = self.elements(i)
        if els is None:
            return None
        ints = tuple(int(e) for e in els if isinstance(e, int))
        return ints if len(ints) == len(els) else None

    def const_floats(self, i: int) -> tuple[float, ...] | None:
        """Input ``i``'s contents when it is a small constant (float, or integer as floats)."""
        if not self.has_input(i):
            return None
        floats = self.state.floats.get(self.op.inputs[i])
        if floats is not None:
            return floats
        ints = self.const_ints(i)
        return None if ints is None else tuple(float(v) for v in ints)

    def dtype(self, i: int) -> str | None:
        """The element type of input ``i`` when declared."""
        return self._declared_dtype(self.op.inputs[i]) if self.has_input(i) else None

    def attr(self, name: str, default: Any = None) -> Any:
        """Attribute ``name`` or ``default``."""
        return self.op.attrs.get(name, default)

    def numel(self, i: int) -> Dim:
        """The element count of input ``i``."""
        return product(self.shape(i))

    # ------------------------------------------------------------ outputs
    @property
    def num_outputs(self) -> int:
        """Number of output slots."""
        return len(self.op.outputs)

    def set_output(self, i: int, dims: Sequence[Dim], elements: Sequence[Dim] | None = None) -> None:
        """Set output ``i``'s dims (and tracked elements); missing outputs are ignored."""
        if i >= len(self.op.outputs) or not self.op.outputs[i]:
            return
        name = self.op.outputs[i]
        self.state.shapes[name] = tuple(dims)
        if elements is not None and len(elements) <= MAX_TRACKED:
            self.state.elements[name] = tuple(elements)
        else:
            self.state.elements.pop(name, None)

    def set_output_floats(self, i: int, floats: Sequence[float]) -> None:
        """Set output ``i``'s float contents (a small constant: Resize scales, Pad values)."""
        if i < len(self.op.outputs) and self.op.outputs[i]:
            self.state.floats[self.op.outputs[i]] = tuple(floats)

    def output_shape(self, i: int) -> tuple[Dim, ...] | None:
        """The dims a rule has set for output ``i`` (raw), or None."""
        if i >= len(self.op.outputs) or not self.op.outputs[i]:
            return None
        return self.state.shapes.get(self.op.outputs[i])

    def output_dtype(self, i: int) -> str | None:
        """The declared element type of output ``i``, if any."""
        return self._declared_dtype(self.op.outputs[i]) if i < len(self.op.outputs) else None

    def declared_output(self, i: int, reason: str, *, kind: SymbolKind = "derived", cause: Cause | None = None) -> None:
        """Output ``i`` from its declared type: fresh symbols (listed as unresolved) for unknown dims.

        ``cause`` is why (default: this op, for ``reason``); the output's unknown dims and any
        later op that needs them point to it.
        """
        out = self.op.outputs[i] if i < self.num_outputs else ""
        if not out:
            return
        state = self.state
        cause = cause or self.new_cause(reason)
        state.causes.values[out] = cause
        value = self.program.values.get(out)
        declared = value.type.dims if value is not None and value.type is not None else None
        if declared is None:
            state.shapes.pop(out, None)
            state.unresolved.append(Unresolved(out, -1, f"{self.where()}: {reason}", cause))
            return
        dims: list[Dim] = []
        for axis, d in enumerate(declared):
            if isinstance(d, int) and d >= 0:
                dims.append(d)
            else:
                dims.append(self.fresh(f"out{i}_d{axis}", kind=kind, cause=cause))
                state.unresolved.append(Unresolved(out, axis, f"{self.where()}: {reason}", cause))
        self.set_output(i, dims)

    # ------------------------------------------------------------ running
    def run_ops(self, program: Program, ops: Iterable[Op]) -> None:
        """Apply the rules of ``ops`` (a subgraph's or a callee's) on this walk's state."""
        for op in ops:
            self.state.run_op(program, self.state, op)

    def bind(self, name: str, dims: tuple[Dim, ...], elements: tuple[Dim, ...] | None) -> None:
        """Give value ``name`` (a callee's or subgraph's input) its dims and tracked elements."""
        self.state.shapes[name] = dims
        if elements is None:
            self.state.elements.pop(name, None)
        else:
            self.state.elements[name] = elements

    def value(self, name: str) -> tuple[tuple[Dim, ...] | None, tuple[Dim, ...] | None]:
        """The raw dims and tracked elements of value ``name`` (None when unknown)."""
        return self.state.shapes.get(name), self.state.elements.get(name)

    def table(self, key: str, factory: Callable[[], T]) -> T:
        """The per-walk side table ``key`` that one rule family owns (made on first use)."""
        found = self.state.tables.get(key)
        if found is None:
            found = self.state.tables[key] = factory()
        return cast(T, found)

    def warn(self, reason: str, cause: Cause | None = None) -> None:
        """A warning about this op for the report (``cause``: the root cause it gave up for)."""
        self.state.warnings.append(Warning_(self.op.name, self.op.op_type, reason, cause))

    # ---------------------------------------------------------- decisions
    @property
    def facts(self) -> Facts:
        """The decision layer: bounds, ``prove_ge``/``prove_le``, divisors (of canonical dims)."""
        return self.graph.facts

    def canon(self, d: Dim) -> Dim:
        """The canonical form of ``d`` under the current equalities."""
        return d if d.__class__ is int else self.graph.canon(d)

    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """Decide ``a == b`` under the current facts and equations (`ConstraintGraph.prove_eq`)."""
        return self.graph.prove_eq(a, b)

    def prove_ge(self, d: Dim, k: int = 0) -> bool:
        """Whether ``d >= k`` is proven."""
        return self.graph.facts.prove_ge(self.canon(d), k)

    def in_scope(self, symbol: str) -> bool:
        """Whether ``symbol`` belongs to the graph this op is analyzed on."""
        return symbol in self.graph.symbols

    # -------------------------------------------------------- constraints
    def where(self) -> str:
        """The op for messages, one spelling everywhere (`symshape.errors.where_op`)."""
        return where_op(self.op.dialect, self.op.op_type, self.op.name)

    def invalid(self, found: str, expected: str, fix: str = FIX_MODEL) -> ModelError:
        """A ModelError at this op, returned: rules write ``raise ctx.invalid(...)``, a raise pyright sees."""
        return ModelError(where=self.where(), found=found, expected=expected, fix=fix)

    def require_rank(
        self, dims: Sized, rank: int | Container[int], what: str, expected: str, fix: str = FIX_MODEL
    ) -> None:
        """The commonest model check, worded once: ``len(dims)`` is ``rank`` (or in it), else "<what> has rank <n>"."""
        if len(dims) not in ((rank,) if isinstance(rank, int) else rank):
            raise self.invalid(f"{what} has rank {len(dims)}", expected, fix)

    def require_len(self, items: Sized, n: int, found: str, expected: str, fix: str = FIX_MODEL) -> None:
        """``len(items) == n``, else ``invalid``; ``{got}``/``{n}`` templates, so messages are built only on failure."""
        if len(items) != n:
            raise self.invalid(found.format(got=len(items), n=n), expected.format(n=n), fix)

    def origin(self, rule: str = "") -> Origin:
        """Provenance for constraints made by this op."""
        return Origin(self.op.op_type, self.op.name, rule)

    def eq(self, a: Dim, b: Dim, rule: str, what: tuple[str, str] | None = None) -> None:
        """Record the program fact ``a == b`` (one dim, or equal ints: no equation, only the re-check)."""
        if a is b or (a.__class__ is int and b.__class__ is int and a == b):
            return self.graph.recheck()
        self.graph.eq(a, b, self.origin(rule), what)

    def assume_range(self, d: Dim, lo: Bound, hi: Bound, rule: str) -> None:
        """Record the program fact ``lo <= d <= hi`` (``None``: unbounded)."""
        self.graph.assume_range(d, lo, hi, self.origin(rule))

    def assume_divisible(self, d: Dim, k: int, rule: str) -> None:
        """Record the program fact ``k`` divides ``d``."""
        self.graph.assume_divisible(d, k, self.origin(rule))

    def guard(self, lhs: Dim, rel: Rel, rhs: Dim, rule: str, reason: str = "") -> None:
        """Record an assumption (and mark the op as revisitable). A guard the graph refutes means
        the rule took a branch the program never takes: the op gives up instead."""
        if self.graph.decide(lhs, rel, rhs) is False:
            raise GiveUp(f"the guard '{lhs} {rel} {rhs}' ({rule}) can never hold")
        self.imprecise()
        self.graph.guard(lhs, rel, rhs, self.origin(rule), reason)

    def fresh(
        self,
        tag: str,
        *,
        kind: SymbolKind = "derived",
        lo: int | None = 0,
        hi: int | None = None,
        cause: Cause | None = None,
    ) -> Expr:
        """A symbol for something the rules cannot express, stable across walks."""
        return self.memo_fresh((self.op.name, self.op.op_type, tag), tag, kind=kind, lo=lo, hi=hi, cause=cause)

    def memo_fresh(
        self,
        key: tuple[str, ...],
        rule: str,
        *,
        kind: SymbolKind = "derived",
        lo: int | None = 0,
        hi: int | None = None,
        cause: Cause | None = None,
    ) -> Expr:
        """The fresh symbol memoized under ``key`` (shared by every op that uses the same key).

        A ``derived`` symbol (no formula, unlike a data-dependent size) records its root cause:
        ``cause``, else the earlier cause of this op's unknown inputs, else this op.
        """
        s = self.state.fresh_memo.get(key)
        if s is None:
            s = self.graph.fresh(self.origin(rule), kind=kind, lo=lo, hi=hi)
            self.state.fresh_memo[key] = s
        if kind == "derived":
            found = cause or self.earlier_cause() or self.new_cause(f"its rule has no formula for '{rule}'")
            for name in s.free:
                self.state.causes.symbols[name] = found
        return s

    # -------------------------------------------------------------- causes
    def new_cause(self, reason: str, fact: str | None = None) -> Cause:
        """A root cause at this op."""
        return Cause(self.op.op_type, self.op.name, reason, fact)

    def explain_unknown(self, i: int, reason: str, fact: str | None = None) -> None:
        """Say why output ``i``'s values are not tracked (a division whose sign is unknown) and
        which user fact would let the rule track them: dims that later depend on them point here."""
        if i < self.num_outputs and self.op.outputs[i]:
            self.state.causes.values[self.op.outputs[i]] = self.new_cause(reason, fact)

    def cause_of(self, stop: GiveUp) -> Cause:
        """Why this op gave up: the earlier cause of the input it needed, else this op."""
        return self.earlier_cause(stop.unknown_input) or self.new_cause(stop.reason, stop.fact)

    def earlier_cause(self, i: int | None = None) -> Cause | None:
        """The cause behind input ``i`` (None: behind all unknown inputs, when they share one)."""
        state = self.state
        view = ValueView(self.program, state.shapes, state.elements, state.floats, self._declared_dtype, MAX_TRACKED)
        return earlier_cause(state.causes, view, self.op, self.canon, i)

    def _declared_dtype(self, name: str) -> str | None:
        v = self.program.values.get(name)
        return v.type.dtype if v is not None and v.type is not None else None

    def input_symbol(self, name: str, rule: str, *, lo: int | None = 0) -> Expr:
        """The program input symbol ``name`` (a scalar argument's value), declared on first use."""
        return self.graph.add_symbol(name, "input", Origin("input", self.op.name, rule), lo=lo)

    def imprecise(self) -> None:
        """Ask for a revisit if later equalities or facts could sharpen this op's result."""
        for i in range(self.num_inputs):
            self.state.watch(self.shape_or_none(i) or ())
            self.state.watch(self.elements(i) or ())

    def watch(self, dims: Iterable[Dim]) -> None:
        """Walk again if the facts of the symbols in ``dims`` change."""
        self.state.watch(dims)

    def dim_name(self, i: int, axis: int) -> str:
        """``dim 1 of 'x'`` for messages."""
        return f"dim {axis} of '{self.op.inputs[i]}'"
