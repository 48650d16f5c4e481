"""Driving the report in Debian's chromium (Playwright): open a page from disk, and read what it
drew: the colours and marks of the graph (from cytoscape's computed style), the legend's swatches
and words (from the browser's computed style), and the words the layout broke across lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"


def launch() -> Iterator[Any]:
    """One headless chromium for a module's tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


def open_page(browser: Any, path: Path, width: int = 1400) -> tuple[Any, list[str]]:
    """The page opened from disk (file://, no server) once its tables and graph are drawn, and
    the console errors and uncaught exceptions it produced."""
    page = browser.new_page(viewport={"width": width, "height": 1000})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=30_000)
    page.wait_for_selector("body[data-graph-ready='1']", timeout=30_000)
    return page, errors


# A colour as the browser computes it, "rgb(r, g, b)" or "rgba(r, g, b, a)", from any CSS colour.
_NORM = """const probe = document.createElement("span"); document.body.appendChild(probe);
const norm = c => { probe.style.color = ""; probe.style.color = c; return getComputedStyle(probe).color; };"""

_GRAPH_MARKS = (
    "() => {"
    + _NORM
    + """
  const cy = symshapeReport.cy(), slices = [], marks = [];
  cy.nodes("[kind = 'value']").forEach(n => {
    for (let i = 1; i <= 8; i++) {
      if (parseFloat(n.style(`pie-${i}-background-size`)) > 0)
        slices.push([n.data("name"), i - 1, norm(n.style(`pie-${i}-background-color`))]);
    }
  });
  cy.nodes("[kind = 'op']").forEach(n => {
    marks.push(["op", norm(n.style("background-color"))], ["op", norm(n.style("border-color"))]);
  });
  cy.edges().forEach(e => {
    marks.push(["edge", norm(e.style("line-color"))], ["edge", norm(e.style("target-arrow-color"))]);
  });
  cy.nodes(".hl").forEach(n => marks.push(["ring", norm(n.style("border-color"))]));
  cy.nodes(":selected").forEach(n => marks.push(["selected", norm(n.style("overlay-color"))]));
  const faded = [...new Set(cy.elements(".faded").map(e => parseFloat(e.style("opacity"))))];
  probe.remove();
  return { slices, marks, faded };
}"""
)

_LEGEND = (
    "() => {"
    + _NORM
    + """
  const paints = s => {
    const out = [];
    if (s.content !== "none" && s.backgroundColor !== "rgba(0, 0, 0, 0)") out.push(norm(s.backgroundColor));
    for (const side of ["Top", "Right", "Bottom", "Left"]) {
      const colour = s[`border${side}Color`];
      if (parseFloat(s[`border${side}Width`]) > 0 && colour !== "rgba(0, 0, 0, 0)") out.push(norm(colour));
    }
    return out;
  };
  const items = [...document.querySelectorAll("#legend li")].map(li => {
    const colours = [], opacity = [];
    li.querySelectorAll(".swatch").forEach(sw => {
      colours.push(...paints(getComputedStyle(sw)));
      const after = getComputedStyle(sw, "::after");
      if (after.content !== "none") colours.push(...paints(after));
      opacity.push(parseFloat(getComputedStyle(sw).opacity));
    });
    return { mark: li.dataset.mark, cls: li.dataset.legendClass === undefined ? null : +li.dataset.legendClass,
      text: li.textContent.trim(), colours: [...new Set(colours)], opacity };
  });
  probe.remove();
  return items;
}"""
)


def graph_marks(page: Any) -> dict[str, Any]:
    """What the graph draws now: ``slices`` (value, axis, colour) of the value nodes' pies,
    ``marks`` (kind, colour) of ops, edges, rings and the selected node, ``faded`` opacities."""
    return page.evaluate(_GRAPH_MARKS)


def legend(page: Any) -> list[dict[str, Any]]:
    """The legend's entries: mark, class (for a class's entry), words, swatch colours and opacities."""
    return page.evaluate(_LEGEND)


_BROKEN_WORDS = """selector => {
  // The words (letters and digits) of the text under `selector`, wherever the markup (a <wbr>, a
  // link) splits them, that the layout put on more than one line; and how many elements wrap.
  const box = t => {  // the text's nearest block, inline-block, list item...: not an inline element
    let e = t.parentElement;
    while (getComputedStyle(e).display === "inline") e = e.parentElement;
    return e;
  };
  const broken = [];
  let wrapped = 0;
  for (const el of document.querySelectorAll(selector)) {
    const nodes = [], starts = [];
    let text = "";
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (t.parentElement.closest("script, style")) continue;
      if (nodes.length && box(t) !== box(nodes[nodes.length - 1])) text += " ";  // words end at a box's edge
      nodes.push(t); starts.push(text.length); text += t.data;
    }
    const at = i => { let k = starts.length - 1; while (starts[k] > i) k--; return [nodes[k], i - starts[k]]; };
    const lines = r => new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.bottom))).size;
    if (!nodes.length) continue;
    const all = document.createRange();
    all.setStart(nodes[0], 0); all.setEnd(nodes[nodes.length - 1], nodes[nodes.length - 1].length);
    if (lines(all) > 1) wrapped++;
    for (const m of text.matchAll(/[A-Za-z0-9]+/g)) {
      const r = document.createRange();
      r.setStart(...at(m.index)); r.setEnd(...at(m.index + m[0].length - 1)); r.setEnd(r.endContainer, r.endOffset + 1);
      if (lines(r) > 1) broken.push(m[0] + " in " + JSON.stringify(text.slice(0, 80)));
    }
  }
  return { broken, wrapped };
}"""


def broken_words(page: Any, selector: str) -> tuple[list[str], int]:
    """The words under ``selector`` split across lines, and how many of its elements wrap."""
    out = page.evaluate(_BROKEN_WORDS, selector)
    return out["broken"], out["wrapped"]


def _close(a: str, b: str) -> bool:
    """Two computed colours equal up to rounding (cytoscape and the browser each convert hsl)."""
    pa, pb = (re.findall(r"[\d.]+", c) for c in (a, b))
    return len(pa) == len(pb) and all(abs(float(x) - float(y)) <= 1 for x, y in zip(pa, pb, strict=True))


def _named(problems: dict[str, None], item: dict[str, Any] | None, colour: str, what: str) -> None:
    """Note in ``problems`` when the legend entry ``item`` (of the mark ``what``) misses ``colour``."""
    if item is None:
        problems[f"{what} ({colour}): no legend entry"] = None
    elif not any(_close(colour, c) for c in item["colours"]):
        problems[f"{what}: {colour} is not the swatch of {item['text']!r} {item['colours']}"] = None
    elif len(item["text"]) < 3:
        problems[f"{what}: the legend entry has no words"] = None


def legend_problems(page: Any, doc: dict[str, Any]) -> list[str]:
    """What the graph draws now that the legend does not name: each pie slice's colour must be
    the swatch of its dim's class (whose words name the dim) or of the static dims; each op's,
    edge's, ring's and selected node's colour, and the faded opacity, the swatch of that mark.
    A class must be selected and a node selected, so that every kind of mark is drawn."""
    drawn = graph_marks(page)
    items = legend(page)
    by_class = {i["cls"]: i for i in items if i["mark"] == "class"}
    by_mark = {i["mark"]: i for i in items if i["mark"] != "class"}
    class_of = {(v, a): k for k, members in enumerate(doc["classes"]) for v, a in members}
    problems: dict[str, None] = {}
    for value, axis, colour in drawn["slices"]:
        k = class_of.get((value, axis))
        if k is None:
            _named(problems, by_mark.get("plain"), colour, "a static dim's slice")
            continue
        _named(problems, by_class.get(k), colour, f"class {k}'s slice")
        dim = str(doc["values"][value]["dims"][axis])
        if dim not in by_class.get(k, {"text": dim})["text"]:
            problems[f"class {k}'s legend entry does not name its dim {dim}"] = None
    for kind, colour in drawn["marks"]:
        _named(problems, by_mark.get(kind), colour, kind)
    faded = by_mark.get("faded", {"opacity": []})["opacity"]
    problems.update({f"faded (opacity {o}): no legend entry": None for o in drawn["faded"] if o not in faded})
    kinds = {kind for kind, _ in drawn["marks"]} | ({"faded"} if drawn["faded"] else set())
    expected = {"op", "edge", "ring", "selected", "faded"}
    problems.update({f"the graph draws no {k}: nothing checked": None for k in expected - kinds})
    if not drawn["slices"]:
        problems["the graph draws no value: nothing checked"] = None
    return list(problems)
