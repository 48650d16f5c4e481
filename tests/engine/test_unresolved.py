"""A dim a rule cannot give (an opaque custom call) that a later op ties to the program's inputs
is resolved: it leaves the unresolved list, the causes and the JSON's ``unresolved``; one that
nothing ties stays listed with its cause."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from symshape.frontends.mlir.frontend import analyze_mlir_text

TIED = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = stablehlo.add %0, %a : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
"""

# The kernel's result is added to b, not a: its dim 0 is b's, also an input dim.
TIED_OTHER = TIED.replace("%1 = stablehlo.add %0, %a", "%1 = stablehlo.add %0, %b").replace(
    "%a: tensor<?x4xf32>)", "%a: tensor<?x4xf32>, %b: tensor<?x4xf32>)"
)

# Nothing ties the kernel's result: its dim 0 is unknown and stays listed.
UNTIED = """
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = stablehlo.negate %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
"""


def test_a_dim_tied_to_an_input_later_is_not_unresolved() -> None:
    result = analyze_mlir_text(TIED)
    assert [str(d) for d in result.shape("@main:%0") or ()] == ["a_d0", "4"]
    assert result.unresolved == []
    assert result.causes() == []


def test_tied_to_another_input() -> None:
    result = analyze_mlir_text(TIED_OTHER)
    assert [str(d) for d in result.shape("@main:%0") or ()] == ["b_d0", "4"]
    assert [str(d) for d in result.shape("@main:%a") or ()] == ["a_d0", "4"]
    assert result.unresolved == [] and result.causes() == []


def test_an_untied_dim_stays_unresolved_with_its_cause() -> None:
    result = analyze_mlir_text(UNTIED)
    listed = {(u.value, u.axis) for u in result.unresolved}
    assert ("@main:%0", 0) in listed and ("@main:%1", 0) in listed
    (group,) = result.causes()
    assert "my_kernel" in str(group.cause.reason) and ("@main:%0", 0) in group.dims


def test_json_lists_nothing_unresolved(tmp_path: Path) -> None:
    path = tmp_path / "tied.mlir"
    path.write_text(TIED)
    proc = subprocess.run(
        [sys.executable, "-m", "symshape", "analyze", str(path), "--json", "-"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    data = json.loads(proc.stdout)
    assert not data.get("unresolved") and not data.get("causes"), data
