"""The expanded signature of each function, decided before any IR changes (seed 002).

`plan_signatures` analyzes every function of a module on its own (a private function called
once is not inlined into its caller here: its signature must hold for any caller) and decides,
per function, which ``index`` arguments it gains and what each dynamic result dim is:

* per dim (IREE's form): one ``index`` argument per ``?`` dim of a tensor argument;
* per class (``dedupe``): one ``index`` argument per equivalence class of argument dims, as the
  analysis decides them (a dim the analysis proves constant gets no argument, its tie takes the
  constant). Classes come from what the function requires (an add of two ``?`` tensors makes
  their dims equal) and from the module's constraint IR, loaded as `shape-optimization` loads it.

Each slot is placed right after the first tensor argument that has a dim of its class. A result
dim is the analysis's expression over the argument symbols (`Signature.result_dims`); the symbols
an argument slot gives (`Signature.leaves`) are a slot's dim ``s`` or a linear ``c*s + k``.
A declaration (no body) has no analysis: its slots follow the ``[@S0, ...]`` encodings of its
argument types when it has them and ``dedupe`` is on, else one per ``?`` dim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DictionaryAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, SSAValue

from symshape.algebra.expr import Dim, Expr, as_symbol
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.errors import UserFactError, where_fact
from symshape.frontends.mlir.attributes import is_tensor
from symshape.frontends.mlir.program_builder import FuncView, module_to_programs
from symshape.ir.dialects import constraint as c
from symshape.rules.walker import analyze
from symshape.tools.mlir_passes.constraint_load import argument_dims, argument_names, load_constraints

EXPANDED = "symshape.expanded_dims"
"""The unit attribute that marks an expanded function (a second run leaves it alone)."""

ASSUMES = "symshape.assumes"
"""The function attribute listing the guards its computed result dims assume."""


@dataclass(frozen=True)
class Slot:
    """One new ``index`` argument: it carries dim ``axis`` of original argument ``arg``."""

    arg: int
    axis: int
    hint: str


@dataclass
class Signature:
    """How one function's signature grows.

    ``arg_ties[i][axis]`` is what ties dim ``axis`` of argument ``i``: its `Slot`, or a constant
    (the static size, or the size the analysis proves); ``slots_after[i]`` are the slots placed
    right after argument ``i``. ``result_dims[j][axis]`` is the analysis's dim of result ``j``
    (None: static, or unknown); ``result_dynamic[j]`` are its ``?`` axes. ``leaves`` maps a
    symbol ``s`` to the slot whose value is ``coeff * s + const``.
    """

    arg_ties: list[list[Slot | int]]
    slots_after: list[list[Slot]]
    result_dims: list[list[Dim | None]]
    result_dynamic: list[list[int]]
    leaves: dict[str, tuple[Slot, int, int]] = field(default_factory=dict[str, tuple[Slot, int, int]])
    assumes: tuple[str, ...] = ()
    """The analysis's guards (``cond (origin)``): the computed result dims hold under them."""

    def slots(self) -> list[Slot]:
        """All new arguments, in signature order."""
        return [s for after in self.slots_after for s in after]

    def positions(self) -> dict[Slot, int]:
        """Each slot's position in the expanded argument list."""
        out: dict[Slot, int] = {}
        pos = 0
        for after in self.slots_after:
            pos += 1
            for slot in after:
                out[slot] = pos
                pos += 1
        return out

    def without_result_dims(self) -> Signature:
        """The same signature, every result dim read back from its tensor."""
        unknown: list[list[Dim | None]] = [[None] * len(row) for row in self.result_dims]
        return Signature(self.arg_ties, self.slots_after, unknown, self.result_dynamic, self.leaves, self.assumes)

    def is_trivial(self) -> bool:
        """No ``?`` dim anywhere: the signature does not change."""
        return not self.slots() and not any(self.result_dynamic)


def dynamic_axes(t: Attribute) -> list[int]:
    """The ``?`` axes of a ranked tensor type (none for any other type)."""
    if not is_tensor(t):
        return []
    return [k for k, n in enumerate(t.get_shape()) if n == DYNAMIC_INDEX]


def carries_constraints(module: ModuleOp) -> bool:
    """Whether ``module`` holds the constraint IR `shape-optimization` saves."""
    for op in module.walk():
        if isinstance(op, c.SymbolicDimOp):
            return True
        if isinstance(op, func.FuncOp) and any(
            is_tensor(t) and c.symbol_encoding(t.encoding) is not None for t in op.function_type.inputs.data
        ):
            return True
    return False


def plan_signatures(module: ModuleOp, dedupe: bool, facts: Sequence[Fact] = ()) -> dict[str, Signature]:
    """The expanded signature of every function of ``module`` (not yet expanded, not the graph)."""
    pinned = pinned_functions(module)
    funcs = [f for f in module.ops if isinstance(f, func.FuncOp) and _expandable(f, pinned)]
    analyses = _analyze_alone(module, facts) if any(f.body.blocks for f in funcs) else {}
    out: dict[str, Signature] = {}
    for fn in funcs:
        name = fn.sym_name.data
        found = analyses.get(name)
        if found is None:
            out[name] = _declared(fn, dedupe)
        else:
            out[name] = _analyzed(fn, dedupe, *found)
    return out


def _expandable(fn: func.FuncOp, pinned: set[str]) -> bool:
    name = fn.sym_name.data
    return name != c.GRAPH_FUNCTION and name not in pinned and EXPANDED not in fn.attributes


def pinned_functions(module: ModuleOp) -> set[str]:
    """Functions some op other than ``func.call`` names (``stablehlo.composite``'s
    ``decomposition = @impl``, a custom call's ``called_computations``): that op fixes their
    signature, so they keep it."""
    out: set[str] = set()
    for op in module.walk():
        if isinstance(op, func.CallOp):
            continue
        for attr in [*op.attributes.values(), *op.properties.values()]:
            out |= _symbols_in(attr)
    return out


def _symbols_in(attr: Attribute) -> set[str]:
    if isinstance(attr, SymbolRefAttr):
        return {attr.root_reference.data}
    if isinstance(attr, ArrayAttr):
        return {s for a in cast("ArrayAttr[Attribute]", attr).data for s in _symbols_in(a)}
    if isinstance(attr, DictionaryAttr):
        return {s for a in attr.data.values() for s in _symbols_in(a)}
    return set()


def _analyze_alone(module: ModuleOp, facts: Sequence[Fact]) -> dict[str, tuple[FuncView, Analysis]]:
    """Each defined function analyzed as a root, under the module's constraint IR."""
    clone = module.clone()
    loaded = load_constraints(clone)
    for fn in clone.ops:
        if isinstance(fn, func.FuncOp) and fn.body.blocks:
            fn.sym_visibility = None  # a root of its own: never inlined into a caller
    out: dict[str, tuple[FuncView, Analysis]] = {}
    used: set[Fact] = set()
    known: set[str] = set()
    for view in module_to_programs(clone):
        args = argument_names(view.values, view.func)
        symbols = {
            s for dims in argument_dims(view.program).values() for d in dims if isinstance(d, Expr) for s in d.free
        }
        mine = [f for f in facts if f.symbols <= symbols]
        used.update(mine)
        known |= symbols
        loaded_facts = loaded.facts_for(view.name, view.program, args)
        analysis = analyze(view.program, facts=[*view.facts, *loaded_facts, *mine], source=f"@{view.name}")
        out[view.name] = (view, analysis)
    unused = [f for f in facts if f not in used]
    if unused:
        raise UserFactError(
            where=where_fact(str(unused[0])),
            found="it names a symbol no function of the module has",
            expected=f"symbols of the argument dims: {', '.join(sorted(known)) or 'none'}",
            fix="name the argument dims as <arg>_d<axis> or by their declared names",
        )
    return out


def _declared(fn: func.FuncOp, dedupe: bool) -> Signature:
    """A declaration: slots from the types (and their encodings, when deduping)."""
    ins = fn.function_type.inputs.data
    seen: dict[str, Slot] = {}
    ties: list[list[Slot | int]] = []
    after: list[list[Slot]] = []
    for i, t in enumerate(ins):
        names = c.symbol_encoding(t.encoding) if is_tensor(t) else None
        row: list[Slot | int] = list(t.get_shape()) if is_tensor(t) else []
        mine: list[Slot] = []
        for axis in dynamic_axes(t):
            key = names[axis] if dedupe and names is not None and len(names) == len(row) else None
            slot = seen.get(key) if key is not None else None
            if slot is None:
                slot = Slot(i, axis, key or f"arg{i}_d{axis}")
                mine.append(slot)
                if key is not None:
                    seen[key] = slot
            row[axis] = slot
        ties.append(row)
        after.append(mine)
    outs = fn.function_type.outputs.data
    result_dims: list[list[Dim | None]] = [[None] * len(t.get_shape()) if is_tensor(t) else [] for t in outs]
    return Signature(ties, after, result_dims, [dynamic_axes(t) for t in outs])


def _analyzed(fn: func.FuncOp, dedupe: bool, view: FuncView, analysis: Analysis) -> Signature:
    """A defined function: slots per dim or per class of the analysis, results from it."""
    entry = fn.body.blocks.first
    assert entry is not None
    names = argument_names(view.values, view.func)
    seen: dict[Dim, Slot] = {}
    ties: list[list[Slot | int]] = []
    after: list[list[Slot]] = []
    leaves: dict[str, tuple[Slot, int, int]] = {}
    for i, arg in enumerate(entry.args):
        t = arg.type
        row: list[Slot | int] = list(t.get_shape()) if is_tensor(t) else []
        shape = analysis.shape_or_none(names[i]) if i < len(names) and names[i] else None
        mine: list[Slot] = []
        for axis in dynamic_axes(t):
            d = shape[axis] if shape is not None and len(shape) == len(row) else None
            if dedupe and isinstance(d, int):
                row[axis] = d
                continue
            slot = seen.get(d) if dedupe and d is not None else None
            if slot is None:
                slot = Slot(i, axis, _hint(arg, i, axis, d, dedupe))
                mine.append(slot)
                if d is not None:
                    seen.setdefault(d, slot)
                    _add_leaf(leaves, d, slot)
            row[axis] = slot
        ties.append(row)
        after.append(mine)
    result_dims = _result_dims(fn, view, analysis)
    outs = fn.function_type.outputs.data
    assumes = tuple(f"{cond} ({origin})" for cond, origin, _ in analysis.guards())
    return Signature(ties, after, result_dims, [dynamic_axes(t) for t in outs], leaves, assumes)


def _hint(arg: SSAValue, i: int, axis: int, d: Dim | None, dedupe: bool) -> str:
    """``%arg0_d1`` per dim; per class, the class's symbol when it is one (``%b``, ``%S0``)."""
    names = c.symbol_encoding(arg.type.encoding) if is_tensor(arg.type) else None
    if dedupe and names is not None and axis < len(names):
        return names[axis]
    s = as_symbol(d) if dedupe and d is not None else None
    return s if s is not None else f"{arg.name_hint or f'arg{i}'}_d{axis}"


def _add_leaf(leaves: dict[str, tuple[Slot, int, int]], d: Dim, slot: Slot) -> None:
    """Record the symbol a slot's dim gives: ``s`` itself, or ``s`` of a linear ``c*s + k``."""
    s = as_symbol(d)
    if s is not None:
        if leaves.get(s, (slot, 2, 0))[1:] != (1, 0):  # the symbol itself beats a linear form
            leaves[s] = (slot, 1, 0)
        return
    if not isinstance(d, Expr) or len(d.free) != 1:
        return
    (s,) = d.free
    const = sum(k for mono, k in d.terms if not mono)
    linear = [k for mono, k in d.terms if len(mono) == 1 and str(mono[0]) == s]
    if linear and linear[0] > 0 and len(d.terms) == 1 + (const != 0) and s not in leaves:
        leaves[s] = (slot, linear[0], const)


def _result_dims(fn: func.FuncOp, view: FuncView, analysis: Analysis) -> list[list[Dim | None]]:
    """The analysis's dim of each ``?`` axis of each result (None where static or unknown)."""
    name_of = {v: n for n, v in view.values.items()}
    ret = view.func.body.blocks.first.last_op if view.func.body.blocks.first else None
    outs = fn.function_type.outputs.data
    rows: list[list[Dim | None]] = []
    for j, t in enumerate(outs):
        row: list[Dim | None] = [None] * len(t.get_shape()) if is_tensor(t) else []
        value = ret.operands[j] if ret is not None and j < len(ret.operands) else None
        name = name_of.get(value) if value is not None else None
        shape = analysis.shape_or_none(name) if name else None
        if shape is not None and len(shape) == len(row):
            for axis in dynamic_axes(t):
                row[axis] = shape[axis]
        rows.append(row)
    return rows
