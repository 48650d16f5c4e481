"""The checks of a module in a form IREE 3.13 compiles and runs: the ``shape`` dialect's constraints
(torch-mlir wraps each broadcasting op in ``shape.cstr_broadcastable`` + ``shape.assuming``) and
jax's ``shape_assertion`` calls.

IREE compiles a ``custom_call @shape_assertion`` and never runs it: a module jax exported for
``s <= 64`` runs at ``s = 70`` and returns what the out-of-range gathers clamp to. Each becomes a
``cf.assert`` of its condition with jax's message, which IREE checks at run time
(`shape_assertions_as_asserts`).

IREE's input conversion leaves ``shape.cstr_*`` and ``shape.assuming`` illegal. A constraint the
analysis proves becomes ``shape.const_witness true``; then every ``assuming`` region is inlined
and every remaining witness becomes a ``cf.assert`` with its message
(`symshape.tools.mlir_passes.shape_lower_cstr_to_assert`): what is not proven is still checked at
run time, never dropped.
"""

from __future__ import annotations

from itertools import zip_longest

from xdsl.dialects import cf, func, tensor
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.rewriter import Rewriter

from symshape.algebra.expr import Dim
from symshape.frontends.mlir.attributes import attr_value, is_tensor
from symshape.ir.dialects.shape import AssumingOp, ConstWitnessOp, CstrBroadcastableOp, CstrEqOp
from symshape.memory import OfKind
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import nested_ops, op_name
from symshape.tools.mlir_passes.iree_forms import function_ops
from symshape.tools.mlir_passes.shape_lower_cstr_to_assert import lower_to_asserts
from symshape.tools.mlir_passes.shape_lower_meet import WITNESS_OPS

_IS_CSTR = OfKind(CstrBroadcastableOp, CstrEqOp)


def proven_witnesses(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Replace each ``cstr_broadcastable`` / ``cstr_eq`` of extent tensors the analysis proves
    broadcastable / equal by ``shape.const_witness true``; how many."""
    count = 0
    for op in function_ops(fs):
        if not _IS_CSTR(op):
            continue
        shapes = [fs.elements.get(v) for v in op.operands]
        if any(s is None for s in shapes) or len(shapes) != 2:
            continue
        a, b = shapes
        assert a is not None and b is not None
        holds = _equal(fs, a, b) if isinstance(op, CstrEqOp) else _broadcastable(fs, a, b)
        if holds:
            true = ConstWitnessOp.create(result_types=[op.results[0].type],
                                         attributes={"passing": IntegerAttr(1, i1)})
            rewriter.replace_op(op, true)
            count += 1
    return count


def _equal(fs: FunctionShapes, a: tuple[Dim, ...], b: tuple[Dim, ...]) -> bool:
    return len(a) == len(b) and all(fs.prove(x, "==", y) is True for x, y in zip(a, b, strict=True))


def _broadcastable(fs: FunctionShapes, a: tuple[Dim, ...], b: tuple[Dim, ...]) -> bool:
    """Every trailing-aligned pair equal, or one of them 1 (numpy's rule, the op's)."""
    return all(
        x is None or y is None or any(fs.prove(p, "==", q) is True for p, q in ((x, y), (x, 1), (y, 1)))
        for x, y in zip_longest(reversed(a), reversed(b))
    )


def lower_constraints(module: ModuleOp) -> None:
    """Inline the ``assuming`` regions and assert the witnesses left, in the functions that have any."""
    constraint = OfKind(*WITNESS_OPS, AssumingOp)
    for fn in module.ops:
        if isinstance(fn, func.FuncOp) and any(constraint(o) for o in nested_ops(fn)):
            lower_to_asserts(fn)


def shape_assertions_as_asserts(module: ModuleOp) -> int:
    """Each ``custom_call @shape_assertion(%ok, ...)`` as ``cf.assert`` of ``%ok`` with jax's
    ``error_message`` (its ``{k}`` placeholders name the sizes jax would print); how many."""
    count = 0
    for op in [o for o in nested_ops(module) if op_name(o).endswith(".custom_call")]:
        target, message = attr_value(op, "call_target_name"), attr_value(op, "error_message")
        if target != "shape_assertion" or not op.operands or op.results:
            continue
        ok = op.operands[0]
        if not is_tensor(ok.type) or ok.type.get_num_dims() != 0:
            continue
        flag = tensor.ExtractOp(ok, [], ok.type.get_element_type())
        Rewriter.replace_op(op, [flag, cf.AssertOp(flag.result, str(message or "shape assertion failed"))], [])
        count += 1
    return count
