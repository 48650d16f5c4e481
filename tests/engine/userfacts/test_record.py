"""User facts (--assume / facts=): each form, its effect on the graph, and its errors."""

from __future__ import annotations

import pytest

from symshape.algebra.expr import sym
from symshape.engine.constraints import ConstraintGraph, Origin
from symshape.engine.userfacts import apply_fact
from symshape.errors import ContradictionError, ExpressionSyntaxError, UserFactError


@pytest.fixture
def graph() -> ConstraintGraph:
    g = ConstraintGraph()
    for name in ("batch", "seq", "past", "total", "h"):
        g.add_symbol(name, "input", Origin("input", name))
    return g


def test_ranges_likely_values_and_divisibility(graph: ConstraintGraph):
    apply_fact(graph, "seq=1..4096")
    apply_fact(graph, "batch >= 2")
    apply_fact(graph, "64 > past")
    apply_fact(graph, "h % 8 == 0")
    apply_fact(graph, "seq~=128,512")
    assert (graph.facts.get("seq").lo, graph.facts.get("seq").hi) == (1, 4096)
    assert graph.facts.get("seq").likely == (128, 512)
    assert graph.facts.get("batch").lo == 2
    assert graph.facts.get("past").hi == 63
    assert graph.facts.get("h").divisor == 8
    apply_fact(graph, "Mod(batch, 4) == 0")
    assert graph.facts.get("batch").lo == 4  # the range is tightened to a multiple of 4


def test_an_equation_defines_its_left_hand_symbol(graph: ConstraintGraph):
    apply_fact(graph, "total == past + seq")
    assert graph.canon(sym("total")) is sym("past") + sym("seq")
    assert graph.canon(sym("past")) is sym("past")


def test_a_contradicting_fact_names_itself(graph: ConstraintGraph):
    apply_fact(graph, "seq <= 16")
    with pytest.raises(ContradictionError, match=r"user fact 'seq == 32'"):
        apply_fact(graph, "seq == 32")


def test_errors_say_what_to_write(graph: ConstraintGraph):
    known = "known input symbols: batch, h, past, seq, total"
    unknown = "names 'sequence', which is not a symbol of this program"
    with pytest.raises(UserFactError, match=rf"{unknown}, expected one of the {known}"):
        apply_fact(graph, "sequence >= 1")
    with pytest.raises(UserFactError, match=r"it is not a relation, expected .*; write e.g. 'a \+ b == 1024'"):
        apply_fact(graph, "batch + 1")
    with pytest.raises(ExpressionSyntaxError):
        apply_fact(graph, "batch >= (1")
