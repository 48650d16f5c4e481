"""The fuzzers' worker process: a check that aborts ends that check only, a hang is reported, and
a check still runs after the parent has started jax's and onnxruntime's thread pools (a forked
child of such a process hung CI once)."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest
from onnx import helper

from tests.fuzz import isolation
from tests.oracle import make_model, tensor
from tests.oracle import run as run_model


def test_an_abort_ends_the_check_only() -> None:
    assert isolation.isolated(os.abort) is None
    assert isolation.isolated(divmod, 7, 2) == (3, 1)


def test_a_hang_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "TIMEOUT_SECONDS", 0.5)
    with pytest.raises(isolation.CheckTimedOut, match="sleep gave no answer"):
        isolation.isolated(time.sleep, 30)
    assert isolation.isolated(divmod, 9, 4) == (2, 1)


def test_checks_run_after_the_parent_started_onnxruntime() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"])], [tensor("x", ["n", 3])], ["y"])
    run_model(model, {"x": np.ones((2, 3), np.float32)})
    assert isolation.isolated(divmod, 5, 5) == (1, 0)


@pytest.mark.needs_jax
def test_checks_run_after_the_parent_started_jax() -> None:
    import jax.numpy as jnp  # noqa: PLC0415 - needs_jax: skipped before this when jax is missing

    assert int(jnp.arange(4).sum()) == 6
    assert isolation.isolated(divmod, 5, 5) == (1, 0)
