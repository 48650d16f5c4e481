"""When this process may fork (a sweep's workers, optimize's type-inference and shape-writer
children) rather than start a fresh interpreter."""

from __future__ import annotations

import sys
import threading


def fork_hazards() -> bool:
    """Whether this process runs other threads or has loaded a runtime with native thread pools
    (jaxlib, onnxruntime): a fork copies their held locks with no thread to release them."""
    native = {"jaxlib", "onnxruntime"} & set(sys.modules)
    return bool(native) or threading.active_count() != 1


def fork_safe() -> bool:
    """Fork only on Linux, and without `fork_hazards`."""
    return sys.platform.startswith("linux") and not fork_hazards()
