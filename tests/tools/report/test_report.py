"""`symshape report`: the page is self-contained, embeds the analysis JSON unchanged, and works in
a real browser (Debian's chromium driven by Playwright): no console errors, the search filters
the values table, a click on a dim highlights its class in the table and the graph, and the
25,608-node decoder's page paints in under 2 s."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import onnx
import pytest

from symshape.api import analyze_onnx
from symshape.tools.outputs.json import document
from symshape.tools.report import report_html
from tests.paths import MODELS, ROOT
from tests.tools.report.pages import legend_problems, open_page

BERT = MODELS / "bert_ts.onnx"


class _Page(HTMLParser):
    """Every tag's attributes, and the text of each ``<script>`` by id."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs).get("id") or f"#{len(self.scripts)}"
            self.scripts[self._script] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data


def _parse(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    parser.close()
    return parser


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, timeout=300)


def test_page_is_self_contained():
    parsed = _parse(report_html(analyze_onnx(BERT)))
    assert [t for t, _ in parsed.tags if t in ("link", "iframe", "img")] == []
    for tag, attrs in parsed.tags:
        for key in ("src", "href"):
            url = (attrs.get(key) or "").strip().lower()
            assert not url.startswith(("http://", "https://", "//")), (tag, attrs)
        if tag == "script":
            assert "src" not in attrs, attrs
    code = [text for name, text in parsed.scripts.items() if name.startswith("#")]
    assert len(code) == 3 and "cytoscape" in code[0] and "dagre" in code[1] and "symshape-data" in code[2]


def test_embedded_json_is_the_analysis_document():
    parsed = _parse(report_html(analyze_onnx(BERT)))
    assert json.loads(parsed.scripts["symshape-data"]) == document(analyze_onnx(BERT))
    graph = json.loads(parsed.scripts["symshape-graph"])
    model = onnx.load(BERT, load_external_data=False)
    assert len(graph["ops"]) == len(model.graph.node)
    assert [graph["values"][i] for i in graph["inputs"]] == [i.name for i in model.graph.input]


def test_script_end_in_the_data_cannot_close_its_element(tmp_path: Path):
    """A value name with ``</script>`` in it stays data (escaped), the JSON still equal."""
    from onnx import TensorProto, helper

    bad = "x</script><script>alert(1)</script>"
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], [bad]), helper.make_node("Relu", [bad], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])],
    )
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    page = report_html(analyze_onnx(path))
    parsed = _parse(page)
    assert json.loads(parsed.scripts["symshape-data"]) == document(analyze_onnx(path))
    assert page.lower().count("</script>") == 5  # data, graph, cytoscape, dagre, report.js


def test_cli_writes_the_report_and_never_the_input(tmp_path: Path):
    model = tmp_path / "bert.onnx"
    model.write_bytes(BERT.read_bytes())
    proc = run_cli("report", str(model), "-o", str(model))
    assert proc.returncode == 2 and "refusing to overwrite" in proc.stderr and "Traceback" not in proc.stderr
    assert model.read_bytes() == BERT.read_bytes()
    out = tmp_path / "out" / "report.html"
    proc = run_cli("report", str(model), "-o", str(out), "--dim", "seq=1..64")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(_parse(out.read_text()).scripts["symshape-data"])["values"]["input_ids"]["dims"] == [
        "batch",
        "seq",
    ]
    proc = run_cli("report", str(tmp_path / "nope.onnx"), "-o", str(out))
    assert proc.returncode == 2 and "does not exist" in proc.stderr and "Traceback" not in proc.stderr


# ---- in the browser ----


def _write_report(model: Path, out: Path) -> dict[str, Any]:
    proc = run_cli("report", str(model), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    return document(analyze_onnx(model))


def _producers(model: Path) -> dict[str, str]:
    """Each value's producing node as ``op_type name``, read from the model itself."""
    graph = onnx.load(model, load_external_data=False).graph
    return {o: f"{n.op_type} {n.name}" for n in graph.node for o in n.output}


def _search(page: Any, query: str) -> list[str]:
    page.fill("#search", query)
    page.wait_for_function(
        "q => document.getElementById('values-note').textContent.length > 0 && "
        "document.querySelector('#search').value === q",
        arg=query,
    )
    page.wait_for_timeout(400)  # the search runs 120 ms after the last key
    return page.locator("#values-table tbody td.name").all_inner_texts()


def _expected_matches(doc: dict[str, Any], producers: dict[str, str], query: str) -> list[str]:
    q = query.lower()
    return [
        name
        for name, entry in doc["values"].items()
        if q in f"{name} {' '.join(map(str, entry['dims']))} {producers.get(name, '')}".lower()
    ]


def _check_highlight(page: Any, doc: dict[str, Any], initializers: set[str]) -> None:
    """Clicking a dim of the largest class marks exactly that class's dims in the (fully rendered)
    table, and exactly the class's values among the graph's nodes."""
    k = max(range(len(doc["classes"])), key=lambda i: len(doc["classes"][i]))
    members = doc["classes"][k]
    page.locator(f"#values-table .dim[data-class='{k}']").first.click()
    page.wait_for_selector("body[data-selected-class]")
    assert page.evaluate("document.body.dataset.selectedClass") == str(k)
    rendered = set(page.locator("#values-table tbody td.name").all_inner_texts())
    expected_in_table = sum(1 for v, _ in members if v in rendered)
    assert expected_in_table > 0
    assert page.locator("#values-table .dim.hl").count() == expected_in_table
    of_class = page.locator(f"#values-table .dim[data-class='{k}']").count()
    assert page.locator("#values-table .dim.hl").count() == of_class
    shown = set(page.evaluate("symshapeReport.cy().nodes('[kind = \"value\"]').map(n => n.data('name'))"))
    highlighted = set(page.evaluate("symshapeReport.cy().nodes('.hl').map(n => n.data('name'))"))
    assert highlighted == {v for v, _ in members if v not in initializers} & shown
    assert highlighted


@pytest.mark.needs_browser
def test_bert_report_in_chromium(browser: Any, tmp_path: Path):
    out = tmp_path / "bert.html"
    doc = _write_report(BERT, out)
    page, errors = open_page(browser, out)
    assert errors == []
    names = page.locator("#values-table tbody td.name").all_inner_texts()
    assert names == list(doc["values"])  # 259 values: all rendered at once
    graph_values = page.evaluate("symshapeReport.cy().nodes('[kind = \"value\"]').length")
    graph_ops = page.evaluate("symshapeReport.cy().nodes('[kind = \"op\"]').length")
    model = onnx.load(BERT, load_external_data=False)
    assert graph_ops == len(model.graph.node)  # the whole model fits under the node limit
    assert graph_values > 0
    initializers = {i.name for i in model.graph.initializer}
    _check_highlight(page, doc, initializers)
    producers = _producers(BERT)
    for query in ("LayerNorm", "attention_mask", "seq", "no such value"):
        assert _search(page, query) == _expected_matches(doc, producers, query), query
    assert _search(page, "") == list(doc["values"])
    assert errors == []
    page.close()


@pytest.mark.needs_browser
def test_decoder_report_paints_fast(browser: Any, tmp_path: Path):
    """The 25,608-node decoder: tables paint in chunks, the graph shows a neighbourhood."""
    model = tmp_path / "llama120.onnx"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "make_llama.py"), "--layers", "120", "-o", str(model)],
        check=True,
        timeout=300,
    )
    out = tmp_path / "llama120.html"
    doc = _write_report(model, out)
    assert len(onnx.load(model, load_external_data=False).graph.node) == 25_608
    page, errors = open_page(browser, out)
    assert errors == []
    ready_ms = page.evaluate("window.symshapeReadyMs")
    graph_ms = page.evaluate("window.symshapeGraphReadyMs")
    load_ms = page.evaluate("performance.timing.loadEventEnd - performance.timing.navigationStart")
    print(f"decoder report: tables painted {ready_ms:.0f} ms, load {load_ms} ms, graph drawn {graph_ms:.0f} ms")
    assert ready_ms < 2000 and load_ms < 2000
    assert graph_ms < 4000
    assert page.locator("#values-table tbody tr").count() == 500  # the first chunk only
    assert page.evaluate("symshapeReport.cy().nodes().length") <= 600
    producers = _producers(model)
    query = "softmax"
    expected = _expected_matches(doc, producers, query)
    assert 0 < len(expected) <= 500
    assert _search(page, query) == expected
    initializers = {i.name for i in onnx.load(model, load_external_data=False).graph.initializer}
    _check_highlight(page, doc, initializers)
    target = expected[-1]  # the last layer's softmax: far from the inputs' neighbourhood
    shown = "symshapeReport.cy().nodes().map(n => n.data('name'))"
    assert target not in page.evaluate(shown)
    page.locator(f"#values-table a[data-value={json.dumps(target)}]").click()
    assert page.evaluate("symshapeReport.cy().nodes(':selected').map(n => n.data('name'))") == [target]
    assert page.evaluate("symshapeReport.cy().nodes().length") <= 600
    assert f"the neighbourhood of {target}" in page.locator("#graph-note").inner_text()
    guard_ops = [g["origin"].split("'")[1] for g in doc["guards"]]  # "Reshape '/Reshape_177' (...)"
    assert guard_ops and page.locator("#guards-table a[data-op]").count() == len(guard_ops)
    page.locator("#guards-table a[data-op]").first.click()
    assert page.evaluate("symshapeReport.cy().nodes(':selected').map(n => n.data('name'))") == guard_ops[:1]
    assert legend_problems(page, doc) == []  # the legend names the classes of this neighbourhood
    assert errors == []
    page.close()
