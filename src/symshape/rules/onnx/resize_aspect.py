"""Resize's ``keep_aspect_ratio_policy`` on symbolic input dims: exact ``Min``/``Max`` of rounded
ratios.

The spec (https://onnx.ai/onnx/operators/onnx__Resize.html) takes one scale for all ``axes``,
``scale = min_b(S_b/x_b)`` (``not_larger``) or ``max_b`` (``not_smaller``), and gives each axis
``round(scale*x_a)``. Rounding (half up) never decreases, and ``round(S_a/x_a * x_a) = S_a``, so

    out_a = Min(S_a, round(S_b*x_a/x_b) for every other axis b)      (Max for not_smaller)

with ``round(p/q) = floor((2p + q)/(2q))``: exact in integers. onnxruntime computes the scale and
the product in float32, which agrees with the exact value unless the exact product is a half
(``2*S_b*x_a == x_b (mod 2*x_b)``, where the float error may round either way) or large (float32
carries 24 bits): each is a guard, with the input dims >= 1 (a scale of an empty dim is not
defined).
"""

from __future__ import annotations

from collections.abc import Sequence

from symshape.algebra.expr import Dim, add, floordiv, mod, mul, smax, smin
from symshape.engine.context import OpContext

FLOAT32_SAFE = 2**21  # products below this are off a half by more than float32's error


def keep_aspect(ctx: OpContext, dims: list[Dim], axes: Sequence[int], sizes: Sequence[int], policy: str) -> None:
    """Set ``dims[a]`` for each of ``axes`` to its size under ``policy`` (sizes are constants)."""
    ins = [dims[a] for a in axes]
    for x in ins:
        if not ctx.prove_ge(x, 1):
            ctx.guard(x, ">=", 1, "aspect ratio", "the scale of an empty dim is not defined")
    pick = smin if policy == "not_larger" else smax
    out: list[Dim] = []
    for a, (x_a, s_a) in enumerate(zip(ins, sizes, strict=True)):
        candidates: list[Dim] = [s_a]
        for b, (x_b, s_b) in enumerate(zip(ins, sizes, strict=True)):
            if b != a:
                candidates.append(_rounded_ratio(ctx, mul(s_b, x_a), x_b))
        out.append(ctx.canon(pick(*candidates)))
    for a, d in zip(axes, out, strict=True):
        dims[a] = d


def _rounded_ratio(ctx: OpContext, p: Dim, q: Dim) -> Dim:
    """``round(p/q)`` half up, for ``q >= 1``, with the float32 guards where ``q`` is symbolic."""
    if isinstance(q, int) and isinstance(p, int):
        return (2 * p + q) // (2 * q)
    twice = mul(p, 2)
    if not isinstance(q, int) or q & (q - 1):  # 1/q is not exact in float32
        if ctx.prove_eq(mod(twice, mul(q, 2)), q) is not False:
            ctx.guard(mod(twice, mul(q, 2)), "!=", q, "aspect ratio", "float32 rounds a half either way")
    if not ctx.facts.prove_le(ctx.canon(p), FLOAT32_SAFE):
        ctx.guard(p, "<=", FLOAT32_SAFE, "aspect ratio", "float32 keeps the product exact enough to round")
    return ctx.canon(floordiv(add(twice, q), mul(q, 2)))
