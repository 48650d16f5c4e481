# pyright: strict
"""xDSL ``ModuleOp`` -> one `Program` per root function (`module_to_programs`).

Values are named ``@<func>:%<name in the text>`` (``@main:%arg0``, ``@main:%3``, result 1 of
``%5:2`` is ``@main:%5#1``). Each *root* function (one not inlined into a caller) becomes one
`FuncView`: its Program, its xDSL op, and the map from Program value names back to SSA values.

* Function arguments are the graph inputs; a ``?`` dim of ``%x`` is the symbol ``x_d<axis>``.
  Integer and index scalar arguments carry their value as a symbol named after the argument.
* ``func.call`` of a private function called once is inlined (its values keep their own
  ``@callee:%..`` names, and its dims are expressed in the caller's symbols); other calls run
  the callee's ops per call site.
* Modules that name their arguments' dims keep those names: ``jax.export``'s specifications
  (`symshape.mlir.jax_export`), our ``[@batch, @S1]`` encodings and torch-mlir's
  ``torch.bind_symbolic_shape`` (`symshape.mlir.declared_dims`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from symshape.errors import ModelError, where_op
from symshape.mlir.attributes import DialectAttr, attr_value, op_attrs, op_full_name, tensor_type
from symshape.mlir.declared_dims import ModuleSymbols, encoded_dims, torch_dims
from symshape.mlir.jax_export import arg_attr, jax_arg_dims
from symshape.mlir.parse import source_names
from symshape.program import Op, Program, TensorType, Value
from symshape.userfacts import Fact

__all__ = ["MAX_CALL_OPS", "FuncView", "module_to_programs", "symbol_stem"]

MAX_CALL_OPS = 20000  # ops cloned for non-inlined calls in one function, at most
_SAFE = re.compile(r"[^A-Za-z0-9_]")


@dataclass
class FuncView:
    """One root function: its Program, the xDSL op, and Program value name -> SSA value.

    ``facts`` are facts the module itself implies (jax's dimension variables are ``>= 1``);
    ``inlined`` names the functions whose bodies are part of ``program``.
    """

    name: str
    func: func.FuncOp
    program: Program
    values: dict[str, SSAValue]
    facts: list[Fact] = field(default_factory=list[Fact])
    inlined: list[str] = field(default_factory=list[str])


# ------------------------------------------------------------------------- naming


class _Names:
    """``@func:%name`` for every SSA value, from the text names (unique fallbacks otherwise)."""

    def __init__(self, module: ModuleOp) -> None:
        self.source = source_names(module)
        self.assigned: dict[tuple[SSAValue, str], str] = {}
        self.taken: set[str] = set()
        self.counter = 0

    def name(self, value: SSAValue, fn: str, prefix: str = "") -> str:
        key = (value, prefix)
        if key in self.assigned:
            return self.assigned[key]
        local = self.source.get(value) or value.name_hint
        full = f"{prefix}@{fn}:%{local}" if local else ""
        while not full or full in self.taken:
            self.counter += 1
            full = f"{prefix}@{fn}:%_v{self.counter}"
        self.taken.add(full)
        self.assigned[key] = full
        return full


def symbol_stem(name: str) -> str:
    """An identifier from a value name: ``@main:%arg0`` -> ``arg0``."""
    local = name.rsplit(":%", 1)[-1]
    stem = _SAFE.sub("_", local)
    return stem if stem and not stem[0].isdigit() else f"v{stem}"


# ---------------------------------------------------------------------- the builder


class _Builder:
    """Builds the Program of one root function (inlining single-call private callees)."""

    def __init__(self, module: ModuleOp, names: _Names, funcs: dict[str, func.FuncOp], calls: dict[str, int]) -> None:
        self.module = module
        self.symbols = ModuleSymbols(module)
        self.bound: set[SSAValue] = set()  # arguments whose torch.bind_symbolic_shape named their dims
        self.names = names
        self.funcs = funcs
        self.calls = calls
        self.cloned = 0

    def build(self, fn: func.FuncOp) -> FuncView:
        name = fn.sym_name.data
        program = Program(name, [], [], {}, [])
        values: dict[str, SSAValue] = {}
        block = fn.body.blocks.first
        if block is None:
            raise ModelError(where=where_op("func", "func", f"@{name}"), found="the function has no body",
                             expected="a function with a body", fix="only defined functions can be analyzed")
        declared, facts = jax_arg_dims(fn, self.funcs)
        bound, torch_facts = torch_dims(fn)
        self.bound.update(block.args[i] for i in bound)
        for more, implied in (encoded_dims(fn, self.symbols), (bound, torch_facts)):
            declared = {**more, **declared}
            facts.extend(f for f in implied if f not in facts)
        for i, arg in enumerate(block.args):
            vname = self.names.name(arg, name)
            values[vname] = arg
            vtype = tensor_type(arg.type)
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
        outputs = self.emit_block(block, name, program, values, [name], inlined, prefix="")
        program.outputs = outputs
        return FuncView(name, fn, program, values, facts, inlined)

    def emit_block(
        self,
        block: Any,
        fn: str,
        program: Program,
        values: dict[str, SSAValue] | None,
        stack: list[str],
        inlined: list[str],
        prefix: str,
    ) -> list[str]:
        """Emit the ops of ``block``; returns the names its terminator returns."""
        outputs: list[str] = []
        for index, op in enumerate(block.ops):
            full = op_full_name(op)
            if full in ("func.return", "shape.assuming_yield", "stablehlo.return", "mhlo.return"):
                outputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
                continue
            if full in _READ_BY_THE_FRONTEND and self.read_by_the_frontend(op, block, stack, prefix):
                continue
            if full == "func.call" or full.endswith(".composite"):
                self.emit_call(op, fn, program, values, stack, inlined, prefix)
                continue
            if full == "shape.assuming" and op.regions:
                inner = self.emit_block(op.regions[0].blocks.first, fn, program, values, stack, inlined, prefix)
                results = [self.value(r, fn, program, values, prefix) for r in op.results]
                program.ops.append(Op("shape", "assuming", _op_name(results, fn, index, full, prefix), inner, results))
                continue
            self.emit_op(op, index, fn, program, values, prefix)
            if full.endswith((".while", ".case", ".if")):
                self.attach_regions(op, program.ops[-1], fn, stack, inlined, prefix)
        return outputs

    def read_by_the_frontend(self, op: Operation, block: Any, stack: list[str], prefix: str) -> bool:
        """A ``torch.symbolic_int`` in a root function's entry block, or a
        ``torch.bind_symbolic_shape`` whose argument's dims the frontend named (`torch_dims`):
        nothing is left for a rule to do."""
        if len(stack) != 1 or prefix or not isinstance(block.parent_op(), func.FuncOp):
            return False
        return op_full_name(op) == "torch.symbolic_int" or (bool(op.operands) and op.operands[0] in self.bound)

    def attach_regions(
        self, op: Operation, emitted: Op, fn: str, stack: list[str], inlined: list[str], prefix: str
    ) -> None:
        """A loop's body (``body``) or each branch of a case/if (``branch<k>``) as a Program."""
        blocks = [r.blocks.first for r in op.regions]
        if any(b is None for b in blocks):
            return
        if op_full_name(op).endswith(".while"):
            if len(blocks) != 2:
                raise ModelError(where=where_op(emitted.dialect, emitted.op_type, emitted.name),
                                 found=f"it has {len(blocks)} regions",
                                 expected="2 regions (the condition and the body)", fix="fix the op")
            emitted.subgraphs["body"] = self.region_program(blocks[1], fn, stack, inlined, prefix)
            return
        for k, block in enumerate(blocks):
            emitted.subgraphs[f"branch{k}"] = self.region_program(block, fn, stack, inlined, prefix)

    def region_program(self, block: Any, fn: str, stack: list[str], inlined: list[str], prefix: str) -> Program:
        """A region as a Program: its block arguments in, the yielded values out. Functions it
        inlines are recorded in the caller's ``inlined`` (they are not separate roots)."""
        sub = Program(f"{fn}.body", [], [], {}, [])
        sub.inputs = [self.value(a, fn, sub, None, prefix) for a in block.args]
        sub.outputs = self.emit_block(block, fn, sub, None, stack, inlined, prefix)
        return sub

    def value(self, v: SSAValue, fn: str, program: Program, values: dict[str, SSAValue] | None, prefix: str) -> str:
        name = self.names.name(v, fn, prefix)
        if name not in program.values:
            program.values[name] = Value(name, tensor_type(v.type))
        if values is not None:
            values[name] = v
        return name

    def emit_op(self, op: Operation, index: int, fn: str, program: Program, values: dict[str, SSAValue] | None,
                prefix: str) -> None:
        full = op_full_name(op)
        dialect, _, op_type = full.partition(".")
        inputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
        outputs = [self.value(r, fn, program, values, prefix) for r in op.results]
        attrs = op_attrs(op)
        if full in ("stablehlo.custom_call", "mhlo.custom_call", "shape.cstr_require") and op.operands:
            _attach_condition(op, attrs, inputs, lambda v: self.value(v, fn, program, values, prefix))
        program.ops.append(Op(dialect, op_type, _op_name(outputs, fn, index, full, prefix), inputs, outputs, attrs))

    def emit_call(self, op: Operation, fn: str, program: Program, values: dict[str, SSAValue] | None,
                  stack: list[str], inlined: list[str], prefix: str) -> None:
        callee_name = attr_value(op, "callee") or attr_value(op, "decomposition")
        callee = self.funcs.get(callee_name)
        inputs = [self.value(v, fn, program, values, prefix) for v in op.operands]
        outputs = [self.value(r, fn, program, values, prefix) for r in op.results]
        body = callee.body.blocks.first if callee is not None else None
        if callee is None or body is None or callee_name in stack:
            program.ops.append(Op("func", "call", _op_name(outputs, fn, 0, "call", prefix), inputs, outputs,
                                  {"callee": callee_name}))
            return
        if self.calls.get(callee_name, 0) == 1 and _is_private(callee) and not prefix:
            inlined.append(callee_name)
            self.bind(inputs, list(body.args), callee_name, program, values, prefix)
            rets = self.emit_block(body, callee_name, program, values, [*stack, callee_name], inlined, prefix)
            for src, dst in zip(rets, outputs, strict=False):
                program.ops.append(Op("func", "bind", f"{dst}=", [src], [dst]))
            return
        call_name = _op_name(outputs, fn, len(program.ops), "call", prefix)
        sub = Program(callee_name, [], [], {}, [])
        size = sum(1 for _ in body.walk())
        if self.cloned + size <= MAX_CALL_OPS:
            self.cloned += size
            sub_prefix = f"{call_name}/"
            sub.inputs = [self.value(a, callee_name, sub, None, sub_prefix) for a in body.args]
            sub.outputs = self.emit_block(body, callee_name, sub, None, [*stack, callee_name], [], sub_prefix)
        program.ops.append(Op("func", "call", call_name, inputs, outputs, {"callee": callee_name},
                              subgraphs={"body": sub} if sub.ops or sub.inputs else {}))

    def bind(self, inputs: list[str], args: list[SSAValue], callee: str, program: Program,
             values: dict[str, SSAValue] | None, prefix: str) -> None:
        for src, arg in zip(inputs, args, strict=False):
            dst = self.value(arg, callee, program, values, prefix)
            program.ops.append(Op("func", "bind", f"{dst}=", [src], [dst]))


def _op_name(outputs: list[str], fn: str, index: int, full: str, prefix: str) -> str:
    if outputs:
        return outputs[0].split("#", 1)[0]
    return f"{prefix}@{fn}:{full}#{index}"


_CMPI = {0: "EQ", 1: "NE", 2: "LT", 3: "LE", 4: "GT", 5: "GE", 6: "LT", 7: "LE", 8: "GT", 9: "GE"}


def _attach_condition(
    op: Operation, attrs: dict[str, Any], inputs: list[str], name_of: Callable[[SSAValue], str]
) -> None:
    """For an assertion (``shape_assertion``, ``cstr_require``) of ``%cond``: the comparison
    that made ``%cond``, as ``attrs["condition"]`` with its two operands appended to ``inputs``."""
    cond = op.operands[0].owner
    if not isinstance(cond, Operation) or len(cond.operands) != 2:
        return
    name = op_full_name(cond)
    if name.endswith(".compare"):
        value = attr_value(cond, "comparison_direction") or ""
        direction = str(value.fields.get("value") if isinstance(value, DialectAttr) else value).strip()
    elif name == "arith.cmpi":
        direction = _CMPI.get(attr_value(cond, "predicate"), "")
    else:
        return
    attrs["condition"] = {"direction": direction, "lhs": len(inputs), "rhs": len(inputs) + 1}
    inputs.extend(name_of(v) for v in cond.operands)


_READ_BY_THE_FRONTEND = ("torch.symbolic_int", "torch.bind_symbolic_shape")  # see declared_dims.torch_dims


def _is_int_type(dtype: str) -> bool:
    return dtype == "index" or re.fullmatch(r"u?i\d+|si\d+", dtype) is not None


def _is_private(fn: func.FuncOp) -> bool:
    return fn.sym_visibility is not None and fn.sym_visibility.data == "private"


# ------------------------------------------------------------------------ the module


def _call_counts(module: ModuleOp) -> dict[str, int]:
    counts: dict[str, int] = {}
    for op in module.walk():
        if op_full_name(op) == "func.call":
            callee = attr_value(op, "callee")
            counts[callee] = counts.get(callee, 0) + 1
    return counts


def module_to_programs(module: ModuleOp) -> list[FuncView]:
    """One `FuncView` per root function of ``module`` (private single-call callees are inlined)."""
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)}
    calls = _call_counts(module)
    names = _Names(module)
    builder = _Builder(module, names, funcs, calls)
    views: list[FuncView] = []
    inlined: set[str] = set()
    defined = [f for f in funcs.values() if f.body.blocks.first is not None]
    for fn in defined:
        if calls.get(fn.sym_name.data, 0) == 1 and _is_private(fn):
            continue
        view = builder.build(fn)
        inlined.update(view.inlined)
        views.append(view)
    for fn in defined:  # a single-call callee whose caller is not a root (a cycle): its own view
        if fn.sym_name.data not in inlined and all(v.name != fn.sym_name.data for v in views):
            views.append(builder.build(fn))
    return views
