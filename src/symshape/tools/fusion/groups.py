"""Fusion groups (seed 000's "fusion decision"), the way BladeDISC's fusion pass forms them.

Elementwise, broadcast, data-movement and reduce ops are merged along producer -> consumer
edges, greedily and without creating a cycle, into groups of three kinds:

* ``kLoop``: no reduction; every member's result has the same shape (one loop nest).
* ``kInput``: reductions that share their input shape and reduced dims, and no reduction feeds
  another member; every member's *effective* shape (a reduction's input, any other op's result)
  has the same number of elements ``N``.
* ``kStitch``: as kInput, but a reduction feeds other members (layernorm, softmax), so the
  reductions must reduce trailing dims (a row reduction) and every member has ``N`` elements or
  the row count ``R`` (the elements of a reduction's result).

Whether two shapes (or element counts) are equal is decided at one of three levels of knowledge:

* ``static``: the declared types only; a ``?`` dim equals nothing but itself.
* ``elementwise``: also the ``?`` dims an HLO elementwise op shares with its same-rank operands
  (HLO never broadcasts implicitly: what MLIR's ``SameOperandsAndResultShape`` guarantees).
* ``facts``: also everything symshape's analysis proves (the constraint graph, under its guards).

Each level starts from the groups of the level below and keeps merging, so every group of a
lower level lies inside one group of the level above. The decisions are BladeDISC's
(``fusion_utils.cc``: ``isFusible``, ``BaseFusionStrategy::tryFuse``; the stitch strategy's
row reductions), simplified: no horizontal (sibling) fusion, and constants are operands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from symshape.algebra.expr import Dim
from symshape.memory import gc_paused
from symshape.tools.fusion.dag import FusionDag
from symshape.tools.fusion.ops import HLO, HLO_ELEMENTWISE, Analysis, Node, classify, rank_of, used

Knowledge = Literal["static", "elementwise", "facts"]
LEVELS: tuple[Knowledge, ...] = ("static", "elementwise", "facts")


@dataclass(frozen=True)
class Member:
    """One op of a group: its result, and its effective value (a reduction's input)."""

    op: str
    value: str
    effective: str
    reduce: bool = False


@dataclass(frozen=True)
class FusionGroup:
    """A group of two or more ops; ``shape`` is every kLoop member's shape, or the reductions'
    input shape (``N`` elements); ``rows`` is a kStitch group's reduced shape (``R`` elements)."""

    id: int
    kind: str
    members: tuple[Member, ...]
    shape: tuple[Dim | None, ...]
    rows: tuple[Dim | None, ...] | None = None

    @property
    def ops(self) -> tuple[str, ...]:
        """The op names, in program order."""
        return tuple(m.op for m in self.members)


@dataclass(frozen=True)
class FusionPlan:
    """The groups one level of knowledge allows, with the counts a report needs."""

    knowledge: Knowledge
    ops: int
    fusible: int
    groups: tuple[FusionGroup, ...]
    guards: int = 0  # the analysis's guards the groups assume (facts only)

    @property
    def fused(self) -> int:
        """Ops that share a group with at least one other op."""
        return sum(len(g.members) for g in self.groups)

    def report(self) -> str:
        """`summary` and the kernels left: ``...; 21 kernels``."""
        return f"{self.summary()}; {_count(self.kernels, 'kernel')}"

    @property
    def kernels(self) -> int:
        """Kernels left: one per group, one per fusible op outside every group."""
        return len(self.groups) + self.fusible - self.fused

    def group_of(self, op: str) -> FusionGroup | None:
        """The group ``op`` belongs to, or None."""
        return next((g for g in self.groups if op in g.ops), None)

    def summary(self) -> str:
        """``4 groups fuse 27 of 31 fusible ops (1 kLoop, 1 kInput, 2 kStitch)``."""
        kinds = ", ".join(f"{sum(g.kind == k for g in self.groups)} {k}" for k in ("kLoop", "kInput", "kStitch"))
        n = len(self.groups)
        groups = "1 group fuses" if n == 1 else f"{n} groups fuse"
        assuming = f", assuming the analysis's {_count(self.guards, 'guard')}" if self.guards else ""
        return f"{groups} {self.fused} of {self.fusible} fusible ops ({kinds}){assuming}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# --------------------------------------------------------------------------- deciding shapes


class _Prover:
    """Same shape / same element count at one level of knowledge."""

    def __init__(self, analysis: Analysis, nodes: dict[int, Node]) -> None:
        self.analysis = analysis
        self.values = analysis.program.values
        self.level: Knowledge = "static"
        self.parent: dict[tuple[str, int], tuple[str, int]] = {}
        self.size: dict[tuple[str, int], int] = {}
        self._elementwise = [n for n in nodes.values() if n.op.dialect in HLO and n.op.op_type in HLO_ELEMENTWISE]

    def raise_to(self, level: Knowledge) -> None:
        self.level = level
        if level == "elementwise":
            for node in self._elementwise:
                for src in node.op.inputs:
                    if self.rank(src) == self.rank(node.out):
                        for axis in range(self.rank(node.out)):
                            self._union((src, axis), (node.out, axis))

    def rank(self, value: str) -> int:
        return rank_of(self.analysis.program, self.analysis, value)

    def _find(self, key: tuple[str, int]) -> tuple[str, int]:
        root = key
        while root in self.parent:
            root = self.parent[root]
        while key != root:  # path compression keeps the classes flat
            self.parent[key], key = root, self.parent[key]
        return root

    def _union(self, a: tuple[str, int], b: tuple[str, int]) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return
        if self.size.get(ra, 1) < self.size.get(rb, 1):
            ra, rb = rb, ra
        self.parent[rb] = ra  # the smaller class under the larger: the classes stay shallow
        self.size[ra] = self.size.get(ra, 1) + self.size.get(rb, 1)

    def declared(self, value: str) -> list[int | tuple[str, int]]:
        """Each dim: its static size, or the class of its ``?``."""
        found = self.values.get(value)
        t = None if found is None else found.type
        dims = (None,) * max(self.rank(value), 0) if t is None or t.dims is None else t.dims
        return [d if isinstance(d, int) else self._find((value, axis)) for axis, d in enumerate(dims)]

    def same_shape(self, v: str, w: str) -> bool:
        if v == w:
            return True
        if self.rank(v) != self.rank(w) or self.rank(v) < 0:
            return False
        pairs = zip(self.declared(v), self.declared(w), strict=True)
        return all(a == b or self._fact_dim(v, w, axis) for axis, (a, b) in enumerate(pairs))

    def _fact_dim(self, v: str, w: str, axis: int) -> bool:
        if self.level != "facts":
            return False
        sv, sw = self.analysis.shape_or_none(v), self.analysis.shape_or_none(w)
        if sv is None or sw is None or len(sv) != len(sw) or axis >= len(sv):
            return False
        return self.analysis.same_dim((v, axis), (w, axis)) is True

    def same_numel(self, v: str, w: str) -> bool:
        if v == w or self.rank(v) < 0 or self.rank(w) < 0:
            return v == w
        if _numel_key(self.declared(v)) == _numel_key(self.declared(w)):
            return True
        return self.level == "facts" and self.analysis.same_numel(v, w) is True


def _numel_key(dims: list[int | tuple[str, int]]) -> tuple[int, list[tuple[str, int]]]:
    static = 1
    for d in dims:
        static *= d if isinstance(d, int) else 1
    return static, sorted(d for d in dims if not isinstance(d, int))


# --------------------------------------------------------------------------- grouping


@dataclass
class _Cluster:
    nodes: list[int]
    rep: str  # kLoop: a member's result; with reductions: the reductions' input
    reduce: Node | None = None
    stitch: bool = False


@dataclass
class _Grouper:
    analysis: Analysis
    nodes: dict[int, Node] = field(default_factory=dict[int, Node])
    users: dict[int, set[int]] = field(default_factory=dict[int, set[int]])  # op index -> its users
    clusters: dict[int, _Cluster] = field(default_factory=dict[int, _Cluster])

    def __post_init__(self) -> None:
        program = self.analysis.program
        producer: dict[str, int] = {}
        for index, op in enumerate(program.ops):
            kind = classify(program, op, self.analysis)
            if kind == "alias":  # results are the inputs, position by position
                for src, out in zip(op.inputs, op.outputs, strict=False):
                    if src in producer:
                        producer[out] = producer[src]
                continue
            for s in {producer[v] for v in used(op) if v in producer}:
                self.users.setdefault(s, set()).add(index)
            for out in op.outputs:
                producer[out] = index
            if isinstance(kind, Node):
                node = Node(index, op, kind.effective, kind.dims)
                self.nodes[index] = node
                self.clusters[index] = _Cluster([index], node.effective, node if node.dims is not None else None)
        self.edges = [(p, c) for p in sorted(self.nodes) for c in sorted(self.users.get(p, ())) if c in self.nodes]
        pairs = ((p, c) for p, users in self.users.items() for c in users)
        self.dag = FusionDag(len(program.ops), pairs)
        self.prover = _Prover(self.analysis, self.nodes)

    def find(self, i: int) -> int:
        return self.dag.find(i)

    def run(self, level: Knowledge) -> None:
        """Merge along edges, in program order, until nothing more merges at ``level``."""
        self.prover.raise_to(level)
        changed = True
        while changed:
            changed = False
            for producer, consumer in self.edges:
                changed |= self._try(self.find(producer), self.find(consumer))

    def _try(self, p: int, c: int) -> bool:
        if p == c:
            return False
        merged = self._merged(self.clusters[p], self.clusters[c], c)
        if merged is None or self.dag.other_path(p, c):
            return False
        self.dag.contract(p, c)
        del self.clusters[p]
        self.clusters[c] = merged
        return True

    def _merged(self, a: _Cluster, b: _Cluster, c: int) -> _Cluster | None:
        """The cluster of ``a`` (producer side) and ``b``, or None when their shapes do not fit."""
        prove = self.prover
        red = a.reduce or b.reduce
        if a.reduce and b.reduce and (a.reduce.dims != b.reduce.dims or not prove.same_shape(a.rep, b.rep)):
            return None
        nodes = sorted(a.nodes + b.nodes)
        if red is None:
            return _Cluster(nodes, b.rep) if prove.same_shape(a.rep, b.rep) else None
        stitch = a.stitch or b.stitch or self._reduce_feeds(a, c)
        if stitch and not _row_reduction(red, prove.rank(red.effective)):
            return None
        for side in (a, b):
            if side.reduce is None and not (
                prove.same_numel(side.rep, red.effective) or (stitch and prove.same_numel(side.rep, red.out))
            ):
                return None
        return _Cluster(nodes, red.effective, red, stitch)

    def _reduce_feeds(self, a: _Cluster, c: int) -> bool:
        reduces = [i for i in a.nodes if self.nodes[i].dims is not None]
        return any(self.find(u) == c for i in reduces for u in self.users.get(i, ()))

    def plan(self, level: Knowledge) -> FusionPlan:
        groups: list[FusionGroup] = []
        for cluster in sorted(self.clusters.values(), key=lambda k: k.nodes[0]):
            if len(cluster.nodes) > 1:
                groups.append(self._group(len(groups), cluster))
        guards = len(self.analysis.guards()) if level == "facts" else 0
        return FusionPlan(level, len(self.analysis.program.ops), len(self.nodes), tuple(groups), guards)

    def _group(self, gid: int, cluster: _Cluster) -> FusionGroup:
        members = tuple(
            Member(n.op.name, n.out, n.effective, n.dims is not None) for n in (self.nodes[i] for i in cluster.nodes)
        )
        red = cluster.reduce
        kind = "kLoop" if red is None else "kStitch" if cluster.stitch else "kInput"
        rows = self._dims(red.out) if red is not None and cluster.stitch else None
        return FusionGroup(gid, kind, members, self._dims(cluster.rep), rows)

    def _dims(self, value: str) -> tuple[Dim | None, ...]:
        found = self.analysis.shape_or_none(value)
        if found is not None:
            return found
        found = self.analysis.program.values.get(value)
        t = None if found is None else found.type
        return tuple(d if isinstance(d, int) else None for d in (t.dims or ())) if t is not None else ()


def _row_reduction(node: Node, rank: int) -> bool:
    dims = node.dims or ()
    return dims == tuple(range(rank - len(dims), rank))


def fusion_plans(analysis: Analysis) -> dict[Knowledge, FusionPlan]:
    """The groups at every level of knowledge, each level grown from the one below."""
    with gc_paused():  # many small long-lived objects: the collector's passes would double the time
        grouper = _Grouper(analysis)
        plans: dict[Knowledge, FusionPlan] = {}
        for level in LEVELS:
            grouper.run(level)
            plans[level] = grouper.plan(level)
        return plans


def fusion_groups(analysis: Analysis, knowledge: str = "facts") -> FusionPlan:
    """The fusion groups of ``analysis``'s program at one level of knowledge (see the module doc)."""
    plans = fusion_plans(analysis)
    for level, plan in plans.items():
        if level == knowledge:
            return plan
    from symshape.errors import ModelError, where_option

    raise ModelError(where=where_option("knowledge", knowledge), found="an unknown level of knowledge",
                     expected=f"one of {', '.join(LEVELS)}", fix="pass one of those")
