"""The static-reshape rewrite of ``shape-optimization`` (cases in
``tests/filecheck/shape-optimization-static-reshape.mlir``): iree-opt accepts each input and each
output, the rewritten reshapes included, and the count of rewrites is what the cases say."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from symshape.tools.mlir_passes.opt import run_opt
from tests.paths import TESTS

pytestmark = pytest.mark.needs_iree

CASES = TESTS / "filecheck" / "shape-optimization-static-reshape.mlir"
SPLIT = "// -----"


def iree_accepts(text: str) -> str:
    iree = shutil.which("iree-opt")
    assert iree is not None
    command = [iree, "--allow-unregistered-dialect", "-"]
    proc = subprocess.run(command, input=text, capture_output=True, text=True, timeout=120, check=False)
    return "" if proc.returncode == 0 else proc.stderr


def test_inputs_and_outputs_parse_in_iree_opt() -> None:
    inputs = CASES.read_text().split(SPLIT)
    outputs = run_opt(CASES, "shape-optimization", split_input_file=True).split(SPLIT)
    assert len(inputs) == len(outputs) == 4
    for text in (*inputs, *outputs):
        assert iree_accepts(text) == "", text
    rewritten = [out.count("dynamic_reshape") == 0 for out in outputs]
    assert rewritten == [True, True, True, False]
