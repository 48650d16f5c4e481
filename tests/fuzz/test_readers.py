"""Reader fuzzing, CI-sized (about a minute, fixed seed): hostile ONNX files, MLIR text,
``--assume``/``--dim``/``--likely`` facts and dimension expressions each end in a parsed input
or one ``error:`` line with exit status 1, never a traceback, a hang over 10 s or a write to
the input (the property: `tests.fuzz.reader_check`; the long run: ``tests/fuzz/readers.py``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from tests.fuzz import readers
from tests.fuzz.onnx_mutations import SEED_MODELS, mutate_bytes
from tests.fuzz.text_mutations import mutate_text

SEED = 11  # every hypothesis run below starts from this seed

DIM_TOKENS = (
    "n", "batch", "seq", "h", "a.b", "_x", "0", "1", "2", "7", "4096", "10**6", "-", "+", "*", "/", "//", "%", "**",
    "(", ")", ",", " ", "floor(", "ceiling(", "ceil(", "Max(", "Min(", "Mod(", "max(", "min(", "sqrt(",
    "99999999999999999999", "9" * 4400, "**64", "(a+b)*", "(a+b+c)**",
)  # fmt: skip
FACT_TOKENS = (
    *DIM_TOKENS, "==", "<=", ">=", "<", ">", "!=", "=", "~=", "..", "1..", "..8", ",", "\n", "\t", "é", "\x00",
)  # fmt: skip

dims = st.one_of(st.lists(st.sampled_from(DIM_TOKENS), max_size=24).map("".join), st.text(max_size=40))
facts = st.one_of(
    st.lists(st.sampled_from(FACT_TOKENS), max_size=20).map("".join),
    st.sampled_from(readers.SEED_FACTS),
    st.text(max_size=40),
)


def fuzz(n: int):  # noqa: ANN201 - a decorator factory
    return settings(
        max_examples=n,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def expect_ok(problem: str | None, data: bytes) -> None:
    assert problem is None, f"input {data[:300]!r}:\n{problem}"


@seed(SEED)
@fuzz(1000)
@given(dims)
def test_parse_dim(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    expect_ok(readers.dim_text(data, Path()), data)


@seed(SEED)
@fuzz(400)
@given(facts)
def test_assume_dim_likely(tmp_path: Path, text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    expect_ok(readers.assume_fact(data, tmp_path), data)


@seed(SEED)
@fuzz(200)
@given(facts, facts)
def test_two_facts(tmp_path: Path, first: str, second: str) -> None:
    data = f"{first.replace(chr(10), ' ')}\n{second}".encode("utf-8", "surrogatepass")
    expect_ok(readers.assume_pair(data, tmp_path), data)


@seed(SEED)
@fuzz(150)
@given(st.sampled_from(SEED_MODELS), st.randoms(use_true_random=False))
def test_onnx_bytes(tmp_path: Path, model: Path, rng: random.Random) -> None:
    data = mutate_bytes(model.read_bytes(), rng)
    expect_ok(readers.onnx_file(data, tmp_path), data)


@seed(SEED)
@fuzz(400)
@given(st.binary(min_size=1, max_size=8))
def test_onnx_fields(tmp_path: Path, key: bytes) -> None:
    expect_ok(readers.onnx_fields(key, tmp_path), key)


@seed(SEED)
@fuzz(300)
@given(st.sampled_from(readers.SEED_MLIR), st.randoms(use_true_random=False), st.booleans())
def test_mlir_text(tmp_path: Path, module: Path, rng: random.Random, as_bytes: bool) -> None:
    text = module.read_bytes()
    data = mutate_bytes(text, rng) if as_bytes else mutate_text(text.decode(), rng).encode()
    expect_ok(readers.mlir_file(data, tmp_path), data)


@pytest.mark.parametrize("kind", readers.KINDS)
def test_seed_inputs_pass(tmp_path: Path, kind: str) -> None:
    """The unmutated seeds are valid input (the targets themselves work)."""
    for data in readers.seed_inputs()[kind][:4]:
        expect_ok(readers.TARGETS[kind](data, tmp_path), data)
