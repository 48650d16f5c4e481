# pyright: strict
"""MLIR text -> one `FuncView` per root function, through MLIR's own parser (`bindings_parse`).

`BindingsIR` lets `symshape.frontends.mlir.program_builder.build_views` read binding ops, so the Programs
are those it builds from xDSL ops (same value names, attributes, inlining, regions and calls),
about twenty times faster to read. `read_views` returns None where this reader does not apply and
the xDSL reader must: no bindings installed, text MLIR refuses, or a module that names its
arguments' dims through symshape's own constraint ops or torch-mlir's ops on builtin tensors
(`symshape.frontends.mlir.declared_dims`), which only the xDSL reader reads. A module in torch-mlir's own
torch dialect (``!torch.vtensor`` types) goes to `symshape.frontends.mlir.torch_module`, which needs
bindings that register that dialect (IREE's or torch-mlir's) and says so when none is installed.
"""

from __future__ import annotations

import re
from typing import Any

from symshape.frontends.mlir.bindings_attributes import clear_caches
from symshape.frontends.mlir.bindings_ir import BindingsIR
from symshape.frontends.mlir.bindings_ops import BlockOps
from symshape.frontends.mlir.bindings_parse import TextNames, available_bindings, parse_with_bindings
from symshape.frontends.mlir.program_builder import FuncView, build_views
from symshape.memory import gc_paused

__all__ = ["BindingsIR", "read_views"]

_XDSL_ONLY = re.compile(r"symshape\.|torch\.(?:symbolic_int|bind_symbolic_shape)|,\s*\[@[^\]]*\]\s*>")
_TORCH = re.compile(r"!torch\.(?:v?tensor|int|list|bool|float|none)\b")


def read_views(text: str) -> list[FuncView] | None:
    """The root functions of the module ``text`` holds, or None (see the module docstring)."""
    if _TORCH.search(text):
        from symshape.frontends.mlir.torch_module import read_torch_views

        return read_torch_views(text)
    if _XDSL_ONLY.search(text):
        return None
    for which in available_bindings():  # IREE's has no mhlo: the next one may still read it
        parsed = parse_with_bindings(text, which)
        if parsed is not None:
            module, names = parsed
            try:
                with gc_paused():
                    return _views(module.operation, names)
            finally:
                clear_caches()
    return None


def _views(module: Any, names: TextNames) -> list[FuncView]:
    """`build_views` for a module the bindings parsed."""
    ops = BlockOps(module)
    ir = BindingsIR(ops, names)
    ir.local.update(names.in_order(ops.all, ops.nested) or {})
    return build_views(ir)
