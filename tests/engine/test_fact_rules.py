"""Every row of the fact-aware rule tables (``symshape.engine.fact_rules.ATOM_RULES`` / ``EXPR_RULES``) checked
against random integer evaluation, under assignments that satisfy the facts the rule relies on
(STYLE A11). Each row also has a trigger example, so a rule that silently stops firing fails."""

from __future__ import annotations

import inspect
import random
import re

import pytest
from hypothesis import given, settings

from symshape.algebra.core import atom_expr
from symshape.algebra.expr import Dim, Sym, atoms_deep, evaluate, floordiv, mod, smax, sym
from symshape.engine import fact_rules
from symshape.engine.facts import ATOM_RULES, EXPR_RULES, Facts
from tests._expr_trees import build, facts_and_envs, trees

a, b, d, e, n = sym("a"), sym("b"), sym("d"), sym("e"), sym("n")
Ranges = dict[str, tuple[int | None, int | None, int]]  # name -> (lo, hi, divisor)

# rule name -> (an atom it rewrites, the facts that make it apply)
TRIGGERS: dict[str, tuple[Dim, Ranges]] = {
    "_floordiv_exact": (floordiv(a * d + d * d, d), {"d": (1, None, 1)}),
    "_floordiv_split": (floordiv(a * d + b, d), {"d": (1, None, 1)}),
    "_floordiv_flip": (floordiv(-a + 2, d), {"d": (1, None, 1)}),
    "_floordiv_small": (floordiv(n, n + d), {"n": (0, None, 1), "d": (1, None, 1)}),
    "_floordiv_neg_small": (floordiv(a, d), {"a": (-3, -1, 1), "d": (3, None, 1)}),
    "_mod_divisible": (mod(n, 4), {"n": (None, None, 8)}),
    "_mod_exact": (mod(a * d, d), {"d": (1, None, 1)}),
    "_mod_split": (mod(a * d + b, d), {"d": (1, None, 1)}),
    "_mod_small": (mod(n, d), {"n": (0, 4, 1), "d": (5, None, 1)}),
    "_mod_neg_small": (mod(a, d), {"a": (-3, -1, 1), "d": (3, None, 1)}),
    "_minmax_dominated": (smax(n, n * d, 0), {"n": (0, None, 1), "d": (1, None, 1)}),
}
EXPR_TRIGGERS: dict[str, Dim] = {
    "contract_mod": n - 4 * floordiv(n, 4) + a,
}


def _facts(ranges: Ranges) -> Facts:
    f = Facts()
    for name, (lo, hi, div) in ranges.items():
        f.restrict(name, lo=lo, hi=hi, divisor=div)
    return f


def _envs(f: Facts, names: set[str], count: int = 60) -> list[dict[str, int]]:
    rng = random.Random(7)
    out: list[dict[str, int]] = []
    while len(out) < count:
        env = {}
        for name in sorted(names):
            sf = f.get(name)
            lo = sf.lo if sf.lo is not None else -15
            hi = sf.hi if sf.hi is not None else max(lo, 0) + 25
            env[name] = rng.randint(lo, hi) // sf.divisor * sf.divisor
        if all(f.get(k).admits(v) for k, v in env.items()):
            out.append(env)
    return out


def _atom(d: Dim):
    (atom,) = (m[0] for m, _ in d.terms)
    return atom


def test_every_rule_has_a_trigger():
    assert {r.__name__ for r in ATOM_RULES} == set(TRIGGERS)
    assert {r.__name__ for r in EXPR_RULES} == set(EXPR_TRIGGERS)


@pytest.mark.parametrize("rule", ATOM_RULES, ids=lambda r: r.__name__)
def test_atom_rule_fires_on_its_trigger_and_keeps_values(rule):
    trigger, ranges = TRIGGERS[rule.__name__]
    f = _facts(ranges)
    out = rule(f, _atom(trigger))
    assert out is not None, f"{rule.__name__} did not fire on {trigger}"
    assert out is not trigger
    for env in _envs(f, set(trigger.free) | {"a", "b", "n", "d"}):
        assert evaluate(out, env) == evaluate(trigger, env), (rule.__name__, str(trigger), str(out), env)


@pytest.mark.parametrize("rule", EXPR_RULES, ids=lambda r: r.__name__)
def test_expr_rule_fires_on_its_trigger_and_keeps_values(rule):
    d = EXPR_TRIGGERS[rule.__name__]
    out = rule(d)
    assert out is not d
    for env in _envs(Facts(), set(d.free)):
        assert evaluate(out, env) == evaluate(d, env)


@given(trees, facts_and_envs())
@settings(max_examples=300, deadline=None)
def test_every_rule_is_an_identity_on_random_atoms(tree, fe):
    f, envs = fe
    d = build(tree)
    for atom in (x for x in atoms_deep(d) if not isinstance(x, Sym)):
        original = atom_expr(atom)
        for rule in ATOM_RULES:
            out = rule(f, atom)
            if out is None:
                continue
            for env in envs:
                assert evaluate(out, env) == evaluate(original, env), (rule.__name__, str(atom), str(out), env)
    for rule in EXPR_RULES:
        out = rule(d)
        for env in envs:
            assert evaluate(out, env) == evaluate(d, env), (rule.__name__, str(d), str(out), env)


def test_each_table_row_states_its_identity():
    source = inspect.getsource(fact_rules)
    for rule in (*ATOM_RULES, *EXPR_RULES):
        row = re.search(rf"^\s+{rule.__name__},\s+# (.+)$", source, re.MULTILINE)
        assert row is not None, f"{rule.__name__} has no row with an identity comment"
        assert "->" in row.group(1), row.group(1)


def test_rules_leave_atoms_they_cannot_prove_alone():
    f = Facts()  # nothing known: d may be 0 or negative
    for name, (trigger, _) in TRIGGERS.items():
        rule = next(r for r in ATOM_RULES if r.__name__ == name)
        assert rule(f, _atom(trigger)) is None, name
