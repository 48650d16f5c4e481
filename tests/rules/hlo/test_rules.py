"""MLIR op rules: table rows checked by plain integer evaluation of the spec's formula at
several sizes (the oracle is written from the StableHLO/MLIR specs, not from the rules), the
facts each op implies, and lax ops exported by jax checked against jax's own shapes."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from symshape.algebra.expr import evaluate
from symshape.errors import ContradictionError
from symshape.frontends.mlir.frontend import analyze_mlir_text

Env = dict[str, int]
SIZES = [0, 1, 2, 3, 7, 12]


def analyze_body(args: str, body: str, facts: tuple[str, ...] = ()):
    text = f"func.func @f({args}) {{\n{body}\n  return\n}}"
    return analyze_mlir_text(text, facts=facts)


def values_at(result, name: str, env: Env, *, elements: bool = False) -> tuple[int, ...]:
    got = result.elements(f"@f:%{name}") if elements else result.shape(f"@f:%{name}")
    assert got is not None, name
    return tuple(evaluate(d, env) for d in got)


def envs(names: list[str], least: int = 0) -> list[Env]:
    sizes = [s for s in SIZES if s >= least]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(sizes, repeat=len(names))][:40]


# Rows: (id, arguments, body, value, symbols, smallest size, oracle(env) -> expected dims).
SHAPE_ROWS: list[tuple[str, str, str, str, list[str], int, Callable[[Env], tuple[int, ...]]]] = [
    ("transpose", "%x: tensor<?x?x4xf32>", "%r = stablehlo.transpose %x, dims = [2, 0, 1] : "
     "(tensor<?x?x4xf32>) -> tensor<4x?x?xf32>", "r", ["x_d0", "x_d1"], 0, lambda e: (4, e["x_d0"], e["x_d1"])),
    ("concatenate", "%x: tensor<?x3xf32>, %y: tensor<?x3xf32>", "%r = stablehlo.concatenate %x, %y, %x, dim = 0 : "
     "(tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>", "r", ["x_d0", "y_d0"], 0,
     lambda e: (2 * e["x_d0"] + e["y_d0"], 3)),
    ("pad interior", "%x: tensor<?xf32>, %z: tensor<f32>", "%r = stablehlo.pad %x, %z, low = [2], high = [1], "
     "interior = [3] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>", "r", ["x_d0"], 0,
     lambda e: (2 + 1 + e["x_d0"] + 3 * max(e["x_d0"] - 1, 0),)),
    ("slice", "%x: tensor<?x9xf32>", "%r = stablehlo.slice %x [0:0, 1:8:3] : (tensor<?x9xf32>) -> tensor<0x3xf32>",
     "r", ["x_d0"], 0, lambda e: (0, 3)),
    ("dynamic_slice", "%x: tensor<?x9xf32>, %i: tensor<i32>", "%r = stablehlo.dynamic_slice %x, %i, %i, "
     "sizes = [1, 4] : (tensor<?x9xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>", "r", ["x_d0"], 1,
     lambda e: (1, 4)),
    ("reduce", "%x: tensor<?x?x5xf32>, %z: tensor<f32>", "%r = stablehlo.reduce(%x init: %z) applies stablehlo.max "
     "across dimensions = [0, 2] : (tensor<?x?x5xf32>, tensor<f32>) -> tensor<?xf32>", "r", ["x_d0", "x_d1"], 0,
     lambda e: (e["x_d1"],)),
    ("dot_general", "%x: tensor<?x?x4xf32>, %y: tensor<?x4x6xf32>", "%r = stablehlo.dot_general %x, %y, "
     "batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> "
     "tensor<?x?x6xf32>", "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], e["x_d1"], 6)),
    ("dot", "%x: tensor<?x4xf32>, %y: tensor<4xf32>", "%r = stablehlo.dot %x, %y : (tensor<?x4xf32>, "
     "tensor<4xf32>) -> tensor<?xf32>", "r", ["x_d0"], 0, lambda e: (e["x_d0"],)),
    ("einsum", "%x: tensor<?x4xf32>, %y: tensor<4x?xf32>", '%r = stablehlo.einsum %x, %y, config = "ab,bc->ca" : '
     "(tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>", "r", ["x_d0", "y_d1"], 0,
     lambda e: (e["y_d1"], e["x_d0"])),
    ("convolution stride 2 pad 1", "%x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>",
     "%r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = "
     "{stride = [2, 1], pad = [[1, 1], [0, 0]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, "
     "feature_group_count = 1 : i64} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>",
     "r", ["x_d0", "x_d2", "x_d3"], 5,
     lambda e: (e["x_d0"], 8, (e["x_d2"] + 2 - 3) // 2 + 1, (e["x_d3"] - 5) // 1 + 1)),
    ("get_dimension_size + dynamic_iota", "%x: tensor<?x2xf32>",
     "%n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>\n"
     "%s = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
     "%r = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>", "r", ["x_d0"], 0,
     lambda e: (e["x_d0"],)),
    ("real_dynamic_slice stride", "%x: tensor<?xf32>", "%c1 = arith.constant 1 : index\n"
     "%c3 = arith.constant 3 : index\n%c0 = arith.constant 0 : index\n%d = tensor.dim %x, %c0 : tensor<?xf32>\n"
     "%b = tensor.from_elements %c1 : tensor<1xindex>\n%l = tensor.from_elements %d : tensor<1xindex>\n"
     "%k = tensor.from_elements %c3 : tensor<1xindex>\n%r = \"mhlo.real_dynamic_slice\"(%x, %b, %l, %k) : "
     "(tensor<?xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>", "r", ["x_d0"], 1,
     lambda e: (-(-(e["x_d0"] - 1) // 3),)),
    ("dynamic_pad", "%x: tensor<?xf32>, %z: tensor<f32>", "%lo = arith.constant dense<[2]> : tensor<1xindex>\n"
     "%hi = arith.constant dense<[0]> : tensor<1xindex>\n%in = arith.constant dense<[1]> : tensor<1xindex>\n"
     "%r = \"mhlo.dynamic_pad\"(%x, %z, %lo, %hi, %in) : (tensor<?xf32>, tensor<f32>, tensor<1xindex>, "
     "tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>", "r", ["x_d0"], 0,
     lambda e: (2 + e["x_d0"] + max(e["x_d0"] - 1, 0),)),
    ("gather rows", "%x: tensor<?x5xf32>, %i: tensor<?x1xi32>", '%r = "stablehlo.gather"(%x, %i) '
     "{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
     "index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>} : (tensor<?x5xf32>, tensor<?x1xi32>) -> "
     "tensor<?x5xf32>", "r", ["x_d0", "i_d0"], 1, lambda e: (e["i_d0"], 5)),
    ("broadcast", "%x: tensor<?xf32>", "%r = stablehlo.broadcast %x, sizes = [2, 3] : (tensor<?xf32>) -> "
     "tensor<2x3x?xf32>", "r", ["x_d0"], 0, lambda e: (2, 3, e["x_d0"])),
    ("tensor.empty", "%x: tensor<?x?xf32>", "%c1 = arith.constant 1 : index\n%d = tensor.dim %x, %c1 : "
     "tensor<?x?xf32>\n%r = tensor.empty(%d) : tensor<4x?xf32>", "r", ["x_d0", "x_d1"], 0, lambda e: (4, e["x_d1"])),
    ("collapse_shape", "%x: tensor<?x?x3xf32>", "%r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x3xf32> "
     "into tensor<?x3xf32>", "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"] * e["x_d1"], 3)),
]


@pytest.mark.parametrize(("args", "body", "value", "names", "least", "oracle"), [r[1:] for r in SHAPE_ROWS],
                         ids=[r[0] for r in SHAPE_ROWS])
def test_shape_rule_matches_the_spec(args: str, body: str, value: str, names: list[str], least: int,
                                     oracle: Callable[[Env], tuple[int, ...]]) -> None:
    result = analyze_body(args, body)
    assert not result.warnings, result.warnings
    for env in envs(names, least):
        assert values_at(result, value, env) == oracle(env), env


def _c_rem(a: int, b: int) -> int:
    return a - b * int(a / b)


# Scalar arithmetic on index values: the MLIR arith semantics, evaluated in Python.
ARITH_ROWS = [
    ("addi", lambda a, b: a + b), ("subi", lambda a, b: a - b), ("muli", lambda a, b: a * b),
    ("divsi", lambda a, b: int(a / b)), ("floordivsi", lambda a, b: a // b), ("ceildivsi", lambda a, b: -(-a // b)),
    ("remsi", _c_rem), ("maxsi", max), ("minsi", min),
]


@pytest.mark.parametrize(("op", "oracle"), ARITH_ROWS, ids=[r[0] for r in ARITH_ROWS])
def test_arith_on_dims(op: str, oracle: Callable[[int, int], int]) -> None:
    result = analyze_body(
        "%x: tensor<?x?xf32>",
        f"%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
        f"%a = tensor.dim %x, %c0 : tensor<?x?xf32>\n%b = tensor.dim %x, %c1 : tensor<?x?xf32>\n"
        f"%r = arith.{op} %a, %b : index",
        facts=("x_d1 >= 1",),
    )
    assert result.elements("@f:%r") is not None
    for env in envs(["x_d0", "x_d1"], 1):
        assert values_at(result, "r", env, elements=True) == (oracle(env["x_d0"], env["x_d1"]),), env


def test_shape_dialect_extents() -> None:
    result = analyze_body(
        "%x: tensor<?x1x5xf32>, %y: tensor<?x5xf32>",
        "%sx = shape.shape_of %x : tensor<?x1x5xf32> -> tensor<3xindex>\n"
        "%sy = shape.shape_of %y : tensor<?x5xf32> -> tensor<2xindex>\n"
        "%b = shape.broadcast %sx, %sy : tensor<3xindex>, tensor<2xindex> -> tensor<3xindex>\n"
        "%c2 = arith.constant 2 : index\n"
        "%e = shape.get_extent %b, %c2 : tensor<3xindex>, index -> index\n"
        "%n = shape.num_elements %sx : tensor<3xindex> -> index\n"
        "%k = shape.const_shape [7, 1] : tensor<2xindex>",
    )
    for env in envs(["x_d0", "y_d0"], 2):
        assert values_at(result, "b", env, elements=True) == (env["x_d0"], env["y_d0"], 5)
        assert values_at(result, "n", env, elements=True) == (5 * env["x_d0"],)
    assert result.elements("@f:%e") == (5,)
    assert result.elements("@f:%k") == (7, 1)


def test_broadcast_never_merges_a_dim_that_may_be_1() -> None:
    body = ("%r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<?xf32>) -> tensor<3x?xf32>\n"
            "%s = stablehlo.add %r, %r : tensor<3x?xf32>")
    result = analyze_body("%x: tensor<?xf32>", body)
    assert result.same_dim(("@f:%r", 1), ("@f:%x", 0)) is None
    proven = analyze_body("%x: tensor<?xf32>", body, facts=("x_d0 >= 2",))
    assert proven.same_dim(("@f:%r", 1), ("@f:%x", 0)) is True


def test_dynamic_broadcast_facts() -> None:
    result = analyze_body(
        "%x: tensor<?x4xf32>, %y: tensor<?x?xf32>",
        "%s = shape.shape_of %y : tensor<?x?xf32> -> tensor<2xindex>\n"
        '%r = "mhlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>, '
        "known_nonexpanding_dimensions = dense<[0]> : tensor<1xi64>} : (tensor<?x4xf32>, tensor<2xindex>) -> "
        "tensor<?x?xf32>",
    )
    assert result.same_dim(("@f:%r", 0), ("@f:%x", 0)) is True  # known non-expanding
    assert result.shape("@f:%y")[1] == 4  # dim 1 of x is 4 (not 1): the output dim equals it
    assert result.same_shape("@f:%r", "@f:%y") is True


def test_elementwise_operands_must_agree() -> None:
    with pytest.raises(ContradictionError, match="elementwise operands"):
        analyze_body("%x: tensor<3xf32>, %y: tensor<4xf32>",
                     '%r = "stablehlo.add"(%x, %y) : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>')


def test_shape_assertion_condition_is_a_fact() -> None:
    result = analyze_body(
        "%x: tensor<?xf32>, %y: tensor<?xf32>",
        "%a = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
        "%b = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
        "%c = stablehlo.constant dense<3> : tensor<i32>\n"
        "%eq = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        '%ge = stablehlo.compare GE, %a, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n'
        'stablehlo.custom_call @shape_assertion(%eq, %a) {error_message = "x and y differ"} : '
        "(tensor<i1>, tensor<i32>) -> ()\n"
        'stablehlo.custom_call @shape_assertion(%ge, %a) {error_message = "x too short"} : '
        "(tensor<i1>, tensor<i32>) -> ()",
    )
    assert result.same_dim(("@f:%x", 0), ("@f:%y", 0)) is True
    kept = next(iter(result.symbols().values()))  # x_d0 and y_d0 are one symbol now
    assert len(result.symbols()) == 1 and kept["range"][0] == 3


def test_failing_shape_assertion_is_a_contradiction() -> None:
    with pytest.raises(ContradictionError, match="always fails"):
        analyze_body(
            "%x: tensor<2xf32>",
            "%a = stablehlo.get_dimension_size %x, dim = 0 : (tensor<2xf32>) -> tensor<i32>\n"
            "%c = stablehlo.constant dense<3> : tensor<i32>\n"
            "%ge = stablehlo.compare GE, %a, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            'stablehlo.custom_call @shape_assertion(%ge) {error_message = "m"} : (tensor<i1>) -> ()',
        )


def test_while_keeps_loop_invariant_shapes_only() -> None:
    result = analyze_body(
        "%x: tensor<?xf32>, %n: tensor<i32>",
        "%r:2 = stablehlo.while(%i = %n, %a = %x) : tensor<i32>, tensor<?xf32>\n"
        " cond {\n  %c = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "  stablehlo.return %c : tensor<i1>\n } do {\n"
        "  %t = stablehlo.tanh %a : tensor<?xf32>\n  stablehlo.return %i, %t : tensor<i32>, tensor<?xf32>\n }\n"
        "%g:2 = stablehlo.while(%j = %n, %b = %x) : tensor<i32>, tensor<?xf32>\n"
        " cond {\n  %c = stablehlo.compare LT, %j, %j : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "  stablehlo.return %c : tensor<i1>\n } do {\n"
        "  %t = stablehlo.concatenate %b, %b, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>\n"
        "  stablehlo.return %j, %t : tensor<i32>, tensor<?xf32>\n }",
    )
    assert result.same_shape("@f:%r#1", "@f:%x") is True
    assert result.same_shape("@f:%g#1", "@f:%x") is None  # the body doubles it each time


# --------------------------------------------------------------------- jax as the oracle


def _lax_cases():
    import jax
    jnp, lax = jax.numpy, jax.lax
    return {
        "gather": (lambda x, i: x[i.astype(jnp.int32)], ("n, 5", "k")),
        "dynamic_slice": (lambda x: lax.dynamic_slice_in_dim(x, 1, 1, axis=0), ("n, 3",)),
        "iota": (lambda x: x + jnp.arange(x.shape[0], dtype=jnp.float32), ("n",)),
        "reduce_window": (lambda x: lax.reduce_window(x, 0.0, lax.add, (2,), (2,), "VALID"), ("n",)),
        "conv strided": (lambda x, w: lax.conv_general_dilated(x, w, (2, 2), [(1, 1), (0, 0)]),
                         ("b, 2, h, w", (4, 2, 3, 3))),
        "reshape -1": (lambda x: x.reshape(-1, 6), ("n, 2, 3",)),
        "pad negative": (lambda x: lax.pad(x, 0.0, [(1, -1, 1)]), ("n",)),
        "cumsum": (lambda x: jnp.cumsum(x, axis=0), ("n, 2",)),
        "repeat": (lambda x: jnp.repeat(x, 3, axis=0), ("n, 2",)),
        "triu": (lambda x: jnp.triu(x @ x.T), ("n, 4",)),
        "sort": (lambda x: jnp.sort(x, axis=-1), ("n, b",)),
        "scatter": (lambda x: x.at[0].set(1.0), ("n, 2",)),
        "cond": (lambda x: lax.cond(x.sum() > 0, lambda a: a * 2, lambda a: a, x), ("n",)),
        "composite erf": (lambda x: jax.scipy.special.erf(x), ("n",)),
        "floor_div slice": (lambda x: x[: x.shape[0] // 2], ("n",)),
        "maxpool": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
                    ("b, h, w, 3",)),
        "split 2*b": (lambda x: jnp.split(x, 2, axis=0)[1], ("2*b, 3",)),
    }


@pytest.mark.needs_jax
@pytest.mark.parametrize("name", ["gather", "dynamic_slice", "iota", "reduce_window", "conv strided", "reshape -1",
                                  "pad negative", "cumsum", "repeat", "triu", "sort", "scatter", "cond",
                                  "composite erf", "floor_div slice", "maxpool", "split 2*b"])
def test_lax_op_matches_jax(name: str) -> None:
    import jax
    import numpy as np
    from jax import export

    from symshape.algebra.parse import parse_dim

    fn, specs = _lax_cases()[name]
    scope = export.SymbolicScope()
    shapes = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope) if isinstance(s, str) else s, np.float32)
              for s in specs]
    result = analyze_mlir_text(export.export(jax.jit(fn))(*shapes).mlir_module())
    (out,) = [o for o in result.program.outputs if o.startswith("@main:")]
    for env in ({"n": 1, "k": 1, "b": 1, "h": 3, "w": 3}, {"n": 6, "k": 4, "b": 2, "h": 8, "w": 5},
                {"n": 9, "k": 2, "b": 3, "h": 5, "w": 12}):
        args = [np.ones(s if isinstance(s, tuple) else tuple(evaluate(parse_dim(d), env) for d in s.split(",")),
                        np.float32) for s in specs]
        want = jax.eval_shape(fn, *args).shape
        assert tuple(evaluate(d, env) for d in result.shape(out)) == want, (name, env, result.shape(out))


def test_unsigned_arith_is_only_evaluated_on_values_proven_non_negative() -> None:
    """-1 is 2**64 - 1 unsigned: ult/maxui/divui on it must not be folded as signed."""
    r = analyze_mlir_text(
        """func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  %c5 = arith.constant 5 : index
  %lt = arith.cmpi ult, %m1, %c5 : index
  %mx = arith.maxui %m1, %c5 : index
  %dv = arith.divui %m1, %c5 : index
  %ok = arith.maxui %c0, %c5 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %s = arith.select %lt, %n, %c5 : index
  %e = tensor.empty(%s) : tensor<?xf32>
  return %e : tensor<?xf32>
}"""
    )
    assert r.elements("@main:%lt") is None
    assert r.elements("@main:%mx") is None
    assert r.elements("@main:%dv") is None
    assert r.elements("@main:%ok") == (5,)
    assert r.shape("@main:%e") != (r.shape("@main:%x") or ())[:1]  # not claimed to be x's dim


@pytest.mark.needs_jax
@pytest.mark.parametrize("case", ["reduce_window", "convolution"])
def test_lhs_dilation_of_an_empty_dim_is_empty(case: str) -> None:
    """Base/lhs dilation of a dim of size 0 is 0, not 1 (checked against jax.eval_shape)."""
    import jax
    from jax import export, lax

    if case == "reduce_window":
        def fn(x):  # noqa: ANN001, ANN202
            return lax.reduce_window(x[1:], 0.0, lax.add, (1, 1), (1, 1), [(0, 0), (0, 0)], base_dilation=(3, 1))
        specs = [jax.ShapeDtypeStruct(export.symbolic_shape("b, s"), "float32")]
        shapes = [lambda b, s: (b, s)]
    else:
        def fn(x, w):  # noqa: ANN001, ANN202
            return lax.conv_general_dilated(x[:, :, 1:], w, (1,), [(0, 0)], lhs_dilation=(2,))
        specs = [jax.ShapeDtypeStruct(export.symbolic_shape("b, 3, s"), "float32"),
                 jax.ShapeDtypeStruct((4, 3, 1), "float32")]
        shapes = [lambda b, s: (b, 3, s), lambda b, s: (4, 3, 1)]
    result = analyze_mlir_text(export.export(jax.jit(fn))(*specs).mlir_module())
    out = next(o for o in result.program.outputs if o.startswith("@main:"))
    for b, s in itertools.product((1, 2, 5), (1, 2, 7)):
        env = {"b": b, "s": s}
        concrete = [jax.ShapeDtypeStruct(f(b, s), "float32") for f in shapes]
        expected = jax.eval_shape(fn, *concrete).shape
        assert tuple(evaluate(d, env) for d in result.shape(out)) == expected, env
