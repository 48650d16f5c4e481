"""What ``symshape opt`` prints by default goes straight into MLIR's own tools.

Every MLIR test input under ``tests/`` (the seed and jax modules, the filecheck inputs, and the
pretty form of every op of ``tests/op_forms``), through every pass and with no pass, is printed
the default way and handed to ``iree-opt --allow-unregistered-dialect`` (the independent
oracle: a real MLIR parser with func, arith, tensor, shape and stablehlo verifiers). symshape's
own ops and the other dialects MLIR does not ship are printed in generic form; upstream ops may
stay pretty. The only inputs symshape refuses are the ones written to be invalid.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from symshape.errors import SymshapeError
from symshape.tools.mlir_passes.opt import SPLIT_MARKER, parse_text, print_module, run_passes, verify
from tests._op_forms import DIALECTS, read_chunks
from tests.paths import TESTS

INVALID = {"constraint-dialect-invalid.mlir"}
PIPELINES = [
    "",
    "shape-optimization",
    "shape-optimization{refine-signatures=true}",
    "shape-sources",
    "aux-shape-functions",
]


def _inputs() -> dict[str, list[str]]:
    """Group name -> module texts (one iree-opt run per group and pipeline)."""
    groups: dict[str, list[str]] = {}
    for path in sorted((TESTS / "mlir_inputs").glob("*.mlir")) + sorted((TESTS / "filecheck").glob("*.mlir")):
        if path.name not in INVALID:
            groups[f"{path.parent.name}/{path.name}"] = path.read_text().split(SPLIT_MARKER)
    for dialect in DIALECTS:
        groups[f"op_forms/{dialect}"] = [c.pretty for c in read_chunks(dialect) if not c.historic]
    return groups


GROUPS = _inputs()


def default_output(text: str, pipeline: str) -> str:
    """What ``symshape opt -p PIPELINE`` prints for ``text`` with no printing flag."""
    ctx, module = parse_text(text)
    verify(module, "<input>")
    run_passes(ctx, module, pipeline)
    verify(module, "<input>", after=pipeline)
    return print_module(module)


def iree_parse(texts: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "out.mlir"
    path.write_text(f"\n{SPLIT_MARKER}\n".join(texts))
    return subprocess.run(
        ["iree-opt", "--allow-unregistered-dialect", "--split-input-file", str(path)],
        capture_output=True, text=True, timeout=600, check=False,
    )


CUSTOM_SYMSHAPE = re.compile(r"^\s*(?:%[\w#:, %]+=\s*)?symshape\.", re.M)


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", PIPELINES, ids=lambda p: p or "print")
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_default_output_parses_in_iree_opt(group: str, pipeline: str, tmp_path: Path) -> None:
    outputs = [default_output(text, pipeline) for text in GROUPS[group]]
    for out in outputs:
        assert not CUSTOM_SYMSHAPE.search(out), out  # symshape's ops in generic form
    done = iree_parse(outputs, tmp_path)
    assert done.returncode == 0, done.stderr[:4000]


def test_only_the_invalid_inputs_are_refused() -> None:
    """Every other test input gets a printed module through every pass, never an error."""
    refused: list[str] = []
    for group, texts in GROUPS.items():
        for i, text in enumerate(texts):
            try:
                default_output(text, "shape-optimization")
            except SymshapeError as err:
                refused.append(f"{group}#{i}: {err}")
    assert not refused


def test_the_invalid_inputs_are_refused_one_line_each() -> None:
    texts = (TESTS / "filecheck" / "constraint-dialect-invalid.mlir").read_text().split(SPLIT_MARKER)
    for text in texts:
        with pytest.raises(SymshapeError, match="does not verify") as info:
            default_output(text, "")
        assert "\n" not in str(info.value)


def test_upstream_ops_stay_pretty_and_the_others_go_generic() -> None:
    text = """
    func.func @f(%a: tensor<?x4xf32>, %b: tensor<4x?xf32>) -> tensor<?x?xf32> {
      %c0 = arith.constant 0 : index
      %d = tensor.dim %a, %c0 : tensor<?x4xf32>
      %0 = stablehlo.add %a, %b : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
      return %0 : tensor<?x?xf32>
    }
    """
    out = default_output(text, "shape-optimization")
    assert '"symshape.symbolic_dim"() <{sym_name = "C4"}> {value = 4 : i64} : () -> ()' in out
    assert '"stablehlo.add"(' in out
    assert "func.func @f(" in out and "func.return " in out
    custom = print_module(parse_text(out)[1], custom=True)
    assert "symshape.symbolic_dim @C4 {value = 4 : i64}" in custom  # symshape's own form on request


def test_an_op_with_a_property_xdsl_lacks_prints_generic() -> None:
    """iree-opt prints ``arith.trunci`` with ``overflowFlags``; xDSL's class has no such property,
    so symshape keeps it as an attribute and prints the op in generic form (MLIR refuses an
    inherent attribute in a custom form's attribute dictionary)."""
    text = """
    "builtin.module"() ({
      "func.func"() <{function_type = (i64) -> i32, sym_name = "f"}> ({
      ^bb0(%arg0: i64):
        %0 = "arith.trunci"(%arg0) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
        "func.return"(%0) : (i32) -> ()
      }) : () -> ()
    }) : () -> ()
    """
    out = default_output(text, "")
    assert '"arith.trunci"(%arg0) {overflowFlags = #arith.overflow<none>} : (i64) -> i32' in out
