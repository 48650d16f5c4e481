"""Run a shape function at concrete argument shapes: a small interpreter for seed 003's forms.

`evaluate` runs a function of ``shape-functions`` (meet, cstr or assert form, before or after
``shape-canonicalize-constraints``) on argument shapes and says whether it accepts them, the
message of the first failing check when not, and the result shapes when it does. In the
constrained form a witness fails the function only when an ``assuming`` needs it, as in MLIR;
in the asserting form a ``cf.assert`` fails it. The tests use it as the reference semantics of
the forms (against numpy's broadcasting and matmul rules, and IREE's runtime for the assert form).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, cf, func, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, ShapedType, StringAttr, UnregisteredOp
from xdsl.ir import Block, Operation, SSAValue

from symshape.errors import ModelError, where_op
from symshape.ir.dialects.shape import (
    AssumingAllOp,
    AssumingOp,
    AssumingYieldOp,
    BroadcastOp,
    ConstShapeOp,
    ConstWitnessOp,
    CstrBroadcastableOp,
    CstrEqOp,
    CstrRequireOp,
    MeetOp,
    ShapeOfOp,
    message_of,
)
from symshape.ir.dialects.upstream import IndexCastOp


@dataclass(frozen=True)
class Tensor:
    """An argument tensor: only its shape matters to a shape function."""

    shape: tuple[int, ...]


@dataclass(frozen=True)
class Witness:
    """The outcome of a constraint, and its message."""

    ok: bool
    message: str = ""


Value = int | bool | tuple[int, ...] | Tensor | Witness


@dataclass(frozen=True)
class Outcome:
    """Accepted with ``results`` (the result shapes), or rejected with the failing ``message``."""

    accepted: bool
    message: str = ""
    results: tuple[tuple[int, ...], ...] = ()


class Rejected(Exception):
    """A check failed (internal: `evaluate` returns it as an `Outcome`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def evaluate(fn: func.FuncOp, args: Sequence[tuple[int, ...] | int]) -> Outcome:
    """Run ``fn`` with a shape per tensor argument (an int per index argument)."""
    block = fn.body.blocks.first
    assert block is not None
    env: dict[SSAValue, Value] = {}
    for arg, given in zip(block.args, args, strict=True):
        env[arg] = Tensor(tuple(given)) if isinstance(arg.type, ShapedType) and not isinstance(given, int) else given
    try:
        results = run_block(block, env)
    except Rejected as failed:
        return Outcome(False, failed.message)
    return Outcome(True, "", tuple(_extents(v) for v in results))


def run_block(block: Block, env: dict[SSAValue, Value]) -> list[Value]:
    """Run the ops of ``block``; the values its terminator passes on."""
    for op in block.ops:
        if isinstance(op, (func.ReturnOp, AssumingYieldOp)):
            return [env[v] for v in op.operands]
        if isinstance(op, AssumingOp):
            witness = env[op.operands[0]]
            if isinstance(witness, Witness) and not witness.ok:
                raise Rejected(witness.message)
            body = op.regions[0].blocks.first
            assert body is not None
            for result, value in zip(op.results, run_block(body, env), strict=True):
                env[result] = value
            continue
        step = _STEPS.get(type(op))
        if step is None:
            name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
            dialect, _, op_type = name.partition(".")
            raise ModelError(
                where=where_op(dialect, op_type, fn_name(block)),
                found="an op the shape-function evaluator does not run",
                expected="arith, tensor.dim/from_elements/extract, shape constraint ops, cf.assert",
                fix="evaluate a function made by shape-functions",
            )
        out = step(op, [env[v] for v in op.operands])
        if op.results:
            env[op.results[0]] = out
    return []


def fn_name(block: Block) -> str:
    """``@f`` for the function whose body (or region of it) ``block`` is."""
    op = block.parent_op()
    while op is not None and not isinstance(op, func.FuncOp):
        op = op.parent_op()
    return f"@{op.sym_name.data}" if op is not None else ""


def _extents(value: Value) -> tuple[int, ...]:
    return value if isinstance(value, tuple) else ()


def _int(value: Value) -> int:
    assert isinstance(value, int), value
    return value


def broadcast(shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...] | None:
    """Numpy's broadcast of ``shapes``, None when they do not broadcast."""
    rank = max((len(s) for s in shapes), default=0)
    out: list[int] = []
    for axis in range(rank, 0, -1):
        dims = {s[-axis] for s in shapes if len(s) >= axis} - {1}
        if len(dims) > 1:
            return None
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def _constant(op: Operation, _: list[Value]) -> Value:
    attr = op.attributes.get("value") or op.properties.get("value")
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def _meet(op: Operation, ins: list[Value]) -> Value:
    if ins[0] != ins[1]:
        raise Rejected((message_of(op) if isinstance(op, MeetOp) else "") or "shape.meet failed")
    return ins[0]


def _broadcast(op: Operation, ins: list[Value]) -> Value:
    out = broadcast([_extents(v) for v in ins])
    if out is None:
        raise Rejected((message_of(op) if isinstance(op, BroadcastOp) else "") or "shape.broadcast failed")
    return out


def _cstr(ok: Callable[[list[Value]], bool]) -> Callable[[Operation, list[Value]], Value]:
    def step(op: Operation, ins: list[Value]) -> Value:
        key = "msg" if isinstance(op, CstrRequireOp) else "error"
        text = message_of(op, key) if isinstance(op, (CstrEqOp, CstrBroadcastableOp, CstrRequireOp)) else ""
        return Witness(ok(ins), text or f"{op.name} failed")

    return step


def _all(_: Operation, ins: list[Value]) -> Value:
    failed = [w for w in ins if isinstance(w, Witness) and not w.ok]
    return failed[0] if failed else Witness(True)


def _assert(op: Operation, ins: list[Value]) -> Value:
    if not ins[0]:
        msg = op.attributes.get("msg") or op.properties.get("msg")
        raise Rejected(msg.data if isinstance(msg, StringAttr) else "cf.assert failed")
    return 0


def _const_shape(op: Operation, _: list[Value]) -> Value:
    attr = op.attributes.get("shape")
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return tuple(int(v) for v in attr.get_values())


def _shape_of(_: Operation, ins: list[Value]) -> Value:
    arg = ins[0]
    assert isinstance(arg, Tensor)
    return arg.shape


def _dim(_: Operation, ins: list[Value]) -> Value:
    arg = ins[0]
    assert isinstance(arg, Tensor)
    return arg.shape[_int(ins[1])]


def _extract(_: Operation, ins: list[Value]) -> Value:
    return _extents(ins[0])[_int(ins[1])] if len(ins) > 1 else ins[0]


def _divide(fn: Callable[[int, int], int]) -> Callable[[Operation, list[Value]], Value]:
    def step(_: Operation, ins: list[Value]) -> Value:
        if _int(ins[1]) == 0:
            raise Rejected("division by zero")
        return fn(_int(ins[0]), _int(ins[1]))

    return step


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


_PREDICATES: dict[int, Callable[[int, int], bool]] = {
    0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b,
    3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
}  # fmt: skip


def _cmpi(op: Operation, ins: list[Value]) -> Value:
    assert isinstance(op, arith.CmpiOp)
    return _PREDICATES[op.predicate.value.data](_int(ins[0]), _int(ins[1]))


def _binary(fn: Callable[[int, int], int]) -> Callable[[Operation, list[Value]], Value]:
    return lambda _, ins: fn(_int(ins[0]), _int(ins[1]))


_STEPS: dict[type[Operation], Callable[[Operation, list[Value]], Value]] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: _binary(lambda a, b: a + b),
    arith.SubiOp: _binary(lambda a, b: a - b),
    arith.MuliOp: _binary(lambda a, b: a * b),
    arith.MaxSIOp: _binary(max),
    arith.MinSIOp: _binary(min),
    arith.AndIOp: _binary(lambda a, b: int(bool(a) and bool(b))),
    arith.OrIOp: _binary(lambda a, b: int(bool(a) or bool(b))),
    arith.FloorDivSIOp: _divide(lambda a, b: a // b),
    arith.CeilDivSIOp: _divide(lambda a, b: -(-a // b)),
    arith.DivSIOp: _divide(_trunc_div),
    arith.RemSIOp: _divide(lambda a, b: a - b * _trunc_div(a, b)),
    arith.DivUIOp: _divide(lambda a, b: a // b),  # index values of dims: never negative
    arith.RemUIOp: _divide(lambda a, b: a % b),
    arith.CmpiOp: _cmpi,
    arith.SelectOp: lambda _, ins: ins[1] if ins[0] else ins[2],
    arith.IndexCastOp: lambda _, ins: ins[0],
    IndexCastOp: lambda _, ins: ins[0],
    tensor.DimOp: _dim,
    tensor.FromElementsOp: lambda _, ins: tuple(_int(v) for v in ins),
    tensor.ExtractOp: _extract,
    ShapeOfOp: _shape_of,
    ConstShapeOp: _const_shape,
    MeetOp: _meet,
    BroadcastOp: _broadcast,
    CstrEqOp: _cstr(lambda ins: all(v == ins[0] for v in ins)),
    CstrBroadcastableOp: _cstr(lambda ins: broadcast([_extents(v) for v in ins]) is not None),
    CstrRequireOp: _cstr(lambda ins: bool(ins[0])),
    ConstWitnessOp: lambda op, _: Witness(isinstance(op, ConstWitnessOp) and op.passing, "const_witness false"),
    AssumingAllOp: _all,
    cf.AssertOp: _assert,
}
