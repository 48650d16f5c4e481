"""``symshape opt FILE -p PASS[{OPTIONS}][,PASS]``: parse an MLIR module, run symshape's passes,
print it so that ``mlir-opt``/``iree-opt`` read it back (`symshape.mlir.printing`).

The pipeline and the pass registry are in `symshape.mlir.pipeline` (MLIR's pass-option syntax:
``shape-optimization{refine-signatures=true}``). A pass that reads user facts declares a
``facts: tuple[Fact, ...]`` field; `make_pass` fills it with fact values (strings in
``--assume`` syntax are read once, here at the edge). Whatever goes wrong in parsing, verifying
or a pass becomes a one-line `SymshapeError` naming the file and, when known, the op.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from symshape.errors import FIX_MODEL, ModelError, SymshapeError, where_file, where_op, where_option
from symshape.io import refuse_overwrite, write_failed, write_text_atomic
from symshape.mlir.pipeline import PASSES, PassSpec, get_all_passes, make_pass, parse_pipeline
from symshape.mlir.printing import print_module
from symshape.userfacts import Fact, as_facts

__all__ = ["PASSES", "SPLIT_MARKER", "get_all_passes", "main", "make_pass", "parse_file", "parse_pipeline",
           "parse_text", "print_module", "run_opt", "run_passes", "verify"]


def parse_file(path: Path) -> tuple[Context, ModuleOp]:
    """Parse ``path`` with every dialect symshape knows (unknown ops stay unregistered)."""
    from symshape.mlir.mlir_file import read_mlir_text

    return parse_text(read_mlir_text(path), str(path))


def parse_text(text: str, source: str = "<string>") -> tuple[Context, ModuleOp]:
    """Parse MLIR ``text`` into a module (see `parse_file`)."""
    from symshape.mlir.parse import make_context, parse_module

    ctx = make_context()
    return ctx, parse_module(text, ctx, source=source)


def run_passes(
    ctx: Context, module: ModuleOp, passes: Sequence[str | PassSpec] | str, facts: Sequence[Fact | str] = ()
) -> None:
    """Apply ``passes`` (a pipeline text, or pass names/specs) in order to ``module``, in place."""
    typed = as_facts(facts)
    for spec in _specs(passes):
        p = make_pass(spec, typed)
        try:
            p.apply(ctx, module)
        except SymshapeError:
            raise
        except DiagnosticException as err:  # VerifyException too: a rewrite made invalid IR
            raise ModelError(
                where=where_option("-p", str(spec)),
                found=f"the pass failed ({_first_line(err)})",
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


def _first_line(err: Exception) -> str:
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    return lines[0] if lines else type(err).__name__


def run_opt(
    path: Path,
    passes: Sequence[str | PassSpec] | str,
    facts: Sequence[Fact | str] = (),
    *,
    generic: bool = False,
    custom: bool = False,
    split_input_file: bool = False,
    verify_diagnostics: bool = False,
) -> str:
    """Parse ``path``, run ``passes`` with user ``facts``, verify, and return the printed module.

    The output goes straight into ``mlir-opt``/``iree-opt``; ``generic`` prints every op in
    generic form, ``custom`` every op in the custom form xDSL knows, symshape's own included
    (read back by symshape only). ``split_input_file`` treats each ``// -----``-separated chunk
    as its own module (outputs are joined by the same separator); ``verify_diagnostics`` prints
    a parse, verification or pass error as the chunk's output instead of raising (for filecheck
    tests of invalid IR).
    """
    specs = _specs(passes)  # fail before parsing on a typo in the pipeline
    from symshape.mlir.mlir_file import read_mlir_text

    typed = as_facts(facts)
    text = read_mlir_text(path)
    chunks = text.split(SPLIT_MARKER) if split_input_file else [text]
    style = {"generic": generic, "custom": custom}
    outputs = [_run_chunk(chunk, str(path), specs, typed, style, verify_diagnostics) for chunk in chunks]
    return f"{SPLIT_MARKER}\n".join(outputs)


SPLIT_MARKER = "// -----"


def _run_chunk(
    text: str, source: str, specs: list[PassSpec], facts: Sequence[Fact], style: dict[str, bool], catch: bool
) -> str:
    try:
        ctx, module = parse_text(text, source)
        verify(module, source)
        run_passes(ctx, module, specs, facts)
        verify(module, source, after=",".join(str(s) for s in specs))
    except SymshapeError as err:
        if not catch:
            raise
        return f"{err.args[0] if err.args else err}\n"
    return print_module(module, **style)


def verify(module: ModuleOp, source: str, *, after: str = "") -> None:
    """Verify ``module``; ModelError naming the op (as the analysis spells it, ``stablehlo.add
    (op '@main:%0')``), its line in ``source`` and the reason when it is invalid."""
    try:
        module.verify()
    except Exception as err:  # noqa: BLE001 - xDSL verifiers raise VerifyException, some ValueError
        op = _failing_op(module)
        when = f" after the passes '{after}'" if after else ""
        line = _line_of(op)
        at = f" (file '{source}', line {line})" if line is not None else ""
        raise ModelError(
            where=_where(op) if op is not None else where_file(source),
            found=f"the module does not verify{when}: {_first_line(err)}{at}",
            expected="ops with the operands, types and attributes their dialect requires",
            fix=FIX_MODEL if not after else "this is a symshape bug; please report it with the input",
        ) from None


def _failing_op(module: ModuleOp) -> Operation | None:
    """The first op (outermost first) whose own verifier fails."""
    for op in module.walk():
        if op is module:
            continue
        try:
            op.verify(verify_nested_ops=False)
        except Exception:  # noqa: BLE001 - any failure names the op
            return op
    return None


def _where(op: Operation) -> str:
    """``stablehlo.add (op '@main:%0')``: the op, its function and first result, as the analysis
    names them (the op alone when it has no result or is outside a function)."""
    from xdsl.dialects.func import FuncOp

    from symshape.mlir.parse import source_names

    module = _module_of(op)
    names = source_names(module) if module is not None else {}
    fn = op.parent_op()
    while fn is not None and not isinstance(fn, FuncOp):
        fn = fn.parent_op()
    dialect, _, short = op.name.partition(".")
    if fn is None:
        return where_op(dialect, short, op.name)
    if not op.results:
        return where_op(dialect, short, f"@{fn.sym_name.data}")
    first = op.results[0]
    return where_op(dialect, short, f"@{fn.sym_name.data}:%{names.get(first, first.name_hint or '?')}")


def _line_of(op: Operation | None) -> int | None:
    from symshape.mlir.parse import source_line

    module = _module_of(op) if op is not None else None
    return source_line(module, op) if module is not None and op is not None else None


def _module_of(op: Operation) -> ModuleOp | None:
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, ModuleOp):
        cur = cur.parent_op()
    return cur


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m symshape.mlir.opt FILE -p PASSES [--split-input-file] [--verify-diagnostics]
    [--print-op-generic | --print-op-custom] [-o OUT]``: `run_opt` with mlir-opt's testing flags."""
    parser = argparse.ArgumentParser(prog="python -m symshape.mlir.opt", description=main.__doc__)
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
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
