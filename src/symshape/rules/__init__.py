"""The op rule registry: ``(dialect, op_type)`` -> rule, one module per op family.

A rule is ``fn(ctx: OpContext) -> None``: it reads input shapes and tracked elements through the
context and sets the outputs. Families are imported on first lookup, so ``import symshape``
stays light.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symshape.analysis import OpContext

Rule = Callable[["OpContext"], None]

_RULES: dict[tuple[str, str], list[tuple[int, Rule]]] = {}
_FAMILIES = (
    "symshape.rules.elementwise",
    "symshape.rules.shape_ops",
    "symshape.rules.reshape",
    "symshape.rules.linalg",
    "symshape.rules.reduce",
    "symshape.rules.nn",
    "symshape.rules.conv",
    "symshape.rules.resize_pad",
    "symshape.rules.indexing",
    "symshape.rules.generators",
    "symshape.rules.data_dependent",
    "symshape.rules.control_flow",
    "symshape.rules.sequences",
    "symshape.rules.contrib",
    "symshape.rules.contrib_attention",
    "symshape.rules.contrib_misc",
    "symshape.rules.mlir_ops",
    "symshape.rules.mlir_hlo",
    "symshape.rules.mlir_contract",
    "symshape.rules.mlir_std",
    "symshape.rules.mlir_constraint",
    "symshape.rules.mlir_tensor",
    "symshape.rules.mlir_hlo_extra",
)
_loaded = False

ONNX = ""  # the ai.onnx domain as it appears in NodeProto.domain


def register(dialect: str, *op_types: str, since: int = 1) -> Callable[[Rule], Rule]:
    """Register the decorated rule for ``op_types`` of ``dialect`` from opset ``since`` on."""

    def wrap(fn: Rule) -> Rule:
        for op_type in op_types:
            entries = _RULES.setdefault((dialect, op_type), [])
            entries.append((since, fn))
            entries.sort(key=lambda e: -e[0])
        return fn

    return wrap


def lookup(dialect: str, op_type: str, version: int = 0) -> Rule | None:
    """The rule for an op at ``version`` (0: the newest), or None."""
    _load()
    if dialect == "ai.onnx":
        dialect = ONNX
    entries = _RULES.get((dialect, op_type))
    if not entries:
        return None
    for since, fn in entries:
        if version == 0 or since <= version:
            return fn
    return entries[-1][1]


def known_ops() -> list[tuple[str, str]]:
    """Every registered ``(dialect, op_type)``, sorted."""
    _load()
    return sorted(_RULES)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _FAMILIES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise
