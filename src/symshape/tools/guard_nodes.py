"""Requirements written into an ONNX model as nodes that fail at run time (``annotate --guards``).

ai.onnx has no Assert op. What onnxruntime does raise on, reliably and at every optimization
level, is a Reshape to a dim below -1; its error names the node. So for each requirement (a
binding of a declared input dim, a symbol's range or divisor, a kept predicate, an unsolved
equation, a user fact, a listed guard) the condition is computed from the input shapes
(``Shape -> Gather``, then Add/Mul/Div/Mod/Min/Max and a comparison), and each ranked input
passes through ``Reshape(x, Where(ok, Shape(x), [-2]))``, an identity when the condition holds,
whose node name is the requirement's text:

    Non-zero status code returned while running Reshape node. Name:'symshape guard: range
    seq <= 64 (Add (node 'a')); ...' Status Message: ... A dimension cannot be less than -1

Every consumer of the input reads the last Reshape of its chain, so no op that reads an input
runs before its checks. Requirements over data-dependent or fresh symbols, and conditions with an
atom the writer cannot express, are left out (counted).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import onnx
from onnx import TensorProto, helper

from symshape.algebra.expr import Dim, Expr, FloorDiv, MaxAtom, MinAtom, ModAtom, Sym, as_symbol, sym
from symshape.engine.inputs import declared_input_dims
from symshape.engine.result import Analysis
from symshape.tools.checking import Pin, pin_for, where_of
from symshape.tools.checking.items import BINDING, DIVISOR, RANGE, Item, relation_items, symbol_items

PREFIX = "symshape guard: "
MIN_OPSET = 13
_COMPARE = {"<=": "LessOrEqual", "<": "Less", ">=": "GreaterOrEqual", ">": "Greater", "==": "Equal"}


class _Unsupported(Exception):
    """An atom the writer has no ONNX form for."""


@dataclass
class _Emitter:
    """Builds int64 scalar nodes for expressions over the input symbols (cached by text)."""

    nodes: list[onnx.NodeProto] = field(default_factory=list[onnx.NodeProto])
    initializers: list[onnx.TensorProto] = field(default_factory=list[onnx.TensorProto])
    symbols: dict[str, str] = field(default_factory=dict[str, str])
    cache: dict[str, str] = field(default_factory=dict[str, str])
    count: int = 0
    taken: set[str] = field(default_factory=set[str])

    def name(self) -> str:
        """A value name no node, input or initializer of the model uses."""
        self.count += 1
        while f"symshape_guard_{self.count}" in self.taken:
            self.count += 1
        return f"symshape_guard_{self.count}"

    def node(self, op: str, inputs: Iterable[str], attrs: dict[str, int] | None = None) -> str:
        out = self.name()
        node = helper.make_node(op, list(inputs), [out], name=out)
        node.attribute.extend(helper.make_attribute(k, v) for k, v in (attrs or {}).items())
        self.nodes.append(node)
        return out

    def const(self, value: int | list[int]) -> str:
        key = f"const {value}"
        if key not in self.cache:
            out = self.name()
            dims = [len(value)] if isinstance(value, list) else []
            vals = value if isinstance(value, list) else [value]
            self.initializers.append(helper.make_tensor(out, TensorProto.INT64, dims, vals))
            self.cache[key] = out
        return self.cache[key]

    def dim(self, value: Dim) -> str:
        """A scalar node holding ``value``."""
        if isinstance(value, int):
            return self.const(value)
        key = str(value)
        if key not in self.cache:
            self.cache[key] = self._sum(value)
        return self.cache[key]

    def _sum(self, d: Expr) -> str:
        total: str | None = None
        for mono, coeff in d.terms:
            term: str | None = None
            for atom in mono:
                node = self._atom(atom)
                term = node if term is None else self.node("Mul", [term, node])
            if term is None:
                term = self.const(coeff)
            elif coeff != 1:
                term = self.node("Mul", [term, self.const(coeff)])
            total = term if total is None else self.node("Add", [total, term])
        return total if total is not None else self.const(0)

    def _atom(self, atom: object) -> str:
        if isinstance(atom, Sym):
            return self.symbols[atom.name]
        if isinstance(atom, (FloorDiv, ModAtom)):
            num, den = self.dim(atom.num), self.dim(atom.den)
            mod = self.node("Mod", [num, den], {"fmod": 0})  # floor semantics: the sign of den
            if isinstance(atom, ModAtom):
                return mod
            return self.node("Div", [self.node("Sub", [num, mod]), den])  # exact: num - mod is a multiple
        if isinstance(atom, (MaxAtom, MinAtom)):
            return self.node("Max" if isinstance(atom, MaxAtom) else "Min", [self.dim(a) for a in atom.args])
        raise _Unsupported(str(atom))

    def condition(self, item: Item) -> str:
        """A bool scalar node: whether ``item`` holds."""
        lhs, rhs = self.dim(item.lhs), self.dim(item.rhs)
        if item.rel == "divisible":
            return self.node("Equal", [self.node("Mod", [lhs, rhs], {"fmod": 0}), self.const(0)])
        if item.rel == "!=":
            return self.node("Not", [self.node("Equal", [lhs, rhs])])
        return self.node(_COMPARE[item.rel], [lhs, rhs])


@dataclass(frozen=True)
class Written:
    """How many requirements were written, and how many were left out (with a reason each)."""

    written: int
    left_out: tuple[str, ...]


def add_guard_nodes(model: onnx.ModelProto, analysis: Analysis) -> Written:
    """Write every requirement of ``analysis`` into ``model`` as failing Reshapes (in place)."""
    graph = model.graph
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset < MIN_OPSET:
        return Written(0, (f"the model's opset {opset} is below {MIN_OPSET}",))
    readers = list(_all_nodes(graph.node))
    taken = {o for n in readers for o in n.output} | {v.name for v in graph.input} | {i.name for i in graph.initializer}
    hosts = _hosts(graph, analysis)
    if not hosts:
        return Written(0, ("no graph input of rank >= 1 is read by a node",))
    emit = _Emitter(taken=taken)
    pin = pin_for(analysis)
    items = list(_bindings(analysis, emit)) + [
        _named(pin, item) for name in sorted(emit.symbols) for item in symbol_items(analysis, name)
    ]
    seen: set[str] = set()
    checks: list[tuple[str, str]] = []
    left_out: list[str] = []
    for item in items + list(relation_items(analysis)):
        text = f"{item.kind} {item.condition()}"
        if not item.new(seen):
            continue
        if item.free - emit.symbols.keys():
            left_out.append(f"{text}: over {', '.join(sorted(item.free - emit.symbols.keys()))}")
            continue
        try:
            ok = emit.condition(item)
        except _Unsupported as err:
            left_out.append(f"{text}: no ONNX form for '{err}'")
            continue
        checks.append((ok, f"{PREFIX}{text} ({item.origin}); {item.fix()}"))
    if not checks:
        return Written(0, tuple(left_out))
    for host in hosts:
        _gate(emit, host, checks, readers)
    nodes = emit.nodes + list(graph.node)  # the checks read only graph inputs and initializers: first
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(emit.initializers)
    return Written(len(checks), tuple(left_out))


def _named(pin: Pin, item: Item) -> Item:
    """A symbol's range end or divisor with the op that needs it: the analysis is run with the
    symbol pinned just past it (a symbol's facts keep only their latest origin)."""
    name = as_symbol(item.lhs)
    if item.kind not in (RANGE, DIVISOR) or name is None or not isinstance(item.rhs, int):
        return item
    past = {">=": item.rhs - 1, "<=": item.rhs + 1, "divisible": item.rhs + 1}[item.rel]
    found = pin({name: past}) if past >= 0 else ""
    return replace(item, origin=where_of(found)) if found else item


def _bindings(analysis: Analysis, emit: _Emitter) -> Iterable[Item]:
    """Each declared symbolic input dim read into ``emit.symbols`` (first place a free symbol
    appears), and the others as ``dim == value`` items."""
    program = analysis.program
    for name in program.inputs:
        dims = declared_input_dims(program, name)
        if dims is None:
            continue
        shape = emit.node("Shape", [name])
        for axis, d in enumerate(dims):
            if isinstance(d, int):
                continue  # onnxruntime checks declared static dims itself
            node = emit.node("Gather", [shape, emit.const(axis)], {"axis": 0})
            c = analysis.public(d)
            s = as_symbol(c)
            if s is not None and s not in emit.symbols:
                emit.symbols[s] = node
                continue
            place = f"input '{name}' dim {axis}"
            emit.symbols[place] = node
            bound = analysis.graph.binding(as_symbol(d) or "")
            origin = str(bound[1]) if bound else f"input '{name}' dim {axis}"
            yield Item(BINDING, origin, sym(place), "==", c)


def _hosts(graph: onnx.GraphProto, analysis: Analysis) -> list[str]:
    """The graph inputs of rank >= 1 that some node reads."""
    read = {i for node in _all_nodes(graph.node) for i in node.input}
    out: list[str] = []
    for name in analysis.program.inputs:  # not the initializers an old model lists as inputs
        value = analysis.program.values.get(name)
        ranked = value is not None and value.type is not None and value.type.dims
        if ranked and name in read:
            out.append(name)
    return out


def _gate(emit: _Emitter, host: str, checks: list[tuple[str, str]], readers: list[onnx.NodeProto]) -> None:
    """Pass ``host`` through one failing Reshape per check; the model's own ``readers`` of it
    read the last one."""
    if not checks:
        return
    shape = emit.node("Shape", [host])
    bad = emit.const([-2])
    current = host
    for ok, text in checks:
        target = emit.node("Where", [ok, shape, bad])
        out = emit.name()
        emit.nodes.append(helper.make_node("Reshape", [current, target], [out], name=f"{text} [{host}]"))
        current = out
    for node in readers:
        for k, name in enumerate(node.input):
            if name == host:
                node.input[k] = current


def _all_nodes(nodes: Iterable[onnx.NodeProto]) -> Iterable[onnx.NodeProto]:
    """Nodes and the nodes of their subgraphs (which may read an outer input by name)."""
    for node in nodes:
        yield node
        for attr in node.attribute:
            subgraphs = [attr.g] if attr.HasField("g") else list(attr.graphs)
            for g in subgraphs:
                yield from _all_nodes(g.node)
