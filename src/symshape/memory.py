"""The cyclic garbage collector paused while symshape builds a large object graph."""

from __future__ import annotations

import gc
from collections.abc import Generator
from contextlib import contextmanager


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
