"""The two ways ``symshape opt`` reads a module give the same output: xDSL's reader on the text
as written, and MLIR's own parser (the bindings jaxlib and IREE ship) printing it in generic form
first, which ``opt`` falls back to for pretty forms xDSL cannot read. On every MLIR test input
both can read, for the round trip and ``for-iree``, iree-opt prints the two outputs alike
(generic form, so value names and spelling do not count; values do)."""

from __future__ import annotations

from functools import cache

import pytest

from symshape.errors import SymshapeError
from symshape.ir.generic_text import generic_text
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes
from tests.mlir_fidelity import iree_generic
from tests.tools.mlir_passes.test_fidelity import mlir_inputs

pytestmark = [pytest.mark.needs_iree, pytest.mark.needs_jax]


def _opt(text: str, pipeline: str) -> str | None:
    try:
        ctx, module = parse_text(text)
        run_passes(ctx, module, pipeline)
    except SymshapeError:
        return None
    return print_module(module)


@cache
def _pairs(pipeline: str) -> tuple[tuple[str, str, str], ...]:
    """(name, output from the text as written, output from MLIR's generic print) of each input
    both readers read and the pipeline takes."""
    out: list[tuple[str, str, str]] = []
    for name, text in mlir_inputs():
        generic = generic_text(text)
        if generic is None:
            continue
        direct, via_bindings = _opt(text, pipeline), _opt(generic, pipeline)
        if direct is not None and via_bindings is not None:
            out.append((name, direct, via_bindings))
    return tuple(out)


@pytest.mark.parametrize("pipeline", ["", "for-iree"], ids=["round-trip", "for-iree"])
def test_both_readers_give_the_same_opt_output(pipeline: str) -> None:
    pairs = _pairs(pipeline)
    assert len(pairs) > 300
    printed = iree_generic([p[1] for p in pairs] + [p[2] for p in pairs])
    n = len(pairs)
    direct, via_bindings = printed[:n], printed[n:]
    differ = [p[0] for p, a, b in zip(pairs, direct, via_bindings, strict=True)
              if a.text is None or _same(a.text) != _same(b.text)]
    assert not differ, f"{len(differ)} of {n} inputs: {differ[:20]}"


def _same(generic: str | None) -> str | None:
    """``generic`` with properties (``<{...}>``) written as attributes (``{...}``): an op of a
    dialect MLIR's parser knows (jaxlib's mhlo) gets its inherent attributes as properties, and
    iree-opt, which does not know mhlo, prints them where they were; the values are the same."""
    return None if generic is None else generic.replace("<{", "{").replace("}>", "}")
