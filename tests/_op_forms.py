"""The op-form files of ``tests/op_forms/`` and a name-free digest of an analysis.

Each ``<dialect>.mlir`` holds chunks separated by ``// -----``: a ``// <op>`` line (``// <op>
historic`` for an op no current tool knows), the module as
a real tool prints it in pretty form, a ``// generic form`` line, and the same module printed in
generic form (see ``tests/op_forms/make_op_forms.py``). Run as a script, this module analyzes
every chunk in both forms with jax and jaxlib blocked and prints the digests as JSON, so the
test sees what a machine without jax sees.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMS = Path(__file__).parent / "op_forms"
DIALECTS = ("stablehlo", "mhlo", "func", "arith", "tensor", "shape", "symshape")
SPLIT = "\n// -----\n"
GENERIC = "// generic form\n"


@dataclass(frozen=True)
class Chunk:
    """One op's module in both forms; ``key`` is ``dialect.op`` with an optional ``#variant``.

    A *historic* op is one no current tool knows (its forms come from the tests of the versions
    that had it, cited in ``op_forms/make_op_forms.py``).
    """

    key: str
    pretty: str
    generic: str
    historic: bool = False

    @property
    def op(self) -> tuple[str, str]:
        """``(dialect, op)`` the chunk is about."""
        dialect, _, rest = self.key.partition(".")
        return dialect, rest.split("#")[0]


def read_chunks(dialect: str) -> list[Chunk]:
    """The chunks of ``op_forms/<dialect>.mlir``."""
    out: list[Chunk] = []
    for part in (FORMS / f"{dialect}.mlir").read_text().split(SPLIT):
        head, _, rest = part.strip().partition("\n")
        pretty, sep, generic = rest.partition(GENERIC)
        assert head.startswith("// ") and sep, f"malformed chunk in {dialect}.mlir: {head!r}"
        key, _, note = head[3:].strip().partition(" ")
        out.append(Chunk(key, pretty, generic, note == "historic"))
    return out


def all_chunks() -> list[Chunk]:
    return [c for d in DIALECTS for c in read_chunks(d)]


def digest(result: Any) -> dict[str, Any]:
    """Shapes and tracked values of every value in definition order, guards and warnings, with
    symbols renamed by first appearance: the pretty and generic prints name values differently
    (``%output`` vs ``%0#0``), and symbols named after values follow them."""
    from symshape.algebra.expr import free_symbols, subs, sym

    names: dict[str, Any] = {}

    def text(dims: tuple[Any, ...] | None) -> list[str] | None:
        if dims is None:
            return None
        for d in dims:
            for s in sorted(free_symbols(d)):
                names.setdefault(s, sym(f"s{len(names)}"))
        return [str(subs(d, names)) for d in dims]

    values = [[text(result.shape(v)), text(result.elements(v))] for v in result.value_names()]
    return {
        "values": values,
        "unknown": sorted(v.rsplit(":", 1)[-1] for v in result.program.values if result.shape(v) is None),
        "guards": len(result.guards()),
        "warnings": sorted(str(getattr(w, "op_type", w)) for w in result.warnings),
    }


def analyze_form(text: str) -> dict[str, Any]:
    """The digest of ``text``, or the one-line error it gives."""
    from symshape.errors import SymshapeError
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    try:
        return {"digest": digest(analyze_mlir_text(text))}
    except SymshapeError as err:
        return {"error": f"{type(err).__name__}: {err}"}


def main() -> None:
    """Block jax and jaxlib, then print ``{key: {"pretty": ..., "generic": ...}}`` as JSON."""
    sys.modules.update(dict.fromkeys(("jax", "jaxlib")))  # ``import jax`` now raises ImportError
    out: dict[str, Any] = {
        c.key: {"pretty": analyze_form(c.pretty), "generic": analyze_form(c.generic)} for c in all_chunks()
    }
    out["blocked"] = {name: _blocked(name) for name in ("jax", "jaxlib", "jax._src.interpreters.mlir")}
    json.dump(out, sys.stdout)


def _blocked(name: str) -> bool:
    import importlib

    try:
        importlib.import_module(name)
    except ImportError:
        return True
    return False


if __name__ == "__main__":
    main()
