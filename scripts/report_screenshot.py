"""Regenerate docs/report-bert.png: the HTML report of tests/models/bert_ts.onnx in headless
chromium (Debian's /usr/bin/chromium, driven by Playwright): the summary, the graph and its
legend, with the largest equivalence class (chosen in the legend) highlighted.

    python scripts/report_screenshot.py [-o docs/report-bert.png]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "tests" / "models" / "bert_ts.onnx"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "docs" / "report-bert.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "bert.html"
        model = MODEL.relative_to(ROOT)  # the page's heading names the model as given
        command = [sys.executable, "-m", "symshape", "report", str(model), "-o", str(page_path)]
        subprocess.run(command, check=True, cwd=ROOT)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1400, "height": 1280})
            page.goto(page_path.as_uri())
            page.wait_for_selector("body[data-graph-ready='1']", timeout=30_000)
            page.locator("#legend .dim[data-class]").first.click()  # seq, the largest class
            page.evaluate("symshapeReport.cy().getElementById('v0').emit('tap')")  # input_ids' details
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            page.screenshot(path=str(args.output))
            browser.close()
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
