"""An MLIR input may be given to ``check`` by its name in the text (``arg0``, ``%arg0``) as well
as by the analysis's full name (``@main:%arg0``), when that name is one input's."""

from __future__ import annotations

import subprocess
import sys

import pytest

from symshape.errors import UserFactError
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.tools.checking import check_shapes
from tests.paths import ROOT

CONCAT = ROOT / "tests" / "mlir_inputs" / "jax_concat_2b.mlir"  # @main(%arg0: [2*b, s], %arg1: [b, s])

TWO_ROOTS = """
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @g(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %x, %y : tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


@pytest.mark.parametrize("names", [("arg0", "arg1"), ("%arg0", "%arg1"), ("arg0", "@main:%arg1")])
def test_a_short_name_is_the_input_of_that_name(names: tuple[str, str]) -> None:
    analysis = analyze_mlir_text(CONCAT.read_text())
    full = {"@main:%arg0": (6, 5), "@main:%arg1": (3, 5)}
    short = dict(zip(names, full.values(), strict=True))
    assert check_shapes(analysis, short).text() == check_shapes(analysis, full).text()
    wrong = dict(zip(names, [(6, 5), (4, 5)], strict=True))  # b is 3 by %arg0, 4 by %arg1
    assert not check_shapes(analysis, wrong).ok


def test_a_name_two_inputs_share_is_refused_with_the_full_names() -> None:
    analysis = analyze_mlir_text(TWO_ROOTS)
    with pytest.raises(UserFactError, match="no input of that name.*@f:%x, @g:%x, @g:%y"):
        check_shapes(analysis, {"x": (3,), "y": (3,)})
    assert check_shapes(analysis, {"@f:%x": (3,), "@g:%x": (2,), "y": (2,)}).ok


def test_the_command_takes_short_names() -> None:
    run = subprocess.run([sys.executable, "-m", "symshape", "check", str(CONCAT), "--shapes", "arg0=6x5",
                          "--shapes", "arg1=3x5"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("at b=3, s=5:")
