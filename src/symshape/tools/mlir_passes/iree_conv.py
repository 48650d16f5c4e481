"""Convolutions with dynamic spatial dims as the ``tensor`` + ``linalg`` ops IREE 3.13 lowers.

IREE lowers neither ``dynamic_conv`` (jax's form when the padding is computed from the sizes:
``SAME`` with a stride) nor a ``convolution`` whose spatial dims are ``?``: the upstream converter
(`NormalConvolutionOpConversion`) needs static output spatial dims. What it lowers is the
convolution written out: ``tensor.pad`` of the input (its amounts read from the padding operand,
or static), ``tensor.empty`` of the result (its spatial sizes computed in ``index`` arithmetic,
``floor((padded - dilated window) / stride) + 1``), ``linalg.fill`` with zero and a
``linalg.generic`` whose indexing maps read the operands in their own layout (any
``dimension_numbers``, no transposes): input ``[..., o * stride + k * dilation, ...]``, kernel
``[..., k, ...]``, the kernel's spatial dims and input features reduced.

The loops are those of ``linalg.conv_2d_nhwc_hwcf`` (``b, o.., f`` then ``k.., c``) whatever the
layout. Timed with IREE 3.13 on llvm-cpu at 4x64x64x32 -> 64 features: the named op (where the
layout fits) ran 2-6x slower than this generic with dynamic sizes; for NCHW, operands transposed
to channels-last ran 1.3-2x slower, and loops in the output's own order 1.5x faster with
``--iree-llvmcpu-target-cpu=host`` but 6x slower with ``=generic``.

A convolution is rewritten only when every padding amount is proven non-negative (``tensor.pad``
cannot crop), ``feature_group_count``, ``batch_group_count`` and the input dilation are 1, no
window is reversed, the kernel's spatial dims are static, and the three element types are one
float or signless integer type. Any other stays as it is.
https://openxla.org/stablehlo/spec#convolution
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import Rewriter

from symshape.algebra.expr import Dim
from symshape.frontends.mlir.attributes import attr_of, attr_value, is_tensor
from symshape.rules.hlo.contract import conv_numbers
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import index_const
from symshape.tools.mlir_passes.iree_forms import function_ops, hlo_name, index_dim, replace_with
from symshape.tools.mlir_passes.optimize import int_list


@dataclass(frozen=True)
class _Conv:
    """What the rewrite needs of one convolution, the positions from its ``dimension_numbers``."""

    nums: dict[str, list[int]]
    strides: list[int]
    dilations: list[int]
    kernel: list[int]
    """The kernel's spatial sizes (static)."""
    pads: list[Dim]
    """``low_0, high_0, low_1, ...``: each proven >= 0, an int where it is a constant."""

    @property
    def spatial(self) -> int:
        """How many spatial dims."""
        return len(self.strides)

    def window(self, k: int) -> int:
        """The dilated window along spatial dim ``k``."""
        return (self.kernel[k] - 1) * self.dilations[k] + 1


def convolutions_as_linalg(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Rewrite every ``dynamic_conv``, and every ``convolution`` with a ``?`` spatial dim, as
    ``tensor.pad`` + ``tensor.empty`` + ``linalg.fill`` + ``linalg.generic`` (see the module
    docstring for which); how many."""
    count = 0
    for op in function_ops(fs, "convolution", "dynamic_conv"):
        conv = _plan(fs, op)
        if conv is not None:
            replace_with(fs, rewriter, op, _lower(fs, op, conv))
            count += 1
    return count


def _plan(fs: FunctionShapes, op: Operation) -> _Conv | None:
    """The convolution ``op`` is, when it is one the rewrite covers and needs; else None."""
    name = hlo_name(op)
    if name not in ("convolution", "dynamic_conv") or len(op.operands) != (3 if name == "dynamic_conv" else 2):
        return None
    x, w, res = op.operands[0].type, op.operands[1].type, op.results[0].type
    if not (is_tensor(x) and is_tensor(w) and is_tensor(res)) or _body_ops(res.get_element_type()) is None:
        return None
    if not x.get_element_type() == w.get_element_type() == res.get_element_type():
        return None
    try:
        nums = conv_numbers(attr_value(op, "dimension_numbers"))
    except (ValueError, KeyError):
        return None
    n = len(nums["input_spatial_dimensions"])
    if not n or x.get_num_dims() != n + 2 or w.get_num_dims() != n + 2 or res.get_num_dims() != n + 2:
        return None
    spatial = [x.get_shape()[a] for a in nums["input_spatial_dimensions"]]
    spatial += [res.get_shape()[a] for a in nums["output_spatial_dimensions"]]
    if name == "convolution" and DYNAMIC_INDEX not in spatial:
        return None  # IREE lowers it as it is
    kernel = [w.get_shape()[a] for a in nums["kernel_spatial_dimensions"]]
    plain = all(_ints(op, key, [1]) == [1] for key in ("feature_group_count", "batch_group_count"))
    plain = plain and _ints(op, "lhs_dilation", [1] * n) == [1] * n and not any(_ints(op, "window_reversal", []) or [])
    strides, dilations = _ints(op, "window_strides", [1] * n), _ints(op, "rhs_dilation", [1] * n)
    if not plain or DYNAMIC_INDEX in kernel or strides is None or dilations is None:
        return None
    pads = small_tensor_elements(fs, op.operands[2]) if name == "dynamic_conv" else _ints(op, "padding", [0] * 2 * n)
    if pads is None or len(pads) != 2 * n or len(strides) != n or len(dilations) != n:
        return None
    if not all(fs.prove(p, ">=", 0) is True for p in pads) or min(*strides, *dilations) < 1:
        return None
    return _Conv(nums, strides, dilations, kernel, list(pads))


def _ints(op: Operation, name: str, default: list[int]) -> list[int] | None:
    """An integer or integer-list attribute (``array<i64: ...>``, ``dense<...>``), ``default``
    when absent, None when unreadable."""
    attr = attr_of(op, name)
    if attr is None:
        return default
    if isinstance(attr, IntegerAttr):
        return [attr.value.data]
    return int_list(attr)


def small_tensor_elements(fs: FunctionShapes, value: SSAValue) -> tuple[Dim, ...] | None:
    """The elements of a small integer tensor in row-major order: tracked by the analysis (1-D),
    or read through the ``concatenate``s (along dim 0), ``reshape``s and ``convert``s jax builds
    the ``n x 2`` padding with, down to tracked or constant tensors."""
    known = fs.elements.get(value)
    if known is not None:
        return known
    op = value.owner
    if not isinstance(op, Operation):
        return None
    name = hlo_name(op)
    if name == "constant":
        found = int_list(attr_of(op, "value"))
        return None if found is None else tuple(found)
    if name in ("reshape", "convert") and len(op.operands) == 1:
        return small_tensor_elements(fs, op.operands[0])
    if name == "concatenate" and _ints(op, "dimension", [0]) == [0]:
        parts = [small_tensor_elements(fs, v) for v in op.operands]
        return None if any(p is None for p in parts) else tuple(d for p in parts if p is not None for d in p)
    return None


_Binary = Callable[[SSAValue, SSAValue], Operation]


def _body_ops(element: Attribute) -> tuple[_Binary, _Binary] | None:
    """The multiply and add of the body (arith's, by element type), or None for another type."""
    if isinstance(element, AnyFloat):
        return arith.MulfOp, arith.AddfOp
    if re.fullmatch(r"i\d+", str(element)):  # i32, not si32/ui32
        return arith.MuliOp, arith.AddiOp
    return None


def _lower(fs: FunctionShapes, op: Operation, conv: _Conv) -> list[Operation]:
    """The ops that replace ``op`` (the last one gives its result)."""
    x, w, res = op.operands[0], op.operands[1], op.results[0]
    assert is_tensor(res.type)
    nums = conv.nums
    element = res.type.get_element_type()
    ops: list[Operation] = []
    zero = _zero(element, ops)
    padded = _pad(x, op.operands[2] if len(op.operands) == 3 else None, conv, zero, ops)
    sizes: list[SSAValue] = []
    out_dims = fs.dims(res)
    for axis, size in enumerate(res.type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        if axis == nums["output_batch_dimension"][0]:
            sizes.append(index_dim(x, nums["input_batch_dimension"][0], ops))
        elif axis == nums["output_feature_dimension"][0]:
            sizes.append(index_dim(w, nums["kernel_output_feature_dimension"][0], ops))
        else:
            k = nums["output_spatial_dimensions"].index(axis)
            fits = out_dims is not None and fs.prove(out_dims[axis], ">=", 1) is True
            sizes.append(_windows(padded, conv, k, fits, ops))
    empty = tensor.EmptyOp(sizes, res.type)
    fill = FillOp([zero], [empty.tensor], [res.type])
    ops += [empty, fill, _generic(padded, w, fill.results[0], conv)]
    return ops


def _zero(element: Attribute, into: list[Operation]) -> SSAValue:
    """``arith.constant 0`` of the element type (the padding value and the initial sum)."""
    value = FloatAttr(0.0, element) if isinstance(element, AnyFloat) else IntegerAttr(0, cast(IntegerType, element))
    const = arith.ConstantOp(value)
    into.append(const)
    return const.result


def _pad(x: SSAValue, padding: SSAValue | None, conv: _Conv, zero: SSAValue, into: list[Operation]) -> SSAValue:
    """The channels-last input ``x`` padded with zeros by the amounts of ``conv`` (``x`` itself
    when they are all 0); a non-constant amount is read from the ``padding`` operand."""
    t = x.type
    assert is_tensor(t)
    if all(p == 0 for p in conv.pads):
        return x
    rank = t.get_num_dims()
    static: list[list[int]] = [[0] * rank, [0] * rank]
    dynamic: list[list[SSAValue]] = [[], []]
    shape = list(t.get_shape())
    for k, axis in enumerate(conv.nums["input_spatial_dimensions"]):
        for side in (0, 1):
            amount = conv.pads[2 * k + side]
            if isinstance(amount, int):
                static[side][axis] = amount
                if shape[axis] != DYNAMIC_INDEX:
                    shape[axis] += amount
                continue
            assert padding is not None
            static[side][axis] = DYNAMIC_INDEX
            shape[axis] = DYNAMIC_INDEX
            dynamic[side].append(read_amount(padding, k, side, into))
    block = Block(arg_types=[IndexType()] * rank)
    block.add_op(tensor.YieldOp(zero))
    pad = tensor.PadOp(x, dynamic[0], dynamic[1], Region(block), static[0], static[1],
                       TensorType(t.get_element_type(), shape))
    into.append(pad)
    return pad.result


def read_amount(padding: SSAValue, k: int, side: int, into: list[Operation]) -> SSAValue:
    """``padding[k, side]`` (an integer tensor) as an index."""
    t = padding.type
    assert is_tensor(t)
    row = index_const(k)
    col = index_const(side)
    item = tensor.ExtractOp(padding, [row.result, col.result], t.get_element_type())
    index = arith.IndexCastOp(item.result, IndexType())
    into += [row, col, item, index]
    return index.result


def _windows(padded: SSAValue, conv: _Conv, k: int, fits: bool, into: list[Operation]) -> SSAValue:
    """``floor((padded - window) / stride) + 1`` along spatial dim ``k``, at least 0 (the
    ``max`` left out when ``fits``: the analysis proves the result dim >= 1)."""
    size = index_dim(padded, conv.nums["input_spatial_dimensions"][k], into)
    window = index_const(conv.window(k))
    one = index_const(1)
    span = arith.SubiOp(size, window.result)
    into += [window, one, span]
    value: SSAValue = span.result
    if conv.strides[k] != 1:
        stride = index_const(conv.strides[k])
        steps = arith.FloorDivSIOp(value, stride.result)
        into += [stride, steps]
        value = steps.result
    count = arith.AddiOp(value, one.result)
    into.append(count)
    if fits:
        return count.result
    zero = index_const(0)
    at_least = arith.MaxSIOp(count.result, zero.result)
    into += [zero, at_least]
    return at_least.result


def _generic(x: SSAValue, w: SSAValue, init: SSAValue, conv: _Conv) -> GenericOp:
    """``init[b, o.., f] += x[b, o * stride + k * dilation.., c] * w[k.., c, f]`` over the loops
    ``b, o.., f`` then the reduced ``k.., c`` (the loops of ``linalg.conv_2d_nhwc_hwcf``), each
    operand indexed in its own layout."""
    t = init.type
    assert is_tensor(t)
    nums, n = conv.nums, conv.spatial
    loops = 2 * n + 3
    d = [AffineExpr.dimension(i) for i in range(loops)]
    out, window, channel = d[1 : n + 1], d[n + 2 : 2 * n + 2], d[2 * n + 2]
    moved = [o * s + k * dil for o, k, s, dil in zip(out, window, conv.strides, conv.dilations, strict=True)]
    reads = [
        _placed({**_at(nums, "input_batch_dimension", [d[0]]), **_at(nums, "input_spatial_dimensions", moved),
                 **_at(nums, "input_feature_dimension", [channel])}),
        _placed({**_at(nums, "kernel_spatial_dimensions", window), **_at(nums, "kernel_input_feature_dimension",
                 [channel]), **_at(nums, "kernel_output_feature_dimension", [d[n + 1]])}),
        _placed({**_at(nums, "output_batch_dimension", [d[0]]), **_at(nums, "output_spatial_dimensions", out),
                 **_at(nums, "output_feature_dimension", [d[n + 1]])}),
    ]
    maps = [AffineMapAttr(AffineMap(loops, 0, r)) for r in reads]
    iterators = [IteratorTypeAttr.parallel()] * (n + 2) + [IteratorTypeAttr.reduction()] * (n + 1)
    element = t.get_element_type()
    block = Block(arg_types=[element] * 3)
    body = _body_ops(element)
    assert body is not None
    product = body[0](block.args[0], block.args[1])
    total = body[1](block.args[2], product.results[0])
    block.add_ops([product, total, YieldOp(total.results[0])])
    return GenericOp([x, w], [init], Region(block), maps, iterators, [t])


def _at(nums: dict[str, list[int]], field: str, exprs: list[AffineExpr]) -> dict[int, AffineExpr]:
    """The positions ``nums[field]`` names, each with its expression."""
    return dict(zip(nums[field], exprs, strict=True))


def _placed(by_axis: dict[int, AffineExpr]) -> tuple[AffineExpr, ...]:
    """The expressions in the order of their axes."""
    return tuple(by_axis[a] for a in range(len(by_axis)))
