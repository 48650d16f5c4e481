"""StableHLO and MHLO: elementwise ops, broadcasts, reshapes, slices, concatenation, padding.

HLO never broadcasts implicitly: the operands of an elementwise op have the result's shape
(``SameOperandsAndResultShape``), which is a fact. Small integer tensors (shape tensors, the
scalars ``get_dimension_size`` makes) have their values tracked. Contractions, reductions,
convolution, gather and ``custom_call`` live in `symshape.rules.hlo.contract`.
https://openxla.org/stablehlo/spec
"""

from __future__ import annotations

from collections.abc import Callable

from symshape.context import GiveUp, OpContext
from symshape.errors import ModelError
from symshape.expr import Dim, add, exact_div, mul, product, smax, smin
from symshape.rules.registry import HLO, register
from symshape.rules.shared.arith import binary_elements, compare_values
from symshape.rules.shared.common import int_div, normalize_axis
from symshape.rules.shared.mlir_common import (
    at_least_zero,
    check_declared,
    declared_dims,
    declared_rank,
    ints,
    is_int_dtype,
    same_shapes,
    span_length,
)

UNARY = (
    "abs",
    "cbrt",
    "ceil",
    "convert",
    "cosine",
    "count_leading_zeros",
    "exponential",
    "exponential_minus_one",
    "floor",
    "imag",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "negate",
    "not",
    "popcnt",
    "real",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "sign",
    "sine",
    "sqrt",
    "tan",
    "tanh",
    "bitcast_convert",
    "reduce_precision",
    "erf",
    "cosh",
    "sinh",
)
BINARY = (
    "add",
    "and",
    "atan2",
    "complex",
    "divide",
    "maximum",
    "minimum",
    "multiply",
    "or",
    "power",
    "remainder",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "subtract",
    "xor",
)


def _sign(ctx: OpContext, e: Dim) -> Dim | None:
    facts = ctx.facts
    if facts.prove_ge(e, 1):
        return 1
    if facts.prove_le(e, -1):
        return -1
    return 0 if facts.prove_eq(e, 0) else None


_UNARY_ELEMENTS: dict[str, Callable[[OpContext, Dim], Dim | None]] = {
    "convert": lambda ctx, e: e,
    "negate": lambda ctx, e: mul(e, -1),
    "abs": lambda ctx, e: e if ctx.facts.prove_ge(e, 0) else None,
    "sign": _sign,
    "not": lambda ctx, e: 1 - e if isinstance(e, int) and e in (0, 1) and ctx.output_dtype(0) == "i1" else None,
}


@register(HLO, *UNARY, then=check_declared)
def unary(ctx: OpContext) -> None:
    """The result has the operand's shape; integer values pass through convert/negate/abs/sign.

    https://openxla.org/stablehlo/spec#convert (and the other unary elementwise ops)
    """
    shape = ctx.shape(0)
    fn = _UNARY_ELEMENTS.get(ctx.op.op_type)
    els = ctx.elements(0)
    out = None
    if fn is not None and els is not None and is_int_dtype(ctx.output_dtype(0)):
        mapped = [fn(ctx, e) for e in els]
        out = None if any(m is None for m in mapped) else tuple(ctx.canon(m) for m in mapped if m is not None)
    ctx.set_output(0, shape, out)


def _rem(ctx: OpContext, a: Dim, b: Dim) -> Dim | None:
    """HLO remainder takes the dividend's sign: exact as ``Mod`` when ``a >= 0`` and ``b >= 1``."""
    from symshape.expr import mod

    facts = ctx.facts
    return mod(a, b) if facts.prove_ge(a, 0) and facts.prove_ge(b, 1) else None


def _bool(fn: Callable[[int, int], int]) -> Callable[[OpContext, Dim, Dim], Dim | None]:
    def op(ctx: OpContext, a: Dim, b: Dim) -> Dim | None:  # noqa: ARG001 - uniform signature
        return fn(a, b) if isinstance(a, int) and isinstance(b, int) else None

    return op


_BINARY_ELEMENTS: dict[str, Callable[[OpContext, Dim, Dim], Dim | None]] = {
    "add": lambda ctx, a, b: add(a, b),
    "subtract": lambda ctx, a, b: add(a, mul(b, -1)),
    "multiply": lambda ctx, a, b: mul(a, b),
    "divide": int_div,
    "remainder": _rem,
    "maximum": lambda ctx, a, b: smax(a, b),
    "minimum": lambda ctx, a, b: smin(a, b),
    "and": _bool(lambda a, b: a & b),
    "or": _bool(lambda a, b: a | b),
    "xor": _bool(lambda a, b: a ^ b),
}


@register(HLO, *BINARY, then=check_declared)
def binary(ctx: OpContext) -> None:
    """Both operands and the result have one shape (a fact); integer arithmetic is tracked.

    https://openxla.org/stablehlo/spec#add
    """
    shape = same_shapes(ctx, [0, 1], "elementwise operands")
    fn = _BINARY_ELEMENTS.get(ctx.op.op_type)
    values = binary_elements(ctx, fn) if fn is not None else None
    if values is None and ctx.op.op_type in ("and", "or"):
        values = _absorbed(ctx)
    ctx.set_output(0, shape, values)


def _absorbed(ctx: OpContext) -> tuple[Dim, ...] | None:
    """``and`` with all-zero or (``i1``) ``or`` with all-one values on one side, the other unknown."""
    absorbing = 0 if ctx.op.op_type == "and" else 1
    if absorbing == 1 and ctx.output_dtype(0) != "i1":
        return None
    for i in (0, 1):
        els = ctx.elements(i)
        if els is not None and all(isinstance(e, int) and e == absorbing for e in els):
            return els
    return None


@register(HLO, "compare", then=check_declared)
def compare_op(ctx: OpContext) -> None:
    """Same-shape operands; the ``i1`` result is known where the comparison is decided.

    https://openxla.org/stablehlo/spec#compare
    """
    from symshape.rules.shared.mlir_common import enum_word

    shape = same_shapes(ctx, [0, 1], "compare operands")
    direction = enum_word(ctx.attr("comparison_direction", ""))
    a, b = ctx.elements(0), ctx.elements(1)
    out = None
    if a is not None and b is not None and len(a) == len(b):
        got = [compare_values(ctx, direction, x, y) for x, y in zip(a, b, strict=True)]
        out = None if any(g is None for g in got) else tuple(g for g in got if g is not None)
    ctx.set_output(0, shape, out)


@register(HLO, "select", then=check_declared)
def select(ctx: OpContext) -> None:
    """``pred`` is a scalar or has the result's shape; both branches have it (facts).

    https://openxla.org/stablehlo/spec#select
    """
    shape = same_shapes(ctx, [1, 2], "select branches")
    pred = ctx.shape(0)
    if pred:
        same_shapes(ctx, [1, 0], "select predicate")
    cond, x, y = ctx.elements(0), ctx.elements(1), ctx.elements(2)
    out = None
    if cond is not None and x is not None and y is not None and all(isinstance(c, int) for c in cond):
        if len(x) == len(y) and len(cond) in (1, len(x)):
            out = tuple(x[i] if cond[0 if len(cond) == 1 else i] else y[i] for i in range(len(x)))
    ctx.set_output(0, shape, out)


@register(HLO, "clamp", then=check_declared)
def clamp(ctx: OpContext) -> None:
    """``min`` and ``max`` are scalars or have the operand's shape (facts).

    https://openxla.org/stablehlo/spec#clamp
    """
    shape = ctx.shape(1)
    for i in (0, 2):
        if ctx.shape(i):
            same_shapes(ctx, [1, i], "clamp bound")
    lo, x, hi = ctx.elements(0), ctx.elements(1), ctx.elements(2)
    out = None
    if lo is not None and x is not None and hi is not None and len(lo) == 1 and len(hi) == 1:
        out = tuple(ctx.canon(smin(smax(e, lo[0]), hi[0])) for e in x)
    ctx.set_output(0, shape, out)


@register(HLO, "constant", then=check_declared)
def constant(ctx: OpContext) -> None:
    """The ``value`` attribute's dims and (small integer) contents.

    https://openxla.org/stablehlo/spec#constant
    """
    value = ctx.attr("value")
    dims = getattr(value, "dims", None)
    if dims is None:
        ctx.set_output(0, declared_dims(ctx))
        return
    ctx.set_output(0, dims, getattr(value, "values", None))


@register(HLO, "iota", then=check_declared)
def iota(ctx: OpContext) -> None:
    """The declared result shape (static). https://openxla.org/stablehlo/spec#iota"""
    dims = declared_dims(ctx)
    axis = ints(ctx, "iota_dimension", [0]) or [0]
    out = None
    if len(dims) == 1 and isinstance(dims[0], int) and dims[0] <= 64 and axis[0] == 0:
        out = tuple(range(dims[0]))
    ctx.set_output(0, dims, out)


@register(HLO, "dynamic_iota", then=check_declared)
def dynamic_iota(ctx: OpContext) -> None:
    """Dims from the tracked ``output_shape`` operand. https://openxla.org/stablehlo/spec#dynamic_iota"""
    ctx.set_output(0, shape_operand(ctx, 0))


def shape_operand(ctx: OpContext, i: int, out: int = 0) -> tuple[Dim, ...]:
    """Dims given as the values of operand ``i`` (a shape tensor), or the declared ones."""
    els = ctx.elements(i)
    if els is not None:
        rank = declared_rank(ctx, out)
        if rank is not None and rank != len(els):
            raise ModelError(f"{ctx.where()}: the shape operand has {len(els)} values for a rank-{rank} result")
        return els
    return declared_dims(ctx, out)


def _broadcast_facts(ctx: OpContext, operand: tuple[Dim, ...], out: tuple[Dim, ...], mapping: list[int]) -> None:
    """An operand dim is 1 or the output dim it maps to: equal when provably not 1."""
    if len(mapping) != len(operand):
        raise ModelError(f"{ctx.where()}: {len(mapping)} broadcast dimensions for an operand of rank {len(operand)}")
    expanding = set(ints(ctx, "known_expanding_dimensions", []) or [])
    nonexpanding = set(ints(ctx, "known_nonexpanding_dimensions", []) or [])
    facts = ctx.facts
    for i, (d, axis) in enumerate(zip(operand, mapping, strict=True)):
        if not 0 <= axis < len(out):
            raise ModelError(f"{ctx.where()}: broadcast dimension {axis} is out of range for rank {len(out)}")
        if i in expanding:
            ctx.eq(d, 1, "known expanding dimension", (ctx.dim_name(0, i), "1"))
        elif i in nonexpanding or facts.prove_ge(d, 2) or facts.prove_eq(d, 0):
            ctx.eq(d, out[axis], "broadcast operand dim", (ctx.dim_name(0, i), f"result dim {axis}"))
        elif not facts.prove_eq(d, 1):
            ctx.imprecise()


@register(HLO, "broadcast_in_dim", then=check_declared)
def broadcast_in_dim(ctx: OpContext) -> None:
    """The declared result shape; operand dim ``i`` is 1 or result dim ``dims[i]``.

    https://openxla.org/stablehlo/spec#broadcast_in_dim
    """
    operand = ctx.shape(0)
    mapping = ints(ctx, "broadcast_dimensions", []) or []
    out = list(declared_dims(ctx))
    for d, axis in zip(operand, mapping, strict=False):
        if 0 <= axis < len(out) and not isinstance(out[axis], int) and ctx.facts.prove_ge(d, 2):
            out[axis] = d
    _broadcast_facts(ctx, operand, tuple(out), mapping)
    els = ctx.elements(0)
    values = None
    if els is not None and len(els) == 1:
        n = product(out)
        values = (els[0],) * n if isinstance(n, int) and n <= 64 else None
    ctx.set_output(0, out, values)


@register(HLO, "dynamic_broadcast_in_dim", then=check_declared)
def dynamic_broadcast_in_dim(ctx: OpContext) -> None:
    """Result dims from the ``output_dimensions`` operand; operand dims map as in broadcast_in_dim.

    https://openxla.org/stablehlo/spec#dynamic_broadcast_in_dim
    """
    operand = ctx.shape(0)
    out = shape_operand(ctx, 1)
    _broadcast_facts(ctx, operand, out, ints(ctx, "broadcast_dimensions", []) or [])
    ctx.set_output(0, out)


@register(HLO, "broadcast", then=check_declared)
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


@register(HLO, "reshape", then=check_declared)
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


@register(HLO, "dynamic_reshape", then=check_declared)
def dynamic_reshape(ctx: OpContext) -> None:
    """Result dims from the ``output_shape`` operand; equal element counts (seed 000's group
    multiplication equality). https://openxla.org/stablehlo/spec#dynamic_reshape
    """
    _reshaped(ctx, shape_operand(ctx, 1))


@register(("mhlo", "stablehlo"), "compute_reshape_shape", then=check_declared)
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


@register(("mhlo", "stablehlo"), "cstr_reshapable", then=check_declared)
def cstr_reshapable(ctx: OpContext) -> None:
    """A witness (scalar). https://github.com/tensorflow/mlir-hlo (mhlo.cstr_reshapable)"""
    ctx.set_output(0, ())


@register(HLO, "transpose", then=check_declared)
def transpose(ctx: OpContext) -> None:
    """Dims permuted by ``permutation``. https://openxla.org/stablehlo/spec#transpose"""
    dims = ctx.shape(0)
    perm = ints(ctx, "permutation", list(range(len(dims)))) or []
    if sorted(perm) != list(range(len(dims))):
        raise ModelError(f"{ctx.where()}: permutation {perm} is not a permutation of rank {len(dims)}")
    ctx.set_output(0, [dims[p] for p in perm])


@register(HLO, "reverse", "optimization_barrier", then=check_declared)
def same_as_operands(ctx: OpContext) -> None:
    """Each result has the shape (and values) of its operand. https://openxla.org/stablehlo/spec#reverse"""
    for i in range(ctx.num_outputs):
        ctx.set_output(i, ctx.shape(i), ctx.elements(i) if ctx.op.op_type != "reverse" else None)


@register(HLO, "concatenate", then=check_declared)
def concatenate(ctx: OpContext) -> None:
    """Sum along ``dimension``; every other dim is equal across operands (a fact).

    https://openxla.org/stablehlo/spec#concatenate
    """
    shapes = [ctx.shape(i) for i in range(ctx.num_inputs)]
    rank = len(shapes[0])
    axis = normalize_axis(ctx, (ints(ctx, "dimension", [0]) or [0])[0], rank)
    out = list(shapes[0])
    total: Dim = 0
    for i, s in enumerate(shapes):
        if len(s) != rank:
            raise ModelError(f"{ctx.where()}: operand #{i} has rank {len(s)}, expected {rank}")
        total = add(total, s[axis])
        for a in range(rank):
            if a != axis:
                ctx.eq(s[a], out[a], "concatenate non-axis dim", (ctx.dim_name(i, a), ctx.dim_name(0, a)))
    out[axis] = ctx.canon(total)
    parts = [ctx.elements(i) for i in range(ctx.num_inputs)]
    joined = axis == 0 and all(p is not None for p in parts)  # row-major: axis 0 appends the contents
    values = tuple(e for p in parts for e in (p or ())) if joined else None
    ctx.set_output(0, out, values)


@register(HLO, "get_dimension_size", then=check_declared)
def get_dimension_size(ctx: OpContext) -> None:
    """A scalar holding dim ``dimension``. https://openxla.org/stablehlo/spec#get_dimension_size"""
    dims = ctx.shape(0)
    axis = normalize_axis(ctx, (ints(ctx, "dimension", [0]) or [0])[0], len(dims))
    ctx.set_output(0, (), (dims[axis],))


@register(HLO, "slice", then=check_declared)
def slice_op(ctx: OpContext) -> None:
    """``ceil((limit - start) / stride)`` per dim; ``0 <= start <= limit <= dim`` is required
    (facts). https://openxla.org/stablehlo/spec#slice
    """
    dims = ctx.shape(0)
    starts = ints(ctx, "start_indices", []) or []
    limits = ints(ctx, "limit_indices", []) or []
    strides = ints(ctx, "strides", [1] * len(starts)) or []
    if not len(starts) == len(limits) == len(strides) == len(dims):
        raise ModelError(f"{ctx.where()}: slice attributes must have one entry per dim ({len(dims)})")
    out: list[Dim] = []
    for axis, (d, s, lim, k) in enumerate(zip(dims, starts, limits, strides, strict=True)):
        at_least_zero(ctx, add(d, -lim), "slice limit <= dim")
        out.append(span_length(ctx, s, lim, k, axis))
    src = ctx.elements(0)
    values = None
    if src is not None and len(dims) == 1 and isinstance(out[0], int):
        values = tuple(src[starts[0] + i * strides[0]] for i in range(out[0]))
    ctx.set_output(0, out, values)


@register(HLO, "real_dynamic_slice", then=check_declared)
def real_dynamic_slice(ctx: OpContext) -> None:
    """Lengths from the tracked ``start``/``limit``/``strides`` operands (seed 000's
    ``%in[:, 1:]`` keeps dim 0). https://openxla.org/stablehlo/spec#real_dynamic_slice
    """
    dims = ctx.shape(0)
    start, limit, strides = ctx.elements(1), ctx.elements(2), ctx.elements(3)
    if start is None or limit is None or strides is None:
        ctx.set_output(0, declared_dims(ctx))
        return
    if not len(start) == len(limit) == len(strides) == len(dims):
        raise ModelError(f"{ctx.where()}: start/limit/strides need {len(dims)} values each")
    triples = enumerate(zip(start, limit, strides, strict=True))
    ctx.set_output(0, [span_length(ctx, s, lim, k, a) for a, (s, lim, k) in triples])


@register(HLO, "dynamic_slice", then=check_declared)
def dynamic_slice(ctx: OpContext) -> None:
    """``slice_sizes`` (start indices are clamped); each size is at most its dim (a fact).

    https://openxla.org/stablehlo/spec#dynamic_slice
    """
    dims = ctx.shape(0)
    sizes = ints(ctx, "slice_sizes", []) or []
    if len(sizes) != len(dims):
        raise ModelError(f"{ctx.where()}: {len(sizes)} slice sizes for rank {len(dims)}")
    for d, s in zip(dims, sizes, strict=True):
        at_least_zero(ctx, add(d, -s), "slice size <= dim")
    ctx.set_output(0, sizes)


@register(HLO, "dynamic_update_slice", then=check_declared)
def dynamic_update_slice(ctx: OpContext) -> None:
    """The operand's shape. https://openxla.org/stablehlo/spec#dynamic_update_slice"""
    ctx.set_output(0, ctx.shape(0))


def _padded(
    ctx: OpContext, dims: tuple[Dim, ...], low: tuple[Dim, ...], high: tuple[Dim, ...], interior: tuple[Dim, ...]
) -> list[Dim]:
    if not len(low) == len(high) == len(interior) == len(dims):
        raise ModelError(f"{ctx.where()}: padding needs {len(dims)} values per edge")
    out: list[Dim] = []
    for d, lo, hi, inner in zip(dims, low, high, interior, strict=True):
        grown = add(add(d, lo), hi)
        if not (isinstance(inner, int) and inner == 0):
            grown = add(grown, mul(smax(add(d, -1), 0), inner))
        out.append(ctx.canon(grown))
    return out


@register(HLO, "pad", then=check_declared)
def pad(ctx: OpContext) -> None:
    """``low + dim + high + interior * max(dim - 1, 0)``. https://openxla.org/stablehlo/spec#pad"""
    dims = ctx.shape(0)
    lo = tuple(ints(ctx, "edge_padding_low", []) or [])
    hi = tuple(ints(ctx, "edge_padding_high", []) or [])
    inner = tuple(ints(ctx, "interior_padding", [0] * len(dims)) or [])
    ctx.set_output(0, _padded(ctx, dims, lo, hi, inner))


@register(HLO, "dynamic_pad", then=check_declared)
def dynamic_pad(ctx: OpContext) -> None:
    """As ``pad`` with the paddings from tracked operands 2-4 (seed 000: unpadded axes keep
    their size). https://github.com/tensorflow/mlir-hlo (mhlo.dynamic_pad)
    """
    dims = ctx.shape(0)
    parts = [ctx.elements(i) for i in (2, 3, 4)]
    if any(p is None for p in parts):
        ctx.set_output(0, declared_dims(ctx))
        return
    lo, hi, inner = (p or () for p in parts)
    ctx.set_output(0, _padded(ctx, dims, lo, hi, inner))
