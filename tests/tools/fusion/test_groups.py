"""Fusion groups (`symshape.tools.fusion.groups`, the ``fusion-groups`` pass) on seed 000's examples as MHLO
and on an ONNX layernorm + softmax checked by onnxruntime; the pass's output and its report.

Each group's claim is checked at concrete sizes by `check_group`: every member of a kLoop group
has the same shape, every member of a kInput group the same element count (a reduction counts
its input), every member of a kStitch group the element count of the reductions' input or of
their result, and all reductions of a group the same input shape.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from onnx import helper

from symshape.algebra.expr import evaluate
from symshape.errors import ModelError
from symshape.tools.fusion.groups import LEVELS, FusionGroup, FusionPlan, fusion_groups, fusion_plans
from symshape.tools.mlir_passes.opt import run_opt
from tests.oracle import check_model, const, make_model, tensor
from tests.paths import TESTS

Shape = tuple[int, ...]


def check_group(group: FusionGroup, shape: Callable[[str], Shape | None], env: Mapping[str, int]) -> None:
    """The group's claim at one size (see the module docstring); ``shape`` is the oracle's."""
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


# ------------------------------------------------------------------------ seed 000 as MHLO

INPUTS = TESTS / "fusion_inputs"
REDUNDANT_BROADCAST = (INPUTS / "seed000_fusion_redundant_broadcast_mhlo.mlir").read_text()
ENCODED = (INPUTS / "seed000_fusion_encoded.mlir").read_text()  # seed 000's [@S0, @S1] encodings


def opt(tmp_path: Path, text: str, *passes: str, **options: object) -> str:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return run_opt(path, list(passes), **options)  # pyright: ignore[reportArgumentType]


def test_the_pass_marks_each_group_and_reports_every_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = opt(tmp_path, REDUNDANT_BROADCAST, "fusion-groups")
    report = capsys.readouterr().out
    assert report.splitlines() == [
        "// fusion-groups @main: 4 ops, 3 fusible",
        "//   facts: 1 group fuses 3 of 3 fusible ops (1 kLoop, 0 kInput, 0 kStitch); 1 kernel",
        "//   elementwise: 1 group fuses 2 of 3 fusible ops (1 kLoop, 0 kInput, 0 kStitch); 2 kernels",
        "//   static: 0 groups fuse 0 of 3 fusible ops (0 kLoop, 0 kInput, 0 kStitch); 3 kernels",
        "//   group 0 kLoop over [10, 10]: 3 ops",
    ]
    marked = [line for line in out.splitlines() if "symshape.fusion_group = 0 : i64" in line]
    assert len(marked) == 3
    assert all('symshape.fusion_kind = "kLoop"' in line for line in marked)
    assert "shape_of" not in "".join(marked)


def test_a_baseline_marks_only_what_the_types_show(tmp_path: Path) -> None:
    from symshape.tools.mlir_passes.fusion_groups import FusionGroupsPass
    from symshape.tools.mlir_passes.opt import parse_text, print_module

    ctx, module = parse_text(REDUNDANT_BROADCAST)
    FusionGroupsPass(knowledge="static").apply(ctx, module)
    assert "fusion_group" not in print_module(module)
    FusionGroupsPass(knowledge="elementwise").apply(ctx, module)
    text = print_module(module)
    assert text.count("symshape.fusion_group") == 2
    FusionGroupsPass().apply(ctx, module)
    assert print_module(module).count("symshape.fusion_group") == 3


def test_rerunning_the_pass_gives_the_same_text(tmp_path: Path) -> None:
    once = opt(tmp_path, REDUNDANT_BROADCAST, "fusion-groups")
    assert opt(tmp_path, once, "fusion-groups") == once


def test_the_constraint_ir_makes_two_sources_one_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = opt(tmp_path, ENCODED, "fusion-groups")
    report = capsys.readouterr().out
    assert "facts: 1 group fuses 4 of 4 fusible ops" in report
    assert "elementwise: 1 group fuses 3 of 4 fusible ops" in report
    assert out.count("symshape.fusion_group = 0 : i64") == 4
    assert "\"symshape.symbolic_dim\"() <{sym_name = \"S0\"}>" in out  # the constraint IR stays (generic form)


def test_user_facts_reach_the_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = ENCODED.replace(", [@S0, @S1]", "").replace("symshape.symbolic_dim @S0\nsymshape.symbolic_dim @S1\n", "")
    opt(tmp_path, plain, "fusion-groups")
    assert "facts: 1 group fuses 3 of 4" in capsys.readouterr().out
    opt(tmp_path, plain, "fusion-groups", facts=["x_d0 == y_d0", "x_d1 == y_d1"])
    assert "facts: 1 group fuses 4 of 4" in capsys.readouterr().out


def test_an_unknown_level_is_a_one_line_error(tmp_path: Path) -> None:
    from symshape.frontends.mlir.frontend import analyze_mlir_text
    from symshape.tools.mlir_passes.fusion_groups import FusionGroupsPass
    from symshape.tools.mlir_passes.opt import parse_text

    with pytest.raises(ModelError, match="expected one of static, elementwise, facts"):
        fusion_groups(analyze_mlir_text(REDUNDANT_BROADCAST), "types")
    ctx, module = parse_text(REDUNDANT_BROADCAST)
    with pytest.raises(ModelError, match="knowledge 'all'"):
        FusionGroupsPass(knowledge="all").apply(ctx, module)


def parses_in_iree_opt(out: str) -> None:
    """``out`` parses in ``iree-opt --allow-unregistered-dialect`` and keeps every group mark."""
    iree = shutil.which("iree-opt")
    assert iree is not None
    done = subprocess.run([iree, "--allow-unregistered-dialect", "-"], input=out, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("symshape.fusion_group") == out.count("symshape.fusion_group")


@pytest.mark.needs_iree
def test_the_default_output_parses_in_iree_opt(tmp_path: Path) -> None:
    parses_in_iree_opt(opt(tmp_path, REDUNDANT_BROADCAST, "fusion-groups"))


# ------------------------------------------------------------------------ ONNX, onnxruntime


def layernorm_softmax() -> object:
    """LayerNorm over the last axis of x[batch, seq, 8], then a softmax over it."""
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["mean"], axes=[-1]),
        helper.make_node("Sub", ["x", "mean"], ["d"]),
        helper.make_node("Mul", ["d", "d"], ["d2"]),
        helper.make_node("ReduceMean", ["d2"], ["var"], axes=[-1]),
        helper.make_node("Sqrt", ["var"], ["std"]),
        helper.make_node("Div", ["d", "std"], ["y"]),
        helper.make_node("Exp", ["y"], ["e"]),
        helper.make_node("ReduceSum", ["e", "last"], ["total"]),
        helper.make_node("Div", ["e", "total"], ["p"]),
    ]
    return make_model(nodes, [tensor("x", ["batch", "seq", 8])], [tensor("p", ["batch", "seq", 8])],
                      initializers=[const("last", [-1])], opset=17)


def test_onnx_layernorm_and_softmax_are_one_stitch_group() -> None:
    sizes = [{"batch": 1, "seq": 1}, {"batch": 2, "seq": 5}, {"batch": 3, "seq": 0}]
    analysis, runs = check_model(layernorm_softmax(), sizes)  # pyright: ignore[reportArgumentType]
    plans = fusion_plans(analysis)
    check_containment(plans)
    facts = plans["facts"]
    assert [(g.kind, len(g.members)) for g in facts.groups] == [("kStitch", 9)]
    for run in runs:
        for level in LEVELS:
            for group in plans[level].groups:
                check_group(group, run.shapes.get, run.env)
