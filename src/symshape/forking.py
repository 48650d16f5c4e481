"""When this process may fork (a sweep's workers, optimize's type-inference and shape-writer
children) rather than start a fresh interpreter."""

from __future__ import annotations

import multiprocessing
import sys
import threading
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext


def fork_hazards() -> bool:
    """Whether this process runs other threads or has loaded a runtime with native thread pools
    (jaxlib, onnxruntime): a fork copies their held locks with no thread to release them."""
    native = {"jaxlib", "onnxruntime"} & set(sys.modules)
    return bool(native) or threading.active_count() != 1


def fork_safe() -> bool:
    """Fork only on Linux, and without `fork_hazards`."""
    return sys.platform.startswith("linux") and not fork_hazards()


def child_context() -> ForkContext | ForkServerContext | SpawnContext:
    """Fork when `fork_safe`, else a fresh interpreter (forkserver where there is one)."""
    if fork_safe():
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")
