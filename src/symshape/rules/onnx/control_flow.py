"""Control flow: If, Loop and Scan, analyzed through their subgraphs.

A subgraph that may not run (a branch whose condition is not known, a loop body) is analyzed on
a scratch copy of the constraint graph (see `symshape.rules.shared.subgraph`): the facts its ops imply
hold only when it runs, so they never reach the main graph. Its results come back only as
expressions over symbols the main graph knows; for If, an output dim is kept when both branches
provably agree, else it is the piecewise value when the condition compares sizes
(`symshape.rules.shared.piecewise`: ``Min(a, 5)`` for ``x[:5] if a > 5 else x``), else a fresh
``data`` symbol (never a silent merge). Loop-carried and Scan state dims that an iteration
provably keeps stay as they are; the others become fresh symbols and the body runs again, a small
fixpoint. A Loop-carried dim the body maps from ``s`` to ``s + c`` ends at ``start + trips*c``.
A Scan state the body broadcasts against a slice starts the fixpoint from its value after one
step (``Max(s, d)``, which later steps keep), and ends as that value after one or more steps.
When the body's guards name its own symbols, the outputs keep their ranks (and a scan output
its sequence length), with fresh dims.
"""

from __future__ import annotations

from dataclasses import replace

from symshape.algebra.expr import Dim, add, mul, smax
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import Program
from symshape.errors import ContradictionError
from symshape.rules.onnx.data_dependent import record_le
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import normalize_axis
from symshape.rules.shared.loops import growth, rank_only, settle_stepped
from symshape.rules.shared.piecewise import condition, equality
from symshape.rules.shared.producers import upstream_inputs
from symshape.rules.shared.subgraph import (
    Tensor,
    declared_fallback,
    merge_branches,
    run_subgraph,
    subgraph_of,
    take_branch,
)


# ------------------------------------------------------------------------------------------ If
@register(ONNX, "If")
def if_op(ctx: OpContext) -> None:
    """The outputs of the branch taken; with an unknown condition, each dim both branches
    provably agree on, else a fresh symbol bounded by the branches' bounds.

    https://onnx.ai/onnx/operators/onnx__If.html
    """
    branches = (subgraph_of(ctx, "then_branch"), subgraph_of(ctx, "else_branch"))
    for sub in branches:
        ctx.require_len(
            sub.outputs,
            ctx.num_outputs,
            "a branch has {got} outputs, the node {n}",
            "branches with one output per node output",
        )
    taken = _proven_condition(ctx)
    if taken is not None:
        take_branch(ctx, branches[0 if taken else 1], "then_branch" if taken else "else_branch")
        return
    then_res, else_res = (
        run_subgraph(ctx, sub, tag, (), scratch=True)
        for sub, tag in zip(branches, ("then_branch", "else_branch"), strict=True)
    )
    if then_res.dead and else_res.dead:
        raise ContradictionError(
            where=ctx.where(),
            found=f"neither branch can run: {then_res.dead}; {else_res.dead}",
            expected="at least one branch that can run",
            fix="check the ops each branch's contradiction names",
        )
    if then_res.dead or else_res.dead:  # the dead branch is never taken: the live one always is
        take_branch(ctx, branches[1 if then_res.dead else 0], "else_branch" if then_res.dead else "then_branch")
        return
    cond = condition(ctx, ctx.op.inputs[0] if ctx.num_inputs else "")
    merge_branches(ctx, [then_res, else_res], cond, f"the branch taken is not known: {_what_decides(ctx, cond)}")


def _proven_condition(ctx: OpContext) -> bool | None:
    """The condition's value when it is a tracked constant, or a comparison (``a > 5``) or
    equality of sizes (``Shape(x)[1] == 1``) the facts decide."""
    known = ctx.const_ints(0)
    if known is not None and len(known) == 1:
        return bool(known[0])
    name = ctx.op.inputs[0] if ctx.num_inputs else ""
    p = condition(ctx, name)
    if p is not None:
        return True if ctx.prove_ge(p, 0) else False if ctx.prove_ge(mul(p, -1), 1) else None
    d = equality(ctx, name)
    if d is not None:
        if ctx.prove_eq(d, 0) is True:
            return True
        if ctx.prove_ge(d, 1) or ctx.prove_ge(mul(d, -1), 1):
            return False
    return None


def _what_decides(ctx: OpContext, cond: Dim | None) -> str:
    """The fact that would settle the branch: a relation of sizes, or the value of an input."""
    name = ctx.op.inputs[0] if ctx.num_inputs else ""
    d = None if cond is not None else equality(ctx, name)
    if cond is not None or d is not None:
        text = f"{cond} >= 0" if cond is not None else f"{d} == 0"
        return f"the condition '{text}' decides (state it or its negation with --assume or --dim)"
    inputs = upstream_inputs(ctx, name)
    if inputs:
        values = " ".join(f"--value {n}=..." for n in inputs)
        return f"the values of {', '.join(repr(n) for n in inputs)} decide (give them: {values})"
    return f"the condition '{name}' is computed from data"


@register(ONNX, "Loop")
def loop(ctx: OpContext) -> None:
    """Final carried values keep the dims an iteration provably keeps (others: fresh symbols).

    Scan outputs get a leading dim: the trip count when it is known (tracked ``M`` and a
    condition that stays true), else a fresh symbol ``<= M``. The condition is settled like a
    carried value, by its elements only.
    https://onnx.ai/onnx/operators/onnx__Loop.html
    """
    body = subgraph_of(ctx, "body")
    n_carried = ctx.num_inputs - 2
    if len(body.outputs) < 1 + n_carried or len(body.inputs) != 2 + n_carried:
        raise ctx.invalid(
            f"the body has {len(body.inputs)} inputs and {len(body.outputs)} outputs",
            f"{2 + n_carried} inputs and at least {1 + n_carried} outputs for {n_carried} carried values",
        )
    carried: list[Tensor] = [(ctx.shape(2 + j), ctx.elements(2 + j)) for j in range(n_carried)]
    cond: Tensor = (_declared_dims(body, 1), (1,) if not ctx.has_input(1) else ctx.elements(1))
    fixed: list[Tensor] = [(_declared_dims(body, 0), None)]
    run = settle_stepped(ctx, body, fixed, [cond, *carried], loose=0)
    cond_els = run.settled[0][1]
    cond_true = cond_els is not None and all(isinstance(e, int) and e for e in cond_els)
    trips = _trip_count(ctx, cond_true)
    steps = growth(ctx, run.res, run.settled, run.excluded)
    for j, (dims, els) in enumerate(run.final(ctx, trips)[1:]):
        start = carried[j][0]
        grown = [_grown(ctx, start[a], d, steps.get((j + 1, a)), trips) for a, d in enumerate(dims)]
        ctx.set_output(j, grown, els)
    n_scans = len(body.outputs) - 1 - n_carried
    if n_scans and not ctx.facts.prove_ge(ctx.canon(trips), 1):
        ctx.guard(
            trips,
            ">=",
            1,
            "loop scan outputs",
            "with zero iterations the scan outputs' shape is unspecified (onnxruntime gives [0])",
        )
    adopted = False
    for k in range(n_scans):
        i = n_carried + k
        scanned = run.scan_output(ctx, 1 + i, f"scan{k}")
        if scanned is None:
            declared_fallback(ctx, i, f"the shape of body scan output #{k} is unknown")
            continue
        dims, exact = scanned
        adopted = adopted or exact
        ctx.set_output(i, [trips, *dims])
    if (adopted or n_carried) and not run.adopt_guards(ctx):
        # kept carried dims, exact scan dims (and the trip count, through the condition) rest
        # on the body's guards: keep the ranks only
        for i in range(ctx.num_outputs):
            rank_only(ctx, i)


def _grown(ctx: OpContext, start: Dim, final: Dim, step: Dim | None, trips: Dim) -> Dim:
    """A carried dim after ``trips`` iterations that each add ``step``: ``start + trips*step``."""
    if step is None or final is start:
        return final
    return ctx.canon(add(start, mul(trips, step)))


def _declared_dims(body: Program, i: int) -> tuple[Dim, ...]:
    """The static dims declared for body input ``i`` (a scalar when not declared static)."""
    value = body.values.get(body.inputs[i]) if i < len(body.inputs) else None
    dims = value.type.dims if value is not None and value.type is not None else None
    static = tuple(int(d) for d in dims if isinstance(d, int)) if dims is not None else ()
    return static if dims is not None and len(static) == len(dims) else ()


def _trip_count(ctx: OpContext, cond_true: bool) -> Dim:
    m = ctx.elements(0) if ctx.has_input(0) else None
    limit = m[0] if m is not None and len(m) == 1 else None
    if cond_true and limit is not None:
        return limit if ctx.facts.prove_ge(limit, 0) else ctx.canon(smax(limit, 0))
    trips = ctx.fresh("trip_count", kind="data")
    if limit is not None and (isinstance(limit, int) or ctx.facts.prove_ge(limit, 0)):
        record_le(ctx, trips, limit, "trip count <= M")
    return trips


def _scan_slices(ctx: OpContext, n: int, m: int) -> tuple[list[Tensor], Dim]:
    """One iteration's slice of each of the ``m`` scan inputs (after ``n`` states), and the
    sequence length they share (equal across scan inputs: a fact)."""
    in_axes = list(ctx.attr("scan_input_axes", [0] * m))
    slices: list[Tensor] = []
    length: Dim | None = None
    for k in range(m):
        dims = ctx.shape(n + k)
        axis = normalize_axis(ctx, in_axes[k], len(dims), what="scan_input_axes entry")
        if length is None:
            length = dims[axis]
        else:
            ctx.eq(dims[axis], length, "scan lengths", (ctx.dim_name(n + k, axis), ctx.dim_name(n, in_axes[0])))
        slices.append((dims[:axis] + dims[axis + 1 :], None))
    assert length is not None
    return slices, length


@register(ONNX, "Scan")
def scan(ctx: OpContext) -> None:
    """Final states keep the dims an iteration provably keeps; scan outputs stack the body's
    per-iteration outputs along ``scan_output_axes`` (the sequence length, equal across scan
    inputs: a fact).

    https://onnx.ai/onnx/operators/onnx__Scan.html
    """
    if 0 < ctx.op.version < 9:
        raise GiveUp("Scan before opset 9 (batched, with sequence_lens) is not supported")
    body = subgraph_of(ctx, "body")
    m = int(ctx.attr("num_scan_inputs", 0))
    n = ctx.num_inputs - m
    if m < 1 or n < 0:
        raise ctx.invalid(
            f"num_scan_inputs {m} does not fit {ctx.num_inputs} inputs",
            f"1 <= num_scan_inputs <= {ctx.num_inputs}",
            "fix the num_scan_inputs attribute",
        )
    if len(body.inputs) != n + m or len(body.outputs) != ctx.num_outputs:
        raise ctx.invalid(
            f"the body has {len(body.inputs)} inputs and {len(body.outputs)} outputs",
            f"{n + m} inputs ({n} states + {m} scan inputs) and {ctx.num_outputs} outputs, as the node has",
        )
    states: list[Tensor] = [(ctx.shape(j), ctx.elements(j)) for j in range(n)]
    slices, length = _scan_slices(ctx, n, m)
    reordered = replace(body, inputs=body.inputs[n:] + body.inputs[:n])  # settle sees the slices first
    run = settle_stepped(ctx, reordered, slices, states)
    for j, (dims, els) in enumerate(run.final(ctx, length)):
        ctx.set_output(j, dims, els)
    k_out = ctx.num_outputs - n
    out_axes = list(ctx.attr("scan_output_axes", [0] * k_out))
    for k in range(k_out):
        scanned = run.scan_output(ctx, n + k, f"scan{k}")
        if scanned is None:
            declared_fallback(ctx, n + k, f"the shape of body scan output #{k} is unknown")
            continue
        dims = scanned[0]
        axis = normalize_axis(ctx, out_axes[k], len(dims), extra=1, what="scan_output_axes entry")
        dims.insert(axis, ctx.canon(length))
        ctx.set_output(n + k, dims)
    if ctx.num_outputs and not run.adopt_guards(ctx):
        # final states and scan outputs both rest on the body's guards: keep the ranks only
        # (and the scan axis, the sequence length, which no guard of the body decides)
        for i in range(ctx.num_outputs):
            rank_only(ctx, i, (length,) if i >= n else ())
