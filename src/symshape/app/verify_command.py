"""``symshape verify``: run a model with onnxruntime at several sizes and check every analyzed
dim (the command; registered by `symshape.app.cli` with the shared fact options)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from symshape.app.options import model_argument, parse_sizes, size_option
from symshape.errors import UserFactError

if TYPE_CHECKING:
    from symshape.engine.result import Analysis


@model_argument
@click.option(
    "-n",
    "--samples",
    default=3,
    show_default=True,
    type=click.IntRange(min=1),
    help="Assignments with distinct, non-1 sizes.",
)
@click.option("--no-edge", is_flag=True, help="Skip the edge samples (dims that may be 1 set to 1).")
@size_option
@click.option(
    "--sizes-around-guards",
    "around_guards",
    is_flag=True,
    help="Also run sizes just inside and just outside every printed guard; a guard broken by a size "
    "the model accepts is a failure.",
)
def verify(
    model: Path,
    samples: int,
    no_edge: bool,
    sizes: tuple[str, ...],
    around_guards: bool,
    assume: tuple[str, ...],
    dim: tuple[str, ...],
    likely: tuple[str, ...],
    value: tuple[str, ...],
) -> None:
    """Run MODEL with onnxruntime at several input sizes and check every analyzed dim.

    Exits with status 1 when any dim is wrong (an unsound claim not excused by a failed guard)
    or, with --sizes-around-guards, when a size the model accepts breaks a printed guard.
    """
    from symshape.api import analyze_onnx
    from symshape.engine.userfacts import from_options
    from symshape.tools.verify import OracleError, assignments, check, make_feeds
    from symshape.tools.verify.inputs import given_values
    from symshape.tools.verify.run import attempt_each

    result = analyze_onnx(model, facts=from_options(assume, dim, likely, value))
    values = parse_sizes(sizes, result)
    report = None
    envs = assignments(result, n=samples, edge=not no_edge, values=values or None)
    given = given_values(result)
    if not envs:
        raise UserFactError(
            where="symshape verify",
            found="no assignment of the input symbols satisfies the facts and --size values",
            expected="at least one size for each input symbol that the facts admit",
            fix="loosen the --assume/--dim facts or give other --size values",
        )
    ran: list[dict[str, int]] = []
    feeds = [make_feeds(result.program, env, overrides=given) for env in envs]
    for env, observed in zip(envs, attempt_each(model, feeds), strict=True):
        if isinstance(observed, str):
            click.echo(f"{_env_text(env)}: onnxruntime refuses these sizes ({observed})")
            continue
        one = check(result, observed, env)
        click.echo(f"{_env_text(env)}: {one.checked} dims, {one.correct} correct, {len(one.wrong)} wrong")
        report = one if report is None else report.merge(one)
        ran.append(env)
    if report is None:
        raise OracleError(
            where="symshape verify",
            found=f"onnxruntime refuses every assignment tried ({len(envs)})",
            expected="sizes the model accepts",
            fix="give sizes the model runs at with --size NAME=V1,V2 (or facts with --assume/--dim)",
        )
    broken = _verify_around_guards(model, result, ran[0]) if around_guards else 0
    click.echo(report.summary())
    if report.wrong or report.wrong_elements or broken:
        sys.exit(1)


def _verify_around_guards(model: Path, result: Analysis, base: dict[str, int]) -> int:
    """Print a line per guard tried on both sides (and the dims checked there); return how many
    guards a size the model accepts breaks (wrong dims there exit through the report)."""
    from symshape.tools.verify.around import BROKEN, check_around_guards, summary

    probes, checked = check_around_guards(model, result, base)
    for p in probes:
        click.echo(p.line())
    click.echo(summary(probes))
    if checked.checked:
        click.echo(f"around guards: {checked.summary()}")
    return sum(p.verdict == BROKEN for p in probes) + len(checked.wrong) + len(checked.wrong_elements)


def _env_text(env: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(env.items())) or "(static)"
