"""Cases the MLIR fuzzer (tests/fuzz/mlir_programs.py) found, each reduced to the jnp program
that showed it and checked against jax as the fuzzer does (tests/jax_oracle.py): every one failed
on the code before its fix."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from tests.jax_oracle import Subject, case, check_subject

pytestmark = pytest.mark.needs_jax


def irfft(x: jax.Array) -> jax.Array:
    """jax's irfft of a length-1 axis: ``fft_length`` 0 on an operand whose last dim is 1 (the
    StableHLO spec's table wants 0 there; StableHLO and jax run it). symshape raised a
    contradiction on this valid module."""
    return jnp.fft.irfft(x.astype(jnp.complex64))


REGRESSIONS = [
    case("irfft_of_a_length_one_axis_static", irfft, (1,), envs=[{}]),
    case("irfft_of_a_length_one_axis", irfft, "b, 1"),
    case("irfft_of_a_length_one_axis_batched", lambda x: jnp.fft.irfft(x.astype(jnp.complex64), axis=0), "1, s"),
]


@pytest.mark.parametrize(("subject", "envs"), REGRESSIONS)
def test_fuzzer_finding_matches_jax(subject: Subject, envs: list[dict[str, int]] | None) -> None:
    check_subject(subject, envs, min_accepted=1)
