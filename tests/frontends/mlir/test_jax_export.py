"""Issue 15, classes 0 and 1: the names a module gives its arguments' dims reach the analysis,
bound to the right tensor, and every symbol is an identifier.

The MLIR below is written the way jax 0.10, torch-mlir and symshape's own constraint IR print
it (the shape-assertion messages are jax's own wording, cut to the part symshape reads). No jax
is needed here; tests/frontends/mlir/test_jax_export_models.py exports real programs with jax.
"""

from __future__ import annotations

import pytest
import sympy

from symshape.algebra.expr import Expr, evaluate
from symshape.algebra.parse import parse_dim
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Range
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.frontends.mlir.jax_export import jax_dim_text, jax_specs


def _assertion(specs: str) -> str:
    message = ("Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension "
               f"variable 'b'. Using the following polymorphic shapes specifications: {specs}. Obtained dimension "
               "variables: 'b' = {0} from specification 'b' for dimension args[0][0].shape[0] (= {0}), . Please see "
               "https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.")
    return ("    stablehlo.custom_call @shape_assertion(%ok, %d) {api_version = 2 : i32, "
            f'error_message = "{message}", has_side_effect = true}} : (tensor<i1>, tensor<i32>) -> ()\n')


def _module(args: str, specs: str, body: str, result: str) -> str:
    first = args.split(":", 1)[1].split(",")[0].split(")")[0].strip()
    return (f"func.func public @main({args}) -> {result} {{\n"
            "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
            f"    %d = stablehlo.get_dimension_size %arg0, dim = 0 : ({first}) -> tensor<i32>\n"
            "    %ok = stablehlo.compare GE, %d, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            f"{_assertion(specs)}{body}}}\n")


def _dims(result: Analysis, name: str) -> list[str]:
    shape = result.shape(name)
    assert shape is not None, name
    return [str(d) for d in shape]


def all_symbols_are_identifiers(result: Analysis) -> None:
    """Every symbol reads back through our parser and through sympy as that one symbol."""
    for name in result.symbols():
        parsed = parse_dim(name)
        assert isinstance(parsed, Expr) and parsed.free == {name}, name
        assert sympy.sympify(name) == sympy.Symbol(name), name


# ------------------------------------------------------------------ class 0: specs by flat position


PYTREE = _module(
    "%arg0: tensor<?x?x8xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x8xf32>",
    "args[0][0].shape = (b, s, 8),args[0][1].shape = (b, s),args[1].shape = (n, 8)",
    "    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [1] : "
    "(tensor<?x?x8xf32>, tensor<?x8xf32>) -> tensor<?x?x?xf32>\n"
    "    return %0 : tensor<?x?x?xf32>\n",
    "tensor<?x?x?xf32>",
)


def test_pytree_leaves_take_their_own_specification() -> None:
    """``args[1]`` is the third flat argument here, not the second; every axis is named."""
    result = analyze_mlir_text(PYTREE)
    assert _dims(result, "@main:%arg0") == ["b", "s", "8"]
    assert _dims(result, "@main:%arg1") == ["b", "s"]
    assert _dims(result, "@main:%arg2") == ["n", "8"]
    assert _dims(result, "@main:%0") == ["b", "s", "n"]
    assert not result.guards()
    assert {name: info["range"][0] for name, info in result.symbols().items()} == {"b": 1, "s": 1, "n": 1}


def test_static_leaves_have_no_specification_and_are_skipped() -> None:
    """jax quotes specifications only for leaves with a symbolic dim: the static ``(3,)`` leaf
    between two symbolic ones takes none."""
    text = _module(
        "%arg0: tensor<?x4xf32>, %arg1: tensor<3xf32>, %arg2: tensor<?xf32>",
        "args[0]['u'].shape = (b, 4),args[1].shape = (t,)",
        "    return %arg2 : tensor<?xf32>\n",
        "tensor<?xf32>",
    )
    result = analyze_mlir_text(text)
    assert _dims(result, "@main:%arg0") == ["b", "4"]
    assert _dims(result, "@main:%arg1") == ["3"]
    assert _dims(result, "@main:%arg2") == ["t"]


def test_a_compound_dim_keeps_its_structure() -> None:
    """``4*k`` is the expression 4*k over the symbol k (not a fresh symbol), and a result
    reshaped to ``(k, 4)`` follows it exactly."""
    text = _module(
        "%arg0: tensor<?x?xf32>",
        "args[0].shape = (4*k, s + 1)",
        "    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>\n"
        "    return %0 : tensor<?x?xf32>\n",
        "tensor<?x?xf32>",
    )
    result = analyze_mlir_text(text)
    k, s1 = result.shape("@main:%arg0") or ()
    assert evaluate(k, {"k": 3}) == 12 and str(k) == "4*k"
    assert evaluate(s1, {"s": 2}) == 3
    assert set(result.symbols()) == {"k", "s"}


def test_specifications_that_do_not_fit_name_nothing() -> None:
    """A specification list that does not match the arguments (a module edited after export)
    names no dim rather than the wrong one."""
    text = _module(
        "%arg0: tensor<?x?xf32>, %arg1: tensor<?xf32>",
        "args[0].shape = (b, s)",
        "    return %arg1 : tensor<?xf32>\n",
        "tensor<?xf32>",
    )
    result = analyze_mlir_text(text)
    assert _dims(result, "@main:%arg0") == ["arg0_d0", "arg0_d1"]
    assert _dims(result, "@main:%arg1") == ["arg1_d0"]


@pytest.mark.parametrize(("message", "expected"), [
    ("Using the following polymorphic shapes specifications: args[0][0].shape = (b, s, 8),args[0][1].shape = (b, s),"
     "args[1].shape = (n, 8). Obtained", [("args[0][0]", "b, s, 8"), ("args[0][1]", "b, s"), ("args[1]", "n, 8")]),
    ("Using the following polymorphic shapes specifications: args[0]['x'].shape = (b,),kwargs['w'].shape = "
     "(floordiv(b, 2), 3).", [("args[0]['x']", "b,"), ("kwargs['w']", "floordiv(b, 2), 3")]),
    ("Using the following polymorphic shapes specifications: args[0]['a key, spaced'].shape = (b, 2),"
     "args[1].params.w.shape = (4*k,).", [("args[0]['a key, spaced']", "b, 2"), ("args[1].params.w", "4*k,")]),
    ("Division had remainder {0} when computing the value of 'b'.", None),
])
def test_jax_specifications_are_read_in_order(message: str, expected: list[tuple[str, str]] | None) -> None:
    assert jax_specs(message) == expected


@pytest.mark.parametrize(("jax_text", "env", "value"), [
    ("4*k", {"k": 3}, 12),
    ("- s + b", {"s": 2, "b": 7}, 5),
    ("s + 2*b", {"s": 2, "b": 7}, 16),
    ("floordiv(b + 1, 2)", {"b": 6}, 3),
    ("mod(b, 3)", {"b": 7}, 1),
    ("max(b, s) - min(b, s)", {"b": 2, "s": 9}, 7),
    ("non_negative(b - s)", {"b": 2, "s": 9}, 0),
])
def test_jax_dim_syntax_is_translated(jax_text: str, env: dict[str, int], value: int) -> None:
    """jax's printed dim expressions in our syntax; the value checked by plain arithmetic."""
    ours = jax_dim_text(jax_text)
    assert ours is not None
    assert evaluate(parse_dim(ours), env) == value


def test_an_unknown_jax_function_is_not_translated() -> None:
    assert jax_dim_text("frobnicate(b)") is None


NO_ASSERTIONS = """
func.func public @main(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %2 = call @_wrapped_jax_export_main(%0, %1, %arg0) : (tensor<i32>, tensor<i32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"},
    %arg1: tensor<i32> {jax.global_constant = "s"}, %arg2: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %arg2 : tensor<?x?xf32>
}
"""


def test_without_assertions_the_dimension_arguments_name_every_axis() -> None:
    """Exported with shape assertions disabled: the ``jax.global_constant`` parameters name
    both axes of the argument (not only the first)."""
    result = analyze_mlir_text(NO_ASSERTIONS)
    assert _dims(result, "@main:%arg0") == ["b", "s"]
    assert _dims(result, "@main:%2") == ["b", "s"]


# ------------------------------------------------------------------ class 1: identifiers


TWO_FUNCTIONS = """
func.func @main(%arg0: tensor<?x?xf32>, %n: index) -> tensor<?x?xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @other.fn(%arg0: tensor<?x?x?xf32>, %n: index) -> tensor<?x?x?xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @main_arg0(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
"""


def test_unnamed_dims_of_several_functions_are_identifiers() -> None:
    """Arguments of the same name in two functions: each function's symbols get its name as an
    identifier prefix (``other.fn`` -> ``other_fn_``), never ``main.arg0_d1``."""
    result = analyze_mlir_text(TWO_FUNCTIONS)
    assert _dims(result, "@main:%arg0") == ["main_arg0_d0", "main_arg0_d1"]
    assert _dims(result, "@other.fn:%arg0") == ["other_fn_arg0_d0", "other_fn_arg0_d1", "other_fn_arg0_d2"]
    all_symbols_are_identifiers(result)


def test_prefixed_names_are_usable_as_facts() -> None:
    result = analyze_mlir_text(TWO_FUNCTIONS, facts=["main_arg0_d0 == 4", Range("other_fn_arg0_d2", 2, 9)])
    assert _dims(result, "@main:%0") == ["4", "main_arg0_d1"]
    assert result.symbols()["other_fn_arg0_d2"]["range"] == [2, 9]


CLASH = TWO_FUNCTIONS.split("func.func @main_arg0")[0] + """
func.func @main_arg0(%x: tensor<?xf32, [@main_arg0_d0]>) -> tensor<?xf32, [@main_arg0_d0]> {
  return %x : tensor<?xf32, [@main_arg0_d0]>
}
"""


def test_a_prefixed_name_never_clashes_with_a_declared_one() -> None:
    """``main_arg0_d0`` is a name another function declares: the prefixed one steps aside."""
    result = analyze_mlir_text(CLASH)
    assert _dims(result, "@main_arg0:%x") == ["main_arg0_d0"]
    assert _dims(result, "@main:%arg0") == ["main_arg0_d0_2", "main_arg0_d1"]
    all_symbols_are_identifiers(result)


def test_jax_export_symbols_are_identifiers() -> None:
    all_symbols_are_identifiers(analyze_mlir_text(PYTREE))


ENCODED = """
"symshape.symbolic_dim"() {sym_name = "batch", lo = 1 : i64, hi = 64 : i64} : () -> ()
"symshape.symbolic_dim"() {sym_name = "seq", divisor = 8 : i64} : () -> ()
func.func @main(%arg0: tensor<?x?xf32, [@batch, @seq]>,
                %arg1: tensor<?x4xf32, [@batch, @C4]>) -> tensor<?x?xf32, [@batch, @seq]> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x?xf32, [@batch, @seq]>
  return %0 : tensor<?x?xf32, [@batch, @seq]>
}
"""


def test_our_encodings_name_the_dims_and_carry_their_facts() -> None:
    """``[@batch, @seq]`` names both dims; ``@batch`` on two arguments is one symbol; the
    ``symshape.symbolic_dim`` facts (range, divisor) apply."""
    result = analyze_mlir_text(ENCODED)
    assert _dims(result, "@main:%arg0") == ["batch", "seq"]
    assert _dims(result, "@main:%arg1") == ["batch", "4"]
    symbols = result.symbols()
    assert symbols["batch"]["range"] == [1, 64]
    assert symbols["seq"]["divisor"] == 8
    all_symbols_are_identifiers(result)


TORCH = """
func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "torch.symbolic_int"() {symbol_name = "s0", min_val = 2 : i64, max_val = 9223372036854775806 : i64} : () -> i64
  %1 = "torch.symbolic_int"() {symbol_name = "s1", min_val = 2 : i64, max_val = 100 : i64} : () -> i64
  "torch.bind_symbolic_shape"(%arg0, %0) {shape_expressions = affine_map<()[s0] -> (s0, 4)>}
    : (tensor<?x4xf32>, i64) -> ()
  "torch.bind_symbolic_shape"(%arg1, %0, %1) {shape_expressions = affine_map<()[s0, s1] -> (s0 * 2 + s1, 4)>}
    : (tensor<?x4xf32>, i64, i64) -> ()
  %2 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
"""


def test_torch_symbolic_ints_name_the_dims() -> None:
    """torch-mlir's symbols and affine shape expressions: ``s0`` and ``2*s0 + s1``, ranges from
    ``min_val``/``max_val`` (torch's ``sys.maxsize - 1`` is unbounded), no warning for the
    two ops the frontend consumed."""
    result = analyze_mlir_text(TORCH)
    assert _dims(result, "@main:%arg0") == ["s0", "4"]
    (total, four) = result.shape("@main:%2") or ()
    assert four == 4 and evaluate(total, {"s0": 3, "s1": 5}) == 3 + 6 + 5
    symbols = result.symbols()
    assert symbols["s0"]["range"] == [2, None] and symbols["s1"]["range"] == [2, 100]
    assert not result.warnings
    all_symbols_are_identifiers(result)


def test_a_torch_binding_the_frontend_cannot_read_is_not_dropped_silently() -> None:
    """A symbol name that is not an identifier names nothing; its binding stays visible (a
    warning: no rule reads it) rather than vanishing."""
    text = TORCH.replace('symbol_name = "s1"', 'symbol_name = "s-1"')
    result = analyze_mlir_text(text)
    assert _dims(result, "@main:%arg0") == ["s0", "4"]
    assert _dims(result, "@main:%arg1") == ["arg1_d0", "4"]
    assert [w.op_type for w in result.warnings] == ["bind_symbolic_shape"]
    all_symbols_are_identifiers(result)
