"""MLIR at compiler scale: read and analyze stablehlo modules of 1k, 10k and 100k ops, per reader.

```
python benchmarks/mlir_scale.py                       # 1k, 10k, 100k ops; 3 rounds, min kept
python benchmarks/mlir_scale.py --sizes 1000 10000 --repeat 1 --readers iree jax
```

The modules are LLM-like decoder stacks (embedding, layernorm, causal attention, MLP, symbolic
batch and sequence) exported by ``jax.export`` when jax is installed, else generated text of the
same ops (`generated_module`); they are cached under ``--out`` (default
``bench-out/mlir_scale``). Each reader (``xdsl``, ``iree``, ``jax`` bindings) runs in a child
process per size and round, which reports:

* import: importing the reader and building its parser context (the bindings' ``ir.Context``),
* parse: text -> the reader's module,
* frontend: text -> `FuncView` Programs (parse included),
* analyze: ``analyze_mlir_text`` end to end (parse, frontend and the analysis),
* peak: the child's peak resident memory (``VmHWM``, else ``ru_maxrss``).

``--xdsl-max N`` (default 20000) skips the xDSL reader above N ops (it reads ~1,000 ops/s).
A second table times ``symshape opt`` with no pass, ``-p shape-optimization`` and ``-p for-iree`` (``--pipelines``)
per module up to ``--opt-max`` ops (default 100000): the whole process (ended as ``symshape``
ends, without the interpreter's teardown), and its stages read, verify, passes and print
(`measure_pipeline`), beside MLIR's own C++ round trip of the module
(``iree-opt IN -o OUT``: parse, verify, print; whole process) as the ratio ``x iree-opt``.
``--profile`` writes a cProfile of the largest analysis (bindings reader) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1000, 10_000, 100_000)
READERS = ("xdsl", "iree", "jax")
PIPELINES = ("", "shape-optimization", "for-iree")
"""``""``: no pass, ``opt IN -o OUT`` reading, verifying and printing the module: the floor every
pipeline stands on."""


# ------------------------------------------------------------------------------ the modules


def jax_module(layers: int) -> str:
    """A GPT-style decoder of ``layers`` layers over tokens ``(b, s)``, exported by jax."""
    import jax
    import jax.numpy as jnp

    d, heads, vocab = 64, 4, 97

    def layernorm(x: Any, g: Any) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(var + 1e-5) * g

    def attention(x: Any, w: Any) -> Any:
        b, s, _ = x.shape
        q, k, v = (jnp.einsum("bsd,de->bse", x, w[i]).reshape(b, s, heads, d // heads) for i in range(3))
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d / heads)
        mask = jnp.arange(s)[:, None] >= jnp.arange(s)[None, :]
        probs = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
        return jnp.einsum("bhqk,bkhd->bqhd", probs, v).reshape(b, s, d) @ w[3]

    def decoder(params: Any, tokens: Any) -> Any:
        x = params["embed"][tokens] + params["pos"][jnp.arange(tokens.shape[1])]
        for layer in params["layers"]:
            x = x + attention(layernorm(x, layer["g1"]), layer["attn"])
            h = jax.nn.gelu(layernorm(x, layer["g2"]) @ layer["up"])
            x = x + h @ layer["down"]
        return layernorm(x, params["gf"]) @ params["embed"].T

    f32 = jnp.float32
    layer = {"g1": (d,), "g2": (d,), "attn": (4, d, d), "up": (d, 4 * d), "down": (4 * d, d)}
    params = {"embed": jax.ShapeDtypeStruct((vocab, d), f32), "pos": jax.ShapeDtypeStruct((4096, d), f32),
              "gf": jax.ShapeDtypeStruct((d,), f32),
              "layers": [{k: jax.ShapeDtypeStruct(v, f32) for k, v in layer.items()} for _ in range(layers)]}
    tokens = jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, s"), jnp.int32)
    return jax.export.export(jax.jit(decoder))(params, tokens).mlir_module()


def generated_module(layers: int) -> str:
    """Without jax: a stablehlo decoder-like chain over ``%x: tensor<?x?x64xf32>``, ~20 ops a layer."""
    t = "tensor<?x?x64xf32>"
    lines = [f"func.func public @main(%x: {t}, %w: tensor<64x64xf32>) -> {t} {{",
             "  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?x64xf32>) -> tensor<i32>",
             "  %s = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?x64xf32>) -> tensor<i32>",
             "  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>",
             "  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>",
             "  %c64 = stablehlo.constant dense<64> : tensor<1xi32>",
             "  %shape = stablehlo.concatenate %b1, %s1, %c64, dim = 0 : (tensor<1xi32>, tensor<1xi32>, "
             "tensor<1xi32>) -> tensor<3xi32>",
             "  %one = stablehlo.constant dense<1.0> : tensor<f32>"]
    prev = "%x"
    for i in range(layers):
        lines += [
            f"  %m{i} = stablehlo.dot_general {prev}, %w, contracting_dims = [2] x [0] : "
            f"({t}, tensor<64x64xf32>) -> {t}",
            f"  %o{i} = stablehlo.dynamic_broadcast_in_dim %one, %shape, dims = [] : "
            f"(tensor<f32>, tensor<3xi32>) -> {t}",
            f"  %a{i} = stablehlo.add %m{i}, %o{i} : {t}",
            f"  %t{i} = stablehlo.tanh %a{i} : {t}",
            f"  %p{i} = stablehlo.multiply %t{i}, {prev} : {t}",
            f"  %r{i} = stablehlo.dynamic_reshape %p{i}, %shape : ({t}, tensor<3xi32>) -> {t}",
            f"  %n{i} = stablehlo.negate %r{i} : {t}",
            f"  %e{i} = stablehlo.exponential %n{i} : {t}",
            f"  %d{i} = stablehlo.divide %r{i}, %e{i} : {t}",
            f"  %q{i} = stablehlo.subtract %d{i}, %r{i} : {t}",
        ]
        prev = f"%q{i}"
    lines += [f"  return {prev} : {t}", "}"]
    return "\n".join(lines) + "\n"


def count_ops(text: str) -> int:
    """Ops of the module (nested ones included), by MLIR's parser where installed."""
    from symshape.frontends.mlir.bindings_ops import BlockOps
    from symshape.frontends.mlir.bindings_parse import available_bindings, parse_with_bindings

    for which in available_bindings():
        parsed = parse_with_bindings(text, which)
        if parsed is not None:
            return len(BlockOps(parsed[0].operation).all)
    return text.count(" = ") + text.count("return")


def module_of_size(target: int, out: Path) -> tuple[Path, int]:
    """A cached module of about ``target`` ops: layers scaled from a 2-layer probe."""
    try:
        import jax  # noqa: F401

        make, kind = jax_module, "jax"
    except ImportError:
        make, kind = generated_module, "generated"
    path = out / f"{kind}_{target}.mlir"
    if not path.exists():
        small, big = count_ops(make(2)), count_ops(make(4))
        per_layer = max(1, (big - small) // 2)
        layers = max(1, round((target - (small - 2 * per_layer)) / per_layer))
        out.mkdir(parents=True, exist_ok=True)
        path.write_text(make(layers))
    return path, count_ops(path.read_text())


# ------------------------------------------------------------------------------ one measurement


def measure(path: Path, reader: str) -> dict[str, float]:
    """Times of one reader on one module, in this (fresh) process."""
    text = path.read_text()
    out: dict[str, float] = {}
    start = time.perf_counter()
    if reader == "xdsl":
        from symshape.ir.parse import make_context, parse_module

        ctx = make_context()
        out["import"] = time.perf_counter() - start
        from symshape.frontends.mlir.program_builder import module_to_programs

        start = time.perf_counter()
        module = parse_module(text, ctx)
        out["parse"] = time.perf_counter() - start
        module_to_programs(module)
        out["frontend"] = time.perf_counter() - start
    else:
        os.environ["SYMSHAPE_MLIR_BINDINGS"] = reader
        from symshape.frontends.mlir.bindings_parse import parse_with_bindings

        parse_with_bindings("", reader)  # the import and a context
        out["import"] = time.perf_counter() - start
        from symshape.frontends.mlir.bindings_reader import read_views

        start = time.perf_counter()
        parse_with_bindings(text, reader)
        out["parse"] = time.perf_counter() - start
        start = time.perf_counter()
        read_views(text)
        out["frontend"] = time.perf_counter() - start
    from symshape.frontends.mlir.frontend import analyze_mlir_text

    start = time.perf_counter()
    analyze_mlir_text(text, source=str(path), reader="xdsl" if reader == "xdsl" else "bindings")
    out["analyze"] = time.perf_counter() - start
    out["peak_mb"] = peak_mb()
    return out


def measure_pipeline(path: Path, pipeline: str) -> dict[str, float]:
    """``symshape opt -p PIPELINE`` on one module, in this (fresh) process, stage by stage as
    ``opt --timing`` reports them (`symshape.tools.mlir_passes.opt.run_opt`): read (MLIR's parser
    and the rebuild as xDSL ops where jaxlib or IREE is installed, else xDSL's parser), the
    passes, print, and verify (xDSL's verifier on a module MLIR's did not check; the output by
    MLIR's where it registers every op)."""
    from symshape.tools.mlir_passes.opt import Timing, run_opt

    timing: Timing = {}
    start = time.perf_counter()
    run_opt(path, pipeline, timing=timing)
    total = time.perf_counter() - start
    stages = {"read": timing.pop("read"), "print": timing.pop("print"),
              "verify": timing.pop("verify input") + timing.pop("verify output")}
    return {**stages, "passes": sum(timing.values()), "total": total, "peak_mb": peak_mb()}


def peak_mb() -> float:
    """This process's peak resident memory: ``VmHWM`` (``ru_maxrss`` survives ``exec`` on Linux,
    so a child would report the parent's peak when that is larger)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(path: Path, reader: str) -> dict[str, float] | None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--one", str(path), reader], capture_output=True, text=True,
                          env=env, check=False)
    process = time.perf_counter() - start
    if proc.returncode != 0:
        print(f"  {reader} on {path.name} failed: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "process": process}


def iree_opt_seconds(path: Path, repeat: int) -> float | None:
    """The fastest of ``repeat`` whole-process runs of ``iree-opt path`` (MLIR's parser, verifier
    and printer in C++, no pass): the floor any tool that reads and writes the module stands on."""
    tool = shutil.which("iree-opt")
    if tool is None:
        return None
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([tool, str(path), "-o", os.devnull], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def profile(path: Path, out: Path) -> Path:
    """cProfile of ``analyze_mlir_text`` (bindings reader) on ``path``, sorted by own time."""
    import cProfile
    import pstats

    from symshape.frontends.mlir.frontend import analyze_mlir_text

    text = path.read_text()
    prof = cProfile.Profile()
    prof.enable()
    analyze_mlir_text(text, source=str(path), reader="bindings")
    prof.disable()
    target = out / f"profile_{path.stem}.txt"
    with target.open("w") as f:
        stats = pstats.Stats(prof, stream=f)
        stats.sort_stats("tottime").print_stats(40)
        stats.sort_stats("cumulative").print_stats(60)
    return target


def _print_opt_table(opt: list[tuple[int, str, list[dict[str, float]]]], floors: dict[int, float | None]) -> None:
    """The opt table: per module, iree-opt's round trip, then each pipeline's best run."""
    print("\n| ops | opt -p | whole process s | x iree-opt | read s | verify s | passes s | print s | peak MB |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for ops, floor in floors.items():
        if floor is not None:
            print(f"| {ops} | (iree-opt round trip) | {floor:.2f} | 1.0 | | | | | |")
    for ops, pipeline, runs in opt:
        if runs:
            best = {k: min(r[k] for r in runs) for k in runs[0]}
            floor = floors.get(ops)
            ratio = f"{best['process'] / floor:.1f}" if floor else "-"
            print(f"| {ops} | {pipeline or '(no pass)'} | {best['process']:.2f} | {ratio} | {best['read']:.2f} | "
                  f"{best['verify']:.2f} | {best['passes']:.2f} | {best['print']:.2f} | {best['peak_mb']:.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--readers", nargs="+", default=list(READERS), choices=READERS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--xdsl-max", type=int, default=20_000)
    parser.add_argument("--opt-max", type=int, default=100_000, help="the opt pipelines up to this many ops")
    parser.add_argument("--pipelines", nargs="*", default=list(PIPELINES), help="the opt pipelines timed")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-out" / "mlir_scale")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("MODULE", "READER"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        module, what = Path(args.one[0]), args.one[1]
        timed = measure_pipeline(module, what[len("opt:"):]) if what.startswith("opt:") else measure(module, what)
        print(json.dumps(timed), flush=True)
        if what.startswith("opt:"):
            os._exit(0)  # as the symshape process ends (`symshape.app.cli.run_and_exit`): no teardown
        return 0
    opt: list[tuple[int, str, list[dict[str, float]]]] = []
    floors: dict[int, float | None] = {}
    print("| ops | reader | import s | parse s | frontend s | analyze s | analyze ops/s | peak MB |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        path, ops = module_of_size(size, args.out)
        for reader in args.readers:
            if reader == "xdsl" and ops > args.xdsl_max:
                continue
            runs = [r for r in (_child(path, reader) for _ in range(args.repeat)) if r is not None]
            if not runs:
                continue
            best = {k: min(r[k] for r in runs) for k in runs[0]}
            print(f"| {ops} | {reader} | {best['import']:.2f} | {best['parse']:.2f} | {best['frontend']:.2f} | "
                  f"{best['analyze']:.2f} | {ops / best['analyze']:,.0f} | {best['peak_mb']:.0f} |", flush=True)
        if args.pipelines and size <= args.opt_max:
            floors[ops] = iree_opt_seconds(path, args.repeat)
        for pipeline in args.pipelines if size <= args.opt_max else ():
            runs = (_child(path, f"opt:{pipeline}") for _ in range(args.repeat))
            opt.append((ops, pipeline, [r for r in runs if r is not None]))
        if args.profile and size == max(args.sizes):
            print(f"profile: {profile(path, args.out)}")
    _print_opt_table(opt, floors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
