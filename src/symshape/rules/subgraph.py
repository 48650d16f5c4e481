"""Running a subgraph (If branch, Loop or Scan body) inside the analysis of its parent op.

A subgraph that may not run is analyzed on a scratch copy of the constraint graph (`fork_graph`),
whose fresh symbols get names the main graph never uses. `run_subgraph` binds the subgraph's
inputs, applies its ops' rules (outer-scope values stay visible, as the state is shared), reads
its outputs, and removes its local values again. `candidates` turns a subgraph dim into
main-graph expressions; `adopt_guards` copies the assumptions a subgraph made.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from symshape.analysis import OpContext, declared_output, run_op
from symshape.constraints import ConstraintGraph, Guard, Origin
from symshape.errors import ContradictionError, ModelError
from symshape.expr import Dim, Expr
from symshape.facts import Bound
from symshape.program import Program
from symshape.result import Warning_

Tensor = tuple[tuple[Dim, ...], tuple[Dim, ...] | None]  # dims and tracked elements
_SCRATCH_IDS = itertools.count()


class _ScratchGraph(ConstraintGraph):
    """A copy of a constraint graph for a subgraph that may not run; its fresh symbols get
    names no main graph uses, so none can be mistaken for a main-graph symbol."""

    def fresh(self, origin: Origin, *, kind: str = "derived", lo: Bound = 0, hi: Bound = None) -> Expr:
        return self.add_symbol(f"_sub{next(_SCRATCH_IDS)}", kind, origin, lo=lo, hi=hi)


def fork_graph(graph: ConstraintGraph) -> ConstraintGraph:
    """An independent copy of ``graph`` whose fresh symbols cannot collide with the original's."""
    new = graph.copy()
    new.__class__ = _ScratchGraph
    return new


@dataclass
class SubResult:
    """What one run of a subgraph produced: raw output tensors, the graph it ran on, its guards."""

    outputs: list[Tensor | None]
    graph: ConstraintGraph
    guards: list[Guard]
    dead: str = ""  # why the subgraph cannot run under the main graph's facts, if it cannot

    def same(self, a: Dim, b: Dim) -> bool:
        """Whether ``a == b`` is proven while this subgraph runs."""
        g = self.graph
        return g.facts.prove_eq(g.canon(a), g.canon(b)) is True


def run_subgraph(ctx: OpContext, sub: Program, tag: str, inputs: Sequence[Tensor], *, scratch: bool) -> SubResult:
    """Apply the rules of ``sub`` with its inputs bound to ``inputs`` (outer values visible)."""
    state, main = ctx.state, ctx.state.graph
    graph = fork_graph(main) if scratch else main
    memo_keys = set(state.fresh_memo)
    guards_before = len(graph.guards)
    if len(inputs) != len(sub.inputs):
        raise ModelError(f"{ctx.where()}: subgraph '{tag}' takes {len(sub.inputs)} inputs, {len(inputs)} given")
    local = list(sub.inputs) + [n for op in sub.ops for n in op.outputs if n]
    state.graph = graph
    try:
        for name, (dims, els) in zip(sub.inputs, inputs, strict=True):
            _put(state.shapes, state.elements, name, dims, els)
        for value in sub.values.values():
            if value.is_initializer and value.type is not None and value.type.dims is not None:
                local.append(value.name)
                dims = tuple(d if isinstance(d, int) else 0 for d in value.type.dims)
                _put(state.shapes, state.elements, value.name, dims, value.const)
        try:
            for op in sub.ops:
                run_op(sub, state, replace(op, name=f"{ctx.op.name}/{tag}/{op.name}"))
        except ContradictionError as err:
            if not scratch:
                raise
            return SubResult([None] * len(sub.outputs), graph, [], str(err))
        outputs: list[Tensor | None] = []
        for name in sub.outputs:
            dims = state.shapes.get(name)
            outputs.append(None if dims is None else (dims, state.elements.get(name)))
    finally:
        state.graph = main
        # a scratch graph's symbols die with it; a data symbol keyed by a value local to this
        # subgraph must not be shared with another subgraph that reuses the value's name
        names = set(local)
        for key in [k for k in state.fresh_memo if k not in memo_keys and (scratch or names.intersection(k))]:
            del state.fresh_memo[key]
        for name in local:
            state.shapes.pop(name, None)
            state.elements.pop(name, None)
    return SubResult(outputs, graph, list(graph.guards[guards_before:]) if scratch else [])


def _put(
    shapes: dict[str, tuple[Dim, ...]],
    elements: dict[str, tuple[Dim, ...]],
    name: str,
    dims: tuple[Dim, ...],
    els: tuple[Dim, ...] | None,
) -> None:
    shapes[name] = dims
    if els is None:
        elements.pop(name, None)
    else:
        elements[name] = els


def _allowed(ctx: OpContext, d: Dim, excluded: frozenset[str]) -> bool:
    return isinstance(d, int) or all(s in ctx.graph.symbols and s not in excluded for s in d.free)


def candidates(ctx: OpContext, res: SubResult, raw: Dim, excluded: frozenset[str] = frozenset()) -> list[Dim]:
    """Main-graph expressions equal to ``raw`` whenever the subgraph runs."""
    out: list[Dim] = []
    for d in (raw, res.graph.canon(raw)):
        if _allowed(ctx, d, excluded):
            c = ctx.graph.canon(d)
            if not any(c is e for e in out):
                out.append(c)
    return out


def adopt_guards(ctx: OpContext, res: SubResult, excluded: frozenset[str] = frozenset()) -> bool:
    """Copy the subgraph's guards to the main graph; False when one names a subgraph symbol."""
    usable = [g for g in res.guards if _allowed(ctx, g.lhs, excluded) and _allowed(ctx, g.rhs, excluded)]
    if len(usable) < len(res.guards):
        return False
    for g in usable:
        ctx.graph.guard(g.lhs, g.rel, g.rhs, g.origin, g.reason)
    if usable:
        ctx.imprecise()
    return True


def declared_fallback(ctx: OpContext, i: int, reason: str) -> None:
    """Output ``i`` from its declared type (fresh symbols for unknown dims) with a warning."""
    if i < ctx.num_outputs and ctx.op.outputs[i]:
        ctx.state.warnings.append(Warning_(ctx.op.name, ctx.op.op_type, f"output #{i}: {reason}"))
        declared_output(ctx, i, reason, kind="data")


def subgraph_of(ctx: OpContext, name: str) -> Program:
    """The subgraph attribute ``name`` of the op (ModelError when missing)."""
    sub = ctx.op.subgraphs.get(name)
    if sub is None:
        raise ModelError(f"{ctx.where()}: the '{name}' subgraph attribute is missing")
    return sub
