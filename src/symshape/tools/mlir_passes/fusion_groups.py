"""``fusion-groups``: seed 000's fusion decision, BladeDISC's kLoop / kInput / kStitch groups.

Each op of a group of two or more gets two discardable attributes a compiler can read::

    %14 = stablehlo.subtract %arg2, %13 {symshape.fusion_group = 0 : i64, symshape.fusion_kind = "kStitch"}

Group numbers are unique in the module. The facts include seed 000's constraint IR when the
module carries it (``[@S0, @S1]`` encodings of the arguments, ``symshape.symbolic_dim`` ops and
the ``@shape_constraint_graph`` predicates, as `shape-optimization` writes them), and user facts.

Which ops fuse is decided by `symshape.tools.fusion.groups` with symshape's facts (``knowledge="facts"``)
or a baseline (``"elementwise"``: declared types and the elementwise ops' same-shape rule;
``"static"``: declared types only). Before the module, comment lines report every level, so
what the facts add is visible (the output still parses)::

    // fusion-groups @main: 271 ops, 92 fusible
    //   facts: 6 groups fuse 77 of 92 fusible ops (3 kLoop, 0 kInput, 3 kStitch); 21 kernels
    //   elementwise: 17 groups fuse 74 of 92 fusible ops (12 kLoop, 4 kInput, 1 kStitch); 35 kernels
    //   static: 5 groups fuse 10 of 92 fusible ops (1 kLoop, 4 kInput, 0 kStitch); 87 kernels
    //   group 0 kStitch over [b, s, 16], rows [b, s]: 20 ops
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from symshape.algebra.expr import Dim
from symshape.engine.userfacts import Fact
from symshape.errors import ModelError, where_option
from symshape.frontends.mlir.frontend import facts_for
from symshape.frontends.mlir.program_builder import FuncView, module_to_programs
from symshape.rules.walker import analyze
from symshape.tools.fusion.groups import LEVELS, FusionGroup, FusionPlan, Knowledge, fusion_plans
from symshape.tools.mlir_passes.constraint_load import argument_names, load_constraints

GROUP_ATTR = "symshape.fusion_group"
KIND_ATTR = "symshape.fusion_kind"


@dataclass(frozen=True)
class FusionGroupsPass(ModulePass):
    """Mark each op with its fusion group and kind; report the groups each level of knowledge allows."""

    name = "fusion-groups"

    REWRITES: ClassVar[frozenset[str]] = frozenset[str]()
    """It changes no op of the input; it only annotates them."""

    ANNOTATES: ClassVar[frozenset[str]] = frozenset({"symshape.fusion_group", "symshape.fusion_kind"})
    """The attributes it adds to each fused op."""

    facts: tuple[Fact, ...] = ()
    knowledge: str = "facts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.knowledge not in LEVELS:
            raise ModelError(where=where_option("knowledge", self.knowledge), found="an unknown level of knowledge",
                             expected=f"one of {', '.join(LEVELS)}", fix="choose one of those levels")
        for inner in op.walk():
            inner.attributes.pop(GROUP_ATTR, None)
            inner.attributes.pop(KIND_ATTR, None)
        lines: list[str] = []
        first = 0
        loaded = load_constraints(op.clone())  # read, not removed: the module keeps its constraint IR
        views = module_to_programs(op)
        for view, own in zip(views, facts_for(views, self.facts), strict=True):
            ir_facts = loaded.facts_for(view.func.sym_name.data, view.program, argument_names(view.values, view.func))
            plans = fusion_plans(analyze(view.program, facts=[*view.facts, *ir_facts, *own]))
            plan = next(p for level, p in plans.items() if level == self.knowledge)
            _annotate(view, plan, first)
            lines.extend(_report(view, plans, plan, first))
            first += len(plan.groups)
        sys.stdout.write("".join(f"// {line}\n" for line in lines))


def _annotate(view: FuncView, plan: FusionPlan, first: int) -> None:
    for group in plan.groups:
        for member in group.members:
            owner = view.values[member.value].owner if member.value in view.values else None
            if isinstance(owner, Operation):
                owner.attributes[GROUP_ATTR] = IntegerAttr(first + group.id, 64)
                owner.attributes[KIND_ATTR] = StringAttr(group.kind)


def _report(view: FuncView, plans: dict[Knowledge, FusionPlan], plan: FusionPlan, first: int) -> list[str]:
    facts = plans["facts"]
    lines = [f"fusion-groups @{view.name}: {facts.ops} ops, {facts.fusible} fusible"]
    for level in reversed(LEVELS):
        found = plans[level]
        lines.append(f"  {level}: {found.report()}")
    lines.extend(f"  group {first + g.id} {g.kind} over {_shape(g)}: {len(g.members)} ops" for g in plan.groups)
    return lines


def _shape(group: FusionGroup) -> str:
    text = _dims(group.shape)
    return text if group.rows is None else f"{text}, rows {_dims(group.rows)}"


def _dims(dims: tuple[Dim | None, ...]) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in dims) + "]"
