"""Walk a `Program`, apply the op rules, and return an `Analysis`.

One forward walk applies each op's rule through an `OpContext`. Shapes are stored raw and read
through the constraint graph's canonical form, so a later equality refines earlier shapes for
free. Rules that had to decide something they could not prove mark themselves *imprecise*; when
a later equality touches their inputs, the walk runs again (fresh symbols are memoized per op and
axis, so a second walk is stable), up to a small fixed number of times.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager

from symshape.causes import Cause
from symshape.constraints import ConstraintGraph, Origin
from symshape.context import GiveUp, OpContext, State
from symshape.errors import ModelError, SymshapeError, where_input
from symshape.expr import Dim, Expr
from symshape.parse import is_identifier, parse_dim
from symshape.program import ConstTensor, Op, Program
from symshape.result import Analysis, Unresolved
from symshape.rules.registry import lookup
from symshape.userfacts import Fact, apply, as_facts

MAX_WALKS = 3

ProgressFn = Callable[[int, int], None]


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
            where=where_input(origin.op_name, origin.rule),
            found=f"the declared size '{label}' is negative",
            expected="a size >= 0 or a symbol name",
            fix="fix the input's declared shape",
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
    facts: Sequence[Fact | str] = (),
    graph: ConstraintGraph | None = None,
    progress: ProgressFn | None = None,
    source: str = "",
) -> Analysis:
    """Analyze ``program`` under user ``facts``: fact values, or strings in ``--assume`` syntax that
    are read here, once (see `symshape.userfacts`)."""
    with gc_paused():
        return _analyze(program, as_facts(facts), graph, progress, source)


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
    return Analysis(
        program,
        graph,
        state.shapes,
        state.elements,
        state.unresolved,
        state.warnings,
        source,
        causes=state.causes.symbols,
    )


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
    state.causes.new_walk(program)
    for index, op in enumerate(program.ops):
        run_op(program, state, op)
        if progress is not None and (index % 1000 == 0 or index == total - 1):
            progress(index + 1, total)


def run_op(program: Program, state: State, op: Op) -> None:
    """Apply the rule of ``op``; without one, fall back to declared types and fresh symbols."""
    ctx = OpContext(state, program, op)
    rule = lookup(op.dialect, op.op_type, op.version)
    if rule is None:
        reason = f"no rule for {ctx.where().split(' (')[0]}"
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
