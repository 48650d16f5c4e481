"""Parsing does not depend on jax being installed.

jaxlib's MLIR is only a fallback for pretty forms of dialects symshape has no definition of;
every MLIR text under ``tests/`` (the op forms in both forms, the seed and jax modules, the
filecheck inputs) parses in a fresh interpreter in which ``jax`` and ``jaxlib`` cannot be
imported, and so do ``cf.assert`` and ``arith.index_cast`` of a shape tensor, which used to
parse only through jaxlib. Other projects' modules (``mlir_upstream_sample``) use pretty forms
symshape has no definition of: there IREE's MLIR (in the test extra) is the fallback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.paths import ROOT, TESTS

SCRIPT = r"""
import json, sys
for m in ("jax", "jaxlib", "jax._src.interpreters.mlir"):
    sys.modules[m] = None
from pathlib import Path
from symshape.errors import SymshapeError
from symshape.ir.generic_text import jax_generic_text
from symshape.ir.parse import parse_module

tests = Path(sys.argv[1])
out = {"blocked": jax_generic_text("module {}") is None, "parsed": 0, "failed": []}
for path in sorted(tests.rglob("*.mlir")):
    if path.name == "constraint-dialect-invalid.mlir":
        continue  # parses, but is written not to verify
    for i, chunk in enumerate(path.read_text().split("// -----")):
        forms = chunk.split("\n// generic form\n") if path.parent.name == "op_forms" else [chunk]
        for j, text in enumerate(forms):
            try:
                parse_module(text, source=f"{path.relative_to(tests)}#{i}.{j}")
                out["parsed"] += 1
            except SymshapeError as err:
                out["failed"].append(str(err))
for name, text in json.loads(sys.argv[2]).items():
    try:
        parse_module(text, source=name)
        out["parsed"] += 1
    except SymshapeError as err:
        out["failed"].append(str(err))
print(json.dumps(out))
"""

EXTRA = {
    "cf_assert": """func.func @f(%a: tensor<?xf32>, %ok: i1) -> tensor<?xf32> {
  cf.assert %ok, "the shapes agree"
  return %a : tensor<?xf32>
}""",
    "index_cast_of_a_shape": """func.func @f(%a: tensor<?x?xf32>) -> tensor<2xi32> {
  %s = shape.shape_of %a : tensor<?x?xf32> -> tensor<2xindex>
  %i = arith.index_cast %s : tensor<2xindex> to tensor<2xi32>
  return %i : tensor<2xi32>
}""",
    "reshape_to_a_dynamic_shape": """func.func @f(%a: tensor<?x4xf32>, %s: tensor<1xindex>) -> tensor<?xf32> {
  %r = tensor.reshape %a(%s) : (tensor<?x4xf32>, tensor<1xindex>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}""",
}


def test_every_mlir_test_text_parses_with_jax_blocked() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(TESTS), json.dumps(EXTRA)], capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["blocked"], "jax was importable: the test did not block it"
    assert not got["failed"], got["failed"]
    assert got["parsed"] > 700  # the walk saw the op forms, modules and filecheck inputs
