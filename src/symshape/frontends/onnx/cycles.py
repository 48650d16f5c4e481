# pyright: strict
"""Name the cycle a node is on, for the error about a graph that is not a DAG.

ONNX graphs must be acyclic and topologically sorted. A node reading a value that only a later
node makes is either out of order or on a cycle; a cycle gets an error that lists its values,
so the user sees which edge to cut. The search is iterative (graphs have 100k nodes).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from symshape.engine.program import Op

MAX_SHOWN = 8  # values listed in a message before the middle of a long cycle is elided


def cycle_through(ops: Sequence[Op], start: int, value: str) -> list[str] | None:
    """The values of a cycle through ``ops[start]`` that closes by its input ``value``, in
    data-flow order, the first repeated at the end; None when ``value`` does not depend on
    ``ops[start]`` (the graph is out of order there, not cyclic)."""
    producer = {o: i for i, op in enumerate(ops) for o in op.outputs if o}
    first = producer.get(value)
    if first is None:
        return None
    came_from: dict[int, tuple[str, int]] = {}  # op -> (the value it makes that is read, its reader)
    todo = deque([first])
    seen = {first}
    while todo:
        i = todo.popleft()
        if i == start:
            return _values_on_path(came_from, start, first, value)
        for name in ops[i].inputs:
            j = producer.get(name)
            if j is not None and j not in seen:
                seen.add(j)
                came_from[j] = (name, i)
                todo.append(j)
    return None


def _values_on_path(came_from: dict[int, tuple[str, int]], start: int, first: int, value: str) -> list[str]:
    """Walk from ``start`` back along the readers to ``first`` (which makes ``value``)."""
    names: list[str] = []
    i = start
    while i != first:
        name, reader = came_from[i]
        names.append(name)
        i = reader
    names.append(value)
    return [*names, names[0]]


def cycle_text(names: list[str]) -> str:
    """``'a' -> 'b' -> 'a'``, with the middle of a long cycle elided."""
    quoted = [f"'{n}'" for n in names]
    if len(quoted) > MAX_SHOWN:
        quoted = [*quoted[: MAX_SHOWN // 2], f"... ({len(quoted) - MAX_SHOWN} more)", *quoted[-MAX_SHOWN // 2 :]]
    return " -> ".join(quoted)
