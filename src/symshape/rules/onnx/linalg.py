"""Contractions: MatMul (numpy semantics), Gemm, Einsum.

The contraction dims of a valid op are equal: a fact, recorded as an equality.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import broadcast_dim, broadcast_shapes


def matmul_shape(ctx: OpContext, a: tuple[Dim, ...], b: tuple[Dim, ...], ia: int = 0, ib: int = 1) -> tuple[Dim, ...]:
    """Numpy ``matmul`` shape: batch dims broadcast, contraction dims equal."""
    if not a or not b:
        raise ctx.invalid(f"operands of rank {len(a)} and {len(b)}", "MatMul operands of rank >= 1")
    a2 = (1, *a) if len(a) == 1 else a
    b2 = (*b, 1) if len(b) == 1 else b
    ctx.eq(a2[-1], b2[-2], "contraction", (ctx.dim_name(ia, len(a) - 1), ctx.dim_name(ib, max(len(b) - 2, 0))))
    batch = broadcast_shapes(ctx, [a2[:-2], b2[:-2]])
    out = [*batch]
    if len(a) > 1:
        out.append(a2[-2])
    if len(b) > 1:
        out.append(b2[-1])
    return tuple(out)


@register(ONNX, "MatMul", "MatMulInteger")
def matmul(ctx: OpContext) -> None:
    """https://onnx.ai/onnx/operators/onnx__MatMul.html"""
    ctx.set_output(0, matmul_shape(ctx, ctx.shape(0), ctx.shape(1)))


@register(ONNX, "QLinearMatMul")
def qlinear_matmul(ctx: OpContext) -> None:
    """Operands are inputs 0 and 3. https://onnx.ai/onnx/operators/onnx__QLinearMatMul.html"""
    ctx.set_output(0, matmul_shape(ctx, ctx.shape(0), ctx.shape(3), 0, 3))


@register(ONNX, "Gemm")
def gemm(ctx: OpContext) -> None:
    """``alpha*A'B' + beta*C`` with optional transposes; C broadcasts to ``(M, N)``.

    https://onnx.ai/onnx/operators/onnx__Gemm.html
    """
    a, b = ctx.shape(0), ctx.shape(1)
    if len(a) != 2 or len(b) != 2:
        raise ctx.invalid(f"operands of rank {len(a)} and {len(b)}", "2-D Gemm operands")
    ta, tb = ctx.attr("transA", 0), ctx.attr("transB", 0)
    m, k = (a[1], a[0]) if ta else (a[0], a[1])
    k2, n = (b[1], b[0]) if tb else (b[0], b[1])
    ctx.eq(k, k2, "contraction", (ctx.dim_name(0, 0 if ta else 1), ctx.dim_name(1, 1 if tb else 0)))
    out = (m, n)
    c = ctx.shape_or_none(2)
    if c is not None and len(c) > 2:
        raise ctx.invalid(f"C of rank {len(c)}", "C of rank 0, 1 or 2 (it broadcasts to (M, N))")
    if c is not None:  # C broadcasts to (M, N) one way: each of its dims is 1 or equal
        for axis, (od, cd) in enumerate(zip(out[2 - len(c) :], c, strict=True)):
            if isinstance(cd, int) and cd == 1:
                continue
            if (isinstance(cd, int) and cd != 1) or ctx.facts.prove_ge(cd, 2):
                ctx.eq(cd, od, "bias broadcast", (ctx.dim_name(2, axis + len(c) - 2), "the output dim"))
            elif not ctx.prove_eq(cd, od):
                ctx.imprecise()
    ctx.set_output(0, out)


@register(ONNX, "Einsum")
def einsum(ctx: OpContext) -> None:
    """Letters map to dims; equal letters are equal dims (broadcast where one is 1).

    https://onnx.ai/onnx/operators/onnx__Einsum.html
    """
    equation = str(ctx.attr("equation", "")).replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != ctx.num_inputs or any(t.count("...") > 1 for t in (*terms, rhs)):
        raise ctx.invalid(
            f"equation '{equation}' has {len(terms)} input term(s) for {ctx.num_inputs} input(s)"
            if len(terms) != ctx.num_inputs
            else f"equation '{equation}' has a term with more than one '...'",
            f"one term per input ({ctx.num_inputs}), each with at most one '...'",
            "fix the equation attribute",
        )
    shapes = [ctx.shape(i) for i in range(len(terms))]
    letters: dict[str, list[Dim]] = {}
    ellipsis: list[tuple[Dim, ...]] = []
    for i, (term, shape) in enumerate(zip(terms, shapes, strict=True)):
        if "..." in term:
            head, tail = term.split("...")
            n_ell = len(shape) - len(head) - len(tail)
            ellipsis.append(tuple(shape[len(head) : len(head) + n_ell]))
            labels = list(head) + list(tail)
            dims = list(shape[: len(head)]) + list(shape[len(shape) - len(tail) :])
        else:
            labels, dims = list(term), list(shape)
        if len(labels) != len(dims):
            raise ctx.invalid(
                f"term '{term}' has {len(labels)} labels for the rank {len(shape)} of input #{i}",
                "one label per dim (or a '...' for the rest)",
                "fix the equation attribute",
            )
        for label, d in zip(labels, dims, strict=True):
            letters.setdefault(label, []).append(d)
    sizes = {label: broadcast_dim(ctx, ds, 0) for label, ds in letters.items()}  # onnxruntime broadcasts 1s
    ell = broadcast_shapes(ctx, ellipsis) if ellipsis else ()
    if not arrow:
        rhs = "..." * bool(ellipsis) + "".join(sorted(k for k in letters if lhs.count(k) == 1))
    head, dots, tail = rhs.partition("...")
    unknown = sorted({c for c in head + tail if c not in sizes})
    if unknown:
        raise ctx.invalid(
            f"equation '{equation}': output label(s) {', '.join(unknown)} appear in no input term",
            "output labels taken from the input terms",
            "fix the equation attribute",
        )
    out = [sizes[c] for c in head] + (list(ell) if dots else []) + [sizes[c] for c in tail]
    ctx.set_output(0, out)
