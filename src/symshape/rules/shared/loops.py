"""Loop-carried state: run a body until its carried shapes reproduce themselves.

Shared by ONNX's Loop and Scan and by stablehlo/mhlo ``while``: a dim an iteration provably keeps
stays as it is; the others become fresh ``data`` symbols and the body runs again, a small fixpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from symshape.algebra.expr import Dim, add, as_symbol, free_symbols, mul
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import Program
from symshape.rules.shared.piecewise import piecewise
from symshape.rules.shared.subgraph import (
    SubResult,
    Tensor,
    adopt_guards,
    candidates,
    declared_fallback,
    run_subgraph,
)


def settle(
    ctx: OpContext, body: Program, fixed: Sequence[Tensor], carried: list[Tensor], loose: int | None = None
) -> tuple[SubResult, list[Tensor], frozenset[str]]:
    """Run ``body`` until its carried inputs (after ``fixed``) reproduce themselves.

    Carried value ``j`` is body output ``j``. A dim or element vector an iteration does not
    provably keep is replaced by a fresh symbol (or dropped) and the body runs again. The
    ``loose`` carried value is compared by its elements only (Loop's condition).
    """
    state = ctx.state
    marks = len(state.warnings), len(state.unresolved)
    fresh: set[str] = set()
    limit = 2 + len(carried) + sum(len(d) for d, _ in carried)
    for _ in range(limit):
        del state.warnings[marks[0] :], state.unresolved[marks[1] :]  # keep one round's warnings
        res = run_subgraph(ctx, body, "body", [*fixed, *carried], scratch=True)
        if res.dead:
            raise GiveUp(f"the body cannot run under the known facts ({res.dead})")
        changed = False
        nxt: list[Tensor] = []
        for j, (dims, els) in enumerate(carried):
            out = res.outputs[j]
            if out is None or (j != loose and len(out[0]) != len(dims)):
                raise GiveUp(f"loop-carried value #{j} changes rank or has an unknown shape in the body")
            new_dims = dims if j == loose else _settle_dims(ctx, res, dims, out[0], f"carried{j}", fresh)
            keep = (
                els is not None
                and out[1] is not None
                and len(els) == len(out[1])
                and all(res.same(x, y) for x, y in zip(els, out[1], strict=True))
            )
            changed = (
                changed
                or (els is not None and not keep)
                or any(a is not b for a, b in zip(dims, new_dims, strict=True))
            )
            nxt.append((new_dims, els if keep else None))
        carried = nxt
        if not changed:
            return res, carried, frozenset(fresh)
    raise GiveUp("the loop-carried shapes did not settle")


def _settle_dims(
    ctx: OpContext, res: SubResult, dims: tuple[Dim, ...], out: tuple[Dim, ...], tag: str, fresh: set[str]
) -> tuple[Dim, ...]:
    new: list[Dim] = []
    for axis, (d_in, d_out) in enumerate(zip(dims, out, strict=True)):
        if res.same(d_in, d_out):
            new.append(d_in)
            continue
        s = ctx.fresh(f"{tag}_d{axis}", kind="data")
        fresh.update(s.free)
        new.append(s)
    return tuple(new)


def scan_output(
    ctx: OpContext, res: SubResult, raw: tuple[Dim, ...], excluded: frozenset[str], tag: str
) -> tuple[list[Dim], bool]:
    """Per-iteration dims of a scan output as main-graph dims (fresh where they cannot be)."""
    dims: list[Dim] = []
    exact = True
    for axis, d in enumerate(raw):
        cands = candidates(ctx, res, d, excluded)
        if cands:
            dims.append(cands[0])
        else:
            exact = False
            dims.append(ctx.fresh(f"{tag}_d{axis}", kind="data"))
    return dims, exact


def growth(
    ctx: OpContext, res: SubResult, final: Sequence[Tensor], excluded: frozenset[str]
) -> dict[tuple[int, int], Dim]:
    """Per-iteration increments of the carried dims that did not settle: ``(j, axis) -> c`` when
    the body maps the dim's fresh symbol ``s`` to ``s + c`` with ``c`` a main-graph expression
    (a body that concatenates ``k`` rows each time), so ``n`` iterations add ``n*c``."""
    out: dict[tuple[int, int], Dim] = {}
    for j, (dims, _) in enumerate(final):
        body_out = res.outputs[j] if j < len(res.outputs) else None
        if body_out is None or len(body_out[0]) != len(dims):
            continue
        for axis, (d, after) in enumerate(zip(dims, body_out[0], strict=True)):
            name = as_symbol(d)
            if name is None or name not in excluded:
                continue
            step = res.graph.canon(add(after, mul(d, -1)))
            if name in free_symbols(step):
                continue
            cands = candidates(ctx, res, step, excluded)
            if cands:
                out[(j, axis)] = cands[0]
    return out


# --------------------------------------------------------------- a fixpoint after one step
@dataclass
class Stepped:
    """A loop settled from the values one iteration produces (see `settle_stepped`)."""

    res: SubResult  # the last run of the body, on the settled carried values
    initial: list[Tensor]  # the carried values given to the loop
    after_one: list[Tensor]  # where the fixpoint started: the values after one iteration
    settled: list[Tensor]  # the fixpoint (fresh symbols where a dim did not settle)
    excluded: frozenset[str]  # those fresh symbols
    first: SubResult | None  # the run on the initial values, when it moved a dim

    def final(self, ctx: OpContext, trips: Dim) -> list[Tensor]:
        """The carried values after ``trips`` iterations: a dim that settled where one iteration
        moved it is that value after one or more, the initial one after none."""
        out: list[Tensor] = []
        for (d0s, _), (d1s, _), (dims, els) in zip(self.initial, self.after_one, self.settled, strict=True):
            kept = [
                d if d1 is d0 or d is not d1 else piecewise(ctx, ctx.canon(add(trips, -1)), d1, d0)
                for d0, d1, d in zip(d0s, d1s, dims, strict=True)
            ]
            out.append((tuple(kept), els))
        return out

    def scan_output(self, ctx: OpContext, i: int, tag: str) -> tuple[list[Dim], bool] | None:
        """Per-iteration dims of body output ``i`` (a scan output) as main-graph dims: the
        settled run's, where the first iteration provably produces the same (else fresh), and
        whether all are; None when unknown."""
        raw = self.res.outputs[i]
        if raw is None:
            return None
        dims, exact = scan_output(ctx, self.res, raw[0], self.excluded, tag)
        if self.first is None:
            return dims, exact
        first = self.first.outputs[i]
        if first is None or len(first[0]) != len(dims):
            return [ctx.fresh(f"{tag}_d{a}", kind="data") for a in range(len(dims))], False
        out: list[Dim] = []
        for a, (d, d1) in enumerate(zip(dims, first[0], strict=True)):
            if any(ctx.prove_eq(d, c) is True for c in candidates(ctx, self.first, d1)):
                out.append(d)
            else:
                out.append(ctx.fresh(f"{tag}_d{a}", kind="data"))
                exact = False
        return out, exact

    def adopt_guards(self, ctx: OpContext) -> bool:
        """Copy the guards of both runs to the main graph; False when one names a symbol of the
        body's own (then the kept dims rest on assumptions the main graph cannot state)."""
        return adopt_guards(ctx, self.res, self.excluded) and (self.first is None or adopt_guards(ctx, self.first))


def settle_stepped(
    ctx: OpContext, body: Program, fixed: Sequence[Tensor], carried: list[Tensor], loose: int | None = None
) -> Stepped:
    """`settle`, started from the carried values after one iteration where the body maps a dim
    to a main-graph expression: a state broadcast against a slice becomes ``Max(s, d)``, which
    the next iteration keeps (``Max(Max(s, d), d) = Max(s, d)``). `Stepped.final` gives the
    values after a number of iterations."""
    first, after_one = _first_step(ctx, body, fixed, carried, loose)
    res, settled, excluded = settle(ctx, body, fixed, after_one, loose)
    return Stepped(res, carried, after_one, settled, excluded, first)


def _first_step(
    ctx: OpContext, body: Program, fixed: Sequence[Tensor], carried: list[Tensor], loose: int | None
) -> tuple[SubResult | None, list[Tensor]]:
    """The carried values after one iteration, where a dim moves to a main-graph expression;
    ``(None, carried)`` when no dim moves that way. The ``loose`` value keeps its dims."""
    if not carried:
        return None, carried
    res = run_subgraph(ctx, body, "body", [*fixed, *carried], scratch=True)
    if res.dead:
        return None, carried
    out: list[Tensor] = []
    changed = False
    for j, (dims, els) in enumerate(carried):
        raw = res.outputs[j]
        if raw is None or (j != loose and len(raw[0]) != len(dims)):
            return None, carried
        new: list[Dim] = []
        for d0, d1 in zip(dims, raw[0] if j != loose else dims, strict=True):
            if res.same(d0, d1):
                new.append(d0)
                continue
            cands = candidates(ctx, res, d1)
            if not cands:  # a dim the first step moves out of reach: `settle` alone decides
                return None, carried
            new.append(cands[0])
            changed = True
        same_els = (
            els is not None
            and raw[1] is not None
            and len(els) == len(raw[1])
            and all(res.same(x, y) for x, y in zip(els, raw[1], strict=True))
        )
        out.append((tuple(new), els if same_els else None))
    return (res, out) if changed else (None, carried)


def rank_only(ctx: OpContext, i: int, keep: Sequence[Dim] = ()) -> None:
    """Output ``i`` with the rank it was given and fresh dims, but for the dims in ``keep``
    (a scan's sequence length, which no guard of the body decides), when the dims it was given
    rest on assumptions the main graph cannot state."""
    dims = ctx.output_shape(i)
    if dims is None:
        declared_fallback(ctx, i, "the body made an assumption about its own symbols")
        return
    ctx.warn(f"output #{i}: the body made an assumption about its own symbols; its rank is kept")
    kept = {id(ctx.canon(d)) for d in keep}
    ctx.set_output(
        i, [d if id(ctx.canon(d)) in kept else ctx.fresh(f"out{i}_d{a}", kind="data") for a, d in enumerate(dims)]
    )
