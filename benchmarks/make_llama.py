"""Generate a deep LLaMA-style decoder with past key values, the way the TorchScript exporter emits it.

The graph is built directly with ``onnx.helper`` (no torch): tiny hidden size, many layers, float
weights shared by all layers (the file stays small), and every small integer constant emitted as
its own ``Constant`` node, as ``torch.onnx.export`` does. Per layer: RMSNorm
(Pow/ReduceMean/Add/Sqrt/Div/Mul), q/k/v MatMuls, head reshapes through
Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains, rotary embedding (Slice of the cos/sin
caches up to ``past + seq``, Gather by position_ids, rotate_half with Slice/Neg/Concat), Concat
with the past along the sequence axis, grouped-query ``repeat_kv`` (Unsqueeze/Expand/Reshape),
scaled scores plus the causal mask, Softmax, and a SiLU MLP (Sigmoid*Mul).

The causal mask is built once from Range/Less/Expand/Or/Where. ``attention_mask`` has its own
dim name (``total_seq`` by default, as ``dynamic_axes`` exports name it) whose value must equal
``past_seq + seq``; the analyzers only learn that from the broadcast in the mask.

Usage: ``python benchmarks/make_llama.py --layers 120 -o llama.onnx``
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Config:
    """Sizes of the generated decoder (all tiny except the depth)."""

    layers: int = 120
    hidden: int = 32
    heads: int = 4
    kv_heads: int = 2
    intermediate: int = 64
    vocab: int = 64
    max_pos: int = 256
    mask_dim: str = "total_seq"

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


class _Graph:
    """Collects nodes with unique names; small int constants become ``Constant`` nodes."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.count = 0

    def op(self, op_type: str, inputs: list[str], n_out: int = 1, **attrs: object) -> list[str]:
        self.count += 1
        name = f"/{op_type}_{self.count}"
        outs = [f"{name}_output_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=name, **attrs))
        return outs

    def one(self, op_type: str, *inputs: str, **attrs: object) -> str:
        return self.op(op_type, list(inputs), 1, **attrs)[0]

    def ints(self, values: list[int] | int) -> str:
        """A ``Constant`` int64 tensor (a scalar when ``values`` is an int)."""
        arr = np.array(values, dtype=np.int64)
        return self.one("Constant", value=numpy_helper.from_array(arr))

    def floats(self, value: float) -> str:
        return self.one("Constant", value=numpy_helper.from_array(np.array(value, dtype=np.float32)))

    def weight(self, name: str, arr: np.ndarray) -> str:
        self.inits.append(numpy_helper.from_array(arr.astype(np.float32), name))
        return name

    # ---- TorchScript-style shape chains
    def dim(self, x: str, axis: int) -> str:
        """``x.shape[axis]`` as a scalar: Shape -> Gather."""
        return self.one("Gather", self.one("Shape", x), self.ints(axis), axis=0)

    def unsq(self, scalar: str) -> str:
        return self.one("Unsqueeze", scalar, self.ints([0]))

    def shape_of(self, *parts: str | int) -> str:
        """Concat of 1-element pieces: scalars (unsqueezed) or python ints (constants)."""
        pieces = [self.ints([p]) if isinstance(p, int) else self.unsq(p) for p in parts]
        return self.one("Concat", *pieces, axis=0)


def _rms_norm(g: _Graph, x: str, w: str) -> str:
    pw = g.one("Pow", x, g.floats(2.0))
    mean = g.one("ReduceMean", pw, axes=[-1], keepdims=1)
    sq = g.one("Sqrt", g.one("Add", mean, g.floats(1e-6)))
    return g.one("Mul", g.one("Div", x, sq), w)


def _split_heads(g: _Graph, t: str, heads: int, head_dim: int) -> str:
    """[b, s, heads*hd] -> [b, heads, s, hd] via a Shape/Gather/Concat/Reshape chain."""
    b, s = g.dim(t, 0), g.dim(t, 1)
    r = g.one("Reshape", t, g.shape_of(b, s, heads, head_dim))
    return g.one("Transpose", r, perm=[0, 2, 1, 3])


def _rotate_half(g: _Graph, t: str, half: int) -> str:
    x1 = g.one("Slice", t, g.ints([0]), g.ints([half]), g.ints([3]))
    x2 = g.one("Slice", t, g.ints([half]), g.ints([INT64_MAX]), g.ints([3]))
    return g.one("Concat", g.one("Neg", x2), x1, axis=-1)


def _rotary(g: _Graph, t: str, cos: str, sin: str, half: int) -> str:
    return g.one("Add", g.one("Mul", t, cos), g.one("Mul", _rotate_half(g, t, half), sin))


def _repeat_kv(g: _Graph, t: str, cfg: Config) -> str:
    """[b, kvh, T, hd] -> [b, kvh*rep, T, hd] (Unsqueeze, Expand, Reshape)."""
    rep = cfg.heads // cfg.kv_heads
    b, n, s, d = (g.dim(t, i) for i in range(4))
    u = g.one("Unsqueeze", t, g.ints([2]))
    e = g.one("Expand", u, g.shape_of(b, n, rep, s, d))
    return g.one("Reshape", e, g.shape_of(b, cfg.heads, s, d))


def _rope_tables(g: _Graph, cos_c: str, sin_c: str, k: str, past_k: str, pos: str) -> tuple[str, str]:
    """cos/sin for this layer: cached tables sliced to ``kv_seq_len`` then gathered by position."""
    kv_len = g.one("Add", g.dim(k, 2), g.dim(past_k, 2))
    end = g.unsq(kv_len)
    out = []
    for cache in (cos_c, sin_c):
        sl = g.one("Slice", cache, g.ints([0]), end, g.ints([0]))
        out.append(g.one("Unsqueeze", g.one("Gather", sl, pos, axis=0), g.ints([1])))
    return out[0], out[1]


def _attention(g: _Graph, x: str, layer: int, mask: str, pos: str, w: dict[str, str], cfg: Config) -> str:
    hd = cfg.head_dim
    q = _split_heads(g, g.one("MatMul", x, w["q"]), cfg.heads, hd)
    k = _split_heads(g, g.one("MatMul", x, w["k"]), cfg.kv_heads, hd)
    v = _split_heads(g, g.one("MatMul", x, w["v"]), cfg.kv_heads, hd)
    past_k, past_v = f"past_key_values.{layer}.key", f"past_key_values.{layer}.value"
    cos, sin = _rope_tables(g, w["cos"], w["sin"], k, past_k, pos)
    q, k = _rotary(g, q, cos, sin, hd // 2), _rotary(g, k, cos, sin, hd // 2)
    k_all = g.op("Concat", [past_k, k], 1, axis=2)[0]
    v_all = g.op("Concat", [past_v, v], 1, axis=2)[0]
    g.nodes.append(helper.make_node("Identity", [k_all], [f"present.{layer}.key"], name=f"/present_k_{layer}"))
    g.nodes.append(helper.make_node("Identity", [v_all], [f"present.{layer}.value"], name=f"/present_v_{layer}"))
    kt = g.one("Transpose", _repeat_kv(g, k_all, cfg), perm=[0, 1, 3, 2])
    scores = g.one("Div", g.one("MatMul", q, kt), g.floats(float(np.sqrt(hd))))
    probs = g.one("Softmax", g.one("Add", scores, mask), axis=-1)
    ctx = g.one("Transpose", g.one("MatMul", probs, _repeat_kv(g, v_all, cfg)), perm=[0, 2, 1, 3])
    b, s = g.dim(ctx, 0), g.dim(ctx, 1)
    merged = g.one("Reshape", ctx, g.shape_of(b, s, cfg.hidden))
    return g.one("MatMul", merged, w["o"])


def _causal_mask(g: _Graph, ids: str, past_k0: str) -> str:
    """[b, 1, seq, past+seq] float mask from Range/Less/Expand/Or/Where and the attention mask."""
    b, seq, past = g.dim(ids, 0), g.dim(ids, 1), g.dim(past_k0, 2)
    total = g.one("Add", past, seq)
    rows = g.one("Range", past, total, g.ints(1))
    cols = g.one("Range", g.ints(0), total, g.ints(1))
    future = g.one("Less", g.one("Unsqueeze", rows, g.ints([1])), g.one("Unsqueeze", cols, g.ints([0])))
    causal = g.one("Expand", future, g.shape_of(b, 1, seq, total))
    am = g.one("Unsqueeze", "attention_mask", g.ints([1, 2]))
    padded = g.one("Equal", am, g.ints(0))
    masked = g.one("Or", causal, padded)
    return g.one("Where", masked, g.floats(-1e4), g.floats(0.0))


def _weights(g: _Graph, cfg: Config, rng: np.random.Generator) -> dict[str, str]:
    h, hd, i = cfg.hidden, cfg.head_dim, cfg.intermediate

    def rand(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32) / np.sqrt(shape[0])

    inv = 1.0 / (10000 ** (np.arange(0, hd, 2) / hd))
    freqs = np.outer(np.arange(cfg.max_pos), inv)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return {
        "embed": g.weight("embed_tokens.weight", rand(cfg.vocab, h)),
        "q": g.weight("q_proj.weight", rand(h, cfg.heads * hd)),
        "k": g.weight("k_proj.weight", rand(h, cfg.kv_heads * hd)),
        "v": g.weight("v_proj.weight", rand(h, cfg.kv_heads * hd)),
        "o": g.weight("o_proj.weight", rand(h, h)),
        "gate": g.weight("gate_proj.weight", rand(h, i)),
        "up": g.weight("up_proj.weight", rand(h, i)),
        "down": g.weight("down_proj.weight", rand(i, h)),
        "norm": g.weight("norm.weight", np.ones(h)),
        "cos": g.weight("rotary.cos_cached", np.cos(emb)),
        "sin": g.weight("rotary.sin_cached", np.sin(emb)),
        "lm_head": g.weight("lm_head.weight", rand(h, cfg.vocab)),
    }


def build(cfg: Config, seed: int = 0) -> onnx.ModelProto:
    """The decoder as a ModelProto (checked by ``onnx.checker``)."""
    g = _Graph()
    w = _weights(g, cfg, np.random.default_rng(seed))
    hd = cfg.head_dim
    x = g.one("Gather", w["embed"], "input_ids", axis=0)
    mask = _causal_mask(g, "input_ids", "past_key_values.0.key")
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", cfg.mask_dim]),
        helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["batch", "seq"]),
    ]
    outputs = []
    for layer in range(cfg.layers):
        for kind in ("key", "value"):
            shape = ["batch", cfg.kv_heads, "past_seq", hd]
            inputs.append(helper.make_tensor_value_info(f"past_key_values.{layer}.{kind}", TensorProto.FLOAT, shape))
            present = ["batch", cfg.kv_heads, "past_seq + seq", hd]
            outputs.append(helper.make_tensor_value_info(f"present.{layer}.{kind}", TensorProto.FLOAT, present))
        x = g.one("Add", x, _attention(g, _rms_norm(g, x, w["norm"]), layer, mask, "position_ids", w, cfg))
        hn = _rms_norm(g, x, w["norm"])
        gate = g.one("MatMul", hn, w["gate"])
        act = g.one("Mul", gate, g.one("Sigmoid", gate))
        x = g.one("Add", x, g.one("MatMul", g.one("Mul", act, g.one("MatMul", hn, w["up"])), w["down"]))
    logits = g.op("MatMul", [_rms_norm(g, x, w["norm"]), w["lm_head"]], 1)[0]
    g.nodes.append(helper.make_node("Identity", [logits], ["logits"], name="/logits"))
    outputs.insert(0, helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "seq", cfg.vocab]))
    graph = helper.make_graph(g.nodes, "llama_decoder", inputs, outputs, g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="symshape-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def feeds(model: onnx.ModelProto, sizes: dict[str, int], seed: int = 0) -> dict[str, np.ndarray]:
    """Valid inputs for ``sizes`` (``batch``, ``seq``, ``past_seq``): ids in vocab, positions after the past."""
    rng = np.random.default_rng(seed)
    b, s, p = sizes["batch"], sizes["seq"], sizes["past_seq"]
    out: dict[str, np.ndarray] = {
        "input_ids": rng.integers(0, 16, size=(b, s), dtype=np.int64),
        "attention_mask": (rng.random((b, p + s)) > 0.2).astype(np.int64),
        "position_ids": np.broadcast_to(np.arange(p, p + s, dtype=np.int64), (b, s)).copy(),
    }
    out["attention_mask"][:, -1] = 1
    for vi in model.graph.input:
        if vi.name.startswith("past_key_values."):
            kv = vi.type.tensor_type.shape.dim[1].dim_value
            hd = vi.type.tensor_type.shape.dim[3].dim_value
            out[vi.name] = rng.standard_normal((b, kv, p, hd)).astype(np.float32)
    return out


def env(sizes: dict[str, int], mask_dim: str = "total_seq") -> dict[str, int]:
    """Every declared input symbol's value for a sample."""
    return {**sizes, mask_dim: sizes["past_seq"] + sizes["seq"]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", type=int, default=Config.layers)
    p.add_argument("-o", "--output", default="llama.onnx")
    args = p.parse_args()
    model = build(Config(layers=args.layers))
    onnx.save(model, args.output)
    print(f"{args.output}: {len(model.graph.node)} nodes, {model.ByteSize()} bytes")


if __name__ == "__main__":
    main()
