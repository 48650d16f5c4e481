"""Which rewrites could rest on a guard: the simplest sound rule.

A guard is an assumption the analysis needed but could not prove. Any value whose computation
reads (through the graph) a graph input with a dim over a guarded symbol may only be what the
analysis says while the guard holds, so such values are not rewritten. Inputs are bits of an
int mask per value, so the check costs one pass over the graph.
"""

from __future__ import annotations

import re

import onnx

from symshape.algebra.expr import Expr
from symshape.engine.result import Analysis

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class GuardCheck:
    """``blocked(value)``: the value depends on a graph input whose dims mention a guarded symbol."""

    def __init__(self, graph: onnx.GraphProto, analysis: Analysis) -> None:
        self.guards = analysis.guards()
        words = {w for cond, _, _ in self.guards for w in _WORD.findall(cond)}
        self._guarded_inputs = 0
        self._bit: dict[str, int] = {}
        if not self.guards:
            return
        for k, vi in enumerate(graph.input):
            self._bit[vi.name] = 1 << k
            dims = analysis.shape_or_none(vi.name) or ()
            if any(isinstance(d, Expr) and d.free & words for d in dims):
                self._guarded_inputs |= 1 << k
        self._mask: dict[str, int] = dict(self._bit)
        for node in graph.node:
            mask = 0
            for i in node.input:
                mask |= self._mask.get(i, 0)
            for o in node.output:
                self._mask[o] = mask

    def blocked(self, value: str) -> bool:
        """Whether rewriting ``value`` (or bypassing the node that writes it) may rest on a guard.
        A value not seen when the check was built (a new one) reads guarded inputs only through
        values that were checked themselves."""
        if not self._guarded_inputs:
            return False
        return bool(self._mask.get(value, 0) & self._guarded_inputs)
