"""The op graph that fusion contracts, kept acyclic cheaply (BladeDISC's ``GraphCycles`` habit).

Nodes are op positions; a contracted node keeps the id of the consumer it was merged into. A
topological rank per node, maintained by Pearce and Kelly's dynamic topological sort ("A
dynamic topological sort algorithm for directed acyclic graphs", 2006), bounds every search:
a node that can reach ``c`` ranks below ``c``, so asking whether a merge would make a cycle
looks only at the nodes between the two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class FusionDag:
    """Union-find over op positions, with node-level edges and a topological rank."""

    def __init__(self, size: int, edges: Iterable[tuple[int, int]]) -> None:
        self.parent: dict[int, int] = {}
        self.succ: dict[int, set[int]] = {i: set() for i in range(size)}
        self.pred: dict[int, set[int]] = {i: set() for i in range(size)}
        self.rank = list(range(size))  # program order is a topological order of the ops
        for a, b in edges:
            self.succ[a].add(b)
            self.pred[b].add(a)

    def find(self, i: int) -> int:
        """The node op ``i`` now belongs to."""
        root = i
        while root in self.parent:
            root = self.parent[root]
        while i != root:  # path halving keeps later finds short
            self.parent[i], i = root, self.parent[i]
        return root

    def other_path(self, p: int, c: int) -> bool:
        """Whether ``c`` is reachable from ``p`` other than by the edge ``p -> c`` (a merge of the
        two would close a cycle through the nodes on that path)."""
        bound = self.rank[c]
        stack = [s for s in self.succ[p] if s != c and self.rank[s] < bound]
        seen: set[int] = set()
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            if c in self.succ[n]:
                return True
            stack.extend(s for s in self.succ[n] if self.rank[s] < bound and s not in seen)
        return False

    def contract(self, p: int, c: int) -> None:
        """Merge node ``p`` into ``c`` (the caller checked `other_path`)."""
        self.parent[p] = c
        for q in self.pred.pop(p):
            self.succ[q].discard(p)
            if q != c:
                self.succ[q].add(c)
                self.pred[c].add(q)
        self.pred[c].discard(p)
        for s in self.succ.pop(p):
            self.pred[s].discard(p)
            if s != c and s not in self.succ[c]:
                self.succ[c].add(s)
                self.pred[s].add(c)
                if self.rank[s] < self.rank[c]:
                    self._reorder(c, s)

    def _reorder(self, x: int, y: int) -> None:
        """Restore a topological rank after the edge ``x -> y`` with ``rank[y] < rank[x]``."""
        lower, upper = self.rank[y], self.rank[x]
        forward = self._reach(y, self.succ, lambda r: r < upper)
        backward = self._reach(x, self.pred, lambda r: r > lower)
        moved = sorted(backward, key=self.rank.__getitem__) + sorted(forward, key=self.rank.__getitem__)
        for node, r in zip(moved, sorted(self.rank[n] for n in moved), strict=True):
            self.rank[node] = r

    def _reach(self, start: int, edges: dict[int, set[int]], within: Callable[[int], bool]) -> set[int]:
        found = {start}
        stack = [start]
        while stack:
            n = stack.pop()
            for m in edges[n]:
                if m not in found and within(self.rank[m]):
                    found.add(m)
                    stack.append(m)
        return found
