"""The folders the tests read, for a test module at any depth under tests/.

Test modules sit in folders that mirror the package's rooms (tests/rules/onnx/, tests/ir/, ...);
the data they read stays in the data folders of tests/ (models, mlir_inputs, filecheck, ...), so a
module finds them from here, not from its own place.
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).parent  # tests/: the data folders and the shared helpers
ROOT = TESTS.parent  # the checkout: src/, scripts/, benchmarks/, docs/, README.md
MODELS = TESTS / "models"  # the committed exported models (tests/models/README.md)
