"""The CI-sized run of the MLIR fuzzer (tests/fuzz/mlir_programs.py): a fixed number of random
jnp shape programs from a fixed seed, each exported by jax with symbolic shapes, analyzed by
symshape and checked against ``jax.eval_shape`` and StableHLO's shape refinement at the sizes jax
accepts. The long run is ``python -m tests.fuzz --minutes N``."""

from __future__ import annotations

import pathlib
import time

import pytest

from tests.fuzz.mlir_programs import Program, Stats, Step, check_subject, fuzz

pytestmark = pytest.mark.needs_jax

PROGRAMS = 90  # about a minute on an idle 2-core machine
SEED = 20261125


def test_random_programs_match_jax(tmp_path: pathlib.Path) -> None:
    start = time.monotonic()
    stats = fuzz(seed_value=SEED, count=PROGRAMS, out=tmp_path)
    summary = f"{stats.summary(time.monotonic() - start)} seed={SEED}"
    print(summary)  # noqa: T201
    assert not stats.failures, stats.failures
    assert stats.kept >= PROGRAMS // 3, f"jax kept too few programs to mean anything: {summary}"
    assert stats.dims >= 10 * stats.kept, summary


def test_a_wrong_dim_is_caught() -> None:
    """The fuzzer's check is live: a program whose analysis is replaced by another program's
    (a transpose's shape for a flatten) fails."""
    flatten = Program(("b, s",), (Step("flatten", (0, 0), (0,) * 8),))
    transpose = Program(("b, s",), (Step("transpose", (0, 0), (1, 0, 0, 0, 0, 0, 0, 0)),))
    subject = flatten.subject()
    subject.__dict__["analysis"] = transpose.subject().analysis
    message = check_subject(subject, [{"b": 2, "s": 3}], Stats())
    assert message is not None and "unsound" in message
