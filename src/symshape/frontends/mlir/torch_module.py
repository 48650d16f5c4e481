# pyright: strict
"""torch-mlir's torch dialect through MLIR bindings that register it.

jaxlib's bindings and xDSL know neither the torch dialect's pretty forms (``torch.symbolic_int
"s0" {...} : !torch.int``) nor its types; IREE's (``iree-base-compiler``) register torch-mlir's
dialects, and ``torch-mlir``'s own bindings (``torch_mlir.ir``) register it too. Either reads
both forms; without them a torch module is a one-line error that says what to install.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from typing import Any

from symshape.errors import ModelError
from symshape.frontends.mlir.bindings_attributes import clear_caches
from symshape.frontends.mlir.bindings_ir import BindingsIR
from symshape.frontends.mlir.bindings_ops import BlockOps
from symshape.frontends.mlir.bindings_parse import TextNames, strip_locations
from symshape.frontends.mlir.program_builder import FuncView
from symshape.memory import gc_paused

__all__ = ["read_torch_views", "torch_bindings"]

_WHERE = "the torch-mlir module"
_PACKAGES = (("iree", "iree.compiler"), ("torch_mlir", "torch_mlir"))
_DIAGNOSTIC = re.compile(r'error: "-":(\d+):(\d+): (.*)')


def torch_bindings() -> str | None:
    """The installed bindings that read the torch dialect (``SYMSHAPE_MLIR_BINDINGS`` narrows)."""
    wanted = os.environ.get("SYMSHAPE_MLIR_BINDINGS", "")
    for name, package in _PACKAGES:
        if wanted and wanted != name:
            continue
        try:
            if importlib.util.find_spec(package) is not None:
                return name
        except ModuleNotFoundError:
            continue
    return None


def _context(which: str) -> Any:
    if which == "iree":
        ir: Any = importlib.import_module("iree.compiler.ir")
        ctx = ir.Context()  # IREE's context loads every dialect it has, torch's included
    else:
        ir = importlib.import_module("torch_mlir.ir")
        ctx = ir.Context()
        importlib.import_module("torch_mlir.dialects.torch").register_dialect(ctx)
    ctx.allow_unregistered_dialects = True
    return ir, ctx


def read_torch_views(text: str) -> list[FuncView]:
    """The functions of a torch dialect module, as Programs (`symshape.frontends.mlir.torch_reader`)."""
    which = torch_bindings()
    if which is None:
        raise ModelError(where=_WHERE, found="it uses torch-mlir's torch dialect, which no installed MLIR "
                         "bindings read", expected="iree-base-compiler or torch-mlir installed",
                         fix="pip install iree-base-compiler (or torch-mlir)")
    ir, ctx = _context(which)
    clean = strip_locations(text)
    try:
        module = ir.Module.parse(clean, context=ctx)
    except Exception as err:  # noqa: BLE001 - any MLIR diagnostic
        raise ModelError(where=_WHERE, found=f"MLIR cannot parse it: {_first_error(err)}",
                         expected="a module torch-mlir printed (pretty or generic form)",
                         fix="re-export it with torch_mlir.fx.export_and_import") from None
    from symshape.frontends.mlir.torch_reader import torch_views

    names = TextNames(clean)
    ops = BlockOps(module.operation)
    reader = BindingsIR(ops, names)
    reader.local.update(names.in_order(ops.all, ops.nested) or {})
    try:
        with gc_paused():
            return torch_views(reader)
    finally:
        clear_caches()


def _first_error(err: Exception) -> str:
    """``line 3, column 5: <MLIR's message>`` from the bindings' diagnostic."""
    for line in str(err).splitlines():
        m = _DIAGNOSTIC.search(line)
        if m:
            return f"line {m.group(1)}, column {m.group(2)}: {m.group(3)}"
    return str(err).splitlines()[0] if str(err) else type(err).__name__
