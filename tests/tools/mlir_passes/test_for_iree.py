"""``for-iree`` end to end: each program of tests/iree_programs.py exported by ``jax.export``
with symbolic shapes, rewritten by ``symshape opt -p for-iree``, compiled by IREE once, and run
with ``iree.runtime`` at three sizes (the smallest legal one first) against ``Exported.call`` on
the same random inputs (rtol 1e-4, atol 1e-5; integer outputs exactly). A program with several
outputs (a pytree) is compared leaf by leaf."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from typing import Any

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


def leaves(tree: Any) -> list[Any]:
    """A pytree's leaves in ``jax.tree_util`` order: IREE's flat arguments and results."""
    import jax

    return jax.tree_util.tree_leaves(tree)


def load(vmfb: bytes) -> Any:
    import iree.runtime as runtime

    return runtime.load_vm_flatbuffer(vmfb, driver="local-task")


def outputs(module: Any, flat: Sequence[Any]) -> list[np.ndarray]:
    """The outputs of a loaded IREE module's ``main`` on flat arguments (IREE returns several
    as a tuple)."""
    got = module.main(*flat)
    return [np.asarray(r.to_host()) for r in (got if isinstance(got, tuple) else (got,))]


def results(module: Any, args: tuple[Any, ...]) -> list[np.ndarray]:
    """`outputs` on the flattened pytree ``args``."""
    return outputs(module, leaves(args))


def run(vmfb: bytes, args: tuple[Any, ...]) -> list[np.ndarray]:
    return results(load(vmfb), args)


def assert_same(got: list[np.ndarray], want: Any, err_msg: str) -> None:
    """``got`` (IREE's outputs) against the leaves of ``want`` (``Exported.call``'s pytree)."""
    assert_outputs(got, [np.asarray(w) for w in leaves(want)], err_msg)


def assert_outputs(got: list[np.ndarray], expected: list[np.ndarray], err_msg: str) -> None:
    """Shapes and dtypes equal, integers exactly, floats to rtol 1e-4, atol 1e-5."""
    assert len(got) == len(expected), err_msg
    for g, w in zip(got, expected, strict=True):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), (err_msg, g.shape, g.dtype, w.shape, w.dtype)
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=err_msg)
        else:
            np.testing.assert_array_equal(g, w, err_msg=err_msg)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_iree_compiles_the_rewritten_program_once_and_it_runs_right_at_every_size(name: str) -> None:
    program: Program = PROGRAMS[name]
    exported = program.exported()
    text = for_iree(exported.mlir_module())
    assert "symshape" not in text  # no op, attribute or encoding of symshape's own
    vmfb = compile_for_cpu(text)
    for seed, sizes in enumerate(program.sizes()):
        args = program.inputs(sizes, seed)
        assert_same(run(vmfb, args), exported.call(*args), str(sizes))


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


def test_a_shape_assertion_fails_at_run_time_with_jaxs_message() -> None:
    """IREE compiles jax's ``shape_assertion`` calls and never runs them (the module ran at
    ``s = 70`` and returned clamped gathers); for-iree makes each a ``cf.assert``."""
    program: Program = PROGRAMS["GPT-2, embeddings to tied head"]  # exported for s <= 64
    exported = program.exported()
    vmfb = compile_for_cpu(for_iree(exported.mlir_module()))
    inside = program.inputs({"b": 2, "s": 64}, 0)
    assert_same(run(vmfb, inside), exported.call(*inside), "s=64")
    with pytest.raises(Exception, match="symbolic shape constraint s <= 64"):
        exported.call(*program.inputs({"b": 2, "s": 70}, 0))
    with pytest.raises(Exception, match="symbolic shape constraint s <= 64"):
        run(vmfb, program.inputs({"b": 2, "s": 70}, 0))
