"""docs/errors.md shows what the tool really prints: each error class has at least one example
block, produced by running the command line on a bad input (scripts/error_examples.py), and the
blocks in the docs equal what the recipes print today (paths are relative to the recipe's
directory, so the text is stable)."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from types import ModuleType
from typing import Any

import pytest

import symshape
from symshape.errors import SymshapeError
from tests.paths import ROOT


def _load_recipes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("error_examples", ROOT / "scripts" / "error_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


recipes: Any = _load_recipes()


@pytest.fixture(scope="module")
def runs() -> list[Any]:
    return recipes.run_all()


def _concrete_error_classes() -> set[str]:
    for info in pkgutil.walk_packages(symshape.__path__, "symshape."):
        if not info.name.startswith(("symshape.__main__", "symshape.app.cli")):
            try:
                importlib.import_module(info.name)
            except ImportError:  # an optional dependency that is not installed
                continue
    found: set[str] = set()
    todo = list(SymshapeError.__subclasses__())
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found


def test_every_error_class_has_an_example_recipe():
    enabled = {e.error for e in recipes.EXAMPLES if e.enabled}
    missing = _concrete_error_classes() - enabled
    assert not missing, f"add a recipe to scripts/error_examples.py for: {sorted(missing)}"


def test_the_docs_examples_are_what_the_tool_prints_today(runs: list[Any]):
    issues = recipes.check((ROOT / "docs" / "errors.md").read_text(), runs)
    assert not issues, "\n".join(issues)


def test_each_example_is_one_error_line_linking_its_class(runs: list[Any]):
    """The recipes trip the error they are filed under (checked apart from the docs text)."""
    for r in runs:
        if r.example.enabled:
            assert recipes.problems(r) == [], r
            assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
            assert "<tmp>" not in r.stderr and "/tmp" not in r.stderr, "paths in messages must be relative"


# ------------------------------------------------------------------ the checker can fail


def _fake(key: str, error: str, stderr: str, status: int = 2, enabled: bool = True) -> Any:
    example = recipes.Example(key, error, "about", lambda d: [], enabled)
    return recipes.Run(example, "symshape analyze m.onnx", status, stderr)


_LINE = "error: w: f, expected e; x (run `symshape explain modelerror`)\n"
_DOC = """## ModelError

text
<!-- example: k -->
{body}<!-- /example -->

## OutputError
"""


def test_a_stale_block_is_reported_and_rewritten():
    run = _fake("k", "ModelError", _LINE)
    stale = _DOC.format(body="```console\nold text\n```\n")
    assert any("not current" in i for i in recipes.check(stale, [run]))
    fresh = recipes.rewrite(stale, [run])
    assert recipes.check(fresh, [run]) == []
    assert "old text" not in fresh and "text\n<!-- example: k -->" in fresh and "## OutputError" in fresh


def test_a_block_in_the_wrong_section_or_missing_is_reported():
    run = _fake("k", "OutputError", _LINE.replace("explain modelerror", "explain outputerror"))
    assert any("not '## OutputError'" in i for i in recipes.check(_DOC.format(body=""), [run]))
    assert any("add '<!-- example: k -->'" in i for i in recipes.check("## OutputError\n", [run]))


def test_a_wrong_class_a_traceback_or_a_success_is_reported():
    assert recipes.problems(_fake("k", "OutputError", _LINE))  # names modelerror
    assert recipes.problems(_fake("k", "ModelError", "Traceback (most recent call last):\n" + _LINE))
    assert recipes.problems(_fake("k", "ModelError", "", status=0))
    assert recipes.problems(_fake("k", "ModelError", _LINE, enabled=False))  # a pending recipe now errors
    assert recipes.problems(_fake("k", "ModelError", "", status=0, enabled=False)) == []
