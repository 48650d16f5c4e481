"""The ``symshape`` command line: ``analyze`` (and the commands other modules register)."""

from __future__ import annotations

import atexit
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from symshape.app.options import model_argument, output_option
from symshape.errors import SymshapeError
from symshape.frontends import readable_files
from symshape.io import guard_input, write_output

if TYPE_CHECKING:
    from symshape.engine.userfacts import Fact

FACT_HELP = "A fact about input symbols, e.g. 'a + b == 1024', 'seq <= 4096', 'h % 8 == 0'. Repeatable."


def collect_facts(
    assume: tuple[str, ...], dim: tuple[str, ...], likely: tuple[str, ...], value: tuple[str, ...] = ()
) -> list[Fact]:
    """The fact options' values (`symshape.engine.userfacts.from_options`)."""
    from symshape.engine.userfacts import from_options

    return from_options(assume, dim, likely, value)


def fact_options(fn: click.decorators.FC) -> click.decorators.FC:
    """The user-fact options shared by every command that analyzes."""
    fn = click.option(
        "--value", multiple=True, metavar="INPUT=V1,V2",
        help="The contents of an integer graph input (e.g. sr=16000): decides the paths taken on it.",
    )(fn)
    fn = click.option("--likely", multiple=True, metavar="NAME=V1,V2", help="Likely values of a symbol.")(fn)
    fn = click.option(
        "--dim", multiple=True, metavar="NAME=LO..HI", help="Range of a symbol (either end may be empty)."
    )(fn)
    fn = click.option("--assume", multiple=True, metavar="FACT", help=FACT_HELP)(fn)
    return fn


def check_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``value`` when it names an output format of `symshape.tools.outputs`, else a usage error listing
    them (checked when used, so ``--help`` stays fast)."""
    from symshape.tools.outputs import format_names

    names = format_names()
    if value not in names:
        raise click.BadParameter(f"'{value}' is not an output format; choose one of: {', '.join(names)}")
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="symshape")
def main() -> None:
    """Symbolic shape-constraint analysis of dynamic-shape ONNX models, MLIR modules, torch.export
    programs and jax.export exports: every dim in terms of the inputs, with its facts and guards."""


@main.command(help=f"""Infer every dim of MODEL ({readable_files()}) in terms of the input symbols.

    A directory or a quoted glob as MODEL analyzes every model it holds and
    prints a table (see --jobs and --json-dir).""")
@click.argument("model", required=False, type=click.Path(path_type=Path))
@click.option("--example", is_flag=True, help="Analyze the bundled tiny BERT example.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="For a directory or glob MODEL: analyze this many models at a time (worker processes).")
@click.option("--json-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write each model's JSON here as <model stem>.json (and print the sweep's table).")
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the symshape.analysis/1 JSON here ('-' for stdout).",
)
@click.option(
    "--format",
    "fmt",
    default="summary",
    callback=check_format,
    show_default=True,
    help="What to print: an output format of symshape.tools.outputs (summary, json, ...).",
)
@click.option("--all-values", is_flag=True, help="List every value's dims in the summary.")
@fact_options
def analyze(
    model: Path | None,
    example: bool,
    json_out: Path | None,
    fmt: str,
    all_values: bool,
    assume: tuple[str, ...],
    dim: tuple[str, ...],
    likely: tuple[str, ...],
    value: tuple[str, ...],
    jobs: int = 1,
    json_dir: Path | None = None,
) -> None:
    """``symshape analyze``: its help text is the decorator's (it names the readable files)."""
    from symshape.api import analyze_file, example_path
    from symshape.tools.outputs import OutputOptions, render, writer
    from symshape.tools.outputs.progress import progress_bar

    if example:
        model = example_path()
    if model is None:
        raise click.UsageError("give a MODEL path or --example")
    from symshape.app.sweep import is_sweep, sweep_command

    if is_sweep(model) or json_dir is not None:
        if json_out is not None or fmt != "summary":
            raise click.UsageError("a sweep prints its table; write the JSON documents with --json-dir")
        sys.exit(sweep_command(model, jobs, json_dir, (assume, dim, likely, value)))
    to_stdout = json_out is not None and str(json_out) == "-"
    if to_stdout and fmt not in ("summary", "json"):
        raise click.UsageError(f"--json - and --format {fmt} both write to standard output; choose one")
    with progress_bar() as progress:
        result = analyze_file(model, facts=collect_facts(assume, dim, likely, value), progress=progress)
    if json_out is not None and not to_stdout:
        guard_input(json_out, model)
        write_output(json_out, render(result, "json"))
    writer("json" if to_stdout else fmt)(result, sys.stdout, OutputOptions(all_values=all_values))


@main.command()
@model_argument
@output_option("Where to write the annotated model.")
@click.option(
    "--guards",
    is_flag=True,
    help="Also write every requirement (bindings, ranges, divisors, user facts, guards) as nodes that make "
    "onnxruntime fail, naming the requirement, on inputs that break it.",
)
@fact_options
def annotate(
    model: Path, out: Path, guards: bool, assume: tuple[str, ...], dim: tuple[str, ...], likely: tuple[str, ...],
    value: tuple[str, ...],
) -> None:
    """Write MODEL with every value's shape as value_info (ints or sympy-syntax dim_params)."""
    from symshape.tools.annotate import annotate_file
    from symshape.tools.outputs.progress import progress_bar

    guard_input(out, model)
    with progress_bar() as progress:
        facts = collect_facts(assume, dim, likely, value)
        summary = annotate_file(model, out, facts=facts, progress=progress, guards=guards)
    click.echo(summary)


from symshape.app.optimize_command import optimize as optimize_command  # noqa: E402 - defined with its package

main.command("optimize")(fact_options(optimize_command))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-p",
    "--passes",
    "passes",
    default="",
    metavar="PASS[{OPT=VAL ...}][,PASS...]",
    help="Pass pipeline in MLIR's syntax, e.g. 'shape-optimization{refine-signatures=true},fusion-groups'; "
    "passes: shape-optimization, for-iree (a module iree-compile takes), shape-sources, aux-shape-functions, "
    "fusion-groups, "
    "expand-function-dynamic-dims, shape-functions, shape-lower-meet, shape-lower-cstr-to-assert, "
    "shape-canonicalize-constraints (none: print).",
)
@click.option(
    "-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of stdout."
)
@click.option("--split-input-file", is_flag=True, help="Treat each '// -----' chunk as its own module.")
@click.option("--verify-diagnostics", is_flag=True, help="Print parse/verify/pass errors as the chunk's output.")
@click.option("--print-op-generic", "generic", is_flag=True, help="Print every op in generic form.")
@click.option(
    "--print-op-custom",
    "custom",
    is_flag=True,
    help="Print symshape's and other non-upstream ops in their custom form (MLIR's tools cannot read it).",
)
@click.option("--timing", is_flag=True, help="Print each stage's wall time to stderr (as mlir-opt's --mlir-timing).")
@fact_options
def opt(
    file: Path,
    passes: str,
    out: Path | None,
    split_input_file: bool,
    verify_diagnostics: bool,
    generic: bool,
    custom: bool,
    timing: bool,
    assume: tuple[str, ...],
    dim: tuple[str, ...],
    likely: tuple[str, ...],
    value: tuple[str, ...],
) -> None:
    """Run symshape's MLIR passes over FILE (mlir-opt style; '-' reads standard input)."""
    from symshape.tools.mlir_passes.opt import Timing, run_opt, timing_report

    pipeline = passes.strip()
    times: Timing | None = {} if timing else None
    options = {"generic": generic, "custom": custom, "split_input_file": split_input_file,
               "verify_diagnostics": verify_diagnostics}
    facts = collect_facts(assume, dim, likely, value)
    if str(file) == "-":
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "stdin.mlir"
            source.write_bytes(sys.stdin.buffer.read())
            text = run_opt(source, pipeline, facts, timing=times, **options)
    else:
        text = run_opt(file, pipeline, facts, timing=times, **options)
    if out is None:
        sys.stdout.write(text)
    else:
        guard_input(out, file)
        write_output(out, text)
    if times is not None:
        sys.stderr.write(timing_report(times))


from symshape.app.verify_command import verify as verify_command  # noqa: E402 - defined with its package

main.command("verify")(fact_options(verify_command))

from symshape.app.report_command import report as report_command  # noqa: E402 - defined with its package

main.command("report")(fact_options(report_command))


@main.command("check")
@model_argument
@click.option("--shapes", multiple=True, metavar="INPUT=D1xD2,...", help="Input shapes, e.g. input_ids=2x7.")
@click.option("--inputs", "npz", type=click.Path(dir_okay=False, path_type=Path), help="An .npz of inputs (shapes).")
@click.option("--format", "fmt", type=click.Choice(["summary", "json"]), default="summary", show_default=True,
              help="What to print: the summary, or the JSON document.")
@fact_options
def check_command(model: Path, shapes: tuple[str, ...], npz: Path | None, fmt: str, **given: tuple[str, ...]) -> None:
    """Check every requirement of MODEL at concrete input shapes; print the output shapes.

    Exit status 1 when a binding, range, divisor, user fact or guard fails, 2 on a usage error.
    """
    from symshape.app.check_command import run_check

    if not shapes and npz is None:
        raise click.UsageError("give the input shapes with --shapes or --inputs")
    facts = collect_facts(given["assume"], given["dim"], given["likely"], given["value"])
    sys.exit(run_check(model, shapes, npz, fmt, facts))


@main.command("explain")
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Print the section of the error guide for CODE; without CODE, list the codes.

    CODE is what every error message ends with, e.g. modelerror (from
    "(run `symshape explain modelerror`)"); the class name ModelError works too.
    """
    from symshape.app.explain_command import run_explain

    sys.exit(run_explain(code))


EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
"""Every command's exit status: 0 ok; 1 findings (a violated requirement, a wrong dim, outputs that
differ); 2 bad input or usage (a model, fact, option or file that cannot be used: one error line);
3 a symshape bug (one line; SYMSHAPE_DEBUG=1 shows the traceback)."""


def run() -> None:
    """Entry point that turns symshape errors into one clear line and the exit status above."""
    try:
        main(standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(130)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except SymshapeError as err:
        click.secho(f"error: {err}", fg="red", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except Exception as err:  # noqa: BLE001 - last resort: a bug, reported on one line
        if os.environ.get("SYMSHAPE_DEBUG"):
            raise
        click.secho(f"error: {internal_error_text(err)}", fg="red", err=True)
        sys.exit(EXIT_INTERNAL)


def run_and_exit() -> None:
    """The ``symshape`` process: `run`, then end without tearing down its objects. A 100k-op
    module leaves millions of objects, most in cycles, whose collection and freeing at
    interpreter exit took 3 s, a tenth of an ``opt`` run (clang skips the same work with
    ``-disable-free``). Outputs are closed by then; the atexit handlers still run, and the
    standard streams are flushed."""
    try:
        run()
        status = EXIT_OK
    except SystemExit as done:
        status = _exit_status(done.code)
    atexit._run_exitfuncs()  # pyright: ignore[reportPrivateUsage] - what interpreter exit would run
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a closed pipe (``symshape ... | head``): its reader wants no more
            pass
    os._exit(status)


def _exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` gives the process (a message is printed, status 1)."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


def internal_error_text(err: BaseException) -> str:
    """One line for an unexpected exception: the op being analyzed (when known) and what to do."""
    from symshape.rules.walker import INTERNAL_NOTE

    notes: list[str] = getattr(err, "__notes__", [])
    where = next((n.removeprefix(INTERNAL_NOTE) for n in notes if n.startswith(INTERNAL_NOTE)), None)
    during = f" while analyzing {where}" if where else ""
    return (
        f"internal error{during}: {type(err).__name__}: {err}; this is a symshape bug, please report it with "
        "the input (set SYMSHAPE_DEBUG=1 to see the traceback)"
    )
