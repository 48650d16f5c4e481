"""The ``--assume`` grammar (`symshape.engine.userfacts`) against brute force, and its round trip.

* a random fact, in any of its spellings, leaves the graph admitting exactly the assignments of
  the box where Python's own evaluation of the fact's text says it holds (or raises a
  contradiction exactly when none does);
* a graph's whole state (ranges, divisors, bindings, residuals, predicates), written back as
  ``--assume`` text and applied to a fresh graph, admits the same assignments;
* any text gives a `SymshapeError` or nothing, never another exception.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symshape.algebra.expr import floordiv, sym
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.userfacts import apply_fact
from symshape.errors import ContradictionError, ExpressionSyntaxError, SymshapeError, UserFactError
from tests.prop_strategies import PROP, Env, python_value
from tests.prop_systems import KINDS, System, apply, boxes, graph_state_holds, origin_of, systems

FACTS = settings(PROP, max_examples=120)
NAMES = list(KINDS)
Fact = tuple[str, str]  # (text, what it means as a Python expression over the symbols)


# ------------------------------------------------------------------ facts and their meaning
@st.composite
def sides(draw: st.DrawFn) -> str:
    terms = st.sampled_from([*NAMES, "2*a", "a*b", "b*c", "Mod(a, 3)", "floor(b/2)", "3", "7", "12"])
    parts = draw(st.lists(terms, min_size=1, max_size=3))
    signs = [draw(st.sampled_from([" + ", " - "])) for _ in parts[1:]]
    return parts[0] + "".join(s + p for s, p in zip(signs, parts[1:], strict=True))


@st.composite
def facts(draw: st.DrawFn) -> Fact:
    """A fact's text in one of its spellings, and a Python expression that is true where it holds."""
    name = draw(st.sampled_from(NAMES))
    form = draw(st.sampled_from(["range", "relation", "relation", "constant", "divisible"]))
    if form == "range":
        lo, hi = draw(st.one_of(st.none(), st.integers(-2, 5))), draw(st.one_of(st.none(), st.integers(0, 7)))
        space = draw(st.sampled_from(["", " "]))
        text = f"{name}{space}={space}{'' if lo is None else lo}..{'' if hi is None else hi}"
        meaning = " and ".join([f"{lo} <= {name}"] * (lo is not None) + [f"{name} <= {hi}"] * (hi is not None))
        return text, meaning or "True"
    if form == "divisible":
        side, k = draw(sides()), draw(st.integers(2, 4))
        text = draw(st.sampled_from([f"Mod({side}, {k}) == 0", f"({side}) % {k} == 0"]))
        return text, f"Mod({side}, {k}) == 0"
    rel = draw(st.sampled_from(["==", "=", "<=", ">=", "<", ">"]))
    lhs = name if form == "constant" else draw(sides())
    rhs = str(draw(st.integers(-1, 9))) if form == "constant" else draw(sides())
    if draw(st.booleans()):
        lhs, rhs, rel = rhs, lhs, {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}.get(rel, rel)
    return f"{lhs} {rel} {rhs}", f"{lhs} {'==' if rel == '=' else rel} {rhs}"


def meaning_holds(meaning: str, env: Env) -> bool:
    """The oracle: Python evaluates the relation (``a < b`` as ``(a) - (b) < 0``, exactly)."""
    if meaning == "True":
        return True
    for clause in meaning.split(" and "):
        for rel in ("==", "<=", ">=", "<", ">"):
            if f" {rel} " in clause:
                lhs, rhs = clause.split(f" {rel} ")
                diff = python_value(f"({lhs}) - ({rhs})", env)
                assert diff is not None, clause
                ok = {"==": diff == 0, "<=": diff <= 0, ">=": diff >= 0, "<": diff < 0, ">": diff > 0}[rel]
                if not ok:
                    return False
                break
    return True


@given(boxes(), st.lists(facts(), min_size=1, max_size=3))
@FACTS
def test_facts_admit_exactly_the_assignments_where_they_hold(box: tuple[tuple[str, int, int], ...],
                                                             given_facts: list[Fact]) -> None:
    system = System(box, ())
    g = system.graph()
    envs = system.envs()
    for i, (text, _) in enumerate(given_facts):
        meanings = [m for _, m in given_facts[: i + 1]]
        try:
            apply_fact(g, text)
        except ContradictionError:
            assert not any(all(meaning_holds(m, env) for m in meanings) for env in envs), (given_facts[: i + 1], box)
            return
        except UserFactError as err:
            assert "is empty" in str(err) and ".." in text, (text, str(err))  # only LO > HI is refused
            lo, hi = text.split("=")[1].split("..")
            assert int(lo) > int(hi), text
            return
        for env in envs:
            expected = all(meaning_holds(m, env) for m in meanings)
            assert graph_state_holds(g, env) == expected, (given_facts[: i + 1], box, env, expected)


@given(st.sampled_from(NAMES), st.lists(st.lists(st.integers(0, 600), min_size=1, max_size=3), min_size=1,
                                        max_size=3))
@PROP
def test_likely_values_accumulate_and_change_nothing_else(name: str, batches: list[list[int]]) -> None:
    g = System((("a", 0, 9), ("b", 1, 9), ("c", 0, 4), ("t", 2, 3)), ()).graph()
    before = {n: (g.facts.get(n).lo, g.facts.get(n).hi, g.facts.get(n).divisor) for n in NAMES}
    for values in batches:
        apply_fact(g, f"{name}~={','.join(map(str, values))}")
    assert g.facts.get(name).likely == tuple(sorted({v for vs in batches for v in vs}))
    assert {n: (g.facts.get(n).lo, g.facts.get(n).hi, g.facts.get(n).divisor) for n in NAMES} == before
    assert not g.predicates and not g.residuals


# ------------------------------------------------------------------ the state, written back
def state_as_facts(g: ConstraintGraph) -> list[str]:
    """Everything ``g`` keeps, as ``--assume`` text."""
    out: list[str] = []
    for name in g.symbols:
        f = g.facts.get(name)
        out.append(f"{name}={'' if f.lo is None else f.lo}..{'' if f.hi is None else f.hi}")
        if f.divisor > 1:
            out.append(f"{name} % {f.divisor} == 0")
        bound = g.binding(name)
        if bound is not None:
            out.append(f"{name} == {bound[0]}")
    out.extend(f"{r.expr} == 0" for r in g.residuals)
    for p in g.predicates:
        out.append(f"Mod({p.lhs}, {p.rhs}) == 0" if p.rel == "divisible" else f"{p.lhs} {p.rel} {p.rhs}")
    return out


@given(systems(planted=True))
@FACTS
def test_a_graph_written_as_user_facts_reads_back_to_the_same_solutions(case: tuple[System, Env | None]) -> None:
    system, _ = case
    g = system.graph()
    for i, item in enumerate(system.items):
        apply(g, item, origin_of(i))
    written = state_as_facts(g)
    back = system.graph()
    for text in written:
        apply_fact(back, text)
    for env in system.envs():
        assert graph_state_holds(back, env) == graph_state_holds(g, env), (written, env)


# ------------------------------------------------------------------ errors
FACT_TOKENS = ["a", "b", "seq", "1", "12", "-3", "==", "=", "<=", ">=", "<", ">", "!=", "~=", "..", "%", "Mod(",
               ")", "(", ",", "+", "*", "/", " ", "x", "floor(", "..4", "1..", "é", "$"]


@given(st.lists(st.sampled_from(FACT_TOKENS), max_size=10).map("".join))
@PROP
def test_any_text_is_applied_or_refused_with_a_symshape_error(text: str) -> None:
    g = System((("a", 0, 9), ("b", 1, 9), ("c", 0, 4), ("t", 2, 3)), ()).graph()
    try:
        apply_fact(g, text)
    except (UserFactError, ExpressionSyntaxError, ContradictionError) as err:
        assert str(err).count("\n") == text.count("\n"), str(err)  # one line (unless the text had more)
        assert "(run `symshape explain " in str(err)
        assert isinstance(err, SymshapeError)


def test_a_divisibility_that_empties_a_range_is_a_contradiction_not_a_crash() -> None:
    g = ConstraintGraph()
    for name in ("a", "c"):
        g.add_symbol(name, "input", Origin("input", "x", name))
    try:
        apply_fact(g, "c=1..2")
        apply_fact(g, "c % 3 == 0")
        g.eq(sym("a"), floordiv(2 * sym("a"), sym("c")), Origin("Op", "o"))
    except ContradictionError:
        return
    pytest.fail("accepted facts no value of c satisfies")
