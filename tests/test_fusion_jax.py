"""Fusion groups checked by jax: a jax-exported decoder block (layernorm, causal attention, GELU
MLP, symbolic batch and sequence) and seed 000's examples written as StableHLO.

At each level of knowledge (`symshape.fusion.LEVELS`) every group must hold at random sizes,
by StableHLO's own shape refinement (the pass jax runs before compiling a shape-polymorphic
module; tests/jax_oracle.py): every member of a kLoop group has the same shape, every member of
a kInput group the same element count, every member of a kStitch group the element count of the
reductions' input or of their result, and all reductions of a group the same input shape. The
groups with symshape's facts contain the baseline's and are strictly fewer kernels where the
facts prove equal ``?`` dims the types do not show.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import pytest

from symshape.expr import evaluate
from symshape.fusion import LEVELS, FusionGroup, FusionPlan, fusion_plans
from symshape.result import Analysis

pytestmark = pytest.mark.needs_jax

Shape = tuple[int, ...]
SEED = 15


def canonical(text: str) -> str:
    """``text`` printed by MLIR itself, so value names are the ones refinement reports."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    with jax_mlir.make_ir_context(), ir.Location.unknown():
        return str(ir.Module.parse(text))


@dataclass
class Example:
    """A module, the sizes jax may run it at, and what the facts are expected to add."""

    name: str
    text: str
    arg_shapes: Callable[[random.Random], list[Shape]]
    facts: Sequence[str] = ()
    gain: bool = True  # the facts merge groups the declared types cannot

    @cached_property
    def mlir(self) -> str:
        return canonical(self.text)

    def concrete(self, rng: random.Random) -> Callable[[str], Shape | None]:
        """The concrete shape of every value at one random size (None if refinement has none)."""
        from tests.jax_oracle import refine

        args = self.arg_shapes(rng)
        refined = refine(self.mlir, args)

        def shape(name: str) -> Shape | None:
            arg = re.fullmatch(r"@(\w+):%arg(\d+)", name)
            if arg is not None:  # jax's wrapped main takes the dimension variables first
                signature = re.search(rf"func\.func[^@\n]*@{arg.group(1)}\(.*", self.mlir)
                skip = len(re.findall(r"jax\.global_constant", signature.group(0))) if signature else 0
                index = int(arg.group(2)) - skip
                return args[index] if 0 <= index < len(args) else None
            return refined.shape(name)

        return shape


def check_group(group: FusionGroup, shape: Callable[[str], Shape | None], env: Mapping[str, int]) -> None:
    """The group's claim at one size (see the module docstring)."""
    where = f"group {group.id} {group.kind} {group.ops} at {dict(env)}"
    members = [(m, shape(m.value), shape(m.effective)) for m in group.members]
    assert all(out is not None and eff is not None for _, out, eff in members), f"{where}: a shape is unknown"
    if group.kind == "kLoop":
        outs = {out for _, out, _ in members}
        assert len(outs) == 1, f"{where}: members have shapes {outs}"
        claimed = next(iter(outs))
    else:
        reduces = {eff for m, _, eff in members if m.reduce}
        assert len(reduces) == 1, f"{where}: reductions over shapes {reduces}"
        claimed = next(iter(reduces))
        allowed = {math.prod(claimed)}
        if group.kind == "kStitch":
            allowed |= {math.prod(out or ()) for m, out, _ in members if m.reduce}
        counts = {math.prod(eff or ()) for _, _, eff in members}
        assert counts <= allowed, f"{where}: element counts {counts}, claimed {allowed}"
    symbolic = [d for d in group.shape if d is not None]
    if len(symbolic) == len(group.shape):
        try:
            assert tuple(evaluate(d, env) for d in symbolic) == claimed, f"{where}: printed {group.shape}"
        except KeyError:  # over a symbol the example does not name (a fresh one)
            pass


def check_containment(plans: Mapping[str, FusionPlan]) -> None:
    """Each level's groups lie inside the next level's, and never make more kernels."""
    for lower, upper in zip(LEVELS, LEVELS[1:], strict=False):
        outer = [set(g.ops) for g in plans[upper].groups]
        for g in plans[lower].groups:
            assert any(set(g.ops) <= o for o in outer), f"{lower} group {g.ops} is split at {upper}"
        assert plans[upper].fused >= plans[lower].fused
        assert plans[upper].kernels <= plans[lower].kernels


def env_of(analysis: Analysis, shape: Callable[[str], Shape | None]) -> dict[str, int]:
    """The sizes of the input symbols at this run (from the arguments' concrete shapes)."""
    env: dict[str, int] = {}
    for name in analysis.program.inputs:
        dims, got = analysis.shape(name), shape(name)
        if dims is None or got is None:
            continue
        for d, n in zip(dims, got, strict=False):
            if not isinstance(d, int) and len(d.free) == 1 and str(d) in d.free:
                env[str(d)] = n
    return env


# ------------------------------------------------------------------------ seed 000 as StableHLO

SHAPE_2D = """
  %d0 = stablehlo.get_dimension_size {x}, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size {x}, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>"""

REDUNDANT_BROADCAST = """
func.func @main(%a: tensor<?x10xf32>, %b: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %sum = stablehlo.add %a, %b : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>""" + SHAPE_2D.format(x="%sum") + """
  %bc = stablehlo.dynamic_broadcast_in_dim %sum, %shape, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %e = stablehlo.exponential %bc : tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}"""

SOFTMAX = """
func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>""" + SHAPE_2D.format(x="%x") + """
  %bmax = stablehlo.dynamic_broadcast_in_dim %max, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %d = stablehlo.subtract %x, %bmax : tensor<?x?xf32>
  %e = stablehlo.exponential %d : tensor<?x?xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %bsum = stablehlo.dynamic_broadcast_in_dim %sum, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %p = stablehlo.divide %e, %bsum : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}"""

# Two ?x? arguments from different sources, equal by a user fact (seed 000: "provided by end
# users"): the broadcast of tanh(x) to y's shape is the identity.
TWO_SOURCES = """
func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = stablehlo.tanh %x : tensor<?x?xf32>""" + SHAPE_2D.format(x="%y") + """
  %bc = stablehlo.dynamic_broadcast_in_dim %t, %shape, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %e = stablehlo.exponential %y : tensor<?x?xf32>
  %m = stablehlo.multiply %bc, %e : tensor<?x?xf32>
  return %m : tensor<?x?xf32>
}"""

# tf.Split lowered to two real_dynamic_slice halves (seed 000, "injected by frontend converter"):
# both halves have shape [n/2, 4]; the add of their squares fuses with them.
SPLIT = """
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<2xi32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %half = stablehlo.divide %n, %c2 : tensor<i32>
  %h1 = stablehlo.reshape %half : (tensor<i32>) -> tensor<1xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %begin0 = stablehlo.concatenate %c0, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %end0 = stablehlo.concatenate %h1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %begin1 = stablehlo.concatenate %h1, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %end1 = stablehlo.concatenate %n1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %lo = stablehlo.real_dynamic_slice %x, %begin0, %end0, %c1 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %hi = stablehlo.real_dynamic_slice %x, %begin1, %end1, %c1 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %lo2 = stablehlo.multiply %lo, %lo : tensor<?x4xf32>
  %hi2 = stablehlo.multiply %hi, %hi : tensor<?x4xf32>
  %sum = stablehlo.add %lo2, %hi2 : tensor<?x4xf32>
  return %sum : tensor<?x4xf32>
}"""


def _two(rng: random.Random) -> Shape:
    return (rng.randint(1, 9), rng.randint(1, 9))


SEED_EXAMPLES = [
    Example("redundant_broadcast", REDUNDANT_BROADCAST, lambda rng: [(10, 10), (10, 10)]),
    Example("row_softmax", SOFTMAX, lambda rng: [_two(rng)], gain=False),
    Example("two_sources", TWO_SOURCES, lambda rng: [shape := _two(rng), shape],
            facts=("arg0_d0 == arg1_d0", "arg0_d1 == arg1_d1")),
    Example("split", SPLIT, lambda rng: [(2 * rng.randint(1, 6), 4)], gain=False),
]


# ------------------------------------------------------------------------ the decoder block


def decoder_example() -> tuple[Example, Callable[[random.Random], list[Shape]]]:
    from tests.jax_oracle import Subject
    from tests.test_jax_oracle_models import PARAMS, D, decoder_layer

    subject = Subject(decoder_layer, [f"b, s, {D}", PARAMS])

    def shapes(rng: random.Random) -> list[Shape]:
        return subject.arg_shapes({"b": rng.randint(1, 5), "s": rng.randint(1, 9)})

    return Example("gpt_decoder_block", subject.text, shapes), shapes


def check_example(example: Example, sizes: int = 4) -> dict[str, FusionPlan]:
    from symshape.mlir.frontend import analyze_mlir_text

    analysis = analyze_mlir_text(example.mlir, facts=list(example.facts))
    plans: dict[str, FusionPlan] = dict(fusion_plans(analysis))
    check_containment(plans)
    if example.gain:
        assert plans["facts"].kernels < plans["elementwise"].kernels, example.name
    rng = random.Random(SEED)
    print(f"seed={SEED}")
    for _ in range(sizes):
        shape = example.concrete(rng)
        env = env_of(analysis, shape)
        for level in LEVELS:
            for group in plans[level].groups:
                check_group(group, shape, env)
    return plans


@pytest.mark.parametrize("example", SEED_EXAMPLES, ids=[e.name for e in SEED_EXAMPLES])
def test_seed_examples_fuse_soundly(example: Example) -> None:
    plans = check_example(example)
    facts = plans["facts"]
    assert facts.fused == facts.fusible, f"{example.name}: every fusible op fuses with the facts"
    assert len(facts.groups) == 1


def test_the_facts_fuse_the_seed_examples_as_expected() -> None:
    """What each seed example is about, stated independently of the code: the redundant
    broadcast and the user fact make one kLoop group out of ops the types keep apart; the
    softmax is one kStitch group at the elementwise level already."""
    found: dict[str, dict[str, FusionPlan]] = {}
    for example in SEED_EXAMPLES:
        from symshape.mlir.frontend import analyze_mlir_text

        analysis = analyze_mlir_text(example.mlir, facts=list(example.facts))
        found[example.name] = dict(fusion_plans(analysis))
    summary = {name: {level: (p.fused, p.kernels) for level, p in plans.items()} for name, plans in found.items()}
    assert summary["redundant_broadcast"] == {"static": (0, 3), "elementwise": (2, 2), "facts": (3, 1)}
    assert summary["two_sources"] == {"static": (0, 4), "elementwise": (3, 2), "facts": (4, 1)}
    assert summary["row_softmax"]["facts"] == summary["row_softmax"]["elementwise"] == (7, 1)
    assert found["row_softmax"]["facts"].groups[0].kind == "kStitch"
    assert summary["split"]["facts"] == (5, 1)


def test_decoder_block_fuses_soundly_and_more_with_the_facts() -> None:
    example, _ = decoder_example()
    plans = check_example(example, sizes=3)
    facts, elementwise, static = plans["facts"], plans["elementwise"], plans["static"]
    kinds = {g.kind for g in facts.groups}
    assert kinds == {"kLoop", "kStitch"}, kinds  # the two layernorms and the softmax stitch
    assert sum(g.kind == "kStitch" for g in facts.groups) == 3
    assert max(len(g.members) for g in facts.groups) > max(len(g.members) for g in elementwise.groups)
    assert facts.kernels < elementwise.kernels < static.kernels
