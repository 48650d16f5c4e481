"""What a new user meets in the first hour: outputs readable by others (the umask), ``--example``
on every command that takes a model, ``check`` refusing a partial set of shapes, one exit-status
convention and one ``--format`` vocabulary, errors that list every kind of input, a typo in a value
name that is not silently "unknown", and the package's license and metadata."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from symshape.api import analyze_file, example_path
from tests.paths import ROOT


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, check=False,
                          cwd=cwd)


@pytest.mark.parametrize("command", [["annotate"], ["optimize"], ["report"]])
def test_outputs_follow_the_umask(command: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out.file"
    old = os.umask(0o022)
    try:
        done = cli(*command, "--example", "-o", str(out))
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


@pytest.mark.parametrize("args", [["report", "-o", "{tmp}/r.html"], ["annotate", "-o", "{tmp}/a.onnx"],
                                  ["optimize", "-o", "{tmp}/o.onnx"], ["verify", "-n", "1", "--no-edge"],
                                  ["check", "--shapes", "input_ids=2x7,attention_mask=2x7,token_type_ids=2x7"],
                                  ["analyze"]])
def test_example_works_on_every_command_that_takes_a_model(args: list[str], tmp_path: Path) -> None:
    done = cli(*(a.format(tmp=tmp_path) for a in args), "--example")
    assert done.returncode == 0, done.stderr


def test_check_refuses_when_inputs_have_no_shape() -> None:
    done = cli("check", "--example", "--shapes", "input_ids=2x7")
    assert done.returncode == 2
    assert "no shape for 2 of the 3 inputs: attention_mask, token_type_ids" in done.stderr


@pytest.mark.parametrize(("args", "code"), [
    (["analyze", "--example", "--dim", "seq=abc"], 2),  # a bad fact
    (["analyze", "--example", "--format", "nope"], 2),  # a bad option value
    (["analyze", "{tmp}/corrupt.onnx"], 2),  # a model that cannot be read
    (["check", "{tmp}/corrupt.onnx", "--shapes", "x=1"], 2),
    (["check", "--example", "--shapes", "input_ids=2x600,attention_mask=2x600,token_type_ids=2x600"], 1),  # finding
    (["check", "--example", "--format", "summary", "--shapes",
      "input_ids=2x7,attention_mask=2x7,token_type_ids=2x7"], 0),
])
def test_one_exit_status_convention(args: list[str], code: int, tmp_path: Path) -> None:
    (tmp_path / "corrupt.onnx").write_bytes(b"\x00not a model")
    done = cli(*(a.format(tmp=tmp_path) for a in args))
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr


def test_an_unknown_suffix_lists_every_kind_of_input(tmp_path: Path) -> None:
    path = tmp_path / "model.txt"
    path.write_text("not a model")
    done = cli("analyze", str(path))
    assert done.returncode == 2
    for kind in (".onnx", ".mlir", ".jaxexp", ".pt2"):
        assert kind in done.stderr


def test_a_missing_file_says_so_whatever_its_suffix(tmp_path: Path) -> None:
    done = cli("analyze", str(tmp_path / "absent.jaxexp"))
    assert done.returncode == 2 and "the file does not exist" in done.stderr and "pip install" not in done.stderr


def test_a_value_name_that_is_not_in_the_program_raises_with_the_closest_names() -> None:
    result = analyze_file(example_path())
    assert result.shape("last_hidden_state") is not None
    with pytest.raises(KeyError, match="did you mean 'last_hidden_state'"):
        result.shape("last_hiden_state")


def test_the_package_has_a_license_urls_and_a_summary_naming_every_input() -> None:
    assert "Apache License" in (ROOT / "LICENSE").read_text() and "Version 2.0" in (ROOT / "LICENSE").read_text()
    meta = metadata.metadata("symshape")
    summary = meta["Summary"]
    for kind in ("ONNX", "MLIR", "torch.export", "jax.export"):
        assert kind in summary
    assert meta.get_all("Project-URL")
    assert "onnxruntime" in " ".join(r for r in (meta.get_all("Requires-Dist") or []) if "extra == \"verify\"" in r)
