"""Every MLIR op symshape has a rule for parses in the pretty form real tools print and in the
generic form, on a machine without jax, and both forms give the same analysis.

The forms live in ``tests/op_forms/<dialect>.mlir`` (see ``tests/_op_forms.py``), printed by
``iree-opt`` (StableHLO, func, arith, tensor, shape) and jaxlib's MHLO from hand-written
snippets (``tests/op_forms/make_op_forms.py``). The tools are the independent oracle: here
``iree-opt`` and jaxlib read each pretty text and each generic text again and print the two
identically in generic form, so each pair is one module. The few *historic* ops no current
tool knows (``compute_reshape_shape``, ``cstr_reshapable``, MHLO's ``unary_einsum``) are in
the form the cited tests of their time printed. symshape's own dialect has no outside printer:
its pretty forms are its declarative assembly formats (``tests/filecheck/constraint-dialect.mlir``
round-trips them). ``func.arg`` and ``func.bind`` are not MLIR ops: the frontend emits them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from symshape.ir.dialects.hlo_ops import HLO_OPS, dialect_ops
from symshape.ir.parse import make_context
from symshape.rules.registry import known_ops
from tests._op_forms import DIALECTS, Chunk, all_chunks
from tests.paths import ROOT, TESTS

CHUNKS = all_chunks()
SYNTHETIC = {("func", "arg"), ("func", "bind")}  # made by symshape.frontends.mlir.frontend, never in a text


def _rule_ops() -> list[tuple[str, str]]:
    return [(d, op) for d, op in known_ops() if d in DIALECTS and (d, op) not in SYNTHETIC]


@pytest.fixture(scope="module")
def analyses() -> dict[str, Any]:
    """Every chunk analyzed in both forms by a fresh interpreter in which jax cannot be imported."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, str(TESTS / "_op_forms.py")], capture_output=True, text=True, env=env,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_jax_was_blocked(analyses):
    assert analyses["blocked"] == {"jax": True, "jaxlib": True, "jax._src.interpreters.mlir": True}


def test_every_op_with_a_rule_has_its_forms():
    covered = {c.op for c in CHUNKS}
    missing = [f"{d}.{op}" for d, op in _rule_ops() if (d, op) not in covered]
    assert not missing, f"add these ops to tests/op_forms/make_op_forms.py: {missing}"
    assert len(_rule_ops()) > 200


def _pretty_somewhere(dialect: str, op: str) -> bool:
    """Whether a chunk uses ``dialect.op`` in pretty form (a terminator inside a region)."""
    return any(f" {dialect}.{op} " in c.pretty for c in CHUNKS)


def test_every_op_of_the_hlo_table_has_its_forms():
    covered = {c.op for c in CHUNKS}
    missing = [
        f"{d}.{op}"
        for d in ("stablehlo", "mhlo")
        for op in dialect_ops(d)
        if (d, op) not in covered and not _pretty_somewhere(d, op)
    ]
    assert not missing, missing


def test_hlo_rules_exist_only_for_ops_of_the_table():
    for dialect, op in known_ops():
        if dialect in ("stablehlo", "mhlo"):
            assert op in HLO_OPS and dialect in HLO_OPS[op].dialects, f"{dialect}.{op}"


def test_the_rules_and_their_op_table_pull_in_no_xdsl():
    """The rules read the HLO op table (plain data); only the dialect definitions need xDSL."""
    code = ("from symshape.rules.registry import known_ops; known_ops(); import sys; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'onnx'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout


def test_every_op_with_a_rule_is_defined_by_its_dialect():
    registered = {op.name for op in make_context().loaded_ops}
    undefined = [f"{d}.{op}" for d, op in _rule_ops() if f"{d}.{op}" not in registered]
    assert not undefined, f"ops with a rule that read only in generic form: {undefined}"


@pytest.mark.parametrize("chunk", CHUNKS, ids=[c.key for c in CHUNKS])
def test_both_forms_parse_and_give_the_same_analysis(chunk: Chunk, analyses):
    got = analyses[chunk.key]
    assert "error" not in got["pretty"], got["pretty"]
    assert "error" not in got["generic"], got["generic"]
    assert got["pretty"]["digest"] == got["generic"]["digest"]


def test_the_analyses_are_informative(analyses):
    """The forms are compared on real results: the rules ran and inferred the shapes."""
    known = [k for k, v in analyses.items() if k != "blocked" and not v["pretty"]["digest"]["warnings"]]
    assert len(known) >= 0.9 * len(CHUNKS)
    for key in ("stablehlo.dot_general", "mhlo.reduce", "tensor.generate", "shape.with_shape", "arith.floordivsi"):
        digest = analyses[key]["pretty"]["digest"]
        assert not digest["warnings"] and not digest["unknown"], (key, digest)


# ------------------------------------------------------------------- the outside printers


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split("// -----")]


def _iree_generic(texts: list[str], tmp_path: Path, name: str) -> list[str]:
    path = tmp_path / f"{name}.mlir"
    path.write_text("\n// -----\n".join(texts))
    done = subprocess.run(["iree-opt", "--split-input-file", "--mlir-print-op-generic", str(path)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return _split(done.stdout)


IREE_DIALECTS = ("stablehlo", "func", "arith", "tensor", "shape")


@pytest.mark.needs_iree
@pytest.mark.parametrize("dialect", IREE_DIALECTS)
def test_iree_opt_reads_both_forms_as_one_module(dialect: str, tmp_path: Path):
    chunks = [c for c in CHUNKS if c.op[0] == dialect and not c.historic]
    assert chunks
    from_pretty = _iree_generic([c.pretty for c in chunks], tmp_path, "pretty")
    from_generic = _iree_generic([c.generic for c in chunks], tmp_path, "generic")
    for chunk, a, b in zip(chunks, from_pretty, from_generic, strict=True):
        assert a == b, chunk.key


def _jaxlib_generic(text: str) -> str:
    import io

    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    module = ir.Module.parse(text, context=mlir.make_ir_context())
    stream = io.StringIO()
    module.operation.print(file=stream, print_generic_op_form=True, enable_debug_info=False)
    return stream.getvalue()


@pytest.mark.needs_jax
def test_jaxlib_reads_both_mhlo_forms_as_one_module():
    chunks = [c for c in CHUNKS if c.op[0] == "mhlo" and not c.historic]
    assert len(chunks) > 100
    for chunk in chunks:
        assert _jaxlib_generic(chunk.pretty) == _jaxlib_generic(chunk.generic), chunk.key


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("%0 = stablehlo.reduce_precision %arg0, format = x5 : tensor<?x4xf32>",
         "expected a format like e5m10, got 'x5'"),
        ("%0 = stablehlo.fft %arg0, type = 4 : tensor<?x4xf32>", "identifier expected"),
        ("%0 = stablehlo.get_tuple_element %arg0 : (tensor<?x4xf32>) -> tensor<?x4xf32>", "Expected '\\['"),
        ("%0 = stablehlo.complex %arg0, %arg0 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>",
         "cannot tell the operand and result types of 'stablehlo.complex' from 3 types"),
    ],
)
def test_a_malformed_pretty_form_is_a_one_line_error(line: str, message: str):
    from symshape.errors import ModelError
    from symshape.ir.parse import parse_module

    text = f"func.func @main(%arg0: tensor<?x4xf32>) {{\n  {line}\n  return\n}}\n"
    pattern = f"file '<string>': cannot parse it at line [23], column .*{message}"
    with pytest.raises(ModelError, match=pattern) as caught:
        parse_module(text)
    assert "\n" not in str(caught.value)
