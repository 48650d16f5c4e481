"""``symshape opt FILE -p PASS[,PASS]``: parse an MLIR module, run symshape's passes, print it.

The pass registry maps each pass name to a loader, so ``import symshape.mlir.opt`` imports no
pass module until a pipeline asks for it (xDSL's ``get_all_passes`` habit). A pass that reads
user facts declares a ``facts: tuple[Fact, ...]`` field; `make_pass` fills it with fact values
(strings in ``--assume`` syntax are read once, here at the edge).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from symshape.errors import ModelError, SymshapeError
from symshape.io import write_text_atomic
from symshape.userfacts import Fact, as_facts

PASSES: dict[str, str] = {
    "shape-optimization": "symshape.mlir.passes.shape_optimization:ShapeOptimizationPass",
    "shape-sources": "symshape.mlir.passes.shape_sources:ShapeSourcesPass",
    "aux-shape-functions": "symshape.mlir.passes.aux_shape_functions:AuxShapeFunctionsPass",
    "fusion-groups": "symshape.mlir.passes.fusion_groups:FusionGroupsPass",
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


def make_pass(name: str, facts: Sequence[Fact | str] = ()) -> ModulePass:
    """An instance of the pass called ``name``, with ``facts`` when it takes them."""
    loaders = get_all_passes()
    if name not in loaders:
        known = ", ".join(sorted(loaders))
        raise ModelError(f"unknown pass '{name}'; the passes are: {known}")
    cls = loaders[name]()
    fields: set[str] = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    if "facts" in fields:
        with_facts = cast("Callable[..., ModulePass]", cls)  # a dataclass with a ``facts`` field
        return with_facts(facts=tuple(as_facts(facts)))
    return cls()


def parse_file(path: Path) -> tuple[Context, ModuleOp]:
    """Parse ``path`` with every dialect symshape knows (unknown ops stay unregistered)."""
    from symshape.mlir.parse import read_mlir_text

    return parse_text(read_mlir_text(path), str(path))


def parse_text(text: str, source: str = "<string>") -> tuple[Context, ModuleOp]:
    """Parse MLIR ``text`` into a module (see `parse_file`)."""
    from symshape.mlir.parse import make_context, parse_module

    ctx = make_context()
    return ctx, parse_module(text, ctx, source=source)


def run_passes(ctx: Context, module: ModuleOp, passes: Sequence[str], facts: Sequence[Fact | str] = ()) -> None:
    """Apply ``passes`` in order to ``module``, in place."""
    typed = as_facts(facts)
    pipeline = [make_pass(name, typed) for name in passes]
    for p in pipeline:
        p.apply(ctx, module)


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    """``module`` as text; ``generic=True`` prints every op in generic form (for mlir-opt)."""
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue() + "\n"


def run_opt(
    path: Path,
    passes: list[str],
    facts: Sequence[Fact | str] = (),
    *,
    generic: bool = False,
    split_input_file: bool = False,
    verify_diagnostics: bool = False,
) -> str:
    """Parse ``path``, run ``passes`` with user ``facts``, verify, and return the printed module.

    ``split_input_file`` treats each ``// -----``-separated chunk as its own module (outputs are
    joined by the same separator); ``verify_diagnostics`` prints a parse, verification or pass
    error as the chunk's output instead of raising (for filecheck tests of invalid IR).
    """
    for name in passes:  # fail before parsing on a typo in the pipeline
        if name not in PASSES:
            raise ModelError(f"unknown pass '{name}'; the passes are: {', '.join(sorted(PASSES))}")
    from symshape.mlir.parse import read_mlir_text

    typed = as_facts(facts)
    text = read_mlir_text(path)
    chunks = text.split(SPLIT_MARKER) if split_input_file else [text]
    outputs = [_run_chunk(chunk, str(path), passes, typed, generic, verify_diagnostics) for chunk in chunks]
    return f"{SPLIT_MARKER}\n".join(outputs)


SPLIT_MARKER = "// -----"


def _run_chunk(text: str, source: str, passes: list[str], facts: Sequence[Fact], generic: bool, catch: bool) -> str:
    try:
        ctx, module = parse_text(text, source)
        verify(module, source)
        run_passes(ctx, module, passes, facts)
        verify(module, f"{source} after {','.join(passes)}")
    except SymshapeError as err:
        if not catch:
            raise
        return f"{err.args[0] if err.args else err}\n"
    return print_module(module, generic=generic)


def verify(module: ModuleOp, where: str) -> None:
    """Verify ``module``; ModelError naming the op and the reason when it is invalid."""
    try:
        module.verify()
    except (VerifyException, DiagnosticException) as err:
        raise ModelError(f"'{where}' does not verify: {err}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m symshape.mlir.opt FILE -p PASSES [--split-input-file] [--verify-diagnostics]
    [--print-op-generic] [-o OUT]``: `run_opt` with mlir-opt's testing flags."""
    parser = argparse.ArgumentParser(prog="python -m symshape.mlir.opt", description=main.__doc__)
    parser.add_argument("file", type=Path)
    parser.add_argument("-p", "--passes", default="")
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--assume", action="append", default=[])
    parser.add_argument("--split-input-file", action="store_true")
    parser.add_argument("--verify-diagnostics", action="store_true")
    parser.add_argument("--print-op-generic", action="store_true")
    args = parser.parse_args(argv)
    passes = [p.strip() for p in args.passes.split(",") if p.strip()]
    try:
        text = run_opt(
            args.file,
            passes,
            args.assume,
            generic=args.print_op_generic,
            split_input_file=args.split_input_file,
            verify_diagnostics=args.verify_diagnostics,
        )
    except SymshapeError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    if args.output is None:
        sys.stdout.write(text)
        return 0
    if args.output.exists() and args.file.exists() and args.output.resolve() == args.file.resolve():
        sys.stderr.write(f"error: refusing to overwrite the input file '{args.file}'; choose another output path\n")
        return 1
    try:
        write_text_atomic(args.output, text)
    except OSError as err:
        sys.stderr.write(f"error: cannot write '{args.output}': {err.strerror or err}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
