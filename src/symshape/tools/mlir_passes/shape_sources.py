"""``shape-sources``: seed 001's symbolic shape sources table, one per function.

For each value an op of a function defines, the table lists the function-argument dims its
dynamic dims are computed from (`symshape.engine.result.Analysis.sources`). The module is left
unchanged; the table is printed as MLIR comment lines *before* the module, in the same output
(``symshape opt -o FILE`` writes both), so the whole output still parses::

    // ============= symbolic expr sources table for @several_ops =============
    // original value: %0 = "mhlo.dot_general"...
    // symbolic shape: [arg0_d0, 4]
    // symbolic shape sources:
    // <block argument> of type 'tensor<?x4xf32>' at index: 0, dim: 0

The seed's lines, plus ``symbolic shape`` and the argument's ``dim``. A function inlined into
its caller (jax's ``_wrapped_jax_export_main``) gets its own table whose sources are the
caller's arguments, named ``<block argument> of @main ...``. ``--assume`` facts apply.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.frontends.mlir.attributes import op_full_name
from symshape.frontends.mlir.frontend import facts_for
from symshape.frontends.mlir.program_builder import FuncView, module_to_programs
from symshape.ir.printing import add_leading_comments
from symshape.rules.walker import analyze

MAX_LINE = 100


@dataclass(frozen=True)
class ShapeSourcesPass(ModulePass):
    """Print the symbolic shape sources table of every function (the module is unchanged)."""

    name = "shape-sources"

    REWRITES: ClassVar[frozenset[str]] = frozenset[str]()
    """It only reports: no op changes."""

    facts: tuple[Fact, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        add_leading_comments(op, sources_table(op, self.facts))


def sources_table(module: ModuleOp, facts: tuple[Fact, ...] = ()) -> str:
    """The tables of all functions of ``module`` as comment lines."""
    lines: list[str] = []
    views = module_to_programs(module)
    for view, own in zip(views, facts_for(views, facts), strict=True):
        analysis = analyze(view.program, facts=[*view.facts, *own])
        for fn, names in _by_function(view):
            lines.extend(_table(view, analysis, fn, names))
    return "".join(f"// {line}\n" if line else "//\n" for line in lines)


def _by_function(view: FuncView) -> Iterator[tuple[str, list[str]]]:
    """Op-defined values grouped by the function they belong to, in program order."""
    groups: dict[str, list[str]] = {}
    for name, value in view.values.items():
        if isinstance(value, BlockArgument):
            continue
        groups.setdefault(name.split(":%", 1)[0][1:], []).append(name)
    order = [view.name, *view.inlined]
    yield from ((fn, groups[fn]) for fn in order if fn in groups)


def _table(view: FuncView, analysis: Analysis, fn: str, names: list[str]) -> list[str]:
    lines = [f"============= symbolic expr sources table for @{fn} ============="]
    args = {name: (i, view.values[name]) for i, name in enumerate(view.program.inputs)}
    local = {v: n.split(":", 1)[1] for n, v in view.values.items()}
    for name in names:
        lines.append(f"original value: {_describe(view.values[name], local)}")
        shape = analysis.shape_or_none(name)
        if shape is not None:
            lines.append(f"symbolic shape: [{', '.join(str(d) for d in shape)}]")
        lines.append("symbolic shape sources:")
        refs = sorted({ref for dim in analysis.sources(name) for ref in dim}, key=lambda r: (args[r[0]][0], r[1]))
        for arg, axis in refs:
            index, value = args[arg]
            owner = "" if arg.startswith(f"@{fn}:") else f"of {arg.split(':%', 1)[0]} "
            lines.append(f"<block argument> {owner}of type '{value.type}' at index: {index}, dim: {axis}")
    return lines


def _describe(value: SSAValue, local: dict[SSAValue, str]) -> str:
    """``%0 = "mhlo.add"(%a, %b) : (T, T) -> T``, cut to ``%0 = "mhlo.add"...`` when long."""
    op = value.owner
    if not isinstance(op, Operation):
        return local[value]
    head = f'{local[value]} = "{op_full_name(op)}"'
    operands = ", ".join(local.get(v, "%?") for v in op.operands)
    types = f"({', '.join(str(v.type) for v in op.operands)}) -> "
    results = [str(r.type) for r in op.results]
    types += results[0] if len(results) == 1 else f"({', '.join(results)})"
    full = f"{head}({operands}) : {types}"
    return full if len(full) <= MAX_LINE and not op.attributes and not op.regions else f"{head}..."
