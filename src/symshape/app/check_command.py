"""``symshape check``: read the shapes, analyze, check, print; the exit status."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from symshape.engine.program import Program
from symshape.engine.userfacts import Fact
from symshape.errors import SymshapeError, UserFactError, where_option

OK, VIOLATED, USAGE = 0, 1, 2


def _require_every_input(program: Program, given: Mapping[str, object]) -> None:
    """A check at some inputs' shapes only would skip every requirement on the others: refuse it."""
    missing = [n for n in program.inputs if n not in given and not program.values[n].is_initializer]
    if missing:
        raise UserFactError(
            where=where_option("--shapes", ", ".join(f"{n}=..." for n in missing)),
            found=f"no shape for {len(missing)} of the {len(program.inputs)} inputs: {', '.join(missing)}",
            expected="a shape for every graph input (without one, the requirements on it are not checked)",
            fix=f"give them too, e.g. --shapes {','.join(f'{n}=2x7' for n in missing[:2])} (or --inputs FILE.npz)",
        )


def run_check(model: Path, shapes: Sequence[str], npz: Path | None, fmt: str, facts: Sequence[Fact]) -> int:
    """Print the check of ``model`` at the shapes (``--inputs`` first, ``--shapes`` over them) as
    ``fmt`` (summary or json); return `OK`, `VIOLATED`, or `USAGE` after one error line (a bad shape,
    an unknown input, a model that cannot be read: status 1 is kept for violations)."""
    from symshape.api import analyze_file, check_shapes
    from symshape.tools.checking import by_input_name, parse_shapes, shapes_of_npz

    try:
        given = {**(shapes_of_npz(npz) if npz is not None else {}), **parse_shapes(shapes)}
        analysis = analyze_file(model, facts=facts)
        given = by_input_name(analysis, given)
        result = check_shapes(analysis, given, facts=facts)  # names and ranks are checked first
        _require_every_input(analysis.program, given)
    except SymshapeError as err:
        print(f"error: {err}", file=sys.stderr)
        return USAGE
    print(json.dumps(result.document(), indent=1) if fmt == "json" else result.text())
    return OK if result.ok else VIOLATED
