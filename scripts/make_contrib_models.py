"""Make the fused test models in tests/contrib_models/ (tiny BERT and GPT-2, random weights).

Each model is exported with torch.onnx (TorchScript exporter, dynamic batch and sequence) and
then rewritten by onnxruntime's transformer optimizer, which fuses subgraphs into com.microsoft
ops (Attention or MultiHeadAttention, SkipLayerNormalization, EmbedLayerNormalization, BiasGelu,
FastGelu). Needs torch and transformers; no network (HF_HUB_OFFLINE=1, configs built in code).

    python scripts/make_contrib_models.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

NUM_HEADS = 4
HIDDEN = 32
DYNAMIC = {0: "batch", 1: "seq"}


def _export(module: object, args: tuple[object, ...], names: list[str], outputs: list[str], path: Path) -> None:
    import torch

    axes = {n: DYNAMIC for n in names} | {outputs[0]: DYNAMIC}
    for extra in outputs[1:]:
        axes[extra] = {0: "batch"}
    torch.onnx.export(
        module, args, str(path), input_names=names, output_names=outputs,
        dynamic_axes=axes, opset_version=17, dynamo=False,
    )


def _optimize(src: Path, dst: Path, model_type: str, *, mha: bool = False) -> None:
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model

    options = FusionOptions(model_type)
    if mha:
        options.use_multi_head_attention = True
        options.enable_gelu_approximation = True
    model = optimize_model(str(src), model_type=model_type, num_heads=NUM_HEADS, hidden_size=HIDDEN,
                           optimization_options=options)
    model.save_model_to_file(str(dst))


def make_bert(out_dir: Path) -> list[Path]:
    """bert_fused.onnx (Attention, BiasGelu) and bert_mha.onnx (MultiHeadAttention, FastGelu)."""
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(vocab_size=100, hidden_size=HIDDEN, num_hidden_layers=2, num_attention_heads=NUM_HEADS,
                        intermediate_size=64, max_position_embeddings=64, type_vocab_size=2,
                        attn_implementation="eager")
    inner = BertModel(config).eval()

    class Wrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = inner

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN202
            out = self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids,
                         use_cache=False, return_dict=True)
            return out.last_hidden_state, out.pooler_output

    ids = torch.randint(0, 100, (2, 7))
    args = (ids, torch.ones(2, 7, dtype=torch.long), torch.zeros(2, 7, dtype=torch.long))
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "bert.onnx"
        _export(Wrapper().eval(), args, ["input_ids", "attention_mask", "token_type_ids"],
                ["last_hidden_state", "pooler_output"], raw)
        made = [out_dir / "bert_fused.onnx", out_dir / "bert_mha.onnx"]
        _optimize(raw, made[0], "bert")
        _optimize(raw, made[1], "bert", mha=True)
    return made


def make_gpt2(out_dir: Path) -> list[Path]:
    """gpt2_fused.onnx (SkipLayerNormalization, FastGelu; attention stays unfused)."""
    import torch
    from transformers import GPT2Config, GPT2Model

    torch.manual_seed(0)
    config = GPT2Config(vocab_size=100, n_embd=HIDDEN, n_layer=2, n_head=NUM_HEADS, n_positions=64,
                        bos_token_id=0, eos_token_id=0, attn_implementation="eager")
    inner = GPT2Model(config).eval()

    class Wrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = inner

        def forward(self, input_ids, attention_mask):  # noqa: ANN001, ANN202
            out = self.m(input_ids=input_ids, attention_mask=attention_mask, use_cache=False, return_dict=True)
            return (out.last_hidden_state,)

    args = (torch.randint(0, 100, (2, 7)), torch.ones(2, 7, dtype=torch.long))
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "gpt2.onnx"
        _export(Wrapper().eval(), args, ["input_ids", "attention_mask"], ["last_hidden_state"], raw)
        made = out_dir / "gpt2_fused.onnx"
        _optimize(raw, made, "gpt2")
    return [made]


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in make_bert(out_dir) + make_gpt2(out_dir):
        print(f"{path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "tests" / "contrib_models")
