"""Elementwise aten ops, comparisons, casts, tensor factories and SymInt arithmetic.

Integer arithmetic that ONNX spells the same way (``add``, ``mul``, ``sub``, the comparisons,
``where``, Python's ``%``) becomes the ONNX op, so tracked shape values flow through it; true
division, powers and the float-only functions keep their aten name (`symshape.rules.aten`).
"""

from __future__ import annotations

from typing import Any

from symshape.frontends.fx.call import Call, as_list, translates
from symshape.frontends.fx.emit import fill_value
from symshape.rules.aten.names import BROADCAST, SAME_SHAPE

_IDENTITY = ("contiguous", "clone", "detach", "alias", "lift_fresh_copy")


@translates(*(f"aten.{op}" for op in SAME_SHAPE))
def _same_shape(call: Call) -> str | list[str]:
    """The output has input 0's shape (float functions, norms, dropout in eval, ``*_like``); the
    extra outputs of the ``native_*`` forms (saved statistics) have rules or their meta types."""
    meta = call.meta()
    if not isinstance(meta, (list, tuple)):
        return call.aten([call.args[0]])[0]
    attrs = {"axis": call.rank(0) - len(call.int_list(1, "normalized_shape"))} if "layer_norm" in call.key else {}
    if "group_norm" in call.key:
        attrs = {"group": int(call.args[6])}
    outs = call.aten([call.args[0]], attrs, outputs=len(as_list(meta)))
    call.declare_from_meta(outs)
    return outs


@translates(*(f"aten.{op}" for op in BROADCAST))
def _broadcast_float(call: Call) -> str:
    """Broadcasting ops whose values are not tracked (true division, powers)."""
    dtype = call.dtype()
    return call.aten([_operand(call, a, dtype) for a in call.args[:2]])[0]


@translates(*(f"aten.{op}.{o}" for op in _IDENTITY for o in ("default", "memory_format")))
def _identity(call: Call) -> str:
    return call.emit("Identity", [call.args[0]])


def _operand(call: Call, a: Any, dtype: str) -> str:
    return a if isinstance(a, str) else call.em.scalar(a, dtype)


def _binary(onnx_op: str) -> Any:
    def translate(call: Call) -> str:
        dtype = call.dtype(0) if isinstance(call.args[0], str) else call.dtype()
        alpha = call.kwargs.get("alpha", 1)
        a, b = (_operand(call, x, dtype) for x in call.args[:2])
        if alpha != 1:
            b = call.tmp("Mul", [b, call.em.scalar(alpha, dtype)])
        return call.emit(onnx_op, [a, b])

    return translate


def _tensor_overloads(op: str) -> tuple[str, ...]:
    overloads = ("Tensor", "Scalar", "other") if op in ("min", "max") else ("Tensor", "Scalar", "other", "default")
    return tuple(f"aten.{op}.{o}" for o in overloads)  # min/max.default reduce (`aten_nn`)


for _aten, _onnx in (("add", "Add"), ("add_", "Add"), ("sub", "Sub"), ("mul", "Mul"),
                     ("mul_", "Mul"), ("eq", "Equal"), ("lt", "Less"), ("le", "LessOrEqual"), ("gt", "Greater"),
                     ("ge", "GreaterOrEqual"), ("__and__", "And"), ("bitwise_and", "And"), ("logical_and", "And"),
                     ("__or__", "Or"), ("bitwise_or", "Or"), ("logical_or", "Or"), ("minimum", "Min"),
                     ("maximum", "Max"), ("min", "Min"), ("max", "Max")):
    translates(*_tensor_overloads(_aten))(_binary(_onnx))


@translates("aten.rsub.Scalar", "aten.rsub.Tensor")
def _rsub(call: Call) -> str:
    """``other - alpha * self``."""
    dtype = call.dtype(0)
    a, b = (_operand(call, x, dtype) for x in call.args[:2])
    alpha = call.kwargs.get("alpha", 1)
    if alpha != 1:
        a = call.tmp("Mul", [a, call.em.scalar(alpha, dtype)])
    return call.emit("Sub", [b, a])


@translates("aten.ne.Scalar", "aten.ne.Tensor")
def _not_equal(call: Call) -> str:
    dtype = call.dtype(0)
    a, b = (_operand(call, x, dtype) for x in call.args[:2])
    return call.emit("Not", [call.tmp("Equal", [a, b])])


@translates("aten.where.self", "aten.where.ScalarOther", "aten.where.ScalarSelf", "aten.where.Scalar")
def _where(call: Call) -> str:
    dtype = call.dtype()
    cond, a, b = call.args[:3]
    return call.emit("Where", [cond, _operand(call, a, dtype), _operand(call, b, dtype)])


@translates("aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
def _masked_fill(call: Call) -> str:
    """``where(mask, value, self)``: torch requires the mask to broadcast to self's shape."""
    x, mask, value = call.args[:3]
    return call.emit("Where", [mask, _operand(call, value, call.dtype(0)), x])


# --------------------------------------------------------------------------- casts
_ONNX_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6, "int64": 7, "bool": 9,
               "float16": 10, "float64": 11, "uint32": 12, "uint64": 13, "bfloat16": 16}


@translates("aten.to.dtype", "aten.to.dtype_layout", "aten.to.device", "aten._to_copy.default", "aten.to.other",
            "aten.type_as.default", "aten.float.default", "aten.long.default", "aten.int.default", "aten.bool.default")
def _cast(call: Call) -> str:
    """A cast to the output's element type (``Identity`` when it does not change)."""
    out = call.dtype()
    if out == call.dtype(0) or out not in _ONNX_TYPES:
        return call.emit("Identity", [call.args[0]])
    return call.emit("Cast", [call.args[0]], {"to": _ONNX_TYPES[out]})


# ------------------------------------------------------------------------ factories
@translates("aten.arange.default", "aten.arange.start", "aten.arange.start_step")
def _arange(call: Call) -> str:
    """``Range(start, end, step)``: torch and ONNX both give ``max(ceil((end-start)/step), 0)``."""
    nums = [a for a in call.args if not isinstance(a, (list, tuple))]
    start, end, step = (0, nums[0], 1) if len(nums) == 1 else (nums[0], nums[1], nums[2] if len(nums) > 2 else 1)
    dtype = call.dtype()
    return call.emit("Range", [call.em.scalar(v, dtype) for v in (start, end, step)])


@translates("aten.zeros.default", "aten.ones.default", "aten.full.default", "aten.empty.memory_format",
            "aten.new_zeros.default", "aten.new_ones.default", "aten.new_full.default", "aten.new_empty.default",
            "aten.rand.default", "aten.randn.default", "aten.scalar_tensor.default")
def _factory(call: Call) -> str:
    """``ConstantOfShape`` of the size list (the fill value matters only for integer tensors)."""
    target = str(call.node.target)
    new = ".new_" in target
    sizes = [] if "scalar_tensor" in target else call.int_list(1 if new else 0, "size")
    fill: Any = 0
    if ".ones." in target or "new_ones" in target:
        fill = 1
    elif "full" in target:
        fill = call.arg(2 if new else 1, "fill_value", 0)
    elif "scalar_tensor" in target:
        fill = call.args[0]
    dtype = call.dtype()
    if not isinstance(fill, (int, float, bool)):
        fill = 0
    return call.emit("ConstantOfShape", [call.em.vector(sizes, call.name)], {"value": fill_value(fill, dtype)})


# ----------------------------------------------------------------- SymInt arithmetic
_SYM_BINARY = {"operator.add": "Add", "operator.sub": "Sub", "operator.mul": "Mul", "operator.mod": "Mod",
               "operator.eq": "Equal", "operator.lt": "Less", "operator.le": "LessOrEqual",
               "operator.gt": "Greater", "operator.ge": "GreaterOrEqual", "torch.sym_max": "Max",
               "torch.sym_min": "Min", "operator.and_": "And", "operator.or_": "Or"}


@translates(*_SYM_BINARY)
def _sym_binary(call: Call) -> str:
    """Python arithmetic on SymInts; ``%`` is ONNX ``Mod`` with ``fmod=0`` (Python's sign rule)."""
    a, b = (call.em.scalar(x) for x in call.args[:2])
    return call.emit(_SYM_BINARY[call.key], [a, b])


@translates("operator.floordiv")
def _sym_floordiv(call: Call) -> str:
    """Python's ``//`` (floor division): its aten rule (ONNX ``Div`` truncates)."""
    return call.aten([call.em.scalar(x) for x in call.args[:2]])[0]


@translates("operator.truediv", "torch.sym_float", "math.sqrt", "torch._sym_sqrt", "operator.pow")
def _sym_float(call: Call) -> str:
    """Float arithmetic on SymInts (``4 / (s // 8)``): a 0-d value whose value is not tracked."""
    return call.aten([call.em.scalar(x) for x in call.args if isinstance(x, (str, int))])[0]


@translates("operator.neg")
def _sym_neg(call: Call) -> str:
    return call.emit("Neg", [call.em.scalar(call.args[0])])
