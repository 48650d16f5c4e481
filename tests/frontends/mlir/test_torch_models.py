"""Models exported by torch-mlir 20261001 in its torch dialect, against torch runs.

Each model of `tests.torch_mlir_models` is exported (pretty form), analyzed, and run with torch at
three sizes: every dim of every result must be exact and no dim unknown. The same text without
torch's ``bind_symbolic_shape`` of intermediate values must give the same dims (so the aten
translators, not torch's claims, make them), and every value torch bound must have the dims
torch claims at each size.
"""

from __future__ import annotations

from typing import Any

import pytest

from symshape.algebra.expr import evaluate, free_symbols
from symshape.engine.result import Analysis

pytestmark = [pytest.mark.needs_torch_export, pytest.mark.needs_torch_mlir, pytest.mark.needs_iree]

NAMES = ["mlp", "attention", "conv_same", "conv_strided", "concat"]


def _analyze(text: str) -> Analysis:
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    return analyze_mlir_text(text)


def _env(analysis: Analysis, shapes: list[tuple[int, ...]]) -> dict[str, int]:
    """Input symbol -> its size in a run at ``shapes``."""
    env: dict[str, int] = {}
    for name, shape in zip(analysis.program.inputs, shapes, strict=True):
        dims = analysis.shape(name)
        assert dims is not None
        for d, size in zip(dims, shape, strict=True):
            if not isinstance(d, int) and len(free_symbols(d)) == 1 and str(d) in free_symbols(d):
                env[str(d)] = size
    return env


def _exact(analysis: Analysis) -> None:
    """No unknown dim: every dim of every value is in the input symbols."""
    inputs = {str(d) for n in analysis.program.inputs for d in analysis.shape(n) or () if not isinstance(d, int)}
    assert not analysis.unresolved, analysis.unresolved[:3]
    for name in analysis.program.values:
        for d in analysis.shape(name) or ():
            assert free_symbols(d) <= inputs, (name, d)


@pytest.mark.parametrize("name", NAMES)
def test_every_result_dim_is_exact(name: str) -> None:
    from tests.torch_mlir_models import MODELS, export, run, without_value_binds

    model, text = export(name)
    analysis, bare = _analyze(text), _analyze(without_value_binds(text))
    _exact(analysis)
    _exact(bare)
    compared = 0
    for shapes in MODELS[name][3]:
        env = _env(analysis, shapes)
        observed = run(model, shapes)
        assert len(observed) == len(analysis.program.outputs)
        for out, shape in zip(analysis.program.outputs, observed, strict=True):
            for which in (analysis, bare):
                dims = which.shape(out)
                assert dims is not None and len(dims) == len(shape), (out, dims, shape)
                assert [evaluate(d, env) for d in dims] == list(shape), (name, out, env, dims, shape)
                compared += len(dims)
        _bound_values_match(analysis, bare, env)
    assert compared > 0


def _bound_values_match(analysis: Analysis, bare: Analysis, env: dict[str, int]) -> None:
    """Each value torch bound has torch's dims in the analysis made without those binds."""
    from symshape.ir.torch_affine import affine_dim

    for op in analysis.program.ops:
        if op.dialect != "torch" or op.op_type != "bind_symbolic_shape":
            continue
        dims: Any = bare.shape(op.inputs[0])
        claimed = [affine_dim(t, [env[s] for s in op.attrs["symbols"]]) for t in op.attrs["shape"]]
        assert dims is not None
        assert [evaluate(d, env) for d in dims] == claimed, (op.inputs[0], dims, claimed)


def test_generic_form_reads_the_same() -> None:
    from tests.torch_mlir_models import export

    pretty, generic = _analyze(export("attention")[1]), _analyze(export("attention", generic=True)[1])
    assert len(pretty.program.outputs) == len(generic.program.outputs) == 1
    assert str(pretty.shape(pretty.program.outputs[0])) == str(generic.shape(generic.program.outputs[0]))


def test_ranges_come_from_symbolic_int() -> None:
    from tests.torch_mlir_models import export

    analysis = _analyze(export("mlp")[1])
    (name,) = analysis.program.inputs
    dims = analysis.shape(name)
    assert dims is not None and str(dims[1]) == "8"
    info = analysis.symbols()[str(dims[0])]
    assert info["range"] == [1, 1024]
