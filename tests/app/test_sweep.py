"""Sweeps (issue 10, item 4): ``symshape analyze DIR_OR_GLOB --jobs N --json-dir OUT`` analyzes
every model, in worker processes, writes each JSON document, survives a broken model and prints
a table. The JSON of a sweep must be byte-identical whatever ``--jobs``, and equal to what
``symshape analyze MODEL --format json`` prints for each model alone."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from symshape.app.cli import main
from symshape.app.sweep import Outcome, find_models, is_sweep, json_names, run_sweep, summary_table
from tests.paths import ROOT


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, timeout=300)


def written(out: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(out.iterdir())}


def test_a_sweep_gives_the_same_json_with_one_or_two_jobs_as_single_runs(models_dir: Path, tmp_path: Path) -> None:
    models = sorted(models_dir.glob("*.onnx"))
    assert len(models) >= 10
    one, two = tmp_path / "one", tmp_path / "two"
    first = run_cli("analyze", f"{models_dir}/*.onnx", "--jobs", "1", "--json-dir", str(one))
    second = run_cli("analyze", f"{models_dir}/*.onnx", "--jobs", "2", "--json-dir", str(two))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert written(one) == written(two)
    assert sorted(written(one)) == sorted(f"{m.stem}.json" for m in models)
    runner = CliRunner()
    for m in models:
        alone = runner.invoke(main, ["analyze", str(m), "--format", "json"])
        assert alone.exit_code == 0, alone.output
        assert (one / f"{m.stem}.json").read_text().rstrip("\n") == alone.output.rstrip("\n"), m.name
    for out in (first.stdout, second.stdout):
        lines = out.splitlines()
        assert lines[0].split() == ["model", "ops", "dims", "dynamic", "guards", "unresolved", "seconds"]
        assert lines[-1].startswith(f"{len(models)} models: {len(models)} analyzed, 0 failed")
    # the table's counts are the document's: e.g. the number of values with dims and of guards
    bert = json.loads((one / "bert_ts.json").read_text())
    row = next(line.split() for line in first.stdout.splitlines() if line.startswith(str(models_dir / "bert_ts")))
    assert int(row[4]) == len(bert["guards"]) and int(row[5]) == len(bert["unresolved"])


def test_a_broken_model_is_reported_and_the_others_are_written(models_dir: Path, tmp_path: Path) -> None:
    sweep = tmp_path / "models"
    sweep.mkdir()
    for name in ("bert_ts.onnx", "resnet_dynamo.onnx", "vit_ts.onnx"):
        shutil.copy(models_dir / name, sweep / name)
    (sweep / "broken.onnx").write_bytes(b"not a model")
    (sweep / "broken_too.mlir").write_text("func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {\n")
    (sweep / "notes.txt").write_text("not a model suffix: left out")
    out = tmp_path / "json"
    for jobs in ("1", "2"):
        shutil.rmtree(out, ignore_errors=True)
        done = run_cli("analyze", str(sweep), "--jobs", jobs, "--json-dir", str(out))
        assert done.returncode == 1, done.stderr
        assert sorted(p.name for p in out.iterdir()) == ["bert_ts.json", "resnet_dynamo.json", "vit_ts.json"]
        rows = {line.split()[0]: line for line in done.stdout.splitlines()[1:-1]}
        assert set(rows) == {str(sweep / n) for n in ("bert_ts.onnx", "broken.onnx", "broken_too.mlir",
                                                      "resnet_dynamo.onnx", "vit_ts.onnx")}
        assert "error: file '" in rows[str(sweep / "broken.onnx")]
        broken_mlir = rows[str(sweep / "broken_too.mlir")]
        assert "error: file '" in broken_mlir and "parse" in broken_mlir
        assert "error" not in rows[str(sweep / "bert_ts.onnx")]
        assert done.stdout.splitlines()[-1].startswith("5 models: 3 analyzed, 2 failed")


def test_what_counts_as_a_sweep_and_which_files_it_takes(models_dir: Path, tmp_path: Path) -> None:
    assert is_sweep(models_dir) and is_sweep("models/*.onnx") and is_sweep("m?.onnx")
    assert not is_sweep(models_dir / "bert_ts.onnx")
    (tmp_path / "sub").mkdir()
    for name in ("a.onnx", "b.mlir", "c.jaxexp", "d.bin", "e.json", "sub/f.onnx", "g.pt2"):
        (tmp_path / name).write_text("")
    # d.bin is left out: external weights are often named .bin (a single .bin file still analyzes)
    assert [p.name for p in find_models(tmp_path)] == ["a.onnx", "b.mlir", "c.jaxexp", "g.pt2"]
    assert [p.name for p in find_models(f"{tmp_path}/**/*.onnx")] == ["a.onnx", "f.onnx"]


def test_json_names_stay_apart_when_stems_collide() -> None:
    names = json_names([Path("x/a.onnx"), Path("x/a.mlir"), Path("y/a.mlir"), Path("x/b.onnx")])
    assert names[Path("x/b.onnx")] == "b.json"
    assert names[Path("x/a.onnx")] == "a.onnx.json"
    assert len(set(names.values())) == 4


def test_a_model_run_in_this_process_and_the_table(models_dir: Path, tmp_path: Path) -> None:
    seen: list[Outcome] = []
    outcomes = run_sweep([models_dir / "resnet_ts.onnx", tmp_path / "missing.onnx"], json_dir=tmp_path / "o",
                         options=(("batch <= 8",), (), ()), done=seen.append)
    assert seen == outcomes
    good, bad = outcomes
    assert good.error is None and good.ops > 0 and good.dims >= good.dynamic > 0
    assert bad.error is not None and "missing.onnx" in bad.error and "\n" not in bad.error
    table = summary_table(outcomes).splitlines()
    assert len(table) == 4 and "error: " in table[2] and table[3].startswith("2 models: 1 analyzed, 1 failed")


CRASHING_SWEEP = """
import json, os, signal, sys
from dataclasses import asdict
from pathlib import Path
import symshape.api
from symshape.app.sweep import run_sweep

real = symshape.api.analyze_file

def crashing(path, **kwargs):
    if Path(path).name == "crash.onnx":
        os.kill(os.getpid(), signal.SIGKILL)
    return real(path, **kwargs)

symshape.api.analyze_file = crashing  # the forked workers inherit it
out = run_sweep([Path(p) for p in sys.argv[2:]], jobs=2, json_dir=Path(sys.argv[1]))
print(json.dumps([asdict(o) for o in out]))
"""


def test_a_model_that_kills_its_worker_fails_alone(models_dir: Path, tmp_path: Path) -> None:
    """A crash in native code (here: the worker kills itself with SIGKILL on one model) breaks
    the pool; the other models are run again and written, only that one is reported. (In a
    process of its own: the patch reaches the workers by fork, and jax must not be loaded.)"""
    crash = tmp_path / "crash.onnx"
    shutil.copy(models_dir / "resnet_dynamo.onnx", crash)
    models = [str(models_dir / n) for n in ("bert_ts.onnx", "resnet_ts.onnx", "vit_ts.onnx")]
    done = subprocess.run([sys.executable, "-c", CRASHING_SWEEP, str(tmp_path / "out"), *models, str(crash)],
                          capture_output=True, text=True, timeout=300, check=True)
    outcomes = json.loads(done.stdout)
    assert [o["error"] is None for o in outcomes] == [True, True, True, False]
    assert "worker process analyzing it died" in outcomes[3]["error"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["bert_ts.json", "resnet_ts.json", "vit_ts.json"]


def test_a_sweep_refuses_single_model_outputs_and_an_empty_match(models_dir: Path, tmp_path: Path) -> None:
    done = run_cli("analyze", str(models_dir), "--json", str(tmp_path / "x.json"))
    assert done.returncode == 2 and "--json-dir" in done.stderr
    alone = run_cli("analyze", str(models_dir / "bert_ts.onnx"), "--json-dir", str(tmp_path / "one"))
    assert alone.returncode == 0 and alone.stdout.splitlines()[-1].startswith("1 model: 1 analyzed, 0 failed")
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["bert_ts.json"]
    empty = run_cli("analyze", f"{tmp_path}/*.onnx")
    assert empty.returncode == 2 and "matches no model file" in empty.stderr
    assert empty.stderr.count("\n") == 1


@pytest.mark.parametrize("jobs", ["0", "x"])
def test_jobs_must_be_a_positive_count(models_dir: Path, jobs: str) -> None:
    done = CliRunner().invoke(main, ["analyze", str(models_dir), "--jobs", jobs])
    assert done.exit_code == 2


@pytest.mark.needs_dask
def test_the_dask_example_maps_the_same_function_on_a_local_cluster(models_dir: Path, tmp_path: Path) -> None:
    """examples/sweep_dask.py on a 2-worker local cluster writes what the command line's sweep does."""
    import importlib.util

    from distributed import Client, LocalCluster

    path = ROOT / "examples" / "sweep_dask.py"
    spec = importlib.util.spec_from_file_location("sweep_dask", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    sweep = tmp_path / "models"
    sweep.mkdir()
    for name in ("bert_ts.onnx", "resnet_dynamo.onnx", "t5_dynamo.onnx"):
        shutil.copy(models_dir / name, sweep / name)
    (sweep / "broken.onnx").write_bytes(b"not a model")
    with Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")) as client:
        outcomes = example.sweep(f"{sweep}/*.onnx", tmp_path / "dask", client)
    assert [Path(o.model).name for o in outcomes] == ["bert_ts.onnx", "broken.onnx", "resnet_dynamo.onnx",
                                                      "t5_dynamo.onnx"]
    assert [o.error is not None for o in outcomes] == [False, True, False, False]
    here = run_cli("analyze", str(sweep), "--json-dir", str(tmp_path / "cli"))
    assert here.returncode == 1
    assert written(tmp_path / "dask") == written(tmp_path / "cli")


@pytest.mark.needs_jax
def test_with_jax_loaded_the_workers_are_fresh_interpreters(models_dir: Path, tmp_path: Path) -> None:
    """jaxlib's threads make fork unsafe: a process that loaded it starts clean workers, with
    the same documents as one at a time."""
    import jax

    from symshape.app import sweep

    del jax
    assert sweep._context().get_start_method() != "fork"  # noqa: SLF001 - the choice under test
    models = [models_dir / n for n in ("bert_ts.onnx", "resnet_ts.onnx", "swin_dynamo.onnx")]
    pooled = run_sweep(models, jobs=2, json_dir=tmp_path / "two")
    alone = run_sweep(models, jobs=1, json_dir=tmp_path / "one")
    assert [o.error for o in pooled] == [None] * 3
    assert [o.ops for o in pooled] == [o.ops for o in alone]
    assert written(tmp_path / "two") == written(tmp_path / "one")


def test_a_pt2_in_a_sweep_without_torch_fails_alone(models_dir: Path, tmp_path: Path) -> None:
    """Without torch (hidden from the interpreter) the .pt2 is a failed row naming the extra; the
    ONNX model beside it is analyzed (the pool's warm-up must not import torch and stop)."""
    sweep = tmp_path / "models"
    sweep.mkdir()
    for name in ("bert_ts.onnx", "resnet.pt2"):
        shutil.copy(models_dir / name, sweep / name)
    script = ("import sys; sys.modules['torch'] = None; "
              f"sys.argv = ['symshape', 'analyze', {str(sweep)!r}, '--jobs', '2']; "
              "from symshape.app.cli import run; run()")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 models: 1 analyzed, 1 failed" in done.stdout
    assert "needs torch, which is not installed" in done.stdout
