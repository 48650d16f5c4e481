"""The shape idioms torch-mlir, onnx-mlir and MLIR's own expansions print with ``arith`` and
``tensor`` ops (and their StableHLO twins), hand-written, each checked by plain Python integer
evaluation of what the program computes at several sizes (the oracle is the MLIR semantics
written out by hand, not the rules): a floor division expanded into divsi/muli/cmpi/select, a
clamp spelled cmpi + select, "-1 keeps the dim", a division by a dim (which must be non-zero
for the program to run), and shape vectors with one unknown element that keep the others.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from symshape.algebra.expr import Dim, evaluate
from symshape.engine.result import Analysis
from symshape.frontends.mlir.frontend import analyze_mlir_text

Env = dict[str, int]
Oracle = Callable[[Env], tuple[int | None, ...]]  # None: a dim no formula over the inputs gives
SIZES = (0, 1, 2, 3, 5, 8)

DIMS = """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>"""


def module(args: str, body: str, result: str) -> str:
    return f"func.func @f({args}) -> {result} {{{body}\n  return %r : {result}\n}}"


def envs(names: list[str], least: int = 0, keep: Callable[[Env], bool] = lambda e: True) -> list[Env]:
    combos = (dict(zip(names, c, strict=True)) for c in itertools.product(SIZES, repeat=len(names)))
    return [e for e in combos if all(v >= least for v in e.values()) and keep(e)]


def dims_at(analysis: Analysis, value: str, env: Env) -> tuple[int | None, ...]:
    """symshape's dims of ``value`` at ``env`` (None where a dim is over other symbols)."""
    out: list[int | None] = []
    for d in analysis.shape(f"@f:%{value}") or ():
        try:
            out.append(evaluate(d, env))
        except KeyError:
            out.append(None)
    return tuple(out)


def floor_div(a: int, b: int) -> int:
    """Python's ``//``: the oracle for the expanded floor division."""
    return a // b


# ------------------------------------------------------------------ rows

FLOORDIVSI_EXPANDED = module("%x: tensor<?x?xf32>", DIMS + """
  %a = arith.subi %d0, %d1 : index
  %q = arith.divsi %a, %c3 : index
  %p = arith.muli %q, %c3 : index
  %inexact = arith.cmpi ne, %a, %p : index
  %an = arith.cmpi slt, %a, %c0 : index
  %bn = arith.cmpi slt, %c3, %c0 : index
  %signs = arith.cmpi ne, %an, %bn : i1
  %cond = arith.andi %inexact, %signs : i1
  %m = arith.subi %q, %c1 : index
  %f = arith.select %cond, %m, %q : index
  %n = arith.addi %f, %d1 : index
  %r = tensor.empty(%n) : tensor<?xf32>""", "tensor<?xf32>")

JAX_FLOOR_DIVIDE_AND_REMAINDER_INLINE = module("%x: tensor<?xf32>", """
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %a = stablehlo.subtract %n, %c2 : tensor<i32>
  %q = stablehlo.divide %a, %c3 : tensor<i32>
  %sa = stablehlo.sign %a : tensor<i32>
  %sb = stablehlo.sign %c3 : tensor<i32>
  %signs = stablehlo.compare NE, %sa, %sb, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %rq = stablehlo.remainder %a, %c3 : tensor<i32>
  %inexact = stablehlo.compare NE, %rq, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %cq = stablehlo.and %signs, %inexact : tensor<i1>
  %qm = stablehlo.subtract %q, %c1 : tensor<i32>
  %fq = stablehlo.select %cq, %qm, %q : tensor<i1>, tensor<i32>
  %r0 = stablehlo.remainder %a, %c3 : tensor<i32>
  %nz = stablehlo.compare NE, %r0, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %rneg = stablehlo.compare LT, %r0, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %bneg = stablehlo.compare LT, %c3, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %differ = stablehlo.compare NE, %rneg, %bneg, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %cm = stablehlo.and %differ, %nz : tensor<i1>
  %up = stablehlo.add %r0, %c3 : tensor<i32>
  %fm = stablehlo.select %cm, %up, %r0 : tensor<i1>, tensor<i32>
  %size = stablehlo.add %fq, %n : tensor<i32>
  %s0 = stablehlo.reshape %size : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %fm : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %s0, %s1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.dynamic_broadcast_in_dim %zero, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>""",
                                               "tensor<?x?xf32>")

CLAMP_BY_SELECT = module("%x: tensor<?x?xf32>", DIMS + """
  %end = arith.addi %d1, %c2 : index
  %lt = arith.cmpi slt, %end, %d0 : index
  %e = arith.select %lt, %end, %d0 : index
  %gt = arith.cmpi sgt, %d1, %c3 : index
  %g = arith.select %gt, %d1, %c3 : index
  %le = arith.cmpi sle, %d0, %d1 : index
  %h = arith.select %le, %d1, %d0 : index
  %r = tensor.empty(%e, %g, %h) : tensor<?x?x?xf32>""", "tensor<?x?x?xf32>")

KEEP_DIM = module("%x: tensor<?x?xf32>, %y: tensor<?x4xf32>", DIMS + """
  %cm1 = arith.constant -1 : i64
  %target = arith.constant dense<[-1, 4]> : tensor<2xi64>
  %t0 = tensor.extract %target[%c0] : tensor<2xi64>
  %t1 = tensor.extract %target[%c1] : tensor<2xi64>
  %y0 = tensor.dim %y, %c0 : tensor<?x4xf32>
  %y0i = arith.index_cast %y0 : index to i64
  %d1i = arith.index_cast %d1 : index to i64
  %m0 = arith.cmpi eq, %t0, %cm1 : i64
  %s0 = arith.select %m0, %y0i, %t0 : i64
  %m1 = arith.cmpi eq, %d1i, %cm1 : i64
  %s1 = arith.select %m1, %y0i, %d1i : i64
  %shape = tensor.from_elements %s0, %s1, %t1 : tensor<3xi64>
  %r = stablehlo.dynamic_broadcast_in_dim %y, %shape, dims = [0, 2]
       : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>""",
                  "tensor<?x?x?xf32>")

DIVIDE_BY_A_DIM = module("%x: tensor<?x?xf32>", DIMS + """
  %n = arith.muli %d0, %d1 : index
  %q = arith.divui %n, %d1 : index
  %k = arith.remui %n, %d1 : index
  %s = arith.divsi %n, %d0 : index
  %c = arith.ceildivsi %d1, %c2 : index
  %w = arith.addi %k, %c : index
  %r = tensor.empty(%q, %s, %w) : tensor<?x?x?xf32>""", "tensor<?x?x?xf32>")

PARTLY_KNOWN_FROM_ELEMENTS = module("%x: tensor<?x?xf32>, %data: tensor<2xi64>", DIMS + """
  %c4 = arith.constant 4 : index
  %u = tensor.extract %data[%c0] : tensor<2xi64>
  %ui = arith.index_cast %u : i64 to index
  %shape = tensor.from_elements %c4, %ui, %d0 : tensor<3xindex>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<?x?xf32>, tensor<3xindex>) -> tensor<?x?x?xf32>""",
                                    "tensor<?x?x?xf32>")

PARTLY_KNOWN_CONCATENATE = module("%x: tensor<?x?xf32>, %data: tensor<1xi32>", """
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %data, %c4, dim = 0
       : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>""",
                                  "tensor<?x?x?xf32>")

SLICE_WITH_ONE_UNKNOWN_START = module("%x: tensor<?x?xf32>, %data: tensor<1xi32>", """
  %zero = stablehlo.constant dense<0> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %ones = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %start = stablehlo.concatenate %data, %zero, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %size = stablehlo.concatenate %two, %n1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %limit = stablehlo.add %start, %size : tensor<2xi32>
  %r = stablehlo.real_dynamic_slice %x, %start, %limit, %ones
       : (tensor<?x?xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>""",
                                      "tensor<?x?xf32>")

CONV_WITH_ONE_UNKNOWN_PADDING = module("%x: tensor<1x3x?x?xf32>, %w: tensor<8x3x3x3xf32>, %data: tensor<1xi32>", """
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %zeros = stablehlo.constant dense<0> : tensor<2xi32>
  %flat = stablehlo.concatenate %data, %one, %zeros, dim = 0
       : (tensor<1xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<4xi32>
  %pad = stablehlo.reshape %flat : (tensor<4xi32>) -> tensor<2x2xi32>
  %r = "stablehlo.dynamic_conv"(%x, %w, %pad) {
       dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>,
       window_strides = array<i64: 1, 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}
       : (tensor<1x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<2x2xi32>) -> tensor<1x8x?x?xf32>""", "tensor<1x8x?x?xf32>")

CONCATENATE_REFINED = module("%a: tensor<?x8xf32>, %b: tensor<?x12xf32>", """
  %r = stablehlo.concatenate %a, %b, dim = 1 : (tensor<?x8xf32>, tensor<?x12xf32>) -> tensor<?x?xf32>""",
                             "tensor<?x?xf32>")

ROWS: list[tuple[str, str, list[Env], Oracle]] = [
    ("floordivsi_expanded_by_mlir", FLOORDIVSI_EXPANDED, envs(["x_d0", "x_d1"]),
     lambda e: (floor_div(e["x_d0"] - e["x_d1"], 3) + e["x_d1"],)),
    ("jax_floor_divide_and_remainder_inline", JAX_FLOOR_DIVIDE_AND_REMAINDER_INLINE, envs(["x_d0"], least=1),
     lambda e: (floor_div(e["x_d0"] - 2, 3) + e["x_d0"], (e["x_d0"] - 2) % 3)),
    ("clamp_spelled_cmpi_select", CLAMP_BY_SELECT, envs(["x_d0", "x_d1"]),
     lambda e: (min(e["x_d1"] + 2, e["x_d0"]), max(e["x_d1"], 3), max(e["x_d0"], e["x_d1"]))),
    ("minus_one_keeps_the_dim", KEEP_DIM, envs(["x_d1", "y_d0"]), lambda e: (e["y_d0"], e["x_d1"], 4)),
    ("divide_by_a_dim", DIVIDE_BY_A_DIM, envs(["x_d0", "x_d1"], least=1),
     lambda e: (e["x_d0"], e["x_d1"], -(-e["x_d1"] // 2))),
    ("from_elements_with_one_unknown", PARTLY_KNOWN_FROM_ELEMENTS, envs(["x_d0"]), lambda e: (4, None, e["x_d0"])),
    ("concatenate_with_one_unknown", PARTLY_KNOWN_CONCATENATE, envs(["x_d0"]), lambda e: (e["x_d0"], None, 4)),
    ("real_dynamic_slice_one_unknown_start", SLICE_WITH_ONE_UNKNOWN_START, envs(["x_d1"]),
     lambda e: (2, e["x_d1"])),
    ("dynamic_conv_with_one_unknown_padding", CONV_WITH_ONE_UNKNOWN_PADDING, envs(["x_d3"]),
     lambda e: (1, 8, None, max((e["x_d3"] - 3) // 2 + 1, 0))),
    ("concatenate_refines_its_static_sum", CONCATENATE_REFINED, envs(["a_d0"]), lambda e: (e["a_d0"], 20)),
]


@pytest.mark.parametrize(("text", "sizes", "oracle"), [pytest.param(t, s, o, id=n) for n, t, s, o in ROWS])
def test_idiom_dims_match_integer_evaluation(text: str, sizes: list[Env], oracle: Oracle) -> None:
    analysis = analyze_mlir_text(text)
    assert sizes
    for env in sizes:
        assert dims_at(analysis, "r", env) == oracle(env), env
    assert not analysis.guards()


def _public(analysis: Analysis, value: str) -> list[Dim]:
    return list(analysis.shape(f"@f:%{value}") or ())


def test_the_expanded_floordivsi_is_one_floor_term() -> None:
    """The select folds to ``floor((d0 - d1) / 3)`` itself, not a piecewise stand-in."""
    analysis = analyze_mlir_text(FLOORDIVSI_EXPANDED)
    assert [str(d) for d in _public(analysis, "r")] == ["x_d1 + floor((x_d0 - x_d1)/3)"]


def test_a_divisor_that_is_a_dim_is_a_fact_not_an_unknown() -> None:
    """``divui n, d1`` runs only when ``d1 != 0``: ``d1 >= 1`` is recorded as a fact (in the
    symbol's range), and ``n / d1`` is ``d0`` exactly."""
    analysis = analyze_mlir_text(DIVIDE_BY_A_DIM)
    assert analysis.symbols()["x_d1"]["range"][0] == 1
    assert analysis.symbols()["x_d0"]["range"][0] == 1  # divsi by d0
    assert [str(d) for d in _public(analysis, "r")][:2] == ["x_d0", "x_d1"]
    assert analysis.elements("@f:%k") == (0,)


def test_one_unknown_element_leaves_the_others_exact() -> None:
    """Only the unknown element is a fresh symbol; the known ones are the inputs' dims, and the
    unknown one is listed as unresolved (not a silent guess)."""
    analysis = analyze_mlir_text(PARTLY_KNOWN_FROM_ELEMENTS)
    dims = _public(analysis, "r")
    assert dims[0] == 4 and str(dims[2]) == "x_d0"
    assert {(u.value, u.axis) for u in analysis.unresolved} == {("@f:%r", 1)}


def test_a_select_whose_condition_is_unknown_but_branches_equal() -> None:
    """``select(c, v, v)`` is ``v`` whatever ``c`` is (a data-dependent condition)."""
    text = module("%x: tensor<?x?xf32>, %flag: tensor<i1>", DIMS + """
  %c = tensor.extract %flag[] : tensor<i1>
  %s = arith.addi %d0, %c1 : index
  %t = arith.addi %c1, %d0 : index
  %v = arith.select %c, %s, %t : index
  %r = tensor.empty(%v) : tensor<?xf32>""", "tensor<?xf32>")
    analysis = analyze_mlir_text(text)
    for env in envs(["x_d0"]):
        assert dims_at(analysis, "r", env) == (env["x_d0"] + 1,)


def test_an_unknown_condition_between_unrelated_values_stays_unknown() -> None:
    """Soundness: ``select(c, d0, d1)`` with a data-dependent ``c`` is neither branch."""
    text = module("%x: tensor<?x?xf32>, %flag: tensor<i1>", DIMS + """
  %c = tensor.extract %flag[] : tensor<i1>
  %v = arith.select %c, %d0, %d1 : index
  %r = tensor.empty(%v) : tensor<?xf32>""", "tensor<?xf32>")
    analysis = analyze_mlir_text(text)
    assert dims_at(analysis, "r", {"x_d0": 2, "x_d1": 3}) == (None,)
    assert {(u.value, u.axis) for u in analysis.unresolved} == {("@f:%r", 0)}


def test_a_sign_pattern_over_other_values_is_not_taken_for_floor_division() -> None:
    """Soundness: the correction must test the same ``a`` and ``b`` the quotient divides; a
    condition about other values leaves the select unknown."""
    text = module("%x: tensor<?x?xf32>", DIMS + """
  %a = arith.subi %d0, %d1 : index
  %q = arith.divsi %a, %c3 : index
  %b = arith.subi %d1, %d0 : index
  %p = arith.muli %q, %c3 : index
  %inexact = arith.cmpi ne, %b, %p : index
  %an = arith.cmpi slt, %b, %c0 : index
  %bn = arith.cmpi slt, %c3, %c0 : index
  %signs = arith.cmpi ne, %an, %bn : i1
  %cond = arith.andi %inexact, %signs : i1
  %m = arith.subi %q, %c1 : index
  %f = arith.select %cond, %m, %q : index
  %n = arith.addi %f, %d1 : index
  %r = tensor.empty(%n) : tensor<?xf32>""", "tensor<?xf32>")
    analysis = analyze_mlir_text(text)
    assert dims_at(analysis, "r", {"x_d0": 2, "x_d1": 7}) == (None,)
