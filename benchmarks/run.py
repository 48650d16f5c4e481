"""Benchmark symshape against the shape-inference tools users pick instead, in one run.

For each model: run the execution oracle (onnxruntime at several input sizes, every value
exposed), then each tool in its own child process with a time limit (`tools.py`), score every
dim (`score.py`) and time the tools (best of ``--repeat`` runs, wall clock, model load apart).
Prints one table and writes ``results.json`` and ``results.md`` under ``--out``.

Usage:
    python benchmarks/run.py                      # the 20k-node LLaMA-style decoder + tests/models
    python benchmarks/run.py --models llama --layers 160 --repeat 5
    python benchmarks/run.py --quick              # tiny sizes (the smoke test)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import onnx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_llama  # noqa: E402
import score  # noqa: E402
from tools import LABELS, TOOLS  # noqa: E402

import oracle  # noqa: E402

ROOT = HERE.parent
LLAMA_SAMPLES = [
    ("s0", {"batch": 3, "seq": 5, "past_seq": 7}, False),
    ("s1", {"batch": 6, "seq": 4, "past_seq": 9}, False),
    ("ones", {"batch": 1, "seq": 1, "past_seq": 1}, True),
    ("empty-past", {"batch": 1, "seq": 1, "past_seq": 0}, True),
]


def _llama(layers: int, mask_dim: str, cache: Path) -> Path:
    tag = "" if mask_dim == "total_seq" else "_" + "".join(c for c in mask_dim if c.isalnum())
    path = cache / f"llama_{layers}L{tag}.onnx"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        onnx.save(make_llama.build(make_llama.Config(layers=layers, mask_dim=mask_dim)), str(path))
    return path


def _models(args: argparse.Namespace) -> list[tuple[str, Path]]:
    names = args.models or (["llama"] if args.quick else ["llama", "tests"])
    out: list[tuple[str, Path]] = []
    for name in names:
        if name == "llama":
            out.append((f"llama-{args.layers}L", _llama(args.layers, args.mask_dim, Path(args.out) / "cache")))
        elif name == "tests":
            out += [(p.stem, p) for p in sorted((ROOT / "tests" / "models").glob("*.onnx"))]
        elif name in ("zoo", "patterns"):
            made = sorted((Path(args.out) / name).glob("*.onnx"))
            if not made:
                raise SystemExit(f"no models in {Path(args.out) / name}: run `python benchmarks/make_{name}.py "
                                 f"--out {Path(args.out) / name}` first (needs the models extra)")
            out += [(p.stem, p) for p in made]
        else:
            out.append((Path(name).stem, Path(name)))
    return out


def _observe(label: str, model: onnx.ModelProto) -> oracle.Observation:
    if label.startswith("llama-"):
        def feeds(m: onnx.ModelProto, env: dict[str, int], seed: int) -> dict[str, Any]:
            return make_llama.feeds(m, env, seed)

        mask_dim = next(vi for vi in model.graph.input if vi.name == "attention_mask").type.tensor_type.shape.dim[1]
        plan = [(n, make_llama.env(e, mask_dim.dim_param), edge) for n, e, edge in LLAMA_SAMPLES]
        return oracle.observe(model, plan, feeds)
    return oracle.observe(model)


def _run_tool(tool: str, path: Path, work: Path, timeout: float, shapes: bool) -> dict[str, Any]:
    """One child process: warm-up, one timed run, the dims (when ``shapes``)."""
    out = work / f"{path.stem}.{tool}.{'dims' if shapes else 'timing'}.json"
    out.unlink(missing_ok=True)
    cmd = [sys.executable, str(HERE / "tools.py"), tool, str(path), str(out)] + ([] if shapes else ["--no-shapes"])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        crash, err = proc.returncode != 0, proc.stderr[-400:]
    except subprocess.TimeoutExpired:
        crash, err = False, f"no result within {timeout:.0f} s"
    doc: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {"status": "running"}
    if doc.get("status") == "running":
        doc["status"] = "crashed" if crash else "timeout"
        doc["note"] = err.strip()
    return doc


def _tool_rounds(tool: str, path: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """``--repeat`` rounds (the caller interleaves tools); the first also returns the dims."""
    first = _run_tool(tool, path, work, args.timeout, shapes=True)
    first["times"] = [first["time_s"]] if first.get("time_s") is not None else []
    first["cpu"] = [first["cpu_s"]] if first.get("cpu_s") is not None else []
    return first


def _row(label: str, nodes: int, tool: str, doc: dict[str, Any], sc: score.Score | None) -> dict[str, Any]:
    times, cpu = doc.get("times") or [], doc.get("cpu") or []
    return {
        "model": label, "nodes": nodes, "tool": tool, "label": LABELS[tool],
        "status": doc.get("status", "crashed"), "note": doc.get("note", ""),
        "load_ms": 1000 * doc.get("load_s", 0.0),
        "time_ms": 1000 * min(times) if times else None,
        "cpu_ms": 1000 * min(cpu) if cpu else None,
        "times_ms": [1000 * t for t in times],
        "score": sc.to_json() if sc else None,
    }


def bench_model(label: str, path: Path, args: argparse.Namespace, work: Path,
                meta: dict[str, Any]) -> list[dict[str, Any]]:
    model = onnx.load(str(path), load_external_data=False)
    nodes = len(model.graph.node)
    print(f"== {label}: {nodes} nodes, {path}", flush=True)
    obs = _observe(label, model)
    print(f"   oracle: {len(obs.samples)} samples ({', '.join(s.name for s in obs.samples)}), "
          f"{len(obs.values)} values, {len(obs.data_dependent)} data-dependent dims, {obs.seconds:.1f} s"
          + (f"; {len(obs.failed)} candidate samples did not run (see results.json)" if obs.failed else ""),
          flush=True)
    meta[label] = {"nodes": nodes, "path": str(path), "oracle_s": obs.seconds, "failed": obs.failed,
                   "samples": [{"name": s.name, "env": s.env, "edge": s.edge} for s in obs.samples],
                   "values": len(obs.values), "data_dependent": len(obs.data_dependent)}
    docs = {tool: _tool_rounds(tool, path, args, work) for tool in args.tools}
    for _ in range(1, args.repeat):
        for tool, doc in docs.items():
            if doc["status"] in ("timeout", "crashed", "failed"):
                continue
            again = _run_tool(tool, path, work, args.timeout, shapes=False)
            if again.get("time_s") is not None:
                doc["times"].append(again["time_s"])
                doc["cpu"].append(again["cpu_s"])
    inputs = [vi.name for vi in model.graph.input]
    producers = {o: n.op_type for n in model.graph.node for o in n.output}
    rows = []
    for tool, doc in docs.items():
        sc = score.score(doc["shapes"], inputs, obs, producers) if doc.get("shapes") is not None else None
        rows.append(_row(label, nodes, tool, doc, sc))
        print(f"   {tool:15s} {rows[-1]['status']:10s} {_ms(rows[-1]['time_ms'])} ms", flush=True)
    base = next((r["time_ms"] for r in rows if r["tool"] == "symshape"), None)
    for r in rows:
        r["ratio"] = r["time_ms"] / base if base and r["time_ms"] else None
    return rows


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f}" if v < 100 else f"{v:.0f}"


def _counts(r: dict[str, Any], key: str) -> str:
    if r["score"] is None:
        return "-"
    c = r["score"][key]
    return "/".join(str(c.get(k, 0)) for k in score.KINDS)


HEADER = ["model", "nodes", "tool", "status", "time ms", "x symshape", "cpu ms",
          "all dims c/u/r", "varying dims c/u/r", "data-dep c/u/r"]


def table(rows: list[dict[str, Any]]) -> list[list[str]]:
    out = []
    for r in rows:
        ratio = "-" if r.get("ratio") is None else f"{r['ratio']:.2f}"
        out.append([r["model"], str(r["nodes"]), r["label"], r["status"], _ms(r["time_ms"]), ratio,
                    _ms(r["cpu_ms"]), _counts(r, "all"), _counts(r, "varying"), _counts(r, "datadep")])
    return out


def render(rows: list[list[str]], markdown: bool = False) -> str:
    if markdown:
        lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(x) for x in col) for col in zip(HEADER, *rows, strict=True)]
    fmt = "  ".join(f"{{:{'<' if i < 4 else '>'}{w}}}" for i, w in enumerate(widths))
    return "\n".join([fmt.format(*HEADER), fmt.format(*("-" * w for w in widths))] + [fmt.format(*r) for r in rows])


def targets(rows: list[dict[str, Any]]) -> list[str]:
    """The issue's targets, measured on the largest model of the run."""
    if not rows:
        return []
    big = max(rows, key=lambda r: r["nodes"])["model"]
    by = {r["tool"]: r for r in rows if r["model"] == big}
    out = [f"targets on {big} ({by[next(iter(by))]['nodes']} nodes):"]
    s = by.get("symshape")
    limits = (("ort_merge", 0.2, "<= 1/5 of ORT auto_merge"), ("onnx_data_prop", 3.0, "<= 3x onnx data_prop"))
    for tool, limit, what in limits:
        o = by.get(tool)
        if s and o and s["time_ms"] and o["time_ms"]:
            ratio = s["time_ms"] / o["time_ms"]
            cpu = s["cpu_ms"] / o["cpu_ms"] if s["cpu_ms"] and o["cpu_ms"] else float("nan")
            out.append(f"  time {what}: wall {ratio:.3f} -> {'MET' if ratio <= limit else 'NOT MET'} "
                       f"(CPU time {cpu:.3f})")
    for r in rows:
        if r["tool"] == "symshape" and r["score"]:
            a = r["score"]["all"]
            ok = a.get("unsound", 0) == 0 and a.get("unresolved", 0) == 0
            out.append(f"  {r['model']}: symshape size-determined dims correct {a.get('correct', 0)}, unsound "
                       f"{a.get('unsound', 0)}, unresolved {a.get('unresolved', 0)} -> {'MET' if ok else 'NOT MET'}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", nargs="*",
                   help="'llama', 'tests' (tests/models/*.onnx), 'zoo'/'patterns' (see make_zoo.py) or paths")
    p.add_argument("--layers", type=int, default=None, help="layers of the generated decoder (default 120)")
    p.add_argument("--mask-dim", default="total_seq",
                   help="attention_mask dim 1 of the decoder: its own name (default) or 'past_seq + seq'")
    p.add_argument("--repeat", type=int, default=None, help="timed runs per tool, best kept (default 3)")
    p.add_argument("--timeout", type=float, default=None, help="seconds per tool and model (default 600)")
    p.add_argument("--tools", nargs="*", default=list(TOOLS), choices=TOOLS)
    p.add_argument("--quick", action="store_true", help="tiny sizes: 2 layers, 1 run, 120 s limit")
    p.add_argument("--out", default="bench-out")
    args = p.parse_args(argv)
    args.layers = args.layers or (2 if args.quick else 120)
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.timeout = args.timeout or (120.0 if args.quick else 600.0)
    work = Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    meta: dict[str, Any] = {}
    for label, path in _models(args):
        rows += bench_model(label, path, args, work, meta)
    text = render(table(rows))
    notes = [f"{r['model']} / {r['label']}: {r['note']}" for r in rows if r["note"]]
    print("\n" + text + "\n\nc/u/r = correct / unsound / unresolved\n" + "\n".join(notes + targets(rows)))
    (work / "results.json").write_text(json.dumps({"rows": rows, "models": meta}, indent=1))
    md = render(table(rows), markdown=True) + "\n\n" + "\n".join(f"- {n}" for n in notes + targets(rows))
    (work / "results.md").write_text(md + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
