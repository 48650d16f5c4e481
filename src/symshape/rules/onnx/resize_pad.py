"""Ops that change spatial sizes by data: Pad, CenterCropPad, Resize, Upsample.

Pad's pads and Resize's sizes are usually computed from shapes (``Shape -> Gather -> Mod ->
Sub -> Concat``); their tracked elements are used as exact expressions. A dim padded to a
multiple comes out as ``k*floor((H + k - 1)/k)`` (see `tidy_mod`), the form the reshape into
windows that follows divides exactly.

Resize scales are floats: a scale that is exactly a small fraction (2.0, 0.5, 1.5) gives
``floor(p*in/q)``; a float32 that rounds *up* from a small fraction ``p/q`` (``4/3``) gives the
same under a size guard (float32 products); anything else gets a fresh symbol and a warning.
Scales are read from tracked elements (e.g. ``Cast`` of an integer constant): the ONNX reader
keeps the contents of small float constants for this.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from fractions import Fraction

from symshape.algebra.expr import Dim, Expr, ModAtom, Mono, add, from_terms, mod, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.conv import fdiv, require_ge
from symshape.rules.onnx.resize_aspect import keep_aspect
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import normalize_axis

FLOAT32_EXACT = 2**24  # integers below this are exact in float32
MAX_SCALE_DENOMINATOR = 64


# ------------------------------------------------------------------ Mod tidying
def _strip_inner_mod(n: Dim, k: int) -> Dim:
    """``Mod(x + c*Mod(y, k), k) = Mod(x + c*y, k)``: drop inner Mods by the same modulus."""
    if isinstance(n, int):
        return n
    out: Dim = 0
    for mono, coeff in n.terms:
        if len(mono) == 1 and isinstance(mono[0], ModAtom) and mono[0].den == k:
            out = add(out, mul(coeff, _strip_inner_mod(mono[0].num, k)))
        else:
            out = add(out, from_terms({mono: coeff}))
    return out


def _shift_coeffs(n: Dim, k: int, negative: bool) -> Dim:
    """``n`` with every non-constant coefficient moved into ``(-k, 0]`` or ``[0, k)`` (same Mod)."""
    if isinstance(n, int):
        return n
    terms: dict[Mono, int] = {}
    for mono, coeff in n.terms:
        c = coeff % k if mono else coeff
        if mono and negative and c:
            c -= k
        terms[mono] = c
    return from_terms(terms)


def _floor_div_signed(n: Dim, k: int) -> Dim:
    """``floor(n/k)``, written ``-ceil(-n/k)`` when every variable coefficient is negative."""
    if isinstance(n, Expr) and all(c < 0 for m, c in n.terms if m):
        return mul(fdiv(add(mul(n, -1), k - 1), k), -1)
    return fdiv(n, k)


def _score(d: Dim) -> tuple[int, int, int]:
    if isinstance(d, int):
        return (0, 0, 0)
    mods = sum(1 for mono, _ in d.terms for a in mono if isinstance(a, ModAtom))
    return (len(d.terms), mods, len(str(d)))


def tidy_mod(d: Dim) -> Dim:
    """An equal, simpler form of ``d``: ``H + Mod(-H, 8)`` becomes ``8*floor((H + 7)/8)``.

    Each top-level ``c*Mod(n, k)`` is rewritten as ``c*(n' - k*floor(n'/k))`` for ``n'``
    congruent to ``n`` modulo ``k``; the candidate with the fewest terms, then Mods, wins.
    Every candidate is an identity over the integers, so the choice never changes the value.
    """
    if isinstance(d, int):
        return d
    best = d
    for mono, coeff in d.terms:
        if len(mono) != 1 or not isinstance(mono[0], ModAtom) or not isinstance(mono[0].den, int):
            continue
        k = mono[0].den
        if k <= 0:
            continue
        n = _strip_inner_mod(mono[0].num, k)
        rest = add(d, from_terms({mono: -coeff}))
        candidates = [add(rest, mul(coeff, mod(n, k)))]
        for rep in (n, _shift_coeffs(n, k, True), _shift_coeffs(n, k, False)):
            expanded = add(rep, mul(_floor_div_signed(rep, k), -k))
            candidates.append(add(rest, mul(coeff, expanded)))
        for c in candidates:
            if _score(c) < _score(best):
                best = c
    return best


# ------------------------------------------------------------------------- Pad
def _pads_and_axes(ctx: OpContext, rank: int) -> tuple[tuple[Dim, ...] | None, list[int]]:
    """The pads (None: an input of unknown value) and the axes they pad."""
    pads: tuple[Dim, ...] | None
    if ctx.has_input(1):
        pads = ctx.elements(1)
    else:
        attr = ctx.attr("pads", ctx.attr("paddings"))
        if attr is None:
            raise ctx.invalid("no pads", "pads (an input since opset 11, an attribute before)")
        pads = tuple(int(p) for p in attr)
    if ctx.has_input(3):
        axes_el = ctx.const_ints(3)
        if axes_el is None:
            return None, list(range(rank))  # any dim may be padded
        axes = [normalize_axis(ctx, a, rank, what="axes entry") for a in axes_el]
    else:
        axes = list(range(rank))
    if pads is not None and len(pads) != 2 * len(axes):
        raise ctx.invalid(f"{len(pads)} pads for {len(axes)} axes", f"{2 * len(axes)} pads")
    return pads, axes


@register(ONNX, "Pad")
def pad(ctx: OpContext) -> None:
    """``in + pad_begin + pad_end`` on each padded axis (pads may be negative: a crop).

    Pads come from input 1 (opset 11+, tracked elements, possibly symbolic) or the ``pads``
    attribute; opset 18 adds ``axes`` (input 3). The mode (constant, reflect, edge, wrap) does
    not change the shape. Each output size is ``>= 0`` (a fact).
    https://onnx.ai/onnx/operators/onnx__Pad.html
    """
    dims = list(ctx.shape(0))
    pads, axes = _pads_and_axes(ctx, len(dims))
    if pads is None:
        ctx.set_output(0, unknown_sizes(ctx, dims, axes, "padded"))
        return
    n = len(axes)
    for i, a in enumerate(axes):
        out = tidy_mod(ctx.canon(add(add(dims[a], pads[i]), pads[i + n])))
        require_ge(ctx, out, 0, "padded size >= 0", f"padded size of axis {a}")
        dims[a] = ctx.canon(out)
    ctx.set_output(0, dims, _pad_elements(ctx, pads))


def _pad_elements(ctx: OpContext, pads: tuple[Dim, ...]) -> tuple[Dim, ...] | None:
    """Elements of a padded 1-D integer tensor (constant mode, constant non-negative pads)."""
    src = ctx.elements(0)
    counts = _ints(pads)
    mode = str(ctx.attr("mode", "constant"))
    if src is None or counts is None or len(counts) != 2 or mode != "constant" or min(counts) < 0:
        return None
    if len(ctx.shape(0)) != 1:  # two pads also pad one axis of a higher-rank tensor (``axes``)
        return None
    fill: tuple[Dim, ...] = (0,)
    if ctx.has_input(2):
        fill = ctx.elements(2) or ()
        if len(fill) != 1:
            return None
    return fill * counts[0] + src + fill * counts[1]


def _ints(values: Sequence[Dim]) -> list[int] | None:
    """``values`` when every one is a constant, else None."""
    out = [v for v in values if isinstance(v, int)]
    return out if len(out) == len(values) else None


@register(ONNX, "CenterCropPad")
def center_crop_pad(ctx: OpContext) -> None:
    """The dims at ``axes`` become the elements of input 1 (fresh symbols when not known).

    https://onnx.ai/onnx/operators/onnx__CenterCropPad.html
    """
    dims = list(ctx.shape(0))
    axes = [normalize_axis(ctx, a, len(dims), what="axes entry") for a in (ctx.attr("axes") or range(len(dims)))]
    target = ctx.elements(1)
    if target is None:
        ctx.set_output(0, unknown_sizes(ctx, dims, axes, "cropped"))
        return
    ctx.require_len(target, len(axes), "{got} target sizes for {n} axes", "one target size per axis")
    for a, t in zip(axes, target, strict=True):
        dims[a] = t
    ctx.set_output(0, dims)


# ---------------------------------------------------------------------- Resize
def unknown_sizes(ctx: OpContext, dims: Sequence[Dim], axes: Sequence[int], tag: str) -> list[Dim]:
    """``dims`` with those at ``axes`` replaced by fresh symbols: the sizes (or scales, or pads)
    that set them are not known, the others are unchanged."""
    changed = set(axes)
    return [ctx.fresh(f"{tag}{a}") if a in changed else d for a, d in enumerate(dims)]


def _float32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def scaled_dim(ctx: OpContext, d: Dim, scale: Fraction | int, axis: int) -> Dim:
    """``floor(d * scale)`` as onnxruntime computes it with a float32 scale, or a fresh symbol.

    A scale that is exactly a small fraction ``p/q`` (2.0, 0.5, 1.5) is exact. A float32 that
    rounds *up* from ``p/q`` (``4/3``) still floors like ``p/q`` below a size bound (a guard).
    Other scales, and every scale once ``d*scale`` passes 2**24 (float32 stops being exact, in
    onnxruntime as much as here), are not claimed exactly.
    """
    s = Fraction(scale)
    if s < 0:
        raise ctx.invalid(f"scale {float(s)} on axis {axis}", "a scale >= 0")
    near = s.limit_denominator(MAX_SCALE_DENOMINATOR)
    if near == s:
        return ctx.canon(fdiv(mul(d, s.numerator), s.denominator))
    if Fraction(_float32(float(near))) == s and s > near:
        # floor(d*s) == floor(d*p/q) while d*(s - p/q) plus the float32 rounding stays < 1/q
        err = (s - near) + s / FLOAT32_EXACT
        bound = int(1 / (near.denominator * err))
        if not ctx.facts.prove_le(d, bound):
            ctx.guard(bound, ">=", d, "float scale", f"axis {axis}: the float32 scale {float(s)} acts as {near}")
        return ctx.canon(fdiv(mul(d, near.numerator), near.denominator))
    ctx.warn(f"axis {axis}: scale {float(s)} is not exact")
    return ctx.fresh(f"scaled{axis}")


def _scales(ctx: OpContext, i: int) -> tuple[Fraction, ...] | None:
    """Scales from input ``i``: constant floats (as float32), or tracked integer elements."""
    floats = ctx.const_floats(i)
    if floats:
        return tuple(Fraction(_float32(f)) for f in floats)
    ints = _ints(ctx.elements(i) or ())
    return None if not ints else tuple(Fraction(v) for v in ints)


def _present(ctx: OpContext, i: int) -> bool:
    """Whether optional input ``i`` is given and not an empty tensor (opset 11 style)."""
    if not ctx.has_input(i):
        return False
    shape = ctx.shape_or_none(i)
    return not (shape is not None and len(shape) == 1 and shape[0] == 0)


@register(ONNX, "Resize")
def resize(ctx: OpContext) -> None:
    """Output dims from ``sizes`` (exact tracked elements) or ``floor(in * scale)``.

    Opset 10 has ``(X, scales)``; opset 11+ ``(X, roi, scales, sizes)`` where absent inputs are
    empty names or empty tensors; opset 18 adds ``axes`` and ``keep_aspect_ratio_policy``.
    https://onnx.ai/onnx/operators/onnx__Resize.html
    """
    dims = list(ctx.shape(0))
    rank = len(dims)
    axes = [normalize_axis(ctx, a, rank, what="axes entry") for a in (ctx.attr("axes") or range(rank))]
    scales_i, sizes_i = (1, None) if ctx.op.version == 10 else (2, 3)
    if sizes_i is not None and _present(ctx, sizes_i):
        _resize_to_sizes(ctx, dims, axes, sizes_i)
    elif _present(ctx, scales_i):
        scales = _scales(ctx, scales_i)
        if scales is None:
            ctx.set_output(0, unknown_sizes(ctx, dims, axes, "scaled"))
            return
        ctx.require_len(scales, len(axes), "{got} scales for {n} axes", "one scale per axis")
        for a, s in zip(axes, scales, strict=True):
            dims[a] = scaled_dim(ctx, dims[a], s, a)
    else:
        raise ctx.invalid("neither scales nor sizes", "one of scales or sizes")
    ctx.set_output(0, dims)


def _resize_to_sizes(ctx: OpContext, dims: list[Dim], axes: Sequence[int], i: int) -> None:
    sizes = ctx.elements(i)
    if sizes is None:
        dims[:] = unknown_sizes(ctx, dims, axes, "size")
        return
    ctx.require_len(sizes, len(axes), "{got} sizes for {n} axes", "one size per axis")
    policy = str(ctx.attr("keep_aspect_ratio_policy", "stretch"))
    if policy == "stretch":
        for a, s in zip(axes, sizes, strict=True):
            dims[a] = s
        return
    ins, outs = _ints([dims[a] for a in axes]), _ints(sizes)
    if outs is None:
        dims[:] = unknown_sizes(ctx, dims, axes, "size")
        return
    if ins is None or min(ins) < 1:
        keep_aspect(ctx, dims, axes, outs, policy)
        return
    ratios = [_float32(s / x) for s, x in zip(outs, ins, strict=True)]
    scale = min(ratios) if policy == "not_larger" else max(ratios)
    for a, x in zip(axes, ins, strict=True):
        dims[a] = int(_float32(scale * x) + 0.5)  # round half up, as onnxruntime's std::round


@register(ONNX, "Upsample")
def upsample(ctx: OpContext) -> None:
    """``floor(in * scale)``; scales are an attribute (opset 7) or input 1 (opset 9).

    https://onnx.ai/onnx/operators/onnx__Upsample.html
    """
    dims = list(ctx.shape(0))
    attr = ctx.attr("scales")
    scales = tuple(Fraction(_float32(float(s))) for s in attr) if attr is not None else _scales(ctx, 1)
    if scales is None:
        ctx.set_output(0, unknown_sizes(ctx, dims, range(len(dims)), "scaled"))
        return
    ctx.require_len(scales, len(dims), "{got} scales for rank {n}", "one scale per dim")
    ctx.set_output(0, [scaled_dim(ctx, d, s, a) for a, (d, s) in enumerate(zip(dims, scales, strict=True))])
