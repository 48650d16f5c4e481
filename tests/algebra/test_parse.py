"""Parsing sympy-syntax dims: round trips, the strings other tools write, and pinned errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from symshape.algebra.expr import Expr, evaluate, sym
from symshape.algebra.parse import is_identifier, parse_dim
from symshape.errors import ExpressionSyntaxError
from tests._expr_trees import build, envs, naive, trees


@given(trees)
@settings(max_examples=300, deadline=None)
def test_printed_form_parses_back_to_the_same_object(tree):
    d = build(tree)
    back = parse_dim(str(d))
    assert back is d if isinstance(d, Expr) else back == d, (str(d), str(back))


# Strings written by onnxruntime's symbolic shape inference, torch exporters and users, with
# their values at an assignment computed by hand (not by symshape).
_ENV = {"batch": 3, "seq": 5, "h": 7, "a": 4, "b": 9, "n": 21, "past_seq": 2, "unk__12": 11}
WRITTEN = [
    ("batch*seq", 15),
    ("floor(h/2) + 1", 4),
    ("ceiling(h/2)", 4),
    ("Max(a, b)", 9),
    ("Min(a, b)", 4),
    ("Mod(n, 8)", 5),
    ("past_seq + seq", 7),
    ("unk__12", 11),
    ("2*floor((h - 1)/2) + 1", 7),
    ("floor(h/2 - 1/2)", 3),  # sympy's own rewrite of floor((h - 1)/2)
    ("-floor(-h/2)", 4),
    ("(h - 1)//2 + 1", 4),
    ("n % 8", 5),
    ("batch*seq*h", 105),
    ("2*a/2", 4),
    ("a**2 + 1", 17),
    ("ceiling((seq + 2*a)/3)", 5),
    ("Max(1, a - 9)", 1),
]


@pytest.mark.parametrize(("text", "value"), WRITTEN)
def test_strings_other_tools_write(text, value):
    assert evaluate(parse_dim(text), _ENV) == value


def test_parsed_forms_are_canonical():
    h = sym("h")
    assert parse_dim("ceiling(h/2)") is parse_dim("floor((h + 1)/2)")
    assert parse_dim("2*floor((h - 1)/2) + 1") is parse_dim("2*floor(h/2 - 1/2) + 1")
    assert parse_dim("Mod(n, 8)") is parse_dim("n % 8")
    assert parse_dim("batch * seq") is parse_dim("seq*batch")
    assert parse_dim("h") is h and parse_dim(" 12 ") == 12


@given(trees, envs)
@settings(max_examples=100, deadline=None)
def test_parse_of_printed_form_evaluates_like_the_tree(tree, env):
    assert evaluate(parse_dim(str(build(tree))), env) == naive(tree, env)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"^dimension expression '': it is empty, expected an expression;"),
        ("a +", r"'a \+': found 'end of input', expected 'more input'"),
        ("floor(a/2", r"'floor\(a/2': found 'end of input', expected '\)'"),
        ("a/2", r"'a/2': 'a/2' is not an integer, expected it wrapped in floor\(\) or ceiling\(\)"),
        ("a ** b", r"the power 'b' is not an integer, expected a non-negative integer power"),
        ("a**100", r"the power 100 is larger than 64"),
        ("foo(a)", r"unknown function foo\(\) with 1 argument\(s\)"),
        ("a $ b", r"unexpected character '\$' at 2"),
        ("h/0", r"'h/0': division by zero"),
        ("floor(h/(2 - 2))", r"division by zero"),
        ("Mod(h, 0)", r"division by zero"),
        ("h // 0", r"division by zero"),
        ("a b", r"unexpected 'b'"),
        (")", r"unexpected '\)'"),
    ],
)
def test_errors_are_pinned(text, message):
    with pytest.raises(ExpressionSyntaxError, match=message) as info:
        parse_dim(text)
    assert "write it in sympy syntax" in str(info.value)
    assert str(info.value).endswith("(run `symshape explain expressionsyntaxerror`)")


def test_identifiers():
    assert is_identifier("unk__12") and is_identifier("past_seq") and is_identifier("a.b")
    assert not is_identifier("2a") and not is_identifier("a b") and not is_identifier("")
