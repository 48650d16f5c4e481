"""Assemble the report page: the template with its styles, scripts and data inlined."""

from __future__ import annotations

import html
import json
import re
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from symshape.tools.outputs import render
from symshape.tools.outputs.json import document
from symshape.tools.report.graphdata import graph_data

if TYPE_CHECKING:
    from symshape.engine.result import Analysis

_SLOT = re.compile(r"\{\{([A-Z_]+)\}\}")


def _resource(name: str) -> str:
    return files("symshape.tools.report").joinpath(name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: every ``<`` escaped (``</script>`` cannot end it
    early), still the same JSON for ``JSON.parse``."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def _inline_script(text: str) -> str:
    """A script's text that cannot end its ``<script>`` element early: a backslash before the
    slash of a closing script tag (the same text in JavaScript's strings and regular
    expressions, the only places such text can be)."""
    return re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)


def report_html(result: Analysis) -> str:
    """The whole page for ``result``: summary, tables and graph, no network needed to open it."""
    title = result.source or result.program.name
    slots = {
        "TITLE": html.escape(f"symshape report: {title}"),
        "HEADING": html.escape(title),
        "CSS": _resource("report.css"),
        "SUMMARY": html.escape(render(result, "summary")),
        "DATA": _script_json(document(result)),
        "GRAPH": _script_json(graph_data(result.program)),
        "CYTOSCAPE": _inline_script(_resource("vendor/cytoscape.min.js")),
        "DAGRE": _inline_script(_resource("vendor/cytoscape-dagre.min.js")),
        "SCRIPT": _inline_script(_resource("report.js")),
    }
    return _SLOT.sub(lambda m: slots[m.group(1)], _resource("template.html"))
