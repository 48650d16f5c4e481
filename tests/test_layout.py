"""The shape of the code (STYLE A3, A4, A7, A13): module sizes, a light ``import symshape``, the
one-way arrows of the core modules, and a docs section for every error class."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import symshape
from symshape.errors import SymshapeError

SRC = Path(symshape.__file__).parent
ROOT = SRC.parent.parent
MAX_LINES = 600


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_no_module_is_over_600_lines():
    too_long = {str(p.relative_to(SRC)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not too_long, f"split these modules (limit {MAX_LINES} lines): {too_long}"


@pytest.mark.parametrize(
    "statement",
    ["import symshape", "import symshape.expr, symshape.parse, symshape.facts, symshape.constraints"],
)
def test_importing_the_core_pulls_in_neither_onnx_nor_xdsl(statement):
    code = f"{statement}; import sys; print(sorted(m for m in sys.modules if m.split('.')[0] in ('onnx', 'xdsl')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def _symshape_imports(path: Path) -> set[str]:
    """The ``symshape.*`` modules ``path`` imports at any level (top or inside functions)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("symshape"):
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("symshape"))
    return out


# Each core module may import only the modules listed for it: the arrows point one way,
# interning <- expr_terms <- exprcore <- expr_atoms <- expr <- parse / facts <- constraints
# (errors is a leaf anyone may use).
_ALGEBRA = ("interning", "expr_terms", "exprcore", "expr_atoms", "expr")
_ALLOWED = {
    "interning": set(),
    "expr_terms": set(),
    "exprcore": {"symshape.interning", "symshape.expr_terms"},
    "expr_atoms": {"symshape.interning", "symshape.exprcore"},
    "expr": {"symshape.exprcore", "symshape.expr_atoms", "symshape.expr_terms"},
    "errors": set(),
    "parse": {"symshape.expr", "symshape.errors"},
    "facts": {"symshape.expr"},
    "constraints": {"symshape.expr", "symshape.facts", "symshape.errors"},
}


@pytest.mark.parametrize("module", sorted(_ALLOWED))
def test_core_import_arrows_point_one_way(module):
    imported = _symshape_imports(SRC / f"{module}.py")
    assert imported <= _ALLOWED[module], f"symshape.{module} imports {sorted(imported - _ALLOWED[module])}"


def test_expr_never_imports_decisions():
    for module in _ALGEBRA:
        assert not {m for m in _symshape_imports(SRC / f"{module}.py") if "facts" in m or "constraints" in m}


def test_no_module_monkeypatches_another():
    pattern = re.compile(r"^\w+\._\w+ = ", re.MULTILINE)
    offenders = [str(p.relative_to(SRC)) for p in _modules() if pattern.search(p.read_text())]
    assert not offenders


def _all_error_classes() -> list[type[SymshapeError]]:
    for info in pkgutil.walk_packages(symshape.__path__, "symshape."):
        if info.name.startswith(("symshape.__main__", "symshape.cli")):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional dependency (torch, jax...) that is not installed
            continue
    found: list[type[SymshapeError]] = []
    todo: list[type[SymshapeError]] = [SymshapeError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(set(found), key=lambda c: c.__name__)


def _doc_anchors() -> set[str]:
    """GitHub-style anchors of the headings in docs/errors.md."""
    text = (ROOT / "docs" / "errors.md").read_text()
    heads = re.findall(r"^#+\s+(.+?)\s*$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in heads}


def test_every_error_class_has_a_section_in_docs_errors_md():
    anchors = _doc_anchors()
    for cls in _all_error_classes():
        assert "anchor" in vars(cls), f"{cls.__name__} inherits its docs anchor; give it its own"
        assert cls.anchor in anchors, f"docs/errors.md has no section '#{cls.anchor}' for {cls.__name__}"
