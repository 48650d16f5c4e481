"""``for-iree`` end to end: each program of tests/iree_programs.py exported by ``jax.export``
with symbolic shapes, rewritten by ``symshape opt -p for-iree``, compiled by IREE once, and run
with ``iree.runtime`` at three sizes (the smallest legal one first) against ``Exported.call`` on
the same random inputs (rtol 1e-4, atol 1e-5)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tests.iree_programs import PROGRAMS, Program
from tests.paths import ROOT

pytestmark = [pytest.mark.needs_jax, pytest.mark.needs_iree_runtime]


def for_iree(text: str) -> str:
    from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes

    ctx, module = parse_text(text)
    run_passes(ctx, module, "for-iree")
    return print_module(module)


def compile_for_cpu(text: str) -> bytes:
    import iree.compiler as compiler

    return compiler.compile_str(text, target_backends=["llvm-cpu"], input_type="stablehlo",
                                extra_args=["--iree-llvmcpu-target-cpu=generic"])


def run(vmfb: bytes, args: list[np.ndarray]) -> np.ndarray:
    import iree.runtime as runtime

    module = runtime.load_vm_flatbuffer(vmfb, driver="local-task")
    return np.asarray(module.main(*args).to_host())


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_iree_compiles_the_rewritten_program_once_and_it_runs_right_at_every_size(name: str) -> None:
    program: Program = PROGRAMS[name]
    exported = program.exported()
    text = for_iree(exported.mlir_module())
    assert "symshape" not in text  # no op, attribute or encoding of symshape's own
    vmfb = compile_for_cpu(text)
    for seed, sizes in enumerate(program.sizes()):
        args = program.inputs(sizes, seed)
        want = np.asarray(exported.call(*args))
        got = run(vmfb, args)
        assert got.shape == want.shape, (sizes, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=str(sizes))


def test_the_broadcasts_iree_needs_annotated_are_proven_not_guessed() -> None:
    """Softmax over ``b x n``: the row max broadcast back over the rows is one merged broadcast
    whose operand dim is proven equal to ``b`` (nonexpanding), and nothing else is claimed."""
    text = for_iree(PROGRAMS["softmax"].exported().mlir_module())
    merged = [ln for ln in text.splitlines() if "dynamic_broadcast_in_dim" in ln and "(tensor<?xf32>" in ln]
    assert merged and all("known_nonexpanding_dimensions = array<i64: 0>" in ln for ln in merged), merged
    assert all("known_expanding_dimensions = array<i64>" in ln for ln in merged), merged


def test_the_example_goes_from_jax_to_one_iree_module_that_runs_at_every_size() -> None:
    """examples/jax_to_iree.py, as a user runs it."""
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "jax_to_iree.py")], capture_output=True, text=True,
                          timeout=600, check=True)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("b=")]
    assert len(lines) == 3 and all(float(ln.rsplit(" ", 1)[1]) < 1e-5 for ln in lines), done.stdout
