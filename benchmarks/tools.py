"""The analyzers under comparison, each run in a child process with a time limit.

``python benchmarks/tools.py TOOL MODEL OUT.json [--no-shapes]`` loads the model (timed apart),
warms the tool up on a 1-layer decoder (imports, caches), then runs it once on the in-memory
ModelProto, so every tool pays for its own conversion (symshape's reader, ORT's copy, ONNX's
serialization, onnx_ir's ``from_proto``). It writes ``OUT.json``: status, load time, wall and
CPU time of the run and, unless ``--no-shapes``, every value's dims (ints, dim_param strings,
or null). The parent runs one child per tool per round, so the tools are interleaved in time.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx

Dims = list[int | str | None] | None
Shapes = dict[str, Dims]

TOOLS = ("symshape", "ort_merge", "ort_nomerge", "osi", "onnx_data_prop")
LABELS = {
    "symshape": "symshape",
    "ort_merge": "ORT symbolic (auto_merge)",
    "ort_nomerge": "ORT symbolic (no merge)",
    "osi": "onnx-shape-inference",
    "onnx_data_prop": "onnx infer_shapes(data_prop)",
}


def _proto_dims(vi: onnx.ValueInfoProto) -> Dims:
    t = vi.type
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    out: list[int | str | None] = []
    for d in t.tensor_type.shape.dim:
        if d.HasField("dim_value"):
            out.append(int(d.dim_value))
        elif d.HasField("dim_param"):
            out.append(d.dim_param)
        else:
            out.append(None)
    return out


# ------------------------------------------------------------------------------ the tools
def run_symshape(model: onnx.ModelProto) -> tuple[Any, str]:
    from symshape.api import analyze_onnx

    result = analyze_onnx(model)
    return result, f"{len(result.warnings)} warnings, {len(result.guards())} guards"


def shapes_symshape(result: Any) -> Shapes:
    out: Shapes = {}
    for name in result.value_names():
        dims = result.shape_or_none(name)
        out[name] = None if dims is None else [d if isinstance(d, int) else str(d) for d in dims]
    return out


def _ort(model: onnx.ModelProto, merge: bool) -> tuple[Any, str]:
    """``SymbolicShapeInference.infer_shapes`` minus its final raise, so partial results count."""
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

    sym = SymbolicShapeInference(2**31 - 1, merge, False, 0)
    done = False
    note = ""
    try:
        sym._preprocess(model)  # noqa: SLF001 - same steps as the public static method
        while sym.run_:
            done = sym._infer_impl()  # noqa: SLF001
        sym._update_output_from_vi()  # noqa: SLF001
        if not done:
            note = "incomplete (the public API raises 'Incomplete symbolic shape inference')"
    except Exception as err:  # noqa: BLE001 - its failures are what we report
        note = f"crashed: {type(err).__name__}: {str(err)[:160]}"
    return sym, note


def shapes_ort(sym: Any) -> Shapes:
    return {name: _proto_dims(vi) for name, vi in getattr(sym, "known_vi_", {}).items()}


def run_osi(model: onnx.ModelProto) -> tuple[Any, str]:
    import onnx_ir as ir
    from onnx_shape_inference import infer_symbolic_shapes

    irm = ir.from_proto(model)
    infer_symbolic_shapes(irm)
    return irm, ""


def shapes_osi(irm: Any) -> Shapes:
    out: Shapes = {}
    values = list(irm.graph.inputs) + [v for n in irm.graph for v in n.outputs]
    for v in values:
        if v.shape is None:
            out[v.name] = None
            continue
        dims: list[int | str | None] = []
        for d in v.shape.dims:
            dims.append(d if isinstance(d, int) else getattr(d, "value", None))
        out[v.name] = dims
    return out


def run_onnx(model: onnx.ModelProto) -> tuple[Any, str]:
    return onnx.shape_inference.infer_shapes(model, data_prop=True), ""


def shapes_onnx(m: onnx.ModelProto) -> Shapes:
    g = m.graph
    return {vi.name: _proto_dims(vi) for vi in [*g.input, *g.value_info, *g.output]}


RUNNERS: dict[str, tuple[Callable[[onnx.ModelProto], tuple[Any, str]], Callable[[Any], Shapes]]] = {
    "symshape": (run_symshape, shapes_symshape),
    "ort_merge": (lambda m: _ort(m, True), shapes_ort),
    "ort_nomerge": (lambda m: _ort(m, False), shapes_ort),
    "osi": (run_osi, shapes_osi),
    "onnx_data_prop": (run_onnx, shapes_onnx),
}


# ----------------------------------------------------------------------------- the child
def _write(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc))
    os.replace(tmp, path)


def _warm_up(run: Callable[[onnx.ModelProto], tuple[Any, str]]) -> None:
    """Run once on a 1-layer decoder so imports and caches are not timed."""
    import make_llama

    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        try:
            run(make_llama.build(make_llama.Config(layers=1)))
        except Exception:  # noqa: BLE001, S110 - a failing warm-up shows again in the timed run
            pass


def child(tool: str, model_path: str, out: Path, shapes: bool) -> None:
    """Load, warm up, run once (timed, wall and CPU), record; exceptions become ``failed``."""
    run, extract = RUNNERS[tool]
    t0 = time.perf_counter()
    model = onnx.load(model_path, load_external_data=False)
    doc: dict[str, Any] = {"tool": tool, "status": "running", "load_s": time.perf_counter() - t0,
                           "time_s": None, "cpu_s": None, "note": "", "shapes": None}
    _warm_up(run)
    _write(out, doc)
    gc.collect()
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            t, c = time.perf_counter(), time.process_time()
            result, note = run(model)
            doc["time_s"], doc["cpu_s"] = time.perf_counter() - t, time.process_time() - c
    except Exception as err:  # noqa: BLE001 - a competitor's crash is a result
        doc["status"] = "failed"
        doc["note"] = f"{type(err).__name__}: {str(err)[:200]}"
        doc["trace"] = traceback.format_exc()[-2000:]
        _write(out, doc)
        return
    doc["note"] = note
    doc["status"] = note.split(" ")[0].rstrip(":") if note.startswith(("incomplete", "crashed")) else "ok"
    if shapes:
        doc["shapes"] = extract(result)
    _write(out, doc)


def main() -> None:
    tool, model_path, out = sys.argv[1], Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # ORT's infer_shapes may drop a sym_shape_infer_temp.onnx in the cwd
        child(tool, str(model_path), out, "--no-shapes" not in sys.argv)


if __name__ == "__main__":
    main()
