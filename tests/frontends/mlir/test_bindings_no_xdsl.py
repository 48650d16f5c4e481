"""A module read through MLIR's bindings never imports xDSL (its import alone costs ~0.6 s).

Run in a fresh interpreter: ``symshape analyze x.mlir`` through the CLI, then ``sys.modules``
is inspected. The analysis must have gone through the bindings reader (else the check says
nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.paths import TESTS

SCRIPT = """
import json, sys
from symshape.app.cli import main
main(["analyze", sys.argv[1]], standalone_mode=False)
print(json.dumps({ "bindings": "symshape.frontends.mlir.bindings_reader" in sys.modules,
                  "xdsl": sorted(m for m in sys.modules if m == "xdsl" or m.startswith("xdsl."))[:3]}))
"""


@pytest.mark.needs_iree
@pytest.mark.parametrize("name", ["jax_attention.mlir", "jax_while.mlir"])
def test_analyze_through_the_bindings_imports_no_xdsl(name: str):
    env = {**os.environ, "SYMSHAPE_MLIR_BINDINGS": "iree", "SYMSHAPE_MLIR_READER": "bindings"}
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(TESTS / "mlir_inputs" / name)],
                         capture_output=True, text=True, env=env, check=False, timeout=300)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["bindings"], "the module was not read through the bindings"
    assert seen["xdsl"] == [], f"xdsl imported: {seen['xdsl']}"
