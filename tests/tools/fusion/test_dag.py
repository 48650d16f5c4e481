"""The contracted op graph of fusion (`symshape.tools.fusion.dag`) against brute force: on random DAGs
and random contractions, `other_path` says exactly whether a merge would close a cycle, and the
ranks stay a topological order of the contracted graph."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.tools.fusion.dag import FusionDag


def reachable(succ: dict[int, set[int]], start: int) -> set[int]:
    seen: set[int] = set()
    stack = list(succ[start])
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(succ[n])
    return seen


@st.composite
def dags(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], list[int]]:
    size = draw(st.integers(2, 14))
    pairs = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1)).filter(lambda e: e[0] < e[1])
    edges = draw(st.lists(pairs, max_size=3 * size, unique=True))
    picks = draw(st.lists(st.integers(0, 3 * size), max_size=2 * size))
    return size, edges, picks


@settings(max_examples=300, deadline=None)
@given(dags())
def test_contractions_match_brute_force(case: tuple[int, list[tuple[int, int]], list[int]]) -> None:
    size, edges, picks = case
    dag = FusionDag(size, edges)
    for pick in picks:
        live = [(p, s) for p in dag.succ for s in dag.succ[p]]
        if not live:
            break
        p, c = live[pick % len(live)]
        around = any(c in reachable(dag.succ, s) for s in dag.succ[p] if s != c)
        assert dag.other_path(p, c) == around
        if around:
            continue
        dag.contract(p, c)
        for a in dag.succ:
            assert a not in reachable(dag.succ, a), "the contracted graph has a cycle"
            assert all(dag.rank[a] < dag.rank[b] for b in dag.succ[a]), "the ranks are not topological"
            assert all(a in dag.pred[b] for b in dag.succ[a])
    members = {dag.find(i) for i in range(size)}
    assert members == set(dag.succ)
