"""Reading torch-mlir's torch dialect as it prints (`symshape.frontends.mlir.torch_module`), without torch.

The modules are torch-mlir 20261001's output, checked in (a concatenation of two dynamic
lengths), or cut down from it. They need MLIR bindings that register the torch dialect (IREE's).
"""

from __future__ import annotations

import pytest

from symshape.engine.program import TensorType
from symshape.errors import ModelError, SymshapeError
from symshape.frontends.mlir.torch_types import torch_type
from tests.paths import TESTS

# not named .mlir: tests/ir/test_parse_nojax.py parses every tests/**/*.mlir with xDSL, which has no torch dialect
INPUTS = TESTS / "torch_mlir_inputs"
CONCAT = (INPUTS / "concat.torch-mlir.txt").read_text()  # torch-mlir 20261001's output
ARGMAX = (INPUTS / "argmax.torch-mlir.txt").read_text()  # an aten op without a translator; torch bound its dim


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("!torch.vtensor<[?,8],f32>", TensorType("float32", (None, 8))),
        ("!torch.vtensor<[],si64>", TensorType("int64", ())),
        ("!torch.vtensor<[2,?,4],bf16>", TensorType("bfloat16", (2, None, 4))),
        ("!torch.vtensor<*,f32>", TensorType("float32", None)),
        ("!torch.vtensor", TensorType("unknown", None)),
        ("!torch.int", TensorType("int64", ())),
        ("!torch.float", TensorType("float64", ())),
        ("!torch.bool", TensorType("bool", ())),
        ("!torch.list<int>", TensorType("!torch.list<int>", None)),
    ],
)
def test_torch_types(text: str, expected: TensorType) -> None:
    assert torch_type(text) == expected


def test_other_dialects_types_are_not_torch_types() -> None:
    assert torch_type("tensor<?xf32>") is None


def _analyze(text: str) -> object:
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    return analyze_mlir_text(text)


def _dims(text: str, name: str) -> list[str]:
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    analysis = analyze_mlir_text(text)
    assert not analysis.unresolved
    return [str(d) for d in analysis.shape(name) or ()]


@pytest.mark.needs_iree
def test_concat_of_two_dynamic_lengths() -> None:
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    analysis = analyze_mlir_text(CONCAT)
    assert [str(d) for d in analysis.shape("@main:%3") or ()] == ["s52 + s97", "8"]
    assert [str(d) for d in analysis.shape("@main:%5") or ()] == ["s52 + s97 - 1", "8"]
    assert analysis.symbols()["s97"]["range"][:2] == [1, 100]
    assert not analysis.unresolved


@pytest.mark.needs_iree
def test_without_binds_the_translators_give_the_dims() -> None:
    text = "\n".join(line for line in CONCAT.splitlines() if "bind_symbolic_shape %arg" in line
                     or "bind_symbolic_shape" not in line)
    assert "bind_symbolic_shape %5" not in text
    assert _dims(text, "@main:%5") == ["s52 + s97 - 1", "8"]  # s97 >= 1: the slice never clamps


@pytest.mark.needs_iree
def test_a_bind_gives_the_dim_of_an_op_without_a_rule() -> None:
    assert _dims(ARGMAX, "@main:%1") == ["2*s0"]


@pytest.mark.needs_iree
def test_a_bind_that_contradicts_the_rules_is_an_error() -> None:
    old = "(s0 + s1 - 1, 8)> : !torch.vtensor<[?,8],f32>\n    %5"
    bad = CONCAT.replace(old, old.replace(" - 1", ""))
    assert bad != CONCAT
    with pytest.raises(SymshapeError, match="must equal the dim torch bound"):
        _analyze(bad)


@pytest.mark.needs_iree
def test_unparseable_torch_module_is_one_line() -> None:
    text = CONCAT.replace("torch.aten.mul.Scalar %4, %int2 :", "torch.aten.mul.Scalar %4, %int2")
    with pytest.raises(ModelError, match=r"^the torch-mlir module: MLIR cannot parse it: line \d+, column \d+") as err:
        _analyze(text)
    assert "\n" not in str(err.value)


def test_no_bindings_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from symshape.frontends.mlir import torch_module

    monkeypatch.setattr(torch_module, "torch_bindings", lambda: None)
    with pytest.raises(ModelError, match="pip install iree-base-compiler"):
        _analyze(CONCAT)


@pytest.mark.needs_torch_mlir
def test_torch_mlir_own_bindings_read_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYMSHAPE_MLIR_BINDINGS", "torch_mlir")
    assert _dims(CONCAT, "@main:%5") == ["s52 + s97 - 1", "8"]
