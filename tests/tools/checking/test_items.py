"""`symshape.tools.checking` on hand-built models: one model per kind of requirement (binding, range,
divisor, kept predicate, user fact, guard), checked at sizes that keep it and sizes that break it.
onnxruntime is the oracle where the model can run: it refuses the breaking sizes and runs the
others with the output shapes the check prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx, check_shapes
from symshape.errors import UserFactError
from symshape.tools.checking import CheckResult, check_symbols
from symshape.tools.checking import check_shapes as check_shapes_unpinned
from symshape.tools.verify.run import attempt
from tests.oracle import array, const, make_model, rand, tensor, weight

N = helper.make_node


def _matmul() -> onnx.ModelProto:
    """``x[n, k] @ w[4, 3]``: the analysis binds ``k := 4``."""
    return make_model([N("MatMul", ["x", "w"], ["y"])], [tensor("x", ["n", "k"])], ["y"], [weight("w", [4, 3])])


def _conv() -> onnx.ModelProto:
    """A 1-d convolution with a window of 3: ``n >= 3``."""
    return make_model([N("Conv", ["x", "w"], ["y"])], [tensor("x", [1, 1, "n"])], ["y"], [weight("w", [1, 1, 3])])


def _reshape(dims: Sequence[str]) -> onnx.ModelProto:
    """``x`` reshaped to ``[-1, 4]``: ``4 | n`` (one dim) or ``Mod(a*b, 4) == 0`` (two)."""
    return make_model([N("Reshape", ["x", "s"], ["y"])], [tensor("x", list(dims))], ["y"], [const("s", [-1, 4])])


def _float_range() -> onnx.ModelProto:
    """``Range(0.0, float(n), 1.0)``: the count is exact in float32 only up to 2**24, a guard."""
    nodes = [
        N("Shape", ["x"], ["sh"]),
        N("Gather", ["sh", "zero"], ["n_i"], axis=0),
        N("Cast", ["n_i"], ["n_f"], to=TensorProto.FLOAT),
        N("Range", ["start", "n_f", "delta"], ["y"]),
    ]
    inits = [const("zero", 0), array("start", np.array(0.0, np.float32)), array("delta", np.array(1.0, np.float32))]
    return make_model(nodes, [tensor("x", ["n"])], [tensor("y", None)], inits)


def _run(model: onnx.ModelProto, shapes: Mapping[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]] | str:
    observed = attempt(model, {name: rand(*shape) for name, shape in shapes.items()})
    return observed if isinstance(observed, str) else {k: tuple(v) for k, v in observed.items()}


def _agrees_with_ort(model: onnx.ModelProto, result: CheckResult, shapes: Mapping[str, tuple[int, ...]]) -> None:
    """onnxruntime refuses exactly when the check fails, and gives the printed output shapes."""
    observed = _run(model, shapes)
    if result.ok:
        assert not isinstance(observed, str), observed
        for name, shape in result.outputs.items():
            assert shape == observed[name], (name, shape, observed[name])
    else:
        assert isinstance(observed, str), f"onnxruntime runs {shapes} that break {result.violations}"


# ----------------------------------------------------------------------------- bindings
@pytest.mark.parametrize("k", [4, 5, 0, 1, 3])
def test_binding_to_a_constant(k: int) -> None:
    model = _matmul()
    result = check_shapes(analyze_onnx(model), {"x": (2, k)})
    assert result.ok == (k == 4)
    if k != 4:
        (v,) = result.violations
        assert (v.kind, v.condition, v.numbers) == ("binding", "k == 4", f"{k} == 4")
        assert v.origin.startswith("MatMul")
        assert "give input 'x' dim 1 the size 4" in v.fix
    else:
        assert result.outputs == {"y": (2, 3)}
    _agrees_with_ort(model, result, {"x": (2, k)})


def test_binding_of_one_symbol_in_two_inputs() -> None:
    model = make_model([N("Add", ["a", "b"], ["y"])], [tensor("a", ["n", 3]), tensor("b", ["n", 3])], ["y"])
    analysis = analyze_onnx(model)
    bad = check_shapes(analysis, {"a": (2, 3), "b": (5, 3)})
    (v,) = bad.violations
    assert (v.kind, v.numbers, v.origin) == ("binding", "5 == 2", "both are 'n'")
    assert "input 'b' dim 0" in v.condition and "input 'a' dim 0" in v.condition
    static = check_shapes(analysis, {"a": (2, 3), "b": (2, 4)})
    assert [(v.kind, v.numbers) for v in static.violations] == [("shape", "4 == 3")]
    good = check_shapes(analysis, {"a": (0, 3), "b": (0, 3)})
    assert good.ok and good.outputs == {"y": (0, 3)}
    _agrees_with_ort(model, good, {"a": (0, 3), "b": (0, 3)})


def test_binding_by_symbol_value() -> None:
    analysis = analyze_onnx(_matmul())
    assert check_symbols(analysis, {"n": 3}).ok
    assert check_symbols(analysis, {"n": 3, "k": 4}).outputs == {"y": (3, 3)}
    (v,) = check_symbols(analysis, {"n": 3, "k": 7}).violations
    assert (v.kind, v.condition, v.numbers) == ("binding", "k == 4", "7 == 4")


# ----------------------------------------------------------------------------- ranges and divisors
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 10])
def test_range_of_a_convolution_window(n: int) -> None:
    model = _conv()
    result = check_shapes(analyze_onnx(model), {"x": (1, 1, n)})
    assert result.ok == (n >= 3)
    if n < 3:
        (v,) = result.violations
        assert (v.kind, v.condition, v.numbers) == ("range", "n >= 3", f"{n} >= 3")
        assert v.origin.startswith("Conv")
        assert "give n (input 'x' dim 2) a size in [3, inf]" in v.fix
        assert v.origin == "Conv (node 'Conv_0')", v.origin  # found by analyzing with n pinned
        (plain,) = check_shapes_unpinned(analyze_onnx(model), {"x": (1, 1, n)}).violations  # no second analysis
        assert plain.origin == "Conv 'Conv_0' (convolution window fits)", plain.origin  # the op that set the bound
    else:
        assert result.outputs == {"y": (1, 1, n - 2)}
    _agrees_with_ort(model, result, {"x": (1, 1, n)})


@pytest.mark.parametrize("n", [0, 4, 8, 6, 1])
def test_divisor_of_a_reshape(n: int) -> None:
    model = _reshape(["n"])
    result = check_shapes(analyze_onnx(model), {"x": (n,)})
    assert result.ok == (n % 4 == 0)
    if n % 4:
        (v,) = result.violations
        assert (v.kind, v.condition, v.numbers) == ("divisor", "Mod(n, 4) == 0", f"{n} % 4 == {n % 4}")
        assert v.origin.startswith("Reshape")
        assert "a multiple of 4" in v.fix
    else:
        assert result.outputs == {"y": (n // 4, 4)}
    _agrees_with_ort(model, result, {"x": (n,)})


@pytest.mark.parametrize(("a", "b"), [(2, 2), (3, 4), (3, 3), (1, 1), (0, 5)])
def test_kept_predicate_over_two_symbols(a: int, b: int) -> None:
    model = _reshape(["a", "b"])
    analysis = analyze_onnx(model)
    result = check_shapes(analysis, {"x": (a, b)})
    assert result.ok == ((a * b) % 4 == 0)
    if not result.ok:
        (v,) = result.violations
        assert (v.kind, v.condition, v.numbers) == ("relation", "Mod(a*b, 4) == 0", f"{a * b} % 4 == {a * b % 4}")
        assert v.origin.startswith("Reshape")
    _agrees_with_ort(model, result, {"x": (a, b)})


# ----------------------------------------------------------------------------- user facts and guards
def test_user_facts() -> None:
    model = make_model([N("Add", ["a", "b"], ["y"])], [tensor("a", ["n", "m"]), tensor("b", ["n", "m"])], ["y"])
    analysis = analyze_onnx(model, facts=["n <= 10", "n + m <= 12", "m % 2 == 0"])
    assert check_shapes(analysis, {"a": (10, 2), "b": (10, 2)}).ok
    result = check_shapes(analysis, {"a": (11, 3), "b": (11, 3)})
    found = {(v.kind, v.condition, v.numbers) for v in result.violations}
    assert found == {
        ("user fact", "n <= 10", "11 <= 10"),
        ("user fact", "Mod(m, 2) == 0", "3 % 2 == 1"),
        ("user fact", "m + n <= 12", "14 <= 12"),
    }
    assert all(
        v.origin.startswith("user fact") and "drop the fact" in v.fix or "give" in v.fix for v in result.violations
    )


def test_guard() -> None:
    analysis = analyze_onnx(_float_range())
    assert [c for c, _, _ in analysis.guards()] == ["n <= 16777216"]
    assert check_symbols(analysis, {"n": 16777216}).ok
    assert check_symbols(analysis, {"n": 0}).outputs == {"y": (0,)}
    (v,) = check_symbols(analysis, {"n": 16777217}).violations
    assert (v.kind, v.condition, v.numbers) == ("guard", "n <= 16777216", "16777217 <= 16777216")
    assert v.origin.startswith("Range")
    assert "float32" in v.fix


def test_unchecked_items_name_their_symbols() -> None:
    """A NonZero count is data-dependent: a Reshape of it to [-1, 2] is not decidable from sizes."""
    nodes = [N("NonZero", ["x"], ["nz"]), N("Reshape", ["nz", "s"], ["y"])]
    model = make_model(nodes, [tensor("x", ["n"])], ["y"], [const("s", [-1, 2])])
    result = check_symbols(analyze_onnx(model), {"n": 5})
    assert result.ok
    assert [(u.condition, u.symbols) for u in result.unchecked] == [
        ("0 <= n - nonzero_0", ("nonzero_0",)),
        ("Mod(nonzero_0, 2) == 0", ("nonzero_0",)),
    ]
    assert result.outputs["y"] == ("floor(nonzero_0/2)", 2)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("shapes", "match"),
    [
        ({"z": (2, 4)}, "input 'z': the model has no input of that name"),
        ({"x": (2, 4, 1)}, "input 'x': the shape given has rank 3, expected rank 2"),
        ({"x": (2, -1)}, "input 'x': size -1 is not an integer >= 0"),
        ({"x": (2, 1.5)}, "input 'x': size 1.5 is not an integer >= 0"),
    ],
)
def test_bad_shapes(shapes: dict[str, tuple[int, ...]], match: str) -> None:
    with pytest.raises(UserFactError, match=match):
        check_shapes(analyze_onnx(_matmul()), shapes)


def test_bad_symbol_values() -> None:
    analysis = analyze_onnx(_matmul())
    with pytest.raises(UserFactError, match="symbol 'q': it is not an input symbol"):
        check_symbols(analysis, {"q": 1})
    with pytest.raises(UserFactError, match="symbol 'n': it has no value"):
        check_symbols(analysis, {"k": 4})
