"""Typed facts (`symshape.engine.userfacts`): the --assume text round-trips, each kind is sound when
applied (checked against plain integer evaluation of the construction trees), and each kind
reaches the JSON output through the API with values and through the command line with text."""

from __future__ import annotations

import itertools
import json
import operator
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import helper

from symshape.algebra.expr import as_symbol, evaluate, floordiv, mod, sym
from symshape.api import analyze_onnx
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.userfacts import (
    OPS,
    Divisible,
    Fact,
    InputValue,
    Likely,
    Range,
    Relation,
    apply,
    parse_fact,
    parse_likely,
    parse_range,
    parse_value,
    relation,
)
from symshape.errors import ContradictionError, UserFactError
from symshape.frontends.mlir.frontend import analyze_mlir_text, facts_for, module_to_programs
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes
from symshape.tools.outputs.json import document
from tests._expr_trees import Tree, build, naive, polynomials, trees
from tests.paths import TESTS

a, b, c, d, e = (sym(n) for n in "abcde")

# ------------------------------------------------------------------ the --assume text

_RESERVED = {"floor", "ceiling", "ceil", "Mod", "Max", "Min", "max", "min"}
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}(\.[a-z0-9]{1,3})?", fullmatch=True).filter(
    lambda n: n not in _RESERVED
)
bounds = st.one_of(st.none(), st.integers(-10**6, 10**6))


@st.composite
def ranges(draw: st.DrawFn) -> Range:
    lo, hi = draw(bounds), draw(bounds)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return Range(draw(names), lo, hi)


likelies = st.builds(Likely, names, st.lists(st.integers(0, 10**6), min_size=1, max_size=5).map(tuple))
# canonical Divisible values: what Mod(expr, k) keeps of expr (Mod(a + 8, 8) is Mod(a, 8))
divisibles = st.builds(lambda t, k: relation(mod(build(t), k), "==", 0), polynomials, st.integers(2, 12)).filter(
    lambda f: isinstance(f, Divisible)
)
relations = st.builds(lambda lt, op, rt: relation(build(lt), op, build(rt)), trees, st.sampled_from(OPS), trees)
STRATEGIES: dict[type[Any], st.SearchStrategy[Fact]] = {
    Range: ranges(),
    Divisible: divisibles,
    Likely: likelies,
    Relation: relations.filter(lambda f: isinstance(f, Relation)),
}
facts = st.one_of(*STRATEGIES.values())


ASSUME_KINDS = set(get_args(Fact)) - {InputValue}  # --value has its own reader, tested below


def test_every_fact_kind_has_a_strategy():
    assert ASSUME_KINDS == set(STRATEGIES)


@pytest.mark.parametrize("text", ["sr=16000", "ids=1,-2,3", "x.1=0"])
def test_an_input_value_reads_back_from_its_text(text: str):
    value = parse_value(text)
    assert parse_value(str(value).removeprefix("--value ")) == value


@settings(max_examples=250, deadline=None)
@given(facts)
def test_the_printed_fact_reads_back_as_the_same_value(fact: Fact):
    text = str(fact)
    assert parse_fact(text) == fact, text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("seq=1..4096", Range("seq", 1, 4096)),
        ("batch=1..", Range("batch", 1, None)),
        ("seq = ..-3", Range("seq", None, -3)),
        ("h % 8 == 0", Divisible(sym("h"), 8)),
        ("Mod(h, 8) == 0", Divisible(sym("h"), 8)),
        ("Mod(2*h, 8) == 0", Relation(2 * mod(sym("h"), 4), "==", 0)),  # Mod(2*h, 8) is 2*Mod(h, 4)
        ("seq~=128, 512", Likely("seq", (128, 512))),
        ("a + b == 1024", Relation(a + b, "==", 1024)),
        ("a + b = 1024", Relation(a + b, "==", 1024)),
        ("64 > past", Relation(64, ">", sym("past"))),
        ("n != 3", Relation(sym("n"), "!=", 3)),
        ("t <= floor(a/2) + 1", Relation(sym("t"), "<=", floordiv(a, 2) + 1)),
    ],
)
def test_parse_fact_reads_each_form(text: str, value: Fact):
    assert parse_fact(text) == value


def test_option_readers_build_the_same_values():
    assert parse_range("seq=1..4096") == parse_fact("seq=1..4096")
    assert parse_likely("seq=128,512") == parse_fact("seq~=128,512")
    with pytest.raises(UserFactError, match="--dim 'seq<=4': it is not a range"):
        parse_range("seq<=4")
    with pytest.raises(
        UserFactError, match="--likely 'seq=x': the likely values are not a list of sizes, expected NAME=V1,V2"
    ):
        parse_likely("seq=x")


@pytest.mark.parametrize(
    ("build_value", "message"),
    [
        (lambda: Range("seq", 5, 2), "user fact 'seq=5..2': the range 5..2 is empty, expected LO..HI with LO <= HI"),
        (lambda: Likely("seq", ()),
         "user fact 'seq~=': the likely values are not a list of sizes, expected NAME~=V1,V2"),
        (lambda: Likely("seq", (4, -1)), "expected NAME~=V1,V2,... with integers >= 0"),
        (lambda: Divisible(a, 0),
         "user fact 'Mod\\(a, 0\\) == 0': the divisor 0 is not positive, expected a divisor >= 1"),
        (lambda: Relation(a, "=<", b),
         "user fact 'a =< b': the relation '=<' is unknown, expected one of ==, <=, <, >=, >, !="),
    ],
)
def test_values_refuse_what_no_text_could_say(build_value: Callable[[], Fact], message: str):
    with pytest.raises(UserFactError, match=message):
        build_value()


def test_symbols_are_the_names_a_fact_mentions():
    assert Range("seq", 1).symbols == {"seq"}
    assert Likely("seq", (8,)).symbols == {"seq"}
    assert Divisible(a * b + 2, 4).symbols == {"a", "b"}
    assert Relation(floordiv(a, d), "<=", mod(c, 3) + 7).symbols == {"a", "c", "d"}
    assert Relation(3, "==", 3).symbols == set()


# ------------------------------------------------------------------ applying a fact is sound

POSITIVE = ("d", "e")
BOX = {n: range(1, 5) if n in POSITIVE else range(6) for n in "abcde"}  # every assignment checked
ENVS = [dict(zip(BOX, values, strict=True)) for values in itertools.product(*BOX.values())]
_CMP: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt
}
symbol_leaves = st.sampled_from("abcde").map(lambda n: ("sym", n))
small_polys = st.recursive(
    st.one_of(symbol_leaves, st.integers(-3, 6).map(lambda k: ("int", k))),
    lambda t: st.tuples(st.sampled_from(["add", "sub", "mul"]), t, t),
    max_leaves=4,
)


def _graph() -> ConstraintGraph:
    g = ConstraintGraph()
    for n in "abcde":
        g.add_symbol(n, "input", Origin("input", n), lo=1 if n in POSITIVE else 0)
    return g


# A stated fact: the value, the plain-integer test of it on the construction trees, and probes:
# trees and bounds at the fact's own edge, where a wrong bound or divisor would show first.
Stated = tuple[Fact, Callable[[dict[str, int]], bool], list[Tree], list[int]]


@st.composite
def stated_facts(draw: st.DrawFn) -> Stated:
    kind = draw(st.sampled_from(["range", "divisible", "relation"]))
    if kind == "range":
        name = draw(st.sampled_from("abcde"))
        lo = draw(st.one_of(st.none(), st.integers(-2, 4)))
        hi = draw(st.one_of(st.none(), st.integers(max(lo or 0, 0), 6)))
        edges = [v + dv for v in (lo, hi) if v is not None for dv in (-1, 0, 1)]
        return (
            Range(name, lo, hi),
            lambda env: (lo is None or env[name] >= lo) and (hi is None or env[name] <= hi),
            [("sym", name)],
            edges,
        )
    if kind == "divisible":
        tree = draw(small_polys)
        k = draw(st.integers(2, 4))
        return Divisible(build(tree), k), lambda env: naive(tree, env) % k == 0, [tree], [0, k]
    lhs = draw(st.one_of(symbol_leaves, small_polys))  # a symbol against a constant is the common case
    rhs = draw(st.one_of(st.integers(-1, 7).map(lambda v: ("int", v)), small_polys))
    if draw(st.booleans()):
        lhs, rhs = rhs, lhs
    op = draw(st.sampled_from(sorted(_CMP)))
    return (
        Relation(build(lhs), op, build(rhs)),
        lambda env: _CMP[op](naive(lhs, env), naive(rhs, env)),
        [("sub", lhs, rhs), lhs, rhs],
        [-1, 0, 1],
    )


def _check_claims(g: ConstraintGraph, q: Tree, k: int, env: dict[str, int]) -> None:
    """Every claim the graph proves about ``q`` holds at ``env`` (an assignment the fact admits)."""
    f = g.facts
    value = naive(q, env)
    canon = g.canon(build(q))
    assert evaluate(canon, env) == value, (str(canon), env)
    if f.prove_ge(canon, k):
        assert value >= k, (str(canon), k, env)
    if f.prove_le(canon, k):
        assert value <= k, (str(canon), k, env)
    if f.prove_nonzero(canon):
        assert value != 0, (str(canon), env)
    decided = f.prove_eq(canon, k)
    if decided is not None:
        assert decided == (value == k), (str(canon), k, env)
    for m in (2, 3, 4):
        if f.divides(m, canon):
            assert value % m == 0, (str(canon), m, env)


def _assert_sound(stated: Stated, queries: list[Tree], k: int) -> None:
    """Apply the fact; every kept predicate and every proven claim holds wherever the fact does,
    and a contradiction is raised only when no assignment in the box satisfies the fact."""
    fact, holds, probes, edges = stated
    admitted = [env for env in ENVS if holds(env)]
    g = _graph()
    try:
        apply(g, fact)
    except ContradictionError:  # claims no assignment (with a, b, c >= 0 and d, e >= 1) satisfies it
        assert not admitted, (str(fact), admitted[:3])
        return
    for env in admitted:  # what the graph keeps (and writes out) holds at every admitted assignment
        for p in g.predicates:
            lhs, rhs = evaluate(p.lhs, env), evaluate(p.rhs, env)
            assert lhs % rhs == 0 if p.rel == "divisible" else _CMP[p.rel](lhs, rhs), (str(fact), p, env)
    for env in admitted[:: max(1, len(admitted) // 60)]:
        for q in queries:
            _check_claims(g, q, k, env)
        for q in probes:
            for edge in edges:
                _check_claims(g, q, edge, env)


@settings(max_examples=150, deadline=None)
@given(stated_facts(), st.lists(trees, min_size=1, max_size=3), st.integers(-3, 8))
def test_proofs_under_an_applied_fact_agree_with_integer_evaluation(stated: Stated, queries: list[Tree], k: int):
    _assert_sound(stated, queries, k)


_FORMS: list[tuple[Tree, Tree]] = [  # a symbol and a constant (both ways), a symbol left over, compound sides
    (("sym", "a"), ("int", 3)),
    (("int", 3), ("sym", "d")),
    (("add", ("sym", "a"), ("sym", "b")), ("sym", "b")),
    (("add", ("sym", "a"), ("sym", "b")), ("add", ("sym", "c"), ("int", 1))),
    (("mul", ("sym", "a"), ("sym", "d")), ("int", 4)),
]


@pytest.mark.parametrize("op", sorted(_CMP))
@pytest.mark.parametrize("form", _FORMS, ids=lambda f: f"{f[0][0]}-{f[1][0]}")
def test_each_relation_form_is_sound_at_its_edge(op: str, form: tuple[Tree, Tree]):
    lhs, rhs = form
    stated: Stated = (
        Relation(build(lhs), op, build(rhs)),
        lambda env: _CMP[op](naive(lhs, env), naive(rhs, env)),
        [("sub", lhs, rhs), lhs, rhs],
        [-1, 0, 1, 3, 4],
    )
    _assert_sound(stated, [], 0)


@settings(max_examples=100, deadline=None)
@given(stated_facts())
def test_an_applied_fact_is_used(stated: Stated):
    """Not vacuous: a symbol's range, a symbol's divisor and a solved equation are proven after."""
    fact = stated[0]
    g = _graph()
    try:
        apply(g, fact)
    except ContradictionError:
        return
    f = g.facts
    if isinstance(fact, Range):
        s = g.canon(sym(fact.symbol))
        assert fact.lo is None or f.prove_ge(s, fact.lo)
        assert fact.hi is None or f.prove_le(s, fact.hi)
    elif isinstance(fact, Divisible) and as_symbol(fact.expr) is not None:
        assert f.divides(fact.k, g.canon(fact.expr))
    elif isinstance(fact, Relation) and fact.op == "==" and not g.residuals:
        assert f.prove_eq(g.canon(fact.lhs), g.canon(fact.rhs)) is True


def test_an_unsupported_relation_says_which_ones_are():
    with pytest.raises(
        UserFactError,
        match="user fact 'a != 3': the relation '!=' cannot be recorded as a fact, expected one of ==, <=, <, >= or >",
    ):
        apply(_graph(), Relation(a, "!=", 3))


def test_a_fact_naming_an_unknown_symbol_lists_the_known_ones():
    with pytest.raises(UserFactError, match="user fact 'z=1..': names 'z', which is not a symbol of this program, "
                                            "expected one of the known input symbols: a, b, c, d, e"):
        apply(_graph(), Range("z", 1))


def test_a_divisible_fact_on_a_scaled_symbol_teaches_the_symbol():
    g = _graph()
    apply(g, Divisible(2 * a, 4))  # 4 | 2a, so 2 | a
    assert g.facts.get("a").divisor == 2


# ------------------------------------------------------------------ every kind reaches the JSON output

N = helper.make_node


# kind -> (the fact as a value, as command-line arguments, what it must change in the JSON document)
JSON_ROWS: dict[type[Any], tuple[Fact, list[str], Callable[[dict[str, Any]], bool]]] = {
    Range: (Range("seq", 2, 4096), ["--dim", "seq=2..4096"], lambda doc: doc["symbols"]["seq"]["range"] == [2, 4096]),
    Divisible: (
        Divisible(sym("seq"), 8),
        ["--assume", "seq % 8 == 0"],
        lambda doc: doc["symbols"]["seq"]["divisor"] == 8,
    ),
    Likely: (
        Likely("seq", (128, 512)),
        ["--likely", "seq=128,512"],
        lambda doc: doc["symbols"]["seq"]["likely"] == [128, 512],
    ),
    Relation: (
        Relation(sym("n"), "==", sym("batch") * sym("seq")),
        ["--assume", "n == batch*seq"],
        lambda doc: doc["values"]["out"]["dims"] == ["batch*seq", 8] and doc["guards"] == [],
    ),
}


def test_every_fact_kind_has_a_json_row():
    assert ASSUME_KINDS == set(JSON_ROWS)


@pytest.mark.parametrize("kind", list(JSON_ROWS), ids=lambda k: k.__name__)
def test_each_fact_value_reaches_the_json_output(small_model: Path, kind: type[Any]):
    fact, _, changed = JSON_ROWS[kind]
    before = document(analyze_onnx(small_model))
    after = document(analyze_onnx(small_model, facts=[fact]))
    assert not changed(before) and changed(after)


@pytest.mark.parametrize("kind", list(JSON_ROWS), ids=lambda k: k.__name__)
def test_the_command_line_text_gives_the_same_document_as_the_value(small_model: Path, kind: type[Any]):
    fact, args, changed = JSON_ROWS[kind]
    proc = subprocess.run([sys.executable, "-m", "symshape", "analyze", str(small_model), "--json", "-", *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert changed(doc)
    assert doc == document(analyze_onnx(small_model, facts=[fact]))


def test_facts_combine_in_the_json_output(small_model: Path):
    doc = document(analyze_onnx(small_model, facts=[row[0] for row in JSON_ROWS.values()]))
    assert doc["symbols"]["seq"] == {**doc["symbols"]["seq"], "range": [8, 4096], "divisor": 8, "likely": [128, 512]}
    assert doc["values"]["out"]["dims"] == ["batch*seq", 8]


def test_facts_simplify_a_broadcast(small_model: Path):
    """``Max(batch*seq, n)*Min(1, batch*seq, n)`` reads ``Max(batch*seq, n)`` once facts prove both >= 1."""
    assert str(analyze_onnx(small_model).shape("out")[0]) == "Max(batch*seq, n)*Min(1, batch*seq, n)"
    proven = analyze_onnx(small_model, facts=[Range("batch", 1), Range("seq", 1), Relation(sym("n"), ">", 0)])
    assert str(proven.shape("out")[0]) == "Max(batch*seq, n)"
    assert proven.guards() == []


# ------------------------------------------------------------------ MLIR: values through the frontend and passes

TWO_FUNCTIONS = """
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @g(%y: tensor<?xf32>) -> tensor<?xf32> {
  return %y : tensor<?xf32>
}
"""


def test_mlir_facts_go_to_the_functions_that_name_their_symbols():
    _, module = parse_text(TWO_FUNCTIONS)
    views = module_to_programs(module)
    fx, gy = Range("x_d0", 1, 8), Divisible(sym("y_d0"), 4)
    assert facts_for(views, [fx, gy]) == [[fx], [gy]]
    with pytest.raises(UserFactError,
                       match="user fact 'z_d0=1..': it names a symbol no function of the module declares"):
        facts_for(views, [Range("z_d0", 1)])


def test_mlir_analysis_takes_values_and_text_alike():
    text = (TESTS / "mlir_inputs" / "seed001_concat.mlir").read_text()
    with_value = analyze_mlir_text(text, facts=[Relation(sym("a_d0") + sym("b_d0"), "==", 1024)])
    with_text = analyze_mlir_text(text, facts=["a_d0 + b_d0 == 1024"])
    assert with_value.shape("@concat:%c") == with_text.shape("@concat:%c") == (1024, 100)


def test_shape_optimization_saves_each_kind_given_as_values():
    ctx, module = parse_text((TESTS / "mlir_inputs" / "seed001_concat.mlir").read_text())
    x = sym("a_d0")
    run_passes(ctx, module, ["shape-optimization"], [Range("a_d0", 8, 1000), Divisible(x, 8), Likely("a_d0", (512,)),
                                                    Relation(x + sym("b_d0"), "==", 1024)])
    out = print_module(module)
    assert "tensor<1024x100xf32" in out  # the relation made the concatenation static
    symbol = next(line for line in out.splitlines() if "symshape.symbolic_dim" in line and "likely" in line)
    for attr in ("lo = 8 : i64", "hi = 1000 : i64", "divisor = 8 : i64", "likely = array<i64: 512>"):
        assert attr in symbol, symbol


def test_jax_dimension_variables_arrive_as_relation_values():
    from symshape.frontends.mlir.jax_export import jax_arg_dims

    text = (TESTS / "mlir_inputs" / "jax_concat_2b.mlir").read_text()
    _, module = parse_text(text)
    main = next(v for v in module_to_programs(module) if v.name == "main")
    _, implied = jax_arg_dims(main.func)
    assert implied == [Relation(sym("b"), ">=", 1), Relation(sym("s"), ">=", 1)]
    assert main.facts == implied
