"""Shared pieces of the MLIR rule families (`symshape.rules.hlo`, `symshape.rules.mlir`).

An MLIR result type is part of the program: a static dim declared in a result type is a fact
(the verifier rejects the op otherwise), so every MLIR rule ends with `check_declared`, which
equates each inferred dim with a declared static one; a declared ``?`` says nothing.
Attributes arrive as the Python values of `symshape.frontends.mlir.frontend.py_attr` (ints, lists,
`ConstTensor`, ``DialectAttr`` with ``fields``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import GiveUp, OpContext
from symshape.engine.program import ConstTensor
from symshape.errors import ContradictionError

_INT = re.compile(r"index|u?i\d+|si\d+")


def check_declared(ctx: OpContext) -> None:
    """Each output's inferred dims equal its declared static dims (a fact); ranks must agree."""
    for i, out in enumerate(ctx.op.outputs):
        inferred = ctx.output_shape(i)
        value = ctx.program.values.get(out)
        declared = value.type.dims if value is not None and value.type is not None else None
        if inferred is None or declared is None:
            continue
        if len(inferred) != len(declared):
            raise ctx.invalid(
                f"result #{i} '{out}' is declared with rank {len(declared)}",
                f"rank {len(inferred)} (what its operands give)",
                "check the result type",
            )
        for axis, (got, want) in enumerate(zip(inferred, declared, strict=True)):
            if not isinstance(want, int) or want < 0:
                continue
            if not same_dim(ctx, got, want):
                ctx.eq(got, want, "declared result type", (f"dim {axis} of '{out}'", f"the declared size {want}"))


def declared_dims(ctx: OpContext, i: int = 0) -> tuple[Dim, ...]:
    """Output ``i``'s declared dims, fresh symbols for ``?``; gives up when unranked."""
    value = ctx.program.values.get(ctx.op.outputs[i]) if i < ctx.num_outputs else None
    dims = value.type.dims if value is not None and value.type is not None else None
    if dims is None:
        raise GiveUp(f"result #{i} has no ranked type")
    return tuple(d if isinstance(d, int) and d >= 0 else ctx.fresh(f"out{i}_d{axis}") for axis, d in enumerate(dims))


def declared_rank(ctx: OpContext, i: int = 0) -> int | None:
    """The declared rank of output ``i``, if ranked."""
    value = ctx.program.values.get(ctx.op.outputs[i]) if i < ctx.num_outputs else None
    dims = value.type.dims if value is not None and value.type is not None else None
    return None if dims is None else len(dims)


def ints(ctx: OpContext, name: str, default: list[int] | None = None) -> list[int] | None:
    """An integer-list attribute: ``array<i64: ..>``, ``dense<..>`` or a single int."""
    value = ctx.attr(name)
    if value is None:
        return default
    if isinstance(value, ConstTensor):
        if value.values is None:
            raise GiveUp(f"attribute '{name}' has no readable integer values")
        return list(value.values)
    if isinstance(value, int):
        return [value]
    items = cast("list[object]", value) if isinstance(value, list) else None
    if items is not None and all(isinstance(v, int) for v in items):
        return [v for v in items if isinstance(v, int)]
    raise ctx.invalid(f"attribute '{name}' is {value!r}", "a list of integers")


def dim_numbers(ctx: OpContext, name: str, rank: int, default: list[int] | None = None) -> list[int]:
    """An HLO attribute of dimension numbers: each in ``[0, rank)`` and none twice (HLO has no
    negative axes), else a ModelError naming the op, the attribute and the rank."""
    got = ints(ctx, name, default) or []
    if any(not 0 <= a < rank for a in got) or len(set(got)) != len(got):
        raise ctx.invalid(
            f"{name} {got} for an operand of rank {rank}",
            f"distinct dimensions in [0, {rank - 1}]" if rank else "no dimension (the operand has rank 0)",
            f"fix the {name} attribute",
        )
    return got


def dim_number(ctx: OpContext, name: str, rank: int, default: int | None = None) -> int:
    """One HLO dimension number (`dim_numbers`); a missing attribute without default is a ModelError."""
    got = dim_numbers(ctx, name, rank, None if default is None else [default])
    if len(got) != 1:
        raise ctx.invalid(f"attribute '{name}' is {got}", "one dimension number", f"fix the {name} attribute")
    return got[0]


def field_ints(value: Any, name: str) -> list[int]:
    """``fields[name]`` of a dialect attribute (``#stablehlo.dot<...>``) as a list of ints."""
    if hasattr(value, "fields"):
        fields = value.fields
    else:
        fields = cast("dict[str, Any]", value) if isinstance(value, dict) else {}
    got = fields.get(name, [])
    return [got] if isinstance(got, int) else [int(v) for v in got]


def enum_word(value: Any) -> str:
    """``GE`` from ``#stablehlo<comparison_direction GE>`` (or a plain string)."""
    fields = getattr(value, "fields", None)
    if fields is not None:
        return str(fields.get("value", "")).strip()
    return str(value).strip()


def is_int_dtype(dtype: str | None) -> bool:
    """Index and integer element types (whose values are tracked)."""
    return dtype is not None and _INT.fullmatch(dtype) is not None


MAX_PART = 16  # a shape vector part longer than this is not filled with unknowns


def elements_or_unknowns(ctx: OpContext, i: int) -> tuple[Dim, ...] | None:
    """The tracked elements of input ``i``, or, for a small static integer vector or scalar
    whose values are unknown, one symbol per element (any integer, no facts): a shape vector
    built from parts keeps its known elements, so one unknown element leaves the other dims
    of the op that reads it exact (``limit - start`` is a length whatever the start is)."""
    els = ctx.elements(i)
    if els is not None or not is_int_dtype(ctx.dtype(i)):
        return els
    shape = ctx.shape_or_none(i)
    if shape is None or len(shape) > 1 or not all(isinstance(d, int) for d in shape):
        return None
    n = shape[0] if shape else 1
    if not isinstance(n, int) or n > MAX_PART:
        return None
    name = ctx.op.inputs[i]
    cause = ctx.earlier_cause(i)
    # One symbol per element of the value (not per reader): ops that read the same unknown
    # value see the same symbol, so ``limit - start`` cancels it.
    return tuple(
        ctx.memo_fresh(("unknown element", name, str(k)), f"element {k} of '{name}'", lo=None, cause=cause)
        for k in range(n)
    )


def same_dim(ctx: OpContext, a: Dim, b: Dim) -> bool:
    """Whether ``a == b`` is no equation (one dim, or equal ints): then only the graph's re-check
    `OpContext.eq` would make is made, and the caller words no message for it."""
    if a is b or (a.__class__ is int and b.__class__ is int and a == b):
        ctx.graph.recheck()
        return True
    return False


def same_shapes(ctx: OpContext, indices: Sequence[int], rule: str) -> tuple[Dim, ...]:
    """The operands at ``indices`` have equal shapes (a fact); returns the first one."""
    first = ctx.shape(indices[0])
    for i in indices[1:]:
        other = ctx.shape(i)
        if len(other) != len(first):
            expected = f"rank {len(first)} (the rank of operand #{indices[0]})"
            ctx.require_rank(other, len(first), f"operand #{i}", expected)
        for axis, (a, b) in enumerate(zip(first, other, strict=True)):
            if not same_dim(ctx, a, b):
                ctx.eq(b, a, rule, (ctx.dim_name(i, axis), ctx.dim_name(indices[0], axis)))
    return tuple(ctx.canon(d) for d in first)


def span_length(ctx: OpContext, start: Dim, limit: Dim, stride: Dim, axis: int) -> Dim:
    """``ceil((limit - start) / stride)`` for a valid slice (a guard when ``start <= limit`` is unproven)."""
    if not isinstance(stride, int) or stride <= 0:
        raise GiveUp(f"the stride on axis {axis} is not a positive constant")
    span = ctx.canon(add(limit, mul(start, -1)))
    if not ctx.facts.prove_ge(span, 0):
        ctx.guard(limit, ">=", start, "slice bounds", f"slice limit on axis {axis} is not below its start")
    from symshape.algebra.expr import ceildiv

    return ctx.canon(ceildiv(span, stride))


def at_least_zero(ctx: OpContext, d: Dim, rule: str) -> None:
    """Record the fact ``d >= 0`` (ModelError when ``d`` is a negative constant)."""
    d = ctx.canon(d)
    if isinstance(d, int):
        if d < 0:
            raise ctx.invalid(f"{rule} does not hold ({d} < 0)", rule)
        return
    if not ctx.facts.prove_ge(d, 0):
        assume_at_least(ctx, d, 0, rule)


_RELATIONS = {"GE": (0, 1), "GT": (1, 1), "LE": (0, -1), "LT": (1, -1)}


def assert_condition(ctx: OpContext, message: str) -> None:
    """Record the comparison an assertion checks (``attrs["condition"]``, set by the frontend)
    as a fact: execution stops when it fails. ``Mod(x, k) == 0`` becomes divisibility."""
    condition = ctx.attr("condition")
    if not isinstance(condition, dict):
        return
    spec = cast("dict[str, Any]", condition)
    lhs, rhs = ctx.elements(spec["lhs"]), ctx.elements(spec["rhs"])
    if lhs is None or rhs is None or len(lhs) != 1 or len(rhs) != 1:
        return
    direction = spec["direction"]
    if direction == "EQ":
        divisor = _mod_zero(ctx.canon(lhs[0]), ctx.canon(rhs[0]))
        if divisor is not None:
            ctx.assume_divisible(divisor[0], divisor[1], "asserted divisibility")
        else:
            ctx.eq(lhs[0], rhs[0], "assertion", ("the asserted value", "the value it must equal"))
        return
    if direction not in _RELATIONS:
        return
    low, sign = _RELATIONS[direction]
    diff = ctx.canon(add(lhs[0], mul(rhs[0], -1)) if sign > 0 else add(rhs[0], mul(lhs[0], -1)))
    if isinstance(diff, int):
        if diff < low:
            raise ContradictionError(
                where=ctx.where(),
                found=f"the assertion always fails: {message}",
                expected="a condition that can hold",
                fix="call the function with shapes that satisfy it, or re-export it",
            )
    elif not ctx.facts.prove_ge(diff, low):
        assume_at_least(ctx, diff, low, "assertion")


def assume_at_least(ctx: OpContext, d: Dim, low: int, rule: str) -> None:
    """The fact ``d >= low``; ``s + k >= low`` and ``k - s >= low`` bound the symbol ``s`` itself."""
    from symshape.algebra.expr import Expr, as_symbol

    if isinstance(d, Expr):
        const = sum(c for mono, c in d.terms if not mono)
        rest = ctx.canon(add(d, -const))
        for sign in (1, -1):
            name = as_symbol(rest if sign == 1 else mul(rest, -1))
            if name is not None:
                bound = low - const
                s = ctx.canon(rest if sign == 1 else mul(rest, -1))
                if sign == 1:
                    ctx.assume_range(s, bound, None, rule)
                else:
                    ctx.assume_range(s, None, -bound, rule)
                return
    ctx.assume_range(d, low, None, rule)


def _mod_zero(a: Dim, b: Dim) -> tuple[Dim, int] | None:
    """``Mod(x, k) == 0`` (either side) -> ``(x, k)``."""
    from symshape.algebra.expr import Expr, ModAtom

    for x, zero in ((a, b), (b, a)):
        if zero == 0 and isinstance(x, Expr) and len(x.terms) == 1:
            mono, coeff = x.terms[0]
            atom = mono[0] if len(mono) == 1 else None
            if coeff == 1 and isinstance(atom, ModAtom) and isinstance(atom.den, int):
                return atom.num, atom.den
    return None
