"""The result of an analysis and the questions it answers.

Fresh symbols get canonical public names here (in order of first appearance), so the same input
gives the same output bytes.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from symshape.algebra.expr import Dim, Expr, product, subs, sym
from symshape.engine.causes import Cause
from symshape.engine.constraints import ConstraintGraph, SymbolInfo
from symshape.engine.contradictions import USER_FACT
from symshape.engine.program import Program

if TYPE_CHECKING:

    pass

_PRIVATE_NAME = re.compile(r"\b_t\d+_*")
DimRef = tuple[str, int]
Region = tuple[tuple[Dim, ...], tuple[Dim, ...] | None, ConstraintGraph]
"""A value inside a loop body or branch: its dims, its tracked elements, and the graph (the
region's facts) they hold on."""


@dataclass(frozen=True)
class Unresolved:
    """A dim (axis -1: the whole value) the analysis could not express, the reason, the root cause."""

    value: str
    axis: int
    reason: str
    cause: Cause | None = None


@dataclass(frozen=True)
class CauseGroup:
    """The unresolved dims (axis -1: a whole value) and fresh symbols one root cause explains."""

    cause: Cause
    dims: tuple[DimRef, ...]
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class Warning_:
    """Something the analysis skipped: an op without a rule, or a rule that gave up (and the
    root cause it points to, which is another op's when an input it needed was unknown)."""

    op_name: str
    op_type: str
    message: str
    cause: Cause | None = None

    def follows_earlier_cause(self) -> bool:
        """Whether this op gave up only because an earlier cause left its input unknown."""
        cause = self.cause
        return cause is not None and (cause.op_type, cause.op_name) != (self.op_type, self.op_name)


class Analysis:
    """Shapes, tracked elements, equivalence classes, sources, guards and symbols."""

    def __init__(
        self,
        program: Program,
        graph: ConstraintGraph,
        shapes: dict[str, tuple[Dim, ...]],
        elements: dict[str, tuple[Dim, ...]],
        unresolved: list[Unresolved],
        warnings: list[Warning_],
        source: str = "",
        causes: dict[str, Cause] | None = None,
    ) -> None:
        self.program = program
        self.graph = graph
        self.unresolved = unresolved
        self.warnings = warnings
        self.source = source
        self.notes: list[str] = []  # what a frontend adds (torch.export: the comparison with torch)
        self.regions: dict[str, Region] = {}  # the values of loop bodies and branches (`region_shape`)
        self._raw_shapes = shapes
        self._raw_elements = elements
        self._names: list[str] | None = None
        self._every_name: set[str] | None = None
        self._rename: dict[str, Dim] = {}
        self._shapes: dict[str, tuple[Dim, ...]] = {}
        self._symbol_causes = causes or {}
        self._name_fresh_symbols()
        if unresolved:
            back = {str(v): k for k, v in self._rename.items()}
            unresolved = [u for u in unresolved if not self._resolved_later(u, back)]
        self.unresolved = unresolved + self._derived_dims({(u.value, u.axis) for u in unresolved})

    # ------------------------------------------------------------ naming
    def value_names(self) -> list[str]:
        """Every value with a known shape, inputs first, then in op order."""
        if self._names is None:
            order = list(self.program.inputs)
            for op in self.program.ops:
                order.extend(op.outputs)
            raw = self._raw_shapes
            self._names = [n for n in dict.fromkeys(order) if n and n in raw]
        return self._names

    def _name_fresh_symbols(self) -> None:
        graph = self.graph
        if all(info.kind in ("input", "user") for info in graph.symbols.values()):
            canon = graph.canon  # fast path: no fresh symbol to rename
            for name in self.value_names():
                self._shapes[name] = tuple(canon(d) for d in self._raw_shapes[name])
            return
        taken = {n for n, info in graph.symbols.items() if info.kind in ("input", "user")}
        counters: dict[str, int] = {}
        for name in self.value_names():
            dims = tuple(graph.canon(d) for d in self._raw_shapes[name])
            for d in dims:
                if not isinstance(d, Expr):
                    continue
                for s in sorted(d.free):
                    info = graph.symbols.get(s)
                    if info is None or info.kind in ("input", "user") or s in self._rename:
                        continue
                    stem = "".join(c for c in info.origin.op_type.lower() if c.isalnum()) or "s"
                    while True:
                        k = counters.get(stem, 0)
                        counters[stem] = k + 1
                        public = f"{stem}_{k}"
                        if public not in taken:
                            break
                    taken.add(public)
                    self._rename[s] = sym(public)
            self._shapes[name] = tuple(subs(d, self._rename) for d in dims)

    def _resolved_later(self, u: Unresolved, back: dict[str, str]) -> bool:
        """A dim a rule could not give whose final value is over program inputs only: a later op
        tied it to them (``add(custom_call(a), a)`` makes the call's result dim ``a_d0``)."""
        dims = self._shapes.get(u.value)
        if dims is None or not 0 <= u.axis < len(dims):
            return False
        d = dims[u.axis]
        if isinstance(d, int):
            return True
        for s in d.free:
            info = self.graph.symbols.get(back.get(s, s))
            if info is None or info.kind not in ("input", "user"):
                return False
        return True

    def _derived_dims(self, listed: set[DimRef]) -> list[Unresolved]:
        """Dims that depend on a symbol a rule invented for lack of a formula (not a data-dependent
        size, which is a real answer): they are unresolved, with the symbol's origin."""
        graph = self.graph
        out: list[Unresolved] = []
        if all(info.kind != "derived" for info in graph.symbols.values()):
            return out
        back = {str(v): k for k, v in self._rename.items()}
        for name in self.value_names():
            for axis, d in enumerate(self._shapes[name]):
                if not isinstance(d, Expr) or (name, axis) in listed:
                    continue
                for s in sorted(d.free):
                    private = back.get(s, s)
                    info = graph.symbols.get(private)
                    if info is not None and info.kind == "derived":
                        cause = self._cause_of_symbol(private, info)
                        reason = f"'{d}' depends on '{s}', made by {info.origin}, because {cause}"
                        out.append(Unresolved(name, axis, reason, cause))
                        break
        return out

    def _cause_of_symbol(self, private: str, info: SymbolInfo) -> Cause:
        found = self._symbol_causes.get(private)
        if found is None:
            origin = info.origin
            found = Cause(origin.op_type, origin.op_name, f"its rule has no formula for '{origin.rule or 'a dim'}'")
        return found

    def causes(self) -> list[CauseGroup]:
        """Unresolved dims grouped by root cause, most dims first: "165 dims from 3 causes"."""
        groups: dict[Cause, dict[DimRef, None]] = {}  # dims in order, each once
        for u in self.unresolved:
            cause = u.cause or Cause("input" if u.value in self.program.inputs else "value", u.value, u.reason)
            groups.setdefault(cause, {})[(u.value, u.axis)] = None
        symbols: dict[Cause, list[str]] = {}
        back = {str(v): k for k, v in self._rename.items()}
        for public, private in back.items():
            info = self.graph.symbols.get(private)
            if info is not None and info.kind == "derived":
                symbols.setdefault(self._cause_of_symbol(private, info), []).append(public)
        order = sorted(groups, key=lambda c: -len(groups[c]))
        return [CauseGroup(c, tuple(groups[c]), tuple(symbols.get(c, ()))) for c in order]

    def fresh_symbols(self) -> list[tuple[str, list[str]]]:
        """Fresh symbols still in some shape, grouped by the op that made them (in order)."""
        out: dict[str, list[str]] = {}
        for private, public in self._rename.items():
            info = self.graph.symbols.get(private)
            if info is not None:
                out.setdefault(info.origin.where(), []).append(str(public))
        return list(out.items())

    def public(self, d: Dim) -> Dim:
        """``d`` in canonical form with public symbol names."""
        return subs(self.graph.canon(d), self._rename)

    def public_text(self, text: str) -> str:
        """``text`` with private fresh-symbol names replaced by their public names."""
        if not self._rename:
            return text
        return _PRIVATE_NAME.sub(lambda m: str(self._rename.get(m.group(0), m.group(0))), text)

    # --------------------------------------------------------- questions
    def shape(self, value: str) -> tuple[Dim, ...] | None:
        """The dims of ``value`` (ints and expressions over input symbols), or None when the
        analysis could not tell them; KeyError, with the closest names, when the program has no
        value of that name (a typo must not read as "unknown")."""
        found = self._shapes.get(value)
        if found is None and value not in self._all_names():
            close = difflib.get_close_matches(value, sorted(self._all_names()), n=3)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
            raise KeyError(f"no value named {value!r} in the program{hint}")
        return found

    def shape_or_none(self, value: str) -> tuple[Dim, ...] | None:
        """`shape`, but None (never KeyError) for a name the program lacks: for tools that ask
        about values they made (an optimized graph's new nodes)."""
        return self._shapes.get(value)

    def has_value(self, value: str) -> bool:
        """Whether the program (or one of its subgraphs) has a value of that name."""
        return value in self._all_names()

    def _all_names(self) -> set[str]:
        if self._every_name is None:
            names: set[str] = set()
            stack = [self.program]
            while stack:
                program = stack.pop()
                names.update(program.values, program.inputs, program.outputs)
                for op in program.ops:
                    names.update(o for o in op.outputs if o)
                    stack.extend(op.subgraphs.values())
            names.update(self._shapes)
            self._every_name = names
        return self._every_name

    def region_shape(self, value: str) -> Region | None:
        """The dims and elements of a value inside a loop body or branch, with public names, and
        the graph they hold on (a scratch copy with the region's facts, or the main graph), or None."""
        found = self.regions.get(value)
        if found is None:
            return None
        dims, els, graph = found

        def public(ds: tuple[Dim, ...]) -> tuple[Dim, ...]:
            return tuple(subs(graph.canon(d), self._rename) for d in ds)

        return public(dims), None if els is None else public(els), graph

    def elements(self, value: str) -> tuple[Dim, ...] | None:
        """The tracked elements of a small integer tensor (a shape tensor), or None."""
        raw = self._raw_elements.get(value)
        return None if raw is None else tuple(self.public(d) for d in raw)

    def dim(self, ref: DimRef) -> Dim:
        """One dim, ``(value, axis)``; KeyError / IndexError when unknown."""
        shape = self._shapes[ref[0]]
        return shape[ref[1]]

    def same_dim(self, a: DimRef, b: DimRef) -> bool | None:
        """True (proven equal), False (proven different) or None (unknown)."""
        return self.graph.prove_eq(self.private(self.dim(a)), self.private(self.dim(b)))

    def same_shape(self, v: str, w: str) -> bool | None:
        """Whether ``v`` and ``w`` provably have the same shape (None: unknown)."""
        sv, sw = self.shape_or_none(v), self.shape_or_none(w)
        if sv is None or sw is None:
            return None
        if len(sv) != len(sw):
            return False
        answers = [self.graph.prove_eq(self.private(a), self.private(b)) for a, b in zip(sv, sw, strict=True)]
        if all(a is True for a in answers):
            return True
        return False if any(a is False for a in answers) else None

    def same_numel(self, v: str, w: str) -> bool | None:
        """Whether ``v`` and ``w`` provably have the same number of elements."""
        sv, sw = self.shape_or_none(v), self.shape_or_none(w)
        if sv is None or sw is None:
            return None
        return self.graph.prove_eq(self.private(product(sv)), self.private(product(sw)))

    def private(self, d: Dim) -> Dim:
        """The inverse of `public`: ``d`` over the graph's own symbol names, canonical."""
        if not self._rename or isinstance(d, int):
            return d
        back = {str(v): sym(k) for k, v in self._rename.items()}
        return self.graph.canon(subs(d, back))

    def classes(self) -> list[list[DimRef]]:
        """Equivalence classes of dynamic dims (seed 004), largest first."""
        groups: dict[Dim, list[DimRef]] = {}
        for name in self.value_names():
            for axis, d in enumerate(self._shapes[name]):
                if isinstance(d, Expr):
                    groups.setdefault(d, []).append((name, axis))
        return sorted(groups.values(), key=lambda g: -len(g))

    def sources(self, value: str) -> list[list[DimRef]]:
        """For each dim of ``value``, the graph-input dims it is computed from (seed 001)."""
        origin_of = self._input_dim_sources()
        out: list[list[DimRef]] = []
        for d in self._shapes.get(value, ()):
            refs: set[DimRef] = set()
            if isinstance(d, Expr):
                for s in d.free:
                    refs |= origin_of.get(s, set())
            out.append(sorted(refs))
        return out

    def _input_dim_sources(self) -> dict[str, set[DimRef]]:
        table: dict[str, set[DimRef]] = {}
        for name in self.program.inputs:
            for axis, d in enumerate(self._shapes.get(name, ())):
                if isinstance(d, Expr):
                    for s in d.free:
                        table.setdefault(s, set()).add((name, axis))
        return table

    def guards(self) -> list[tuple[str, str, str]]:
        """``(condition, origin, reason)`` for each assumption still needed, deduplicated."""
        out: list[tuple[str, str, str]] = []
        seen: set[str] = set()
        for g in self.graph.guards:
            lhs, rhs = self.graph.canon(g.lhs), self.graph.canon(g.rhs)
            if self.graph.decide(lhs, g.rel, rhs):
                continue
            cond = f"{self.public(lhs)} {g.rel} {self.public(rhs)}"
            if cond not in seen:
                seen.add(cond)
                out.append((cond, str(g.origin), self.public_text(g.reason)))
        return out

    def user_relations(self) -> list[str]:
        """The user facts the analysis keeps as relations or equations (``b <= s``,
        ``Mod(b, 8) == 1``), as given: what no symbol's range or divisor shows."""
        origins = [*(p.origin for p in self.graph.predicates), *(r.origin for r in self.graph.residuals)]
        return list(dict.fromkeys(o.op_name for o in origins if o.op_type == USER_FACT))

    def symbols(self) -> dict[str, dict[str, Any]]:
        """Every symbol still free in some shape: range, divisor, likely values, origin."""
        used: set[str] = set()
        for dims in self._shapes.values():
            for d in dims:
                if isinstance(d, Expr):
                    used |= d.free
        back = {str(v): k for k, v in self._rename.items()}
        out: dict[str, dict[str, Any]] = {}
        for name in sorted(used):
            private = back.get(name, name)
            info = self.graph.symbols.get(private)
            f = self.graph.facts.get(private)
            out[name] = {
                "range": [f.lo, f.hi],
                "divisor": f.divisor,
                "likely": list(f.likely),
                "origin": str(info.origin) if info else "",
                "kind": info.kind if info else "",
            }
        return out

    def dim_kinds(self) -> dict[str, int]:
        """How many dims are static, expressed in input symbols, or depend on fresh symbols."""
        counts = {"static": 0, "symbolic": 0, "fresh": 0}
        fresh_names = {str(v) for v in self._rename.values()}
        for dims in self._shapes.values():
            for d in dims:
                if isinstance(d, int):
                    counts["static"] += 1
                elif d.free & fresh_names:
                    counts["fresh"] += 1
                else:
                    counts["symbolic"] += 1
        return counts
