"""``symshape check``: read the shapes, analyze, check, print; the exit status."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from symshape.engine.userfacts import Fact
from symshape.errors import SymshapeError

OK, VIOLATED, USAGE = 0, 1, 2


def run_check(model: Path, shapes: Sequence[str], npz: Path | None, fmt: str, facts: Sequence[Fact]) -> int:
    """Print the check of ``model`` at the shapes (``--inputs`` first, ``--shapes`` over them) as
    ``fmt`` (text or json); return `OK`, `VIOLATED`, or `USAGE` after one error line (a bad shape,
    an unknown input, a model that cannot be read: status 1 is kept for violations)."""
    from symshape.api import analyze_file, check_shapes
    from symshape.tools.checking import parse_shapes, shapes_of_npz

    try:
        given = {**(shapes_of_npz(npz) if npz is not None else {}), **parse_shapes(shapes)}
        result = check_shapes(analyze_file(model, facts=facts), given, facts=facts)
    except SymshapeError as err:
        print(f"error: {err}", file=sys.stderr)
        return USAGE
    print(json.dumps(result.document(), indent=1) if fmt == "json" else result.text())
    return OK if result.ok else VIOLATED
