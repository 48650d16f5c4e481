"""Fusion groups checked by jax: a jax-exported decoder block (layernorm, causal attention, GELU
MLP, symbolic batch and sequence) and seed 000's examples written as StableHLO.

At each level of knowledge (`symshape.tools.fusion.groups.LEVELS`) every group must hold at random sizes,
by StableHLO's own shape refinement (the pass jax runs before compiling a shape-polymorphic
module; tests/jax_oracle.py): every member of a kLoop group has the same shape, every member of
a kInput group the same element count, every member of a kStitch group the element count of the
reductions' input or of their result, and all reductions of a group the same input shape. The
groups with symshape's facts contain the baseline's and are strictly fewer kernels where the
facts prove equal ``?`` dims the types do not show.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from symshape.engine.result import Analysis
from symshape.tools.fusion.groups import LEVELS, FusionPlan, fusion_groups, fusion_plans

if TYPE_CHECKING:
    from tests.jax_oracle import Refined, Subject
from tests.paths import TESTS
from tests.tools.fusion.test_groups import check_containment, check_group, opt, parses_in_iree_opt

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
        return shape_lookup(self.mlir, args, refine(self.mlir, args))


def shape_lookup(text: str, args: list[Shape], refined: Refined) -> Callable[[str], Shape | None]:
    """Every value's concrete shape: op results from refinement, arguments from ``args`` (jax's
    wrapped main takes its dimension variables first)."""

    def shape(name: str) -> Shape | None:
        arg = re.fullmatch(r"@(\w+):%arg(\d+)", name)
        if arg is None:
            return refined.shape(name)
        signature = re.search(rf"func\.func[^@\n]*@{arg.group(1)}\(.*", text)
        skip = len(re.findall(r"jax\.global_constant", signature.group(0))) if signature else 0
        index = int(arg.group(2)) - skip
        return args[index] if 0 <= index < len(args) else None

    return shape


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

INPUTS = TESTS / "fusion_inputs"


def seed(name: str) -> str:
    return (INPUTS / f"seed000_fusion_{name}.mlir").read_text()


def _two(rng: random.Random) -> Shape:
    return (rng.randint(1, 9), rng.randint(1, 9))


SEED_EXAMPLES = [
    Example("redundant_broadcast", seed("redundant_broadcast"), lambda rng: [(10, 10), (10, 10)]),
    Example("row_softmax", seed("row_softmax"), lambda rng: [_two(rng)], gain=False),
    Example("two_sources", seed("two_sources"), lambda rng: [shape := _two(rng), shape],
            facts=("arg0_d0 == arg1_d0", "arg0_d1 == arg1_d1")),
    Example("split", seed("split"), lambda rng: [(2 * rng.randint(1, 6), 4)], gain=False),
]


# ------------------------------------------------------------------------ the decoder block


def decoder_example() -> tuple[Example, Callable[[random.Random], list[Shape]]]:
    from tests.e2e.test_blocks_jax import PARAMS, D, decoder_layer
    from tests.jax_oracle import Subject

    subject = Subject(decoder_layer, [f"b, s, {D}", PARAMS])

    def shapes(rng: random.Random) -> list[Shape]:
        return subject.arg_shapes({"b": rng.randint(1, 5), "s": rng.randint(1, 9)})

    return Example("gpt_decoder_block", subject.text, shapes), shapes


def check_example(example: Example, sizes: int = 4) -> dict[str, FusionPlan]:
    from symshape.frontends.mlir.frontend import analyze_mlir_text

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
        from symshape.frontends.mlir.frontend import analyze_mlir_text

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


@pytest.mark.needs_iree
def test_the_marked_decoder_block_parses_in_iree_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The pass's default output of a real export goes straight into iree-opt, one mark per fused op."""
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    example, _ = decoder_example()
    out = opt(tmp_path, example.text, "fusion-groups")
    report = capsys.readouterr().out
    facts = fusion_groups(analyze_mlir_text(example.text))
    assert f"facts: {facts.summary()}" in report
    assert out.count("symshape.fusion_group") == facts.fused
    parses_in_iree_opt(out)


def _models() -> list[object]:
    """The oracle's transformer blocks (none without jax: the module is then skipped)."""
    try:
        from tests.e2e.test_blocks_jax import MODELS
    except ImportError:
        return []
    return list(MODELS)


@pytest.mark.parametrize(("subject", "envs"), _models())
def test_transformer_blocks_fuse_soundly(subject: Subject, envs: list[dict[str, int]]) -> None:
    """The blocks of tests/e2e/test_blocks_jax.py (KV caches, rotary embeddings, a tied LM
    head, layers by scan, a mixer, vmap): every group at every level holds at their sizes."""
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    plans: dict[str, FusionPlan] = dict(fusion_plans(analyze_mlir_text(subject.text)))
    check_containment(plans)
    accepted = [env for env in envs if subject.accepts(env)][:3]
    assert accepted
    kept = sorted(subject.exported.module_kept_var_idx)
    for env in accepted:
        args = subject.arg_shapes(env)
        shape = shape_lookup(subject.text, [args[i] for i in kept], subject.refined(env))
        for level in LEVELS:
            for group in plans[level].groups:
                check_group(group, shape, env)
