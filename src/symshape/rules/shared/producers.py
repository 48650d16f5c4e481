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


def upstream_inputs(ctx: OpContext, name: str) -> list[str]:
    """The integer graph inputs whose values ``name`` is computed from, with no tracked contents
    (what ``--value`` would give), in the program's input order."""
    seen: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        if current in seen or not current:
            continue
        seen.add(current)
        made_by = producer(ctx, current)
        if made_by is not None and made_by.op_type not in ("Shape", "Size"):  # those read sizes, not values
            stack.extend(made_by.inputs)
    inputs = ctx.program.inputs
    return [n for n in inputs if n in seen and ctx.state.elements.get(n) is None and _integer(ctx, n)]


def _integer(ctx: OpContext, name: str) -> bool:
    value = ctx.program.values.get(name)
    dtype = value.type.dtype if value is not None and value.type is not None else ""
    return dtype.startswith(("int", "uint")) or dtype == "bool"
