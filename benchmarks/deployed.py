"""ONNX as it is deployed: symshape, ORT's symbolic_shape_infer and onnx-shape-inference on real
published models and on optimized / quantized variants, every dim scored against onnxruntime.

Two sets of models:

- ``deployed``: the models of ``scripts/fetch_deployed_models.py`` (OCR, VAD, wake word, file
  type, detection, layout, Arabic text...; fetch them first), run at the input sizes that table
  records (one run per entry of the size tuples; integer inputs such as silero's ``sr`` at the
  recorded values, ids below the vocabulary size, masks of ones);
- ``variants``: the models of ``benchmarks/make_deployed_variants.py`` (onnxruntime-optimized
  at BASIC/EXTENDED/LAYOUT/ALL, QDQ and QOperator static quantization at u8/s8/u16, dynamic
  quantization, 4-bit MatMulNBits), run at the sizes recorded for their base test model.

Per model: the execution oracle (``oracle.observe`` with the recorded plan, every node output of
the main graph exposed), the tools ``symshape``, ``ort_merge`` and ``osi`` each in its own child
process (``run._run_tool`` / ``tools.py``), every dim scored by ``score.score``; for symshape's
unresolved dims the root cause it reports (``Analysis.unresolved``, or the origin of the fresh
symbol it answered with), and the op types it has no rule for. Then the CLI as a user would run
it: ``symshape verify MODEL`` and ``symshape optimize MODEL -o OUT --verify`` at their own
sizes, and both again with ``--size ...`` at the recorded sizes: sizes run, sizes refused,
verdict, exit code.

Usage::

    python scripts/fetch_deployed_models.py && python benchmarks/make_deployed_variants.py
    python benchmarks/deployed.py                     # both sets, 2 models at a time
    python benchmarks/deployed.py --sets deployed --only silero ocr --jobs 1

Writes ``--out`` (default ``bench-out/deployed-results/``): ``deployed.md`` (the table below,
the causes and the missing rules per model), ``deployed.json`` (everything, with examples of
wrong dims) and the tools' raw dims. Columns: ``dyn`` = dims whose size varies across the runs
(data-dependent ones apart, in ``dd``); ``exact/unk/wrong`` over every size-determined dim.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "scripts"))

import run as bench_run  # noqa: E402
import score  # noqa: E402
from fetch_deployed_models import MODELS, Model  # noqa: E402

import oracle  # noqa: E402

TOOLS = ("symshape", "ort_merge", "osi")
DEPLOYED = ROOT / "bench-out" / "deployed"
VARIANTS = ROOT / "bench-out" / "deployed-variants"
Plan = list[tuple[str, dict[str, int], bool]]
FeedFn = Callable[[onnx.ModelProto, dict[str, int], int], dict[str, np.ndarray]]


# ------------------------------------------------------------------------------ what to run
def _job_deployed(m: Model, folder: Path) -> dict[str, Any]:
    """A fetched model with its recorded runs (the env of a run is the table's symbols)."""
    plan: Plan = [(f"run{k}", m.run_env(k), any(v == 1 for v in m.run_env(k).values())) for k in range(m.runs)]
    runs = [m.run_shapes(k) for k in range(m.runs)]
    groups: dict[str, list[tuple[str, int]]] = {}
    for name, shape in m.inputs.items():
        for axis, d in enumerate(shape):
            if isinstance(d, str):
                groups.setdefault(d, []).append((name, axis))
    return {"name": m.name, "set": "deployed", "path": str(folder / f"{m.name}.onnx"), "kind": m.kind,
            "source": f"{m.registry}:{m.package}=={m.version}", "plan": plan, "runs": runs,
            "values": m.run_values(0), "all_values": {k: list(v) for k, v in m.values.items()},
            "groups": list(groups.values()), "table": m.name}


def _job_variant(entry: dict[str, Any]) -> dict[str, Any]:
    """A variant with the plan its base model ran (generic feeds, as ``run.py``)."""
    plan: Plan = [(n, e, edge) for n, e, edge in entry["plan"]]
    return {"name": entry["name"], "set": "variants", "path": entry.get("file", ""), "kind": entry["variant"],
            "source": entry["source"], "plan": plan, "runs": None, "values": {}, "all_values": {},
            "groups": [], "error": entry.get("error"), "preprocessed": entry.get("preprocessed")}


def _feeds_for(m: Model) -> FeedFn:
    """Inputs at the table's shapes: recorded integer values, ids, masks, bytes, else random."""
    def feeds(model: onnx.ModelProto, env: dict[str, int], seed: int) -> dict[str, np.ndarray]:
        k = next(i for i in range(m.runs) if m.run_env(i) == env)
        rng = np.random.default_rng(seed)
        types = {vi.name: vi.type.tensor_type.elem_type for vi in model.graph.input}
        values = m.run_values(k)
        out: dict[str, np.ndarray] = {}
        for name, shape in m.run_shapes(k).items():
            dtype = np.dtype(helper.tensor_dtype_to_np_dtype(types[name]))
            fill = m.fill.get(name, "")
            if name in values:
                out[name] = np.full(shape, values[name], dtype=dtype)
            elif fill == "ones":
                out[name] = np.ones(shape, dtype=dtype)
            elif fill.startswith("ids:"):
                out[name] = rng.integers(0, int(fill[4:]), size=shape).astype(dtype)
            elif fill == "bytes":
                out[name] = rng.integers(0, 257, size=shape).astype(dtype)
            elif dtype == np.bool_:
                out[name] = rng.random(shape) > 0.5
            elif np.issubdtype(dtype, np.integer):
                out[name] = rng.integers(0, 10, size=shape).astype(dtype)
            else:
                out[name] = rng.standard_normal(shape).astype(dtype)
        return out

    return feeds


# ------------------------------------------------------------------------------ one model
def _verdicts(shapes: dict[str, Any], inputs: list[str], obs: oracle.Observation,
              producers: dict[str, str]) -> tuple[score.Score, dict[tuple[str, int], str], dict[tuple[str, int], Any]]:
    """``score.score`` and the per-dim verdicts and claims it tallied (read off ``score._tally``)."""
    seen: dict[str, Any] = {}
    tally = score._tally  # noqa: SLF001 - the same verdicts the counts come from

    def spy(verdicts: dict[tuple[str, int], str], claims: dict[tuple[str, int], Any],
            o: oracle.Observation, p: dict[str, str]) -> score.Score:
        seen["v"], seen["c"] = dict(verdicts), dict(claims)
        return tally(verdicts, claims, o, p)

    score._tally = spy  # noqa: SLF001
    try:
        sc = score.score(shapes, inputs, obs, producers)
    finally:
        score._tally = tally  # noqa: SLF001
    return sc, seen["v"], seen["c"]


def _short(text: str, n: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _analysis(model: onnx.ModelProto) -> tuple[Any, str]:
    try:
        from symshape.api import analyze_onnx

        return analyze_onnx(model), ""
    except Exception as err:  # noqa: BLE001 - a crash is a result
        return None, f"{type(err).__name__}: {_short(str(err), 200)}"


def _cause_labels(analysis: Any) -> tuple[dict[tuple[str, int], str], dict[str, str], list[str]]:
    """Root-cause labels by (value, axis) (axis -1: the whole value), by fresh symbol, and the op
    kinds without a rule (from the warnings, subgraphs included)."""
    by_dim: dict[tuple[str, int], str] = {}
    for u in analysis.unresolved:
        if u.reason.startswith("no rule for") or (u.cause and u.cause.reason.startswith("no rule for")):
            label = u.cause.reason if u.cause and u.cause.reason.startswith("no rule") else u.reason
        elif u.cause is not None:
            label = f"{u.cause.op_type}: {_short(u.cause.reason, 60)}"
        else:
            label = _short(u.reason, 70)
        by_dim.setdefault((u.value, u.axis), label)
    by_symbol = {name: f"{info['kind']} symbol of {info['origin'].split(' (')[0]}"
                 for name, info in analysis.symbols().items() if info["kind"] not in ("input", "user")}
    missing = sorted({w.message[len("no rule for "):].split(";")[0].strip()
                      for w in analysis.warnings if w.message.startswith("no rule for")})
    return by_dim, by_symbol, missing


def _unknown_causes(verdicts: dict[tuple[str, int], str], claims: dict[tuple[str, int], Any],
                    obs: oracle.Observation, analysis: Any) -> Counter[str]:
    if analysis is None:
        return Counter()
    by_dim, by_symbol, _ = _cause_labels(analysis)
    out: Counter[str] = Counter()
    for key, v in verdicts.items():
        if v != "unresolved" or key in obs.data_dependent:
            continue
        label = by_dim.get(key) or by_dim.get((key[0], -1))
        claim = claims.get(key)
        if label is None and isinstance(claim, str):
            names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", claim))
            label = next((by_symbol[n] for n in sorted(names) if n in by_symbol), None)
        out[label or ("no shape" if claim is None else f"unexplained '{_short(str(claim), 30)}'")] += 1
    return out


def _cli_options(job: dict[str, Any], model: onnx.ModelProto, analysis: Any) -> list[str]:
    """``--size`` values per symshape input symbol (from the recorded runs), equalities the
    package guarantees between anonymous dims (``--assume``), and ``--value`` for int inputs."""
    runs: list[dict[str, tuple[int, ...]]] = job["runs"] or _plan_shapes(model, job["plan"])
    sizes: dict[str, list[int]] = {}
    where: dict[tuple[str, int], str] = {}
    if analysis is not None:
        for name in runs[0] if runs else []:
            try:
                dims = analysis.shape(name)
            except KeyError:
                continue
            for axis, d in enumerate(dims or ()):
                if isinstance(d, int) or len(d.free) != 1 or str(d) not in d.free:
                    continue
                where[(name, axis)] = str(d)
                for r in runs:
                    vals = sizes.setdefault(str(d), [])
                    if r[name][axis] not in vals:
                        vals.append(r[name][axis])
    assume: list[str] = []
    for group in job["groups"]:
        names = list(dict.fromkeys(where[g] for g in group if g in where))
        assume += [f"--assume={a} == {b}" for a, b in zip(names, names[1:], strict=False)]
    value = [f"--value={k}={v}" for k, v in job["values"].items()]
    size = [f"--size={k}={','.join(map(str, v))}" for k, v in sizes.items()]
    return size + assume + value


def _plan_shapes(model: onnx.ModelProto, plan: Plan) -> list[dict[str, tuple[int, ...]]]:
    from symshape.algebra.expr import evaluate

    dims = oracle.declared_dims(model)
    return [{k: tuple(evaluate(d, env) for d in ds) for k, ds in dims.items()} for _, env, _ in plan]


_SAMPLE = re.compile(r"^(.+): (\d+) dims, (\d+) correct, (\d+) wrong")
_OPT = re.compile(r"^verify: (\d+) sizes run, (.*)$")


def _cli(cmd: list[str], timeout: float) -> dict[str, Any]:
    t = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"cmd": cmd, "rc": None, "verdict": f"timeout after {timeout:.0f} s", "sizes": 0, "refused": 0,
                "seconds": round(time.perf_counter() - t, 1)}
    out = proc.stdout.splitlines()
    doc: dict[str, Any] = {"cmd": cmd[1:], "rc": proc.returncode, "seconds": round(time.perf_counter() - t, 1),
                           "refused": sum("refuses these sizes" in line for line in out),
                           "crashed": sum("onnxruntime itself crashed" in line for line in out)}
    opt = next((m for m in map(_OPT.match, out) if m), None)
    if opt:
        doc["sizes"], doc["verdict"] = int(opt.group(1)), _short(opt.group(2), 160)
    else:
        doc["sizes"] = sum(bool(_SAMPLE.match(line)) for line in out)
        summary = next((line for line in reversed(out) if "dims checked" in line), "")
        err = next((line for line in proc.stderr.splitlines() if line.startswith("error")), "")
        doc["verdict"] = _short(summary or err or (proc.stderr.strip().splitlines() or ["(no output)"])[-1], 160)
    return doc


def bench(job: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Oracle, tools, scores, causes and the CLI for one model; failures are recorded, not raised."""
    t0 = time.perf_counter()
    row: dict[str, Any] = {k: job[k] for k in ("name", "set", "kind", "source", "path")}
    row["plan"] = job["plan"]
    if job.get("error") or not job["path"] or not Path(job["path"]).exists():
        row["error"] = job.get("error") or "model file missing (run the fetch / make script)"
        return row
    if job.get("preprocessed"):
        row["note"] = f"made after quant_pre_process ({_short(job['preprocessed'], 80)})"
    work = Path(args.out) / "dims"
    work.mkdir(parents=True, exist_ok=True)
    try:
        model = onnx.load(job["path"], load_external_data=False)
        row["nodes"] = len(model.graph.node)
        row["subgraph_nodes"] = _subgraph_nodes(model.graph)
        feeds = _feeds_for(next(m for m in MODELS if m.name == job["table"])) if job["set"] == "deployed" \
            else oracle.generic_feeds
        obs = oracle.observe(_readable(model), job["plan"], feeds)
        phase = {"oracle": time.perf_counter() - t0}
        row["oracle"] = {"samples": [s.name for s in obs.samples], "failed": obs.failed,
                         "seconds": round(obs.seconds, 1), "data_dependent": len(obs.data_dependent)}
        inputs = [vi.name for vi in model.graph.input]
        producers = {o: n.op_type for n in model.graph.node for o in n.output}
        analysis, crash = _analysis(model)
        row["missing_rules"] = _cause_labels(analysis)[2] if analysis is not None else []
        if crash:
            row["symshape_crash"] = crash
        row["tools"] = {}
        for tool in TOOLS:
            doc = bench_run._run_tool(tool, Path(job["path"]), work, args.timeout, shapes=True)  # noqa: SLF001
            entry: dict[str, Any] = {"status": doc.get("status"), "note": _short(doc.get("note", ""), 200),
                                     "time_s": doc.get("time_s")}
            if doc.get("shapes") is not None and obs.samples:
                sc, verdicts, claims = _verdicts(doc["shapes"], inputs, obs, producers)
                entry["score"] = sc.to_json()
                if tool == "symshape":
                    entry["unknown_causes"] = dict(_unknown_causes(verdicts, claims, obs, analysis).most_common())
                    row["dynamic_dims"] = sum(1 for k in verdicts if k not in obs.data_dependent
                                              and len(set(score._sizes(obs, k))) > 1)  # noqa: SLF001
            row["tools"][tool] = entry
            phase[tool] = time.perf_counter() - t0 - sum(phase.values())
        if not args.no_cli:
            options = _cli_options(job, model, analysis)
            symshape = [sys.executable, "-m", "symshape"]
            value = [o for o in options if o.startswith("--value")]
            row["verify_default"] = _cli([*symshape, "verify", job["path"], *value], args.timeout)
            row["verify_recorded"] = _cli([*symshape, "verify", job["path"], *options], args.timeout)
            out = Path(args.out) / "optimized" / f"{job['name']}.onnx"
            out.parent.mkdir(parents=True, exist_ok=True)
            row["optimize_default"] = _cli([*symshape, "optimize", job["path"], "-o", str(out), "--verify", *value],
                                           args.timeout)
            row["optimize_verify"] = _cli([*symshape, "optimize", job["path"], "-o", str(out), "--verify", *options],
                                          args.timeout)
            phase["cli"] = time.perf_counter() - t0 - sum(phase.values())
        row["phase_s"] = {k: round(v, 1) for k, v in phase.items()}
    except Exception as err:  # noqa: BLE001 - one model's failure must not stop the benchmark
        row["error"] = f"{type(err).__name__}: {_short(str(err), 200)}"
        row["trace"] = traceback.format_exc()[-1500:]
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def _readable(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model for the oracle, whose ``declared_dims`` parses every dim_param: one it cannot
    parse (rapidocr's cls model declares ``'?'``) is cleared. The oracle only runs the model, so
    this changes nothing it observes; the tools get the file as published."""
    from symshape.algebra.parse import is_identifier, parse_dim

    copy: onnx.ModelProto | None = None
    for i, vi in enumerate(model.graph.input):
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            p = d.dim_param.strip()
            if not p or is_identifier(p):
                continue
            try:
                parse_dim(p)
            except Exception:  # noqa: BLE001 - whatever the parser rejects
                if copy is None:
                    copy = onnx.ModelProto()
                    copy.CopyFrom(model)
                copy.graph.input[i].type.tensor_type.shape.dim[axis].ClearField("dim_param")
    return copy if copy is not None else model


def _subgraph_nodes(graph: onnx.GraphProto) -> int:
    total = 0
    for n in graph.node:
        for a in n.attribute:
            subs = [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)
            for g in subs:
                total += len(g.node) + _subgraph_nodes(g)
    return total


# ------------------------------------------------------------------------------ the table
HEADER = ["model", "source", "what", "nodes", "dyn", "dd", "symshape exact/unk/wrong", "symshape unknown: causes",
          "ort_merge wrong/unk", "osi wrong/unk", "verify (own sizes)", "verify (recorded)",
          "optimize --verify (own sizes)", "optimize --verify (recorded)"]


def _counts(row: dict[str, Any], tool: str, keys: tuple[str, ...]) -> str:
    entry = row.get("tools", {}).get(tool)
    if not entry:
        return "-"
    if "score" not in entry:
        return entry.get("status") or "-"
    c = entry["score"]["all"]
    text = "/".join(str(c.get(k, 0)) for k in keys)
    return text if entry.get("status") == "ok" else f"{text} ({entry.get('status')})"


def _cli_cell(doc: dict[str, Any] | None) -> str:
    if not doc:
        return "-"
    wrong = re.search(r"(\d+) wrong", doc.get("verdict", ""))
    refused = f", {doc['refused']} refused" if doc.get("refused") else ""
    if doc.get("crashed"):
        refused += f" ({doc['crashed']} of them crash onnxruntime)"
    tail = f", {wrong.group(1)} wrong" if wrong else ""
    if doc.get("rc") not in (0, 1):
        tail = f": {_short(doc.get('verdict', ''), 50)}"
    return f"rc {doc.get('rc')}, {doc.get('sizes', 0)} sizes{refused}{tail}"


def table_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    out = []
    for r in rows:
        if "error" in r and "tools" not in r:
            out.append([r["name"], r["source"], r["kind"], "-", "-", "-", f"not run: {_short(r['error'], 60)}",
                        "", "", "", "", "", "", ""])
            continue
        causes = r.get("tools", {}).get("symshape", {}).get("unknown_causes", {})
        cause_text = "; ".join(f"{n} {_short(c, 48)}" for c, n in list(causes.items())[:2])
        if len(causes) > 2:
            cause_text += f"; +{len(causes) - 2} more"
        nodes = str(r.get("nodes", "-")) + (f"+{r['subgraph_nodes']}" if r.get("subgraph_nodes") else "")
        out.append([r["name"], r["source"], r["kind"], nodes, str(r.get("dynamic_dims", "-")),
                    str(r.get("oracle", {}).get("data_dependent", "-")),
                    _counts(r, "symshape", ("correct", "unresolved", "unsound")), cause_text,
                    _counts(r, "ort_merge", ("unsound", "unresolved")), _counts(r, "osi", ("unsound", "unresolved")),
                    _cli_cell(r.get("verify_default")), _cli_cell(r.get("verify_recorded")),
                    _cli_cell(r.get("optimize_default")), _cli_cell(r.get("optimize_verify"))])
    return out


def markdown(rows: list[dict[str, Any]], seconds: float) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "/") for c in r) + " |" for r in table_rows(rows)]
    total: dict[str, Counter[str]] = {t: Counter() for t in TOOLS}
    for r in rows:
        for t in TOOLS:
            s = r.get("tools", {}).get(t, {}).get("score")
            if s:
                total[t].update(s["all"])
    lines += ["", "Totals over size-determined dims (correct / unresolved / unsound): " + ", ".join(
        f"{t} {c.get('correct', 0)}/{c.get('unresolved', 0)}/{c.get('unsound', 0)}" for t, c in total.items())]
    lines += ["", "## Op types symshape has no rule for", ""]
    missing = [(r["name"], r.get("missing_rules")) for r in rows if r.get("missing_rules")]
    lines += [f"- {n}: {', '.join(m)}" for n, m in missing] or ["- none"]
    lines += ["", "## symshape's unresolved dims by cause", ""]
    for r in rows:
        causes = r.get("tools", {}).get("symshape", {}).get("unknown_causes")
        if causes:
            lines.append(f"- {r['name']}: " + "; ".join(f"{n} x {c}" for c, n in causes.items()))
    notes = [f"- {r['name']}: {r.get('error') or ''} {r.get('note') or ''} {r.get('symshape_crash') or ''}".rstrip()
             for r in rows if r.get("error") or r.get("note") or r.get("symshape_crash")]
    notes += [f"- {r['name']}: oracle could not run {'; '.join(r['oracle']['failed'])}"
              for r in rows if r.get("oracle", {}).get("failed")]
    notes += [f"- {r['name']} / {t}: {e['status']} {e.get('note', '')}" for r in rows
              for t, e in r.get("tools", {}).items() if e.get("status") not in ("ok", None)]
    if notes:
        lines += ["", "## Notes", "", *notes]
    lines += ["", f"{len(rows)} models in {seconds / 60:.1f} min"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--sets", nargs="*", default=["deployed", "variants"], choices=["deployed", "variants"])
    p.add_argument("--deployed-dir", type=Path, default=DEPLOYED)
    p.add_argument("--variants-dir", type=Path, default=VARIANTS)
    p.add_argument("--only", nargs="*", help="substrings of model names")
    p.add_argument("--jobs", type=int, default=2, help="models benchmarked at once (default 2)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per tool / CLI call (default 300)")
    p.add_argument("--no-cli", action="store_true", help="skip symshape verify / optimize --verify")
    p.add_argument("--out", default=str(ROOT / "bench-out" / "deployed-results"))
    args = p.parse_args(argv)
    jobs: list[dict[str, Any]] = []
    if "deployed" in args.sets:
        jobs += [_job_deployed(m, args.deployed_dir) for m in MODELS]
    if "variants" in args.sets:
        manifest = args.variants_dir / "manifest.json"
        if not manifest.exists():
            print(f"no {manifest}: run benchmarks/make_deployed_variants.py first", file=sys.stderr)
        else:
            jobs += [_job_variant(e) for e in json.loads(manifest.read_text())]
    if args.only:
        jobs = [j for j in jobs if any(s in j["name"] for s in args.only)]
    Path(args.out).mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(bench, j, args) for j in jobs]
        for f in futures:
            r = f.result()
            rows.append(r)
            sym = r.get("tools", {}).get("symshape", {}).get("score", {}).get("all", {})
            print(f"{r['name']:44s} {r.get('seconds', 0):6.1f} s  symshape c/u/w "
                  f"{sym.get('correct', 0)}/{sym.get('unresolved', 0)}/{sym.get('unsound', 0)}"
                  + (f"  ERROR {r['error']}" if r.get("error") else ""), flush=True)
    seconds = time.perf_counter() - t0
    text = markdown(rows, seconds)
    (Path(args.out) / "deployed.md").write_text(text)
    (Path(args.out) / "deployed.json").write_text(json.dumps({"seconds": seconds, "rows": rows}, indent=1,
                                                             default=str))
    print("\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
