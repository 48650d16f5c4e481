"""Export a zoo of model families that no test uses, for the benchmark's "unseen models" figures.

The test models (`tests/models/`, made by `scripts/make_models.py`) are what the tests are tuned
on. These are other Hugging Face architectures, built the same way (small configs, random seeded
weights, no hub download) and exported by both PyTorch exporters, so the benchmark can score
every tool on models the rules were not written against. The files go into a cache directory
(default `bench-out/zoo/`, gitignored) and are not committed.

Usage:
    python benchmarks/make_zoo.py [NAME ...] [--out bench-out/zoo] [--list]
    python benchmarks/run.py --models bench-out/zoo/*.onnx

Needs the ``models`` extra (torch==2.13.0, transformers, onnxscript). An export that fails is
reported and skipped: the exporters do not support every architecture.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import torch  # noqa: E402
from make_models import (  # noqa: E402
    GPT2_AXES,
    GPT2_DYNAMO,
    GPT2_IN,
    GPT2_LAYERS,
    GPT2_OUT,
    IMAGE_AXES,
    DecoderWithPast,
    Outputs,
    Spec,
    export_cli,
    seeded,
)
from torch import nn  # noqa: E402

Built = tuple[nn.Module, tuple[torch.Tensor, ...]]
LAYERS = GPT2_LAYERS  # the flat KV-cache names of make_models serve these decoders too
TEXT_IN = ["input_ids", "attention_mask"]
TEXT_AXES: dict[str, dict[int, str]] = {
    "input_ids": {0: "batch", 1: "seq"},
    "attention_mask": {0: "batch", 1: "seq"},
    "last_hidden_state": {0: "batch", 1: "seq"},
}


def _transformers(name: str) -> Any:
    import transformers

    return getattr(transformers, name)


def text_encoder(config: str, model: str, **cfg: Any) -> Callable[[], Built]:
    """An encoder over token ids (BERT-like), returning its last hidden state."""

    @seeded
    def build() -> Built:
        conf = _transformers(config)(vocab_size=100, num_hidden_layers=LAYERS, attn_implementation="eager", **cfg)
        net = Outputs(_transformers(model)(conf).eval(), TEXT_IN, ["last_hidden_state"])
        return net, (torch.randint(3, 100, (2, 7)), torch.ones(2, 7, dtype=torch.long))

    return build


def causal_lm(config: str, model: str, kv_heads: int, kv_dim: int, **cfg: Any) -> Callable[[], Built]:
    """A causal LM taking a flat KV cache (as `scripts/make_models.py` does for GPT-2 and LLaMA)."""

    @seeded
    def build() -> Built:
        conf = _transformers(config)(vocab_size=100, num_hidden_layers=LAYERS, attn_implementation="eager", **cfg)
        net = DecoderWithPast(_transformers(model)(conf).eval(), LAYERS)
        batch, seq, past = 2, 3, 5
        ids = torch.randint(0, 100, (batch, seq))
        mask = torch.ones(batch, past + seq, dtype=torch.long)
        pos = torch.arange(past, past + seq).unsqueeze(0).expand(batch, seq)
        kv = [torch.randn(batch, kv_heads, past, kv_dim) for _ in range(2 * LAYERS)]
        return net, (ids, mask, pos, *kv)

    return build


def image_model(config: str, model: str, size: tuple[int, int], keys: list[str], **cfg: Any) -> Callable[[], Built]:
    """A vision backbone over ``pixel_values`` of a dynamic height and width."""

    @seeded
    def build() -> Built:
        conf = _transformers(config)(**cfg)
        net = Outputs(_transformers(model)(conf).eval(), ["pixel_values"], keys)
        return net, (torch.randn(2, cfg.get("num_channels", 3), *size),)

    return build


def audio_model(config: str, model: str, **cfg: Any) -> Callable[[], Built]:
    """A speech encoder over raw samples (conv feature extractor, then a transformer)."""

    @seeded
    def build() -> Built:
        conf = _transformers(config)(num_hidden_layers=LAYERS, mask_time_prob=0.0, attn_implementation="eager",
                                     **cfg)
        net = Outputs(_transformers(model)(conf).eval(), ["input_values"], ["last_hidden_state"])
        return net, (torch.randn(2, 400),)

    return build


SMALL_TEXT = dict(hidden_size=32, num_attention_heads=4, intermediate_size=64, max_position_embeddings=64)
SMALL_LM = dict(hidden_size=32, num_attention_heads=4, intermediate_size=64, max_position_embeddings=64)
IMAGE_OUT_AXES = {"last_hidden_state": {0: "batch"}}
IMAGE_RANGES = {"height": (32, 512), "width": (32, 512)}
AUDIO_AXES = {"input_values": {0: "batch", 1: "samples"}, "last_hidden_state": {0: "batch"}}
AUDIO_CONV = dict(hidden_size=32, num_attention_heads=4, intermediate_size=64, conv_dim=(16, 16),
                  conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=8,
                  num_conv_pos_embedding_groups=4, feat_extract_norm="group")


def _text(name: str, config: str, model: str, **cfg: Any) -> Spec:
    return Spec(name, text_encoder(config, model, **cfg), TEXT_IN, ["last_hidden_state"], TEXT_AXES)


def _lm(name: str, config: str, model: str, kv_heads: int, kv_dim: int, **cfg: Any) -> Spec:
    return Spec(name, causal_lm(config, model, kv_heads, kv_dim, **cfg), GPT2_IN, GPT2_OUT, GPT2_AXES,
                dynamo_dims=GPT2_DYNAMO)


def _image(name: str, config: str, model: str, size: tuple[int, int], **cfg: Any) -> Spec:
    return Spec(name, image_model(config, model, size, ["last_hidden_state"], **cfg), ["pixel_values"],
                ["last_hidden_state"], IMAGE_AXES | IMAGE_OUT_AXES, dim_ranges=IMAGE_RANGES)


def _audio(name: str, config: str, model: str, **cfg: Any) -> Spec:
    return Spec(name, audio_model(config, model, **cfg), ["input_values"], ["last_hidden_state"], AUDIO_AXES,
                dim_ranges={"samples": (400, 16000)})


SPECS: list[Spec] = [
    _text("distilbert", "DistilBertConfig", "DistilBertModel", dim=32, n_heads=4, hidden_dim=64,
          max_position_embeddings=64),
    _text("roberta", "RobertaConfig", "RobertaModel", **SMALL_TEXT),
    _text("albert", "AlbertConfig", "AlbertModel", embedding_size=16, **SMALL_TEXT),
    _text("electra", "ElectraConfig", "ElectraModel", embedding_size=16, **SMALL_TEXT),
    _text("deberta_v2", "DebertaV2Config", "DebertaV2Model", **SMALL_TEXT),
    _lm("mistral_past", "MistralConfig", "MistralForCausalLM", 2, 8, num_key_value_heads=2, **SMALL_LM),
    _lm("qwen2_past", "Qwen2Config", "Qwen2ForCausalLM", 2, 8, num_key_value_heads=2, **SMALL_LM),
    _lm("phi_past", "PhiConfig", "PhiForCausalLM", 4, 8, **SMALL_LM),
    _lm("gemma_past", "GemmaConfig", "GemmaForCausalLM", 2, 8, num_key_value_heads=2, head_dim=8, **SMALL_LM),
    _lm("opt_past", "OPTConfig", "OPTForCausalLM", 4, 8, hidden_size=32, num_attention_heads=4, ffn_dim=64,
        word_embed_proj_dim=32, max_position_embeddings=64),
    _lm("bloom_past", "BloomConfig", "BloomForCausalLM", 4, 8, hidden_size=32, n_head=4),
    _lm("gpt_neox_past", "GPTNeoXConfig", "GPTNeoXForCausalLM", 4, 8, **SMALL_LM),
    _image("deit", "DeiTConfig", "DeiTModel", (32, 32), hidden_size=32, num_hidden_layers=LAYERS,
           num_attention_heads=4, intermediate_size=64, image_size=32, patch_size=8),
    _image("convnext", "ConvNextConfig", "ConvNextModel", (37, 50), hidden_sizes=[8, 16], depths=[1, 1],
           num_stages=2),
    _image("mobilevit", "MobileViTConfig", "MobileViTModel", (64, 64), hidden_sizes=[16, 24, 32],
           neck_hidden_sizes=[8, 8, 16, 16, 24, 24, 32], num_attention_heads=2, image_size=64),
    _image("segformer", "SegformerConfig", "SegformerModel", (37, 50), num_encoder_blocks=2, depths=[1, 1],
           sr_ratios=[2, 1], hidden_sizes=[8, 16], patch_sizes=[7, 3], strides=[4, 2], num_attention_heads=[1, 2],
           mlp_ratios=[2, 2]),
    _image("mobilenet_v2", "MobileNetV2Config", "MobileNetV2Model", (37, 50), depth_multiplier=0.25),
    _image("regnet", "RegNetConfig", "RegNetModel", (37, 50), embedding_size=8, hidden_sizes=[8, 16],
           depths=[1, 1], groups_width=8),
    _image("dinov2", "Dinov2Config", "Dinov2Model", (40, 48), hidden_size=32, num_hidden_layers=LAYERS,
           num_attention_heads=4, mlp_ratio=2, image_size=32, patch_size=8),
    _image("poolformer", "PoolFormerConfig", "PoolFormerModel", (37, 50), hidden_sizes=[8, 16], depths=[1, 1],
           num_encoder_blocks=2, patch_sizes=[7, 3], strides=[4, 2], padding=[2, 1]),
    _audio("hubert", "HubertConfig", "HubertModel", **AUDIO_CONV),
    _audio("wavlm", "WavLMConfig", "WavLMModel", **AUDIO_CONV),
    _audio("data2vec_audio", "Data2VecAudioConfig", "Data2VecAudioModel", num_conv_pos_embeddings=8,
           num_conv_pos_embedding_groups=4, hidden_size=32, num_attention_heads=4, intermediate_size=64,
           conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3)),
]


def main(argv: list[str] | None = None) -> int:
    return export_cli(SPECS, ROOT / "bench-out" / "zoo", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
