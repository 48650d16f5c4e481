"""`SeededWalker` (the scalarize and canonicalize walks seeded with their candidate ops) and the
one walk for-iree's rewrites share leave every module exactly as xDSL's full walks leave it."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.pattern_rewriter import PatternRewriteWalker

from symshape.tools.mlir_passes import materialize as m
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes
from tests.paths import TESTS

MODULES = sorted((TESTS / "mlir_inputs").glob("*.mlir"))


def _run(path: Path, passes: str) -> str:
    ctx, module = parse_text(path.read_text())
    run_passes(ctx, module, passes)
    return print_module(module)


@pytest.mark.parametrize("passes", ["for-iree", "shape-optimization"])
@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_seeded_walks_are_the_full_walks(path: Path, passes: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded = _run(path, passes)
    monkeypatch.setattr(m.SeededWalker, "_populate_worklist", PatternRewriteWalker._populate_worklist)  # pyright: ignore[reportPrivateUsage]
    assert _run(path, passes) == seeded


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_for_iree_is_deterministic(path: Path) -> None:
    """Two runs print the same module (the cached walk and attributes hold nothing across runs)."""
    outs: list[str] = []
    for _ in range(2):
        ctx, module = parse_text(path.read_text())
        run_passes(ctx, module, "for-iree")
        outs.append(print_module(module))
    assert outs[0] == outs[1]
