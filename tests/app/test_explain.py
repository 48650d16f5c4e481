"""``symshape explain [CODE]`` prints the error guide shipped in the package: the section an error
message names, or the list of codes; an unknown code is one error line and exit status 2."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import onnx
import pytest
from onnx import helper

import symshape
from symshape.app.explain_command import first_sentence, guide_text, normalize, sections
from tests.paths import ROOT

DOC = ROOT / "docs" / "errors.md"
SHIPPED = Path(symshape.__file__).parent / "errors.md"
_CODE = re.compile(r"\(run `symshape explain (\w+)`\)$")


def explain(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", "explain", *args], capture_output=True, text=True,
                          timeout=120, check=False, cwd=cwd)


def _doc_section(heading: str) -> str:
    """The section of docs/errors.md under ``## heading``, read here apart from the command."""
    text = DOC.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_explain_prints_the_section_of_the_code(tmp_path: Path):
    proc = explain("modelerror", cwd=tmp_path)  # outside the checkout: the package's copy is read
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout
    assert out.startswith("## ModelError\n")
    first = _doc_section("ModelError").split("\n\n")[1].replace("\n", " ")
    assert first.startswith("The input program is malformed or cannot be read")
    assert first in out.replace("\n", " ")
    assert "error: Softmax (node 'softmax'): axis 5 is out of range for rank 2" in out  # an example
    assert "## UserFactError" not in out and "<!--" not in out  # one section, no example markers


@pytest.mark.parametrize("spelling", ["ModelError", "MODELERROR", " modelerror ", "#modelerror",
                                      "docs/errors.md#modelerror"])
def test_the_class_name_and_the_old_link_are_codes_too(spelling: str):
    assert normalize(spelling) == "modelerror"
    proc = explain(spelling)
    assert proc.returncode == 0 and proc.stdout.startswith("## ModelError\n")


def test_explain_without_a_code_lists_every_code_with_its_first_sentence():
    proc = explain()
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("error codes")
    headings = re.findall(r"^## (\w+)$", DOC.read_text(), re.MULTILINE)
    assert [line.split()[0] for line in lines[1:]] == [h.lower() for h in headings]
    row = {line.split()[0]: line.split(None, 1)[1] for line in lines[1:]}
    assert row["modelerror"] == "The input program is malformed or cannot be read"
    assert row["contradictionerror"] == (
        "Two constraints cannot both hold, so the model is invalid for every input size."
    )
    assert row["symshapeerror"] == "The root class of every error symshape raises on purpose"


def test_an_unknown_code_is_one_error_line_and_exit_status_2():
    proc = explain("nosucherror")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    line = proc.stderr.strip()
    assert line.startswith("error: code 'nosucherror': no error has this code, expected one of symshapeerror, ")
    assert all(h.lower() in line for h in re.findall(r"^## (\w+)$", DOC.read_text(), re.MULTILINE))
    hostile = explain("bad\ncode")
    assert hostile.returncode == 2 and hostile.stderr.count("\n") == 1 and "'bad\\x0acode'" in hostile.stderr


def _bad_axis(d: Path) -> list[str]:
    node = helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=5)
    graph = helper.make_graph([node], "main", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["b", 4])],
                              [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(d / "m.onnx"))
    return ["analyze", str(d / "m.onnx")]


def _bad_fact(d: Path) -> list[str]:
    return [*_bad_axis(d)[:2], "--assume", "nosuch >= 1"]


@pytest.mark.parametrize(("make", "code"), [(_bad_axis, "modelerror"), (_bad_fact, "userfacterror")])
def test_a_real_error_names_a_code_explain_accepts(make, code: str, tmp_path: Path):
    args = make(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 2, proc.stderr
    found = _CODE.search(proc.stderr.strip())
    assert found, proc.stderr
    assert found[1] == code
    explained = explain(found[1])
    assert explained.returncode == 0
    heading = explained.stdout.splitlines()[0].removeprefix("## ")
    assert heading.lower() == code and _doc_section(heading).split("\n\n")[1].split("\n")[0] in explained.stdout


# ------------------------------------------------------------------ one text, shipped


def test_the_shipped_guide_is_docs_errors_md():
    """docs/errors.md is the source; the package's copy is what explain prints to a pip user."""
    assert SHIPPED.read_text() == DOC.read_text(), (
        "src/symshape/errors.md differs from docs/errors.md: run python scripts/error_examples.py --write"
    )
    assert guide_text() == SHIPPED.read_text()


def test_the_guide_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "errors.md" in config["tool"]["setuptools"]["package-data"]["symshape"]


def test_every_error_class_has_a_code_explain_knows():
    from tests.project.test_layout import _all_error_classes

    codes = {s.code for s in sections(guide_text())}
    assert {cls.anchor for cls in _all_error_classes()} <= codes


def test_the_first_sentence_ends_outside_inline_code():
    assert first_sentence("The oracle (`symshape.tools.verify`) failed: more. Then") == (
        "The oracle (`symshape.tools.verify`) failed"
    )
    assert first_sentence("One. Two.") == "One."
    assert first_sentence("No end") == "No end"
