"""Value fidelity of ``symshape opt`` (issue 21): every attribute and constant of an op that no
pass claims comes out exactly as it went in, on every MLIR input of the tests and on the
checked-in sample of upstream test modules (tests/mlir_upstream_sample/), with no pass and with
``shape-optimization`` and with ``for-iree``; and no input crashes, hangs or gets an internal error.

The comparison is tests/mlir_fidelity.py (both sides printed generically by iree-opt); the
same check over the whole fetched upstream corpus is benchmarks/mlir_upstream_corpus.py. The
first tests check the check itself: a changed hex float, a lost op or a changed attribute is
found, and what a pass declares in its ``REWRITES``/``ELIMINATES``/``ANNOTATES`` is what it
may change.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from tests.mlir_fidelity import (
    Claims,
    ModuleReport,
    check_modules,
    claims_of,
    compare,
    dead_ops,
    iree_generic,
    parse_generic,
    split_modules,
)
from tests.paths import TESTS

SAMPLE = TESTS / "mlir_upstream_sample"
PIPELINES = ("", "shape-optimization", "for-iree")
IDS = ["round-trip", "shape-optimization", "for-iree"]
INVALID_ON_PURPOSE = ("--verify-diagnostics", "expected-error")
"""A file whose RUN line or text says it holds invalid IR on purpose."""
NEVER = ("crash", "hang", "internal", "reader-error")


def mlir_inputs() -> list[tuple[str, str]]:
    """(name, module) of every ``.mlir`` file under tests/ (each ``// -----`` chunk on its own),
    but those that hold invalid IR on purpose."""
    out: list[tuple[str, str]] = []
    for path in sorted(TESTS.rglob("*.mlir")):
        text = path.read_text()
        if any(marker in text for marker in INVALID_ON_PURPOSE):
            continue
        rel = path.relative_to(TESTS).as_posix()
        chunks = split_modules(text) if "// -----" in text else [text]
        out += [(f"{rel}#{i}", chunk) for i, chunk in enumerate(chunks)]
    return out


@cache
def reports(pipeline: str) -> tuple[ModuleReport, ...]:
    """The differential check of ``pipeline`` over every input (computed once per run)."""
    return tuple(check_modules(mlir_inputs(), pipeline, timeout=60))


def _lines(bad: list[ModuleReport]) -> str:
    return "\n".join(f"{r.name}: {r.status}: {r.detail[:600]}" for r in bad)


# --------------------------------------------------------------------------------------------
# The check itself


GENERIC = """\
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?xf32>) -> tensor<f32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = "stablehlo.maximum"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
    %3 = "arith.constant"() <{value = 0 : index}> : () -> index
    %4 = "tensor.dim"(%arg0, %3) : (tensor<?xf32>, index) -> index
    "func.return"(%1) : (tensor<f32>) -> ()
  }) {jax.note = "a // b {c}"} : (tensor<?xf32>) -> tensor<f32>
}) : () -> ()
"""


def test_reader_takes_every_op_with_its_attributes() -> None:
    ops = parse_generic(GENERIC)
    names = [op.name for op in ops]
    assert names == [
        "builtin.module",
        "func.func",
        "stablehlo.constant",
        "stablehlo.reduce",
        "stablehlo.maximum",
        "stablehlo.return",
        "arith.constant",
        "tensor.dim",
        "func.return",
    ]
    func = ops[1]
    assert dict(func.attrs) == {
        "function_type": "(tensor<?xf32>) -> tensor<f32>",
        "sym_name": '"main"',
        "jax.note": '"a // b {c}"',
    }
    assert ops[2].attrs == (("value", "dense<0xFF800000> : tensor<f32>"),)
    assert ops[4].function == "main" and ops[4].parent == 3
    assert ops[3].operands == ("%arg0", "%0") and ops[3].results == ("%1",)


def test_a_changed_hex_float_is_a_mismatch() -> None:
    before = parse_generic(GENERIC)
    after = parse_generic(GENERIC.replace("dense<0xFF800000>", "dense<4.28657869E+9>"))
    result = compare(before, after)
    assert result.mismatches == [
        "lost 1 of 1: stablehlo.constant {value = dense<0xFF800000> : tensor<f32>} in @main; "
        "the output has instead: value: dense<0xFF800000> : tensor<f32> -> dense<4.28657869E+9> : tensor<f32>"
    ]
    assert (result.ops, result.constants) == (9, 2)


def test_a_changed_float_constant_is_found_even_when_its_op_is_claimed() -> None:
    before = parse_generic(GENERIC)
    after = parse_generic(GENERIC.replace("dense<0xFF800000>", "dense<4.28657869E+9>"))
    result = compare(before, after, Claims(ops=frozenset({"stablehlo.*"})))
    assert [m.split(":")[0] for m in result.mismatches] == ["new float constant"]


def test_claimed_ops_may_change_and_dead_ones_may_go_when_declared() -> None:
    before = parse_generic(GENERIC)
    without_dim = parse_generic(re.sub(r'.*"tensor.dim".*\n', "", GENERIC))
    assert compare(before, without_dim).mismatches == ["lost 1 of 1: tensor.dim {} in @main"]
    assert not compare(before, without_dim, Claims(ops=frozenset({"tensor.*"}))).mismatches
    assert not compare(before, without_dim, Claims(eliminates=frozenset({"dead"}))).mismatches
    assert {before[i].name for i in dead_ops(before)} == {"tensor.dim", "arith.constant"}  # used by the dead dim
    without_return = parse_generic(re.sub(r'.*"func.return".*\n', "", GENERIC))
    assert compare(before, without_return, Claims(eliminates=frozenset({"dead"}))).mismatches


def test_an_added_attribute_and_an_encoding_are_told_apart() -> None:
    before = parse_generic(GENERIC)
    encoded = GENERIC.replace("(tensor<?xf32>) -> tensor<f32>, sym", "(tensor<?xf32, [@S0]>) -> tensor<f32>, sym")
    assert not compare(before, parse_generic(encoded)).mismatches
    reduce_type = "}) : (tensor<?xf32>, tensor<f32>) -> tensor<f32>"
    noted = GENERIC.replace(reduce_type, "}) {extra = 1 : i64} " + reduce_type[3:])
    result = compare(before, parse_generic(noted))
    assert [m.split(":")[0] for m in result.mismatches] == ["lost 1 of 1"]
    assert "extra: <none> -> 1 : i64" in result.mismatches[0]
    assert not compare(before, parse_generic(noted), Claims(annotates=frozenset({"extra"}))).mismatches


def test_whitespace_between_tokens_is_no_value() -> None:
    multi = '"x.op"() {d = #mhlo.dot<\n  lhs = [0],\n  rhs = [1]\n>, s = "a  b"} : () -> ()\n'
    one = '"x.op"() {d = #mhlo.dot< lhs = [0], rhs = [1] >, s = "a  b"} : () -> ()\n'
    quoted = '"x.op"() {d = #mhlo.dot<"lhs = [0], rhs = [1]">, s = "a  b"} : () -> ()\n'
    assert parse_generic(multi) == parse_generic(one)
    assert dict(parse_generic(one)[0].attrs)["s"] == '"a  b"'
    assert compare(parse_generic(multi), parse_generic(quoted)).mismatches


def test_every_pass_declares_what_it_rewrites() -> None:
    from symshape.tools.mlir_passes.pipeline import get_all_passes

    for name, load in get_all_passes().items():
        cls = load()
        assert isinstance(getattr(cls, "REWRITES", None), frozenset), name
        assert getattr(cls, "ELIMINATES", frozenset()) <= {"dead", "duplicates"}, name
    assert claims_of("").ops == frozenset()
    assert "arith.*" in claims_of("shape-optimization").ops
    assert "stablehlo.constant" not in claims_of("shape-optimization").ops


# --------------------------------------------------------------------------------------------
# Every MLIR input of the tests and the upstream sample


def test_the_inputs_include_the_upstream_sample_and_every_test_folder() -> None:
    names = {n.split("/")[0] for n, _ in mlir_inputs()}
    assert {"mlir_upstream_sample", "mlir_inputs", "mlir_corpus", "filecheck", "op_forms"} <= names
    sample = [n for n, _ in mlir_inputs() if n.startswith("mlir_upstream_sample/")]
    assert len(sample) == len(list(SAMPLE.glob("*.mlir"))) >= 40


@pytest.mark.needs_iree
def test_iree_opt_reads_the_upstream_sample() -> None:
    texts = [p.read_text() for p in sorted(SAMPLE.glob("*.mlir"))]
    unread = [p.error for p in iree_generic(texts) if p.text is None]
    assert not unread


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", PIPELINES, ids=IDS)
def test_opt_keeps_every_attribute_and_constant(pipeline: str) -> None:
    done = reports(pipeline)
    bad = [r for r in done if r.status in ("mismatch", "output-rejected")]
    assert not bad, f"{len(bad)} of {len(done)} modules changed a value or were rejected:\n{_lines(bad)}"
    compared = [r.comparison for r in done if r.comparison is not None]
    unread = [r for r in done if r.status == "unreadable-input"]  # mhlo's and symshape's own pretty forms
    assert len(compared) + len(unread) == len(done) and len(compared) > 350
    assert sum(c.constants for c in compared) > 100
    sample = [r for r in done if r.name.startswith("mlir_upstream_sample/")]
    assert all(r.status == "ok" and r.baseline == "input" for r in sample), _lines(sample)


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", PIPELINES, ids=IDS)
def test_opt_never_crashes_hangs_or_fails_internally(pipeline: str) -> None:
    bad = [r for r in reports(pipeline) if r.status in NEVER]
    assert not bad, _lines(bad)


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", PIPELINES, ids=IDS)
def test_opt_takes_every_valid_input(pipeline: str) -> None:
    refused = [r for r in reports(pipeline) if r.status == "refused"]
    assert not refused, _lines(refused)
