"""``symshape optimize``: ONNX models made smaller and faster with proven shape facts.

Shape values the analysis knows become constants or their smallest computation from one
``Shape`` per graph input (`symshape.tools.optimize.emit`, `symshape.tools.optimize.fold`); nodes proven to
compute their input unchanged are bypassed (`symshape.tools.optimize.redundant`,
`symshape.tools.optimize.chains`); dead nodes are dropped (`symshape.tools.optimize.graph_edit`); shapes are
written as value_info (`symshape annotate`'s writer). Nothing rests on an unproven claim: a value
that may depend on a guard is left alone (`symshape.tools.optimize.guarded`).
`symshape.tools.optimize.compare` runs both models in onnxruntime. The exports load lazily, so the
command line can register the command without importing onnx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symshape.tools.optimize.model import optimize_file, optimize_model
    from symshape.tools.optimize.summary import Summary

__all__ = ["Summary", "optimize_file", "optimize_model"]
_HOME = {"Summary": "symshape.tools.optimize.summary", "optimize_file": "symshape.tools.optimize.model",
         "optimize_model": "symshape.tools.optimize.model"}


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(name)
    return getattr(importlib.import_module(_HOME[name]), name)
