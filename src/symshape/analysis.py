"""Walk a `Program`, apply the op rules, and return an `Analysis`.

One forward walk applies each op's rule through an `OpContext`. Shapes are stored raw and read
through the constraint graph's canonical form, so a later equality refines earlier shapes for
free. Rules that had to decide something they could not prove mark themselves *imprecise*; when
a later equality touches their inputs, the walk runs again (fresh symbols are memoized per op and
axis, so a second walk is stable), up to a small fixed number of times.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from symshape.constraints import ConstraintGraph, Origin
from symshape.errors import ModelError, SymshapeError
from symshape.expr import Dim, Expr, product
from symshape.facts import SymbolFacts
from symshape.parse import is_identifier, parse_dim
from symshape.program import ConstTensor, Op, Program
from symshape.result import Analysis, Unresolved, Warning_
from symshape.rules import lookup

MAX_WALKS = 3
MAX_TRACKED = 64  # integer tensors up to this many elements have their values tracked

ProgressFn = Callable[[int, int], None]


class GiveUp(Exception):  # noqa: N818 - control flow, never user-facing
    """Raised by a rule through the context when an input it needs is unknown."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class State:
    """What the walk knows about values: raw shapes and tracked integer elements."""

    graph: ConstraintGraph
    shapes: dict[str, tuple[Dim, ...]] = field(default_factory=dict[str, tuple[Dim, ...]])
    elements: dict[str, tuple[Dim, ...]] = field(default_factory=dict[str, tuple[Dim, ...]])
    floats: dict[str, tuple[float, ...]] = field(default_factory=dict[str, tuple[float, ...]])
    sequences: dict[str, object] = field(default_factory=dict[str, object])  # owned by rules.sequences
    unresolved: list[Unresolved] = field(default_factory=list[Unresolved])
    warnings: list[Warning_] = field(default_factory=list[Warning_])
    fresh_memo: dict[tuple[str, ...], Expr] = field(default_factory=dict[tuple[str, ...], Expr])
    watched: dict[str, SymbolFacts] = field(default_factory=dict[str, SymbolFacts])

    def watch(self, dims: Iterable[Dim]) -> None:
        """Remember the facts of the symbols in ``dims``: if they change, walk again."""
        for d in dims:
            if isinstance(d, Expr):
                for name in d.free:
                    if name not in self.watched:
                        self.watched[name] = self.graph.facts.get(name)

    def needs_another_walk(self) -> bool:
        """Whether a watched symbol was solved or got new facts since it was watched."""
        graph = self.graph
        return any(graph.binding(n) is not None or graph.facts.get(n) != f for n, f in self.watched.items())


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
            raise ModelError(f"{self.where()}: required input #{i} is missing; check the model")
        return self.op.inputs[i]

    def shape_or_none(self, i: int) -> tuple[Dim, ...] | None:
        """Canonical dims of input ``i``, or None when its rank is unknown or it is missing."""
        if not self.has_input(i):
            return None
        raw = self.state.shapes.get(self.op.inputs[i])
        if raw is None:
            return None
        canon = self.graph.canon
        return tuple([d if d.__class__ is int else canon(d) for d in raw])

    def shape(self, i: int) -> tuple[Dim, ...]:
        """Canonical dims of input ``i``; gives up on the op when unknown."""
        dims = self.shape_or_none(i)
        if dims is None:
            raise GiveUp(f"the shape of input #{i} ('{self.op.inputs[i] if self.has_input(i) else ''}') is unknown")
        return dims

    def elements(self, i: int) -> tuple[Dim, ...] | None:
        """Canonical tracked elements of integer input ``i`` (flattened), or None."""
        if not self.has_input(i):
            return None
        raw = self.state.elements.get(self.op.inputs[i])
        if raw is None:
            return None
        canon = self.graph.canon
        return tuple([d if d.__class__ is int else canon(d) for d in raw])

    def require_elements(self, i: int) -> tuple[Dim, ...]:
        """Tracked elements of input ``i``; gives up on the op when they are unknown."""
        els = self.elements(i)
        if els is None:
            raise GiveUp(f"the values of input #{i} are not known statically")
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
        if not self.has_input(i):
            return None
        v = self.program.values.get(self.op.inputs[i])
        return v.type.dtype if v is not None and v.type is not None else None

    def attr(self, name: str, default: Any = None) -> Any:
        """Attribute ``name`` or ``default``."""
        return self.op.attrs.get(name, default)

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

    def output_dtype(self, i: int) -> str | None:
        """The declared element type of output ``i``, if any."""
        if i >= len(self.op.outputs):
            return None
        v = self.program.values.get(self.op.outputs[i])
        return v.type.dtype if v is not None and v.type is not None else None

    # -------------------------------------------------------- constraints
    def where(self) -> str:
        """``Type 'name'`` for messages."""
        domain = f"{self.op.dialect}::" if self.op.dialect else ""
        return f"{domain}{self.op.op_type} (node '{self.op.name}')"

    def origin(self, rule: str = "") -> Origin:
        """Provenance for constraints made by this op."""
        return Origin(self.op.op_type, self.op.name, rule)

    def eq(self, a: Dim, b: Dim, rule: str, what: tuple[str, str] | None = None) -> None:
        """Record the program fact ``a == b``."""
        self.graph.eq(a, b, self.origin(rule), what)

    def guard(self, lhs: Dim, rel: str, rhs: Dim, rule: str, reason: str = "") -> None:
        """Record an assumption (and mark the op as revisitable)."""
        self.imprecise()
        self.graph.guard(lhs, rel, rhs, self.origin(rule), reason)

    def fresh(self, tag: str, *, kind: str = "derived", lo: int | None = 0, hi: int | None = None) -> Expr:
        """A symbol for something the rules cannot express, stable across walks."""
        key = (self.op.name, self.op.op_type, tag)
        s = self.state.fresh_memo.get(key)
        if s is None:
            s = self.graph.fresh(self.origin(tag), kind=kind, lo=lo, hi=hi)
            self.state.fresh_memo[key] = s
        return s

    def prove_eq(self, a: Dim, b: Dim) -> bool | None:
        """Decide ``a == b`` under the current facts."""
        return self.graph.facts.prove_eq(self.graph.canon(a), self.graph.canon(b))

    def imprecise(self) -> None:
        """Ask for a revisit if later equalities or facts could sharpen this op's result."""
        for i in range(self.num_inputs):
            self.state.watch(self.shape_or_none(i) or ())
            self.state.watch(self.elements(i) or ())

    def numel(self, i: int) -> Dim:
        """The element count of input ``i``."""
        return product(self.shape(i))

    def dim_name(self, i: int, axis: int) -> str:
        """``dim 1 of 'x'`` for messages."""
        return f"dim {axis} of '{self.op.inputs[i]}'"


def input_symbols(program: Program, graph: ConstraintGraph, state: State) -> None:
    """Give each graph input its dims: ints, declared names (or expressions), or ``<input>_d<axis>``."""
    for name in program.inputs:
        value = program.values[name]
        if value.type is None or value.type.dims is None:
            state.unresolved.append(Unresolved(name, -1, "the input has no declared rank"))
            continue
        dims: list[Dim] = []
        for axis, d in enumerate(value.type.dims):
            origin = Origin("input", name, f"dim {axis}")
            if isinstance(d, int) and d >= 0:
                dims.append(d)
                continue
            label = d if isinstance(d, str) and d.strip() else f"{name}_d{axis}"
            dims.append(_declared_dim(label, graph, origin))
        state.shapes[name] = tuple(dims)
        if value.const is not None:
            state.elements[name] = value.const


def _declared_dim(label: str, graph: ConstraintGraph, origin: Origin) -> Dim:
    if is_identifier(label):
        return graph.add_symbol(label, "input", origin)
    try:
        parsed = parse_dim(label)
    except Exception:  # noqa: BLE001 - any unparsable label becomes an opaque symbol
        parsed = None
    if isinstance(parsed, int) and parsed < 0:
        raise ModelError(
            f"input '{origin.op_name}' ({origin.rule}) declares the size '{label}', which is negative; "
            "declare a non-negative size or a symbol name"
        )
    if parsed is not None:
        if isinstance(parsed, Expr):
            for free in sorted(parsed.free):
                graph.add_symbol(free, "input", origin)
        return parsed
    safe = "".join(c if c.isalnum() or c == "_" else "_" for c in label)
    if not safe or safe[0].isdigit():
        safe = f"d_{safe}"
    return graph.add_symbol(safe, "input", origin)


def analyze(
    program: Program,
    *,
    facts: Sequence[str] = (),
    graph: ConstraintGraph | None = None,
    progress: ProgressFn | None = None,
    source: str = "",
) -> Analysis:
    """Analyze ``program`` under user ``facts`` (``--assume`` syntax, see `symshape.userfacts`)."""
    with gc_paused():
        return _analyze(program, facts, graph, progress, source)


@contextmanager
def gc_paused() -> Generator[None, None, None]:
    """Pause the cyclic garbage collector: the walk allocates many long-lived small objects and
    the collector's passes over them cost a quarter of the time on large models."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _analyze(
    program: Program,
    facts: Sequence[str],
    graph: ConstraintGraph | None,
    progress: ProgressFn | None,
    source: str,
) -> Analysis:
    from symshape.userfacts import apply_fact

    graph = graph or ConstraintGraph()
    state = State(graph)
    input_symbols(program, graph, state)
    for text in facts:
        apply_fact(graph, text)
    _constants(program, state)
    for _ in range(MAX_WALKS):
        state.watched.clear()
        _walk(program, state, progress)
        if not state.needs_another_walk():
            break
        state.unresolved = [u for u in state.unresolved if u.value in program.inputs]
        state.warnings = []
        graph.clear_guards()  # the walk owns guard lifetime
    graph.recheck()  # facts set directly by rules may close or cancel residual equations
    return Analysis(program, graph, state.shapes, state.elements, state.unresolved, state.warnings, source)


def _constants(program: Program, state: State) -> None:
    """Initializers' dims and small contents; the float contents of Constant ops (scales)."""
    for value in program.values.values():
        if value.is_initializer and value.type is not None and value.type.dims is not None:
            state.shapes[value.name] = tuple(d if isinstance(d, int) else 0 for d in value.type.dims)
            if value.const is not None:
                state.elements[value.name] = value.const
            if value.floats is not None:
                state.floats[value.name] = value.floats
    for op in program.ops:
        if op.op_type == "Constant" and op.outputs:
            tensor = op.attrs.get("value")
            if isinstance(tensor, ConstTensor) and tensor.floats is not None:
                state.floats[op.outputs[0]] = tensor.floats
            elif "value_floats" in op.attrs:
                state.floats[op.outputs[0]] = tuple(op.attrs["value_floats"])
            elif "value_float" in op.attrs:
                state.floats[op.outputs[0]] = (op.attrs["value_float"],)


def _walk(program: Program, state: State, progress: ProgressFn | None) -> None:
    total = len(program.ops)
    for index, op in enumerate(program.ops):
        run_op(program, state, op)
        if progress is not None and (index % 1000 == 0 or index == total - 1):
            progress(index + 1, total)


def run_op(program: Program, state: State, op: Op) -> None:
    """Apply the rule of ``op``; without one, fall back to declared types and fresh symbols."""
    ctx = OpContext(state, program, op)
    rule = lookup(op.dialect, op.op_type, op.version)
    if rule is None:
        _fallback(ctx, f"no rule for {ctx.where().split(' (')[0]}")
        return
    try:
        rule(ctx)
    except GiveUp as stop:
        _fallback(ctx, stop.reason)
    except SymshapeError:
        raise
    except Exception as err:  # a bug in a rule: name the op for the report, keep the traceback
        if not any(n.startswith(INTERNAL_NOTE) for n in getattr(err, "__notes__", ())):
            err.add_note(f"{INTERNAL_NOTE}{ctx.where()}")
        raise


INTERNAL_NOTE = "symshape: while analyzing "


def _fallback(ctx: OpContext, reason: str) -> None:
    """Declared output types with fresh symbols for their unknown dims; else unresolved."""
    ctx.state.warnings.append(Warning_(ctx.op.name, ctx.op.op_type, reason))
    for i in range(ctx.num_outputs):
        declared_output(ctx, i, reason)


def declared_output(ctx: OpContext, i: int, reason: str, *, kind: str = "derived") -> None:
    """Output ``i`` from its declared type: fresh symbols (listed as unresolved) for unknown dims."""
    out = ctx.op.outputs[i] if i < ctx.num_outputs else ""
    if not out:
        return
    state = ctx.state
    value = ctx.program.values.get(out)
    declared = value.type.dims if value is not None and value.type is not None else None
    if declared is None:
        state.shapes.pop(out, None)
        state.unresolved.append(Unresolved(out, -1, f"{ctx.where()}: {reason}"))
        return
    dims: list[Dim] = []
    for axis, d in enumerate(declared):
        if isinstance(d, int) and d >= 0:
            dims.append(d)
        else:
            dims.append(ctx.fresh(f"out{i}_d{axis}", kind=kind))
            state.unresolved.append(Unresolved(out, axis, f"{ctx.where()}: {reason}"))
    ctx.set_output(i, dims)
