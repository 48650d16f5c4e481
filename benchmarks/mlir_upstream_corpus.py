"""Value fidelity of ``symshape opt`` over the public upstream MLIR test corpus (issue 21).

Runs the differential check of tests/mlir_fidelity.py over every module that
scripts/fetch_mlir_corpus.py fetched and split (stablehlo tests and testdata, mlir-hlo tests,
IREE's stablehlo input tests): each module goes through ``symshape opt -p PIPELINE`` (a worker
process per job, a timeout per module for hang detection), input and output are printed
generically by ``iree-opt``, and every attribute and constant of every op that no pass claims
must come out exactly as it went in. Prints a summary table per pipeline: modules, ops,
constants and attributes compared, mismatches, crashes, hangs, internal errors, refusals
(one-line errors, by reason), outputs that iree-opt rejects.

Usage::

    python scripts/fetch_mlir_corpus.py --source DIR ...   # or without --source: git clone
    python benchmarks/mlir_upstream_corpus.py --corpus .corpus/upstream --jobs 2
    python benchmarks/mlir_upstream_corpus.py --fetch      # fetch first (clones; network)

Results per module go to ``CORPUS/results.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.mlir_fidelity import Comparison, ModuleReport, check_modules  # noqa: E402 - after the path

PIPELINES = ("", "shape-optimization")
BATCH = 100
FAILURES = ("mismatch", "crash", "hang", "internal", "output-rejected", "reader-error")


def load(corpus: Path, only: str | None, limit: int | None) -> list[tuple[str, str]]:
    """(id, text) of the corpus's modules, in manifest order."""
    manifest = json.loads((corpus / "manifest.json").read_text())
    mods = [m for m in manifest["modules"] if not only or re.search(only, f"{m['repo']}:{m['path']}")]
    if limit is not None:
        mods = mods[:limit]
    return [(m["id"], (corpus / m["file"]).read_text()) for m in mods]


def run(named: list[tuple[str, str]], pipeline: str, jobs: int, timeout: float) -> list[ModuleReport]:
    """The reports of ``pipeline`` over ``named``, batches spread over ``jobs`` workers."""
    batches = [named[i : i + BATCH] for i in range(0, len(named), BATCH)]
    done = 0
    start = time.time()
    out: list[ModuleReport] = []

    def one(batch: list[tuple[str, str]]) -> list[ModuleReport]:
        return check_modules(batch, pipeline, timeout=timeout)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for reports in pool.map(one, batches):
            out.extend(reports)
            done += len(reports)
            bad = sum(r.status in FAILURES for r in out)
            sys.stderr.write(
                f"\r[{pipeline or 'round trip'}] {done}/{len(named)} modules, {bad} failing, "
                f"{time.time() - start:.0f} s"
            )
    sys.stderr.write("\n")
    return out


def reason(detail: str) -> str:
    """A refusal's message without its file, names and numbers: the kind of refusal."""
    text = re.sub(r"\(file '[^']*'(, line \d+)?\)", "", detail)
    text = re.sub(r"file '[^']*': ", "", text)
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r"\d+", "N", text)
    text = text.split(", expected ")[0]
    return text[:110]


def summarize(pipeline: str, reports: list[ModuleReport], seconds: float) -> str:
    """A markdown table of the figures of one pipeline, then the failures by kind."""
    status = Counter(r.status for r in reports)
    compared = [r.comparison for r in reports if r.comparison is not None]
    rows = [
        ("modules", len(reports)),
        ("modules compared", len(compared)),
        ("ops compared", sum(c.ops for c in compared)),
        ("constants compared", sum(c.constants for c in compared)),
        ("attributes compared", sum(c.attributes for c in compared)),
        ("ops claimed by a pass (not compared)", sum(c.claimed for c in compared)),
        ("ops eliminated as dead/duplicate (declared)", sum(c.eliminated for c in compared)),
        ("modules with a mismatch", status["mismatch"]),
        ("mismatched op keys", sum(len(c.mismatches) for c in compared)),
        ("crashes", status["crash"]),
        ("hangs", status["hang"]),
        ("internal errors", status["internal"]),
        ("outputs iree-opt rejects", status["output-rejected"]),
        ("fidelity reader errors (a bug of the check)", status["reader-error"]),
        ("refusals (one-line errors)", status["refused"]),
        ("seconds", round(seconds)),
    ]
    lines = [
        f"### `symshape opt -p '{pipeline}'`" if pipeline else "### `symshape opt` (round trip, no pass)",
        "",
        "| figure | count |",
        "|---|---:|",
    ]
    lines += [f"| {k} | {v} |" for k, v in rows]
    for kind in ("mismatch", "crash", "hang", "internal", "output-rejected", "reader-error", "refused"):
        causes = Counter(reason(r.detail) if kind == "refused" else _cause(r) for r in reports if r.status == kind)
        if causes:
            lines += ["", f"{kind} by cause:", ""]
            lines += [f"- {n} × {c}" for c, n in causes.most_common(12)]
    return "\n".join(lines)


def _cause(r: ModuleReport) -> str:
    """A failure's kind: for a mismatch, the op and what changed (``mhlo.gather``:
    ``dimension_numbers: #mhlo.gather<...> -> ...``), numbers and whitespace folded."""
    detail = " ".join(r.detail.split())
    m = re.match(r"lost \d+ of \d+: (\S+) .*?; the output has instead: (.*)", detail)
    if m:
        detail = f"{m.group(1)}: {m.group(2)}"
    elif (m := re.match(r"(lost|added) \d+(?: of \d+)?: (\S+)", detail)) is not None:
        detail = f"{m.group(2)} {m.group(1)}"
    detail = re.sub(r"(?<!\w)0x[0-9A-Fa-f]+", "0xHEX", detail)
    detail = re.sub(r"(?<![\w.])[+-]?\d+(\.\d+)?([eE][+-]?\d+)?(?![\w.])", "N", detail)
    return detail[:200]


def _report(row: dict[str, Any]) -> ModuleReport:
    """A `ModuleReport` from its JSON form in results.json."""
    comparison = Comparison(**row["comparison"]) if row.get("comparison") else None
    return ModuleReport(**{**row, "comparison": comparison})


def main(argv: list[str] | None = None) -> int:
    """Fetch when asked, run every pipeline, print the tables, write the results."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT / ".corpus" / "upstream")
    parser.add_argument("--fetch", action="store_true", help="run scripts/fetch_mlir_corpus.py first")
    parser.add_argument("--source", action="append", default=[], help="passed to the fetch script")
    parser.add_argument("-p", "--pipeline", action="append", help="default: the round trip and shape-optimization")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per module (hang detection)")
    parser.add_argument("--only", help="regex over 'repo:path'")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--summary", action="store_true", help="print the tables of CORPUS/results.json again")
    args = parser.parse_args(argv)
    if args.summary:
        for pipeline, rows in json.loads((args.corpus / "results.json").read_text()).items():
            reports = [_report(row) for row in rows]
            print(summarize("" if pipeline == "round-trip" else pipeline, reports, 0), "\n")
        return 0
    if args.fetch or not (args.corpus / "manifest.json").exists():
        cmd = [sys.executable, str(ROOT / "scripts" / "fetch_mlir_corpus.py"), "-o", str(args.corpus)]
        for s in args.source:
            cmd += ["--source", s]
        subprocess.run(cmd, check=True)
    named = load(args.corpus, args.only, args.limit)
    pipelines = args.pipeline if args.pipeline is not None else list(PIPELINES)
    results: dict[str, list[dict[str, object]]] = {}
    failing = 0
    for pipeline in pipelines:
        start = time.time()
        reports = run(named, pipeline, args.jobs, args.timeout)
        print(summarize(pipeline, reports, time.time() - start), "\n", flush=True)
        results[pipeline or "round-trip"] = [
            {**asdict(r), "comparison": asdict(r.comparison) if r.comparison else None} for r in reports
        ]
        failing += sum(r.status in FAILURES for r in reports)
    (args.corpus / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print(f"results per module: {args.corpus / 'results.json'}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
