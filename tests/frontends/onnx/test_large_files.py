"""Large and broken files: a model whose weights (external data) are over 2 GB is analyzed
without reading them, missing or truncated weight files do not matter (symshape never reads
weights: the analysis is the same as with the file), a graph with a cycle gets an error naming
the cycle's values, a 100k-node chain goes through analysis, printing, JSON and annotate
without a RecursionError, and contradictory user facts give an error naming both.

The chain is `CHAIN` nodes long (100k; about 10 s on a quiet machine).
"""

from __future__ import annotations

import io
import os
import sys
import tracemalloc
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from symshape.errors import ModelError
from symshape.tools.annotate import annotate_model
from symshape.tools.outputs import OutputOptions, render, writer
from tests.fuzz.reader_check import check_cli, run_cli
from tests.fuzz.readers import SMALL_MODEL

N = helper.make_node
CHAIN = 100_000
ROWS, COLS = 640, 2**20  # float32 weights: 2.5 GiB
BIG = ROWS * COLS * 4


def external_weight_model(folder: Path, length: int = BIG) -> Path:
    """``y = x @ w`` with ``w`` [ROWS, COLS] float32 in ``weights.bin`` (not created here)."""
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[ROWS, COLS], data_location=TensorProto.EXTERNAL)
    for key, value in (("location", "weights.bin"), ("offset", "0"), ("length", str(length))):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    g = helper.make_graph(
        [N("MatMul", ["x", "w"], ["y"], name="mm"), N("Shape", ["y"], ["s"], name="shape")],
        "big",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", ROWS])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None), helper.make_tensor_value_info("s", 7, None)],
        [w],
    )
    path = folder / "model.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def sparse(path: Path, size: int) -> None:
    path.write_bytes(b"")
    os.truncate(path, size)


def assert_big_model_analyzed(model: Path) -> None:
    result = analyze_onnx(model)
    assert result.shape("y") == (sym("n"), COLS)
    for args in (["analyze", str(model)], ["analyze", str(model), "--format", "json"]):
        assert check_cli(args, [model], seconds=60) is None
    out = model.parent / "out" / "annotated.onnx"
    assert check_cli(["annotate", str(model), "-o", str(out)], [model], seconds=60) is None
    written = onnx.load(str(out), load_external_data=False)
    assert [(e.key, e.value) for e in written.graph.initializer[0].external_data][0] == ("location", "../weights.bin")


def test_weights_over_2gb_in_a_sparse_file(tmp_path: Path) -> None:
    model = external_weight_model(tmp_path)
    sparse(tmp_path / "weights.bin", BIG)
    assert (tmp_path / "weights.bin").stat().st_size > 2**31
    tracemalloc.start()
    try:
        assert_big_model_analyzed(model)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"peak {peak / 2**20:.0f} MiB: were the weights read?"


def test_weights_are_never_opened(tmp_path: Path) -> None:
    """The weights file is a FIFO: opening it for reading would block (a hang over the limit)."""
    model = external_weight_model(tmp_path)
    os.mkfifo(tmp_path / "weights.bin")
    assert_big_model_analyzed(model)


@pytest.mark.parametrize("weights", ["missing", "truncated", "empty"])
def test_missing_or_truncated_weights_do_not_change_the_analysis(tmp_path: Path, weights: str) -> None:
    """symshape reads dims, never weights: a user analyzing shapes needs no weights file."""
    model = external_weight_model(tmp_path)
    if weights != "missing":
        sparse(tmp_path / "weights.bin", {"truncated": BIG // 3, "empty": 0}[weights])
    assert_big_model_analyzed(model)


# ------------------------------------------------------------------------------ cycles


def cycle_model(nodes: list[onnx.NodeProto], output: str) -> onnx.ModelProto:
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", 1, ["n"])], [helper.make_tensor_value_info(output, 1, None)]
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_a_cycle_names_its_values() -> None:
    nodes = [N("Add", ["x", "c"], ["a"], name="add"), N("Relu", ["a"], ["b"], name="relu"), N("Neg", ["b"], ["c"])]
    pattern = r"Add \(node 'add'\): input 'c' is on a cycle: 'a' -> 'b' -> 'c' -> 'a', expected an acyclic graph"
    with pytest.raises(ModelError, match=pattern):
        analyze_onnx(cycle_model(nodes, "c"))


def test_a_node_reading_its_own_output() -> None:
    with pytest.raises(ModelError, match="input 'a' is on a cycle: 'a' -> 'a'"):
        analyze_onnx(cycle_model([N("Add", ["x", "a"], ["a"], name="self")], "a"))


def test_out_of_order_is_not_called_a_cycle() -> None:
    nodes = [N("Neg", ["a"], ["b"], name="neg"), N("Relu", ["x"], ["a"], name="relu")]
    with pytest.raises(ModelError, match="input 'a' is used before any node produces it"):
        analyze_onnx(cycle_model(nodes, "b"))


def test_a_cycle_through_a_long_chain(tmp_path: Path) -> None:
    nodes = [N("Add", ["x", f"v{CHAIN - 1}"], ["v0"], name="first")]
    nodes += [N("Relu", [f"v{i}"], [f"v{i + 1}"]) for i in range(CHAIN - 1)]
    path = tmp_path / "cycle.onnx"
    onnx.save(cycle_model(nodes, f"v{CHAIN - 1}"), path)
    code, _, err = run_cli(["analyze", str(path)])
    assert code == 2, err
    assert f"input 'v{CHAIN - 1}' is on a cycle: 'v0' -> 'v1' -> 'v2' -> 'v3' -> ... ({CHAIN - 7} more)" in err
    assert f"'v{CHAIN - 1}' -> 'v0', expected an acyclic graph" in err


# ---------------------------------------------------------------------- a 100k-deep chain


def test_a_100k_node_chain(tmp_path: Path) -> None:
    """Walks, printing, JSON and annotate are iterative (the recursion limit stays the default)."""
    nodes = [N("Relu", [f"v{i}"], [f"v{i + 1}"]) for i in range(CHAIN)]
    g = helper.make_graph(
        nodes,
        "chain",
        [helper.make_tensor_value_info("v0", 1, ["n", 3])],
        [helper.make_tensor_value_info(f"v{CHAIN}", 1, None)],
    )
    path = tmp_path / "chain.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    assert sys.getrecursionlimit() <= 10_000
    model = onnx.load(str(path))
    result = analyze_onnx(model)
    assert result.shape(f"v{CHAIN}") == (sym("n"), 3)
    assert f'"v{CHAIN}"' in render(result, "json")
    summary = io.StringIO()
    writer("summary")(result, summary, OutputOptions())  # --all-values: 0.6 ms a line through rich
    assert f"{CHAIN + 1} x n" in summary.getvalue()
    assert annotate_model(model, result) == CHAIN


# ---------------------------------------------------------------- contradictory user facts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("batch >= 10", "batch <= 5"),
        ("batch=1..4", "batch > 9"),
        ("Mod(batch, 2) == 0", "batch == 3"),
        ("batch == seq + 1", "seq >= batch"),
    ],
)
def test_contradictory_facts_name_both(first: str, second: str) -> None:
    code, _, err = run_cli(["analyze", str(SMALL_MODEL), "--assume", first, "--assume", second])
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"error: user fact '{second}'") and f"user fact '{first}'" in lines[0]
    assert "(run `symshape explain contradictionerror`)" in lines[0]
