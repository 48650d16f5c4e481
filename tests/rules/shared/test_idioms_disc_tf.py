"""Hand-written compiler idioms the way BladeDISC's, TensorFlow's and MLIR's lit tests write them
(issue 21): the ``-1`` resolution of a dynamic reshape target, and shape checks in the asserting
form (``cf.assert``) and as jax's ``shape_assertion``.

The modules follow these public lit tests (read for their form, not copied):

* alibaba/BladeDISC ``tao_compiler/mlir/disc/transforms/tests/mhlo_mark_shape_calc_op.mlir``:
  ``tensor.dim`` / ``tensor.extract`` of a target + ``arith.index_cast`` + ``tensor.from_elements``
  feeding ``mhlo.dynamic_reshape``; ``disc-shape-optimization.mlir`` for ``shape.shape_of`` targets;
* onnx/onnx-mlir ``test/mlir/conversion/onnx_to_stablehlo/Tensor/Reshape.mlir``: per element,
  ``shape.get_extent`` / ``tensor.extract``, ``arith.cmpi eq, %d, %c-1``, ``arith.select``;
* tensorflow/tensorflow ``tensorflow/compiler/xla/mlir_hlo/tests/Dialect/mhlo/
  symbolic-shape-optimization.mlir``: ``tensor.dim`` + ``tensor.from_elements`` targets;
* llvm/llvm-project ``mlir/test/Conversion/ShapeToStandard/convert-shape-constraints.mlir``:
  ``shape.cstr_require`` lowered to ``cf.assert %cond, "msg"`` over an ``arith.cmpi``;
* jax's own ``jax.export`` output for a symbolic constraint ``mod(b, 2) == 0`` (a
  ``stablehlo.custom_call @shape_assertion``), checked against jax at concrete sizes.

Every expected value is derived by hand from MLIR's semantics (written out as a Python function
of the sizes), never by running symshape.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from symshape.algebra.expr import evaluate, mul
from symshape.engine.result import Analysis
from symshape.errors import ContradictionError
from symshape.frontends.mlir.frontend import analyze_mlir_text

Env = dict[str, int]


def dims_at(analysis: Analysis, value: str, env: Env) -> tuple[int | None, ...]:
    """symshape's dims of ``@main:%value`` at ``env`` (None where a dim is over other symbols)."""
    out: list[int | None] = []
    for d in analysis.shape(f"@main:%{value}") or ():
        try:
            out.append(evaluate(d, env))
        except KeyError:
            out.append(None)
    return tuple(out)


def texts(analysis: Analysis, value: str) -> list[str]:
    return [str(d) for d in analysis.shape(f"@main:%{value}") or ()]


def check_sizes(analysis: Analysis, value: str, envs: list[Env], oracle: Callable[[Env], tuple[int, ...]]) -> None:
    assert envs
    for env in envs:
        assert dims_at(analysis, value, env) == oracle(env), env


SIZES = (0, 1, 2, 3, 5, 8)


# ------------------------------------------------------------------ (a) select over a size

# TF's Reshape with a data-dependent element count divided out: the ``-1`` branch divides
# num_elements by a value read from a tensor (no formula), the kept branch is a dim of %arg1.
SELECT_OVER_TENSOR_DIM = """
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<i32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %0 = shape.shape_of %arg0 : tensor<?x?xf32> -> tensor<2xindex>
  %1 = shape.num_elements %0 : tensor<2xindex> -> index
  %2 = tensor.extract %arg2[] : tensor<i32>
  %3 = arith.index_cast %2 : i32 to index
  %4 = arith.divui %1, %3 : index
  %5 = tensor.dim %arg1, %c0 : tensor<?x?xf32>
  %6 = arith.cmpi eq, %5, %c-1 : index
  %7 = arith.select %6, %4, %5 : index
  %8 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %9 = arith.cmpi eq, %8, %c-1 : index
  %10 = arith.select %9, %4, %8 : index
  %11 = tensor.from_elements %7, %10 : tensor<2xindex>
  %12 = "mhlo.dynamic_reshape"(%arg0, %11) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %12 : tensor<?x?xf32>
}"""

# The same in StableHLO's spelling (get_dimension_size, compare EQ, select on tensor<i32>), the
# inferred size an element of a data tensor.
SELECT_OVER_DIMENSION_SIZE = """
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<1xi32>) -> tensor<?x?xf32> {
  %cm1 = stablehlo.constant dense<-1> : tensor<i32>
  %data = stablehlo.reshape %arg2 : (tensor<1xi32>) -> tensor<i32>
  %0 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %1 = stablehlo.get_dimension_size %arg1, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %2 = stablehlo.compare EQ, %0, %cm1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %3 = stablehlo.select %2, %data, %0 : tensor<i1>, tensor<i32>
  %4 = stablehlo.compare EQ, %1, %cm1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %5 = stablehlo.select %4, %data, %1 : tensor<i1>, tensor<i32>
  %6 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
  %7 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
  %8 = stablehlo.concatenate %6, %7, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %9 = stablehlo.dynamic_reshape %arg0, %8 : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %9 : tensor<?x?xf32>
}"""


@pytest.mark.parametrize(("text", "out"), [pytest.param(SELECT_OVER_TENSOR_DIM, "12", id="arith_tensor_dim"),
                                           pytest.param(SELECT_OVER_DIMENSION_SIZE, "9", id="stablehlo")])
def test_select_minus_one_over_a_size_is_the_size(text: str, out: str) -> None:
    """A dim is ``>= 0``, so ``d == -1`` is false and ``select(d == -1, inferred, d)`` is ``d``,
    although ``inferred`` is read from data: the reshape's dims are ``%arg1``'s, exactly."""
    analysis = analyze_mlir_text(text)
    assert texts(analysis, out) == ["arg1_d0", "arg1_d1"]
    assert not analysis.unresolved
    assert not analysis.guards()
    # the reshape keeps the element count (a fact): arg0_d0*arg0_d1 == arg1_d0*arg1_d1
    check_sizes(analysis, out, [{"arg1_d0": a, "arg1_d1": b} for a in SIZES for b in SIZES],
                lambda e: (e["arg1_d0"], e["arg1_d1"]))


# ------------------------------------------------------------------ (b) an extracted target

# onnx-mlir / TF: the target is a shape tensor (here %arg1's, cast to i32 as TF's targets are),
# each element extracted, compared with -1 and replaced by num_elements / (the other element).
EXTRACTED_TARGET = """
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c-1_i32 = arith.constant -1 : i32
  %0 = shape.shape_of %arg1 : tensor<?x?xf32> -> tensor<2xindex>
  %1 = arith.index_cast %0 : tensor<2xindex> to tensor<2xi32>
  %2 = shape.shape_of %arg0 : tensor<?x?xf32> -> tensor<2xindex>
  %3 = shape.num_elements %2 : tensor<2xindex> -> index
  %4 = arith.index_cast %3 : index to i32
  %5 = tensor.extract %1[%c0] : tensor<2xi32>
  %6 = tensor.extract %1[%c1] : tensor<2xi32>
  %7 = arith.divsi %4, %6 : i32
  %8 = arith.cmpi eq, %5, %c-1_i32 : i32
  %9 = arith.select %8, %7, %5 : i32
  %10 = arith.divsi %4, %5 : i32
  %11 = arith.cmpi eq, %6, %c-1_i32 : i32
  %12 = arith.select %11, %10, %6 : i32
  %13 = tensor.from_elements %9, %12 : tensor<2xi32>
  %14 = "mhlo.dynamic_reshape"(%arg0, %13) : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %14 : tensor<?x?xf32>
}"""


def test_an_extracted_target_of_sizes_keeps_its_elements() -> None:
    """Every element of a shape tensor is a size, never -1: the resolved target is the target.
    The divisions by the elements run whichever branch is taken, so the elements are non-zero
    (``arith`` division by zero is undefined): a fact, not a guard."""
    analysis = analyze_mlir_text(EXTRACTED_TARGET)
    assert texts(analysis, "14") == ["arg1_d0", "arg1_d1"]
    assert not analysis.unresolved
    assert not analysis.guards()
    symbols = analysis.symbols()
    assert symbols["arg1_d0"]["range"][0] == 1 and symbols["arg1_d1"]["range"][0] == 1


# The same resolution on the whole target at once (a vector cmpi and select, as a shape
# tensor canonicalized by MLIR keeps it), the replacement values read from data.
VECTOR_TARGET = """
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<2xi32>) -> tensor<?x?xf32> {
  %c-1 = arith.constant dense<-1> : tensor<2xi32>
  %0 = shape.shape_of %arg1 : tensor<?x?xf32> -> tensor<2xindex>
  %1 = arith.index_cast %0 : tensor<2xindex> to tensor<2xi32>
  %2 = arith.cmpi eq, %1, %c-1 : tensor<2xi32>
  %3 = arith.select %2, %arg2, %1 : tensor<2xi1>, tensor<2xi32>
  %4 = "mhlo.dynamic_reshape"(%arg0, %3) : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}"""


# The same in StableHLO (as TF's mhlo legalization writes it).
VECTOR_TARGET_HLO = """
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<2xi32>) -> tensor<?x?xf32> {
  %c-1 = stablehlo.constant dense<-1> : tensor<2xi32>
  %0 = shape.shape_of %arg1 : tensor<?x?xf32> -> tensor<2xindex>
  %1 = arith.index_cast %0 : tensor<2xindex> to tensor<2xi32>
  %2 = stablehlo.compare EQ, %1, %c-1 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %3 = stablehlo.select %2, %arg2, %1 : tensor<2xi1>, tensor<2xi32>
  %4 = stablehlo.dynamic_reshape %arg0, %3 : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}"""


@pytest.mark.parametrize("text", [VECTOR_TARGET, VECTOR_TARGET_HLO], ids=["arith", "stablehlo"])
def test_a_vector_select_over_a_target_of_sizes_keeps_it(text: str) -> None:
    """No element of a shape tensor is -1, so the vector select is the target, exactly."""
    analysis = analyze_mlir_text(text)
    assert texts(analysis, "4") == ["arg1_d0", "arg1_d1"]
    assert not analysis.unresolved
    assert not analysis.guards()


# ------------------------------------------------------------------ (c) d may be -1

MAYBE_MINUS_ONE = """
func.func @main(%arg0: tensor<?x?xf32>, %arg1: index, %arg2: tensor<2xi32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c-1_i32 = arith.constant -1 : i32
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %n = arith.muli %d0, %d1 : index
  %q = arith.divui %n, %d1 : index
  %is = arith.cmpi eq, %arg1, %c-1 : index
  %s = arith.select %is, %q, %arg1 : index
  %e = tensor.extract %arg2[%c0] : tensor<2xi32>
  %ise = arith.cmpi eq, %e, %c-1_i32 : i32
  %qi = arith.index_cast %q : index to i32
  %se = arith.select %ise, %qi, %e : i32
  %sei = arith.index_cast %se : i32 to index
  %shape = tensor.from_elements %s, %sei : tensor<2xindex>
  %r = "mhlo.dynamic_reshape"(%arg0, %shape) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}"""


def test_a_select_over_a_value_that_may_be_minus_one_does_not_fold() -> None:
    """Soundness: an index argument or an element read from data may be -1, so the select is
    not its kept branch. Whatever symshape says must be right at ``arg1 = -1`` (the select then
    gives ``d0 * d1 / d1 = d0``) and at ``arg1 = 3``; an unknown is allowed, ``arg1`` is not."""
    analysis = analyze_mlir_text(MAYBE_MINUS_ONE)
    first = (analysis.shape("@main:%r") or ())[0]
    assert str(first) != "arg1"
    for env in ({"arg0_d0": 4, "arg0_d1": 2, "arg1": -1}, {"arg0_d0": 4, "arg0_d1": 2, "arg1": 3}):
        got = dims_at(analysis, "r", env)[0]
        assert got is None or got == (env["arg0_d0"] if env["arg1"] == -1 else env["arg1"])
    assert analysis.graph.facts.get("arg1").lo is None  # never narrowed to a size
    assert ("@main:%r", 1) in {(u.value, u.axis) for u in analysis.unresolved}


# ------------------------------------------------------------------ (d) cf.assert: divisibility

def split_in_halves(check: str) -> str:
    """TF's Split into 2 along a dynamic dim as its legalization to mhlo writes it: ``h = d / 2``,
    slice ``i`` is ``[i*h, (i+1)*h)`` (``mhlo.real_dynamic_slice``); ``check`` goes before."""
    return f"""
func.func @main(%arg0: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %rem = arith.remsi %d, %c2 : index
  %even = arith.cmpi eq, %rem, %c0 : index{check}
  %h = arith.divsi %d, %c2 : index
  %h2 = arith.muli %h, %c2 : index
  %start0 = tensor.from_elements %c0, %c0 : tensor<2xindex>
  %limit0 = tensor.from_elements %h, %c4 : tensor<2xindex>
  %start1 = tensor.from_elements %h, %c0 : tensor<2xindex>
  %limit1 = tensor.from_elements %h2, %c4 : tensor<2xindex>
  %strides = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %lo = "mhlo.real_dynamic_slice"(%arg0, %start0, %limit0, %strides)
      : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32>
  %hi = "mhlo.real_dynamic_slice"(%arg0, %start1, %limit1, %strides)
      : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32>
  return %lo, %hi : tensor<?x4xf32>, tensor<?x4xf32>
}}"""


ASSERT_EVEN = '\n  cf.assert %even, "split dimension must be divisible by 2"'


def halves_cover(analysis: Analysis) -> bool | None:
    """Whether ``2 * (the first half) == d`` is proven: the halves are exactly ``d/2``."""
    graph = analysis.graph
    half = (analysis.shape("@main:%lo") or ())[0]
    return graph.facts.prove_eq(graph.canon(mul(half, 2)), graph.canon(analysis.dim(("@main:%arg0", 0))))


def test_an_asserted_divisibility_makes_the_halves_exactly_half() -> None:
    """``cf.assert (d % 2 == 0)`` gives ``d`` the divisor 2, so the two slices of ``h = d / 2``
    rows are exactly ``d/2`` (``2*h == d`` is proven, nothing is dropped); no guard."""
    analysis = analyze_mlir_text(split_in_halves(ASSERT_EVEN))
    assert analysis.symbols()["arg0_d0"]["divisor"] == 2
    assert halves_cover(analysis) is True
    assert analysis.same_dim(("@main:%lo", 0), ("@main:%hi", 0)) is True
    for value in ("lo", "hi"):
        check_sizes(analysis, value, [{"arg0_d0": d} for d in (0, 2, 4, 6, 10)], lambda e: (e["arg0_d0"] // 2, 4))
    assert not analysis.guards()
    assert not analysis.unresolved


def test_without_the_assert_a_split_may_drop_a_row() -> None:
    """The same split without the check: at odd ``d`` the halves are ``floor(d/2)`` each and
    the last row is dropped, so ``2*h == d`` is not proven (the assert above is what proves it)."""
    analysis = analyze_mlir_text(split_in_halves(""))
    assert analysis.symbols()["arg0_d0"]["divisor"] == 1
    assert halves_cover(analysis) is not True
    check_sizes(analysis, "hi", [{"arg0_d0": d} for d in SIZES], lambda e: (e["arg0_d0"] // 2, 4))


# ------------------------------------------------------------------ (e) cf.assert: a range

TENSOR_DIM = "%d = tensor.dim %arg0, %c0 : tensor<?xf32>"
INDEX_ARG = "%d = arith.addi %x, %c0 : index"


def clamp_after(check: str, args: str = "%arg0: tensor<?xf32>", d: str = TENSOR_DIM) -> str:
    """``Min(d, 128)`` spelled cmpi + select (torch-mlir and onnx-mlir clamp a size that way)
    after ``check``, as the size of a new tensor."""
    return f"""
func.func @main({args}) -> tensor<?xf32> {{
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  {d}{check}
  %lt = arith.cmpi slt, %d, %c128 : index
  %m = arith.select %lt, %d, %c128 : index
  %r = tensor.empty(%m) : tensor<?xf32>
  return %r : tensor<?xf32>
}}"""


# The asserting form and the constrained form (seed 003) of one check of ``%le``.
CHECKS = [pytest.param('\n  cf.assert %le, "{msg}"', id="cf_assert"),
          pytest.param('\n  %w = shape.cstr_require %le, "{msg}"', id="cstr_require")]


@pytest.mark.parametrize("check", CHECKS)
def test_an_asserted_upper_bound_is_the_range(check: str) -> None:
    """``cf.assert (d <= 128)``: ``d`` lies in ``[0, 128]``, so ``Min(d, 128)`` is ``d``."""
    analysis = analyze_mlir_text(clamp_after('\n  %le = arith.cmpi sle, %d, %c128 : index'
                                             + check.format(msg="sequence longer than 128")))
    assert analysis.symbols()["arg0_d0"]["range"] == [0, 128]
    assert texts(analysis, "r") == ["arg0_d0"]
    assert not analysis.guards()


def test_without_the_bound_the_clamp_stays() -> None:
    analysis = analyze_mlir_text(clamp_after(""))
    check_sizes(analysis, "r", [{"arg0_d0": d} for d in (0, 5, 128, 129, 1000)], lambda e: (min(e["arg0_d0"], 128),))


@pytest.mark.parametrize("check", CHECKS)
def test_an_unsigned_assertion_is_not_read_as_signed(check: str) -> None:
    """Soundness: ``x >u 5`` passes at ``x = -1`` (read as ``2**64 - 1``), so it is not the
    signed ``x > 5``: ``x`` may still be negative after the check. symshape takes no fact from an
    unsigned ordering (``x`` is not known to be ``>= 0``, where the two readings agree)."""
    analysis = analyze_mlir_text(clamp_after('\n  %c5 = arith.constant 5 : index\n'
                                             '  %le = arith.cmpi ugt, %d, %c5 : index' + check.format(msg="too short"),
                                             args="%arg0: tensor<?xf32>, %x: index", d=INDEX_ARG))
    facts = analysis.graph.facts.get("x")
    assert (facts.lo, facts.hi) == (None, None)
    check_sizes(analysis, "r", [{"x": x} for x in (6, 7, 127, 128, 500)], lambda e: (min(e["x"], 128),))


def test_an_assertion_that_always_fails_is_a_contradiction() -> None:
    text = clamp_after('\n  %no = arith.cmpi slt, %d, %c0 : index\n  cf.assert %no, "negative size"')
    with pytest.raises(ContradictionError, match="always fails: negative size"):
        analyze_mlir_text(text)


# ------------------------------------------------------------------ (g) before the assert

# The division and the slices come first, the check last (a program that validates late).
CHECKED_LATE = """
func.func @main(%arg0: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %h = arith.divsi %d, %c2 : index
  %rest = arith.subi %d, %h : index
  %lo = tensor.extract_slice %arg0[0, 0] [%h, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %hi = tensor.extract_slice %arg0[%h, 0] [%rest, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %rem = arith.remsi %d, %c2 : index
  %even = arith.cmpi eq, %rem, %c0 : index
  cf.assert %even, "split dimension must be divisible by 2"
  return %lo, %hi : tensor<?x4xf32>, tensor<?x4xf32>
}"""


def test_a_late_assertion_holds_on_every_run_that_returns() -> None:
    """Facts are flow-insensitive (the design of `symshape.rules.mlir.cf`): the assert is in the
    entry block, so every run that returns passed it, and the halves computed before it are
    equal on all of those runs. Dims are claims about runs that return, so this is sound: at an
    odd ``d`` the program stops at the assert and returns nothing to contradict them."""
    analysis = analyze_mlir_text(CHECKED_LATE)
    assert analysis.symbols()["arg0_d0"]["divisor"] == 2
    assert analysis.same_dim(("@main:%lo", 0), ("@main:%hi", 0)) is True
    for value in ("lo", "hi"):
        check_sizes(analysis, value, [{"arg0_d0": d} for d in (0, 2, 4, 6)], lambda e: (e["arg0_d0"] // 2, 4))
    assert not analysis.guards()


# ------------------------------------------------------------------ (f) jax's shape_assertion


@pytest.mark.needs_jax
def test_jax_shape_assertion_of_a_divisibility_constraint() -> None:
    """``jax.export`` with the constraint ``mod(b, 2) == 0`` checks it with a
    ``custom_call @shape_assertion``; splitting at ``b // 2`` then gives two equal halves.
    jax itself (``jax.eval_shape`` and its shape refinement, tests/jax_oracle.py) is the oracle
    at b = 2, 4, 6; jax rejects b = 1, 3."""
    import jax

    from tests.jax_oracle import Subject, run

    def split(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        h = x.shape[0] // 2
        return x[:h], x[h:]

    subject = Subject(split, ["b, 4"], ["mod(b, 2) == 0"])
    assert "@shape_assertion" in subject.text
    reports = run(subject, [{"b": b} for b in (1, 2, 3, 4, 6)], min_accepted=3)
    assert len(reports) == 3  # the odd sizes are rejected by jax, the even ones checked
    analysis = subject.analysis
    assert analysis.symbols()["b"]["divisor"] == 2
    lo, hi = subject.outputs
    assert analysis.same_dim((lo, 0), (hi, 0)) is True
    assert not analysis.guards()


# ------------------------------------------------------------------ found along the way

def test_a_slice_size_is_not_negative() -> None:
    """``tensor.extract_slice [4] [d - 4]`` is undefined for ``d < 4``: ``d >= 4`` is a fact (it
    was neither a fact nor a guard, so the dim ``d - 4`` could be read as negative)."""
    text = """
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = tensor.dim %arg0, %c0 : tensor<?xf32>
  %m = arith.subi %d, %c4 : index
  %r = tensor.extract_slice %arg0[4] [%m] [1] : tensor<?xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}"""
    analysis = analyze_mlir_text(text)
    assert analysis.symbols()["arg0_d0"]["range"][0] == 4
    check_sizes(analysis, "r", [{"arg0_d0": d} for d in (4, 5, 9)], lambda e: (e["arg0_d0"] - 4,))
