"""Generate the tiny random-weight test models in tests/models/ (and the bundled example).

Each model is a Hugging Face architecture built from a small config (no hub download: weights
are random, seeded) and exported by PyTorch's TorchScript exporter (``dynamo=False`` with
``dynamic_axes``) and, where it works, the dynamo exporter (``dynamo=True`` with
``dynamic_shapes``). Doc strings and per-node metadata are stripped to keep the files small.

Usage:
    python scripts/make_models.py [NAME ...] [--out tests/models] [--list]

Needs the ``models`` extra (torch==2.13.0, transformers, onnxscript). Deterministic: running it
twice gives the same graphs (weights come from ``torch.manual_seed``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import onnx  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "symshape" / "examples" / "bert_tiny.onnx"
OPSET_TS = 17
OPSET_DYNAMO = 18


@dataclass
class Spec:
    """One model to export: how to build it and how its inputs vary."""

    name: str
    build: Callable[[], tuple[nn.Module, tuple[torch.Tensor, ...]]]
    inputs: list[str]
    outputs: list[str]
    axes: dict[str, dict[int, str]]  # input/output name -> {axis: symbol} (TorchScript)
    exporters: tuple[str, ...] = ("ts", "dynamo", "pt2")
    dynamo_dims: dict[str, dict[int, str]] | None = None  # defaults to ``axes`` restricted to inputs
    dim_ranges: dict[str, tuple[int, int]] = field(default_factory=dict[str, tuple[int, int]])


def seeded(fn: Callable[[], Any]) -> Callable[[], Any]:
    def wrapped() -> Any:
        torch.manual_seed(0)
        return fn()

    return wrapped


class Outputs(nn.Module):
    """Call a Hugging Face model with keyword inputs and return a flat tuple of tensors."""

    def __init__(self, model: nn.Module, names: list[str], keys: list[str], **extra: Any) -> None:
        super().__init__()
        self.model = model
        self.names = names
        self.keys = keys
        self.extra = extra

    def forward(self, *args: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = self.model(**dict(zip(self.names, args, strict=True)), return_dict=True, **self.extra)
        return tuple(out[k] for k in self.keys)


# --------------------------------------------------------------------------------- the models
@seeded
def build_bert() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import BertConfig, BertModel

    cfg = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=64, type_vocab_size=2,
                     attn_implementation="eager")
    model = Outputs(BertModel(cfg).eval(), ["input_ids", "attention_mask", "token_type_ids"],
                    ["last_hidden_state", "pooler_output"])
    ids = torch.randint(0, 100, (2, 7))
    return model, (ids, torch.ones(2, 7, dtype=torch.long), torch.zeros(2, 7, dtype=torch.long))


class DecoderWithPast(nn.Module):
    """A causal LM taking its KV cache as flat ``past_key_i``/``past_value_i`` tensors."""

    def __init__(self, model: nn.Module, layers: int) -> None:
        super().__init__()
        self.model = model
        self.layers = layers

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
                *past: torch.Tensor) -> tuple[torch.Tensor, ...]:
        from transformers import DynamicCache

        cache = DynamicCache()
        for i in range(self.layers):
            cache.update(past[2 * i], past[2 * i + 1], i)
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                         past_key_values=cache, use_cache=True, return_dict=True)
        present = out.past_key_values
        flat: list[torch.Tensor] = []
        for i in range(self.layers):
            flat += [present.layers[i].keys, present.layers[i].values]
        return (out.logits, *flat)


GPT2_LAYERS = 2


@seeded
def build_gpt2() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = GPT2Config(vocab_size=100, n_embd=32, n_layer=GPT2_LAYERS, n_head=4, n_positions=64,
                     attn_implementation="eager")
    model = DecoderWithPast(GPT2LMHeadModel(cfg).eval(), GPT2_LAYERS)
    batch, seq, past = 2, 3, 5
    ids = torch.randint(0, 100, (batch, seq))
    mask = torch.ones(batch, past + seq, dtype=torch.long)
    pos = torch.arange(past, past + seq).unsqueeze(0).expand(batch, seq)
    kv = [torch.randn(batch, 4, past, 8) for _ in range(2 * GPT2_LAYERS)]
    return model, (ids, mask, pos, *kv)


@seeded
def build_llama() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = LlamaConfig(vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=GPT2_LAYERS,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                      attn_implementation="eager")
    model = DecoderWithPast(LlamaForCausalLM(cfg).eval(), GPT2_LAYERS)
    batch, seq, past = 2, 3, 5
    ids = torch.randint(0, 100, (batch, seq))
    mask = torch.ones(batch, past + seq, dtype=torch.long)
    pos = torch.arange(past, past + seq).unsqueeze(0).expand(batch, seq)
    kv = [torch.randn(batch, 2, past, 8) for _ in range(2 * GPT2_LAYERS)]  # grouped-query: 2 KV heads
    return model, (ids, mask, pos, *kv)


def _gpt2_names() -> tuple[list[str], list[str], dict[str, dict[int, str]]]:
    past_in = [f"past_{kind}_{i}" for i in range(GPT2_LAYERS) for kind in ("key", "value")]
    present = [f"present_{kind}_{i}" for i in range(GPT2_LAYERS) for kind in ("key", "value")]
    axes: dict[str, dict[int, str]] = {
        "input_ids": {0: "batch", 1: "seq"},
        "attention_mask": {0: "batch", 1: "past_seq + seq"},
        "position_ids": {0: "batch", 1: "seq"},
        "logits": {0: "batch", 1: "seq"},
    }
    axes |= {n: {0: "batch", 2: "past_seq"} for n in past_in}
    axes |= {n: {0: "batch", 2: "past_seq + seq"} for n in present}
    return ["input_ids", "attention_mask", "position_ids", *past_in], ["logits", *present], axes


GPT2_IN, GPT2_OUT, GPT2_AXES = _gpt2_names()
# torch.export cannot declare a sum of two dims: the dynamo export gives the mask its own symbol
GPT2_DYNAMO = {k: ({0: "batch", 1: "total_seq"} if k == "attention_mask" else v)
               for k, v in GPT2_AXES.items() if k in GPT2_IN}


@seeded
def build_t5() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import T5Config, T5Model

    cfg = T5Config(vocab_size=100, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2,
                   num_heads=4, relative_attention_num_buckets=8, relative_attention_max_distance=20,
                   decoder_start_token_id=0, attn_implementation="eager")
    model = Outputs(T5Model(cfg).eval(), ["input_ids", "attention_mask", "decoder_input_ids"],
                    ["last_hidden_state", "encoder_last_hidden_state"], use_cache=False)
    return model, (torch.randint(0, 100, (2, 7)), torch.ones(2, 7, dtype=torch.long),
                   torch.randint(0, 100, (2, 5)))


@seeded
def build_vit() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import ViTConfig, ViTModel

    cfg = ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                    image_size=32, patch_size=8, num_channels=3, attn_implementation="eager")
    model = Outputs(ViTModel(cfg, add_pooling_layer=True).eval(), ["pixel_values"],
                    ["last_hidden_state", "pooler_output"], interpolate_pos_encoding=True)
    return model, (torch.randn(2, 3, 40, 48),)


@seeded
def build_swin() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import SwinConfig, SwinModel

    cfg = SwinConfig(image_size=32, patch_size=4, num_channels=3, embed_dim=16, depths=[2, 2],
                     num_heads=[2, 4], window_size=4, mlp_ratio=2.0, attn_implementation="eager")
    model = Outputs(SwinModel(cfg).eval(), ["pixel_values"], ["last_hidden_state", "pooler_output"])
    return model, (torch.randn(2, 3, 38, 45),)


@seeded
def build_resnet() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import ResNetConfig, ResNetModel

    cfg = ResNetConfig(num_channels=3, embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                       layer_type="basic", downsample_in_first_stage=False)
    model = Outputs(ResNetModel(cfg).eval(), ["pixel_values"], ["last_hidden_state", "pooler_output"])
    return model, (torch.randn(2, 3, 37, 50),)


@seeded
def build_wav2vec2() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from transformers import Wav2Vec2Config, Wav2Vec2Model

    cfg = Wav2Vec2Config(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                         conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3),
                         num_conv_pos_embeddings=8, num_conv_pos_embedding_groups=4,
                         feat_extract_norm="group", do_stable_layer_norm=False, mask_time_prob=0.0,
                         attn_implementation="eager")
    model = Outputs(Wav2Vec2Model(cfg).eval(), ["input_values"], ["last_hidden_state", "extract_features"])
    return model, (torch.randn(2, 400),)


IMAGE_AXES = {"pixel_values": {0: "batch", 2: "height", 3: "width"}}

SPECS: list[Spec] = [
    Spec("bert", build_bert, ["input_ids", "attention_mask", "token_type_ids"],
         ["last_hidden_state", "pooler_output"],
         {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
          "token_type_ids": {0: "batch", 1: "seq"}, "last_hidden_state": {0: "batch", 1: "seq"},
          "pooler_output": {0: "batch"}}),
    Spec("gpt2_past", build_gpt2, GPT2_IN, GPT2_OUT, GPT2_AXES,
         dynamo_dims=GPT2_DYNAMO),
    Spec("llama_past", build_llama, GPT2_IN, GPT2_OUT, GPT2_AXES,
         dynamo_dims=GPT2_DYNAMO),
    Spec("t5", build_t5, ["input_ids", "attention_mask", "decoder_input_ids"],
         ["last_hidden_state", "encoder_last_hidden_state"],
         {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
          "decoder_input_ids": {0: "batch", 1: "dec_seq"}, "last_hidden_state": {0: "batch", 1: "dec_seq"},
          "encoder_last_hidden_state": {0: "batch", 1: "seq"}}),
    Spec("vit", build_vit, ["pixel_values"], ["last_hidden_state", "pooler_output"],
         IMAGE_AXES | {"last_hidden_state": {0: "batch"}, "pooler_output": {0: "batch"}},
         dim_ranges={"height": (8, 512), "width": (8, 512)}),
    Spec("swin", build_swin, ["pixel_values"], ["last_hidden_state", "pooler_output"],
         IMAGE_AXES | {"last_hidden_state": {0: "batch"}, "pooler_output": {0: "batch"}},
         dim_ranges={"height": (16, 512), "width": (16, 512)}),
    Spec("resnet", build_resnet, ["pixel_values"], ["last_hidden_state", "pooler_output"],
         IMAGE_AXES | {"last_hidden_state": {0: "batch"}, "pooler_output": {0: "batch"}},
         dim_ranges={"height": (8, 512), "width": (8, 512)}),
    Spec("wav2vec2", build_wav2vec2, ["input_values"], ["last_hidden_state", "extract_features"],
         {"input_values": {0: "batch", 1: "samples"}, "last_hidden_state": {0: "batch"},
          "extract_features": {0: "batch"}},
         dim_ranges={"samples": (40, 16000)}),
]


# ------------------------------------------------------------------------------- exporting
def export_ts(spec: Spec, model: nn.Module, args: tuple[torch.Tensor, ...], path: Path) -> None:
    torch.onnx.export(model, args, str(path), input_names=spec.inputs, output_names=spec.outputs,
                      dynamic_axes=spec.axes, opset_version=OPSET_TS, dynamo=False,
                      do_constant_folding=True)


def export_dynamo(spec: Spec, model: nn.Module, args: tuple[torch.Tensor, ...], path: Path) -> None:
    dims_by_name: dict[str, Any] = {}
    chosen = spec.dynamo_dims or {k: v for k, v in spec.axes.items() if k in spec.inputs}
    shapes: list[dict[int, Any] | None] = []
    for name in spec.inputs:
        axes = chosen.get(name)
        if not axes:
            shapes.append(None)
            continue
        entry = {}
        for axis, label in axes.items():
            if label not in dims_by_name:
                lo, hi = spec.dim_ranges.get(label, (1, 1024))
                dims_by_name[label] = torch.export.Dim(label, min=lo, max=hi)
            entry[axis] = dims_by_name[label]
        shapes.append(entry)
    program = torch.onnx.export(model, args, input_names=spec.inputs, output_names=spec.outputs,
                                dynamic_shapes=_group_varargs(model, shapes), opset_version=OPSET_DYNAMO,
                                dynamo=True, verbose=False)
    if program is None:
        raise RuntimeError("the dynamo exporter returned no program")
    program.save(str(path), external_data=False)


def export_pt2(spec: Spec, model: nn.Module, args: tuple[torch.Tensor, ...], path: Path) -> None:
    """``torch.export`` with the same dynamic axes (``Dim.AUTO``: torch names and bounds the
    symbols itself), saved for ``symshape analyze model.pt2``."""
    chosen = spec.dynamo_dims or {k: v for k, v in spec.axes.items() if k in spec.inputs}
    shapes = [{axis: torch.export.Dim.AUTO for axis in chosen.get(name, {})} or None for name in spec.inputs]
    program = torch.export.export(model, args, dynamic_shapes=_group_varargs(model, shapes))
    torch.export.save(program, str(path))


def _group_varargs(model: nn.Module, shapes: list[Any]) -> tuple[Any, ...]:
    """torch.export wants the specs of ``*args`` as one nested tuple."""
    import inspect

    params = list(inspect.signature(model.forward).parameters.values())
    fixed = [p for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return (*shapes[:len(fixed)], tuple(shapes[len(fixed):]))
    return tuple(shapes)


def strip(path: Path) -> None:
    """Drop doc strings and per-node metadata (stack traces): they are most of a tiny model."""
    model = onnx.load(str(path))
    for graph in _graphs(model.graph):
        graph.doc_string = ""
        for node in graph.node:
            node.doc_string = ""
            del node.metadata_props[:]
        for vi in list(graph.value_info) + list(graph.input) + list(graph.output):
            vi.doc_string = ""
            del vi.metadata_props[:]
    del model.metadata_props[:]
    model.doc_string = ""
    model.producer_version = ""
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def _graphs(graph: onnx.GraphProto) -> list[onnx.GraphProto]:
    out = [graph]
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                out += _graphs(attr.g)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for g in attr.graphs:
                    out += _graphs(g)
    return out


def make(spec: Spec, out_dir: Path, exporters: tuple[str, ...]) -> list[tuple[Path, str]]:
    """Export ``spec`` with each exporter; returns ``(path, "ok" or the failure)`` per file."""
    results: list[tuple[Path, str]] = []
    for kind in exporters:
        if kind not in spec.exporters:
            continue
        path = out_dir / (f"{spec.name}.pt2" if kind == "pt2" else f"{spec.name}_{kind}.onnx")
        model, args = spec.build()
        quiet = io.StringIO()
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(quiet):
                warnings.simplefilter("ignore")
                {"ts": export_ts, "dynamo": export_dynamo, "pt2": export_pt2}[kind](spec, model, args, path)
            if kind != "pt2":
                strip(path)
            results.append((path, "ok"))
        except Exception as err:  # noqa: BLE001 - record every exporter failure and move on
            path.unlink(missing_ok=True)
            last = traceback.format_exception_only(type(err), err)[-1].strip()
            results.append((path, f"FAILED: {last[:300]}"))
    return results


def export_cli(specs: list[Spec], default_out: Path, description: str, argv: list[str] | None = None) -> int:
    """The command line of the benchmark's model generators: export ``specs`` (or the named
    ones) with each exporter into ``--out``, report each file, and go on past a failed export."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("names", nargs="*", help="models to export (default: all)")
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--exporters", default="ts,dynamo")
    parser.add_argument("--list", action="store_true")
    opts = parser.parse_args(argv)
    if opts.list:
        print("\n".join(s.name for s in specs))
        return 0
    opts.out.mkdir(parents=True, exist_ok=True)
    ok = failed = 0
    for spec in (s for s in specs if not opts.names or s.name in opts.names):
        for path, status in make(spec, opts.out, tuple(opts.exporters.split(","))):
            print(f"{path.name}: {status}", flush=True)
            ok += status == "ok"
            failed += status != "ok"
    print(f"{ok} exported, {failed} failed, into {opts.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="models to make (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "models")
    parser.add_argument("--exporters", default="ts,dynamo")
    parser.add_argument("--list", action="store_true")
    opts = parser.parse_args(argv)
    if opts.list:
        for spec in SPECS:
            print(spec.name, ",".join(spec.exporters))
        return 0
    opts.out.mkdir(parents=True, exist_ok=True)
    wanted = [s for s in SPECS if not opts.names or s.name in opts.names]
    failed = 0
    for spec in wanted:
        for path, status in make(spec, opts.out, tuple(opts.exporters.split(","))):
            size = f"{path.stat().st_size / 1024:.0f} KiB" if path.exists() else "-"
            print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {status} ({size})")
            failed += status != "ok"
            default_out = opts.out.resolve() == (ROOT / "tests" / "models").resolve()
            if default_out and path.name == "bert_ts.onnx" and status == "ok":
                shutil.copyfile(path, EXAMPLE)
                print(f"{EXAMPLE.relative_to(ROOT)}: copied from {path.name}")
    total = sum(p.stat().st_size for p in opts.out.glob("*.onnx"))
    print(f"total size of {opts.out.name}/*.onnx: {total / 2**20:.2f} MiB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
