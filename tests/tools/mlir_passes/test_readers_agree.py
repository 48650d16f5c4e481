"""The three ways ``symshape opt`` reads a module give the same output: xDSL's reader on the text
as written; xDSL's reader on the generic form MLIR's own parser (the bindings jaxlib and IREE
ship) prints, which ``opt`` falls back to for pretty forms xDSL cannot read; and the module MLIR's
parser reads rebuilt as xDSL ops (`symshape.tools.mlir_passes.from_bindings`, ``opt``'s first
choice). On every MLIR test input they read, for the round trip and ``for-iree``, iree-opt
prints the outputs alike (generic form, so value names and spelling do not count; values do)."""

from __future__ import annotations

from functools import cache

import pytest

from symshape.errors import SymshapeError
from symshape.ir.generic_text import generic_text
from symshape.ir.parse import make_context
from symshape.tools.mlir_passes.from_bindings import read_module
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes
from tests.mlir_fidelity import iree_generic
from tests.tools.mlir_passes.test_fidelity import mlir_inputs

pytestmark = [pytest.mark.needs_iree, pytest.mark.needs_jax]


def _opt(text: str, pipeline: str, *, rebuilt: bool = False) -> str | None:
    try:
        if rebuilt:
            ctx = make_context()
            module = read_module(text, ctx)
            if module is None:
                return None
        else:
            ctx, module = parse_text(text)
        run_passes(ctx, module, pipeline)
    except SymshapeError:
        return None
    return print_module(module)


@cache
def _outputs(pipeline: str) -> tuple[tuple[str, str, str | None, str | None], ...]:
    """(name, output from the text as written, from MLIR's generic print, from the rebuilt
    module) of each input xDSL's reader reads and the pipeline takes (None where the other
    reader does not apply)."""
    out: list[tuple[str, str, str | None, str | None]] = []
    for name, text in mlir_inputs():
        direct = _opt(text, pipeline)
        if direct is None:
            continue
        generic = generic_text(text)
        via_generic = None if generic is None else _opt(generic, pipeline)
        out.append((name, direct, via_generic, _opt(text, pipeline, rebuilt=True)))
    return tuple(out)


def _differ(pairs: list[tuple[str, str, str]]) -> list[str]:
    """The names of the pairs (name, a, b) whose outputs iree-opt prints differently."""
    printed = iree_generic([p[1] for p in pairs] + [p[2] for p in pairs])
    n = len(pairs)
    first, second = printed[:n], printed[n:]
    return [p[0] for p, a, b in zip(pairs, first, second, strict=True)
            if a.text is None or _same(a.text) != _same(b.text)]


@pytest.mark.parametrize("other", [2, 3], ids=["generic-print", "rebuilt"])
@pytest.mark.parametrize("pipeline", ["", "for-iree"], ids=["round-trip", "for-iree"])
def test_every_reader_gives_the_same_opt_output(pipeline: str, other: int) -> None:
    """xDSL's reader on the text against the reader at index ``other`` of `_outputs`."""
    pairs = [(out[0], out[1], read) for out in _outputs(pipeline) if (read := out[other]) is not None]
    assert len(pairs) > 300
    differ = _differ(pairs)
    assert not differ, f"{len(differ)} of {len(pairs)} inputs: {differ[:20]}"


def _same(generic: str | None) -> str | None:
    """``generic`` with properties (``<{...}>``) written as attributes (``{...}``): an op of a
    dialect MLIR's parser knows (jaxlib's mhlo) gets its inherent attributes as properties, and
    iree-opt, which does not know mhlo, prints them where they were; the values are the same."""
    return None if generic is None else generic.replace("<{", "{").replace("}>", "}")
