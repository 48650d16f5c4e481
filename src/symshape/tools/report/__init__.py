"""The self-contained HTML report (``symshape report``): the analysis JSON and the program's
graph embedded in one page with its script, styles and the vendored cytoscape.js inlined."""

from symshape.tools.report.page import report_html

__all__ = ["report_html"]
