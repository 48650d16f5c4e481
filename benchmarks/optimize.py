"""Compare `symshape optimize` with its peers on the bundled exports; prints a markdown table.

Peers: ``onnxscript.optimizer.optimize``, ``onnxslim.slim`` and ``onnxsim.simplify`` (0.8 keeps
dynamic inputs dynamic by itself), each when installed. Per model and tool: node count, shape-computation node count
(`symshape.tools.optimize.summary.shape_nodes`), optimize time, onnxruntime session-creation time and
median run latency (CPU, default graph optimizations) at batch 1 with seq 1..16 (the median over
seq 1, 2, 4, 8, 16) and at a mid size (batch 4, seq 64; images 4x64x64).

    PYTHONPATH=src python benchmarks/optimize.py [--models bert_ts,gpt2_past_ts] [--repeat 30]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx
import onnxruntime as ort

from symshape.tools.optimize.model import optimize_model
from symshape.tools.optimize.summary import shape_nodes
from symshape.tools.verify import make_feeds

MODELS = Path(__file__).resolve().parent.parent / "tests" / "models"
DEFAULT = ["bert_ts", "gpt2_past_ts", "llama_past_ts", "t5_ts", "bert_dynamo", "gpt2_past_dynamo",
           "llama_past_dynamo", "resnet_ts"]
FACTS = {"gpt2_past_dynamo": ["total_seq == past_seq + seq"], "llama_past_dynamo": ["total_seq == past_seq + seq"]}
Tool = Callable[[onnx.ModelProto, str], onnx.ModelProto]


def _symshape(model: onnx.ModelProto, name: str) -> onnx.ModelProto:
    return optimize_model(model, facts=FACTS.get(name, []))[0]


def _onnxscript(model: onnx.ModelProto, name: str) -> onnx.ModelProto:
    from onnxscript import optimizer

    out = onnx.ModelProto()
    out.CopyFrom(model)
    return optimizer.optimize(out)


def _onnxslim(model: onnx.ModelProto, name: str) -> onnx.ModelProto:
    import onnxslim

    out = onnx.ModelProto()
    out.CopyFrom(model)
    return onnxslim.slim(out)


def _onnxsim(model: onnx.ModelProto, name: str) -> onnx.ModelProto:
    import onnxsim

    out, ok = onnxsim.simplify(model, check_n=0)  # 0.8 keeps dynamic input shapes by itself
    if not ok:
        raise RuntimeError("onnxsim could not validate its output")
    return out


def tools() -> dict[str, Tool]:
    """The tools that are installed (the original model is the 'none' row)."""
    found: dict[str, Tool] = {"none": lambda m, n: m, "symshape": _symshape, "onnxscript": _onnxscript}
    for name, module, fn in (("onnxslim", "onnxslim", _onnxslim), ("onnxsim", "onnxsim", _onnxsim)):
        try:
            __import__(module)
        except ImportError:
            print(f"(skipping {name}: not installed)")
            continue
        found[name] = fn
    return found


def env_for(model: onnx.ModelProto, batch: int, seq: int) -> dict[str, int]:
    """Input-symbol sizes: batch, seq, past_seq (= seq), dec_seq, total_seq, and images of side 8*seq."""
    env = {"batch": batch, "seq": seq, "past_seq": seq, "dec_seq": seq, "total_seq": 2 * seq,
           "height": max(32, 8 * seq), "width": max(32, 8 * seq), "samples": 400 * seq}
    return env


def latency(session: Any, feeds: dict[str, Any], repeat: int) -> float:
    """Median wall time of ``repeat`` runs after two warm-ups, in ms."""
    for _ in range(2):
        session.run(None, feeds)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        session.run(None, feeds)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(original: onnx.ModelProto, model: onnx.ModelProto, repeat: int) -> tuple[float, float, float]:
    """Session-creation time (ms), small-size latency (median over seq 1..16) and mid-size latency."""
    start = time.perf_counter()
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    create = (time.perf_counter() - start) * 1000
    small = statistics.median(
        latency(session, make_feeds(original, env_for(original, 1, s)), repeat) for s in (1, 2, 4, 8, 16)
    )
    mid = latency(session, make_feeds(original, env_for(original, 4, 64)), repeat)
    return create, small, mid


def main() -> None:
    """Run every installed tool on every model and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(DEFAULT))
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    rows = ["| model | tool | nodes | shape nodes | optimize s | session ms | run ms b1 s1..16 | run ms mid |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name in args.models.split(","):
        original = onnx.load(str(MODELS / f"{name}.onnx"))
        for tool, fn in tools().items():
            start = time.perf_counter()
            try:
                model = fn(original, name)
            except Exception as err:  # noqa: BLE001 - a peer failing is a result to print
                rows.append(f"| {name} | {tool} | failed: {type(err).__name__} | | | | | |")
                continue
            took = time.perf_counter() - start
            try:
                create, small, mid = measure(original, model, args.repeat)
            except Exception as err:  # noqa: BLE001 - as above
                rows.append(f"| {name} | {tool} | {len(model.graph.node)} | {shape_nodes(model)} | {took:.2f} | "
                            f"runs fail: {type(err).__name__} | | |")
                continue
            rows.append(f"| {name} | {tool} | {len(model.graph.node)} | {shape_nodes(model)} | {took:.2f} | "
                        f"{create:.1f} | {small:.3f} | {mid:.3f} |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
