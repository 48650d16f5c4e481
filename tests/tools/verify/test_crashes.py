"""onnxruntime 1.32 aborts the process ("terminate called without an active exception") when an
LSTM runs at batch 0, as it does inside a published wake-word model (openwakeword's
hey_mycroft): ``verify`` and ``optimize --verify`` run onnxruntime in a child process, so that
size is reported as a crash and the other sizes are still checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from symshape.tools.verify.isolated import Crashed, run_each
from tests.oracle import make_model, tensor

pytest.importorskip("onnxruntime")

HIDDEN, FEATURES = 4, 3


def lstm() -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    weights = [numpy_helper.from_array(rng.random((1, 4 * HIDDEN, n)).astype(np.float32), name)
               for name, n in (("W", FEATURES), ("R", HIDDEN))]
    node = onnx.helper.make_node("LSTM", ["x", "W", "R"], ["y"], hidden_size=HIDDEN)
    return make_model([node], [tensor("x", ["seq", "batch", FEATURES])], [tensor("y", None)], initializers=weights)


def symshape(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, check=False)


def test_onnxruntime_itself_aborts_on_this_model_at_batch_0(tmp_path: Path) -> None:
    """The premise, checked in a child of its own: batch 0 kills the process, batch 2 runs."""
    path = tmp_path / "lstm.onnx"
    onnx.save(lstm(), path)
    script = ("import sys, numpy as np, onnxruntime as ort\n"
              f"s = ort.InferenceSession({str(path)!r}, providers=['CPUExecutionProvider'])\n"
              f"print(s.run(None, {{'x': np.zeros((5, int(sys.argv[1]), {FEATURES}), np.float32)}})[0].shape)\n")
    assert subprocess.run([sys.executable, "-c", script, "2"], capture_output=True, check=False).returncode == 0
    assert subprocess.run([sys.executable, "-c", script, "0"], capture_output=True, check=False).returncode < 0


def test_verify_reports_the_crash_and_checks_the_other_sizes(tmp_path: Path) -> None:
    path = tmp_path / "lstm.onnx"
    onnx.save(lstm(), path)
    proc = symshape("verify", str(path), "--size", "batch=0,2,3", "--size", "seq=5")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert any(line.startswith("batch=0, seq=5") and "onnxruntime itself crashed: SIGABRT" in line for line in lines)
    assert any(line.startswith("batch=2, seq=5") and ", 0 wrong" in line for line in lines)
    assert any(line.startswith("batch=3, seq=5") and ", 0 wrong" in line for line in lines)


def test_optimize_verify_reports_the_crash_and_compares_the_other_sizes(tmp_path: Path) -> None:
    path = tmp_path / "lstm.onnx"
    onnx.save(lstm(), path)
    proc = symshape("optimize", str(path), "-o", str(tmp_path / "out.onnx"), "--verify")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    crashed = [line for line in lines if "onnxruntime itself crashed" in line]
    assert crashed and all("batch=0" in line for line in crashed)
    summary = lines[-1]
    assert summary.startswith("verify: ") and " 0 sizes run" not in summary and "identical" in summary


def _identity(state: int) -> int:
    return state


def _die_on(state: int, item: int) -> int:
    if item == state:
        os.abort()
    return item * 10


def _fail_setup(state: int) -> int:
    from symshape.tools.verify import OracleError

    raise OracleError(where="here", found=f"setup {state}", expected="x", fix="y")


def test_run_each_goes_on_after_a_crash_in_a_new_child() -> None:
    results = list(run_each(_identity, _die_on, 2, [1, 2, 3, 2, 4]))
    assert results[0] == 10 and results[2] == 30 and results[4] == 40
    assert all(isinstance(results[k], Crashed) and results[k].exitcode == -6 for k in (1, 3))


def test_run_each_raises_the_childs_error_with_its_parts() -> None:
    from symshape.tools.verify import OracleError

    with pytest.raises(OracleError, match="setup 7"):
        list(run_each(_fail_setup, _die_on, 7, [1]))
