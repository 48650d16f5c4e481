"""Run the RUN lines of ``tests/filecheck/*.mlir`` (lit style: ``%s`` is the file) and check the
pass registry against them."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from symshape.tools.mlir_passes.opt import PASSES, get_all_passes
from tests.paths import TESTS

HERE = TESTS / "filecheck"
FILES = sorted(HERE.glob("*.mlir"))


def run_lines(path: Path) -> list[str]:
    """The RUN commands of ``path`` (``\\`` continues a line)."""
    commands: list[str] = []
    pending = ""
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not stripped.startswith("// RUN:"):
            continue
        part = stripped[len("// RUN:") :].strip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        commands.append(pending + part)
        pending = ""
    return commands


CASES = [(path, i, cmd) for path in FILES for i, cmd in enumerate(run_lines(path))]


def test_every_file_has_a_run_line() -> None:
    assert FILES, "no filecheck tests found"
    for path in FILES:
        assert run_lines(path), f"{path.name} has no RUN line"


@pytest.mark.needs_filecheck
@pytest.mark.parametrize(("path", "index", "command"), CASES, ids=[f"{p.stem}:{i}" for p, i, _ in CASES])
def test_run_line(path: Path, index: int, command: str) -> None:
    del index
    shell = command.replace("%s", str(path)).replace("python -m ", f"{sys.executable} -m ")
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, cwd=HERE, timeout=120
    )
    assert done.returncode == 0, f"RUN: {command}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"


def test_each_pass_has_a_run_line() -> None:
    """Every registered pass name appears in some RUN line (xDSL's habit)."""
    commands = " ".join(cmd for _, _, cmd in CASES)
    missing = [name for name in PASSES if name not in commands]
    assert not missing, f"passes without a filecheck test: {missing}"


def test_pass_names_match_module_names() -> None:
    """``name.replace('-', '_')`` is the stem of the module that defines the pass (STYLE A8)."""
    for name, load in get_all_passes().items():
        cls = load()
        assert cls.name == name
        module = importlib.import_module(cls.__module__)
        assert Path(module.__file__ or "").stem == name.replace("-", "_")
        assert cls.__name__.endswith("Pass")


def test_passes_are_frozen_dataclasses() -> None:
    for load in get_all_passes().values():
        cls = load()
        params = getattr(cls, "__dataclass_params__", None)
        assert params is not None and params.frozen, f"{cls.__name__} is not a frozen dataclass"


def test_registry_is_lazy() -> None:
    """Importing the registry does not import any pass module (STYLE A7)."""
    code = ("import sys, symshape.tools.mlir_passes.opt as opt; "
            "print(any(spec.split(':')[0] in sys.modules for spec in opt.PASSES.values()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ast.literal_eval(done.stdout.strip()) is False
