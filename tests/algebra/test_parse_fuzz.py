"""The parser under fuzzing: any text either parses to a `Dim` or raises `ExpressionSyntaxError`
(never another exception), and whatever parses has the value Python's own exact arithmetic gives
the same text (``fractions.Fraction``, with ``floor``/``ceiling``/``Max``/``Min``/``Mod``).

Three generators: random token streams (mostly near-valid), random characters, and a seeded
mutation fuzzer over printed canonical forms (it prints its seed, STYLE A11).
"""

from __future__ import annotations

import os
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symshape.algebra.expr import Dim, evaluate
from symshape.algebra.parse import parse_dim
from symshape.errors import ExpressionSyntaxError
from tests._expr_trees import build, random_tree
from tests.prop_strategies import PROP, name_value, python_value

# Points with every sign and few common factors, so a wrong rounding shows at one of them.
ENVS = [{"x": -7, "y": 5, "z": 0, "n": 13}, {"x": 4, "y": -3, "z": 11, "n": -1}, {"x": 1, "y": 2, "z": -5, "n": 6}]
TOKENS = [
    "x", "y", "z", "n", "x", "y", "0", "1", "2", "3", "7", "12", "64", "65", "99999999999999999999",
    "+", "-", "*", "/", "//", "%", "**", "+", "-", "*", "/",
    "(", ")", "(", ")", ",",
    "floor(", "ceiling(", "ceil(", "Max(", "Min(", "Mod(", "max(", "min(", "foo(",
]
JUNK = ["$", "@", ".", "_", "'", '"', "é", "½", "\t", "\n", "[", "]", "=", "!", "<", "&", "^", "~", "#", "\x00"]
token_texts = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14).map(" ".join)
junky_texts = st.lists(st.sampled_from(TOKENS + JUNK), max_size=14).map("".join)


def _wrap(draw: st.DrawFn, text: str) -> str:
    return f"({text})" if draw(st.booleans()) else text


@st.composite
def _written(draw: st.DrawFn, depth: int = 3) -> str:
    """Text a person or a tool might write, with or without parentheses (so precedence is
    tested against Python's own), in every spelling the parser accepts."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["x", "y", "z", "n", "0", "1", "2", "3", "12"]))
    left = _wrap(draw, draw(_written(depth - 1)))
    right = _wrap(draw, draw(_written(depth - 1)))
    space = draw(st.sampled_from(["", " ", "  "]))
    form = draw(st.integers(0, 6))
    if form == 0:
        op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%"]))
        return f"{left}{space}{op}{space}{right}"
    if form == 1:
        return f"{draw(st.sampled_from(['floor', 'ceiling', 'ceil']))}({left}{space}/{space}{right})"
    if form == 2:
        return f"{draw(st.sampled_from(['Max', 'Min', 'max', 'min']))}({left},{space}{right})"
    if form == 3:
        return f"Mod({left},{space}{right})"
    if form == 4:
        return f"{_wrap(draw, left)}**{draw(st.integers(0, 3))}"
    if form == 5:
        return f"{draw(st.sampled_from(['-', '+', '--']))}{left}"
    return f"{left}{space}{draw(st.sampled_from(['+', '-', '*']))}{space}{right}"


def _escaped(c: str) -> str:
    """How an error quotes a control character (docs/errors.md): ``\\xNN``, ``\\uNNNN``, ``\\UNNNNNNNN``."""
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def check_text(text: str) -> Dim | None:
    """Parse ``text``; the only failure allowed is ExpressionSyntaxError with the usual shape.
    When it parses, its value at each of ``ENVS`` must be Python's value of the same text."""
    try:
        d = parse_dim(text)
    except ExpressionSyntaxError as err:
        message = str(err)
        shown = "".join(c if c.isprintable() else _escaped(c) for c in text)
        assert message.isprintable(), message  # one line: control characters in the text are escaped
        assert message.startswith(f"dimension expression '{shown}': "), message
        assert err.where == f"dimension expression '{text}'" and ", expected " in message, message
        assert message.endswith("(run `symshape explain expressionsyntaxerror`)"), message
        return None
    for env in ENVS:
        expected = python_value(text, env)
        if expected is None:
            continue
        full = {**env, **{n: name_value(n, env) for n in (d.free if not isinstance(d, int) else ())}}
        assert expected.denominator == 1, (text, expected, str(d))  # we parsed it as an integer
        try:
            assert evaluate(d, full) == expected, (text, str(d), full)
        except ZeroDivisionError:  # a denominator we kept symbolic is 0 here; Python divided first
            pytest.fail(f"{text!r} -> {d}: Python evaluates it at {full} but the parsed form divides by 0")
    return d


@given(token_texts)
@PROP
def test_token_streams_parse_or_raise_expression_syntax_error(text: str) -> None:
    check_text(text)


@given(_written())
@PROP
def test_written_expressions_parse_to_pythons_value(text: str) -> None:
    check_text(text)


@given(junky_texts)
@PROP
def test_junk_characters_raise_expression_syntax_error(text: str) -> None:
    check_text(text)


@given(st.text(max_size=30))
@PROP
def test_arbitrary_text_parses_or_raises_expression_syntax_error(text: str) -> None:
    check_text(text)


@given(st.lists(st.sampled_from(["x", "y", "2", "3", "-", "+", "*", "/", "(", ")", "floor(", "ceiling("]),
                min_size=1, max_size=20).map("".join))
@PROP
def test_divisions_are_integers_or_rejected(text: str) -> None:
    """``/`` is legal only where the quotient is an integer: under floor/ceiling, or exact."""
    d = check_text(text)
    if d is not None:
        for x in range(-6, 7):
            for y in (-3, -1, 1, 2, 5):
                env = {"x": x, "y": y}
                value = python_value(text, env)
                if value is not None:
                    env.update({n: name_value(n, env) for n in (d.free if not isinstance(d, int) else ())})
                    assert value.denominator == 1 and evaluate(d, env) == value, (text, x, y)


# ------------------------------------------------------------------ seeded mutation fuzzer
def _mutate(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    j = min(len(text), i + rng.randint(1, 4))
    choice = rng.randrange(5)
    if choice == 0:
        return text[:i] + text[j:]  # delete a slice
    if choice == 1:
        return text[:i] + rng.choice(TOKENS + JUNK) + text[i:]  # insert a token or junk
    if choice == 2:
        return text[:i] + text[i:j][::-1] + text[j:]  # reverse a slice
    if choice == 3:
        return text[:i] + text[i:j] + text[i:j] + text[j:]  # duplicate a slice
    return text.replace(rng.choice("()+-*/,"), rng.choice("()+-*/,"), 1)  # swap one operator


def test_seeded_mutations_of_printed_forms() -> None:
    seed = int(os.environ.get("SYMSHAPE_FUZZ_SEED", time.time_ns() % 2**32))
    print(f"seed={seed}")  # reproduce a failure with SYMSHAPE_FUZZ_SEED=<seed>
    rng = random.Random(seed)
    parsed = 0
    for _ in range(600):
        text = str(build(random_tree(rng, depth=3)))
        for _ in range(rng.randint(1, 3)):
            text = _mutate(rng, text)
        try:
            parsed += check_text(text) is not None
        except AssertionError as err:
            raise AssertionError(f"seed={seed}: {err}") from None
    assert parsed > 0, f"seed={seed}: no mutant parsed; the fuzzer is not reaching the parser's success path"


# ------------------------------------------------------------------ depth
@pytest.mark.parametrize("depth", [20, 100])
def test_moderate_nesting_parses(depth: int) -> None:
    assert parse_dim("(" * depth + "x + 1" + ")" * depth) == parse_dim("x + 1")
    assert parse_dim("-" * depth + "x") == parse_dim("x" if depth % 2 == 0 else "-x")
    assert parse_dim("Max(" * depth + "x" + ", y)" * depth) == parse_dim("Max(x, y)")


def test_deep_nesting_gives_a_dim_or_a_syntax_error() -> None:
    text = "(" * 1000 + "x" + ")" * 1000
    try:
        assert parse_dim(text) == parse_dim("x")
    except ExpressionSyntaxError:
        pass
