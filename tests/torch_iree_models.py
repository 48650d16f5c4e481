"""The torch models of tests/torch_iree_programs.py (kept apart so that module imports without
torch): tiny, so that exporting and compiling each takes seconds."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812

from tests.torch_mlir_models import Attention as Attention  # the same two-head attention

_POSITIONS = 512  # as many as the largest sequence tests/torch_iree_programs.py exports for


class MLP(torch.nn.Module):
    """Two linear layers with a GELU between, over a dynamic batch."""

    def __init__(self) -> None:
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.l2(F.gelu(self.l1(x)))


class CausalAttention(torch.nn.Module):
    """One head with a causal mask built from the sequence length (``triu`` of ``ones``)."""

    def __init__(self) -> None:
        super().__init__()
        self.qkv = torch.nn.Linear(16, 48)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        t = x.shape[1]
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)
        s = (q @ k.transpose(-2, -1) / 4.0).masked_fill(mask, float("-inf"))
        return torch.softmax(s, -1) @ v


class EncoderLayer(torch.nn.Module):
    """``torch.nn.TransformerEncoderLayer`` (post-norm, two heads, no dropout)."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = torch.nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(x)


class ConvNet(torch.nn.Module):
    """Padded 3x3 convs, a 2x2 max pool and a global average pool over dynamic H x W."""

    def __init__(self) -> None:
        super().__init__()
        self.c1, self.c2 = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.max_pool2d(torch.relu(self.c1(x)), 2)
        return torch.relu(self.c2(h)).mean((2, 3))


class ValidConv(torch.nn.Module):
    """One unpadded, unstrided conv over dynamic H x W."""

    def __init__(self) -> None:
        super().__init__()
        self.c = torch.nn.Conv2d(3, 4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.c(x))


class EmbedNorm(torch.nn.Module):
    """Token and position embeddings, then layernorm, over dynamic (batch, seq)."""

    def __init__(self) -> None:
        super().__init__()
        self.tok, self.pos = torch.nn.Embedding(64, 16), torch.nn.Embedding(_POSITIONS, 16)
        self.norm = torch.nn.LayerNorm(16)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(ids.shape[1])
        return self.norm(self.tok(ids) + self.pos(pos))


class SoftmaxConcat(torch.nn.Module):
    """Rows of two inputs concatenated, a softmax, and the sum of the first input's rows."""

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        c = torch.softmax(torch.cat([a, b], 0), -1)
        return c * 2, c[: a.shape[0]].sum(0)


class NextToken(torch.nn.Module):
    """``argmax`` of logits: an integer output."""

    def __init__(self) -> None:
        super().__init__()
        self.head = torch.nn.Linear(16, 32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(x).argmax(-1)
