"""`ByIdentity`: one value per object, never shared between equal objects, never confused by a
reused id (the attribute views and types of the xDSL reader, FunctionShapes' declared sizes and
CSE's attribute hashes stand on it)."""

import gc

from symshape.memory import ByIdentity, gc_paused


def test_made_once_per_object() -> None:
    calls: list[object] = []
    cache = ByIdentity[object, int]()

    def make(key: object) -> int:
        calls.append(key)
        return len(calls)

    a, b = [1], [1]  # equal, not the same object
    assert [cache.get(a, make), cache.get(a, make), cache.get(b, make), cache.get(b, make)] == [1, 1, 2, 2]
    assert calls == [a, b] and calls[0] is a and calls[1] is b


def test_a_dropped_key_does_not_hand_its_value_to_a_new_object() -> None:
    """Without the cache keeping its keys, CPython reuses a freed object's id at once."""
    cache = ByIdentity[object, str]()
    seen: set[int] = set()
    for n in range(200):
        key = object()
        seen.add(id(key))
        assert cache.get(key, lambda _k, n=n: f"v{n}") == f"v{n}"
        del key
    assert len(seen) == 200  # every object kept alive by the cache, so every id distinct


def test_gc_paused_nests_and_restores() -> None:
    assert gc.isenabled()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
