"""The CI-sized run of the ONNX program fuzzer (`tests.fuzz.onnx_programs`): a fixed set of
random shape programs (derandomized hypothesis, so every run draws the same ones), each analyzed
and run with onnxruntime at 3-5 assignments of its symbols (0 and 1 often). Every claimed dim,
element, range and predicate must match what ran unless a listed guard is false there. The long
run is ``python -m tests.fuzz --minutes N --only onnx``."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
from hypothesis import given, settings

from tests.fuzz import onnx_programs
from tests.fuzz.onnx_programs import UNHEALTHY, Program, Tally, check_program, programs

EXAMPLES = 1500  # about a minute here (1000 take 37 s on an idle machine)

tally = Tally()


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=UNHEALTHY)
@given(programs())
def _one_program(p: Program) -> None:
    message = check_program(p, tally)
    assert message is None, f"{message}\nops: {p.ops}\nsizes: {p.envs}"


def test_generated_onnx_programs_match_onnxruntime() -> None:
    _one_program()
    print(f"seed=derandomized {tally.line()}")
    assert tally.kept >= 0.75 * tally.programs, tally.line()  # most programs are valid by construction
    assert tally.dims >= 20 * tally.kept, tally.line()  # and most of their sizes were compared


def test_the_long_run_saves_each_failing_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m tests.fuzz`` writes the model, its sizes and the message of a failing case."""
    def fails(p: Program, tally: Tally, out: Path) -> str:
        return "'y' dim 0 = 'n' = 3, observed 4"

    monkeypatch.setattr(onnx_programs, "check_isolated", fails)
    assert onnx_programs.run(0.02, 7, tmp_path, batch=3) >= 1
    case = sorted(tmp_path.iterdir())[0]
    assert sorted(f.name for f in case.iterdir()) == ["message.txt", "model.onnx", "sizes.json"]
    assert onnx.ModelProto.FromString((case / "model.onnx").read_bytes()).graph.node
    assert "observed 4" in (case / "message.txt").read_text()
