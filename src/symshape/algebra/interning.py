# pyright: strict
"""Hash-consing that forgets: a table from a structural key to the one live object with that key.

The algebra interns its atoms and expressions so that structural equality is object identity.
The tables hold their objects through weak references, so an expression leaves its table when
nothing else uses it, and a long-running process (a server, a test suite, a sweep over many
models) does not keep every expression it ever built. Reference counting frees an expression the
moment its last user drops it (expressions form no reference cycles, so the paused cyclic
collector of `symshape.rules.walker` does not matter); the entry's callback then removes the key,
which holds the expression's children, so they can go in turn.

The decision procedures build the same short-lived expressions again and again (``a - b`` to
compare ``a`` and ``b``); freed at once, each would be rebuilt, re-interned and freed many times
(6.5 times as many objects built over the test models). So the last `RECENT` objects interned
stay alive as well: a bounded buffer, emptied by `forget_recent`.

Measured on 1,000 keys (a lookup of a live object / building, interning and freeing one): a
plain dict of `Entry` references looked up inline (``entry = table.get(key)``, then ``entry()``)
takes ~90 / ~430 ns, `weakref.WeakValueDictionary` ~127 / ~1,300 ns (its ``get`` is a Python
method, its `weakref.KeyedRef` runs Python code to construct), a strong dict ~70 ns to look up.
"""

from __future__ import annotations

import weakref
from collections.abc import Sized
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_TABLES: list[Sized] = []
RECENT = 1024


class _Recent:
    """A ring of the last `RECENT` interned objects, which keeps them alive."""

    __slots__ = ("items", "next")

    def __init__(self) -> None:
        self.items: list[object] = [None] * RECENT
        self.next = 0


_RECENT = _Recent()


class Entry(weakref.ref[V], Generic[K, V]):
    """A weak reference to an interned object that remembers its table key, to remove it."""

    __slots__ = ("key",)
    key: K


class InternTable(dict[K, Entry[K, V]]):
    """``key -> Entry`` of the unique live object with that key; an entry leaves when it dies.

    Read with ``entry = table.get(key)`` and ``entry()`` (None when absent or dead); write with
    `add`.
    """

    __slots__ = ("_forget",)

    def __init__(self) -> None:
        super().__init__()

        def forget(entry: Entry[K, V]) -> None:
            # Only our own entry: a new object may already have taken the key.
            if self.get(entry.key) is entry:
                del self[entry.key]

        self._forget = forget
        _TABLES.append(self)

    def find(self, key: K) -> V | None:
        """The live object with ``key``, or None."""
        entry = self.get(key)
        return None if entry is None else entry()

    def add(self, key: K, obj: V) -> V:
        """Intern ``obj`` under ``key`` (which must not have a live object) and return it."""
        entry: Entry[K, V] = Entry(obj, self._forget)
        entry.key = key
        self[key] = entry
        recent = _RECENT
        i = recent.next
        recent.items[i] = obj
        recent.next = (i + 1) % RECENT
        return obj


def forget_recent() -> None:
    """Let go of the recently interned objects: from now on only their users keep them."""
    _RECENT.items[:] = [None] * RECENT


def live_interned() -> int:
    """How many interned objects (atoms and expressions) are alive in this process."""
    return sum(len(table) for table in _TABLES)
