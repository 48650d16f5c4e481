# pyright: strict
"""MLIR text -> one `FuncView` per root function, through MLIR's own parser (`bindings_parse`).

The same Programs `symshape.mlir.program_builder.module_to_programs` builds from xDSL ops (same
value names, attributes, inlining of single-call private callees, regions and calls), about
twenty times faster to read. `read_views` returns None where this reader does not apply and
the xDSL reader must: no bindings installed, text MLIR refuses, or a module that names its
arguments' dims through symshape's own constraint ops or torch-mlir's
(`symshape.mlir.declared_dims`), which only the xDSL reader reads.
"""

from __future__ import annotations

import gc
import re
from typing import Any

from symshape.errors import ModelError, where_op
from symshape.mlir.attributes import DialectAttr
from symshape.mlir.bindings_attributes import binding_type, clear_caches, named_attrs
from symshape.mlir.bindings_jax import jax_arg_dims
from symshape.mlir.bindings_ops import BlockOps, arg_attr, attr, entry_block, is_private, owner_op
from symshape.mlir.bindings_parse import TextNames, available_bindings, parse_with_bindings
from symshape.mlir.program_builder import MAX_CALL_OPS, FuncView, symbol_stem
from symshape.program import Op, Program, TensorType, Value

__all__ = ["read_views"]

_XDSL_ONLY = re.compile(r"symshape\.|torch\.(?:symbolic_int|bind_symbolic_shape)|,\s*\[@[^\]]*\]\s*>")
_RETURNS = ("func.return", "shape.assuming_yield", "stablehlo.return", "mhlo.return")
_CMPI = {0: "EQ", 1: "NE", 2: "LT", 3: "LE", 4: "GT", 5: "GE", 6: "LT", 7: "LE", 8: "GT", 9: "GE"}


def read_views(text: str) -> list[FuncView] | None:
    """The root functions of the module ``text`` holds, or None (see the module docstring)."""
    if _XDSL_ONLY.search(text):
        return None
    for which in available_bindings():  # IREE's has no mhlo: the next one may still read it
        parsed = parse_with_bindings(text, which)
        if parsed is not None:
            module, names = parsed
            collecting = gc.isenabled()
            gc.disable()  # a read makes millions of objects and no cycles: the collector's passes were 25% of it
            try:
                return _views(module.operation, names)
            finally:
                clear_caches()
                if collecting:
                    gc.enable()
    return None


def _views(module: Any, names: TextNames) -> list[FuncView]:
    """`module_to_programs` for a module the bindings parsed."""
    funcs: dict[str, Any] = {}
    calls: dict[str, int] = {}
    ops = BlockOps(module)
    for op in ops.all:
        if op.name == "func.func":
            funcs[str(attr(op, "sym_name"))] = op
        elif op.name == "func.call":
            callee = str(attr(op, "callee"))
            calls[callee] = calls.get(callee, 0) + 1
    builder = _Builder(names, funcs, calls, ops)
    builder.local.update(names.in_order(ops.all, ops.nested) or {})
    views: list[FuncView] = []
    inlined: set[str] = set()
    defined = [(n, f) for n, f in funcs.items() if entry_block(f) is not None]
    for name, fn in defined:
        if calls.get(name, 0) == 1 and is_private(fn):
            continue
        view = builder.build(name, fn)
        inlined.update(view.inlined)
        views.append(view)
    for name, fn in defined:  # a single-call callee whose caller is not a root (a cycle): its own view
        if name not in inlined and all(v.name != name for v in views):
            views.append(builder.build(name, fn))
    return views


class _Builder:
    """`program_builder._Builder` over binding ops: one root function's Program."""

    def __init__(self, names: TextNames, funcs: dict[str, Any], calls: dict[str, int], ops: BlockOps) -> None:
        self.ops = ops
        self.text = names
        self.funcs = funcs
        self.calls = calls
        self.cloned = 0
        self.local: dict[Any, str | None] = {}
        self.assigned: dict[tuple[Any, str], str] = {}
        self.taken: set[str] = set()
        self.counter = 0

    # ------------------------------------------------------------------ naming (as `_Names`)

    def name(self, value: Any, fn: str, prefix: str) -> str:
        key = (value, prefix)
        found = self.assigned.get(key)
        if found is not None:
            return found
        local = self.local.get(value)
        full = f"{prefix}@{fn}:%{local}" if local else ""
        while not full or full in self.taken:
            self.counter += 1
            full = f"{prefix}@{fn}:%_v{self.counter}"
        self.taken.add(full)
        self.assigned[key] = full
        return full

    def value(self, v: Any, fn: str, program: Program, values: dict[str, Any] | None, prefix: str) -> str:
        name = self.assigned.get((v, prefix)) or self.name(v, fn, prefix)
        if name not in program.values:
            program.values[name] = Value(name, binding_type(v.type))
        if values is not None:
            values[name] = v
        return name

    def learn_block(self, block: Any) -> None:
        for arg in block.arguments:
            if arg not in self.local:
                self.local[arg] = self.text.argument(arg)

    def learn_results(self, op: Any) -> None:
        results = op.results
        if len(results) and results[0] not in self.local:
            for value, name in zip(results, self.text.results(op), strict=True):
                self.local[value] = name

    # ------------------------------------------------------------------ the function

    def build(self, name: str, fn: Any) -> FuncView:
        program = Program(name, [], [], {}, [])
        values: dict[str, Any] = {}
        block = entry_block(fn)
        if block is None:
            raise ModelError(where=where_op("func", "func", f"@{name}"), found="the function has no body",
                             expected="a function with a body", fix="only defined functions can be analyzed")
        self.learn_block(block)
        declared, facts = jax_arg_dims(fn, block, self.funcs, self.ops)
        for i, arg in enumerate(block.arguments):
            vname = self.name(arg, name, "")
            values[vname] = arg
            vtype = binding_type(arg.type)
            if vtype.dims is not None:
                base = declared.get(i) or vtype.dims
                dims = tuple(d if d is not None else f"{symbol_stem(vname)}_d{axis}" for axis, d in enumerate(base))
                vtype = TensorType(vtype.dtype, dims)
            program.values[vname] = Value(vname, vtype)
            program.inputs.append(vname)
            if vtype.dims == () and _is_int_type(vtype.dtype):
                jax_name = arg_attr(fn, i, "jax.global_constant")
                dim_variable = jax_name is not None and re.fullmatch(r"[A-Za-z]\w*", jax_name) is not None
                attrs = {"symbol": jax_name if dim_variable else symbol_stem(vname), "dim_variable": dim_variable}
                program.ops.append(Op("func", "arg", vname, [vname], [vname], attrs))
        inlined: list[str] = []
        program.outputs = self.emit_block(block, name, program, values, [name], inlined, "")
        return FuncView(name, fn, program, values, facts, inlined)

    def emit_block(self, block: Any, fn: str, program: Program, values: dict[str, Any] | None, stack: list[str],
                   inlined: list[str], prefix: str) -> list[str]:
        """Emit the ops of ``block``; returns the names its terminator returns."""
        outputs: list[str] = []
        for index, op in enumerate(self.ops.of(block)):
            full = op.name
            self.learn_results(op)
            if full in _RETURNS:
                outputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
                continue
            if full == "func.call" or full.endswith(".composite"):
                self.emit_call(op, fn, program, values, stack, inlined, prefix)
                continue
            if full == "shape.assuming" and len(op.regions):
                inner_block = entry_block(op)
                self.learn_block(inner_block)
                inner = self.emit_block(inner_block, fn, program, values, stack, inlined, prefix)
                results = [self.value(r, fn, program, values, prefix) for r in op.results]
                program.ops.append(Op("shape", "assuming", _op_name(results, fn, index, full, prefix), inner, results))
                continue
            self.emit_op(op, index, fn, program, values, prefix)
            if full.endswith((".while", ".case", ".if")):
                self.attach_regions(op, program.ops[-1], fn, stack, inlined, prefix)
        return outputs

    def attach_regions(self, op: Any, emitted: Op, fn: str, stack: list[str], inlined: list[str], prefix: str) -> None:
        """A loop's body (``body``) or each branch of a case/if (``branch<k>``) as a Program."""
        blocks = [next(iter(r.blocks), None) for r in op.regions]
        if any(b is None for b in blocks):
            return
        if op.name.endswith(".while"):
            if len(blocks) != 2:
                raise ModelError(where=where_op(emitted.dialect, emitted.op_type, emitted.name),
                                 found=f"it has {len(blocks)} regions",
                                 expected="2 regions (the condition and the body)", fix="fix the op")
            self.learn_block(blocks[0])  # named in the order the xDSL reader names them
            emitted.subgraphs["body"] = self.region_program(blocks[1], fn, stack, inlined, prefix)
            return
        for k, block in enumerate(blocks):
            emitted.subgraphs[f"branch{k}"] = self.region_program(block, fn, stack, inlined, prefix)

    def region_program(self, block: Any, fn: str, stack: list[str], inlined: list[str], prefix: str) -> Program:
        """A region as a Program: its block arguments in, the yielded values out."""
        self.learn_block(block)
        sub = Program(f"{fn}.body", [], [], {}, [])
        sub.inputs = [self.value(a, fn, sub, None, prefix) for a in block.arguments]
        sub.outputs = self.emit_block(block, fn, sub, None, stack, inlined, prefix)
        return sub

    def emit_op(self, op: Any, index: int, fn: str, program: Program, values: dict[str, Any] | None,
                prefix: str) -> None:
        full = op.name
        dialect, _, op_type = full.partition(".")
        inputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
        outputs = [self.value(r, fn, program, values, prefix) for r in op.results]
        attrs = named_attrs(op)
        if full in ("stablehlo.custom_call", "mhlo.custom_call", "shape.cstr_require") and len(op.operands):
            self.attach_condition(op, attrs, inputs, fn, program, values, prefix)
        program.ops.append(Op(dialect, op_type, _op_name(outputs, fn, index, full, prefix), inputs, outputs, attrs))

    def attach_condition(self, op: Any, attrs: dict[str, Any], inputs: list[str], fn: str, program: Program,
                         values: dict[str, Any] | None, prefix: str) -> None:
        """`program_builder._attach_condition`: the comparison that made an assertion's ``%cond``."""
        cond = owner_op(op.operands[0])
        if cond is None or len(cond.operands) != 2:
            return
        if cond.name.endswith(".compare"):
            value = attr(cond, "comparison_direction") or ""
            direction = str(value.fields.get("value") if isinstance(value, DialectAttr) else value).strip()
        elif cond.name == "arith.cmpi":
            direction = _CMPI.get(attr(cond, "predicate"), "")
        else:
            return
        attrs["condition"] = {"direction": direction, "lhs": len(inputs), "rhs": len(inputs) + 1}
        inputs.extend(self.value(v, fn, program, values, prefix) for v in cond.operands)

    def emit_call(self, op: Any, fn: str, program: Program, values: dict[str, Any] | None, stack: list[str],
                  inlined: list[str], prefix: str) -> None:
        callee_name = attr(op, "callee") or attr(op, "decomposition")
        callee = self.funcs.get(callee_name)
        inputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
        outputs = [self.value(r, fn, program, values, prefix) for r in op.results]
        body = entry_block(callee) if callee is not None else None
        if callee is None or body is None or callee_name in stack:
            program.ops.append(Op("func", "call", _op_name(outputs, fn, 0, "call", prefix), inputs, outputs,
                                  {"callee": callee_name}))
            return
        self.learn_block(body)
        if self.calls.get(callee_name, 0) == 1 and is_private(callee) and not prefix:
            inlined.append(callee_name)
            for src, arg in zip(inputs, body.arguments, strict=False):
                dst = self.value(arg, callee_name, program, values, prefix)
                program.ops.append(Op("func", "bind", f"{dst}=", [src], [dst]))
            rets = self.emit_block(body, callee_name, program, values, [*stack, callee_name], inlined, prefix)
            for src, dst in zip(rets, outputs, strict=False):
                program.ops.append(Op("func", "bind", f"{dst}=", [src], [dst]))
            return
        call_name = _op_name(outputs, fn, len(program.ops), "call", prefix)
        sub = Program(callee_name, [], [], {}, [])
        size = self.ops.count(body)
        if self.cloned + size <= MAX_CALL_OPS:
            self.cloned += size
            sub_prefix = f"{call_name}/"
            sub.inputs = [self.value(a, callee_name, sub, None, sub_prefix) for a in body.arguments]
            sub.outputs = self.emit_block(body, callee_name, sub, None, [*stack, callee_name], [], sub_prefix)
        program.ops.append(Op("func", "call", call_name, inputs, outputs, {"callee": callee_name},
                              subgraphs={"body": sub} if sub.ops or sub.inputs else {}))


def _op_name(outputs: list[str], fn: str, index: int, full: str, prefix: str) -> str:
    if outputs:
        return outputs[0].split("#", 1)[0]
    return f"{prefix}@{fn}:{full}#{index}"


def _is_int_type(dtype: str) -> bool:
    return dtype == "index" or re.fullmatch(r"u?i\d+|si\d+", dtype) is not None
