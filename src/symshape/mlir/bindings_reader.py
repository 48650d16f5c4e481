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

import re
from typing import Any, cast

from symshape.errors import ModelError, where_op
from symshape.expr import sym
from symshape.mlir.attributes import DialectAttr
from symshape.mlir.bindings_attributes import binding_attr, binding_type, named_attrs
from symshape.mlir.bindings_parse import TextNames, available_bindings, parse_with_bindings
from symshape.mlir.jax_export import jax_dim_text, jax_specs, label_names
from symshape.mlir.program_builder import MAX_CALL_OPS, FuncView, symbol_stem
from symshape.program import Op, Program, SourceDim, TensorType, Value
from symshape.userfacts import Fact, Relation

__all__ = ["read_views"]

_XDSL_ONLY = ("symshape.", "torch.symbolic_int", "torch.bind_symbolic_shape", "[@")
_RETURNS = ("func.return", "shape.assuming_yield", "stablehlo.return", "mhlo.return")
_CMPI = {0: "EQ", 1: "NE", 2: "LT", 3: "LE", 4: "GT", 5: "GE", 6: "LT", 7: "LE", 8: "GT", 9: "GE"}
_NAME = re.compile(r"[A-Za-z_]\w*")


def read_views(text: str) -> list[FuncView] | None:
    """The root functions of the module ``text`` holds, or None (see the module docstring)."""
    if any(marker in text for marker in _XDSL_ONLY):
        return None
    for which in available_bindings():  # IREE's has no mhlo: jaxlib's may still read it
        parsed = parse_with_bindings(text, which)
        if parsed is not None:
            module, names = parsed
            return _views(module.operation, names)
    return None


def _ops(block: Any) -> list[Any]:
    return [op.operation for op in block.operations]


def _walk(op: Any) -> Any:
    """``op`` and every op nested in it, outermost first."""
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in _ops(block):
                yield from _walk(inner)


def _entry(fn: Any) -> Any:
    blocks = list(fn.regions[0].blocks) if len(fn.regions) else []
    return blocks[0] if blocks else None


def _attr(op: Any, name: str) -> Any:
    return binding_attr(op.attributes[name]) if name in op.attributes else None


def _is_private(fn: Any) -> bool:
    return _attr(fn, "sym_visibility") == "private"


def _arg_attr(fn: Any, index: int, key: str) -> str | None:
    """The non-empty string attribute ``key`` of ``fn``'s argument ``index`` (`jax_export.arg_attr`)."""
    attrs = _attr(fn, "arg_attrs")
    if not isinstance(attrs, list) or index >= len(cast("list[Any]", attrs)):
        return None
    entry = cast("list[Any]", attrs)[index]
    value = cast("dict[str, Any]", entry).get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, str) and value else None


def _views(module: Any, names: TextNames) -> list[FuncView]:
    """`module_to_programs` for a module the bindings parsed."""
    funcs: dict[str, Any] = {}
    calls: dict[str, int] = {}
    for op in _walk(module):
        if op.name == "func.func":
            funcs[str(_attr(op, "sym_name"))] = op
        elif op.name == "func.call":
            callee = str(_attr(op, "callee"))
            calls[callee] = calls.get(callee, 0) + 1
    builder = _Builder(names, funcs, calls)
    views: list[FuncView] = []
    inlined: set[str] = set()
    defined = [(n, f) for n, f in funcs.items() if _entry(f) is not None]
    for name, fn in defined:
        if calls.get(name, 0) == 1 and _is_private(fn):
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

    def __init__(self, names: TextNames, funcs: dict[str, Any], calls: dict[str, int]) -> None:
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
        name = self.name(v, fn, prefix)
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
        if len(results):
            for value, name in zip(results, self.text.results(op), strict=True):
                self.local[value] = name

    # ------------------------------------------------------------------ the function

    def build(self, name: str, fn: Any) -> FuncView:
        program = Program(name, [], [], {}, [])
        values: dict[str, Any] = {}
        block = _entry(fn)
        if block is None:
            raise ModelError(where=where_op("func", "func", f"@{name}"), found="the function has no body",
                             expected="a function with a body", fix="only defined functions can be analyzed")
        self.learn_block(block)
        declared, facts = _jax_arg_dims(fn, block, self.funcs)
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
                jax_name = _arg_attr(fn, i, "jax.global_constant")
                dim_variable = jax_name is not None and re.fullmatch(r"[A-Za-z]\w*", jax_name) is not None
                attrs = {"symbol": jax_name if dim_variable else symbol_stem(vname), "dim_variable": dim_variable}
                program.ops.append(Op("func", "arg", vname, [vname], [vname], attrs))
        inlined: list[str] = []
        program.outputs = self.emit_block(block, name, program, values, [name], inlined, "")
        return FuncView(name, cast("Any", fn), program, values, facts, inlined)

    def emit_block(self, block: Any, fn: str, program: Program, values: dict[str, Any] | None, stack: list[str],
                   inlined: list[str], prefix: str) -> list[str]:
        """Emit the ops of ``block``; returns the names its terminator returns."""
        outputs: list[str] = []
        for index, op in enumerate(_ops(block)):
            full = op.name
            self.learn_results(op)
            if full in _RETURNS:
                outputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
                continue
            if full == "func.call" or full.endswith(".composite"):
                self.emit_call(op, fn, program, values, stack, inlined, prefix)
                continue
            if full == "shape.assuming" and len(op.regions):
                inner_block = _entry(op)
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
        cond = _owner_op(op.operands[0])
        if cond is None or len(cond.operands) != 2:
            return
        if cond.name.endswith(".compare"):
            value = _attr(cond, "comparison_direction") or ""
            direction = str(value.fields.get("value") if isinstance(value, DialectAttr) else value).strip()
        elif cond.name == "arith.cmpi":
            direction = _CMPI.get(_attr(cond, "predicate"), "")
        else:
            return
        attrs["condition"] = {"direction": direction, "lhs": len(inputs), "rhs": len(inputs) + 1}
        inputs.extend(self.value(v, fn, program, values, prefix) for v in cond.operands)

    def emit_call(self, op: Any, fn: str, program: Program, values: dict[str, Any] | None, stack: list[str],
                  inlined: list[str], prefix: str) -> None:
        callee_name = _attr(op, "callee") or _attr(op, "decomposition")
        callee = self.funcs.get(callee_name)
        inputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
        outputs = [self.value(r, fn, program, values, prefix) for r in op.results]
        body = _entry(callee) if callee is not None else None
        if callee is None or body is None or callee_name in stack:
            program.ops.append(Op("func", "call", _op_name(outputs, fn, 0, "call", prefix), inputs, outputs,
                                  {"callee": callee_name}))
            return
        self.learn_block(body)
        if self.calls.get(callee_name, 0) == 1 and _is_private(callee) and not prefix:
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
        size = sum(1 for block_op in _ops(body) for _ in _walk(block_op))
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


def _owner_op(value: Any) -> Any:
    """The op that defines ``value`` (None for a block argument)."""
    if type(value).__name__ != "OpResult":
        return None
    return value.owner.operation


# ------------------------------------------------------------ jax.export's names (`jax_export`)


def _jax_arg_dims(fn: Any, block: Any, funcs: dict[str, Any]) -> tuple[dict[int, tuple[SourceDim, ...]], list[Fact]]:
    """`jax_export.jax_arg_dims` over binding ops: the dims jax named, and ``v >= 1`` for each."""
    declared = _spec_dims_by_arg(fn, block)
    if not declared:
        for (i, axis), name in sorted(_call_dim_names(block, funcs).items()):
            dims = binding_type(block.arguments[i].type).dims
            if dims is None or not str(block.arguments[i].type).startswith("tensor<"):
                continue
            base = declared.get(i) or dims
            declared[i] = tuple(name if k == axis and d is None else d for k, d in enumerate(base))
    found = {n for dims in declared.values() for d in dims if isinstance(d, str) for n in label_names(d)}
    return declared, [Relation(sym(n), ">=", 1) for n in sorted(found)]


def _spec_dims_by_arg(fn: Any, block: Any) -> dict[int, tuple[SourceDim, ...]]:
    specs: list[tuple[str, str]] | None = None
    for op in _ops(block):
        if op.name.endswith(".custom_call"):
            message = _attr(op, "error_message")
            if isinstance(message, str):
                specs = jax_specs(message)
                if specs is not None:
                    break
    if not specs:
        return {}
    symbolic: list[tuple[int, tuple[SourceDim, ...]]] = []
    for i, arg in enumerate(block.arguments):
        dims = binding_type(arg.type).dims
        if (dims is not None and None in dims and str(arg.type).startswith("tensor<")
                and _arg_attr(fn, i, "jax.global_constant") is None):
            symbolic.append((i, dims))
    if len(symbolic) != len(specs):
        return {}
    declared: dict[int, tuple[SourceDim, ...]] = {}
    for (index, shape), (_, text) in zip(symbolic, specs, strict=True):
        dims = _spec_dims(text, shape)
        if dims is None:
            return {}
        declared[index] = dims
    return declared


def _spec_dims(text: str, shape: tuple[SourceDim, ...]) -> tuple[SourceDim, ...] | None:
    from symshape.mlir.attributes import split_top

    parts = [p.strip() for p in split_top(text)]
    if len(parts) != len(shape):
        return None
    dims: list[SourceDim] = []
    for part, static in zip(parts, shape, strict=True):
        if re.fullmatch(r"-?\d+", part):
            if static is not None and static != int(part):
                return None
            dims.append(int(part))
        elif static is not None:
            return None
        else:
            dims.append(jax_dim_text(part))
    return tuple(dims)


def _call_dim_names(block: Any, funcs: dict[str, Any]) -> dict[tuple[int, int], str]:
    out: dict[tuple[int, int], str] = {}
    for op in _ops(block):
        if op.name != "func.call":
            continue
        callee = funcs.get(_attr(op, "callee"))
        if callee is None:
            continue
        for k, operand in enumerate(op.operands):
            name = _arg_attr(callee, k, "jax.global_constant")
            source = _owner_op(operand)
            if not name or not _NAME.fullmatch(name) or source is None:
                continue
            if source.name.endswith(".get_dimension_size") and len(source.operands):
                arg = source.operands[0]
                axis = _attr(source, "dimension")
                if type(arg).__name__ == "BlockArgument" and arg.owner == block and isinstance(axis, int):
                    out.setdefault((arg.arg_number, axis), name)
    return out
