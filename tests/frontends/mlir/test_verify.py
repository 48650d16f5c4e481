"""The analysis verifies the module first: a call to a function the module does not define is a
one-line ModelError naming the call (from the API and the CLI), as iree-opt's verifier rejects
it too; the same module with the callee defined is analyzed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symshape.errors import ModelError
from symshape.frontends.mlir.frontend import analyze_mlir_text, analyze_module
from symshape.ir.parse import parse_module

MISSING = """
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = func.call @nothere(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

DEFINED = MISSING + """
func.func private @nothere(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.negate %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


def test_undefined_callee_is_a_one_line_model_error() -> None:
    with pytest.raises(ModelError) as err:
        analyze_mlir_text(MISSING, source="m.mlir")
    message = str(err.value)
    assert message.startswith("func.call (op '@main:%0')"), message
    assert "@nothere" in message and "line 3" in message and "\n" not in message


def test_analyze_module_verifies_too() -> None:
    with pytest.raises(ModelError, match="nothere"):
        analyze_module(parse_module(MISSING))


def test_defined_callee_is_analyzed() -> None:
    result = analyze_mlir_text(DEFINED)
    assert [str(d) for d in result.shape("@main:%0") or ()] == ["a_d0"]


def test_cli_prints_one_line(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(MISSING)
    command = [sys.executable, "-m", "symshape", "analyze", str(path)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "func.call" in lines[0] and "nothere" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.needs_iree
def test_iree_opt_agrees() -> None:
    iree = shutil.which("iree-opt")
    assert iree is not None

    def verifies(text: str) -> bool:
        proc = subprocess.run([iree, "-"], input=text, capture_output=True, text=True, timeout=120, check=False)
        return proc.returncode == 0

    assert not verifies(MISSING)
    assert verifies(DEFINED)
