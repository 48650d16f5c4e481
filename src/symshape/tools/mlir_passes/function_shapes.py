"""What stage two knows about one function: its `Analysis` and the dims of each SSA value."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeAlias

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from symshape.algebra.expr import Dim, Expr, free_symbols
from symshape.engine.constraints import ConstraintGraph
from symshape.engine.provenance import Rel
from symshape.engine.result import Analysis
from symshape.frontends.mlir.attributes import is_tensor
from symshape.memory import ByIdentity, gc_paused
from symshape.tools.mlir_passes.dim_exprs import ArithReader
from symshape.tools.mlir_passes.ir_utils import const_int


@dataclass
class FunctionShapes:
    """One function, its analysis, and dims keyed by SSA value (public symbol names).

    ``tensors`` holds the dims of ranked tensor values, ``scalars`` the value of index/integer
    scalars the analysis tracked. Stages that replace a value call `moved` to keep them current.
    """

    func: func.FuncOp
    analysis: Analysis
    tensors: dict[SSAValue, tuple[Dim, ...]] = field(default_factory=dict[SSAValue, tuple[Dim, ...]])
    scalars: dict[SSAValue, Dim] = field(default_factory=dict[SSAValue, Dim])
    elements: dict[SSAValue, tuple[Dim, ...]] = field(default_factory=dict[SSAValue, tuple[Dim, ...]])
    """The tracked elements of 1-D integer tensors (a pad's amounts, a shape operand)."""
    callees: list[func.FuncOp] = field(default_factory=lambda: [])
    """Functions inlined into this analysis (called once): their values share its symbols."""
    walked: tuple[list[Operation], list[str]] | None = field(default=None, compare=False, repr=False)
    """The ops of ``func`` and ``callees`` and their names, kept by a caller that runs several
    rewrites and drops it when one changes the ops (`symshape.tools.mlir_passes.for_iree`)."""

    def __post_init__(self) -> None:
        self.reader = ArithReader(self._leaf, self._nonneg)
        self._reps: dict[frozenset[str], list[Expr]] = {}
        self._rep_of: dict[Expr, Expr] = {}
        self._region_graphs: dict[int, ConstraintGraph] = {}
        self._types = ByIdentity[Attribute, Declared]()

    @classmethod
    def build(
        cls, fn: func.FuncOp, analysis: Analysis, values: dict[str, SSAValue], regions: dict[str, SSAValue]
    ) -> FunctionShapes:
        """Dims for the values of ``fn`` from ``analysis`` (``values``: program name -> value;
        ``regions`` the same for the values of loop bodies and branches). The cyclic collector is
        paused: this makes a few objects per value, and no cycles."""
        out = cls(fn, analysis)
        with gc_paused():
            for name, value in values.items():
                out._add(value, analysis.shape_or_none(name), partial(analysis.elements, name))
            for name, value in regions.items():
                found = analysis.region_shape(name)
                if found is not None:
                    if found[2] is not analysis.graph:
                        out._region_graphs.setdefault(id(found[2]), found[2])
                    out._add(value, found[0], partial(_given, found[1]))
        return out

    def _add(self, value: SSAValue, shape: tuple[Dim, ...] | None, els: Callable[[], tuple[Dim, ...] | None]) -> None:
        """Record ``value``'s dims and tracked elements (``els`` is asked only for a 1-D tensor
        or a scalar: making them public costs, and most values are neither)."""
        rank, static = self._types.get(value.type, declared_sizes)  # few type objects
        if rank is not None:
            if shape is None or len(shape) != rank:
                return
            dims = _with_declared(shape, static) if static else shape
            self.tensors[value] = tuple(d if isinstance(d, int) else self.canonical(d) for d in dims)
            elements = els() if rank == 1 else None
            if elements is not None:
                self.elements[value] = tuple(self.canonical(e) for e in elements)
        elif (scalar := els()) is not None and len(scalar) == 1:
            self.scalars[value] = self.canonical(scalar[0])

    def canonical(self, d: Dim) -> Dim:
        """The first dim seen that the facts prove equal to ``d`` (``d`` itself if none).

        Canonical forms are unique up to solved equalities; some equalities only the facts
        decide (``x - floor(x/2) == floor(x/2)`` when ``2 | x``). Dims with the same free
        symbols are compared, in order of first appearance.
        """
        if isinstance(d, int):
            return d
        found = self._rep_of.get(d)
        if found is not None:
            return found
        bucket = self._reps.setdefault(d.free, [])
        rep = next((e for e in bucket if self.prove(d, "==", e) is True), None)
        if rep is None:
            bucket.append(d)
            rep = d
        self._rep_of[d] = rep
        return rep

    # ------------------------------------------------------------ questions
    def dims(self, value: SSAValue) -> tuple[Dim, ...] | None:
        """The dims of a ranked tensor value (its static type when the analysis has none)."""
        found = self.tensors.get(value)
        if found is not None:
            return found
        t = value.type
        if isinstance(t, TensorType) and DYNAMIC_INDEX not in t.get_shape():
            return tuple(t.get_shape())
        return None

    def scalar(self, value: SSAValue) -> Dim | None:
        """The dim an index/integer scalar holds (canonical, see `canonical`), or None."""
        d = self.reader.read(value)
        return None if d is None else self.canonical(d)

    def _leaf(self, value: SSAValue) -> Dim | None:
        op = value.owner
        if isinstance(op, tensor.DimOp):
            dims = self.dims(op.source)
            axis = const_int(op.index)
            if dims is not None and axis is not None and 0 <= axis < len(dims):
                return dims[axis]
        return self.scalars.get(value)

    def private(self, d: Dim) -> Dim:
        """``d`` in the constraint graph's own symbol names (for fact queries)."""
        return self.analysis.private(d)

    def _graph(self, *private: Dim) -> ConstraintGraph:
        """The graph to decide about ``private`` dims on: the main one, or for dims of a loop body
        or branch (a symbol only a region's scratch graph has) the region graph that has them all."""
        main = self.analysis.graph
        if not self._region_graphs:
            return main
        free = {s for d in private for s in free_symbols(d)}
        if free <= main.symbols.keys():
            return main
        return next((g for g in self._region_graphs.values() if free <= g.symbols.keys()), main)

    def _nonneg(self, d: Dim) -> bool:
        p = self.private(d)
        return self._graph(p).facts.prove_ge(p, 0)

    def prove(self, a: Dim, rel: Rel, b: Dim) -> bool | None:
        """Decide ``a rel b`` with the analysis' constraint graph (`ConstraintGraph.decide`, the
        decider the rules used), or a region's for dims of a loop body or branch; None if unknown."""
        pa, pb = self.private(a), self.private(b)
        return self._graph(pa, pb).decide(pa, rel, pb)

    # ------------------------------------------------------------ updates
    def moved(self, old: SSAValue, new: SSAValue) -> None:
        """``old`` was replaced by ``new`` (same dims)."""
        if old in self.tensors:
            self.tensors[new] = self.tensors[old]
        if old in self.scalars:
            self.scalars[new] = self.scalars[old]
        if old in self.elements:
            self.elements[new] = self.elements[old]
        self.reader.memo.clear()


Declared: TypeAlias = tuple[int | None, tuple[tuple[int, int], ...]]


def declared_sizes(t: Attribute) -> Declared:
    """A type's rank (None if not a ranked tensor) and its static sizes as ``(axis, size)``."""
    if not is_tensor(t):
        return None, ()
    shape = t.get_shape()
    return len(shape), tuple((a, s) for a, s in enumerate(shape) if s != DYNAMIC_INDEX)


def _with_declared(shape: tuple[Dim, ...], static: tuple[tuple[int, int], ...]) -> list[Dim]:
    """A declared static size (``static``: ``(axis, size)``) wins over a symbol the analysis could
    not pin (both hold)."""
    out = list(shape)
    for axis, size in static:
        if not isinstance(out[axis], int):
            out[axis] = size
    return out


def _given(els: tuple[Dim, ...] | None) -> tuple[Dim, ...] | None:
    """Elements already at hand, for `FunctionShapes._add`."""
    return els
