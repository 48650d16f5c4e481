"""Layout ops of vision models: SpaceToDepth, DepthToSpace, GridSample, AffineGrid.

Block rearrangements need the moved dims to be divisible by the block size: that is a fact of a
valid op (`ConstraintGraph.assume_divisible`), so the quotient ``floor(H/b)`` is exact.
The window arithmetic (Conv, pooling) lives in `symshape.rules.conv`; Pad and Resize in
`symshape.rules.resize_pad`.
"""

from __future__ import annotations

from symshape.analysis import OpContext
from symshape.errors import ModelError
from symshape.expr import Dim, exact_div, floordiv, mul
from symshape.rules import ONNX, register


def _divide(ctx: OpContext, d: Dim, k: int, rule: str) -> Dim:
    """``d / k`` where ``k | d`` is a fact of the op."""
    ctx.graph.assume_divisible(d, k, ctx.origin(rule))
    c = ctx.graph.canon(d)
    q = exact_div(c, k)
    return q if q is not None else ctx.graph.canon(floordiv(c, k))


def _nchw(ctx: OpContext) -> tuple[Dim, ...]:
    dims = ctx.shape(0)
    if len(dims) != 4:
        raise ModelError(f"{ctx.where()}: input must be 4-D (N, C, H, W), got rank {len(dims)}")
    return dims


def _blocksize(ctx: OpContext) -> int:
    b = ctx.attr("blocksize")
    if b is None or int(b) < 1:
        raise ModelError(f"{ctx.where()}: the blocksize attribute must be an int >= 1, got {b}")
    return int(b)


@register(ONNX, "SpaceToDepth")
def space_to_depth(ctx: OpContext) -> None:
    """``[N, C*b*b, H/b, W/b]``; ``b`` divides H and W (a fact).

    https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html
    """
    n, c, h, w = _nchw(ctx)
    b = _blocksize(ctx)
    out = [n, ctx.graph.canon(mul(c, b * b)), _divide(ctx, h, b, "blocksize divides H"),
           _divide(ctx, w, b, "blocksize divides W")]
    ctx.set_output(0, out)


@register(ONNX, "DepthToSpace")
def depth_to_space(ctx: OpContext) -> None:
    """``[N, C/(b*b), H*b, W*b]``; ``b*b`` divides C (a fact). Both modes (DCR, CRD).

    https://onnx.ai/onnx/operators/onnx__DepthToSpace.html
    """
    n, c, h, w = _nchw(ctx)
    b = _blocksize(ctx)
    out = [n, _divide(ctx, c, b * b, "blocksize**2 divides C"), ctx.graph.canon(mul(h, b)),
           ctx.graph.canon(mul(w, b))]
    ctx.set_output(0, out)


@register(ONNX, "GridSample")
def grid_sample(ctx: OpContext) -> None:
    """``[N, C, grid spatial...]`` from X ``[N, C, D1..Dr]`` and grid ``[N, O1..Or, r]``.

    https://onnx.ai/onnx/operators/onnx__GridSample.html
    """
    x, grid = ctx.shape(0), ctx.shape(1)
    r = len(x) - 2
    if r < 1 or len(grid) != r + 2:
        raise ModelError(f"{ctx.where()}: grid rank {len(grid)} does not match input rank {len(x)}")
    ctx.eq(grid[0], x[0], "batch", (ctx.dim_name(1, 0), ctx.dim_name(0, 0)))
    ctx.eq(grid[-1], r, "grid holds one coordinate per spatial axis", (ctx.dim_name(1, r + 1), str(r)))
    ctx.set_output(0, [x[0], x[1], *grid[1:-1]])


@register(ONNX, "AffineGrid")
def affine_grid(ctx: OpContext) -> None:
    """``[N, H, W, 2]`` (or ``[N, D, H, W, 3]``) from ``size = [N, C, (D,) H, W]``.

    https://onnx.ai/onnx/operators/onnx__AffineGrid.html
    """
    theta = ctx.shape(0)
    size = ctx.require_elements(1)
    r = len(size) - 2
    if r not in (2, 3) or len(theta) != 3:
        raise ModelError(f"{ctx.where()}: size must have 4 or 5 elements and theta rank 3")
    ctx.eq(theta[0], size[0], "batch", (ctx.dim_name(0, 0), "size[0]"))
    ctx.eq(theta[1], r, "theta rows", (ctx.dim_name(0, 1), str(r)))
    ctx.eq(theta[2], r + 1, "theta columns", (ctx.dim_name(0, 2), str(r + 1)))
    ctx.set_output(0, [size[0], *size[2:], r])
