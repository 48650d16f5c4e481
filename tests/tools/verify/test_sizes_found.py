"""The size picker of ``verify`` and ``optimize --verify`` finds sizes for equations only some
residues meet (detection heads: ``floor((h+15)/16) == 2*floor((h+31)/32)``, which holds for
``h % 32`` in ``{0} | [17, 31]``), also above a lower bound; and a check that ran nothing fails.
onnxruntime is the oracle: every size picked must run."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
from click.testing import CliRunner
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.app.cli import main
from symshape.tools.optimize.compare import compare_models
from symshape.tools.verify import OracleError, assignments
from tests.oracle import const, make_model, tensor


def strided_heads() -> onnx.ModelProto:
    """``x[..., ::16]`` beside ``x[..., ::32]`` twice, concatenated on the channel axis (so the
    lengths must be equal)."""
    nodes = [
        helper.make_node("Slice", ["x", "z", "big", "ax", "s16"], ["a"]),
        helper.make_node("Slice", ["x", "z", "big", "ax", "s32"], ["b1"]),
        helper.make_node("Concat", ["b1", "b1"], ["b"], axis=2),
        helper.make_node("Concat", ["a", "b"], ["y"], axis=1),
    ]
    inits = [const("z", [0]), const("big", [1 << 30]), const("ax", [2]), const("s16", [16]), const("s32", [32])]
    return make_model(nodes, [tensor("x", [1, 3, "h"])], [tensor("y", None)], initializers=inits)


def meets(h: int) -> bool:
    return (h + 15) // 16 == 2 * ((h + 31) // 32)


@pytest.mark.parametrize("assume", [(), ("h >= 64",), ("h >= 1000",)])
def test_sizes_meet_a_residue_equation_and_run(assume: tuple[str, ...], tmp_path: Path) -> None:
    model = strided_heads()
    analysis = analyze_onnx(model, facts=list(assume))
    envs = assignments(analysis, n=3)
    assert len(envs) >= 3 and all(meets(env["h"]) for env in envs), envs
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    args = [a for fact in assume for a in ("--assume", fact)]
    verify = CliRunner().invoke(main, ["verify", str(path), *args])
    assert verify.exit_code == 0 and "0 wrong" in verify.output and "refuses" not in verify.output, verify.output
    report = compare_models(model, model, analysis)
    assert report.ran >= 3 and not report.differed and not report.refused, report.lines


def test_optimize_verify_that_ran_nothing_fails(tmp_path: Path) -> None:
    """The Reshape target is an input named ``*mask*``, which the feeds fill with ones: onnxruntime
    refuses ``[1, 1, 1]`` for ``3*h`` elements at every size, a constraint on data symshape
    cannot see."""
    reshape = helper.make_node("Reshape", ["x", "shape_mask"], ["y"])
    model = make_model([reshape], [tensor("x", [1, 3, "h"]), tensor("shape_mask", [3], TensorProto.INT64)],
                       [tensor("y", None)])
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    result = CliRunner().invoke(main, ["optimize", str(path), "-o", str(tmp_path / "o.onnx"), "--verify"])
    assert result.exit_code != 0
    assert isinstance(result.exception, OracleError) and "nothing was compared" in str(result.exception)


def test_optimize_verify_runs_the_sizes_given(tmp_path: Path) -> None:
    """``optimize --verify --size`` compares at those sizes alone (onnxruntime runs each)."""
    path = tmp_path / "m.onnx"
    onnx.save(strided_heads(), path)
    chosen = [h for h in range(40, 200) if meets(h)][:3]
    sizes = f"h={','.join(map(str, chosen))}"
    out = str(tmp_path / "o.onnx")
    result = CliRunner().invoke(main, ["optimize", str(path), "-o", out, "--verify", "--size", sizes])
    assert result.exit_code == 0, result.output
    ran = [line.split(":")[0] for line in result.output.splitlines() if line.endswith(" identical")]
    assert ran == [f"h={h}" for h in chosen]
    assert result.output.splitlines()[-1].startswith("verify: 3 sizes run, outputs identical")


def test_optimize_size_without_verify_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(strided_heads(), path)
    result = CliRunner().invoke(main, ["optimize", str(path), "-o", str(tmp_path / "o.onnx"), "--size", "h=48"])
    assert result.exit_code == 2 and "give --verify too" in result.output
    assert not (tmp_path / "o.onnx").exists()
