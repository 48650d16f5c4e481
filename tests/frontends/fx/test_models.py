"""torch.export programs of the transformers test models: every node's dims against real runs.

The programs are `scripts/make_models.py --exporters pt2` (``Dim.AUTO`` on the same axes as the
ONNX exports). Each is analyzed from its saved ``.pt2`` and run node by node with torch at three
or more sizes (`tests.fx_oracle`): every claimed dim and tracked element must match, and every
dim must be expressed in the input symbols (none is left unresolved).
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.needs_torch_export

from tests.conftest import MODELS_DIR  # noqa: E402

Axes = dict[tuple[int, int], int]  # (user input index, axis) -> size


def _decoder(batch: int, seq: int, past: int) -> Axes:
    sizes: Axes = {(0, 0): batch, (0, 1): seq, (1, 0): batch, (1, 1): past + seq, (2, 0): batch, (2, 1): seq}
    for k in range(3, 7):
        sizes |= {(k, 0): batch, (k, 2): past}
    return sizes


def _pair(batch: int, seq: int, dec: int | None = None) -> Axes:
    return {(0, 0): batch, (0, 1): seq, (1, 0): batch, (1, 1): seq, (2, 0): batch, (2, 1): seq if dec is None else dec}


def _image(batch: int, h: int, w: int) -> Axes:
    return {(0, 0): batch, (0, 2): h, (0, 3): w}


SAMPLES: dict[str, list[Axes]] = {
    "bert": [_pair(2, 5), _pair(3, 17), _pair(4, 64)],
    "gpt2_past": [_decoder(2, 2, 2), _decoder(3, 7, 11), _decoder(2, 16, 40)],
    "llama_past": [_decoder(2, 2, 2), _decoder(3, 7, 11), _decoder(2, 16, 40)],
    "t5": [_pair(2, 5, 3), _pair(3, 9, 12), _pair(2, 30, 2)],
    "vit": [_image(2, 16, 16), _image(3, 40, 48), _image(2, 33, 71)],
    "swin": [_image(2, 38, 45), _image(3, 30, 62), _image(2, 22, 14)],
    "resnet": [_image(2, 37, 50), _image(3, 8, 9), _image(2, 64, 33)],
    "wav2vec2": [{(0, 0): 2, (0, 1): 400}, {(0, 0): 3, (0, 1): 30}, {(0, 0): 2, (0, 1): 1001}],
}


def _env(ep: Any, sizes: Axes) -> dict[str, int]:
    """The symbol values of a sample given by input axis."""
    env: dict[str, int] = {}
    user = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    for (i, axis), size in sizes.items():
        d = user[i].meta["val"].shape[axis]
        if not isinstance(d, int):
            assert env.setdefault(str(d.node.expr), size) == size, f"{d} bound twice"
    return env


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_dim_matches_runs(name: str) -> None:
    _check(name, decompose=False)


@pytest.mark.filterwarnings("ignore:`isinstance\\(treespec, LeafSpec\\)` is deprecated:FutureWarning")  # torch's own
@pytest.mark.parametrize("name", sorted(set(SAMPLES) - {"swin"}))  # swin's decomposition takes minutes
def test_core_aten_programs_match_runs_too(name: str) -> None:
    """``ep.run_decompositions()`` (core aten: ``native_layer_norm``, ``convolution``,
    ``addmm``, ``_unsafe_view``, SymInt ``truediv``) gives the same exactness."""
    _check(name, decompose=True)


def _check(name: str, *, decompose: bool) -> None:
    from symshape.api import analyze_torch
    from symshape.frontends.fx.frontend import load_exported_program
    from tests.fx_oracle import check_exported
    from tests.oracle import assert_exact

    ep = load_exported_program(MODELS_DIR / f"{name}.pt2")
    if decompose:
        ep = ep.run_decompositions()
    analysis = analyze_torch(ep)
    assert not any(" differ" in n and not n.endswith(" 0 differ") for n in analysis.notes[:1]), analysis.notes
    assert not analysis.unresolved, analysis.unresolved[:5]
    assert not analysis.guards(), analysis.guards()
    report = assert_exact(check_exported(analysis, ep, [_env(ep, s) for s in SAMPLES[name]]))
    assert len(report.runs) >= 3 and report.checked_dims > 100
