"""The shape of the code (STYLE A3, A4, A7, A13; issues 13 and 22): module sizes, no import cycle,
rule modules only under ``rules/<dialect>/``, a light ``import symshape``, the one-way arrows of
the core modules, the layers of the package's rooms, and a docs section for every error class."""

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
from tests.paths import MODELS

SRC = Path(symshape.__file__).parent
ROOT = SRC.parent.parent
MAX_LINES = 400
RULE_DIALECTS = ("onnx", "onnx_contrib", "hlo", "mlir", "aten")


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_no_module_is_over_400_lines():
    sizes = {str(p.relative_to(SRC)): _lines(p) for p in _modules()}
    too_long = {rel: n for rel, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"split these modules (limit {MAX_LINES} lines): {too_long}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the symshape modules it imports, anywhere in it (top level, in functions, under
    TYPE_CHECKING); ``from pkg import mod`` counts as importing both ``pkg`` and ``pkg.mod``."""
    files = {_module_name(p): p for p in _modules()}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets.add(node.module)
                targets.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        graph[name] = {t for t in targets if t in files and t != name}
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a closed path) for every back edge of a depth-first walk; none when acyclic."""
    cycles: list[list[str]] = []
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        path: list[str] = [root]
        stack = [iter(sorted(graph[root]))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                done.add(path.pop())
                stack.pop()
            elif nxt in path:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in done:
                path.append(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return cycles


def test_the_cycle_finder_names_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert find_cycles(graph) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b"}, "b": {"d"}, "c": {"d"}, "d": set()}) == []


def test_no_import_cycle_in_src():
    graph = _import_graph()
    assert "symshape.rules.registry" in graph["symshape.rules.onnx.shape_ops"]  # the walk sees imports
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def _registers_rules(path: Path) -> bool:
    """``path`` calls ``register(...)`` or imports ``register`` from the registry."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "register") or (
                isinstance(func, ast.Attribute) and func.attr == "register"
            ):
                return True
        if isinstance(node, ast.ImportFrom) and node.module == "symshape.rules.registry":
            if any(a.name == "register" for a in node.names):
                return True
    return False


def test_every_rule_module_lives_under_rules_dialect():
    registering = [p.relative_to(SRC) for p in _modules() if p != SRC / "rules" / "registry.py" and _registers_rules(p)]
    assert len(registering) > 10  # the check sees the rule modules
    homes = {Path("rules", dialect) for dialect in RULE_DIALECTS}
    misplaced = [str(p) for p in registering if p.parent not in homes]
    assert not misplaced, f"modules that register rules must live under rules/<{'|'.join(RULE_DIALECTS)}>/: {misplaced}"


@pytest.mark.parametrize(
    "statement",
    [
        "import symshape",
        "import symshape.algebra.expr, symshape.algebra.parse, symshape.engine.facts, symshape.engine.constraints",
    ],
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
# interning <- terms <- core <- atoms <- expr <- parse / intervals, fact_rules <- facts
# <- equations, provenance, narrowing, contradictions <- constraints (errors is a leaf anyone may use); fact
# values need only expr. ``symshape explain`` needs only errors (and the guide shipped as package data).
_ALGEBRA = ("algebra/interning", "algebra/terms", "algebra/core", "algebra/atoms", "algebra/expr")
_EXPR = "symshape.algebra.expr"
_ALLOWED = {
    "algebra/interning": set(),
    "algebra/terms": set(),
    "algebra/core": {"symshape.algebra.interning", "symshape.algebra.terms"},
    "algebra/atoms": {"symshape.algebra.interning", "symshape.algebra.core"},
    "algebra/expr": {"symshape.algebra.core", "symshape.algebra.atoms", "symshape.algebra.terms"},
    "errors": set(),
    "algebra/parse": {_EXPR, "symshape.errors"},
    "algebra/intervals": set(),
    "engine/fact_rules": {_EXPR},
    "engine/facts": {_EXPR, "symshape.algebra.intervals", "symshape.engine.fact_rules"},
    "engine/equations": {_EXPR, "symshape.engine.facts"},
    "engine/provenance": {_EXPR},
    "engine/narrowing": {"symshape.engine.facts", "symshape.engine.provenance"},
    "engine/contradictions": {_EXPR, "symshape.engine.facts", "symshape.errors", "symshape.engine.provenance"},
    "engine/nonneg": {_EXPR, "symshape.algebra.core", "symshape.algebra.piecewise", "symshape.engine.facts"},
    "engine/constraints": {
        _EXPR,
        "symshape.engine.facts",
        "symshape.engine.nonneg",
        "symshape.errors",
        "symshape.engine.equations",
        "symshape.engine.provenance",
        "symshape.engine.contradictions",
        "symshape.engine.narrowing",
    },
    "engine/userfacts/values": {_EXPR, "symshape.errors"},
    "app/explain_command": {"symshape.errors"},
}


@pytest.mark.parametrize("module", sorted(_ALLOWED))
def test_core_import_arrows_point_one_way(module):
    imported = _symshape_imports(SRC / f"{module}.py")
    assert imported <= _ALLOWED[module], f"symshape.{module} imports {sorted(imported - _ALLOWED[module])}"


def test_expr_never_imports_decisions():
    for module in _ALGEBRA:
        assert not {m for m in _symshape_imports(SRC / f"{module}.py") if "facts" in m or "constraints" in m}


# The rooms of the package (each subpackage and each root module), lowest first: a room may
# import only the rooms before it. The base modules are leaves anyone may use; then the algebra,
# the engine, MLIR as data, the rules (with their registry and the walker that applies them), the
# frontends, the tools built on an analysis, the Python API and the command line.
LAYERS = (
    "errors", "forking", "io", "memory", "optional",
    "algebra", "engine", "ir", "rules", "frontends", "tools", "api", "app", "__main__",
)
MAX_ROOT_MODULES = 8


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _runtime_imports(path: Path) -> set[str]:
    """The symshape modules ``path`` imports at run time: at any level, but not under
    ``if TYPE_CHECKING:`` (annotations only)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("symshape"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("symshape"))
    return out


def room_arrows() -> dict[tuple[str, str], str]:
    """(importing room, imported room) -> one module that makes the arrow."""
    arrows: dict[tuple[str, str], str] = {}
    for path in _modules():
        module = _module_name(path)
        for target in _runtime_imports(path):
            a, b = _room(module), _room(target)
            if a != b and b != "__init__":
                arrows.setdefault((a, b), f"{module} imports {target}")
    return arrows


def test_every_room_has_a_layer_and_the_root_is_small():
    rooms = {_room(_module_name(p)) for p in _modules()} - {"__init__"}
    assert rooms == set(LAYERS), f"give these rooms a layer: {sorted(rooms - set(LAYERS))}"
    root = sorted(p.name for p in SRC.glob("*.py"))
    assert len(root) <= MAX_ROOT_MODULES, f"the package root holds {len(root)} modules: {root}"


def test_every_import_points_down_the_layers():
    arrows = room_arrows()
    assert ("rules", "engine") in arrows  # the walk sees function-level and top-level imports
    up = [why for (a, b), why in sorted(arrows.items()) if LAYERS.index(b) > LAYERS.index(a)]
    assert not up, "imports that point up the layers:\n" + "\n".join(up)


def test_no_module_monkeypatches_another():
    pattern = re.compile(r"^\w+\._\w+ = ", re.MULTILINE)
    offenders = [str(p.relative_to(SRC)) for p in _modules() if pattern.search(p.read_text())]
    assert not offenders


def _all_error_classes() -> list[type[SymshapeError]]:
    for info in pkgutil.walk_packages(symshape.__path__, "symshape."):
        if info.name.startswith(("symshape.__main__", "symshape.app.cli")):
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


def test_analyzing_an_onnx_model_imports_neither_xdsl_nor_a_runtime():
    """The whole-process cost of ``symshape analyze model.onnx`` (issue 9): no xDSL, onnxruntime,
    sympy, jax or IREE import on the way."""
    model = str(MODELS / "gpt2_past_ts.onnx")
    code = ("import contextlib, io, sys\nfrom symshape.app.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['analyze', {model!r}, '--format', 'json'], standalone_mode=False)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'onnxruntime', 'sympy', 'jax', 'iree'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout
