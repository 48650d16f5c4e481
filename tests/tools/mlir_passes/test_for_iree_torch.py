"""``for-iree`` on torch-mlir 20261001's stablehlo (issue 23): each model of
tests/torch_iree_programs.py exported with dynamic dims by ``torch_mlir.fx.export_and_import(...,
output_type="stablehlo")``, rewritten by ``symshape opt -p for-iree``, compiled by IREE once and
run with ``iree.runtime`` at three sizes (the smallest legal one first) against torch on the same
random inputs (rtol 1e-4, atol 1e-5; integer outputs exactly).

A pending program is expected to fail (strictly: once it passes, move it to ``TORCH_PROGRAMS``).
The static-shape export a benchmark times against is checked at the mid size of a few programs."""

from __future__ import annotations

import pytest

from tests.tools.mlir_passes.test_for_iree import assert_outputs, compile_for_cpu, for_iree, load, outputs
from tests.torch_iree_programs import ALL, TORCH_PENDING, TORCH_PROGRAMS, TorchProgram

pytestmark = [pytest.mark.needs_torch_export, pytest.mark.needs_torch_mlir, pytest.mark.needs_iree_runtime]


def _compiled_once_right_at_every_size(program: TorchProgram) -> None:
    text = for_iree(program.stablehlo())
    assert "symshape" not in text  # no op, attribute or encoding of symshape's own
    module = load(compile_for_cpu(text))
    for seed, sizes in enumerate(program.sizes()):
        args = program.inputs(sizes, seed)
        assert_outputs(outputs(module, args), program.reference(args), str(sizes))


@pytest.mark.parametrize("name", sorted(TORCH_PROGRAMS))
def test_iree_compiles_the_rewritten_torch_model_once_and_it_runs_right_at_every_size(name: str) -> None:
    _compiled_once_right_at_every_size(TORCH_PROGRAMS[name])


@pytest.mark.parametrize("name", sorted(TORCH_PENDING))
@pytest.mark.xfail(strict=True, reason="pending: see the comment on it in tests/torch_iree_programs.py")
def test_a_pending_torch_model_still_fails(name: str) -> None:
    _compiled_once_right_at_every_size(TORCH_PENDING[name])


# two outputs, an integer input, a 4-d conv: the others compile the same way, only slower to test
STATIC_CHECKED = ["softmax + concat", "embedding + layernorm", "conv net"]


@pytest.mark.parametrize("name", STATIC_CHECKED)
def test_the_static_export_at_the_mid_size_compiles_and_matches_torch(name: str) -> None:
    """What a benchmark times the dynamic module against: every dim static, same weights."""
    program = ALL[name]
    sizes = program.mid()
    text = program.static_stablehlo(sizes)
    assert "?" not in text.split("{-#")[0]
    args = program.inputs(sizes, 7)
    assert_outputs(outputs(load(compile_for_cpu(text)), args), program.reference(args), str(sizes))
