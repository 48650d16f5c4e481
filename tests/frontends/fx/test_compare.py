"""The torch.export frontend beside torch's own ShapeEnv, its command line, and its errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symshape.app.cli import main
from symshape.errors import ModelError
from tests.conftest import MODELS_DIR

pytestmark = pytest.mark.needs_torch_export


def _export(fn: Any, x_shape: tuple[int, ...]) -> Any:
    import torch

    class M(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return fn(x)

    dyn = ({a: torch.export.Dim.AUTO for a in range(len(x_shape))},)
    return torch.export.export(M(), (torch.randn(x_shape),), dynamic_shapes=dyn)


def test_a_size_torch_only_knows_as_data_is_proven_and_matches_runs() -> None:
    """``.item()`` of a tensor computed from a size is an unbacked symbol (``u0``) for torch;
    symshape follows the value and proves the size is the input's dim."""
    import torch

    from symshape.api import analyze_torch
    from tests.fx_oracle import check_exported
    from tests.oracle import assert_exact

    def fn(x: Any) -> Any:
        k = (torch.ones(1, dtype=torch.int64) * x.shape[0]).sum().item()
        return torch.zeros(k) + 1

    ep = _export(fn, (5, 3))
    analysis = analyze_torch(ep)
    head = analysis.notes[0]
    assert "0 differ" in head and "0 torch knows" in head, analysis.notes
    assert " 0 proven where" not in head, head  # at least one dim torch left to u0
    assert any(n.startswith("  symshape proves: ") and "(torch: u" in n for n in analysis.notes), analysis.notes
    rows, cols = _symbols(ep)
    out = analysis.program.outputs[0]
    assert str(analysis.shape(out)[0]) == rows
    assert_exact(check_exported(analysis, ep, [{rows: 2, cols: 3}, {rows: 5, cols: 2}, {rows: 9, cols: 4}]))


def _symbols(ep: Any) -> list[str]:
    x = next(n for n in ep.graph.nodes if n.op == "placeholder")
    return [str(d.node.expr) for d in x.meta["val"].shape]


def test_nonzero_is_data_dependent_for_both_and_sound() -> None:
    """``nonzero`` and a boolean mask index select a data-dependent count."""
    from symshape.api import analyze_torch
    from tests.fx_oracle import check_exported
    from tests.oracle import assert_sound

    ep = _export(lambda x: (x.nonzero(), x[x > 0] * 2), (4, 3))
    analysis = analyze_torch(ep)
    assert "0 differ" in analysis.notes[0]
    symbols = _symbols(ep)
    assert_sound(check_exported(analysis, ep, [dict(zip(symbols, s, strict=True)) for s in ((2, 3), (5, 2), (3, 7))]))


def test_an_in_memory_program_takes_the_users_dim_names() -> None:
    import torch

    from symshape.api import analyze_torch
    from tests.fx_oracle import check_exported
    from tests.oracle import assert_exact

    class F(torch.nn.Module):
        def forward(self, x: Any, y: Any) -> Any:
            return torch.cat([x, y], dim=1)[:, 1:]

    batch, seq, tail = torch.export.Dim("batch"), torch.export.Dim("seq"), torch.export.Dim("tail")
    ep = torch.export.export(F(), (torch.randn(2, 5), torch.randn(2, 3)),
                             dynamic_shapes=({0: batch, 1: seq}, {0: batch, 1: tail}))
    analysis = analyze_torch(ep)
    out = analysis.program.outputs[0]
    # named Dims admit 0: the slice [1:] of an empty concatenation is empty, not -1
    assert [str(d) for d in analysis.shape(out)] == ["batch", "Max(0, seq + tail - 1)"]
    samples = [{"batch": 2, "seq": 5, "tail": 3}, {"batch": 1, "seq": 1, "tail": 1}, {"batch": 4, "seq": 0, "tail": 0}]
    assert_exact(check_exported(analysis, ep, samples))
    # torch's meta says s27 + s94 - 1 (it reasons as if sizes were >= 2): the comparison lists it
    assert "1 differ" in analysis.notes[0], analysis.notes
    assert analysis.notes[1].startswith(f"  differs: {out} dim 1: symshape Max(0, seq + tail - 1)"), analysis.notes


def test_the_command_line_reads_a_pt2_and_compares_with_torch() -> None:
    result = CliRunner().invoke(main, ["analyze", str(MODELS_DIR / "gpt2_past.pt2")])
    assert result.exit_code == 0, result.output
    assert "s15 + s70" in result.output  # the present KV length: past + seq
    line = next(x for x in result.output.splitlines() if x.startswith("torch.export:"))
    assert "0 differ" in line and int(line.split()[1]) > 300


def test_a_file_that_is_not_a_saved_program_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "model.pt2"
    bad.write_bytes(b"not a zip archive")
    done = subprocess.run([sys.executable, "-m", "symshape", "analyze", str(bad)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and "not a saved torch.export program" in done.stderr, done.stderr


def test_the_api_refuses_what_is_not_an_exported_program() -> None:
    from symshape.api import analyze_torch

    with pytest.raises(ModelError, match="expected a torch.export.ExportedProgram"):
        analyze_torch(object())
