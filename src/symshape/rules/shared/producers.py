"""Which op of a program computes a value: an index built once per program and walk.

Rules that read how an input was computed (an If condition that compares sizes, the ``to`` of
the Cast feeding a Range) look it up here instead of scanning the program's ops each time.
"""

from __future__ import annotations

from symshape.engine.context import OpContext
from symshape.engine.program import Op


def producer(ctx: OpContext, name: str) -> Op | None:
    """The op of ``ctx.program`` that outputs value ``name`` (None for inputs and constants)."""
    index = ctx.table(f"producers:{id(ctx.program)}", lambda: _index(ctx))
    return index.get(name)


def _index(ctx: OpContext) -> dict[str, Op]:
    return {out: op for op in ctx.program.ops for out in op.outputs if out}
