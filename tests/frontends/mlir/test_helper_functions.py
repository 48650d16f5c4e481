"""A private function called from several places (jax makes one of ``jnp.remainder`` and
``jnp.clip``) is analyzed at each call, in its caller's dims: its arguments are not inputs of
the program, so ``analyze`` lists and ``check`` asks for the entry function's arguments only.
Where a call is not expanded (the clone budget), the function keeps its own analysis and its
arguments stay inputs, so nothing is dropped silently.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import symshape.frontends.mlir.program_builder as program_builder
from symshape.api import analyze_file, check_shapes
from symshape.frontends.mlir.frontend import analyze_mlir_text

# @twice is called with %a (n) and with %b (m x 3, collapsed): each call has its own dims.
TWO_CALLS = """
func.func private @twice(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %x, %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func public @main(%a: tensor<?xf32>, %b: tensor<?x3xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %m = stablehlo.get_dimension_size %b, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %n = stablehlo.multiply %m1, %c3 : tensor<1xi32>
  %flat = stablehlo.dynamic_reshape %b, %n : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<?xf32>
  %0 = func.call @twice(%a) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = func.call @twice(%flat) : (tensor<?xf32>) -> tensor<?xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
"""


def _dims(text: str, name: str) -> list[str]:
    shape = analyze_mlir_text(text).shape(name)
    assert shape is not None, name
    return [str(d) for d in shape]


def test_the_inputs_are_the_entry_functions_arguments() -> None:
    analysis = analyze_mlir_text(TWO_CALLS)
    assert analysis.program.inputs == ["@main:%a", "@main:%b"]
    assert not any(s.startswith("x_") for s in analysis.symbols()), analysis.symbols()


def test_each_call_has_its_callers_dims() -> None:
    """By MLIR's semantics: add keeps its operand's shape, concatenate adds the lengths."""
    assert _dims(TWO_CALLS, "@main:%0") == ["a_d0"]
    assert _dims(TWO_CALLS, "@main:%1") == ["3*b_d0"]
    assert _dims(TWO_CALLS, "@main:%2") == ["a_d0 + 3*b_d0"]


def test_a_call_not_expanded_keeps_the_function_and_its_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(program_builder, "MAX_CALL_OPS", 0)
    analysis = analyze_mlir_text(TWO_CALLS)
    assert "@twice:%x" in analysis.program.inputs
    assert analysis.shape("@twice:%0") is not None


@pytest.mark.needs_jax
def test_check_of_a_jax_export_asks_only_for_its_arguments(tmp_path: Path) -> None:
    """``jnp.remainder`` and ``jnp.clip`` called twice: jax's own run (``Exported.call``) is the
    oracle for the output shapes at sizes it accepts, and for a size it refuses."""
    import jax
    import jax.numpy as jnp
    from jax import export

    def fn(x: jax.Array, y: jax.Array) -> tuple[jax.Array, ...]:
        return jnp.remainder(x, 3.0), jnp.remainder(y, 5.0), jnp.clip(x, 0, 1), jnp.clip(y, -1, 2)

    b, s = export.symbolic_shape("b, s")
    exported = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b, s), jnp.float32),
                                          jax.ShapeDtypeStruct((b, s), jnp.float32))
    text = exported.mlir_module()
    assert text.count("call @remainder(") == 2 and text.count("call @clip(") == 2, "jax no longer shares them"
    path = tmp_path / "helpers.mlir"
    path.write_text(text)
    analysis = analyze_file(path)
    assert analysis.program.inputs == ["@main:%arg0", "@main:%arg1"]
    rng = np.random.default_rng(0)
    for rows, cols in [(1, 1), (2, 5), (3, 8)]:
        x = rng.standard_normal((rows, cols), dtype=np.float32)
        y = rng.standard_normal((rows, cols), dtype=np.float32)
        ran = [tuple(out.shape) for out in exported.call(x, y)]
        result = check_shapes(analysis, {"@main:%arg0": x.shape, "@main:%arg1": y.shape})
        assert result.ok, result.text()
        assert [result.outputs[n] for n in analysis.program.outputs] == ran
    refused = check_shapes(analysis, {"@main:%arg0": (2, 3), "@main:%arg1": (2, 4)})
    assert not refused.ok
    with pytest.raises(Exception, match="shape"):
        exported.call(np.zeros((2, 3), np.float32), np.zeros((2, 4), np.float32))
