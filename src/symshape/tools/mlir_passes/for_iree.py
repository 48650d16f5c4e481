"""``for-iree``: a module IREE compiles, with the facts the analysis proves used to turn the
dynamic-shape ops IREE cannot legalize into forms it can (`symshape.tools.mlir_passes.iree_forms`).

Stages 1-4 of ``shape-optimization`` run first (redundant broadcasts and reshapes dropped, proven
constant dims refined, equal dims one SSA value); nothing of symshape's own is written (no
``symshape`` op, no encoding): the output holds only upstream and stablehlo ops, with the
signatures as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from symshape.engine.userfacts import Fact
from symshape.tools.mlir_passes.iree_conv import convolutions_as_linalg
from symshape.tools.mlir_passes.iree_forms import (
    annotate_broadcasts,
    merge_broadcast_chains,
    pads_as_tensor_pad,
    reshapes_as_tensor_reshape,
    walk_function,
)
from symshape.tools.mlir_passes.iree_gather import gathers_as_slices, gathers_without_index_dim
from symshape.tools.mlir_passes.iree_matmul import dense_layers_as_matmuls
from symshape.tools.mlir_passes.iree_pool import dynamic_reduce_windows
from symshape.tools.mlir_passes.iree_update import updates_as_insert_slice
from symshape.tools.mlir_passes.iree_witness import lower_constraints, proven_witnesses, shape_assertions_as_asserts
from symshape.tools.mlir_passes.materialize import scalarize
from symshape.tools.mlir_passes.shape_optimization import ShapeOptimizationPass, optimize_module
from symshape.tools.mlir_passes.signatures import finish_signatures


@dataclass(frozen=True)
class ForIreePass(ModulePass):
    """Optimize the shapes, then rewrite what IREE cannot legalize."""

    name = "for-iree"

    REWRITES: ClassVar[frozenset[str]] = ShapeOptimizationPass.REWRITES | frozenset(
        {"*hlo.dynamic_pad", "*hlo.dynamic_gather", "*hlo.gather", "*hlo.dot_general",
         "*hlo.dynamic_conv", "*hlo.convolution", "*hlo.reduce_window", "linalg.*",
         "*hlo.dynamic_update_slice", "shape.*", "cf.assert", "*hlo.custom_call"}
    )
    """The ops of ``shape-optimization`` (dynamic broadcasts gain their known_* dims, dynamic
    reshapes become ``tensor`` reshapes), and the pads, gathers and dense layers rewritten into
    forms IREE lowers."""

    ELIMINATES: ClassVar[frozenset[str]] = ShapeOptimizationPass.ELIMINATES

    facts: tuple[Fact, ...] = ()
    """User facts, applied to every function that has their symbols."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewriter = Rewriter()
        for fs in optimize_module(ctx, op, self.facts):
            steps = [partial(merge_broadcast_chains, fs, rewriter), partial(annotate_broadcasts, fs),
                     partial(reshapes_as_tensor_reshape, fs, rewriter), partial(gathers_as_slices, fs, rewriter),
                     partial(gathers_without_index_dim, fs, rewriter), partial(pads_as_tensor_pad, fs, rewriter),
                     partial(convolutions_as_linalg, fs, rewriter), partial(dynamic_reduce_windows, fs, op, rewriter),
                     partial(dense_layers_as_matmuls, fs, rewriter), partial(updates_as_insert_slice, fs, rewriter),
                     partial(proven_witnesses, fs, rewriter)]
            for step in steps:  # one walk of the function while the rewrites change none of its ops
                fs.walked = fs.walked or walk_function(fs)
                if step() and step.func is not annotate_broadcasts:  # it only edits attributes
                    fs.walked = None
            fs.walked = None
        lower_constraints(op)
        shape_assertions_as_asserts(op)
        scalarize(ctx, op)
        finish_signatures(op, False)
