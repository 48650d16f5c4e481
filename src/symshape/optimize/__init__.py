"""``symshape optimize``: ONNX models made smaller and faster with proven shape facts.

Shape values the analysis knows become constants or their smallest computation from one
``Shape`` per graph input (`symshape.optimize.emit`, `symshape.optimize.fold`); nodes proven to
compute their input unchanged are bypassed (`symshape.optimize.redundant`,
`symshape.optimize.chains`); dead nodes are dropped (`symshape.optimize.graph_edit`); shapes are
written as value_info (`symshape annotate`'s writer). Nothing rests on an unproven claim: a value
that may depend on a guard is left alone (`symshape.optimize.guarded`).
`symshape.optimize.compare` runs both models in onnxruntime. The exports load lazily, so the
command line can register the command without importing onnx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symshape.optimize.model import optimize_file, optimize_model
    from symshape.optimize.summary import Summary

__all__ = ["Summary", "optimize_file", "optimize_model"]
_HOME = {"Summary": "symshape.optimize.summary", "optimize_file": "symshape.optimize.model",
         "optimize_model": "symshape.optimize.model"}


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(name)
    return getattr(importlib.import_module(_HOME[name]), name)
