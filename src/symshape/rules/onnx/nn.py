"""Other vision ops: SpaceToDepth, DepthToSpace, GridSample, AffineGrid, MaxRoiPool, RoiAlign,
Col2Im.

Block rearrangements need the moved dims to be divisible by the block size: that is a fact of a
valid op (`ConstraintGraph.assume_divisible`), so the quotient ``floor(H/b)`` is exact.
The window arithmetic (Conv, pooling) lives in `symshape.rules.onnx.conv`; Pad and Resize in
`symshape.rules.onnx.resize_pad`.
"""

from __future__ import annotations

import math

from symshape.algebra.expr import Dim, exact_div, floordiv, mul, product
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx.conv import spatial_input, window, window_out
from symshape.rules.registry import ONNX, register


def _divide(ctx: OpContext, d: Dim, k: int, rule: str) -> Dim:
    """``d / k`` where ``k | d`` is a fact of the op."""
    ctx.assume_divisible(d, k, rule)
    c = ctx.canon(d)
    q = exact_div(c, k)
    return q if q is not None else ctx.canon(floordiv(c, k))


def _nchw(ctx: OpContext) -> tuple[Dim, ...]:
    dims = ctx.shape(0)
    ctx.require_rank(dims, 4, "the input", "a 4-D input (N, C, H, W)")
    return dims


def _blocksize(ctx: OpContext) -> int:
    b = ctx.attr("blocksize")
    if b is None or int(b) < 1:
        raise ctx.invalid(f"blocksize {b}", "an int >= 1", "fix the blocksize attribute")
    return int(b)


@register(ONNX, "SpaceToDepth")
def space_to_depth(ctx: OpContext) -> None:
    """``[N, C*b*b, H/b, W/b]``; ``b`` divides H and W (a fact).

    https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html
    """
    n, c, h, w = _nchw(ctx)
    b = _blocksize(ctx)
    out = [
        n,
        ctx.canon(mul(c, b * b)),
        _divide(ctx, h, b, "blocksize divides H"),
        _divide(ctx, w, b, "blocksize divides W"),
    ]
    ctx.set_output(0, out)


@register(ONNX, "DepthToSpace")
def depth_to_space(ctx: OpContext) -> None:
    """``[N, C/(b*b), H*b, W*b]``; ``b*b`` divides C (a fact). Both modes (DCR, CRD).

    https://onnx.ai/onnx/operators/onnx__DepthToSpace.html
    """
    n, c, h, w = _nchw(ctx)
    b = _blocksize(ctx)
    out = [n, _divide(ctx, c, b * b, "blocksize**2 divides C"), ctx.canon(mul(h, b)), ctx.canon(mul(w, b))]
    ctx.set_output(0, out)


@register(ONNX, "GridSample")
def grid_sample(ctx: OpContext) -> None:
    """``[N, C, grid spatial...]`` from X ``[N, C, D1..Dr]`` and grid ``[N, O1..Or, r]``.

    https://onnx.ai/onnx/operators/onnx__GridSample.html
    """
    x, grid = ctx.shape(0), ctx.shape(1)
    r = len(x) - 2
    if r < 1 or len(grid) != r + 2:
        raise ctx.invalid(f"a grid of rank {len(grid)} for an input of rank {len(x)}", "grid rank == input rank >= 3")
    ctx.eq(grid[0], x[0], "batch", (ctx.dim_name(1, 0), ctx.dim_name(0, 0)))
    ctx.eq(grid[-1], r, "grid holds one coordinate per spatial axis", (ctx.dim_name(1, r + 1), str(r)))
    ctx.set_output(0, [x[0], x[1], *grid[1:-1]])


@register(ONNX, "AffineGrid")
def affine_grid(ctx: OpContext) -> None:
    """``[N, H, W, 2]`` (or ``[N, D, H, W, 3]``) from ``size = [N, C, (D,) H, W]``.

    https://onnx.ai/onnx/operators/onnx__AffineGrid.html
    """
    theta = ctx.shape(0)
    size = ctx.elements(1)
    if size is None:
        _affine_grid_unknown_size(ctx, theta)
        return
    r = len(size) - 2
    if r not in (2, 3) or len(theta) != 3:
        raise ctx.invalid(
            f"size has {len(size)} elements and theta rank {len(theta)}", "4 or 5 size elements and theta of rank 3"
        )
    ctx.eq(theta[0], size[0], "batch", (ctx.dim_name(0, 0), "size[0]"))
    ctx.eq(theta[1], r, "theta rows", (ctx.dim_name(0, 1), str(r)))
    ctx.eq(theta[2], r + 1, "theta columns", (ctx.dim_name(0, 2), str(r + 1)))
    ctx.set_output(0, [size[0], *size[2:], r])


def _affine_grid_unknown_size(ctx: OpContext, theta: tuple[Dim, ...]) -> None:
    """``[N, (D,) H, W, r]`` with fresh spatial dims when ``size``'s values are not known: its
    length (``r + 2``) gives the rank, theta ``[N, r, r + 1]`` the batch."""
    shape = ctx.shape(1)
    length = shape[0] if len(shape) == 1 else None
    if not isinstance(length, int):
        raise GiveUp("AffineGrid size has an unknown length")
    r = length - 2
    if r not in (2, 3) or len(theta) != 3:
        raise ctx.invalid(
            f"size has {length} elements and theta rank {len(theta)}", "4 or 5 size elements and theta of rank 3"
        )
    ctx.eq(theta[1], r, "theta rows", (ctx.dim_name(0, 1), str(r)))
    ctx.eq(theta[2], r + 1, "theta columns", (ctx.dim_name(0, 2), str(r + 1)))
    ctx.set_output(0, [theta[0], *(ctx.fresh(f"size{2 + a}") for a in range(r)), r])


@register(ONNX, "MaxRoiPool")
def max_roi_pool(ctx: OpContext) -> None:
    """``[num_rois, C, pooled_shape...]``; rois is ``[num_rois, 5]``.

    https://onnx.ai/onnx/operators/onnx__MaxRoiPool.html
    """
    x = spatial_input(ctx, 0, 2)
    rois = ctx.shape(1)
    ctx.eq(rois[1], 5, "rois are (batch, x1, y1, x2, y2)", (ctx.dim_name(1, 1), "5"))
    pooled = ctx.attr("pooled_shape")
    if not pooled or len(pooled) != 2:
        raise ctx.invalid(f"pooled_shape {pooled}", "2 ints", "fix the pooled_shape attribute")
    ctx.set_output(0, [rois[0], x[1], *(int(p) for p in pooled)])


@register(ONNX, "RoiAlign")
def roi_align(ctx: OpContext) -> None:
    """``[num_rois, C, output_height, output_width]``; rois ``[num_rois, 4]``, batch_indices
    ``[num_rois]``. https://onnx.ai/onnx/operators/onnx__RoiAlign.html
    """
    x = spatial_input(ctx, 0, 2)
    rois, batch = ctx.shape(1), ctx.shape(2)
    ctx.eq(rois[1], 4, "rois are (x1, y1, x2, y2)", (ctx.dim_name(1, 1), "4"))
    ctx.eq(batch[0], rois[0], "one batch index per roi", (ctx.dim_name(2, 0), ctx.dim_name(1, 0)))
    size = [int(ctx.attr("output_height", 1)), int(ctx.attr("output_width", 1))]
    ctx.set_output(0, [rois[0], x[1], *size])


@register(ONNX, "Col2Im")
def col2im(ctx: OpContext) -> None:
    """``[N, C, image_shape...]`` from ``[N, C*prod(block_shape), L]``; L is the number of
    blocks (a fact). https://onnx.ai/onnx/operators/onnx__Col2Im.html
    """
    x = ctx.shape(0)
    image = ctx.elements(1)
    block = ctx.const_ints(2)
    if image is None or block is None:
        _col2im_unknown(ctx, x, image, block)
        return
    if len(x) != 3 or len(image) != len(block):
        raise ctx.invalid(
            f"an input of rank {len(x)}, {len(image)} image dims and {len(block)} block dims",
            "input [N, C*prod(block), L] and as many image dims as block dims",
        )
    k = math.prod(block)
    ctx.assume_divisible(x[1], k, "channels divisible by the block size")
    w = window(ctx, tuple(block))
    blocks = product(window_out(ctx, image[i], i, w, pool=False) for i in range(len(block)))
    ctx.eq(x[2], blocks, "number of blocks", (ctx.dim_name(0, 2), "the number of sliding blocks"))
    ctx.set_output(0, [x[0], ctx.canon(floordiv(x[1], k)), *image])


def _col2im_unknown(
    ctx: OpContext, x: tuple[Dim, ...], image: tuple[Dim, ...] | None, block: tuple[int, ...] | None
) -> None:
    """``[N, C, image_shape...]`` when the image or block shape is not known: the rank from
    their lengths, ``C`` when the block is known, fresh symbols for the rest."""
    lengths = {n for i in (1, 2) if len(s := ctx.shape(i)) == 1 and isinstance(n := s[0], int)}
    if image is not None:
        lengths.add(len(image))
    if block is not None:
        lengths.add(len(block))
    if len(lengths) != 1 or len(x) != 3:
        raise GiveUp("Col2Im image_shape and block_shape have unknown or different lengths")
    (r,) = lengths
    channels: Dim = ctx.fresh("channels")
    if block is not None:
        k = math.prod(block)
        ctx.assume_divisible(x[1], k, "channels divisible by the block size")
        channels = ctx.canon(floordiv(x[1], k))
    spatial = list(image) if image is not None else [ctx.fresh(f"image{a}") for a in range(r)]
    ctx.set_output(0, [x[0], channels, *spatial])
