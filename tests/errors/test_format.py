"""Every error symshape raises on purpose says where, what was found, what was expected and what
to do, in one format: the keyword builder of `symshape.errors` (checked here over the sources'
syntax trees), with its place spelled by one of the ``where_*`` helpers or an op's
``ctx.where()``."""

from __future__ import annotations

import ast
import functools
import pickle
from pathlib import Path

import pytest

import symshape
from symshape.errors import (
    FORMAT,
    ContradictionError,
    ModelError,
    OutputError,
    SymshapeError,
    UserFactError,
    where_fact,
    where_file,
    where_input,
    where_op,
    where_option,
    where_output,
)

SRC = Path(symshape.__file__).parent
PARTS = ("where", "found", "expected", "fix")


@functools.cache
def _sources() -> dict[str, ast.Module]:
    return {str(p.relative_to(SRC)): ast.parse(p.read_text(), str(p)) for p in sorted(SRC.rglob("*.py"))}


def _error_class_names(trees: dict[str, ast.Module]) -> set[str]:
    """`SymshapeError` and every class that derives from it anywhere in the sources."""
    names = {"SymshapeError"}
    classes = [n for tree in trees.values() for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for c in classes:
            bases = {_name(b) for b in c.bases}
            if c.name not in names and bases & names:
                names.add(c.name)
                grew = True
    return names


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _error_calls(trees: dict[str, ast.Module]) -> list[tuple[str, ast.Call]]:
    """Every construction of a symshape error: ``(file, call)``."""
    names = _error_class_names(trees)
    out: list[tuple[str, ast.Call]] = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in names:
                out.append((path, node))
    return out


def _is_positional(call: ast.Call) -> bool:
    return bool(call.args) or not {k.arg for k in call.keywords} >= set(PARTS)


def test_the_error_classes_are_found():
    """The checks below see the classes they are about (OracleError lives in verify/)."""
    names = _error_class_names(_sources())
    assert {"ModelError", "ContradictionError", "UserFactError", "OutputError", "OracleError"} <= names


def test_every_error_is_built_by_keyword():
    calls = _error_calls(_sources())
    assert len(calls) > 100  # the walk sees the raise sites
    offenders = [f"{p}:{call.lineno}" for p, call in calls if _is_positional(call)]
    assert not offenders, f"build these errors with where=, found=, expected=, fix=: {offenders}"


def test_a_positional_message_is_refused() -> None:
    with pytest.raises(TypeError):
        ModelError("free text")


def test_where_is_spelled_by_a_helper_not_formatted_at_the_raise_site():
    """``where=`` is a helper call, ``ctx.where()``, a variable or a plain constant, never an
    f-string or a concatenation (so each kind of place has one spelling)."""
    bad: list[str] = []
    for path, call in _error_calls(_sources()):
        for k in call.keywords:
            if k.arg == "where" and isinstance(k.value, (ast.JoinedStr, ast.BinOp)):
                bad.append(f"{path}:{call.lineno}")
    assert not bad, f"use a where_* helper from symshape.errors: {bad}"


# ------------------------------------------------------------------ the builder itself


def test_the_four_parts_compose_one_message_with_the_docs_link():
    err = ModelError(where="Softmax (node 'sm')", found="axis 5 is out of range for rank 2",
                     expected="an axis in [-2, 1]", fix="fix the axis attribute")
    assert str(err) == (
        "Softmax (node 'sm'): axis 5 is out of range for rank 2, expected an axis in [-2, 1]; "
        "fix the axis attribute (run `symshape explain modelerror`)"
    )
    assert FORMAT == "{where}: {found}, expected {expected}; {fix}"
    assert (err.where, err.found, err.expected, err.fix) == (
        "Softmax (node 'sm')", "axis 5 is out of range for rank 2", "an axis in [-2, 1]", "fix the axis attribute"
    )
    assert err.docs == "symshape explain modelerror"


@pytest.mark.parametrize("cls", [ModelError, ContradictionError, UserFactError, OutputError])
def test_each_class_links_its_own_section(cls: type[SymshapeError]):
    err = cls(where="w", found="f", expected="e", fix="x")
    assert str(err) == f"w: f, expected e; x (run `symshape explain {cls.__name__.lower()}`)"
    assert isinstance(err, SymshapeError)


def test_a_missing_part_or_a_mixed_call_is_a_type_error():
    parts = {"where": "w", "found": "f", "expected": "e", "fix": "x"}
    for missing in PARTS:
        given = {k: v for k, v in parts.items() if k != missing}
        with pytest.raises(TypeError, match=missing):
            ModelError(**given)
    with pytest.raises(TypeError):
        ModelError("text", **parts)


def test_errors_survive_pickling_with_their_parts():
    """Errors cross process boundaries (pytest-xdist, multiprocessing) whole."""
    err = OutputError(where=where_output("o.json"), found="cannot write it", expected="a writable path", fix="f")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is OutputError and str(back) == str(err) and back.found == "cannot write it"


@pytest.mark.parametrize(
    ("dialect", "op_type", "name", "expected"),
    [
        ("", "Softmax", "sm", "Softmax (node 'sm')"),
        ("com.microsoft", "Attention", "att", "com.microsoft::Attention (node 'att')"),
        ("ai.onnx.ml", "TreeEnsemble", "t", "ai.onnx.ml::TreeEnsemble (node 't')"),
        ("stablehlo", "add", "@main:%3", "stablehlo.add (op '@main:%3')"),
        ("func", "call", "@main:%0", "func.call (op '@main:%0')"),
    ],
)
def test_an_op_is_spelled_one_way_per_frontend(dialect: str, op_type: str, name: str, expected: str):
    assert where_op(dialect, op_type, name) == expected


def test_the_other_kinds_of_place():
    assert where_file("m.onnx") == "file 'm.onnx'"
    assert where_file(Path("d") / "m.mlir") == "file 'd/m.mlir'"
    assert where_output("out.json") == "output 'out.json'"
    assert where_input("x") == "input 'x'"
    assert where_input("x", "dim 1") == "input 'x' (dim 1)"
    assert where_fact("seq <= 8") == "user fact 'seq <= 8'"
    assert where_option("--size", "b=x") == "--size 'b=x'"
