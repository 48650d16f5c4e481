# pyright: strict
"""A parsed MLIR module -> one `Program` per root function (`build_views`, `module_to_programs`).

The module is read through an `symshape.frontends.mlir.ir_adapter.IRReader`, so xDSL's ops
(`symshape.frontends.mlir.xdsl_ir`) and the MLIR bindings' (`symshape.frontends.mlir.bindings_reader`) make the
same Programs.

Values are named ``@<func>:%<name in the text>`` (``@main:%arg0``, ``@main:%3``, result 1 of
``%5:2`` is ``@main:%5#1``). Each *root* function (one not inlined into a caller) becomes one
`FuncView`: its Program, its op, and the map from Program value names back to SSA values.

* Function arguments are the graph inputs; a ``?`` dim of ``%x`` is the symbol ``x_d<axis>``.
  Integer and index scalar arguments carry their value as a symbol named after the argument.
* ``func.call`` of a private function called once is inlined (its values keep their own
  ``@callee:%..`` names, and its dims are expressed in the caller's symbols); other calls run
  the callee's ops per call site.
* Modules that name their arguments' dims keep those names: ``jax.export``'s specifications
  (`symshape.frontends.mlir.jax_export`), our ``[@batch, @S1]`` encodings and torch-mlir's
  ``torch.bind_symbolic_shape`` (`symshape.frontends.mlir.declared_dims`). Where jax and an
  encoding both name a dim (a jax export after ``shape-optimization``), jax's name is kept and
  the encoding's facts are restated in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from symshape.algebra.expr import subs, sym
from symshape.algebra.parse import is_identifier
from symshape.engine.program import Op, Program, SourceDim, TensorType, Value
from symshape.engine.userfacts import Divisible, Fact, Likely, Range, Relation
from symshape.errors import ModelError, where_op
from symshape.frontends.mlir.ir_adapter import IRReader, arg_attr, entry_block, is_private
from symshape.frontends.mlir.jax_export import jax_dims
from symshape.ir.attr_values import DialectAttr
from symshape.memory import gc_paused

__all__ = ["MAX_CALL_OPS", "FuncView", "build_views", "module_to_programs", "symbol_stem"]

MAX_CALL_OPS = 20000  # ops cloned for non-inlined calls in one function, at most
_SAFE = re.compile(r"[^A-Za-z0-9_]")
_RETURNS = ("func.return", "shape.assuming_yield", "stablehlo.return", "mhlo.return")


@dataclass
class FuncView:
    """One root function: its Program, its op, and Program value name -> SSA value.

    ``func`` and the values are the parser's objects (xDSL's, or the MLIR bindings' when
    `symshape.frontends.mlir.bindings_reader` read the module), hence ``Any``: the passes that read them
    run on xDSL modules only. ``facts`` are facts the module itself implies (jax's dimension
    variables are ``>= 1``); ``inlined`` names the functions whose bodies are part of ``program``.
    ``helper``: a private function called from several places, each call expanded in its caller
    (so its body is analyzed there, in the caller's dims); its own view serves the passes that
    rewrite it, and its arguments are not the program's inputs.
    """

    name: str
    func: Any
    program: Program
    values: dict[str, Any]
    facts: list[Fact] = field(default_factory=list[Fact])
    inlined: list[str] = field(default_factory=list[str])
    regions: dict[str, Any] = field(default_factory=dict[str, Any])
    helper: bool = False


def symbol_stem(name: str) -> str:
    """An identifier from a value name: ``@main:%arg0`` -> ``arg0``."""
    local = name.rsplit(":%", 1)[-1]
    stem = _SAFE.sub("_", local)
    return stem if stem and not stem[0].isdigit() else f"v{stem}"


def module_to_programs(module: Any) -> list[FuncView]:
    """One `FuncView` per root function of an xDSL ``ModuleOp`` (private single-call callees
    are inlined)."""
    from symshape.frontends.mlir.xdsl_ir import XdslIR

    return build_views(XdslIR(module))


def build_views(ir: IRReader) -> list[FuncView]:
    """One `FuncView` per root function of the module ``ir`` reads (with the cyclic collector
    paused: the build makes several objects per op and no cycles, and the collector's passes over
    a large module's objects took half its time)."""
    with gc_paused():
        return _build_views(ir)


def _build_views(ir: IRReader) -> list[FuncView]:
    funcs: dict[str, Any] = {}
    calls: dict[str, int] = {}
    for op in ir.all_ops():
        name = ir.op_name(op)
        if name == "func.func":
            funcs[ir.attr(op, "sym_name")] = op
        elif name == "func.call":
            callee = ir.attr(op, "callee")
            calls[callee] = calls.get(callee, 0) + 1
    builder = _Builder(ir, funcs, calls)
    views: list[FuncView] = []
    inlined: set[str] = set()
    defined = [(n, f) for n, f in funcs.items() if entry_block(ir, f) is not None]
    for name, fn in defined:
        if calls.get(name, 0) == 1 and is_private(ir, fn):
            continue
        view = builder.build(name, fn)
        inlined.update(view.inlined)
        views.append(view)
    for name, fn in defined:  # a single-call callee whose caller is not a root (a cycle): its own view
        if name not in inlined and all(v.name != name for v in views):
            views.append(builder.build(name, fn))
    for view in views:
        view.helper = calls.get(view.name, 0) > 0 and is_private(ir, view.func) and view.name not in builder.unexpanded
    return views


class _Builder:
    """Builds the Program of one root function (inlining single-call private callees).

    Values are named ``@func:%name`` from the text names (unique fallbacks otherwise)."""

    def __init__(self, ir: IRReader, funcs: dict[str, Any], calls: dict[str, int]) -> None:
        self.ir = ir
        self.funcs = funcs
        self.calls = calls
        self.cloned = 0
        self.unexpanded: set[str] = set()  # callees with a call whose body is not emitted in its caller
        self.entry: Any = None  # the entry block of the root function being built
        self.assigned: dict[str, dict[Any, str]] = {}  # prefix -> value -> its name (a dict each: no key tuples)
        self.taken: set[str] = set()
        self.counter = 0
        self.regions: dict[str, Any] = {}  # the region values of the root function being built

    def name(self, value: Any, fn: str, prefix: str) -> str:
        names = self.assigned.get(prefix)
        if names is None:
            names = self.assigned[prefix] = {}
        found = names.get(value)
        return found if found is not None else self.new_name(value, fn, prefix, names)

    def new_name(self, value: Any, fn: str, prefix: str, names: dict[Any, str]) -> str:
        """A name for ``value`` (not named under ``prefix`` yet): its text name, else a fresh one."""
        local = self.ir.local_name(value)
        full = f"{prefix}@{fn}:%{local}" if local else ""
        while not full or full in self.taken:
            self.counter += 1
            full = f"{prefix}@{fn}:%_v{self.counter}"
        self.taken.add(full)
        names[value] = full
        return full

    def value(self, v: Any, fn: str, program: Program, values: dict[str, Any] | None, prefix: str) -> str:
        name = self.name(v, fn, prefix)
        if name not in program.values:
            program.values[name] = Value(name, self.ir.value_type(v))
        if values is not None:
            values[name] = v
        elif not prefix:  # a region's value (a cloned call's values have a prefix: not one SSA value each)
            self.regions[name] = v
        return name

    def build(self, name: str, fn: Any) -> FuncView:
        ir = self.ir
        program = Program(name, [], [], {}, [])
        values: dict[str, Any] = {}
        self.regions = {}
        block = self.entry = entry_block(ir, fn)
        if block is None:
            raise ModelError(where=where_op("func", "func", f"@{name}"), found="the function has no body",
                             expected="a function with a body", fix="only defined functions can be analyzed")
        declared, facts = jax_dims(ir, fn, self.funcs)
        for more, implied in ir.named_dims(fn):
            declared, implied = _under_jax_names(declared, more, implied)
            facts.extend(f for f in implied if f not in facts)
        for i, arg in enumerate(ir.block_args(block)):
            vname = self.name(arg, name, "")
            values[vname] = arg
            vtype = ir.value_type(arg)
            if vtype.dims is not None:
                base = declared.get(i) or vtype.dims
                dims = tuple(d if d is not None else f"{symbol_stem(vname)}_d{axis}" for axis, d in enumerate(base))
                facts.extend(f for f in _bound_facts(dims, vtype.bounds) if f not in facts)
                vtype = TensorType(vtype.dtype, dims, vtype.bounds)
            program.values[vname] = Value(vname, vtype)
            program.inputs.append(vname)
            if vtype.dims == () and _is_int_type(vtype.dtype):
                program.ops.append(Op("func", "arg", vname, [vname], [vname], _arg_symbol(ir, fn, i, vname)))
        inlined: list[str] = []
        program.outputs = self.emit_block(block, name, program, values, [name], inlined, "")
        return FuncView(name, fn, program, values, facts, inlined, self.regions)

    def emit_block(self, block: Any, fn: str, program: Program, values: dict[str, Any] | None, stack: list[str],
                   inlined: list[str], prefix: str) -> list[str]:
        """Emit the ops of ``block``; returns the names its terminator returns."""
        ir = self.ir
        outputs: list[str] = []
        at_root = len(stack) == 1 and not prefix and block is self.entry
        for index, op in enumerate(ir.ops(block)):
            full = ir.op_name(op)
            if full in _RETURNS:
                outputs = [self.value(v, fn, program, values, prefix) for v in ir.operands(op)]
                continue
            if at_root and ir.read_by_the_frontend(op):
                continue
            if full == "func.call" or full.endswith(".composite"):
                self.emit_call(op, fn, program, values, stack, inlined, prefix)
                continue
            if full == "shape.assuming" and (blocks := ir.region_blocks(op)):
                inner = self.emit_block(blocks[0], fn, program, values, stack, inlined, prefix)
                results = [self.value(r, fn, program, values, prefix) for r in ir.results(op)]
                program.ops.append(Op("shape", "assuming", _op_name(results, fn, index, full, prefix), inner, results))
                continue
            self.emit_op(op, full, index, fn, program, values, prefix)
            if full.endswith((".while", ".case", ".if")):
                self.attach_regions(op, program.ops[-1], fn, stack, inlined, prefix)
        return outputs

    def attach_regions(self, op: Any, emitted: Op, fn: str, stack: list[str], inlined: list[str], prefix: str) -> None:
        """A loop's body (``body``) or each branch of a case/if (``branch<k>``) as a Program."""
        blocks = self.ir.region_blocks(op)
        if any(b is None for b in blocks):
            return
        if self.ir.op_name(op).endswith(".while"):
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
        sub.inputs = [self.value(a, fn, sub, None, prefix) for a in self.ir.block_args(block)]
        sub.outputs = self.emit_block(block, fn, sub, None, stack, inlined, prefix)
        return sub

    def emit_op(self, op: Any, full: str, index: int, fn: str, program: Program, values: dict[str, Any] | None,
                prefix: str) -> None:
        """Emit ``op`` (named ``full``) as one Program op."""
        ir = self.ir
        dialect, _, op_type = full.partition(".")
        operands = ir.operands(op)
        inputs = [self.value(v, fn, program, values, prefix) for v in operands]
        outputs = [self.value(r, fn, program, values, prefix) for r in ir.results(op)]
        attrs = ir.attrs(op)
        if full in _ASSERTIONS and len(operands):
            _attach_condition(ir, operands[0], attrs, inputs, lambda v: self.value(v, fn, program, values, prefix))
        program.ops.append(Op(dialect, op_type, _op_name(outputs, fn, index, full, prefix), inputs, outputs, attrs))

    def emit_call(self, op: Any, fn: str, program: Program, values: dict[str, Any] | None, stack: list[str],
                  inlined: list[str], prefix: str) -> None:
        ir = self.ir
        callee_name = ir.attr(op, "callee") or ir.attr(op, "decomposition")
        callee = self.funcs.get(callee_name)
        inputs = [self.value(v, fn, program, values, prefix) for v in ir.operands(op)]
        outputs = [self.value(r, fn, program, values, prefix) for r in ir.results(op)]
        body = entry_block(ir, callee) if callee is not None else None
        if callee is None or body is None or callee_name in stack:
            self.unexpanded.add(callee_name)
            program.ops.append(Op("func", "call", _op_name(outputs, fn, 0, "call", prefix), inputs, outputs,
                                  {"callee": callee_name}))
            return
        if self.calls.get(callee_name, 0) == 1 and is_private(ir, callee) and not prefix:
            inlined.append(callee_name)
            for src, arg in zip(inputs, ir.block_args(body), strict=False):
                dst = self.value(arg, callee_name, program, values, prefix)
                program.ops.append(Op("func", "bind", f"{dst}=", [src], [dst]))
            rets = self.emit_block(body, callee_name, program, values, [*stack, callee_name], inlined, prefix)
            for src, dst in zip(rets, outputs, strict=False):
                program.ops.append(Op("func", "bind", f"{dst}=", [src], [dst]))
            return
        call_name = _op_name(outputs, fn, len(program.ops), "call", prefix)
        sub = Program(callee_name, [], [], {}, [])
        size = ir.count_ops(body)
        if self.cloned + size <= MAX_CALL_OPS:
            self.cloned += size
            sub_prefix = f"{call_name}/"
            sub.inputs = [self.value(a, callee_name, sub, None, sub_prefix) for a in ir.block_args(body)]
            sub.outputs = self.emit_block(body, callee_name, sub, None, [*stack, callee_name], [], sub_prefix)
        else:
            self.unexpanded.add(callee_name)
        program.ops.append(Op("func", "call", call_name, inputs, outputs, {"callee": callee_name},
                              subgraphs={"body": sub} if sub.ops or sub.inputs else {}))


def _op_name(outputs: list[str], fn: str, index: int, full: str, prefix: str) -> str:
    if outputs:
        return outputs[0].split("#", 1)[0]
    return f"{prefix}@{fn}:{full}#{index}"


def _arg_symbol(ir: IRReader, fn: Any, index: int, vname: str) -> dict[str, Any]:
    """An integer scalar argument's symbol: jax's dimension variable (``jax.global_constant``)
    or one named after the argument."""
    jax_name = arg_attr(ir, fn, index, "jax.global_constant")
    dim_variable = jax_name is not None and re.fullmatch(r"[A-Za-z]\w*", jax_name) is not None
    return {"symbol": jax_name if dim_variable else symbol_stem(vname), "dim_variable": dim_variable}


# The ops whose first operand must be true for the program to go on: jax's shape assertions,
# the shape dialect's constrained form and the asserting form hand-written code uses.
_ASSERTIONS = ("stablehlo.custom_call", "mhlo.custom_call", "shape.cstr_require", "cf.assert")
# Signed predicates only: ``ult`` reads a negative operand as a huge one, so ``a <u b`` is
# ``a < b`` only for operands >= 0, which is not known here (eq and ne agree either way).
_CMPI = {0: "EQ", 1: "NE", 2: "LT", 3: "LE", 4: "GT", 5: "GE"}


def _word(value: Any) -> str:
    """An enum attribute's word: ``#stablehlo<comparison_direction LT>`` or plain ``LT``."""
    return str(value.fields.get("value") if isinstance(value, DialectAttr) else value or "").strip()


def _attach_condition(ir: IRReader, cond_value: Any, attrs: dict[str, Any], inputs: list[str],
                      name_of: Callable[[Any], str]) -> None:
    """For an assertion (``shape_assertion``, ``cstr_require``, ``cf.assert``) of ``%cond``: the
    comparison that made ``%cond``, as ``attrs["condition"]`` with its two operands appended to
    ``inputs``. An unsigned ordering is left out (it is not the signed one on negative values)."""
    cond = ir.defining_op(cond_value)
    operands = ir.operands(cond) if cond is not None else ()
    if len(operands) != 2:
        return
    name = ir.op_name(cond)
    if name.endswith(".compare"):
        direction = _word(ir.attr(cond, "comparison_direction"))
        if _word(ir.attr(cond, "compare_type")) == "UNSIGNED" and direction not in ("EQ", "NE"):
            return
    elif name == "arith.cmpi":
        direction = _CMPI.get(ir.attr(cond, "predicate"), "")
    else:
        return
    attrs["condition"] = {"direction": direction, "lhs": len(inputs), "rhs": len(inputs) + 1}
    inputs.extend(name_of(v) for v in operands)


def _bound_facts(dims: tuple[SourceDim, ...], bounds: tuple[int | None, ...] | None) -> list[Fact]:
    """``d <= bound`` for each argument dim a ``#stablehlo.bounds`` encoding bounds (a dim named
    by an expression rather than one symbol is left to the expression's own facts)."""
    if bounds is None:
        return []
    return [Range(d, hi=b) for d, b in zip(dims, bounds, strict=True)
            if b is not None and isinstance(d, str) and d.isidentifier()]


def _is_int_type(dtype: str) -> bool:
    return dtype == "index" or re.fullmatch(r"u?i\d+|si\d+", dtype) is not None


ArgDims = dict[int, tuple[SourceDim, ...]]


def _under_jax_names(jax: ArgDims, named: ArgDims, implied: list[Fact]) -> tuple[ArgDims, list[Fact]]:
    """The arguments' dims as jax names them, and as ``named`` names them where jax does not;
    ``named``'s facts restated in jax's name of the same dim. A module ``shape-optimization``
    wrote names its dims ``S0``, ``S1``...: its facts about them are facts about jax's ``b``,
    ``s`` (a fact about a dim jax names by an expression is left out, so none names a symbol no
    dim has)."""
    renames: dict[str, str] = {}
    dropped: set[str] = set()
    merged = {**named, **jax}
    for i, mine in named.items():
        theirs = jax.get(i)
        if theirs is None or len(theirs) != len(mine):
            continue
        merged[i] = tuple(t if t is not None else m for m, t in zip(mine, theirs, strict=True))
        for m, t in zip(mine, theirs, strict=True):
            if isinstance(m, str) and isinstance(t, str) and m != t:
                if is_identifier(t):
                    renames[m] = t
                else:
                    dropped.add(m)
    return merged, [_renamed(f, renames) for f in implied if not f.symbols & dropped]


def _renamed(fact: Fact, renames: dict[str, str]) -> Fact:
    if not fact.symbols & renames.keys():
        return fact
    if isinstance(fact, Range | Likely):
        return replace(fact, symbol=renames[fact.symbol])
    mapping = {old: sym(new) for old, new in renames.items()}
    if isinstance(fact, Divisible):
        return replace(fact, expr=subs(fact.expr, mapping))
    if isinstance(fact, Relation):
        return replace(fact, lhs=subs(fact.lhs, mapping), rhs=subs(fact.rhs, mapping))
    return fact
