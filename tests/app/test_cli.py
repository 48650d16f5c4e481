"""The command line as a user runs it: exit codes, messages, files written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
from onnx import helper

N = helper.make_node


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, timeout=120)


def test_analyze_prints_summary_and_writes_json(small_model: Path, tmp_path: Path):
    out = tmp_path / "result.json"
    proc = run_cli("analyze", str(small_model), "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "dynamic dims in" in proc.stdout
    assert "Max(batch*seq, n)*Min(1, batch*seq, n)" in proc.stdout  # exact for every valid broadcast
    doc = json.loads(out.read_text())
    assert doc["format"] == "symshape.analysis/1"
    assert doc["values"]["y"]["dims"] == ["batch*seq", 8]
    assert doc["values"]["x"]["dims"] == ["batch", "seq", 8]
    assert set(doc["symbols"]) == {"batch", "seq", "n"}
    assert doc["guards"] == []


def test_json_is_deterministic(small_model: Path):
    first = run_cli("analyze", str(small_model), "--json", "-").stdout
    second = run_cli("analyze", str(small_model), "--json", "-").stdout
    assert first == second and first.startswith("{")


def test_user_facts_change_the_result(small_model: Path):
    proc = run_cli("analyze", str(small_model), "--json", "-", "--assume", "n == batch*seq")
    doc = json.loads(proc.stdout)
    assert doc["values"]["out"]["dims"] == ["batch*seq", 8]
    assert doc["guards"] == []


def test_unknown_symbol_in_fact_is_a_clear_error(small_model: Path):
    proc = run_cli("analyze", str(small_model), "--assume", "bogus >= 1")
    assert proc.returncode == 2
    assert (
        "names 'bogus', which is not a symbol of this program, expected one of the known input symbols: batch, n, seq"
        in proc.stderr
    )
    assert "Traceback" not in proc.stderr


def test_missing_file_and_garbage_file(tmp_path: Path):
    proc = run_cli("analyze", str(tmp_path / "nope.onnx"))
    assert proc.returncode == 2 and "does not exist" in proc.stderr and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model at all")
    proc = run_cli("analyze", str(bad))
    assert proc.returncode == 2 and "cannot read" in proc.stderr and "Traceback" not in proc.stderr


def test_annotate_writes_value_info_and_never_overwrites_input(small_model: Path, tmp_path: Path):
    before = small_model.read_bytes()
    proc = run_cli("annotate", str(small_model), "-o", str(small_model))
    assert proc.returncode != 0 and "refusing to overwrite" in proc.stderr
    assert small_model.read_bytes() == before
    out = tmp_path / "annotated.onnx"
    proc = run_cli("annotate", str(small_model), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    annotated = onnx.load(out)
    infos = {
        vi.name: [d.dim_param or d.dim_value for d in vi.type.tensor_type.shape.dim]
        for vi in list(annotated.graph.value_info) + list(annotated.graph.output)
    }
    assert infos["y"] == ["batch*seq", 8]
    assert infos["out"] == ["Max(batch*seq, n)*Min(1, batch*seq, n)", 8]
    onnx.checker.check_model(annotated)


def test_verify_runs_the_model_and_checks_every_dim(small_model: Path):
    proc = run_cli("verify", str(small_model), "--assume", "n == batch*seq", "-n", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert any(line.startswith("batch=") for line in lines)
    assert " 0 wrong" in lines[-1] and "dims checked" in lines[-1]


def test_opt_help_names_every_registered_pass() -> None:
    """The `-p` help is written by hand (the CLI does not import the pass registry): keep it whole."""
    from click.testing import CliRunner

    from symshape.app.cli import main
    from symshape.tools.mlir_passes.pipeline import PASSES

    help_text = CliRunner().invoke(main, ["opt", "--help"], terminal_width=10_000, max_content_width=10_000).output
    text = " ".join(help_text.split())
    assert [name for name in PASSES if name not in text] == []


def test_the_process_ends_without_teardown_but_with_every_byte_and_status() -> None:
    """`run_and_exit` skips the interpreter's teardown (os._exit): the printed module must still
    arrive whole on a pipe, atexit handlers still run, and each exit status is kept."""
    from symshape.tools.mlir_passes.opt import run_opt

    source = Path(__file__).resolve().parents[1] / "mlir_inputs" / "jax_attention.mlir"
    printed = run_cli("opt", str(source), "-p", "for-iree")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == run_opt(source, "for-iree")
    script = ("import atexit, sys; atexit.register(lambda: print('atexit ran')); "
              "sys.argv = ['symshape', *sys.argv[1:]]; from symshape.app.cli import run_and_exit; run_and_exit()")
    ok = subprocess.run([sys.executable, "-c", script, "explain"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout.rstrip().endswith("atexit ran")
    bad = subprocess.run([sys.executable, "-c", script, "opt", "/no/such.mlir", "-p", "for-iree"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "cannot read it" in bad.stderr and bad.stdout == "atexit ran\n"
    usage = subprocess.run([sys.executable, "-c", script, "opt"], capture_output=True, text=True, timeout=120)
    assert usage.returncode == 2 and "Missing argument" in usage.stderr


def test_opt_timing_reports_each_stage_on_stderr_only() -> None:
    """``opt --timing``: the module on stdout is unchanged, stderr lists read, the verifications,
    each pass and print in the order they ran, their seconds add up to the total, and the total
    fits inside the process's own wall time (measured here, around it)."""
    import time

    from symshape.tools.mlir_passes.opt import Timing, run_opt

    source = Path(__file__).resolve().parents[1] / "mlir_inputs" / "jax_attention.mlir"
    start = time.perf_counter()
    run = run_cli("opt", str(source), "-p", "shape-optimization,aux-shape-functions", "--timing")
    wall = time.perf_counter() - start
    assert run.returncode == 0, run.stderr
    assert run.stdout == run_opt(source, "shape-optimization,aux-shape-functions")
    rows = [line.split() for line in run.stderr.splitlines()[2:]]
    stages = ["read", "verify", "shape-optimization", "aux-shape-functions", "print", "verify", "total"]
    assert [row[2] for row in rows] == stages
    seconds = [float(row[0]) for row in rows]
    assert all(s >= 0 for s in seconds) and 0 < seconds[-1] < wall
    assert abs(sum(seconds[:-1]) - seconds[-1]) < 0.001 * len(seconds)
    timing: Timing = {}
    run_opt(source, "shape-optimization,aux-shape-functions", timing=timing)
    assert list(timing) == ["read", "verify input", "shape-optimization", "aux-shape-functions", "print",
                            "verify output"]


def test_opt_writes_a_reporting_pass_table_into_the_output_file(tmp_path: Path) -> None:
    """``shape-sources`` prints its table as comments before the module: with ``-o`` it goes into
    the file (it went to the terminal, the file holding only the module), stdout stays empty, and
    the file is still a module MLIR's own parser reads (a comment line is skipped)."""
    from symshape.frontends.mlir.bindings_parse import available_bindings, parse_with_bindings
    from symshape.tools.mlir_passes.opt import run_opt

    source = Path(__file__).resolve().parents[1] / "filecheck" / "shape-sources.mlir"
    out = tmp_path / "out.mlir"
    run = run_cli("opt", str(source), "-p", "shape-sources", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""
    text = out.read_text()
    assert text.startswith("// ============= symbolic expr sources table for @several_ops")
    assert "// symbolic shape: [arg0_d0, 4]" in text and "func.func" in text
    assert text == run_opt(source, "shape-sources")
    bindings = list(available_bindings())
    if bindings:  # IREE's bindings have no mhlo: jaxlib's read it
        assert any(parse_with_bindings(text, which) is not None for which in bindings)
    else:
        from symshape.ir.parse import parse_module

        assert parse_module(text).ops.first is not None
