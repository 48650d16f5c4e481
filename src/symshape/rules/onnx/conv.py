"""Sliding-window ops: Conv, ConvInteger, QLinearConv, DeformConv, ConvTranspose, MaxPool,
AveragePool, LpPool, MaxUnpool (Col2Im and the ROI ops are in `symshape.rules.onnx.nn`).

The spatial size of a window op (https://onnx.ai/onnx/operators/onnx__Conv.html) is

    out = floor((in + pad_begin + pad_end - (dilation*(kernel - 1) + 1)) / stride) + 1

(``ceil`` for ``ceil_mode`` pooling), written with `floordiv` so it stays exact: a stride-2
3x3 convolution with pad 1 on ``H`` gives ``floor((H + 1)/2)``, and two of them give
``floor((H + 3)/4)`` (`fdiv` folds the nested floor). ``SAME_*`` padding gives ``ceil(in/stride)``
(pooling with SAME and dilation follows onnxruntime, which pads it differently from the spec).
In ``ceil_mode`` a window that would start in the end padding is dropped (the last window starts
inside the input or the begin padding), so the size is ``ceil((in + pad_begin)/stride)`` when
``pad_end + stride > effective kernel`` and the ceil formula otherwise (pads are smaller than
the kernel, as onnxruntime enforces).

What is a fact (dims are >= 0 by default; there is no guard here):

* the op is invalid otherwise: input channels equal ``weight channels * group``; the
  ``kernel_shape`` attribute equals the weight's dims; the bias has ``M`` elements;
* onnxruntime rejects the size otherwise: a convolution's padded input holds one window
  (``in + pads >= dilation*(kernel-1) + 1``), a pooling output is ``>= 0``, a ConvTranspose
  output is ``>= 1``. `symshape.rules.shared.fit.require_ge` records each as a range on the input
  symbol when the size is non-decreasing in it (through earlier layers' floors), so the next
  layer's fit is proven, not assumed.

A floor-mode pooling window that does not fit (``in + pads < effective kernel``) is no guard
either: ONNX floors the negative quotient, onnxruntime truncates it toward zero (``k=3, s=2`` on
``in=2`` gives 1, not 0); the size is onnxruntime's, exactly, as `trunc_div`, which is the plain
floor whenever the fit is proven. ``ceil_mode`` ceils in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from symshape.algebra.expr import Dim, add, mul, smin
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.fit import cdiv, fdiv, require_ge, trunc_div

__all__ = ["cdiv", "fdiv", "require_ge", "spatial_input", "window", "window_out"]

SAME = ("SAME_UPPER", "SAME_LOWER")


@dataclass(frozen=True)
class Window:
    """The window attributes of one op, one entry per spatial axis."""

    kernel: tuple[Dim, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads: tuple[int, ...]  # begins then ends
    auto_pad: str
    ceil_mode: bool

    def effective(self, i: int) -> Dim:
        """``dilation*(kernel - 1) + 1`` on axis ``i``."""
        return add(mul(self.dilations[i], add(self.kernel[i], -1)), 1)


def window(ctx: OpContext, kernel: tuple[Dim, ...]) -> Window:
    """Read ``strides``, ``dilations``, ``pads``, ``auto_pad``, ``ceil_mode`` for ``kernel``."""
    n = len(kernel)
    strides = tuple(ctx.attr("strides") or (1,) * n)
    dilations = tuple(ctx.attr("dilations") or (1,) * n)
    pads = tuple(ctx.attr("pads") or (0,) * (2 * n))
    auto_pad = str(ctx.attr("auto_pad", "NOTSET") or "NOTSET")
    if len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
        raise ctx.invalid(
            f"strides {list(strides)}, dilations {list(dilations)} and pads {list(pads)}",
            f"{n} strides and dilations and {2 * n} pads for {n} spatial axes",
            "fix the attributes",
        )
    if any(s < 1 for s in strides) or any(d < 1 for d in dilations):
        raise ctx.invalid(
            f"strides {list(strides)} and dilations {list(dilations)}",
            "strides and dilations >= 1",
            "fix the attributes",
        )
    if auto_pad not in ("NOTSET", "VALID", *SAME):
        raise ctx.invalid(
            f"auto_pad '{auto_pad}'", "NOTSET, VALID, SAME_UPPER or SAME_LOWER", "fix the auto_pad attribute"
        )
    return Window(kernel, strides, dilations, pads, auto_pad, bool(ctx.attr("ceil_mode", 0)))


def window_out(ctx: OpContext, x: Dim, i: int, w: Window, *, pool: bool) -> Dim:
    """The output size on spatial axis ``i`` of input size ``x`` (facts and guards recorded)."""
    s, ek = w.strides[i], w.effective(i)
    if w.auto_pad in SAME:
        if not pool or w.dilations[i] == 1:
            return ctx.canon(cdiv(x, s))
        return _same_dilated_pool(ctx, x, i, w)
    pb, pe = (0, 0) if w.auto_pad == "VALID" else (w.pads[i], w.pads[i + len(w.kernel)])
    span = ctx.canon(add(add(x, pb + pe), mul(ek, -1)))
    if w.ceil_mode and pool:
        out = add(cdiv(span, s), 1)
        if isinstance(ek, int) and pe + s > ek:  # the last window would start in the end padding
            out = cdiv(add(x, pb), s)
        elif not isinstance(ek, int):
            raise GiveUp("ceil_mode pooling with a symbolic kernel")
    elif pool:
        out = add(trunc_div(ctx, span, s), 1)  # ONNX floors; onnxruntime truncates (equal when it fits)
    else:
        require_ge(ctx, span, 0, "convolution window fits", f"spatial axis {i}: padded input minus the kernel")
        out = add(fdiv(span, s), 1)
    out = ctx.canon(out)
    require_ge(ctx, out, 0, "output size >= 0", f"output size on spatial axis {i}")
    return ctx.canon(out)


def _same_dilated_pool(ctx: OpContext, x: Dim, i: int, w: Window) -> Dim:
    """Pooling with SAME padding and dilation as onnxruntime runs it (the spec says
    ``ceil(in/stride)``): the total pad is computed with the *undilated* kernel,
    ``(ceil(in/s) - 1)*s + k - in``, and the window with the dilated one, so the size is
    ``trunc((s*(ceil(in/s) - 1) - (d - 1)*(k - 1))/s) + 1`` (``ceil`` in ceil_mode)."""
    s, k = w.strides[i], w.kernel[i]
    if not isinstance(k, int):
        raise GiveUp("SAME pooling with dilation and a symbolic kernel")
    span = ctx.canon(add(mul(add(cdiv(x, s), -1), s), -(w.dilations[i] - 1) * (k - 1)))
    out = add(cdiv(span, s) if w.ceil_mode else trunc_div(ctx, span, s), 1)
    require_ge(ctx, out, 0, "output size >= 0", f"output size on spatial axis {i}")
    return ctx.canon(out)


def spatial_input(ctx: OpContext, i: int, n_spatial: int | None = None) -> tuple[Dim, ...]:
    """Dims of input ``i``, which must be ``[N, C, spatial...]`` (``n_spatial`` axes if given)."""
    dims = ctx.shape(i)
    if len(dims) < 3 or (n_spatial is not None and len(dims) != n_spatial + 2):
        want = "rank >= 3" if n_spatial is None else f"rank {n_spatial + 2}"
        shown = [str(d) for d in dims]
        raise ctx.invalid(f"input #{i} has shape {shown}", f"{want} (N, C, spatial...)")
    return dims


def _conv(ctx: OpContext, xi: int, wi: int, bi: int | None) -> tuple[Dim, ...]:
    x = spatial_input(ctx, xi)
    wshape = ctx.shape(wi)
    n = len(x) - 2
    _check_weight_rank(ctx, wshape, x)
    group = int(ctx.attr("group", 1))
    kernel = _kernel(ctx, wshape[2:], wi)
    ctx.eq(
        x[1],
        mul(wshape[1], group),
        "input channels == weight channels * group",
        (ctx.dim_name(xi, 1), f"{ctx.dim_name(wi, 1)} * group {group}"),
    )
    if group > 1:
        ctx.assume_divisible(wshape[0], group, "output channels divisible by group")
    if bi is not None and ctx.has_input(bi):
        b = ctx.shape(bi)
        if len(b) != 1:
            raise ctx.invalid(f"a bias of rank {len(b)}", "a 1-D bias")
        ctx.eq(b[0], wshape[0], "bias length", (ctx.dim_name(bi, 0), ctx.dim_name(wi, 0)))
    w = window(ctx, kernel)
    spatial = [window_out(ctx, x[2 + i], i, w, pool=False) for i in range(n)]
    out = (x[0], wshape[0], *spatial)
    ctx.set_output(0, out)
    return out


def _check_weight_rank(ctx: OpContext, wshape: tuple[Dim, ...], x: tuple[Dim, ...]) -> None:
    if len(wshape) != len(x):
        raise ctx.invalid(f"a weight of rank {len(wshape)} for an input of rank {len(x)}", "equal ranks")


def _kernel(ctx: OpContext, wdims: tuple[Dim, ...], wi: int) -> tuple[Dim, ...]:
    attr = ctx.attr("kernel_shape")
    if attr is None:
        return wdims
    if len(attr) != len(wdims):
        raise ctx.invalid(
            f"kernel_shape {list(attr)}",
            f"{len(wdims)} entries, one per spatial dim of the weight",
            "fix the kernel_shape attribute",
        )
    for i, (k, d) in enumerate(zip(attr, wdims, strict=True)):
        ctx.eq(d, int(k), "kernel_shape", (ctx.dim_name(wi, 2 + i), f"kernel_shape[{i}]"))
    return tuple(int(k) for k in attr)


@register(ONNX, "Conv", "ConvInteger")
def conv(ctx: OpContext) -> None:
    """``[N, M, out...]`` from input ``[N, C, in...]`` and weight ``[M, C/group, k...]``.

    https://onnx.ai/onnx/operators/onnx__Conv.html,
    https://onnx.ai/onnx/operators/onnx__ConvInteger.html
    """
    _conv(ctx, 0, 1, 2 if ctx.op.op_type == "Conv" else None)


@register(ONNX, "QLinearConv")
def qlinear_conv(ctx: OpContext) -> None:
    """Conv on inputs 0 (x), 3 (w) and 8 (bias). https://onnx.ai/onnx/operators/onnx__QLinearConv.html"""
    _conv(ctx, 0, 3, 8)


@register(ONNX, "DeformConv")
def deform_conv(ctx: OpContext) -> None:
    """Conv's shape; the offset (input 2) and mask (input 4) are ``[N, *, out...]`` (facts).

    https://onnx.ai/onnx/operators/onnx__DeformConv.html
    """
    out = _conv(ctx, 0, 1, 3)
    for i in (2, 4):
        extra = ctx.shape_or_none(i)
        if extra is None or len(extra) != len(out):
            continue
        for a in (0, *range(2, len(out))):
            ctx.eq(extra[a], out[a], "offsets cover the output", (ctx.dim_name(i, a), f"output dim {a}"))


@register(ONNX, "ConvTranspose")
def conv_transpose(ctx: OpContext) -> None:
    """``[N, group*W1, out...]`` with weight ``[C, M/group, k...]`` and
    ``out = stride*(in - 1) + output_padding + dilation*(k - 1) + 1 - pad_begin - pad_end``,
    or ``output_shape``, or ``in*stride`` for ``SAME_*``.

    https://onnx.ai/onnx/operators/onnx__ConvTranspose.html
    """
    x = spatial_input(ctx, 0)
    wshape = ctx.shape(1)
    n = len(x) - 2
    _check_weight_rank(ctx, wshape, x)
    group = int(ctx.attr("group", 1))
    ctx.eq(x[1], wshape[0], "input channels == weight dim 0", (ctx.dim_name(0, 1), ctx.dim_name(1, 0)))
    channels = ctx.canon(mul(wshape[1], group))
    if ctx.has_input(2):
        ctx.eq(ctx.shape(2)[0], channels, "bias length", (ctx.dim_name(2, 0), "the output channels"))
    w = window(ctx, _kernel(ctx, wshape[2:], 1))
    output_padding = _per_axis(ctx, "output_padding", n) or (0,) * n
    output_shape = _per_axis(ctx, "output_shape", n)
    if output_shape is not None:
        spatial: list[Dim] = list(output_shape)
        for i, out in enumerate(output_shape):
            _output_shape_fits(ctx, x[2 + i], i, w, output_padding[i], out)
    else:
        spatial = [_transpose_out(ctx, x[2 + i], i, w, output_padding[i]) for i in range(n)]
    ctx.set_output(0, [x[0], channels, *spatial])


def _output_shape_fits(ctx: OpContext, x: Dim, i: int, w: Window, output_padding: int, out: int) -> None:
    """Facts onnxruntime checks at run time ("Explicit output_shape is inconsistent with input
    spatial dimensions"), measured: ``1 <= out <= s*(in - 1) + ek + max(output_padding, s - 1)``."""
    s = w.strides[i]
    largest = add(add(mul(s, add(x, -1)), w.effective(i)), max(output_padding, s - 1))
    require_ge(ctx, out, 1, "output_shape >= 1", f"output_shape on spatial axis {i}")
    require_ge(ctx, add(largest, -out), 0, "output_shape fits the input", f"the largest output size on axis {i}")


def _per_axis(ctx: OpContext, name: str, n: int) -> tuple[int, ...] | None:
    """An attribute with one int per spatial axis (None when absent); onnxruntime refuses
    another length ("Attribute output_padding has incorrect size")."""
    value = ctx.attr(name)
    if not value:
        return None
    if len(value) != n:
        raise ctx.invalid(f"attribute '{name}' has {len(value)} values", f"{n}, one per spatial axis",
                          f"give '{name}' one value per spatial axis of the input")
    return tuple(int(v) for v in value)


def _transpose_out(ctx: OpContext, x: Dim, i: int, w: Window, output_padding: int) -> Dim:
    s, ek = w.strides[i], w.effective(i)
    full = add(add(mul(s, add(x, -1)), output_padding), ek)
    if w.auto_pad in SAME:
        total_pad = add(add(output_padding, ek), -s)  # full - s*x, independent of x
        # onnxruntime clamps a negative total pad to 0: s*x, or full when the pad is negative
        out = add(mul(x, s), smin(ctx.canon(total_pad), 0))
    elif w.auto_pad == "VALID":
        out = full
    else:
        out = add(full, -(w.pads[i] + w.pads[i + len(w.kernel)]))
    # onnxruntime rejects an output size of 0 ("Computed output dimension is <= 0")
    require_ge(ctx, out, 1, "output size >= 1", f"output size on spatial axis {i}")
    return ctx.canon(out)


def _pool_kernel(ctx: OpContext) -> tuple[int, ...]:
    kernel = ctx.attr("kernel_shape")
    if not kernel:
        raise ctx.invalid(
            "the kernel_shape attribute is required but missing", "a list of ints", "give the kernel_shape attribute"
        )
    return tuple(int(k) for k in kernel)


@register(ONNX, "MaxPool", "AveragePool", "LpPool")
def pool(ctx: OpContext) -> None:
    """``[N, C, out...]``; MaxPool's optional second output (indices) has the same shape.

    https://onnx.ai/onnx/operators/onnx__MaxPool.html,
    https://onnx.ai/onnx/operators/onnx__AveragePool.html,
    https://onnx.ai/onnx/operators/onnx__LpPool.html
    """
    kernel = _pool_kernel(ctx)
    x = spatial_input(ctx, 0, len(kernel))
    w = window(ctx, kernel)
    out = [*x[:2], *(window_out(ctx, x[2 + i], i, w, pool=True) for i in range(len(kernel)))]
    ctx.set_output(0, out)
    ctx.set_output(1, out)


@register(ONNX, "MaxUnpool")
def max_unpool(ctx: OpContext) -> None:
    """``output_shape`` (input 2) when given, else ``stride*(in - 1) + k - pad_begin - pad_end``.

    https://onnx.ai/onnx/operators/onnx__MaxUnpool.html
    """
    kernel = _pool_kernel(ctx)
    x = spatial_input(ctx, 0, len(kernel))
    indices = ctx.shape(1)
    for a, (d, e) in enumerate(zip(x, indices, strict=False)):
        ctx.eq(d, e, "indices shape == input shape", (ctx.dim_name(0, a), ctx.dim_name(1, a)))
    if ctx.has_input(2):
        target = ctx.elements(2)
        if target is None:  # N and C are kept (onnxruntime requires it), the rest is not known
            ctx.set_output(0, [*x[:2], *(ctx.fresh(f"unpooled{a}") for a in range(len(kernel)))])
            return
        ctx.require_len(target, len(x), "output_shape has {got} elements", "{n} elements (the input rank)")
        for a in (0, 1):
            ctx.eq(target[a], x[a], "output_shape keeps N and C", (f"output_shape[{a}]", ctx.dim_name(0, a)))
        ctx.set_output(0, target)
        return
    w = window(ctx, kernel)
    n = len(kernel)
    out = [
        ctx.canon(add(mul(w.strides[i], add(x[2 + i], -1)), kernel[i] - w.pads[i] - w.pads[i + n])) for i in range(n)
    ]
    ctx.set_output(0, [*x[:2], *out])
