"""Optional extras (jax, torch): imported on first use, or a one-line error saying how to get them."""

from __future__ import annotations

import importlib
from typing import Any

from symshape.errors import ModelError


def import_extra(module: str, *, where: str, reading: str, requirement: str, extra: str) -> Any:
    """``module``, or a ModelError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        missing = err.name or module.split(".")[0]
        raise ModelError(
            where=where,
            found=f"reading {reading} needs {module.split('.')[0]}, which is not installed (no module '{missing}')",
            expected=f"{requirement} (the optional extra symshape[{extra}])",
            fix=f"pip install 'symshape[{extra}]'",
        ) from None
