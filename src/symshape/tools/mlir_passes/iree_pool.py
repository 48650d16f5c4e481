"""Pooling with padding computed from the sizes, in a form IREE 3.13 lowers.

jax writes a SAME max pool over dynamic spatial dims as ``custom_call
@stablehlo.dynamic_reduce_window(x, init, window, strides, base_dilations, window_dilations,
padding)``, which IREE cannot legalize; a ``reduce_window`` with static attributes over dynamic
dims it lowers (a VALID pool). The spec pads a reduce_window's input with its init value
(https://openxla.org/stablehlo/spec#reduce_window), so ``tensor.pad`` with the init value and a
``reduce_window`` without padding compute the same windows: the rewrite is exact wherever the
window, strides and dilations are constants and every padding amount is proven non-negative.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DenseArrayBase, IndexType, ModuleOp, SymbolRefAttr, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from symshape.frontends.mlir.attributes import attr_of, attr_value, is_tensor
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import op_name
from symshape.tools.mlir_passes.iree_conv import read_amount, small_tensor_elements
from symshape.tools.mlir_passes.iree_forms import replace_with, walk_function
from symshape.tools.mlir_passes.static_reshape import hlo_class

TARGET = "stablehlo.dynamic_reduce_window"


def dynamic_reduce_windows(fs: FunctionShapes, module: ModuleOp, rewriter: Rewriter) -> int:
    """Rewrite each one-input ``dynamic_reduce_window`` call as ``tensor.pad`` + ``reduce_window``
    where the facts allow (see the module); how many."""
    reducers: dict[str, func.FuncOp] | None = None  # a walk of the whole module: only when needed
    count = 0
    ops, names = fs.walked or walk_function(fs)
    for op in [op for op, name in zip(ops, names, strict=True) if name.endswith(".custom_call")]:
        if attr_value(op, "call_target_name") != TARGET:
            continue
        if reducers is None:
            reducers = {f.sym_name.data: f for f in module.walk() if isinstance(f, func.FuncOp)}
        plan = _plan(fs, op, reducers)
        if plan is not None:
            replace_with(fs, rewriter, op, _lower(op, *plan))
            count += 1
    return count


def _plan(
    fs: FunctionShapes, op: Operation, reducers: dict[str, func.FuncOp]
) -> tuple[list[int], list[int], list[int | None], func.FuncOp] | None:
    """(window, strides, padding amounts with None where read at run time, the reducer)."""
    if len(op.operands) != 7 or len(op.results) != 1 or not is_tensor(op.operands[0].type):
        return None
    called = attr_of(op, "called_computations")
    refs: list[Attribute] = list(cast("ArrayAttr[Attribute]", called).data) if isinstance(called, ArrayAttr) else []
    if len(refs) != 1 or not isinstance(refs[0], SymbolRefAttr):
        return None
    reducer = reducers.get(refs[0].root_reference.data)
    consts = [small_tensor_elements(fs, v) for v in op.operands[2:6]]
    pads = small_tensor_elements(fs, op.operands[6])
    rank = op.operands[0].type.get_num_dims()
    if reducer is None or pads is None or len(pads) != 2 * rank:
        return None
    ints = [[v for v in c if isinstance(v, int)] for c in consts if c is not None]
    if len(ints) != 4 or any(len(c) != rank for c in ints):
        return None  # a window, stride or dilation not a constant
    window, strides, base, dilation = ints
    if any(v != 1 for v in (*base, *dilation)) or not all(fs.prove(p, ">=", 0) is True for p in pads):
        return None
    return window, strides, [p if isinstance(p, int) else None for p in pads], reducer


def _lower(op: Operation, window: list[int], strides: list[int], pads: list[int | None],
           reducer: func.FuncOp) -> list[Operation]:
    """The init read as a scalar, the pad, and the ``reduce_window`` (the last)."""
    x, init, padding = op.operands[0], op.operands[1], op.operands[6]
    t, init_t = x.type, init.type
    assert is_tensor(t) and is_tensor(init_t)
    ops: list[Operation] = [value := tensor.ExtractOp(init, [], init_t.get_element_type())]
    static: list[list[int]] = [[], []]
    dynamic: list[list[SSAValue]] = [[], []]
    for k in range(t.get_num_dims()):
        for side in (0, 1):
            amount = pads[2 * k + side]
            static[side].append(DYNAMIC_INDEX if amount is None else amount)
            if amount is None:
                dynamic[side].append(read_amount(padding, k, side, ops))
    shape = [DYNAMIC_INDEX if DYNAMIC_INDEX in (d, lo, hi) else d + lo + hi
             for d, lo, hi in zip(t.get_shape(), static[0], static[1], strict=True)]
    block = Block(arg_types=[IndexType()] * t.get_num_dims())
    block.add_op(tensor.YieldOp(value.result))
    pad = tensor.PadOp(x, dynamic[0], dynamic[1], Region(block), static[0], static[1],
                       type(t)(t.get_element_type(), shape))
    dialect = op_name(op).partition(".")[0]
    reduce_window, ret = hlo_class(dialect, "reduce_window"), hlo_class(dialect, "return")
    assert reduce_window is not None and ret is not None
    body = reducer.body.clone()
    for old in [o for o in body.walk() if isinstance(o, func.ReturnOp)]:
        Rewriter.replace_op(old, ret.create(operands=list(old.operands)))
    pooled = reduce_window.create(
        operands=[pad.result, init], result_types=[op.results[0].type], regions=[body],
        attributes={"window_dimensions": DenseArrayBase.from_list(i64, window),
                    "window_strides": DenseArrayBase.from_list(i64, strides)},
    )
    return [*ops, pad, pooled]
