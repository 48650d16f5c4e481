"""``shape-optimization``: seed 000's re-entrant shape optimization pass.

1. **Load** the constraint IR already in the module, and remove it: argument encodings, symbol
   facts and predicates become fact values (`symshape.tools.mlir_passes.constraint_load`); what
   concerns intermediate values becomes ``symshape.tie_shape``/predicate ops the analysis reads
   (`symshape.tools.mlir_passes.constraint_materialize`). It is read first, before canonicalization
   can fold away an op whose type carried it.
2. **Materialize** the shape computation: scalarize shape tensors, canonicalize, CSE
   (`symshape.tools.mlir_passes.materialize`).
3. **Analyze** each function with the shared engine (`symshape.rules.walker`), under the loaded
   facts and the user's facts.
4. **Optimize**: drop redundant broadcasts/reshapes, refine types, one SSA value per equal dim,
   fold decided compares (`symshape.tools.mlir_passes.optimize`); bypass the casts that only restore
   ``?`` where their users take the refined value, and with ``refine-signatures=true`` refine
   the functions' signatures as well (`symshape.tools.mlir_passes.signatures`); then canonicalize
   and CSE again.
5. **Save** the constraints: encoded tensor types, ``symshape.symbolic_dim`` ops and the
   ``@shape_constraint_graph`` function (`symshape.tools.mlir_passes.constraint_save`).

Running the pass on its own output gives the same text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from symshape.engine.program import Program
from symshape.engine.userfacts import Fact
from symshape.errors import UserFactError, where_fact
from symshape.frontends.mlir.program_builder import module_to_programs
from symshape.rules.walker import analyze
from symshape.tools.mlir_passes.constraint_load import (
    LoadedConstraints,
    argument_dims,
    argument_names,
    load_constraints,
    remove_tie_shapes,
)
from symshape.tools.mlir_passes.constraint_materialize import Materializer, remove_materialized
from symshape.tools.mlir_passes.constraint_save import save_constraints
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import data_functions
from symshape.tools.mlir_passes.materialize import scalarize
from symshape.tools.mlir_passes.optimize import optimize_function
from symshape.tools.mlir_passes.signatures import drop_restoring_casts, finish_signatures, refine_signature


@dataclass(frozen=True)
class ShapeOptimizationPass(ModulePass):
    """Materialize, load, analyze, optimize and save the shape constraints of a module."""

    name = "shape-optimization"

    REWRITES: ClassVar[frozenset[str]] = frozenset({
        "arith.*", "tensor.*", "shape.*", "symshape.*", "cf.assert", "func.func @shape_constraint_graph",
        "stablehlo.dynamic_broadcast_in_dim", "mhlo.dynamic_broadcast_in_dim",
        "stablehlo.dynamic_reshape", "mhlo.dynamic_reshape", "stablehlo.reshape", "mhlo.reshape",
    })
    """Ops this pass may create, erase or change (op names or ``fnmatch`` patterns, ``name @symbol``
    for one symbol): the scalarized, canonicalized shape computation, the constraint IR (its
    function included), proven asserts, redundant broadcasts and reshapes, and dynamic reshapes
    made static. Every other op keeps its attributes and constants exactly
    (tests/tools/mlir_passes/test_fidelity.py); with ``refine-signatures=true`` the functions' types change too,
    as the user asked."""

    ELIMINATES: ClassVar[frozenset[str]] = frozenset({"dead", "duplicates"})
    """Canonicalization erases dead pure ops and CSE merges identical ones, of every dialect."""

    facts: tuple[Fact, ...] = ()
    """User facts, applied to every function that has their symbols."""

    refine_signatures: bool = False
    """Give the functions' arguments and results their refined (static) types (an ABI change,
    so an option: ``-p 'shape-optimization{refine-signatures=true}'``)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = optimize_module(ctx, op, self.facts, self.refine_signatures)
        scalarize(ctx, op)
        save_constraints(op, functions)
        finish_signatures(op, self.refine_signatures)


def optimize_module(
    ctx: Context, op: ModuleOp, facts: Sequence[Fact], refine_signatures: bool = False
) -> list[FunctionShapes]:
    """Stages 1-4: load the constraint IR, materialize, analyze and optimize every function."""
    loaded = load_constraints(op)
    scalarize(ctx, op)
    created = [o for fn in data_functions(op) for o in Materializer(loaded, fn).run()]
    functions = analyze_functions(op, loaded, facts)
    remove_materialized(created)
    remove_tie_shapes(op)
    rewriter = Rewriter()
    for fs in functions:
        optimize_function(fs)
        if refine_signatures:
            refine_signature(fs, rewriter)
        else:
            drop_restoring_casts(fs, rewriter)
    return functions


def analyze_functions(module: ModuleOp, loaded: LoadedConstraints, user_facts: Sequence[Fact]) -> list[FunctionShapes]:
    """Analyze every data function of ``module`` under the loaded and user facts."""
    out: list[FunctionShapes] = []
    used: set[Fact] = set()
    known: set[str] = set()
    for view in module_to_programs(module):
        fn_name = view.func.sym_name.data
        args = argument_names(view.values, view.func)
        facts = loaded.facts_for(fn_name, view.program, args)
        symbols = _input_symbols(view.program)
        known |= symbols
        mine = [f for f in user_facts if f.symbols <= symbols]
        used.update(mine)
        analysis = analyze(view.program, facts=[*view.facts, *facts, *mine], source=f"@{fn_name}")
        fs = FunctionShapes.build(view.func, analysis, view.values, view.regions)
        fs.callees = [f for f in data_functions(module) if f.sym_name.data in view.inlined]
        out.append(fs)
    unused = [f for f in user_facts if f not in used]
    if unused and out:
        raise UserFactError(
            where=where_fact(str(unused[0])),
            found="it names a symbol no function of the module has",
            expected=f"symbols of the argument dims: {', '.join(sorted(known)) or 'none'}",
            fix="name the argument dims as <arg>_d<axis> or by their declared names",
        )
    return out


def _input_symbols(program: Program) -> set[str]:
    """The symbols the analysis will give the dims of ``program``'s inputs."""
    names: set[str] = set()
    for dims in argument_dims(program).values():
        for d in dims:
            if not isinstance(d, int):
                names |= d.free
    return names
