"""The ONNX optimizer's passes, declared in order: a pass is a name, what it needs of the model,
and a function of the `Run` they share (adding a pass is its module and one line of `PASSES`).

Each pass reads the analysis (`Run.result`), checks what it relies on against the printed guards
(`Run.guard`), adds new nodes through the `Emitter` (they are put first by ``insert-new-nodes``,
as they read only graph inputs, initializers and each other) and counts what it did in the
`Summary`. Outputs and captured names (`Run.pinned`) are never renamed or removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from symshape.engine.result import Analysis
from symshape.tools.optimize.chains import MIN_OPSET_AXES_INPUT, merge_unsqueezes
from symshape.tools.optimize.constants import constants_to_initializers
from symshape.tools.optimize.cse import merge_duplicates
from symshape.tools.optimize.elementwise_reshape import unwrap_elementwise
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.fold import fold_values, known_values
from symshape.tools.optimize.graph_edit import producers, remove_dead
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.linear_index import gathers_to_reshapes
from symshape.tools.optimize.redundant import bypass_redundant
from symshape.tools.optimize.reshape_chains import collapse_reshapes
from symshape.tools.optimize.summary import Summary
from symshape.tools.optimize.targets import relax_targets
from symshape.tools.optimize.uniform_operands import scalar_fills

__all__ = ["PASSES", "OnnxPass", "Run"]


@dataclass
class Run:
    """What the passes of one optimization share."""

    view: GraphView
    result: Analysis
    types: dict[str, int]
    guard: GuardCheck
    emitter: Emitter
    summary: Summary
    pinned: set[str]
    opset: int
    free_initializers: bool
    """IR 4 and later: an initializer need not be a graph input, so passes may add some."""
    fold: bool
    """Whether known shape values are folded into constants (`symshape.tools.optimize.model` runs the
    passes without folding too, and keeps the smaller model)."""
    _made_by: dict[str, Node] | None = field(default=None, repr=False)

    def made_by(self) -> dict[str, Node]:
        """Each value's producer, computed once the new nodes are in and kept current by the
        passes that read it."""
        if self._made_by is None:
            self._made_by = producers(self.view)
        return self._made_by


@dataclass(frozen=True)
class OnnxPass:
    """One step of the optimizer: ``run`` applies it when ``applies`` says the model allows it."""

    name: str
    run: Callable[[Run], object]
    applies: Callable[[Run], bool] = lambda _run: True


def _free(run: Run) -> bool:
    return run.free_initializers


def _axes_input(run: Run) -> bool:
    return run.opset >= MIN_OPSET_AXES_INPUT


def _remove_dead(run: Run) -> None:
    for node in remove_dead(run.view, run.pinned):
        run.summary.removed[node.op_type] += 1


def _insert_new_nodes(run: Run) -> None:
    nodes, initializers = run.emitter.take()
    run.view.prepend(nodes)
    run.view.graph.initializer.extend(initializers)


def _fold(run: Run) -> None:
    known = known_values(run.view, run.result, run.types, run.guard, run.summary, run.pinned)
    fold_values(run.view, known, run.emitter, run.summary)


def _unwrap(run: Run) -> None:
    run.summary.reshaped = unwrap_elementwise(run.view, run.result, run.guard, run.summary, run.pinned, run.made_by())


PASSES: tuple[OnnxPass, ...] = (
    OnnxPass("relax-targets", lambda r: relax_targets(r.view, r.result, r.guard, r.emitter, r.summary), _free),
    OnnxPass("scalar-fills", lambda r: scalar_fills(r.view, r.result, r.guard, r.emitter, r.summary), _free),
    OnnxPass("gathers-to-reshapes",
             lambda r: gathers_to_reshapes(r.view, r.result, r.types, r.guard, r.emitter, r.summary),
             lambda r: _free(r) and _axes_input(r)),
    OnnxPass("collapse-reshapes", lambda r: collapse_reshapes(r.view, r.result, r.guard, r.emitter, r.summary),
             lambda r: _free(r) and _axes_input(r)),
    OnnxPass("remove-dead", _remove_dead, _free),  # what the rewrites made dead, before folding
    OnnxPass("fold-values", _fold, lambda r: r.fold and _free(r)),
    OnnxPass("insert-new-nodes", _insert_new_nodes),
    OnnxPass("bypass-redundant",
             lambda r: bypass_redundant(r.view, r.result, r.types, r.guard, r.summary, r.pinned, r.made_by())),
    OnnxPass("merge-unsqueezes",
             lambda r: merge_unsqueezes(r.view, r.result, r.emitter, r.summary, r.pinned, r.made_by()), _axes_input),
    OnnxPass("unwrap-elementwise", _unwrap),
    OnnxPass("insert-new-nodes", _insert_new_nodes),
    OnnxPass("remove-dead", _remove_dead),
    OnnxPass("constants-to-initializers", lambda r: constants_to_initializers(r.view, r.summary), _free),
    OnnxPass("merge-duplicates", lambda r: merge_duplicates(r.view, r.summary, r.pinned)),
    OnnxPass("remove-dead", _remove_dead),
)
"""The passes in the order they run."""
