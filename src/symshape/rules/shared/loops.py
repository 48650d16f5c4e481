"""Loop-carried state: run a body until its carried shapes reproduce themselves.

Shared by ONNX's Loop and Scan and by stablehlo/mhlo ``while``: a dim an iteration provably keeps
stays as it is; the others become fresh ``data`` symbols and the body runs again, a small fixpoint.
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.context import GiveUp, OpContext
from symshape.expr import Dim, add, as_symbol, free_symbols, mul
from symshape.program import Program
from symshape.rules.shared.subgraph import SubResult, Tensor, candidates, run_subgraph


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
