"""Shared fixtures, and the markers for tests that need an outside tool.

A test that needs a tool carries a marker (registered in pyproject.toml):

* ``needs_jax``: jax and jaxlib (the test extra installs them);
* ``needs_iree``: the ``iree-opt`` command (iree-base-compiler, in the test extra);
* ``needs_iree_runtime``: ``iree.compiler`` and ``iree.runtime`` (iree-base-runtime, test extra);
* ``needs_filecheck``: the ``filecheck`` and ``symshape`` commands (filecheck is in the test extra);
* ``needs_torch``: torch and transformers (the optional ``models`` extra);
* ``needs_torch_export``: torch alone (``pip install torch==2.13.0``), for the torch.export frontend;
* ``needs_torch_mlir``: torch-mlir (``pip install packaging && pip install torch-mlir==20261001 --no-deps``),
  to export models in its torch dialect;
* ``needs_bench``: onnx-shape-inference (the optional ``bench`` extra);
* ``needs_browser``: the ``playwright`` module (test extra) and Debian's ``/usr/bin/chromium``.
* ``needs_dask``: dask and distributed (``pip install dask distributed``; optional).

When the tool is missing, the test is skipped with a reason that names it, and the run's summary
lists every such skip. Tools named in ``SYMSHAPE_REQUIRE`` (comma-separated, e.g.
``SYMSHAPE_REQUIRE=jax,iree,filecheck``, which ``.ci/run`` sets) are required: a missing one
fails the test instead, and so does any other skip of a test marked as needing it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable, Generator
from pathlib import Path

import pytest

MODELS_DIR = Path(__file__).parent / "models"


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


def _modules(*names: str) -> Callable[[], list[str]]:
    return lambda: [n for n in names if not _importable(n)]


def _commands(*names: str) -> Callable[[], list[str]]:
    return lambda: [n for n in names if shutil.which(n) is None]


def _paths(*paths: str) -> Callable[[], list[str]]:
    return lambda: [p for p in paths if not Path(p).exists()]


# marker -> (tool name for SYMSHAPE_REQUIRE, what provides it, which of its parts are missing)
TOOLS: dict[str, tuple[str, str, Callable[[], list[str]]]] = {
    "needs_jax": ("jax", "pip install -e '.[test]'", _modules("jax", "jaxlib")),
    "needs_iree": ("iree", "pip install -e '.[test]' (iree-base-compiler)", _commands("iree-opt")),
    "needs_iree_runtime": (
        "iree_runtime",
        "pip install -e '.[test]' (iree-base-runtime)",
        _modules("iree.compiler", "iree.runtime"),
    ),
    "needs_filecheck": ("filecheck", "pip install -e '.[test]'", _commands("filecheck", "symshape")),
    "needs_torch": ("torch", "pip install -e '.[models]'", _modules("torch", "transformers")),
    "needs_torch_export": ("torch_export", "pip install torch==2.13.0", _modules("torch")),
    "needs_torch_mlir": (
        "torch_mlir",
        "pip install packaging && pip install torch-mlir==20261001 --no-deps",
        _modules("torch_mlir"),
    ),
    "needs_bench": ("bench", "pip install -e '.[bench]'", _modules("onnx_shape_inference")),
    "needs_browser": (
        "browser",
        "apt-get install -y chromium && pip install playwright",
        lambda: _modules("playwright")() + _paths("/usr/bin/chromium")(),
    ),
    "needs_dask": ("dask", "pip install dask distributed", _modules("dask", "distributed")),
}
_missing_cache: dict[str, list[str]] = {}
_skipped: list[tuple[str, str]] = []


def _required() -> set[str]:
    return {t.strip() for t in os.environ.get("SYMSHAPE_REQUIRE", "").split(",") if t.strip()}


def _missing(marker: str) -> list[str]:
    if marker not in _missing_cache:
        _missing_cache[marker] = TOOLS[marker][2]()
    return _missing_cache[marker]


def _markers(item: pytest.Item) -> list[str]:
    return [m for m in TOOLS if item.get_closest_marker(m) is not None]


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, when required, fail) a marked test whose tool is missing."""
    for marker in _markers(item):
        missing = _missing(marker)
        if not missing:
            continue
        tool, provider, _ = TOOLS[marker]
        reason = f"{marker}: {', '.join(missing)} not found ({provider})"
        if tool in _required():
            pytest.fail(f"{reason}, and SYMSHAPE_REQUIRE names '{tool}'", pytrace=False)
        _skipped.append((item.nodeid, reason))
        pytest.skip(reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    """A test needing a required tool may not skip for any reason but another tool it needs that
    is missing and not required (an expected failure, which pytest reports as a skip with
    ``wasxfail``, is not a skip)."""
    del call
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    required = [m for m in _markers(item) if TOOLS[m][0] in _required()]
    excused = any(TOOLS[m][0] not in _required() and _missing(m) for m in _markers(item))
    if report.skipped and required and not excused and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid} skipped, but it is marked {required[0]} and SYMSHAPE_REQUIRE requires it"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List the tests skipped because a tool is missing."""
    if not _skipped:
        return
    terminalreporter.section("skipped: a tool is missing")
    for nodeid, reason in _skipped:
        terminalreporter.write_line(f"{nodeid}: {reason}")


@pytest.fixture(scope="session")
def models_dir() -> Path:
    """The committed tiny exported models (see tests/models/README.md)."""
    return MODELS_DIR


@pytest.fixture
def small_model(tmp_path: Path) -> Path:
    """A saved model with input symbols batch, seq and n: Reshape(x, [-1, 8]) + z."""
    import onnx
    from onnx.helper import make_node

    from tests.oracle import const, make_model, tensor

    m = make_model(
        [make_node("Reshape", ["x", "t"], ["y"]), make_node("Add", ["y", "z"], ["out"])],
        [tensor("x", ["batch", "seq", 8]), tensor("z", ["n", 8])],
        ["out"],
        [const("t", [-1, 8])],
    )
    path = tmp_path / "small.onnx"
    onnx.save(m, path)
    return path
