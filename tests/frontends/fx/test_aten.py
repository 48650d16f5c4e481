"""The aten translators and rules, one small exported module each, against real runs.

Every module is exported with ``torch.export`` (dynamic dims ``Dim.AUTO``), analyzed, and run
node by node with torch at three sizes (`tests.fx_oracle`): every claimed dim and tracked
element must match and be expressed in the input symbols.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.needs_torch_export

# which inputs are int64 index tensors (zeros: valid indices)
INT_INPUTS = {"index_two": (1,), "gather_index_select": (1,), "scatter_sort": (1,)}


def _export(fn: Callable[..., Any], shapes: list[tuple[int, ...]], ints: tuple[int, ...] = ()) -> Any:
    import torch

    class M(torch.nn.Module):
        def forward(self, *xs: Any) -> Any:
            return fn(*xs)

    args = tuple(torch.zeros(s, dtype=torch.int64) if k in ints else torch.randn(s) for k, s in enumerate(shapes))
    dyn = tuple({a: torch.export.Dim.AUTO for a in range(len(s))} for s in shapes)
    return torch.export.export(M(), args, dynamic_shapes=(dyn,))


def _check(ep: Any, samples: list[list[tuple[int, ...]]]) -> Any:
    from symshape.api import analyze_torch
    from tests.fx_oracle import check_exported
    from tests.oracle import assert_exact

    analysis = analyze_torch(ep)
    assert not analysis.unresolved, analysis.unresolved[:3]
    envs = []
    user = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    for shapes in samples:
        env: dict[str, int] = {}
        for node, shape in zip(user, shapes, strict=True):
            for d, size in zip(node.meta["val"].shape, shape, strict=True):
                if not isinstance(d, int):
                    env[str(d.node.expr)] = size
        envs.append(env)
    assert_exact(check_exported(analysis, ep, envs))
    return analysis


def _ops() -> dict[str, tuple[Callable[..., Any], list[tuple[int, ...]], list[list[tuple[int, ...]]]]]:
    import torch
    import torch.nn.functional as F  # noqa: N812

    conv = torch.nn.Conv2d(3, 4, 3, padding="same")
    conv_s = torch.nn.Conv2d(3, 4, 5, stride=2, padding=1, dilation=2)
    return {
        # one piece per 4 rows: the short last piece, exactly
        "split": (lambda x: torch.split(x, 4, dim=1)[-1] * 2, [(3, 10)], [[(2, 9)], [(3, 12)], [(4, 11)]]),
        "chunk": (lambda x: torch.cat(torch.chunk(x, 3, dim=0), 1), [(6, 5)], [[(6, 5)], [(9, 2)], [(3, 7)]]),
        "squeeze_unsqueeze": (lambda x: x.unsqueeze(1).squeeze(1).unsqueeze(-1), [(3, 4)],
                              [[(2, 5)], [(7, 3)], [(4, 4)]]),
        "pad": (lambda x: F.pad(x, (1, 2, 0, 3)), [(3, 4)], [[(2, 5)], [(7, 3)], [(4, 4)]]),
        "index_two": (lambda x, i: x[i, i], [(5, 6), (3,)], [[(5, 6), (2,)], [(7, 7), (4,)], [(3, 9), (6,)]]),
        "flatten": (lambda x: torch.flatten(x, 1), [(2, 3, 4)], [[(2, 3, 4)], [(5, 2, 7)], [(3, 6, 2)]]),
        "conv_same": (lambda x: conv(x), [(2, 3, 8, 9)], [[(2, 3, 8, 9)], [(3, 3, 5, 12)], [(2, 3, 7, 7)]]),
        "conv_strided": (lambda x: conv_s(x), [(2, 3, 17, 19)], [[(2, 3, 17, 19)], [(3, 3, 9, 12)], [(2, 3, 30, 11)]]),
        "max_pool_ceil": (lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True), [(2, 3, 9, 10)],
                          [[(2, 3, 9, 10)], [(3, 3, 7, 12)], [(2, 3, 13, 8)]]),
        # torch drops a last window that would start in the right padding: 4 -> 2 here, not 3
        "max_pool_ceil_padded": (lambda x: F.max_pool2d(x, 2, 3, padding=1, ceil_mode=True), [(2, 3, 9, 10)],
                                 [[(2, 3, 4, 4)], [(3, 3, 7, 12)], [(2, 3, 13, 5)], [(2, 3, 10, 11)]]),
        "adaptive_pool": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [(2, 3, 8, 9)],
                          [[(2, 3, 8, 9)], [(3, 3, 5, 12)], [(2, 3, 7, 7)]]),
        "expand_minus_one": (lambda x: x.unsqueeze(0).expand(4, -1, -1), [(3, 5)], [[(2, 5)], [(7, 3)], [(4, 4)]]),
        "narrow": (lambda x: x.narrow(1, 1, x.shape[1] // 2), [(3, 8)], [[(2, 5)], [(7, 3)], [(4, 9)]]),
        "view_sym": (lambda x: x.reshape(x.shape[0] * x.shape[1], -1), [(3, 4, 5)],
                     [[(2, 5, 3)], [(7, 3, 2)], [(4, 4, 4)]]),
        "floordiv_mod": (lambda x: x[:, : x.shape[1] // 3 + x.shape[1] % 3], [(3, 10)],
                         [[(2, 7)], [(3, 9)], [(4, 14)]]),
        "arange_mask": (lambda x: torch.arange(x.shape[1]) < x.shape[0], [(3, 10)], [[(2, 7)], [(3, 9)], [(4, 14)]]),
        "permute_matmul": (lambda x, y: x.permute(0, 2, 1) @ y, [(2, 3, 4), (2, 3, 5)],
                           [[(2, 3, 4), (2, 3, 5)], [(3, 6, 2), (3, 6, 7)], [(4, 2, 9), (4, 2, 2)]]),
        "stack_select": (lambda x: torch.stack([x, x], dim=1).select(2, 0), [(3, 4)], [[(2, 5)], [(7, 3)], [(4, 4)]]),
        "mean_keepdim": (lambda x: x.mean(dim=(1,), keepdim=True) + x.sum(1, keepdim=True) + x.amax(-1).unsqueeze(-1),
                         [(3, 4, 5)], [[(2, 5, 3)], [(7, 3, 2)], [(4, 4, 4)]]),
        "max_min": (lambda x: x.max(dim=1)[0] + x.min(1, keepdim=True).indices.float().sum() + x.max()
                    - torch.maximum(x, x).min(), [(3, 4)], [[(2, 5)], [(7, 3)], [(4, 4)]]),
        "gather_index_select": (lambda x, i: torch.gather(x, 1, i) + x.index_select(0, i[:, 0])[:, : i.shape[1]],
                                [(3, 4), (3, 2)], [[(3, 5), (3, 2)], [(6, 3), (6, 3)], [(2, 7), (2, 2)]]),
        "scatter_sort": (lambda x, i: x.scatter(1, i, 1.0).sort(dim=1).values + x.index_put((i[:, 0],), x[0]),
                         [(3, 4), (3, 2)], [[(3, 5), (3, 2)], [(6, 3), (6, 3)], [(2, 7), (2, 2)]]),
        "repeat_tile": (lambda x: x.repeat(2, 1, 3).sum(0)[:, 2 * x.shape[1] + 1 :]
                        + torch.tile(x, (2,))[:, x.shape[1] + 1 :],
                        [(3, 4)], [[(2, 5)], [(7, 3)], [(4, 4)]]),
        "unflatten_topk": (lambda x: x.unflatten(1, (2, -1)).topk(2, dim=-1).values, [(3, 8)],
                           [[(2, 6)], [(3, 10)], [(4, 4)]]),
    }


OPS = [
    "split", "chunk", "squeeze_unsqueeze", "pad", "index_two", "flatten", "conv_same", "conv_strided", "max_pool_ceil",
    "max_pool_ceil_padded", "adaptive_pool", "expand_minus_one", "narrow", "view_sym", "floordiv_mod", "arange_mask",
    "permute_matmul", "stack_select", "mean_keepdim", "max_min", "gather_index_select", "scatter_sort",
    "repeat_tile", "unflatten_topk",
]


@pytest.mark.parametrize("name", OPS)
def test_op_matches_runs(name: str) -> None:
    fn, example, samples = _ops()[name]
    _check(_export(fn, example, INT_INPUTS.get(name, ())), samples)
