"""StableHLO and MHLO ops that rearrange a tensor: broadcasts, reshapes (with MHLO's
``compute_reshape_shape``), transpose, reverse.

A broadcast operand dim is 1 or the result dim it maps to; a reshape keeps the element count
(a fact, kept as a residual equation when it cannot be solved). Dims given as the values of a
shape operand (``dynamic_*`` ops) come from its tracked elements (`shape_operand`).
https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, exact_div, product
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import MAX_TRACKED
from symshape.rules.hlo.table import hlo_rule
from symshape.rules.shared.mlir_common import declared_dims, declared_rank, dim_numbers, ints, same_dim


def shape_operand(ctx: OpContext, i: int, out: int = 0) -> tuple[Dim, ...]:
    """Dims given as the values of operand ``i`` (a shape tensor), or the declared ones."""
    els = ctx.elements(i)
    if els is not None:
        rank = declared_rank(ctx, out)
        if rank is not None:
            ctx.require_len(
                els, rank, "the shape operand has {got} values for a rank-{n} result", "{n} values (one per result dim)"
            )
        return els
    return declared_dims(ctx, out)


def _broadcast_facts(ctx: OpContext, operand: tuple[Dim, ...], out: tuple[Dim, ...], mapping: list[int]) -> None:
    """An operand dim is 1 or the output dim it maps to: equal when provably not 1."""
    ctx.require_len(
        mapping,
        len(operand),
        "{got} broadcast dimensions for an operand of rank {n}",
        "{n} broadcast dimensions (one per operand dim)",
    )
    expanding = set(ints(ctx, "known_expanding_dimensions", []) or [])
    nonexpanding = set(ints(ctx, "known_nonexpanding_dimensions", []) or [])
    facts = ctx.facts
    for i, (d, axis) in enumerate(zip(operand, mapping, strict=True)):
        if not 0 <= axis < len(out):
            raise ctx.invalid(
                f"broadcast dimension {axis} is out of range for rank {len(out)}",
                f"a result dim in [0, {len(out) - 1}]",
            )
        if i in expanding:
            ctx.eq(d, 1, "known expanding dimension", (ctx.dim_name(0, i), "1"))
        elif i in nonexpanding or facts.prove_ge(d, 2) or facts.prove_eq(d, 0):
            if not same_dim(ctx, d, out[axis]):
                ctx.eq(d, out[axis], "broadcast operand dim", (ctx.dim_name(0, i), f"result dim {axis}"))
        elif not facts.prove_eq(d, 1):
            ctx.imprecise()


@hlo_rule("broadcast_in_dim")
def broadcast_in_dim(ctx: OpContext) -> None:
    """The declared result shape; operand dim ``i`` is 1 or result dim ``dims[i]``.

    https://openxla.org/stablehlo/spec#broadcast_in_dim
    """
    operand = ctx.shape(0)
    out = list(declared_dims(ctx))
    mapping = dim_numbers(ctx, "broadcast_dimensions", len(out), [])
    for d, axis in zip(operand, mapping, strict=False):
        if 0 <= axis < len(out) and not isinstance(out[axis], int) and ctx.facts.prove_ge(d, 2):
            out[axis] = d
    _broadcast_facts(ctx, operand, tuple(out), mapping)
    els = ctx.elements(0)
    values = None
    if els is not None and len(els) == 1:
        n = product(out)
        values = (els[0],) * n if isinstance(n, int) and n <= MAX_TRACKED else None
    ctx.set_output(0, out, values)


@hlo_rule("dynamic_broadcast_in_dim")
def dynamic_broadcast_in_dim(ctx: OpContext) -> None:
    """Result dims from the ``output_dimensions`` operand; operand dims map as in broadcast_in_dim.

    https://openxla.org/stablehlo/spec#dynamic_broadcast_in_dim
    """
    operand = ctx.shape(0)
    out = shape_operand(ctx, 1)
    _broadcast_facts(ctx, operand, out, dim_numbers(ctx, "broadcast_dimensions", len(out), []))
    ctx.set_output(0, out)


@hlo_rule("broadcast")
def broadcast(ctx: OpContext) -> None:
    """``broadcast_sizes`` followed by the operand's dims. https://openxla.org/stablehlo/spec#broadcast"""
    sizes = ints(ctx, "broadcast_sizes", []) or []
    ctx.set_output(0, (*sizes, *ctx.shape(0)))


def _reshaped(ctx: OpContext, target: tuple[Dim, ...]) -> None:
    """Equal element counts (a fact; unsolvable products stay residual equations)."""
    dims = ctx.shape(0)
    numel = ctx.canon(product(dims))
    ctx.eq(product(target), numel, "reshape element count", ("the result element count", "the operand element count"))
    ctx.set_output(0, target, ctx.elements(0))


@hlo_rule("reshape")
def reshape(ctx: OpContext) -> None:
    """The declared result shape; a single ``?`` is solved from the element count.

    https://openxla.org/stablehlo/spec#reshape
    """
    dims = ctx.shape(0)
    target = list(declared_dims(ctx))
    value = ctx.program.values[ctx.op.outputs[0]]
    declared = value.type.dims if value.type is not None else None  # never None: declared_dims gave up
    unknown = [i for i, d in enumerate(declared or ()) if not isinstance(d, int)]
    if len(unknown) == 1:
        rest = product(d for i, d in enumerate(target) if i != unknown[0])
        solved = exact_div(ctx.canon(product(dims)), rest) if rest != 0 else None
        if solved is not None:
            target[unknown[0]] = solved
    _reshaped(ctx, tuple(target))


@hlo_rule("dynamic_reshape")
def dynamic_reshape(ctx: OpContext) -> None:
    """Result dims from the ``output_shape`` operand; equal element counts (seed 000's group
    multiplication equality). https://openxla.org/stablehlo/spec#dynamic_reshape
    """
    _reshaped(ctx, shape_operand(ctx, 1))


@hlo_rule("compute_reshape_shape")
def compute_reshape_shape(ctx: OpContext) -> None:
    """The target shape with its ``-1`` replaced by ``num_elements / product(others)``.

    https://github.com/tensorflow/mlir-hlo (mhlo.compute_reshape_shape)
    """
    numel = ctx.require_elements(0)[0]
    target = list(ctx.require_elements(1))
    holes = [i for i, t in enumerate(target) if isinstance(t, int) and t == -1]
    if len(holes) == 1:
        rest = product(t for i, t in enumerate(target) if i != holes[0])
        solved = exact_div(numel, ctx.canon(rest))
        if solved is None:
            raise GiveUp("the -1 of the target shape does not divide exactly")
        target[holes[0]] = solved
    ctx.set_output(0, ctx.shape(1), tuple(ctx.canon(t) for t in target))


@hlo_rule("cstr_reshapable")
def cstr_reshapable(ctx: OpContext) -> None:
    """A witness (scalar). https://github.com/tensorflow/mlir-hlo (mhlo.cstr_reshapable)"""
    ctx.set_output(0, ())


@hlo_rule("transpose")
def transpose(ctx: OpContext) -> None:
    """Dims permuted by ``permutation``. https://openxla.org/stablehlo/spec#transpose"""
    dims = ctx.shape(0)
    perm = ints(ctx, "permutation", list(range(len(dims)))) or []
    if sorted(perm) != list(range(len(dims))):
        raise ctx.invalid(
            f"permutation {perm} is not a permutation of rank {len(dims)}", f"each of 0..{len(dims) - 1} once"
        )
    ctx.set_output(0, [dims[p] for p in perm])


@hlo_rule("reverse", "optimization_barrier")
def same_as_operands(ctx: OpContext) -> None:
    """Each result has the shape (and values) of its operand. https://openxla.org/stablehlo/spec#reverse"""
    for i in range(ctx.num_outputs):
        ctx.set_output(i, ctx.shape(i), ctx.elements(i) if ctx.op.op_type != "reverse" else None)
    if ctx.op.op_type == "reverse":
        dim_numbers(ctx, "dimensions", len(ctx.shape(0)), [])
