"""Each message of the fact readers (``--assume``, ``--dim``, ``--likely``, fact values), the
dimension-expression parser and the constraint-IR loader, pinned whole: where, found, expected,
fix, and the docs link of its class.

The expected texts are written out by hand from what each input gets wrong, so a change of
wording shows up here (tests/errors/test_bad_input.py checks the same inputs through the analysis and the
command line).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from symshape.algebra.expr import sym
from symshape.algebra.parse import parse_dim
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.userfacts import (
    Divisible,
    Likely,
    Range,
    Relation,
    apply,
    apply_fact,
    parse_fact,
    parse_likely,
    parse_range,
)
from symshape.errors import ExpressionSyntaxError, ModelError, SymshapeError, UserFactError
from symshape.tools.mlir_passes.constraint_load import load_constraints
from symshape.tools.mlir_passes.opt import parse_text

SYMPY = "write it in sympy syntax, e.g. 'batch*seq', 'floor(h/2) + 1', 'Max(a, b)', 'Mod(n, 8)'"
LIKELY_FIX = "write e.g. --likely seq=128,512 or --assume 'seq~=128,512'"
RANGE_FIX = "write e.g. seq=1..4096 or batch=1.."
a, b = sym("a"), sym("b")


def _message(build: Callable[[], object], error: type[SymshapeError]) -> str:
    with pytest.raises(error) as info:
        build()
    err = info.value
    assert type(err) is error
    assert str(err) == f"{err.where}: {err.found}, expected {err.expected}; {err.fix} (run `{err.docs}`)"
    return str(err).removesuffix(f" (run `symshape explain {error.__name__.lower()}`)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", f"dimension expression '': it is empty, expected an expression; {SYMPY}"),
        ("a +", f"dimension expression 'a +': found 'end of input', expected 'more input'; {SYMPY}"),
        ("floor(a/2", f"dimension expression 'floor(a/2': found 'end of input', expected ')'; {SYMPY}"),
        ("a/2", "dimension expression 'a/2': 'a/2' is not an integer, expected it wrapped in floor() or ceiling() "
                f"(a true division must give an integer); {SYMPY}"),
        ("a ** b", "dimension expression 'a ** b': the power 'b' is not an integer, expected a non-negative integer "
                   f"power such as 'h**2'; {SYMPY}"),
        ("a**100", f"dimension expression 'a**100': the power 100 is larger than 64, expected a power of at most 64; "
                   f"{SYMPY}"),
        ("foo(a)", "dimension expression 'foo(a)': unknown function foo() with 1 argument(s), expected floor(x), "
                   f"ceiling(x), Max(a, ...), Min(a, ...) or Mod(a, b); {SYMPY}"),
        ("a $ b", "dimension expression 'a $ b': unexpected character '$' at 2, expected names, integers, "
                  f"+ - * / // % ** , and parentheses; {SYMPY}"),
        ("h/0", f"dimension expression 'h/0': division by zero, expected a divisor that is not zero; {SYMPY}"),
        ("a b", f"dimension expression 'a b': unexpected 'b', expected an operator or the end of the expression; "
                f"{SYMPY}"),
        (")", f"dimension expression ')': unexpected ')', expected a number, a name or '('; {SYMPY}"),
        ("(" * 5000 + "a" + ")" * 5000, None),
    ],
)
def test_expression_syntax(text: str, message: str | None):
    got = _message(lambda: parse_dim(text), ExpressionSyntaxError)
    if message is None:  # too deep to quote here: the found and expected parts
        assert got.endswith(f": it is nested too deeply, expected an expression of moderate depth (write a flatter "
                            f"one); {SYMPY}")
    else:
        assert got == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("batch + == 3", f"user fact 'batch + == 3': in its left side 'batch +', found 'end of input', expected "
                         f"'more input'; {SYMPY}"),
        ("n <= h/0", f"user fact 'n <= h/0': in its right side 'h/0', division by zero, expected a divisor that is "
                     f"not zero; {SYMPY}"),
    ],
)
def test_an_expression_inside_a_fact_is_placed_at_the_fact(text: str, message: str):
    assert _message(lambda: parse_fact(text), ExpressionSyntaxError) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("==", "user fact '==': the left side of the relation is empty, expected an expression on each side; "
               "write e.g. 'seq <= 4096'"),
        ("seq <=", "user fact 'seq <=': the right side of the relation is empty, expected an expression on each "
                   "side; write e.g. 'seq <= 4096'"),
        ("a +", "user fact 'a +': it is not a relation, expected one relation (==, <=, <, >=, >, !=) between two "
                "expressions, a range NAME=LO..HI or likely values NAME~=V1,V2; write e.g. 'a + b == 1024', "
                "'seq <= 4096', 'h % 8 == 0', 'seq=1..4096' or 'seq~=128,512'"),
        ("seq=5..2", "user fact 'seq=5..2': the range 5..2 is empty, expected LO..HI with LO <= HI; write the "
                     "smaller end first"),
        ("seq=a..b", "user fact 'seq=a..b': it is not a range, expected NAME=LO..HI with integer ends, either may be "
                     f"empty; {RANGE_FIX}"),
        ("seq~=a,b", "user fact 'seq~=a,b': the likely values are not a list of sizes, expected NAME~=V1,V2,... "
                     f"with integers >= 0; {LIKELY_FIX}"),
    ],
)
def test_assume_text(text: str, message: str):
    assert _message(lambda: parse_fact(text), UserFactError) == message


def test_option_values_are_placed_at_the_option():
    """``--dim`` and ``--likely`` values are named as the command line wrote them."""
    assert _message(lambda: parse_range("seq<=4"), UserFactError) == (
        f"--dim 'seq<=4': it is not a range, expected NAME=LO..HI with integer ends, either may be empty; {RANGE_FIX}"
    )
    assert _message(lambda: parse_range("seq=5..2"), UserFactError) == (
        "--dim 'seq=5..2': the range 5..2 is empty, expected LO..HI with LO <= HI; write the smaller end first"
    )
    assert _message(lambda: parse_likely("seq=x"), UserFactError) == (
        "--likely 'seq=x': the likely values are not a list of sizes, expected NAME=V1,V2,... with integers >= 0; "
        f"{LIKELY_FIX}"
    )


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Range("seq", 5, 2), "user fact 'seq=5..2': the range 5..2 is empty, expected LO..HI with LO <= HI; "
                                     "write the smaller end first"),
        (lambda: Likely("seq", (4, -1)), "user fact 'seq~=4,-1': the likely values are not a list of sizes, expected "
                                         f"NAME~=V1,V2,... with integers >= 0; {LIKELY_FIX}"),
        (lambda: Divisible(a, 0), "user fact 'Mod(a, 0) == 0': the divisor 0 is not positive, expected a divisor "
                                  ">= 1; write e.g. 'Mod(h, 8) == 0'"),
        (lambda: Relation(a, "=<", b), "user fact 'a =< b': the relation '=<' is unknown, expected one of ==, <=, <, "
                                       ">=, >, !=; write the relation with one of those"),
    ],
)
def test_fact_values(build: Callable[[], object], message: str):
    assert _message(build, UserFactError) == message


def test_recording_a_fact():
    graph = ConstraintGraph()
    for name in ("batch", "seq", "past", "total", "h"):
        graph.add_symbol(name, "input", Origin("input", name))
    assert _message(lambda: apply_fact(graph, "sequence >= 1"), UserFactError) == (
        "user fact 'sequence >= 1': names 'sequence', which is not a symbol of this program, expected one of the "
        "known input symbols: batch, h, past, seq, total; use one of those names"
    )
    assert _message(lambda: apply_fact(graph, "seq + 1 != batch"), UserFactError) == (
        "user fact 'seq + 1 != batch': the relation '!=' cannot be recorded as a fact, expected one of ==, <=, <, >= "
        "or >; state what is known with one of those relations"
    )
    assert _message(lambda: apply(graph, Range("2x", 1)), UserFactError) == (
        "user fact '2x=1..': '2x' is not a symbol name, expected a name of letters, digits, '_' and '.' that does "
        "not start with a digit; name the symbol as the program declares it"
    )


def test_a_constraint_graph_operand_from_another_op():
    module = """
symshape.symbolic_dim @S0
func.func @f(%x: tensor<?xf32, [@S0]>) {
  func.return
}
func.func @shape_constraint_graph(%n: index) {
  %S0 = symshape.dim @S0 : index
  symshape.tie_predicate_lt %n, %S0
  func.return
}
"""
    _, parsed = parse_text(module)
    assert _message(lambda: load_constraints(parsed), ModelError) == (
        "func.func (op '@shape_constraint_graph'): a predicate operand is computed by a block argument, expected "
        "operands built from symshape.dim, arith.constant and integer arith ops only; compute the operand in the "
        "constraint graph from those ops, or drop the predicate"
    )
