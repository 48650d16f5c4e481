"""Derive "as deployed" variants of the project's test models: onnxruntime-optimized and quantized.

A model reaches users after onnxruntime's graph optimizer saved it (``SessionOptions.
optimized_model_filepath``) or after ``onnxruntime.quantization`` rewrote it: fused contrib ops
(Attention, SkipLayerNormalization, FusedConv, BiasGelu...), the NCHWc layout, QDQ pairs,
QLinear* ops, DynamicQuantizeLinear, MatMulNBits. For each of a few ``tests/models`` with
dynamic dims (a BERT encoder, GPT-2 and LLaMA decoders with a KV cache, a ResNet, a ViT, a
wav2vec2 audio encoder) this writes, under ``--out`` (default ``bench-out/deployed-variants/``,
gitignored):

- ``ort_basic``, ``ort_extended``, ``ort_layout``, ``ort_all``: the optimized model onnxruntime
  saves at ORT_ENABLE_BASIC / EXTENDED / LAYOUT / ALL (ALL and LAYOUT include the NCHWc
  layout transform of convolutions);
- ``qdq_u8`` / ``qdq_s8``: ``quantize_static`` in QDQ format, uint8 activations with int8
  weights / int8 both; ``qop_u8`` / ``qop_s8``: the same in QOperator format (QLinearConv,
  QLinearMatMul, QAttention...); ``qdq_u16``: QDQ with uint16 activations and uint8 weights;
  each calibrated by a small reader that feeds the oracle's random inputs at the recorded sizes;
- ``dynamic``: ``quantize_dynamic`` (int8 weights, DynamicQuantizeLinear / MatMulInteger);
- ``nbits4``: 4-bit weight-only ``MatMulNBitsQuantizer`` (block 16, the test models are narrow).

The sizes to score them at are the base model's: the oracle (``oracle.py``) runs the base model
once with its default size search and the samples that ran are recorded in ``manifest.json``
with every variant (its file, or why it could not be made). ``benchmarks/deployed.py`` scores
the variants at those sizes.

Usage::

    python benchmarks/make_deployed_variants.py                     # 6 models x 11 variants
    python benchmarks/make_deployed_variants.py --models bert_ts --variants ort_all nbits4
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import oracle  # noqa: E402

BASE_MODELS = ("bert_ts", "gpt2_past_ts", "llama_past_dynamo", "resnet_ts", "vit_ts", "wav2vec2_ts")
DEFAULT_OUT = ROOT / "bench-out" / "deployed-variants"
Plan = list[tuple[str, dict[str, int], bool]]


class _Reader:
    """A CalibrationDataReader: the oracle's random inputs at the recorded sizes, a few seeds."""

    def __init__(self, model: onnx.ModelProto, plan: Plan, seeds: int = 3) -> None:
        self._feeds: Iterator[dict[str, np.ndarray]] = iter(
            [oracle.generic_feeds(model, env, seed) for _, env, _ in plan[:2] for seed in range(seeds)])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._feeds, None)

    def rewind(self) -> None:  # part of the reader protocol; not needed for one pass
        pass


def _ort_optimized(level: str) -> Callable[[Path, Path, onnx.ModelProto, Plan], None]:
    def make(src: Path, dst: Path, model: onnx.ModelProto, plan: Plan) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        opts.optimized_model_filepath = str(dst)
        opts.log_severity_level = 3
        ort.InferenceSession(str(src), opts, providers=["CPUExecutionProvider"])

    return make


def _static(fmt: str, activation: str, weight: str) -> Callable[[Path, Path, onnx.ModelProto, Plan], None]:
    """``quantize_static``; when it fails on the exported model, again after ``quant_pre_process``
    (onnxruntime's recommended step: constant folding and ONNX shape inference), as a user would."""
    def make(src: Path, dst: Path, model: onnx.ModelProto, plan: Plan) -> None:
        from onnxruntime.quantization import QuantFormat, QuantType, quant_pre_process, quantize_static

        def run(path: Path) -> None:
            quantize_static(str(path), str(dst), _Reader(model, plan), quant_format=getattr(QuantFormat, fmt),
                            activation_type=getattr(QuantType, activation),
                            weight_type=getattr(QuantType, weight), per_channel=False)

        try:
            run(src)
        except Exception as err:  # noqa: BLE001 - retried below, the first error is kept
            pre = src.with_name("preprocessed.onnx")
            quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
            run(pre)
            raise _Preprocessed(f"{type(err).__name__}: {err}") from None

    return make


class _Preprocessed(Exception):  # noqa: N818 - not an error: the variant was made after quant_pre_process
    """The variant was written after ``quant_pre_process``; the message is the first failure."""


def _dynamic(src: Path, dst: Path, model: onnx.ModelProto, plan: Plan) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8)


def _nbits4(src: Path, dst: Path, model: onnx.ModelProto, plan: Plan) -> None:
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    q = MatMulNBitsQuantizer(onnx.load(str(src)), bits=4, block_size=16, is_symmetric=True)
    q.process()
    q.model.save_model_to_file(str(dst), use_external_data_format=False)


VARIANTS: dict[str, Callable[[Path, Path, onnx.ModelProto, Plan], None]] = {
    "ort_basic": _ort_optimized("ORT_ENABLE_BASIC"),
    "ort_extended": _ort_optimized("ORT_ENABLE_EXTENDED"),
    "ort_layout": _ort_optimized("ORT_ENABLE_LAYOUT"),
    "ort_all": _ort_optimized("ORT_ENABLE_ALL"),
    "qdq_u8": _static("QDQ", "QUInt8", "QInt8"),
    "qdq_s8": _static("QDQ", "QInt8", "QInt8"),
    "qop_u8": _static("QOperator", "QUInt8", "QUInt8"),
    "qop_s8": _static("QOperator", "QInt8", "QInt8"),
    "qdq_u16": _static("QDQ", "QUInt16", "QUInt8"),
    "dynamic": _dynamic,
    "nbits4": _nbits4,
}


def base_plan(model: onnx.ModelProto) -> tuple[Plan, list[str]]:
    """The samples the oracle's default size search ran on the base model, and what did not run."""
    obs = oracle.observe(model)
    return [(s.name, s.env, s.edge) for s in obs.samples], obs.failed


def _op_domains(path: Path) -> dict[str, int]:
    m = onnx.load(str(path), load_external_data=False)
    counts: dict[str, int] = {}
    for n in m.graph.node:
        key = f"{n.domain or 'ai.onnx'}.{n.op_type}"
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def make(base: Path, out: Path, variants: list[str]) -> list[dict[str, Any]]:
    """Every variant of ``base``, each entry with its file or its error."""
    model = onnx.load(str(base))
    plan, failed = base_plan(model)
    entries: list[dict[str, Any]] = []
    for variant in variants:
        dst = out / f"{base.stem}__{variant}.onnx"
        entry: dict[str, Any] = {"name": dst.stem, "base": base.stem, "variant": variant,
                                 "source": f"tests/models/{base.name}", "plan": plan, "plan_failed": failed}
        t = time.perf_counter()
        try:
            with tempfile.TemporaryDirectory() as tmp:  # the quantizers drop augmented models in the cwd
                src = Path(tmp) / base.name
                src.write_bytes(base.read_bytes())
                dst.unlink(missing_ok=True)
                sink = io.StringIO()  # the quantizers print protos and progress
                with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                    try:
                        VARIANTS[variant](src, dst, model, plan)
                    except _Preprocessed as note:
                        entry["preprocessed"] = str(note).splitlines()[0][:300]
            onnx.checker.check_model(str(dst))  # raises when no model was written
            entry["file"] = str(dst)
            entry["ops"] = _op_domains(dst)
        except Exception as err:  # noqa: BLE001 - a variant onnxruntime cannot make is a result
            entry["error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:300] if str(err) else ''}"
            entry["trace"] = traceback.format_exc()[-1500:]
            dst.unlink(missing_ok=True)
        entry["seconds"] = round(time.perf_counter() - t, 2)
        status = "ok" if "file" in entry else f"FAILED {entry['error']}"
        if "preprocessed" in entry and "file" in entry:
            status += " after quant_pre_process (" + entry["preprocessed"][:80] + ")"
        print(f"  {dst.stem:40s} {entry['seconds']:6.1f} s  {status}", flush=True)
        entries.append(entry)
    return entries


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--models", nargs="*", default=list(BASE_MODELS), help="stems of tests/models/*.onnx")
    p.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    manifest_path = args.out / "manifest.json"
    old: list[dict[str, Any]] = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    entries: list[dict[str, Any]] = []
    for stem in args.models:
        base = ROOT / "tests" / "models" / f"{stem}.onnx"
        print(f"== {stem}", flush=True)
        entries += make(base, args.out, args.variants)
    made = {e["name"] for e in entries}
    manifest = [e for e in old if e["name"] not in made] + entries
    manifest_path.write_text(json.dumps(manifest, indent=1))
    bad = [e["name"] for e in entries if "error" in e]
    print(f"{len(entries) - len(bad)} variants written to {args.out}"
          + (f"; {len(bad)} failed: {', '.join(bad)}" if bad else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
