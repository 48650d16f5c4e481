"""Dims written as ``arith`` ops and affine maps (`symshape.tools.mlir_passes.dim_exprs`), checked by
running the written ops in a small interpreter against sympy's value of the same expression, and
the constraint IR read back as facts (`symshape.tools.mlir_passes.constraint_load`)."""

from __future__ import annotations

import random

import pytest
import sympy
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from symshape.algebra.expr import Dim, floordiv, mod, smax, smin, sym
from symshape.engine.userfacts import Divisible, Likely, Range, Relation
from symshape.tools.mlir_passes.constraint_load import load_constraints
from symshape.tools.mlir_passes.dim_exprs import ArithBuilder, ArithReader, from_affine, to_affine
from symshape.tools.mlir_passes.opt import parse_text

NAMES = ("a", "b", "c")


def random_dim(rng: random.Random, depth: int = 3) -> Dim:
    a, b, c = (sym(n) for n in NAMES)
    leaves: list[Dim] = [a, b, c, rng.randint(-3, 9)]
    if depth == 0:
        return rng.choice(leaves)
    x, y = random_dim(rng, depth - 1), random_dim(rng, depth - 1)
    k = rng.randint(1, 5)
    choice = rng.randrange(7)
    if choice == 0:
        return x + y  # type: ignore[operator]
    if choice == 1:
        return x * y if isinstance(x, int) or isinstance(y, int) else x * rng.choice([a, 2])  # type: ignore[operator]
    if choice == 2:
        return floordiv(x, k)
    if choice == 3:
        return mod(x, k)
    if choice == 4:
        return smax(x, y)
    if choice == 5:
        return smin(x, y)
    return x - y  # type: ignore[operator]


def sympy_value(d: Dim, env: dict[str, int]) -> int:
    """The value of ``str(d)`` (sympy syntax) computed by sympy."""
    expr = sympy.sympify(str(d), locals={n: sympy.Symbol(n, integer=True) for n in NAMES})
    return int(expr.subs({sympy.Symbol(n, integer=True): v for n, v in env.items()}))


def interpret(ops: list[Operation], env: dict[SSAValue, int]) -> dict[SSAValue, int]:
    """MLIR's semantics for the integer ops the builder writes (floor division rounds down)."""
    binary = {
        arith.AddiOp: lambda x, y: x + y,
        arith.SubiOp: lambda x, y: x - y,
        arith.MuliOp: lambda x, y: x * y,
        arith.FloorDivSIOp: lambda x, y: x // y,
        arith.MaxSIOp: max,
        arith.MinSIOp: min,
    }
    for op in ops:
        if isinstance(op, arith.ConstantOp):
            assert isinstance(op.value, IntegerAttr)
            env[op.result] = op.value.value.data
        else:
            fn = binary[type(op)]
            env[op.results[0]] = fn(env[op.operands[0]], env[op.operands[1]])
    return env


@pytest.mark.parametrize("seed", range(40))
def test_arith_builder_computes_the_dim(seed: int) -> None:
    print(f"seed={seed}")
    rng = random.Random(seed)
    d = random_dim(rng)
    block = Block(arg_types=[IndexType()] * len(NAMES))
    leaves = dict(zip(NAMES, block.args, strict=True))
    ops: list[Operation] = []
    builder = ArithBuilder(lambda n: leaves.get(n), ops.append)
    value = builder.build(d)
    assert value is not None
    for _ in range(5):
        env = {n: rng.randint(0, 40) for n in NAMES}
        got = interpret(ops, {leaves[n]: v for n, v in env.items()})
        assert got[value] == sympy_value(d, env), (str(d), env)
    reader = ArithReader(lambda v: sym(NAMES[v.index]) if isinstance(v, BlockArgument) else None)
    assert reader.read(value) is d or reader.read(value) == d, str(d)


@pytest.mark.parametrize("seed", range(40))
def test_affine_maps_agree_with_sympy(seed: int) -> None:
    print(f"seed={seed}")
    rng = random.Random(seed)
    a, b = sym("a"), sym("b")
    d: Dim = rng.randint(-5, 5) * a + rng.randint(-5, 5) * b + rng.randint(-9, 9)  # type: ignore[operator]
    if rng.random() < 0.5:
        d = floordiv(d, rng.randint(1, 6)) + a  # type: ignore[operator]
    if rng.random() < 0.5:
        d = mod(d, rng.randint(2, 6)) * 3  # type: ignore[operator]
    expr = to_affine(d, {"a": 0, "b": 1})
    assert expr is not None, str(d)
    for _ in range(5):
        env = {"a": rng.randint(-20, 20), "b": rng.randint(-20, 20)}
        assert expr.eval([env["a"], env["b"]], []) == sympy_value(d, env), (str(d), str(expr), env)
    assert from_affine(expr, [a, b]) is d or str(from_affine(expr, [a, b])) == str(d)


def test_products_and_max_are_not_affine() -> None:
    a, b = sym("a"), sym("b")
    assert to_affine(a * b, {"a": 0, "b": 1}) is None  # type: ignore[operator]
    assert to_affine(smax(a, b), {"a": 0, "b": 1}) is None
    assert to_affine(floordiv(a, b), {"a": 0, "b": 1}) is None


def test_reader_needs_nonnegative_operands_for_truncating_division() -> None:
    block = Block(arg_types=[IndexType()])
    x = block.args[0]
    k = arith.ConstantOp(IntegerAttr(2, IndexType()))
    div = arith.DivSIOp(x, k.result)
    sure = ArithReader(lambda v: sym("a") if v is x else None, nonneg=lambda d: True)
    unsure = ArithReader(lambda v: sym("a") if v is x else None, nonneg=lambda d: isinstance(d, int) and d >= 0)
    assert str(sure.read(div.result)) == "floor(a/2)"
    assert unsure.read(div.result) is None  # -3 / 2 is -1 in MLIR, floor(-3/2) is -2


# ------------------------------------------------------------------ loading facts

LOADED = """
symshape.symbolic_dim @S0 {lo = 2 : i64, hi = 64 : i64, divisor = 2 : i64, likely = array<i64: 8>}
symshape.symbolic_dim @S1
symshape.symbolic_dim @S2
symshape.symbolic_dim @S3
symshape.symbolic_dim @C4 {value = 4 : i64}
func.func @f(%x: tensor<?x4xf32, [@S0, @C4]>, %y: tensor<?x?xf32, [@S1, @S2]>, %z: tensor<?xf32, [@S3]>) {
  func.return
}
func.func @shape_constraint_graph() {
  %S0 = symshape.dim @S0 : index
  %S1 = symshape.dim @S1 : index
  %S2 = symshape.dim @S2 : index
  %S3 = symshape.dim @S3 : index
  %c1 = arith.constant 1 : index
  symshape.tie_predicate_mul_eq %S3, %S1, %S2
  symshape.tie_predicate_lt %S1, %S0
  symshape.tie_predicate_affine_eq %S2, affine_map<(d0) -> (d0 floordiv 2 + 1)>(%S0)
  symshape.tie_predicate_le %c1, %S1 {guard, reason = "r", origin = "o"}
  func.return
}
"""


def test_constraint_ir_becomes_facts_over_argument_symbols() -> None:
    from symshape.frontends.mlir.frontend import module_to_programs

    _, module = parse_text(LOADED)
    loaded = load_constraints(module)
    assert "symshape" not in str(module), "the constraint IR is removed after loading"
    view = module_to_programs(module)[0]
    facts = loaded.facts_for("f", view.program, list(view.program.inputs))
    x, y0, y1, z = sym("x_d0"), sym("y_d0"), sym("y_d1"), sym("z_d0")
    assert facts == [
        Range("x_d0", 2, 64),
        Divisible(x, 2),
        Likely("x_d0", (8,)),
        Range("y_d0", 0, None),
        Relation(z, "==", y0 * y1),
        Relation(y0, "<", x),
        Relation(y1, "==", floordiv(x, 2) + 1),
    ]
    assert [str(f) for f in facts] == [  # the --assume syntax, for messages
        "x_d0=2..64",
        "Mod(x_d0, 2) == 0",
        "x_d0~=8",
        "y_d0=0..",
        "z_d0 == y_d0*y_d1",
        "y_d0 < x_d0",
        "y_d1 == floor(x_d0/2) + 1",
    ]
