"""Memory habits of large reads: the cyclic garbage collector paused while symshape builds a large
object graph, and caches keyed by object identity or by type."""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import Generic, TypeGuard, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


@contextmanager
def gc_paused() -> Generator[None, None, None]:
    """Pause the cyclic garbage collector. A read, an analysis or a pass run makes millions of
    small long-lived objects and few cycles; the collector's passes over them cost a quarter of
    the time on large models. Nested pauses keep it paused until the outermost one ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class ByIdentity(Generic[K, V]):
    """Values computed once per object, looked up by identity: a cache keyed by an MLIR attribute
    or type by value would hash it recursively (a dataclass hash) at every lookup. Each key object
    is kept, so its id is not reused by another object while the cache lives."""

    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[int, tuple[K, V]] = {}

    def get(self, key: K, make: Callable[[K], V]) -> V:
        """The value for ``key``, made by ``make(key)`` the first time."""
        found = self._found.get(id(key))
        if found is None:
            found = self._found[id(key)] = (key, make(key))
        return found[1]


class OfKind(Generic[T]):
    """``isinstance(obj, classes)``, answered once per type of ``obj``. xDSL's IR classes are
    ABCs, whose check costs ten times a plain one, and the passes ask it of each of a 100k-op
    module's ops several times a run (about a second in all)."""

    __slots__ = ("_classes", "_known")

    def __init__(self, *classes: type[T]) -> None:
        self._classes = classes
        self._known: dict[type, bool] = {}

    def __call__(self, obj: object) -> TypeGuard[T]:
        kind = type(obj)
        found = self._known.get(kind)
        if found is None:
            found = self._known[kind] = issubclass(kind, self._classes)
        return found
