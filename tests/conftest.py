"""Shared fixtures: where the committed test models live."""

from __future__ import annotations

from pathlib import Path

import pytest

MODELS_DIR = Path(__file__).parent / "models"


@pytest.fixture(scope="session")
def models_dir() -> Path:
    """The committed tiny exported models (see tests/models/README.md)."""
    return MODELS_DIR
