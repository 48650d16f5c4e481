"""aten rules: shape-keeping and broadcasting float ops, Python's ``//`` on SymInts,
``flatten``, ``chunk``, advanced indexing and resizes to a size."""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, ceildiv, mul, product, smax, smin
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.aten.names import BROADCAST, RESIZE_TO, SAME_SHAPE
from symshape.rules.registry import register
from symshape.rules.shared.arith import RuleDecisions, floor_div
from symshape.rules.shared.common import broadcast_shapes, exact_float_int

ATEN = "aten"


@register(ATEN, *SAME_SHAPE)
def same_shape(ctx: OpContext) -> None:
    """Output 0 has the shape of input 0 (``gelu``, ``layer_norm``, ``dropout`` in eval, ``*_like``).

    The ``native_*`` forms also return statistics: ``native_layer_norm``'s mean and rstd keep the
    dims before ``axis`` and are 1 after it, ``native_group_norm``'s are ``(N, group)``,
    ``native_dropout``'s mask and ``sort``'s indices have the input's shape; batch norm's have their declared types."""
    shape = ctx.shape(0)
    ctx.set_output(0, shape)
    op = ctx.op.op_type
    for i in range(1, ctx.num_outputs):
        if op.startswith("native_layer_norm"):
            axis = int(ctx.attr("axis", len(shape) - 1))
            ctx.set_output(i, (*shape[:axis], *(1 for _ in shape[axis:])))
        elif op.startswith("native_group_norm"):
            ctx.set_output(i, (shape[0], int(ctx.attr("group", 1))))
        elif op.startswith(("native_dropout", "sort")):
            ctx.set_output(i, shape)
        else:
            ctx.declared_output(i, f"{op} output {i}: its declared type")


@register(ATEN, "operator.truediv", "torch.sym_float", "math.sqrt", "torch._sym_sqrt", "operator.pow")
def sym_float(ctx: OpContext) -> None:
    """Float arithmetic on SymInts: a 0-d value (its value is not tracked)."""
    ctx.set_output(0, ())


@register(ATEN, *BROADCAST)
def broadcast(ctx: OpContext) -> None:
    """Broadcasting of the operands; the values (true division, powers) are not tracked."""
    ctx.set_output(0, broadcast_shapes(ctx, [ctx.shape(i) for i in range(ctx.num_inputs)]))


@register(ATEN, "operator.floordiv")
def sym_floordiv(ctx: OpContext) -> None:
    """Python's ``a // b`` on SymInts (floor division, exact for either sign)."""
    a, b = ctx.elements(0), ctx.elements(1)
    value = None if a is None or b is None else floor_div(RuleDecisions(ctx), a[0], b[0])
    ctx.set_output(0, (), None if value is None else (ctx.canon(value),))


@register(ATEN, "flatten.using_ints")
def flatten(ctx: OpContext) -> None:
    """Dims ``start_dim..end_dim`` become their product."""
    shape = ctx.shape(0)
    start, end = int(ctx.attr("start_dim", 0)), int(ctx.attr("end_dim", len(shape) - 1))
    if not shape:
        ctx.set_output(0, (1,))
        return
    ctx.set_output(0, (*shape[:start], ctx.canon(product(shape[start : end + 1])), *shape[end + 1 :]))


@register(ATEN, "chunk.default")
def chunk(ctx: OpContext) -> None:
    """``chunks`` pieces of ``ceil(d / chunks)`` along ``dim``, the last ones shorter (or empty):
    piece ``i`` is ``max(0, min(c, d - i*c))``."""
    shape = ctx.shape(0)
    axis, chunks = int(ctx.attr("dim", 0)), int(ctx.attr("chunks", 1))
    d = shape[axis]
    size = ceildiv(d, chunks)
    for i in range(ctx.num_outputs):
        piece = smax(0, smin(size, add(d, mul(-i, size))))
        ctx.set_output(i, (*shape[:axis], ctx.canon(piece), *shape[axis + 1 :]))


@register(ATEN, "index.Tensor")
def advanced_index(ctx: OpContext) -> None:
    """``x[i0, i1, ...]`` with index tensors at ``positions``: their broadcast shape replaces the
    indexed dims where they are adjacent, and goes first where they are not (numpy's rule)."""
    shape = ctx.shape(0)
    positions: list[int] = list(ctx.attr("positions", []))
    if not positions:
        raise GiveUp("no index tensor")
    indexed = broadcast_shapes(ctx, [ctx.shape(i) for i in range(1, ctx.num_inputs)])
    rest = [d for k, d in enumerate(shape) if k not in positions]
    if positions == list(range(positions[0], positions[-1] + 1)):
        first = positions[0]
        ctx.set_output(0, (*shape[:first], *indexed, *shape[positions[-1] + 1 :]))
    else:
        ctx.set_output(0, (*indexed, *rest))


@register(ATEN, *RESIZE_TO)
def resize_to(ctx: OpContext) -> None:
    """The trailing dims take ``output_size`` (input 1), or ``floor(dim * scale)`` for integer scales."""
    shape = ctx.shape(0)
    if ctx.num_inputs > 1:
        sizes = ctx.elements(1)
        if sizes is None:
            raise GiveUp("the output size is not known")
        ctx.set_output(0, (*shape[: len(shape) - len(sizes)], *sizes))
        return
    scales: list[float] = list(ctx.attr("scales") or [])
    ints = [exact_float_int(s) for s in scales]
    if not scales or any(i is None for i in ints):
        raise GiveUp("a resize by a fractional scale")
    k = len(ints)
    tail = shape[len(shape) - k :]
    scaled: list[Dim] = [ctx.canon(mul(d, i)) for d, i in zip(tail, ints, strict=True) if i is not None]
    ctx.set_output(0, (*shape[: len(shape) - k], *scaled))
