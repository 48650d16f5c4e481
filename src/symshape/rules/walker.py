"""Walk a `Program`, apply the op rules, and return an `Analysis`.

One forward walk applies each op's rule through an `OpContext`. Shapes are stored raw and read
through the constraint graph's canonical form, so a later equality refines earlier shapes for
free. Rules that had to decide something they could not prove mark themselves *imprecise* (they
watch the facts of their inputs' symbols); when a later equality or fact touches those symbols,
those ops run again, and so do the ops downstream whose inputs changed (fresh symbols are
memoized per op and axis, so a second run is stable), up to a small fixed number of passes. Every
other op keeps what its first run recorded (`OpRecord`), so each rule runs once per op unless a
fact it watched changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from symshape.algebra.expr import Dim, free_symbols, product
from symshape.engine.causes import Cause
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.context import GiveUp, OpContext, State
from symshape.engine.facts import SymbolFacts
from symshape.engine.inputs import input_dims
from symshape.engine.program import Op, Program
from symshape.engine.provenance import Guard
from symshape.engine.result import Analysis, Unresolved, Warning_
from symshape.engine.userfacts import Fact, InputValue, apply, as_facts
from symshape.errors import ModelError, SymshapeError, UserFactError, op_kind, where_input, where_option
from symshape.memory import gc_paused
from symshape.rules.registry import lookup

MAX_WALKS = 3

ProgressFn = Callable[[int, int], None]


def input_symbols(program: Program, graph: ConstraintGraph, state: State) -> None:
    """Give each graph input its dims (`input_dims`: ints, declared names or expressions, or
    ``<input>_d<axis>``), their symbols added to ``graph`` as inputs."""
    declared = input_dims(program)
    for name, dims in declared.dims.items():
        if dims is None:
            state.unresolved.append(Unresolved(name, -1, "the input has no declared rank"))
            continue
        for axis, d in enumerate(dims):
            _add_symbols(d, graph, Origin("input", name, f"dim {axis}"))
        state.shapes[name] = dims
        value = program.values[name]
        if value.const is not None:
            state.elements[name] = value.const
    for name, axis, note in declared.notes:
        state.warnings.append(Warning_(name, "input", f"dim {axis}: {note}"))


def input_values(program: Program, state: State, given: Sequence[InputValue]) -> None:
    """The contents of graph inputs the user gave (``--value sr=16000``), tracked from the start;
    UserFactError for an input the program lacks, of a non-integer type or of another size."""
    for fact in given:
        where = where_option("--value", f"{fact.input}={','.join(map(str, fact.values))}")
        value = program.values.get(fact.input)
        if fact.input not in program.inputs or value is None:
            raise UserFactError(where=where, found="the program has no such input",
                                expected=f"one of its inputs: {', '.join(program.inputs) or 'none'}",
                                fix="name a graph input")
        dtype = value.type.dtype if value.type is not None else ""
        if not (dtype.startswith(("int", "uint")) or dtype == "bool"):
            raise UserFactError(where=where, found=f"the input's element type is {dtype or 'unknown'}",
                                expected="an integer or bool input (values decide paths, sizes and indices)",
                                fix="give --value for an integer input")
        dims = state.shapes.get(fact.input)
        count = product(dims) if dims is not None else None
        if not isinstance(count, int) or count != len(fact.values):
            raise UserFactError(where=where, found=f"{len(fact.values)} values for an input of shape {dims}",
                                expected="one value per element of an input of static shape",
                                fix="give every element, in row-major order (a scalar takes one)")
        state.elements[fact.input] = fact.values


def _add_symbols(d: Dim, graph: ConstraintGraph, origin: Origin) -> None:
    """Add ``d``'s symbols to ``graph``; ModelError when the declared label is a negative size."""
    if isinstance(d, int) and d < 0:
        raise ModelError(
            where=where_input(origin.op_name, origin.rule),
            found=f"the declared size '{d}' is negative",
            expected="a size >= 0 or a symbol name",
            fix="fix the input's declared shape",
        )
    for free in sorted(free_symbols(d)):
        graph.add_symbol(free, "input", origin)


def analyze(
    program: Program,
    *,
    facts: Sequence[Fact | str] = (),
    graph: ConstraintGraph | None = None,
    progress: ProgressFn | None = None,
    source: str = "",
) -> Analysis:
    """Analyze ``program`` under user ``facts``: fact values, or strings in ``--assume`` syntax that
    are read here, once (see `symshape.engine.userfacts`)."""
    with gc_paused():
        return _analyze(program, as_facts(facts), graph, progress, source)


def _analyze(
    program: Program,
    facts: Sequence[Fact],
    graph: ConstraintGraph | None,
    progress: ProgressFn | None,
    source: str,
) -> Analysis:
    graph = graph or ConstraintGraph()
    state = State(graph, run_op=run_op)
    input_symbols(program, graph, state)
    for fact in facts:
        apply(graph, fact)
    input_values(program, state, [f for f in facts if isinstance(f, InputValue)])
    _constants(program, state)
    records = _walk(program, state, progress)
    for _ in range(MAX_WALKS - 1):
        rerun = {i for i, record in enumerate(records) if record.watched and record.stale(graph)}
        if not rerun:
            break
        _rewalk(program, state, records, rerun)
    graph.recheck()  # facts set directly by rules may close or cancel residual equations
    result = Analysis(
        program,
        graph,
        state.shapes,
        state.elements,
        state.unresolved,
        state.warnings,
        source,
        causes=state.causes.symbols,
    )
    result.regions = state.regions
    return result


def _constants(program: Program, state: State) -> None:
    """Initializers' dims and small contents (a constant op's are its rule's to set)."""
    for value in program.values.values():
        if value.is_initializer and value.type is not None and value.type.dims is not None:
            state.shapes[value.name] = tuple(d if isinstance(d, int) else 0 for d in value.type.dims)
            if value.const is not None:
                state.elements[value.name] = value.const
            if value.floats is not None:
                state.floats[value.name] = value.floats


@dataclass
class OpRecord:
    """What one run of a top-level op left behind: the facts it watched (as they were when it
    ran), and the guards, unresolved dims and warnings it recorded, so a later pass that skips
    the op can keep them in program order."""

    watched: dict[str, SymbolFacts] = field(default_factory=dict[str, SymbolFacts])
    guards: list[Guard] = field(default_factory=list[Guard])
    unresolved: list[Unresolved] = field(default_factory=list[Unresolved])
    warnings: list[Warning_] = field(default_factory=list[Warning_])

    def stale(self, graph: ConstraintGraph) -> bool:
        """Whether a watched symbol was solved or got new facts since the op ran."""
        return any(graph.binding(n) is not None or graph.facts.get(n) != f for n, f in self.watched.items())


def _run_recorded(program: Program, state: State, op: Op) -> OpRecord:
    """Run ``op`` and record what it watched and added."""
    graph = state.graph
    state.watched = {}
    g0, u0, w0 = len(graph.guards), len(state.unresolved), len(state.warnings)
    run_op(program, state, op)
    return OpRecord(state.watched, graph.guards[g0:], state.unresolved[u0:], state.warnings[w0:])


def _walk(program: Program, state: State, progress: ProgressFn | None) -> list[OpRecord]:
    """The first walk: every op once, in order."""
    total = len(program.ops)
    state.causes.new_walk(program)
    records: list[OpRecord] = []
    for index, op in enumerate(program.ops):
        records.append(_run_recorded(program, state, op))
        if progress is not None and (index % 1000 == 0 or index == total - 1):
            progress(index + 1, total)
    return records


def _rewalk(program: Program, state: State, records: list[OpRecord], rerun: set[int]) -> None:
    """Run the ops in ``rerun`` again, and every op downstream whose inputs they changed; the
    others keep their recorded guards, unresolved dims and warnings, in program order."""
    graph = state.graph
    graph.clear_guards()  # the walk owns guard lifetime: re-recorded below in program order
    state.unresolved = [u for u in state.unresolved if u.value in program.inputs]
    state.warnings = []
    dirty: set[str] = set()
    for index, op in enumerate(program.ops):
        if index in rerun or (dirty and (op.subgraphs or not dirty.isdisjoint(op.inputs))):
            before = [(state.shapes.get(o), state.elements.get(o)) for o in op.outputs]
            for o in op.outputs:
                state.causes.values.pop(o, None)
            records[index] = _run_recorded(program, state, op)
            after = [(state.shapes.get(o), state.elements.get(o)) for o in op.outputs]
            # an output with no tensor shape (a sequence, an optional) lives in a side table:
            # its consumers run again whenever its producer did
            dirty.update(o for o, b, a in zip(op.outputs, before, after, strict=True) if a != b or a[0] is None)
            continue
        record = records[index]
        for g in record.guards:
            graph.guard(g.lhs, g.rel, g.rhs, g.origin, g.reason)
        state.unresolved.extend(record.unresolved)
        state.warnings.extend(record.warnings)


def run_op(program: Program, state: State, op: Op) -> None:
    """Apply the rule of ``op``; without one, fall back to declared types and fresh symbols."""
    ctx = OpContext(state, program, op)
    rule = lookup(op.dialect, op.op_type, op.version)
    if rule is None:
        reason = f"no rule for {op_kind(op.dialect, op.op_type)}"
        _fallback(ctx, reason, ctx.new_cause(reason))
        return
    try:
        rule(ctx)
    except GiveUp as stop:
        _fallback(ctx, stop.reason, ctx.cause_of(stop))
    except SymshapeError:
        raise
    except Exception as err:  # a bug in a rule: name the op for the report, keep the traceback
        if not any(n.startswith(INTERNAL_NOTE) for n in getattr(err, "__notes__", ())):
            err.add_note(f"{INTERNAL_NOTE}{ctx.where()}")
        raise


INTERNAL_NOTE = "symshape: while analyzing "


def _fallback(ctx: OpContext, reason: str, cause: Cause) -> None:
    """Declared output types with fresh symbols for their unknown dims; else unresolved.

    ``cause`` is the root cause the outputs' unknown dims point to: this op, or the earlier op
    that left the input it needed unknown.
    """
    ctx.warn(reason, cause)
    for i in range(ctx.num_outputs):
        ctx.declared_output(i, reason, cause=cause)
