"""The declared dims of a program's inputs, as ints and expressions over input symbols: what the
oracle feeds, the guard nodes read and the torch.export frontend compares against."""

from __future__ import annotations

from symshape.algebra.expr import Dim, Expr, sym
from symshape.algebra.parse import declared_dim
from symshape.engine.program import Program


def declared_input_dims(program: Program, name: str) -> tuple[Dim, ...] | None:
    """The declared dims of graph input ``name`` (None when its rank is not declared); an
    unnamed dynamic dim is its own symbol ``<name>_d<axis>``."""
    value = program.values[name]
    if value.type is None or value.type.dims is None:
        return None
    out: list[Dim] = []
    for axis, d in enumerate(value.type.dims):
        if isinstance(d, int) and d >= 0:
            out.append(d)
        elif isinstance(d, str) and d.strip():
            out.append(declared_dim(d))
        else:
            out.append(sym(f"{name}_d{axis}"))
    return tuple(out)


def input_symbol_names(program: Program) -> list[str]:
    """The symbols the graph inputs declare, in order of first appearance."""
    names: list[str] = []
    for name in program.inputs:
        for d in declared_input_dims(program, name) or ():
            if isinstance(d, Expr):
                names.extend(s for s in sorted(d.free) if s not in names)
    return names
