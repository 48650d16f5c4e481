"""The report's browser tests share one headless chromium per module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.tools.report.pages import launch


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()
