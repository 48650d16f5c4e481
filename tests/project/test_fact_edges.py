"""Fact text is read at the edge only (DESIGN: facts travel as typed values, never as text printed
and parsed back). An AST walk over ``src`` finds every call of the readers and every parameter
that accepts fact strings, and checks each is in a module named here."""

from __future__ import annotations

import ast
from pathlib import Path

import symshape

SRC = Path(symshape.__file__).parent

# reader -> the modules allowed to call it
READERS = {
    "parse_fact": {"engine/userfacts/syntax.py", "engine/userfacts/record.py"},  # from_options, as_facts; apply_fact
    "parse_range": {"engine/userfacts/syntax.py"},  # --dim (from_options)
    "parse_likely": {"engine/userfacts/syntax.py"},  # --likely (from_options)
    # the command lines' --assume/--dim/--likely values, read in one place
    "from_options": {"app/cli.py", "app/verify_command.py", "app/optimize_command.py", "app/report_command.py",
                     "app/sweep.py"},
    # the Python API's string convenience
    "as_facts": {"rules/walker.py", "frontends/mlir/frontend.py", "tools/mlir_passes/opt.py"},
    "apply_fact": set(),  # a convenience for tests and interactive use
}
# the public entry points whose ``facts`` parameter also accepts strings in --assume syntax
STRING_FACT_PARAMETERS = {"rules/walker.py", "api.py", "frontends/__init__.py", "frontends/onnx/frontend.py",
                          "tools/annotate.py", "frontends/mlir/frontend.py", "tools/mlir_passes/opt.py",
                          "frontends/jax/exported.py", "tools/optimize/model.py", "frontends/fx/frontend.py"}


def _modules() -> dict[str, ast.Module]:
    return {str(p.relative_to(SRC)): ast.parse(p.read_text()) for p in sorted(SRC.rglob("*.py"))}


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def test_fact_text_is_read_only_at_the_edge():
    found: dict[str, set[str]] = {name: set() for name in READERS}
    for module, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in READERS:
                found[str(_called_name(node))].add(module)
    for name, allowed in READERS.items():
        assert found[name] <= allowed, f"{name} is called in {sorted(found[name] - allowed)}; hand over fact values"
    assert found["parse_fact"] and found["as_facts"], "the walk found no reader at all: it is not looking"


def _fact_annotations(tree: ast.Module) -> list[tuple[str, str]]:
    """``(name, annotation)`` of every parameter and annotated field whose name ends in ``facts``."""
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.arg.endswith("facts") and node.annotation is not None:
            out.append((node.arg, ast.unparse(node.annotation)))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id.endswith("facts"):
            out.append((node.target.id, ast.unparse(node.annotation)))
    return out


def test_only_public_entry_points_accept_fact_strings():
    seen = 0
    for module, tree in _modules().items():
        for name, annotation in _fact_annotations(tree):
            seen += 1
            if "str" in annotation:
                assert module in STRING_FACT_PARAMETERS, f"{module}: '{name}: {annotation}' takes fact text"
                assert "Fact" in annotation, f"{module}: '{name}: {annotation}' takes only text"
    assert seen >= 10, "the walk found almost no fact parameters: it is not looking"


def test_the_fact_syntax_is_spelled_only_in_userfacts():
    """``~=`` (likely values) is --assume syntax: a string holding it elsewhere is fact text being
    built or picked apart."""
    for module, tree in _modules().items():
        if module.startswith("engine/userfacts/"):
            continue
        texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        assert not [t for t in texts if "~=" in t], f"{module} spells the --assume syntax"
