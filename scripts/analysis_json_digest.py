"""The sha256 of the ``symshape.analysis/1`` JSON of every bundled and test input (ONNX, MLIR
chunks, jax exports, torch.export programs), one line each: run it before and after a change that
must not change behaviour and diff the two outputs.

```
python scripts/analysis_json_digest.py > before.txt   # on the old tree
python scripts/analysis_json_digest.py > after.txt    # on the new one
diff before.txt after.txt
```

An input that fails prints its one-line error instead (a changed error is a change too); inputs
that need an absent extra (torch for ``.pt2``, jax for ``.jaxexp``) print ``skipped``.
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

from symshape.engine.result import Analysis
from symshape.errors import SymshapeError
from symshape.frontends import analyze_path
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.tools.outputs import OutputOptions
from symshape.tools.outputs.json import write_json

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".onnx", ".pt2", ".jaxexp")


def inputs() -> list[Path]:
    found = [p for p in (ROOT / "tests").rglob("*") if p.suffix in SUFFIXES + (".mlir",)]
    return sorted([*found, *(ROOT / "src" / "symshape" / "examples").glob("*.onnx")])


def digest(read: Callable[[], Analysis]) -> str:
    try:
        result = read()
    except SymshapeError as err:
        return f"error: {err}".splitlines()[0]
    except ImportError as err:
        return f"skipped ({err.name})"
    except Exception as err:  # noqa: BLE001 - an internal error is a result to compare too
        return f"internal error: {type(err).__name__}"
    out = io.StringIO()
    write_json(result, out, OutputOptions(all_values=True))
    return hashlib.sha256(out.getvalue().encode()).hexdigest()[:20]


def main() -> int:
    os.chdir(ROOT)  # the JSON names the model file: relative paths compare across checkouts
    for path in inputs():
        name = path.relative_to(ROOT)
        if path.suffix != ".mlir":
            print(name, digest(lambda name=name: analyze_path(name)))
            continue
        for i, chunk in enumerate(path.read_text(errors="replace").split("// -----")):
            if chunk.strip():
                print(f"{name}#{i}", digest(lambda chunk=chunk: analyze_mlir_text(chunk)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
