"""Running a subgraph (If branch, Loop or Scan body) inside the analysis of its parent op.

A subgraph that may not run is analyzed on a scratch copy of the constraint graph (`fork_graph`),
whose fresh symbols get names the main graph never uses. `run_subgraph` binds the subgraph's
inputs, applies its ops' rules (outer-scope values stay visible, as the state is shared), reads
its outputs, and removes its local values again. `candidates` turns a subgraph dim into
main-graph expressions; `adopt_guards` copies the assumptions a subgraph made.
`take_branch` runs a branch known to be taken on the main graph; `merge_branches` combines
branches that may each run (one of them does): a dim is kept where all provably agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from symshape.algebra.expr import Dim, Expr
from symshape.engine.constraints import ConstraintGraph, Guard, Origin
from symshape.engine.context import OpContext, Region, State
from symshape.engine.facts import Bound
from symshape.engine.program import Program
from symshape.engine.provenance import SymbolKind
from symshape.errors import ContradictionError
from symshape.rules.shared.piecewise import piecewise

Tensor = tuple[tuple[Dim, ...], tuple[Dim, ...] | None]  # dims and tracked elements
_SCRATCH_IDS = itertools.count()


class _ScratchGraph(ConstraintGraph):
    """A copy of a constraint graph for a subgraph that may not run; its fresh symbols get
    names no main graph uses, so none can be mistaken for a main-graph symbol."""

    def fresh(self, origin: Origin, *, kind: SymbolKind = "derived", lo: Bound = 0, hi: Bound = None) -> Expr:
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
    local: dict[str, Tensor] = field(default_factory=dict[str, Tensor])
    """The dims and elements of the subgraph's own values in this run (on ``graph``)."""
    nested: dict[str, Region] = field(default_factory=dict[str, Region])
    """What the subgraphs of its ops kept (`keep_region`) in this run."""

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
        raise ctx.invalid(
            f"{len(inputs)} values given to subgraph '{tag}'", f"{len(sub.inputs)}, one per subgraph input"
        )
    local = list(sub.inputs) + [n for op in sub.ops for n in op.outputs if n]
    state.graph = graph
    outer_regions, state.regions = state.regions, {}
    try:
        local += _bind_inputs(state, sub, inputs)
        try:
            for op in sub.ops:
                state.run_op(sub, state, replace(op, name=f"{ctx.op.name}/{tag}/{op.name}"))
        except ContradictionError as err:
            if not scratch:
                raise
            return SubResult([None] * len(sub.outputs), graph, [], str(err))  # nothing kept
        outputs: list[Tensor | None] = []
        for name in sub.outputs:
            dims = state.shapes.get(name)
            outputs.append(None if dims is None else (dims, state.elements.get(name)))
        kept = {n: (state.shapes[n], state.elements.get(n)) for n in local if n in state.shapes}
    finally:
        state.graph = main
        nested, state.regions = state.regions, outer_regions
        # a scratch graph's symbols die with it; a data symbol keyed by a value local to this
        # subgraph must not be shared with another subgraph that reuses the value's name
        names = set(local)
        for key in [k for k in state.fresh_memo if k not in memo_keys and (scratch or names.intersection(k))]:
            del state.fresh_memo[key]
        for name in local:
            state.shapes.pop(name, None)
            state.elements.pop(name, None)
    return SubResult(outputs, graph, list(graph.guards[guards_before:]) if scratch else [], local=kept, nested=nested)


def keep_region(ctx: OpContext, res: SubResult) -> None:
    """Keep the dims ``res`` gave the subgraph's values, with the graph they hold on, for the
    passes that rewrite ops inside loop bodies and branches (`State.regions`). Only a run whose
    inputs the op's rule settled on is kept: a loop's last run, a live branch."""
    ctx.state.regions.update(res.nested)
    for name, (dims, els) in res.local.items():
        ctx.state.regions[name] = (dims, els, res.graph)


def _bind_inputs(state: State, sub: Program, inputs: Sequence[Tensor]) -> list[str]:
    """Put the subgraph's inputs and its own initializers in ``state``; the initializers' names."""
    for name, (dims, els) in zip(sub.inputs, inputs, strict=True):
        _put(state.shapes, state.elements, name, dims, els)
    initializers: list[str] = []
    for value in sub.values.values():
        if value.is_initializer and value.type is not None and value.type.dims is not None:
            initializers.append(value.name)
            dims = tuple(d if isinstance(d, int) else 0 for d in value.type.dims)
            _put(state.shapes, state.elements, value.name, dims, value.const)
    return initializers


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
    return isinstance(d, int) or all(ctx.in_scope(s) and s not in excluded for s in d.free)


def candidates(ctx: OpContext, res: SubResult, raw: Dim, excluded: frozenset[str] = frozenset()) -> list[Dim]:
    """Main-graph expressions equal to ``raw`` whenever the subgraph runs."""
    out: list[Dim] = []
    for d in (raw, res.graph.canon(raw)):
        if _allowed(ctx, d, excluded):
            c = ctx.canon(d)
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
        ctx.warn(f"output #{i}: {reason}")
        ctx.declared_output(i, reason, kind="data")


def subgraph_of(ctx: OpContext, name: str) -> Program:
    """The subgraph attribute ``name`` of the op (ModelError when missing)."""
    sub = ctx.op.subgraphs.get(name)
    if sub is None:
        raise ctx.invalid(f"the {name} attribute is required but missing", "a graph")
    return sub


def take_branch(ctx: OpContext, sub: Program, tag: str) -> None:
    """The op's outputs are those of ``sub``, which surely runs: its facts are the program's."""
    res = run_subgraph(ctx, sub, tag, (), scratch=False)
    keep_region(ctx, res)
    for i, out in enumerate(res.outputs):
        if out is None:
            declared_fallback(ctx, i, f"the shape of {tag} output #{i} is unknown")
        else:
            ctx.set_output(i, [ctx.canon(d) for d in out[0]], out[1])


def merge_branches(
    ctx: OpContext, results: Sequence[SubResult], cond: Dim | None = None, why: str = "the branch taken is not known"
) -> None:
    """Outputs of an op running exactly one of several live branches (each ran on a scratch
    graph): a dim all branches provably agree on, else (two branches, the first taken exactly
    when ``cond >= 0``) the piecewise value, else a fresh ``data`` symbol within their bounds;
    the branches' guards are adopted when a kept value rests on them."""
    adopted = False
    for i in range(ctx.num_outputs):
        outs = [r.outputs[i] if i < len(r.outputs) else None for r in results]
        ranks = {len(o[0]) for o in outs if o is not None}
        if any(o is None for o in outs) or len(ranks) != 1:
            declared_fallback(ctx, i, f"the branches' output ranks differ or are unknown; {why}")
            continue
        tensors = [o for o in outs if o is not None]
        dims = [
            merge_dim(ctx, [(r, t[0][axis]) for r, t in zip(results, tensors, strict=True)], f"out{i}_d{axis}", cond)
            for axis in range(ranks.pop())
        ]
        unknown = [str(axis) for axis, (_, exact) in enumerate(dims) if not exact]
        if unknown:
            ctx.warn(f"output #{i} dims {', '.join(unknown)} differ between the branches; {why}")
        els = merge_elements(ctx, [(r, t[1]) for r, t in zip(results, tensors, strict=True)])
        adopted = adopted or els is not None or any(exact for _, exact in dims)
        ctx.set_output(i, [d for d, _ in dims], els)
    if adopted and not all(adopt_guards(ctx, r) for r in results):
        for i in range(ctx.num_outputs):
            declared_fallback(ctx, i, "a branch made an assumption about its own symbols")


def merge_dim(
    ctx: OpContext, parts: Sequence[tuple[SubResult, Dim]], tag: str, cond: Dim | None = None
) -> tuple[Dim, bool]:
    """A main-graph dim equal to each part's dim whenever its subgraph runs (True), else a
    fresh ``data`` symbol bounded by the parts' bounds (False)."""
    common = _common(ctx, parts)
    if common is not None:
        return common, True
    cands = [candidates(ctx, r, d) for r, d in parts]
    if cond is not None and len(parts) == 2 and all(cands):
        return piecewise(ctx, cond, cands[0][0], cands[1][0]), True
    lo: Bound = 0
    hi: Bound = None
    if all(cands):
        bounds = [ctx.facts.bounds(c[0]) for c in cands]
        los = [b[0] for b in bounds if b[0] is not None]
        his = [b[1] for b in bounds if b[1] is not None]
        lo = max(0, min(los)) if len(los) == len(bounds) else 0
        hi = max(his) if len(his) == len(bounds) else None
    return ctx.fresh(tag, kind="data", lo=lo, hi=hi), False


def merge_elements(ctx: OpContext, parts: Sequence[tuple[SubResult, tuple[Dim, ...] | None]]) -> tuple[Dim, ...] | None:
    """Tracked elements all parts provably agree on, else None."""
    vectors = [v for _, v in parts]
    first = vectors[0]
    if first is None or any(v is None or len(v) != len(first) for v in vectors):
        return None
    out: list[Dim] = []
    for k in range(len(first)):
        parts_k = [(r, v[k]) for r, v in parts if v is not None]
        merged = _common(ctx, parts_k)
        if merged is None:
            return None
        out.append(merged)
    return tuple(out)


def _common(ctx: OpContext, parts: Sequence[tuple[SubResult, Dim]]) -> Dim | None:
    """A main-graph expression provably equal to every part's value, if one is found."""
    cands = [candidates(ctx, r, d) for r, d in parts]
    for x in cands[0]:
        if all(any(ctx.prove_eq(x, y) is True for y in c) for c in cands[1:]):
            return x
    return None
