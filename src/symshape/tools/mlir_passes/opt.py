"""``symshape opt FILE -p PASS[{OPTIONS}][,PASS]``: parse an MLIR module, run symshape's passes,
print it so that ``mlir-opt``/``iree-opt`` read it back (`symshape.ir.printing`).

The pipeline and the pass registry are in `symshape.tools.mlir_passes.pipeline` (MLIR's pass-option syntax:
``shape-optimization{refine-signatures=true}``). A pass that reads user facts declares a
``facts: tuple[Fact, ...]`` field; `make_pass` fills it with fact values (strings in
``--assume`` syntax are read once, here at the edge). Whatever goes wrong in parsing, verifying
or a pass becomes a one-line `SymshapeError` naming the file and, when known, the op.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from symshape.engine.userfacts import Fact, as_facts
from symshape.errors import ModelError, SymshapeError, where_option
from symshape.frontends.mlir.bindings_parse import mlir_verifies
from symshape.io import refuse_overwrite, write_failed, write_text_atomic
from symshape.ir.module import first_line, parse_file, parse_text, verify
from symshape.ir.parse import verified_by_mlir
from symshape.ir.printing import print_module
from symshape.memory import gc_paused
from symshape.tools.mlir_passes.pipeline import PASSES, PassSpec, get_all_passes, make_pass, parse_pipeline

__all__ = ["PASSES", "SPLIT_MARKER", "Timing", "get_all_passes", "main", "make_pass", "parse_file",
           "parse_pipeline", "parse_text", "print_module", "run_opt", "run_passes", "timing_report", "verify"]

Timing = dict[str, float]
"""Wall seconds per stage of a run (``read``, ``verify input``, each pass, ``print``, ``verify
output``), summed over the chunks of a split input; filled in when a caller passes one."""


@contextmanager
def _timed(timing: Timing | None, stage: str) -> Generator[None, None, None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        if timing is not None:
            timing[stage] = timing.get(stage, 0.0) + time.perf_counter() - start


def timing_report(timing: Timing) -> str:
    """The stages' times as ``mlir-opt --mlir-timing`` lists its passes: seconds, share, name."""
    total = sum(timing.values())
    lines = ["===- symshape opt: wall time per stage -===", "   seconds   share  stage"]
    lines += [f"{seconds:10.3f}  {seconds / total if total else 0:6.1%}  {stage}" for stage, seconds in timing.items()]
    lines.append(f"{total:10.3f}  {1 if total else 0:6.1%}  total")
    return "\n".join(lines) + "\n"


def run_passes(
    ctx: Context,
    module: ModuleOp,
    passes: Sequence[str | PassSpec] | str,
    facts: Sequence[Fact | str] = (),
    timing: Timing | None = None,
) -> None:
    """Apply ``passes`` (a pipeline text, or pass names/specs) in order to ``module``, in place;
    each pass's time is added to ``timing`` under its spec."""
    typed = as_facts(facts)
    for spec in _specs(passes):
        p = make_pass(spec, typed)
        try:
            with _timed(timing, str(spec)):
                p.apply(ctx, module)
        except SymshapeError:
            raise
        except DiagnosticException as err:  # VerifyException too: a rewrite made invalid IR
            raise ModelError(
                where=where_option("-p", str(spec)),
                found=f"the pass failed ({first_line(err)})",
                expected="a module the pass can rewrite",
                fix="this is a symshape bug; please report it with the input",
            ) from None


def _specs(passes: Sequence[str | PassSpec] | str) -> list[PassSpec]:
    """Pass specs from a pipeline text or a list of names/texts (a list split at commas by a
    caller is joined again, so ``{a=1,2}`` survives)."""
    if isinstance(passes, str):
        return parse_pipeline(passes)
    out: list[PassSpec] = []
    texts: list[str] = []
    for p in passes:
        if isinstance(p, PassSpec):
            out.extend(parse_pipeline(",".join(texts)))
            texts = []
            out.append(p)
        else:
            texts.append(p)
    return out + parse_pipeline(",".join(t for t in texts if t.strip()))


def run_opt(
    path: Path,
    passes: Sequence[str | PassSpec] | str,
    facts: Sequence[Fact | str] = (),
    *,
    generic: bool = False,
    custom: bool = False,
    split_input_file: bool = False,
    verify_diagnostics: bool = False,
    timing: Timing | None = None,
) -> str:
    """Parse ``path``, run ``passes`` with user ``facts``, verify, and return the printed module.

    The output goes straight into ``mlir-opt``/``iree-opt``; ``generic`` prints every op in
    generic form, ``custom`` every op in the custom form xDSL knows, symshape's own included
    (read back by symshape only). ``split_input_file`` treats each ``// -----``-separated chunk
    as its own module (outputs are joined by the same separator); ``verify_diagnostics`` prints
    a parse, verification or pass error as the chunk's output instead of raising (for filecheck
    tests of invalid IR). ``timing``, when given, receives each stage's wall time (`Timing`).
    """
    specs = _specs(passes)  # fail before parsing on a typo in the pipeline
    from symshape.ir.mlir_file import read_mlir_text

    typed = as_facts(facts)
    with _timed(timing, "read"):
        text = read_mlir_text(path)
    chunks = text.split(SPLIT_MARKER) if split_input_file else [text]
    style = {"generic": generic, "custom": custom}
    outputs = [_run_chunk(chunk, str(path), specs, typed, style, verify_diagnostics, timing) for chunk in chunks]
    return f"{SPLIT_MARKER}\n".join(outputs)


SPLIT_MARKER = "// -----"


def _run_chunk(
    text: str,
    source: str,
    specs: list[PassSpec],
    facts: Sequence[Fact],
    style: dict[str, bool],
    catch: bool,
    timing: Timing | None,
) -> str:
    try:
        with gc_paused():
            with _timed(timing, "read"):
                ctx, module = read_text(text, source)
            with _timed(timing, "verify input"):
                if not verified_by_mlir(module):
                    verify(module, source)
            run_passes(ctx, module, specs, facts, timing)
            with _timed(timing, "print"):
                printed = print_module(module, **style)
            with _timed(timing, "verify output"):
                if style["custom"] or not mlir_verifies(printed):  # MLIR's verifier is faster, and the real one
                    verify(module, source, after=",".join(str(s) for s in specs))
    except SymshapeError as err:
        if not catch:
            raise
        return f"{err.args[0] if err.args else err}\n"
    return printed


def read_text(text: str, source: str) -> tuple[Context, ModuleOp]:
    """``text`` read by MLIR's own parser where jaxlib or IREE is installed (`read_module`),
    else by xDSL's."""
    from symshape.ir.parse import make_context
    from symshape.tools.mlir_passes.from_bindings import read_module

    ctx = make_context()
    module = read_module(text, ctx)
    return (ctx, module) if module is not None else parse_text(text, source)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m symshape.tools.mlir_passes.opt FILE -p PASSES [--split-input-file] [--verify-diagnostics]
    [--print-op-generic | --print-op-custom] [-o OUT]``: `run_opt` with mlir-opt's testing flags."""
    parser = argparse.ArgumentParser(prog="python -m symshape.tools.mlir_passes.opt", description=main.__doc__)
    parser.add_argument("file", type=Path)
    parser.add_argument("-p", "--passes", default="")
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--assume", action="append", default=[])
    parser.add_argument("--split-input-file", action="store_true")
    parser.add_argument("--verify-diagnostics", action="store_true")
    parser.add_argument("--print-op-generic", action="store_true")
    parser.add_argument("--print-op-custom", action="store_true")
    args = parser.parse_args(argv)
    try:
        text = run_opt(
            args.file,
            args.passes,
            args.assume,
            generic=args.print_op_generic,
            custom=args.print_op_custom,
            split_input_file=args.split_input_file,
            verify_diagnostics=args.verify_diagnostics,
        )
        if args.output is None:
            sys.stdout.write(text)
            return 0
        if args.output.exists() and args.file.exists() and args.output.resolve() == args.file.resolve():
            raise refuse_overwrite(args.output, args.file)
        try:
            write_text_atomic(args.output, text)
        except OSError as err:
            raise write_failed(args.output, err) from None
    except SymshapeError as err:
        sys.stderr.write(f"error: {err}\n")
        return 2  # bad input, as every symshape command exits
    return 0


if __name__ == "__main__":
    sys.exit(main())
