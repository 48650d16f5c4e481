"""Partial outputs: a known rank whose unknown dims are fresh symbols.

A rule that knows an output's rank and some of its dims (a Split whose sizes are computed, a
Slice whose bounds are) keeps them instead of giving up on the whole output. A dim it cannot
compute takes the output's declared size when the model states one (as the fallback of an op
that gives up does), else a fresh symbol listed as unresolved.
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.engine.result import Unresolved


def set_partial(ctx: OpContext, i: int, dims: Sequence[Dim | None], tag: str, reason: str) -> None:
    """Output ``i`` with ``dims``, each None the declared size or a fresh symbol
    ``{tag}{i}_d{axis}``; ``reason`` says why those are unknown. The op is revisited when its
    inputs sharpen."""
    if i >= ctx.num_outputs or not ctx.op.outputs[i]:
        return
    if all(d is not None for d in dims):
        ctx.set_output(i, [d for d in dims if d is not None])
        return
    ctx.imprecise()
    name = ctx.op.outputs[i]
    value = ctx.program.values.get(name)
    declared = value.type.dims if value is not None and value.type is not None else None
    if declared is not None and len(declared) != len(dims):
        declared = None
    where = f"{ctx.where()}: {reason}"
    cause = ctx.earlier_cause() or ctx.new_cause(reason)
    out: list[Dim] = []
    for axis, d in enumerate(dims):
        if d is not None:
            out.append(d)
            continue
        stated = declared[axis] if declared is not None else None
        if isinstance(stated, int) and stated >= 0:
            out.append(stated)
            continue
        out.append(ctx.fresh(f"{tag}{i}_d{axis}", cause=cause))
        ctx.state.unresolved.append(Unresolved(name, axis, where, cause))
    ctx.set_output(i, out)
