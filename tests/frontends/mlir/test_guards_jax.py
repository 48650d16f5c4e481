"""What symshape assumes about the sizes, against what jax accepts: jax's symbolic constraints and
shape specifications become facts that hold at every size jax runs and fail only at sizes jax
rejects; and the oracle of tests/jax_oracle.py itself catches a wrong dim, a wrong element, an
over-strict claim and a rejected size (so a passing oracle test means something)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import jax.numpy as jnp
import pytest

from symshape.api import analyze_file
from symshape.frontends.mlir.frontend import analyze_mlir_text
from tests.jax_oracle import (
    Env,
    Rejected,
    Subject,
    case,
    check_at,
    check_claims,
    check_outputs,
    check_values,
    claims,
    grid,
    refine,
    run,
)

pytestmark = pytest.mark.needs_jax

WIDE = grid(["b", "s"], (1, 2, 3, 4, 6, 9))

CONSTRAINED = [
    case("lower_bound_then_slice", lambda x: x[:, 3:], "b, s", constraints=["s >= 3"], envs=WIDE),
    case("upper_bound", lambda x: x * 2.0, "b, s", constraints=["b <= 4"], envs=WIDE),
    case("relation_between_symbols", lambda x, y: jnp.concatenate([x, y], axis=1)[:, : x.shape[0]],
         "b, s", "b, 2", constraints=["s >= b"], envs=WIDE),
    case("two_bounds", lambda x: x.reshape(-1), "b, s", constraints=["s >= 2", "s <= 6"], envs=WIDE),
    case("even_size_from_the_spec", lambda x: x.reshape(2, -1), "2*b, s", envs=WIDE),
    case("offset_spec_keeps_zero", lambda x: x[1:], "b + 1, s", envs=WIDE),
]


def _holds(holds: Callable[[Env], bool], env: Env) -> bool | None:
    try:
        return holds(env)
    except KeyError:
        return None


@pytest.mark.parametrize(("subject", "envs"), CONSTRAINED)
def test_constrained_exports_match_jax(subject: Subject, envs: list[dict[str, int]]) -> None:
    run(subject, envs)


@pytest.mark.parametrize(("subject", "envs"), CONSTRAINED)
def test_sizes_that_break_a_claim_are_rejected_by_jax(subject: Subject, envs: list[dict[str, int]]) -> None:
    """Each size of the grid where one of symshape's claims fails is one jax refuses to run."""
    for text, holds in claims(subject.analysis):
        for env in envs:
            if _holds(holds, env) is False:
                assert not subject.accepts(env), f"symshape claims '{text}', false at {env}, but jax runs it"


def test_jax_constraints_become_facts_and_break_only_where_jax_refuses() -> None:
    """Non-vacuous: ``s >= 3`` is a claim, the grid has sizes that break it, jax rejects those."""
    subject = Subject(lambda x: x[:, 3:], ["b, s"], ["s >= 3"])
    assert subject.analysis.symbols()["s"]["range"][0] == 3
    broken = [env for env in WIDE if env["s"] < 3]
    assert broken and not any(subject.accepts(env) for env in broken)
    assert all(subject.accepts(env) for env in WIDE if env["s"] >= 3)


def test_a_relation_constraint_is_rejected_where_it_fails() -> None:
    subject = Subject(lambda x: x * 2.0, ["b, s"], ["s >= b"])
    for env in WIDE:
        assert subject.accepts(env) == (env["s"] >= env["b"]), env


# ------------------------------------------------------------------ the oracle itself


def test_oracle_catches_a_wrong_output_dim() -> None:
    """symshape's analysis of ``x[:, 1:]`` put in place of ``x[:, 2:]``'s: one dim differs."""
    right = Subject(lambda x: x[:, 1:], ["b, s"])
    wrong = Subject(lambda x: x[:, 2:], ["b, s"])
    wrong.__dict__["analysis"] = right.analysis
    check_outputs(right, {"b": 2, "s": 5})
    with pytest.raises(AssertionError, match="unsound"):
        check_outputs(wrong, {"b": 2, "s": 5})


def test_oracle_catches_a_wrong_intermediate_dim() -> None:
    """Refinement at one size against symshape evaluated at another: the intermediates differ."""
    subject = Subject(lambda x, y: jnp.tanh(x @ y).sum(axis=1), ["b, s", "s, 4"])
    refined = subject.refined({"b": 3, "s": 5})
    report = check_values(subject, {"b": 3, "s": 5}, refined)
    assert len(report.compared) >= 5 and not report.opaque
    with pytest.raises(AssertionError, match="unsound"):
        check_values(subject, {"b": 4, "s": 5}, refined)


def test_oracle_compares_tracked_elements_of_shape_tensors() -> None:
    """A reshape to ``(2*b*s,)`` builds its shape as a tensor; refinement folds it to constants,
    and symshape's tracked elements must evaluate to them."""
    subject = Subject(lambda x: jnp.concatenate([x, x]).reshape(-1), ["b, s"])
    refined = subject.refined({"b": 3, "s": 5})
    assert any(values == {(2 * 3 * 5,)} for values in refined.elements.values())
    report = check_values(subject, {"b": 3, "s": 5}, refined)
    assert report.elements >= 3


def test_oracle_catches_an_over_strict_claim() -> None:
    """A user fact ``s >= 4`` is a claim: false at s = 2, a size jax runs."""
    subject = Subject(lambda x: x + 1.0, ["b, s"])
    subject.__dict__["analysis"] = analyze_mlir_text(subject.text, facts=["s >= 4"])
    assert check_claims(subject, {"b": 1, "s": 5}) >= 1
    with pytest.raises(AssertionError, match="over-strict"):
        check_at(subject, {"b": 1, "s": 2})


def test_refinement_rejects_what_the_shape_assertions_reject() -> None:
    """Arguments that break the specification (``s`` of two different lengths) are rejected
    by jax's refinement; consistent ones give every value a static shape."""
    subject = Subject(lambda x, y: x + y, ["b, s", "s"])
    with pytest.raises(Rejected):
        refine(subject.text, [(2, 3), (4,)])
    refined = refine(subject.text, [(2, 3), (3,)])
    assert refined.shape("@main:%arg0") is None  # arguments are not op results: not probed
    assert {refined.shape(n) for n in refined.top_level} >= {(2, 3)}


def test_jax_rejects_a_zero_dimension_variable_but_not_a_zero_dim() -> None:
    """jax's dimension variables are >= 1 (so symshape may assume it); ``n - 1`` reaches 0."""
    plain = Subject(lambda x: x * 2.0, ["b, s"])
    assert not plain.accepts({"b": 0, "s": 3})
    shifted = Subject(lambda x: x * 2.0, ["n - 1, s"])
    assert shifted.accepts({"n": 1, "s": 3})
    assert shifted.expected_outputs({"n": 1, "s": 3}) == [(0, 3)]
    check_at(shifted, {"n": 1, "s": 3})
    assert plain.analysis.symbols()["b"]["range"][0] == 1


def test_the_public_api_reads_an_exported_file(tmp_path: Path) -> None:
    """``symshape.api.analyze_file`` of the export written to disk passes the same oracle."""
    subject = Subject(lambda x, y: jnp.concatenate([x, y])[:, ::2] @ y[:, ::2].T, ["b, s", "t, s"])
    path = tmp_path / "export.mlir"
    path.write_text(subject.text)
    subject.__dict__["analysis"] = analyze_file(path)
    run(subject)
