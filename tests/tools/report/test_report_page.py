"""The report reads without a guide (issue 25), checked on the page of the bundled example
(``symshape report --example``) in Debian's chromium: a legend names every colour and mark the
graph draws, from the colours cytoscape computed; no word is broken across two lines, in the
help panel, the legend or a value's name (measured on the layout, word by word); the symbols,
classes, guards and unresolved tables come before the values table; no console errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from symshape.api import analyze_onnx, example_path
from symshape.tools.outputs.json import document
from tests.tools.report.pages import broken_words, legend_problems, open_page

LONG = "/model/encoder/layer.0/attention/self/Reshape_output_0"
SUMMARY_TABLES = ("symbols", "classes", "guards", "unresolved")

pytestmark = pytest.mark.needs_browser


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The example's page, written by the CLI, and its analysis document."""
    out = tmp_path_factory.mktemp("report") / "example.html"
    cmd = [sys.executable, "-m", "symshape", "report", "--example", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out, document(analyze_onnx(example_path()))


def _show(page: Any, value: str) -> None:
    """Click ``value``'s name in the values table: the graph centres on it, its details show."""
    page.locator(f"#values-table a[data-value={json.dumps(value)}]").click()
    page.wait_for_function("v => document.querySelector('#info').textContent.includes(v)", arg=value.split("/")[-1])


def test_legend_names_every_colour_the_graph_draws(browser: Any, example: tuple[Path, dict[str, Any]]):
    path, doc = example
    page, errors = open_page(browser, path)
    box = page.locator("#legend-box")
    assert box.is_visible() and box.locator("h3").inner_text() == "Legend"
    # a class chosen in the legend itself, a node selected: the graph draws every kind of mark
    seq = next(k for k, members in enumerate(doc["classes"]) if ["input_ids", 1] in members)
    page.locator(f"#legend .dim[data-class='{seq}']").click()
    assert page.evaluate("document.body.dataset.selectedClass") == str(seq)
    _show(page, LONG)
    assert page.evaluate("symshapeReport.cy().nodes(':selected').map(n => n.data('name'))") == [LONG]
    assert legend_problems(page, doc) == []
    shown = page.locator("#legend li[data-mark='class'] .dim").all_inner_texts()
    assert shown == [str(doc["values"][c[0][0]]["dims"][c[0][1]]) for c in doc["classes"]]  # seq, batch, batch*seq
    assert errors == []
    page.close()


def test_summary_tables_come_before_the_values(browser: Any, example: tuple[Path, dict[str, Any]]):
    path, _ = example
    page, errors = open_page(browser, path)
    headings = page.locator("main h2").all_inner_texts()
    assert [h.strip() for h in headings] == [
        "Summary",
        "Graph",
        "Symbols",
        "Equivalence classes",
        "Guards",
        "Unresolved dims",
        "Values",
    ]
    tops = {name: page.locator(f"#{name}-table").bounding_box()["y"] for name in (*SUMMARY_TABLES, "values")}
    assert all(tops[name] < tops["values"] for name in SUMMARY_TABLES), tops
    assert errors == []
    page.close()


@pytest.mark.parametrize("width", [1400, 1000])
def test_no_word_is_broken_across_lines(browser: Any, example: tuple[Path, dict[str, Any]], width: int):
    path, doc = example
    page, errors = open_page(browser, path, width=width)
    assert broken_words(page, "#info") == ([], 1)  # the help, prose that wraps
    _show(page, LONG)
    broken, wrapped = broken_words(page, "#info p")  # the value's name, wrapped in the panel
    assert broken == [] and wrapped >= 1
    broken, wrapped = broken_words(page, f"#values-table a[data-value={json.dumps(LONG)}]")
    assert (broken, wrapped) == ([], 1)  # the long name wraps in its cell, at a separator
    broken, wrapped = broken_words(page, "td.name, #info, #legend-box, .note, #selection")
    assert broken == [] and wrapped > 10
    assert page.locator("#values-table td.name").all_inner_texts() == list(doc["values"])  # no text added
    for selector in ("td.name", "#info", "#legend-box"):  # nor the style that broke them before
        assert (
            page.evaluate("s => [...document.querySelectorAll(s)].map(e => getComputedStyle(e).wordBreak)", selector)
            == ["normal"] * page.locator(selector).count()
        ), selector
    assert errors == []
    page.close()
