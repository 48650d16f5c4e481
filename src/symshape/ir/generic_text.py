# pyright: strict
"""MLIR's own parser as the fallback of the xDSL reader: a text in a pretty form symshape has no
definition of (``chlo``, ``linalg``, a stablehlo op without a rule) is printed in generic form
by jaxlib's MLIR, else IREE's, and read again."""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from typing import Any

from symshape.ir.clean import MAX_MLIR_DEPTH, nesting_depth

__all__ = ["generic_text", "iree_generic_text", "jax_generic_text"]


def generic_text(text: str) -> str | None:
    """``text`` printed in generic form by jaxlib's MLIR, else by IREE's, or None when neither
    is installed or reads it."""
    generic = jax_generic_text(text)
    return generic if generic is not None else iree_generic_text(text)


def iree_generic_text(text: str) -> str | None:
    """``text`` printed in generic form by IREE's MLIR (all its input dialects loaded), or None."""
    def context() -> tuple[Any, Any]:
        ir = importlib.import_module("iree.compiler.ir")
        return ir, ir.Context()

    return _generic(text, context)


def jax_generic_text(text: str) -> str | None:
    """``text`` printed in generic form by jaxlib's MLIR (stablehlo and chlo loaded), or None."""
    def context() -> tuple[Any, Any]:
        jax_mlir = importlib.import_module("jax._src.interpreters.mlir")
        return importlib.import_module("jax._src.lib.mlir").ir, jax_mlir.make_ir_context()

    return _generic(text, context)


def _generic(text: str, make_context: Callable[[], tuple[Any, Any]]) -> str | None:
    """``text`` parsed in the context ``make_context`` builds with its ``ir`` module (any dialect
    allowed) and printed in generic form; None when the bindings are not installed or MLIR
    refuses the text."""
    if nesting_depth(text) > MAX_MLIR_DEPTH:
        return None
    try:
        ir, ctx = make_context()
    except ImportError:
        return None
    try:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text, context=ctx)
    except Exception:  # noqa: BLE001 - any MLIR diagnostic: the caller reports the xDSL error
        return None
    return _print_generic(module)


def _print_generic(module: Any) -> str:
    stream = io.StringIO()
    module.operation.print(file=stream, print_generic_op_form=True, enable_debug_info=False)
    return stream.getvalue()
