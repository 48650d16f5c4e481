"""The output seam: formats by name, ``analyze --format``, the JSON schema the README documents,
and the README's examples of the summary kept current."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import onnx
import pytest
from click.testing import CliRunner
from onnx import helper

import symshape.tools.outputs as outputs
from symshape.api import analyze_onnx
from symshape.app.cli import main
from symshape.errors import OutputError
from symshape.tools.outputs import OutputOptions, format_names, render
from symshape.tools.outputs.json import document
from tests.engine.test_causes import CONSTS, div_chain, three_breaks
from tests.oracle import const, make_model, tensor
from tests.paths import MODELS, ROOT

README = (ROOT / "README.md").read_text()
N = helper.make_node


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def broken_model(tmp_path: Path) -> Path:
    path = tmp_path / "three_breaks.onnx"
    onnx.save(three_breaks(), path)
    return path


def readme_block(heading: str) -> str:
    """The first fenced block after ``heading`` in the README."""
    after = README[README.index(heading) :]
    return after.split("```", 2)[1].split("\n", 1)[1]


def test_summary_and_json_are_registered_formats():
    assert {"summary", "json"} <= set(format_names())


def test_an_unknown_format_is_a_clear_error():
    result = analyze_onnx(make_model([N("Relu", ["x"], ["y"])], [tensor("x", ["n"])]))
    pattern = "--format 'xml': there is no such output format, expected one of: .*json.*summary"
    with pytest.raises(OutputError, match=pattern):
        render(result, "xml")
    proc = run_cli("analyze", "--example", "--format", "xml")
    assert proc.returncode == 2 and "'xml' is not an output format; choose one of:" in proc.stderr


def test_a_new_format_is_one_module_found_without_editing_the_package(tmp_path: Path, monkeypatch):
    """The README's promise: a format is its module (and its test); nothing else lists it."""
    (tmp_path / "dims_count.py").write_text(
        textwrap.dedent(
            """
            from symshape.tools.outputs import output_format

            @output_format("dims-count")
            def write(result, out, options):
                out.write(f"{sum(result.dim_kinds().values())} dims\\n")
            """
        )
    )
    format_names()  # the package's own formats are loaded (and stay registered)
    monkeypatch.setattr(outputs, "__path__", [*outputs.__path__, str(tmp_path)])
    monkeypatch.setattr(outputs, "_loaded", False)
    monkeypatch.setattr(outputs, "_WRITERS", dict(outputs._WRITERS))
    monkeypatch.delitem(sys.modules, "symshape.tools.outputs.dims_count", raising=False)
    model = make_model([N("Relu", ["x"], ["y"])], [tensor("x", ["n", 3])])
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    done = CliRunner().invoke(main, ["analyze", str(path), "--format", "dims-count"])
    assert done.exit_code == 0, done.output
    assert done.output == "4 dims\n"  # x and y, two dims each
    assert {"dims-count", "summary", "json"} <= set(format_names())


def test_format_json_prints_the_same_document_as_json_to_stdout(broken_model: Path):
    by_format = run_cli("analyze", str(broken_model), "--format", "json")
    by_option = run_cli("analyze", str(broken_model), "--json", "-")
    assert by_format.returncode == 0, by_format.stderr
    assert by_format.stdout == by_option.stdout
    doc = json.loads(by_format.stdout)
    assert doc == json.loads(json.dumps(document(analyze_onnx(broken_model))))
    value_lines = [line for line in by_format.stdout.splitlines() if line.startswith('  "')]
    one_per_line = [json.loads("{" + line.rstrip(",") + "}") for line in value_lines]
    assert one_per_line == [{k: v} for k, v in doc["values"].items()]


def test_json_out_writes_the_file_and_prints_the_chosen_format(broken_model: Path, tmp_path: Path):
    out = tmp_path / "r.json"
    proc = run_cli("analyze", str(broken_model), "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{broken_model}: ") and "from 3 causes" in proc.stdout
    assert json.loads(out.read_text())["format"] == "symshape.analysis/1"
    quiet = run_cli("analyze", str(broken_model), "--json", str(out), "--format", "json")
    assert json.loads(quiet.stdout) == json.loads(out.read_text())


def _documented_keys(block: str) -> tuple[list[str], list[str]]:
    """The top-level keys and the keys of a ``causes`` entry, as the README writes them."""
    top = re.findall(r'^[{ ]"(\w+)":', block, flags=re.MULTILINE)
    causes = re.search(r'"causes": \[\{(.*?)\}\]', block, flags=re.DOTALL)
    assert causes is not None
    return top, re.findall(r'"(\w+)":', causes.group(1))


def test_the_json_document_has_exactly_the_documented_keys(broken_model: Path):
    top, cause_keys = _documented_keys(readme_block("## JSON output"))
    assert "causes" in top and "unresolved" in top
    doc = document(analyze_onnx(broken_model))
    assert list(doc) == top
    assert len(doc["causes"]) == 3
    for entry in doc["causes"]:
        assert list(entry) == cause_keys
    unresolved = [(v, a) for v, a, _ in doc["unresolved"]]
    by_cause = [(v, a) for entry in doc["causes"] for v, a in entry["dims"]]
    assert sorted(by_cause) == sorted(unresolved)  # every unresolved dim under exactly one cause


def test_a_committed_model_has_no_causes_and_says_so():
    result = analyze_onnx(MODELS / "gpt2_past_ts.onnx")
    doc = document(result)
    assert doc["causes"] == [] and doc["unresolved"] == []
    summary = render(result, "summary").splitlines()
    assert "unresolved: none" in summary and "warnings: none" in summary
    assert not any(line.startswith("fresh symbols") for line in summary)


def test_all_values_lists_every_value():
    m = make_model([N("Reshape", ["x", "t"], ["y"])], [tensor("x", ["a", 4])], ["y"], [const("t", [-1, 2])])
    result = analyze_onnx(m)
    lines = render(result, "summary", OutputOptions(all_values=True)).splitlines()
    assert "  y: [2*a, 2]" in lines and "  x: [a, 4]" in lines
    assert "  y: [2*a, 2]" not in render(result, "summary").splitlines()


def test_the_readme_summary_example_is_current():
    """The README's unresolved-by-cause example is the real output for `div_chain`."""
    nodes, last = div_chain()
    result = analyze_onnx(make_model(nodes, [tensor("x", ["batch", "height"])], [last], CONSTS))
    block = readme_block("For example, a Reshape whose target")
    summary = render(result, "summary")
    start = summary.index("unresolved:")
    assert summary[start : start + len(block)] == block
    resolved = analyze_onnx(
        make_model(nodes, [tensor("x", ["batch", "height"])], [last], CONSTS), facts=["height >= 1"]
    )
    assert resolved.causes() == [] and '(`--assume "height >= 1"` resolves all 46.)' in README


def test_the_readme_bundled_example_is_current():
    proc = run_cli("analyze", "--example")
    assert proc.returncode == 0, proc.stderr
    block = README.split("```\n$ symshape analyze --example\n", 1)[1].split("```", 1)[0]
    expected = [line.rstrip() for line in block.splitlines()[1:]]  # the first line names the path
    got = [line.rstrip() for line in proc.stdout.splitlines()[1:]]
    assert got == expected


def test_user_facts_kept_as_relations_are_shown() -> None:
    """A fact that no range or divisor states (a relation between symbols, an equation on a
    remainder) is listed in the summary and the JSON as given; a range shows in ``symbols`` and
    a defining equation in the dims, so neither is listed again. ``check`` still holds a size to
    each listed fact."""
    from symshape.api import check_shapes
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    text = (ROOT / "tests" / "mlir_inputs" / "jax_concat_2b.mlir").read_text()
    facts = ["b <= s", "b % 8 == 1", "s <= 64"]
    result = analyze_mlir_text(text, facts=facts)
    assert document(result)["facts"] == ["b <= s", "Mod(b, 8) == 1"]
    summary = render(result, "summary").splitlines()
    assert "facts kept: b <= s, Mod(b, 8) == 1" in summary
    assert "symbols: b in [1, inf], s in [1, 64]" in summary
    assert document(analyze_mlir_text(text, facts=["b == 2*s"]))["facts"] == []
    assert "facts kept" not in render(analyze_mlir_text(text), "summary")
    ok = check_shapes(result, {"@main:%arg0": (18, 20), "@main:%arg1": (9, 20)}, facts=facts)
    assert ok.ok, ok.text()
    for b, s in ((9, 5), (10, 20)):  # b > s; b % 8 == 2
        bad = check_shapes(result, {"@main:%arg0": (2 * b, s), "@main:%arg1": (b, s)}, facts=facts)
        assert not bad.ok, (b, s)
