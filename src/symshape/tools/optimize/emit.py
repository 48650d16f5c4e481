"""Emit the smallest ONNX computation of a proven value: constants, or node chains from one
``Shape`` per graph input, one chain per distinct expression, shared by every use.

Only forms ONNX computes exactly are emitted: symbols (a dim of a graph input), integers, sums,
products, ``floor(n/k)`` for a proven nonnegative ``n`` and a constant ``k > 0`` (ONNX's integer
``Div`` truncates, which is the floor there), ``Mod(n, k)`` for a constant ``k > 0`` (integer
``Mod`` with ``fmod=0`` takes the divisor's sign, Python's rule), ``Min`` and ``Max``. Anything else
gives ``None`` and the value is left as the model computes it. Every vector is an int64 1-D
tensor; a scalar is the 1-element vector squeezed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import onnx
from onnx import helper, numpy_helper

from symshape.algebra.atoms import MaxAtom, MinAtom, Sym
from symshape.algebra.core import Atom, FloorDiv, ModAtom
from symshape.algebra.expr import Dim, Expr

Source = tuple[str, int]  # (graph input, axis) whose size is a symbol
FRESH_PREFIX = "symshape_opt/"  # every name made here starts so
ProveNonneg = Callable[[Dim], bool]


class Emitter:
    """Builds new nodes (in dependency order, reading only graph inputs and initializers, so
    they may go first in the graph) and initializers; caches every value it made."""

    def __init__(self, sources: dict[str, Source], ranks: dict[str, int], nonneg: ProveNonneg, taken: set[str]) -> None:
        self.sources = sources
        self.ranks = ranks
        self.nonneg = nonneg
        self.taken = taken
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._consts: dict[tuple[int, tuple[int, ...], tuple[int, ...]], str] = {}
        self._shapes: dict[str, str] = {}
        self._gathers: dict[tuple[str, tuple[int, ...], bool], str] = {}
        self._exprs: dict[Dim, str | None] = {}
        self._vectors: dict[tuple[Dim, ...], str | None] = {}
        self._scalars: dict[Dim, str | None] = {}

    def take(self) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto]]:
        """The nodes and initializers made since the last call (cached names stay valid: the
        caller adds them to the graph)."""
        made = (self.nodes, self.initializers)
        self.nodes, self.initializers = [], []
        return made

    # ------------------------------------------------------------ names and nodes
    def fresh(self, stem: str) -> str:
        """A value or node name not used anywhere in the model."""
        k = len(self.taken)
        while f"{FRESH_PREFIX}{stem}_{k}" in self.taken:
            k += 1
        name = f"{FRESH_PREFIX}{stem}_{k}"
        self.taken.add(name)
        return name

    def node(self, op: str, inputs: Sequence[str], axis: int | None = None) -> str:
        """Append one node with one output (and an ``axis`` attribute when given); its output's name."""
        out = self.fresh(op.lower())
        made = helper.make_node(op, list(inputs), [out], name=self.fresh(op))
        if axis is not None:
            made.attribute.append(helper.make_attribute("axis", axis))
        self.nodes.append(made)
        return out

    def constant(self, values: Sequence[int], dims: Sequence[int], elem_type: int = onnx.TensorProto.INT64) -> str:
        """An initializer holding ``values`` with shape ``dims`` (cached)."""
        key = (elem_type, tuple(dims), tuple(values))
        name = self._consts.get(key)
        if name is None:
            name = self.fresh("const")
            dtype = onnx.helper.tensor_dtype_to_np_dtype(elem_type)
            array = np.array(list(values), dtype=dtype).reshape(tuple(dims))
            self.initializers.append(numpy_helper.from_array(array, name))
            self._consts[key] = name
        return name

    def shape_of(self, graph_input: str) -> str:
        """The one ``Shape`` node of a graph input."""
        name = self._shapes.get(graph_input)
        if name is None:
            name = self._shapes[graph_input] = self.node("Shape", [graph_input])
        return name

    # ------------------------------------------------------------ values
    def vector(self, elements: Sequence[Dim]) -> str | None:
        """A 1-D int64 tensor holding ``elements``: runs of constants become one constant, runs of
        dims of one input one ``Gather`` (or the ``Shape`` itself), other elements their chain."""
        key = tuple(elements)
        if key in self._vectors:
            return self._vectors[key]
        pieces: list[str] = []
        k = 0
        while k < len(key):
            end = k + 1
            if isinstance(key[k], int):
                while end < len(key) and isinstance(key[end], int):
                    end += 1
                pieces.append(self.constant([v for v in key[k:end] if isinstance(v, int)], [end - k]))
            elif (src := self._source(key[k])) is not None:
                axes = [src[1]]
                while end < len(key) and (nxt := self._source(key[end])) is not None and nxt[0] == src[0]:
                    axes.append(nxt[1])
                    end += 1
                pieces.append(self._gather(src[0], axes))
            else:
                piece = self.expr(key[k])
                if piece is None:
                    self._vectors[key] = None
                    return None
                pieces.append(piece)
            k = end
        out = pieces[0] if len(pieces) == 1 else self.node("Concat", pieces, axis=0)
        self._vectors[key] = out
        return out

    def scalar(self, d: Dim) -> str | None:
        """A 0-D int64 tensor holding ``d``."""
        if d in self._scalars:
            return self._scalars[d]
        src = self._source(d)
        if isinstance(d, int):
            out: str | None = self.constant([d], [])
        elif src is not None:
            out = self._gather(src[0], [src[1]], scalar=True)
        else:
            vec = self.expr(d)
            out = None if vec is None else self.node("Squeeze", [vec, self.constant([0], [1])])
        self._scalars[d] = out
        return out

    def expr(self, d: Dim) -> str | None:
        """A 1-element int64 vector holding ``d``, or None when a part has no exact form."""
        if d in self._exprs:
            return self._exprs[d]
        out = self.constant([d], [1]) if isinstance(d, int) else self._sum(d)
        self._exprs[d] = out
        return out

    def _source(self, d: Dim) -> Source | None:
        if isinstance(d, Expr) and len(d.terms) == 1:
            mono, coeff = d.terms[0]
            if coeff == 1 and len(mono) == 1 and isinstance(mono[0], Sym):
                return self.sources.get(mono[0].name)
        return None

    def _gather(self, graph_input: str, axes: list[int], scalar: bool = False) -> str:
        """Dims ``axes`` of a graph input as a vector (one axis and ``scalar``: a 0-D tensor)."""
        key = (graph_input, tuple(axes), scalar)
        name = self._gathers.get(key)
        if name is None:
            shape = self.shape_of(graph_input)
            if not scalar and axes == list(range(self.ranks.get(graph_input, -1))):
                name = shape
            else:
                index = self.constant(axes, [] if scalar else [len(axes)])
                name = self.node("Gather", [shape, index], axis=0)
            self._gathers[key] = name
        return name

    def _sum(self, d: Expr) -> str | None:
        acc: str | None = None
        for mono, coeff in d.terms:
            if not mono:  # the constant term, last
                assert acc is not None
                acc = self.node("Add" if coeff > 0 else "Sub", [acc, self.constant([abs(coeff)], [1])])
                continue
            term = self._product(mono)
            if term is None:
                return None
            if acc is None:
                acc = term if coeff == 1 else self.node("Mul", [term, self.constant([coeff], [1])])
                continue
            if abs(coeff) != 1:
                term = self.node("Mul", [term, self.constant([abs(coeff)], [1])])
            acc = self.node("Add" if coeff > 0 else "Sub", [acc, term])
        return acc

    def _product(self, mono: tuple[Atom, ...]) -> str | None:
        acc: str | None = None
        for atom in mono:
            factor = self._atom(atom)
            if factor is None:
                return None
            acc = factor if acc is None else self.node("Mul", [acc, factor])
        return acc

    def _atom(self, atom: Atom) -> str | None:
        if isinstance(atom, Sym):
            src = self.sources.get(atom.name)
            return None if src is None else self._gather(src[0], [src[1]])
        if isinstance(atom, (FloorDiv, ModAtom)):
            den = atom.den
            if not isinstance(den, int) or den <= 0:
                return None
            if isinstance(atom, FloorDiv) and not self.nonneg(atom.num):
                return None
            num = self.expr(atom.num)
            return None if num is None else self.node("Div" if isinstance(atom, FloorDiv) else "Mod",
                                                      [num, self.constant([den], [1])])
        if isinstance(atom, (MaxAtom, MinAtom)):
            args = [self.expr(a) for a in atom.args]
            if any(a is None for a in args):
                return None
            return self.node("Max" if isinstance(atom, MaxAtom) else "Min", [a for a in args if a is not None])
        return None
