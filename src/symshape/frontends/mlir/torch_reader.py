# pyright: strict
"""torch-mlir's torch dialect, as ``torch_mlir.fx.export_and_import`` prints it, as Programs.

The module is parsed by MLIR bindings that register the torch dialect (IREE's), so the pretty
form reads as well as the generic one. Each function becomes the Program the torch.export
frontend would build: constants (``torch.constant.*``) and lists (``torch.prim.ListConstruct``)
are the Python arguments of the op that reads them, ``torch.vtensor.literal`` is an
initializer, and each ``torch.aten.*`` op goes through the same aten translators
(`symshape.frontends.fx.torch_ops`), so one table of aten semantics serves both inputs.

torch's own dims are facts: ``torch.symbolic_int "s77" {min_val = 1, max_val = 1024}`` is the
input symbol ``s77`` in ``[1, 1024]`` (a ``max_val`` of ``sys.maxsize - 1`` or more is torch's
"unbounded"), ``torch.bind_symbolic_shape`` of a function argument names its dims, and of any
other value states its dims (the ``torch.bind_symbolic_shape`` rule, `symshape.rules.aten.torch_mlir`).
"""

from __future__ import annotations

import sys
from typing import Any, cast

from symshape.algebra.expr import sym
from symshape.engine.program import MAX_TRACKED, ConstTensor, Op, TensorType
from symshape.engine.userfacts import Fact, Range
from symshape.frontends.fx.emit import Emitter
from symshape.frontends.fx.mlir_node import MlirNode, meta_of
from symshape.frontends.fx.torch_ops import aten_key, translate
from symshape.frontends.mlir.bindings_attributes import type_text
from symshape.frontends.mlir.ir_adapter import IRReader, entry_block
from symshape.frontends.mlir.program_builder import FuncView, symbol_stem
from symshape.frontends.mlir.torch_types import torch_type
from symshape.ir.torch_affine import AffineTree, affine_dim, affine_trees

__all__ = ["TORCH_UNBOUNDED", "torch_views"]

TORCH_UNBOUNDED = sys.maxsize - 1
_CONSTANTS = ("torch.constant.int", "torch.constant.float", "torch.constant.bool", "torch.constant.str",
              "torch.constant.device", "torch.constant.number")


def torch_views(ir: IRReader) -> list[FuncView]:
    """One `FuncView` per function with a body (torch-mlir prints one, ``@main``)."""
    views: list[FuncView] = []
    for op in ir.all_ops():
        if ir.op_name(op) == "func.func" and entry_block(ir, op) is not None:
            views.append(_Function(ir, str(ir.attr(op, "sym_name")), op).build())
    return views


def _is_tensor(value: Any) -> bool:
    return type_text(value.type).startswith(("!torch.vtensor", "!torch.tensor"))


def _type(value: Any) -> TensorType:
    text = type_text(value.type)
    return torch_type(text) or TensorType(text, None)


class _Function:
    """The Program of one function, built op by op."""

    def __init__(self, ir: IRReader, name: str, fn: Any) -> None:
        self.ir, self.name, self.fn = ir, name, fn
        self.em = Emitter(name)
        self.em.program.opset["torch"] = 1
        self.env: dict[Any, Any] = {}  # SSA value -> value name, number, list or None
        self.nodes: dict[Any, Any] = {}  # SSA value -> MlirNode (or a list of them)
        self.values: dict[str, Any] = {}
        self.symbols: dict[Any, str] = {}  # torch.symbolic_int result -> its symbol
        self.facts: list[Fact] = []
        self.unpacked: dict[Any, list[Any]] = {}  # a list value -> the results that unpack it

    def vname(self, value: Any) -> str:
        local = self.ir.local_name(value)
        name = self.em.fresh(f"@{self.name}:%{local}" if local else f"@{self.name}:%_v")
        self.values[name] = value
        return name

    def build(self) -> FuncView:
        block = entry_block(self.ir, self.fn)
        ops = list(self.ir.ops(block))
        for op in ops:
            if self.ir.op_name(op) == "torch.symbolic_int":
                self.symbolic_int(op)
            elif self.ir.op_name(op) == "torch.prim.ListUnpack" and self.ir.operands(op):
                self.unpacked[self.ir.operands(op)[0]] = list(self.ir.results(op))
        declared = self.argument_dims(ops, block)
        for arg in self.ir.block_args(block):
            self.argument(arg, declared.get(arg))
        for op in ops:
            self.emit(op, declared)
        return FuncView(self.name, self.fn, self.em.program, self.values, self.facts)

    # ------------------------------------------------------------------ inputs
    def symbolic_int(self, op: Any) -> None:
        label, lo, hi = (self.ir.attr(op, k) for k in ("symbol_name", "min_val", "max_val"))
        if not isinstance(label, str) or not label.isidentifier():
            return
        self.symbols[self.ir.results(op)[0]] = label
        low = lo if isinstance(lo, int) else None
        high = hi if isinstance(hi, int) and hi < TORCH_UNBOUNDED else None
        if low is not None or high is not None:
            self.facts.append(Range(label, low, high))

    def argument_dims(self, ops: list[Any], block: Any) -> dict[Any, tuple[int | str | None, ...]]:
        """Function argument -> its dims, from a ``torch.bind_symbolic_shape`` of it."""
        args = set(self.ir.block_args(block))
        out: dict[Any, tuple[int | str | None, ...]] = {}
        for op in ops:
            bound = self.binding(op)
            if bound is None or bound[0] not in args or bound[0] in out:
                continue
            value, symbols, trees = bound
            dims = [affine_dim(t, [sym(s) for s in symbols]) for t in trees]
            static = _type(value).dims
            if static is None or len(static) != len(dims) or any(d is None for d in dims):
                continue
            if all(s is None or s == d for s, d in zip(static, dims, strict=True)):
                out[value] = tuple(d if isinstance(d, int) else str(d) for d in dims)
        return out

    def binding(self, op: Any) -> tuple[Any, list[str], list[AffineTree]] | None:
        """A ``torch.bind_symbolic_shape``'s value, symbols and expressions (None if not one)."""
        if self.ir.op_name(op) != "torch.bind_symbolic_shape":
            return None
        operands = list(self.ir.operands(op))
        attrs = op.attributes
        trees = affine_trees(attrs["shape_expressions"]) if "shape_expressions" in attrs else None
        symbols = [self.symbols.get(s) for s in operands[1:]]
        if not operands or trees is None or any(s is None for s in symbols):
            return None
        return operands[0], [s for s in symbols if s is not None], trees

    def argument(self, arg: Any, declared: tuple[int | str | None, ...] | None) -> None:
        name = self.vname(arg)
        self.env[arg] = name
        t = _type(arg)
        program = self.em.program
        program.inputs.append(name)
        if _is_tensor(arg) and t.dims is not None:
            stem = symbol_stem(name)
            dims = declared or tuple(d if d is not None else f"{stem}_d{axis}" for axis, d in enumerate(t.dims))
            self.em.declare(name, t.dtype, dims)
        else:
            self.em.declare(name, t.dtype, t.dims)
            if t.dims == () and t.dtype == "int64":
                program.ops.append(Op("func", "arg", name, [name], [name], {"symbol": symbol_stem(name)}))
        self.nodes[arg] = MlirNode(name, meta={"val": meta_of(t, _is_tensor(arg))})

    # --------------------------------------------------------------------- ops
    def emit(self, op: Any, declared: dict[Any, Any]) -> None:
        ir = self.ir
        full = ir.op_name(op)
        results = list(ir.results(op))
        if full in _CONSTANTS:
            self.env[results[0]] = ir.attr(op, "value")
        elif full == "torch.constant.none":
            self.env[results[0]] = None
        elif full == "torch.prim.ListConstruct":
            self.env[results[0]] = [self.env.get(v) for v in ir.operands(op)]
            self.nodes[results[0]] = [self.node(v) for v in ir.operands(op)]
        elif full == "torch.prim.ListUnpack":
            items: Any = self.env.get(ir.operands(op)[0])
            listed: list[Any] = cast("list[Any]", items) if isinstance(items, list) else []
            for k, r in enumerate(results):
                self.env[r] = listed[k] if k < len(listed) else None
                self.nodes[r] = MlirNode(str(self.env[r]), meta={"val": meta_of(_type(r), _is_tensor(r))})
        elif full == "torch.vtensor.literal":
            self.literal(op, results[0])
        elif full == "torch.symbolic_int":
            self.symbol_value(results[0])
        elif full == "torch.bind_symbolic_shape":
            self.bind(op, declared)
        elif full == "func.return":
            self.em.program.outputs = [n for v in ir.operands(op) if isinstance(n := self.env.get(v), str)]
        else:
            self.aten(op, full, results)

    def node(self, value: Any) -> Any:
        return self.nodes.get(value, self.env.get(value))

    def literal(self, op: Any, result: Any) -> None:
        name = self.vname(result)
        t = _type(result)
        self.em.declare(name, t.dtype, t.dims)
        value = self.em.program.values[name]
        value.is_initializer = True
        const = self.ir.attr(op, "value") if type(op.attributes["value"]).__name__ == "DenseIntElementsAttr" else None
        if isinstance(const, ConstTensor) and const.values is not None and 0 < len(const.values) <= MAX_TRACKED:
            value.const = const.values
        self.env[result] = name
        self.nodes[result] = MlirNode(name, meta={"val": meta_of(t, True)})

    def symbol_value(self, result: Any) -> None:
        label = self.symbols.get(result)
        if label is None:
            self.env[result] = None
            return
        name = self.vname(result)
        self.em.op("symbolic_int", [], {"symbol": label}, base=name, outputs=[name], dialect="torch")
        self.em.declare(name, "int64", ())
        self.env[result] = name
        self.nodes[result] = MlirNode(name, meta={"val": 0})

    def bind(self, op: Any, declared: dict[Any, Any]) -> None:
        bound = self.binding(op)
        if bound is None or bound[0] in declared or not isinstance(self.env.get(bound[0]), str):
            return
        value, symbols, trees = bound
        inputs = [str(self.env[value]), *(str(self.env[s]) for s in self.ir.operands(op)[1:])]
        self.em.op("bind_symbolic_shape", inputs, {"shape": trees, "symbols": symbols},
                   base=f"{inputs[0]}.bind", outputs=[], dialect="torch")

    def aten(self, op: Any, full: str, results: list[Any]) -> None:
        names = [self.vname(r) for r in results]
        metas = [self.meta(r) for r in results]
        key = aten_key(full) or full
        operands = list(self.ir.operands(op))
        node = MlirNode(names[0] if names else self.em.fresh(f"@{self.name}:%_op"), key,
                        [self.node(v) for v in operands], meta={"val": metas[0] if len(metas) == 1 else metas})
        out, _translated = translate(self.em, key, node, [self.env.get(v) for v in operands])
        outs: list[Any] = cast("list[Any]", out) if isinstance(out, list) else [out]
        for r, name, made in zip(results, names, outs, strict=False):
            self.alias(r, name, made)

    def meta(self, result: Any) -> Any:
        """A result's meta; a list result's is its elements' (from the ``ListUnpack`` of it)."""
        if result in self.unpacked:
            return [meta_of(_type(u), _is_tensor(u)) for u in self.unpacked[result]]
        return meta_of(_type(result), _is_tensor(result))

    def alias(self, result: Any, name: str, made: Any) -> None:
        """``result`` is ``made`` (a value name, or a list of them for a list result)."""
        if isinstance(made, str) and made != name and made in self.em.program.values:
            self.em.op("Identity", [made], base=name, outputs=[name])
            self.em.declare(name, _type(result).dtype, None)
            made = name
        self.env[result] = made
        self.nodes[result] = MlirNode(name, meta={"val": meta_of(_type(result), _is_tensor(result))})
