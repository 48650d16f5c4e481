"""``symshape opt FILE -p PASS[,PASS]``: parse an MLIR module, run symshape's passes, print it.

The pass registry maps each pass name to a loader, so ``import symshape.mlir.opt`` imports no
pass module until a pipeline asks for it (xDSL's ``get_all_passes`` habit). A pass that reads
user facts (``--assume``) declares a ``facts`` field; `run_opt` fills it.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from symshape.errors import ModelError

PASSES: dict[str, str] = {
    "shape-optimization": "symshape.mlir.passes.shape_optimization:ShapeOptimizationPass",
    "shape-sources": "symshape.mlir.passes.shape_sources:ShapeSourcesPass",
    "aux-shape-functions": "symshape.mlir.passes.aux_shape_functions:AuxShapeFunctionsPass",
}
"""Pass name -> ``module:Class``, imported on first use."""


def _loader(target: str) -> Callable[[], type[ModulePass]]:
    module_name, cls_name = target.split(":")

    def load() -> type[ModulePass]:
        cls = getattr(importlib.import_module(module_name), cls_name)
        assert issubclass(cls, ModulePass)
        return cls

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every registered pass name with the loader of its class."""
    return {name: _loader(target) for name, target in PASSES.items()}


def available_passes() -> list[str]:
    """The names of the passes whose module is installed, sorted."""
    out: list[str] = []
    for name, load in get_all_passes().items():
        try:
            load()
        except ModuleNotFoundError:
            continue
        out.append(name)
    return sorted(out)


def make_pass(name: str, facts: Sequence[str] = ()) -> ModulePass:
    """An instance of the pass called ``name``, with ``facts`` when it takes them."""
    loaders = get_all_passes()
    if name not in loaders:
        known = ", ".join(sorted(loaders))
        raise ModelError(f"unknown pass '{name}'; the passes are: {known}")
    cls = loaders[name]()
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    if "facts" in fields:
        return cls(facts=tuple(facts))  # type: ignore[call-arg]
    return cls()


def parse_file(path: Path) -> tuple[Context, ModuleOp]:
    """Parse ``path`` with every dialect symshape knows (unknown ops stay unregistered)."""
    try:
        text = path.read_text()
    except OSError as err:
        raise ModelError(f"cannot read '{path}': {err.strerror}") from err
    return parse_text(text, str(path))


def parse_text(text: str, source: str = "<string>") -> tuple[Context, ModuleOp]:
    """Parse MLIR ``text`` into a module (see `parse_file`)."""
    from symshape.mlir.parse import make_context, parse_module

    ctx = make_context()
    return ctx, parse_module(text, ctx, source=source)


def run_passes(ctx: Context, module: ModuleOp, passes: Sequence[str], facts: Sequence[str] = ()) -> None:
    """Apply ``passes`` in order to ``module``, in place."""
    pipeline = [make_pass(name, facts) for name in passes]
    for p in pipeline:
        p.apply(ctx, module)


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    """``module`` as text; ``generic=True`` prints every op in generic form (for mlir-opt)."""
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue() + "\n"


def run_opt(path: Path, passes: list[str], facts: Sequence[str] = (), *, generic: bool = False) -> str:
    """Parse ``path``, run ``passes`` with user ``facts``, and return the printed module."""
    for name in passes:  # fail before parsing on a typo in the pipeline
        if name not in PASSES:
            raise ModelError(f"unknown pass '{name}'; the passes are: {', '.join(sorted(PASSES))}")
    ctx, module = parse_file(Path(path))
    run_passes(ctx, module, passes, facts)
    return print_module(module, generic=generic)
