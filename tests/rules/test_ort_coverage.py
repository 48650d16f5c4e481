"""Every op type the installed onnxruntime registers (its schemas and CPU kernels, in every domain:
ai.onnx, ai.onnx.ml, com.microsoft, com.microsoft.nchwc, com.ms.internal.nhwc) has a symshape rule
(scripts/ort_op_coverage.py)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from tests.paths import ROOT


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ort_op_coverage", ROOT / "scripts" / "ort_op_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_op_onnxruntime_registers_has_a_rule() -> None:
    script = _script()
    registered = script.registered()
    assert sum(len(ops) for ops in registered.values()) > 400  # onnxruntime's registry was read
    assert {"", "com.microsoft", "com.microsoft.nchwc", "com.ms.internal.nhwc"} <= registered.keys()
    assert {domain: ops for domain, ops in script.missing().items() if ops} == {}
