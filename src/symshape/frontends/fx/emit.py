"""Build a `Program` from an FX graph: the values and ops an aten op becomes.

An aten op whose semantics an ONNX op shares becomes that op (``aten.view`` is ``Reshape`` with
``allowzero``, ``aten.embedding`` is ``Gather``), so the ONNX rules, tested against onnxruntime,
decide its dims; the others keep their aten name in the ``aten`` dialect (`symshape.rules.aten`).
A SymInt (``sym_size``, ``s0 // 2``) is a 0-d int64 value, and an int list argument mixing ints
and SymInts is the ``Concat`` of its elements, the form the ONNX exporters write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symshape.engine.program import ConstTensor, Op, Program, TensorType, Value

ATEN = "aten"
OPSET = 18  # the ONNX forms used: Reshape allowzero, Pad/Reduce axes as inputs, Split sizes input
INT64_MAX = 2**63 - 1

Scalar = int | float | bool
IntArg = Any  # an int, or the name of a 0-d int64 value (a SymInt)


class Emitter:
    """The program under construction, with helpers that name, share and type its values."""

    def __init__(self, name: str) -> None:
        self.program = Program(name, [], [], {}, [], {"": OPSET, ATEN: 1})
        self._consts: dict[tuple[Any, ...], str] = {}
        self._shapes: dict[str, str] = {}
        self._used: set[str] = set()

    # ------------------------------------------------------------------ values
    def fresh(self, base: str) -> str:
        """A value name not used yet, starting from ``base``."""
        name, k = base, 0
        while name in self._used or name in self.program.values:
            k += 1
            name = f"{base}.{k}"
        self._used.add(name)
        return name

    def declare(self, name: str, dtype: str, dims: Sequence[int | str | None] | None) -> None:
        """Give ``name`` its declared type (what the fallback of an op without a rule uses)."""
        self.program.value(name).type = TensorType(dtype, None if dims is None else tuple(dims))
        self._used.add(name)

    def const(self, values: Sequence[Scalar], dims: Sequence[int] | None = None, dtype: str = "int64") -> str:
        """A shared initializer holding ``values`` (1-D unless ``dims``; ``()`` for a scalar)."""
        shape = (len(values),) if dims is None else tuple(dims)
        key = (tuple(values), shape, dtype)
        if key not in self._consts:
            name = self.fresh(f"const_{dtype}_{'_'.join(str(v) for v in values[:4])}")
            floating = dtype.startswith(("float", "bfloat"))
            ints = None if floating else tuple(int(v) for v in values)
            floats = tuple(float(v) for v in values) if floating else None
            self.program.values[name] = Value(name, TensorType(dtype, shape), ints, True, floats)
            self._consts[key] = name
        return self._consts[key]

    def scalar(self, arg: IntArg | float, dtype: str = "int64") -> str:
        """A 0-d value for a Python number (of ``dtype``) or the value a SymInt node named."""
        if isinstance(arg, str):
            return arg
        if isinstance(arg, float) and not dtype.startswith(("float", "bfloat")):
            dtype = "float32"
        return self.const([arg], (), dtype)

    def vector(self, items: Sequence[IntArg], base: str) -> str:
        """A 1-D int64 value of ``items`` (ints and SymInt value names)."""
        if all(isinstance(i, int) for i in items):
            return self.const([int(i) for i in items])
        parts: list[str] = []
        for item in items:
            if isinstance(item, int):
                parts.append(self.const([item]))
            else:
                parts.append(self.int_op("Unsqueeze", [item, self.const([0])], base=f"{base}.unsqueeze"))
        return self.int_op("Concat", parts, {"axis": 0}, base=f"{base}.concat")

    def shape_of(self, tensor: str) -> str:
        """One shared ``Shape`` of ``tensor``."""
        if tensor not in self._shapes:
            self._shapes[tensor] = self.int_op("Shape", [tensor], base=f"{tensor}.shape")
        return self._shapes[tensor]

    def size_of(self, tensor: str, axis: int, base: str) -> str:
        """Dim ``axis`` of ``tensor`` as a 0-d int64 value."""
        return self.int_op("Gather", [self.shape_of(tensor), self.const([axis], ())], {"axis": 0}, base=base)

    def int_op(self, op_type: str, inputs: Sequence[str], attrs: dict[str, Any] | None = None, *, base: str) -> str:
        """An op making one int64 value (shape arithmetic)."""
        out = self.op(op_type, inputs, attrs, base=base)[0]
        self.declare(out, "int64", None)
        return out

    # --------------------------------------------------------------------- ops
    def op(
        self,
        op_type: str,
        inputs: Sequence[str],
        attrs: dict[str, Any] | None = None,
        *,
        base: str,
        outputs: Sequence[str] | None = None,
        dialect: str = "",
    ) -> list[str]:
        """Append an op; its outputs are ``outputs`` or one fresh name from ``base``."""
        outs = list(outputs) if outputs is not None else [self.fresh(base)]
        for o in outs:
            self._used.add(o)
            self.program.value(o)
        name = outs[0] if outs else self.fresh(base)
        version = OPSET if dialect == "" else 1
        self.program.ops.append(Op(dialect, op_type, name, list(inputs), outs, dict(attrs or {}), version))
        return outs


def fill_value(value: Scalar, dtype: str) -> ConstTensor:
    """ConstantOfShape's ``value`` attribute: one element of ``dtype``."""
    if dtype.startswith(("float", "bfloat")):
        return ConstTensor((1,), dtype, floats=(float(value),))
    return ConstTensor((1,), dtype, values=(int(value),))
