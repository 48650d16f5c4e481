"""Chains of reshape-like ops read their root; a reshape that only adds or drops 1s says so.

``Reshape``, ``Flatten``, ``Squeeze`` and ``Unsqueeze`` keep the row-major order of the elements,
so any chain of them computes ``Reshape(root, final shape)``. A reshape-like node fed by such a
chain is rewritten to read the chain's root ``y`` directly, in the cheapest exact form:

- its output is ``y``'s shape with static 1s inserted: ``Unsqueeze(y, axes)``;
- its output is ``y``'s shape with static 1s dropped: ``Squeeze(y, axes)``;
- it is a ``Reshape`` and its output shape, written relative to ``y`` (`symshape.tools.optimize.targets`),
  is static: ``Reshape(y, constant)``; or its target is a constant without ``0`` (a ``0`` would
  copy a dim of its direct input): ``Reshape(y, target)``.

A ``Reshape`` whose target is computed from shapes and whose output only adds or drops 1s becomes
the ``Unsqueeze``/``Squeeze`` with constant axes, even without a chain. The skipped nodes die when
nothing else reads them. Graphs of opset 13 and later (axes as an input).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from symshape.algebra.expr import Dim
from symshape.engine.result import Analysis
from symshape.tools.optimize.emit import Emitter
from symshape.tools.optimize.graph_edit import producers
from symshape.tools.optimize.graph_view import GraphView, Node
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.summary import Summary
from symshape.tools.optimize.targets import proven_equal

_STANDARD = frozenset({"", "ai.onnx"})
_RESHAPE_LIKE = frozenset({"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
_MAX_CHAIN = 16


def collapse_reshapes(
    view: GraphView, analysis: Analysis, guard: GuardCheck, emitter: Emitter, summary: Summary
) -> None:
    """Rewrite reshape-like nodes as described in the module docstring."""
    made_by = producers(view)
    for node in view.nodes:
        if node.op_type not in _RESHAPE_LIKE or node.domain not in _STANDARD or not node.input or not node.input[0]:
            continue
        root = _root(node, made_by)
        direct = root == node.input[0]
        if direct and (node.op_type != "Reshape" or _static_target(node, analysis)):
            continue
        form = _form(node, root, analysis, emitter, allow_reshape=not direct)
        if form is None:
            continue
        if guard.blocked(node.output[0]):
            summary.refused_for_guards += 1
            continue
        op, inputs = form
        del node.input[:]
        node.input.extend(inputs)
        del node.attribute[:]
        summary.bypassed[f"{node.op_type} (as {op} of {'its input' if direct else 'the chain root'})"] += 1
        node.op_type = op


def _root(node: Node, made_by: dict[str, Node]) -> str:
    """The value at the top of the chain of reshape-like nodes that feeds ``node``."""
    root = node.input[0]
    for _ in range(_MAX_CHAIN):
        up = made_by.get(root)
        if up is None or up.op_type not in _RESHAPE_LIKE or up.domain not in _STANDARD or not up.input[0]:
            break
        root = up.input[0]
    return root


def _static_target(node: Node, analysis: Analysis) -> bool:
    """Whether a Reshape's target is already a constant (nothing to gain) or unknown."""
    if len(node.input) != 2:
        return True
    elements = analysis.elements(node.input[1])
    return elements is None or all(isinstance(e, int) for e in elements)


def _form(
    node: Node, root: str, analysis: Analysis, emitter: Emitter, *, allow_reshape: bool
) -> tuple[str, list[str]] | None:
    """The op and inputs that compute ``node``'s output from ``root``, or None."""
    out, dims = analysis.shape_or_none(node.output[0]), analysis.shape_or_none(root)
    if out is None or dims is None:
        return None

    def equal(a: Dim, b: Dim) -> bool:
        return proven_equal(analysis, a, b)

    inserted = ones_between(out, dims, equal)
    if inserted:
        return "Unsqueeze", [root, emitter.constant(inserted, [len(inserted)])]
    dropped = ones_between(dims, out, equal)
    if dropped:
        return "Squeeze", [root, emitter.constant(dropped, [len(dropped)])]
    if not allow_reshape or node.op_type != "Reshape":
        return None
    relative = [0 if k < len(dims) and equal(d, dims[k]) else d for k, d in enumerate(out)]
    ints = [d for d in relative if isinstance(d, int)]
    if len(ints) == len(relative) and 0 not in [d for d in out if isinstance(d, int)]:
        return "Reshape", [root, emitter.constant(ints, [len(ints)])]
    target = analysis.elements(node.input[1]) if len(node.input) == 2 else None
    if target is not None and all(isinstance(e, int) and e != 0 for e in target):  # no dim copied
        return "Reshape", [root, node.input[1]]
    return None


def ones_between(longer: Sequence[Dim], shorter: Sequence[Dim], equal: Callable[[Dim, Dim], bool]) -> list[int]:
    """The axes of ``longer`` that are static 1s such that dropping them leaves ``shorter`` (each
    remaining dim proven equal); empty when there are none or no such axes exist."""
    axes: list[int] = []
    j = 0
    for k, d in enumerate(longer):
        if j < len(shorter) and equal(d, shorter[j]):
            j += 1
        elif d == 1:
            axes.append(k)
        else:
            return []
    return axes if j == len(shorter) else []
