"""stablehlo ``case``/``if``/``while``: facts of a region that may not run stay out of the
program's facts; a branch a constant selects is the program. Hand-written modules check the
facts; lax control flow exported by jax is checked against ``jax.eval_shape`` at several sizes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from symshape.algebra.expr import evaluate
from symshape.algebra.parse import parse_dim
from symshape.errors import ContradictionError
from symshape.frontends.mlir.frontend import analyze_mlir_text

VEC = "tensor<?xf32>"
ADD_BRANCH = f"%s = stablehlo.add %x, %y : {VEC}\n    stablehlo.return %s : {VEC}"


def module(args: str, body: str) -> str:
    return f"func.func @f({args}) {{\n{body}\n  return\n}}"


def case_text(selector: str, branches: list[str], op: str = "stablehlo.case", sel_type: str = "tensor<i32>") -> str:
    """``%r = op(%p)`` with ``branches`` as regions, after the ``selector`` that defines ``%p``."""
    regions = ", ".join("{\n    " + b + "\n  }" for b in branches)
    return f"{selector}\n  %r = \"{op}\"(%p) ({regions}) : ({sel_type}) -> {VEC}"


def xy_case(selector: str, branches: list[str], **kw: str):
    args = f"%x: {VEC}, %y: {VEC}" + ("" if selector else ", %p: tensor<i32>")
    return analyze_mlir_text(module(args, case_text(selector, branches, **kw)))


def x_is_y(result) -> bool | None:
    return result.same_dim(("@f:%x", 0), ("@f:%y", 0))


# ------------------------------------------------------------------------- case and if
def test_untaken_case_branch_does_not_equate_its_operands() -> None:
    r = xy_case("", [f"stablehlo.return %x : {VEC}", ADD_BRANCH])
    assert x_is_y(r) is None
    assert [str(d) for d in r.shape("@f:%y")] == ["y_d0"]
    assert r.guards() == []
    # both branches give x's dim whenever they run: branch 1 only runs when x and y agree
    assert r.same_dim(("@f:%r", 0), ("@f:%x", 0)) is True


def test_branches_that_disagree_give_a_fresh_symbol() -> None:
    r = xy_case("", [f"stablehlo.return %x : {VEC}", f"stablehlo.return %y : {VEC}"])
    assert r.same_dim(("@f:%r", 0), ("@f:%x", 0)) is None
    assert r.same_dim(("@f:%r", 0), ("@f:%y", 0)) is None
    assert x_is_y(r) is None


@pytest.mark.parametrize(("index", "taken"), [(0, 0), (1, 1), (2, 2), (7, 2), (-1, 2)])
def test_constant_index_runs_its_branch_on_the_program(index: int, taken: int) -> None:
    """Out-of-range indices run the last branch (StableHLO spec, ``case``)."""
    branches = [f"stablehlo.return %x : {VEC}"] * 3
    branches[taken] = ADD_BRANCH
    r = xy_case(f"%p = stablehlo.constant dense<{index}> : tensor<i32>", branches)
    assert x_is_y(r) is True
    assert r.same_dim(("@f:%r", 0), ("@f:%y", 0)) is True


@pytest.mark.parametrize(("pred", "want"), [("true", True), ("false", None)])
def test_constant_predicate_selects_the_if_branch(pred: str, want: bool | None) -> None:
    r = xy_case(f"%p = stablehlo.constant dense<{pred}> : tensor<i1>", [ADD_BRANCH, f"stablehlo.return %x : {VEC}"],
                op="stablehlo.if", sel_type="tensor<i1>")
    assert x_is_y(r) is want


def test_unknown_if_predicate_keeps_branch_facts_local() -> None:
    text = module(f"%x: {VEC}, %y: {VEC}, %p: tensor<i1>",
                  case_text("", [ADD_BRANCH, f"stablehlo.return %x : {VEC}"], op="stablehlo.if", sel_type="tensor<i1>"))
    assert x_is_y(analyze_mlir_text(text)) is None


def test_a_branch_that_cannot_run_is_never_taken() -> None:
    """With x of size 2 and y of size 3 the adding branch is dead, so the other always runs."""
    text = module("%x: tensor<2xf32>, %y: tensor<3xf32>, %z: tensor<?xf32>, %p: tensor<i32>",
                  '%r = "stablehlo.case"(%p) ({\n'
                  "    %s = \"stablehlo.add\"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
                  "    stablehlo.return %s : tensor<2xf32>\n"
                  "  }, {\n    %t = \"stablehlo.add\"(%z, %x) : (tensor<?xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
                  "    stablehlo.return %t : tensor<2xf32>\n"
                  "  }) : (tensor<i32>) -> tensor<2xf32>")
    r = analyze_mlir_text(text)
    assert [evaluate(d, {}) for d in r.shape("@f:%z")] == [2]


def test_case_with_no_live_branch_is_a_contradiction() -> None:
    text = module("%x: tensor<2xf32>, %y: tensor<3xf32>, %p: tensor<i32>",
                  '%r = "stablehlo.case"(%p) ({\n'
                  "    %s = \"stablehlo.add\"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
                  "    stablehlo.return %s : tensor<2xf32>\n"
                  "  }) : (tensor<i32>) -> tensor<2xf32>")
    with pytest.raises(ContradictionError, match="no branch can run"):
        analyze_mlir_text(text)


def _slice_branch(start: str, limit: str, src: str = "%x") -> str:
    """``src[dim(start):dim(limit)]`` through real_dynamic_slice (a guard ``limit >= start``)."""
    return (
        f"%c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        f"    %lo = tensor.dim {start}, %c0 : {VEC}\n    %hi = tensor.dim {limit}, %c0 : {VEC}\n"
        "    %b = tensor.from_elements %lo : tensor<1xindex>\n    %e = tensor.from_elements %hi : tensor<1xindex>\n"
        "    %st = tensor.from_elements %c1 : tensor<1xindex>\n"
        f'    %s = "stablehlo.real_dynamic_slice"({src}, %b, %e, %st) : ({VEC}, tensor<1xindex>, tensor<1xindex>, '
        f"tensor<1xindex>) -> {VEC}\n    stablehlo.return %s : {VEC}"
    )


def test_branch_guards_are_listed_when_its_result_is_kept() -> None:
    """Both branches give ``y - z`` (a slice each), so the result rests on their guards."""
    text = module(f"%x: {VEC}, %y: {VEC}, %z: {VEC}, %p: tensor<i32>",
                  case_text("", [_slice_branch("%z", "%y"), _slice_branch("%z", "%y")]))
    r = analyze_mlir_text(text)
    assert [str(d) for d in r.shape("@f:%r")] == ["y_d0 - z_d0"]
    assert [g[0] for g in r.guards()] == ["y_d0 >= z_d0"]


def test_branch_guards_are_not_adopted_when_nothing_rests_on_them() -> None:
    text = module(f"%x: {VEC}, %y: {VEC}, %z: {VEC}, %p: tensor<i32>",
                  case_text("", [_slice_branch("%z", "%y"), f"stablehlo.return %x : {VEC}"]))
    r = analyze_mlir_text(text)
    assert r.guards() == []
    assert r.same_dim(("@f:%r", 0), ("@f:%x", 0)) is None


# ------------------------------------------------------------------------------- while
def while_text(body: str, carried_type: str = VEC) -> str:
    return (
        f"%r:2 = stablehlo.while(%i = %n, %a = %x) : tensor<i32>, {carried_type}\n"
        " cond {\n  %c = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "  stablehlo.return %c : tensor<i1>\n } do {\n"
        f"  {body}\n }}"
    )


def test_while_body_facts_stay_in_the_body() -> None:
    """The loop never runs (i < i is false), so x and y may differ."""
    body = f"%t = stablehlo.add %a, %y : {VEC}\n  stablehlo.return %i, %t : tensor<i32>, {VEC}"
    r = analyze_mlir_text(module(f"%x: {VEC}, %y: {VEC}, %n: tensor<i32>", while_text(body)))
    assert x_is_y(r) is None
    assert [str(d) for d in r.shape("@f:%y")] == ["y_d0"]
    assert r.same_dim(("@f:%r#1", 0), ("@f:%x", 0)) is True  # by induction, whether or not it runs
    assert r.guards() == []


def test_while_keeps_the_counter_only_when_the_body_keeps_it() -> None:
    body = (f"%one = stablehlo.constant dense<1> : tensor<i32>\n  %j = stablehlo.add %i, %one : tensor<i32>\n"
            f"  stablehlo.return %j, %a : tensor<i32>, {VEC}")
    text = module(f"%x: {VEC}", "%n = stablehlo.constant dense<0> : tensor<i32>\n  " + while_text(body))
    r = analyze_mlir_text(text)
    assert r.elements("@f:%r#0") is None
    assert r.same_dim(("@f:%r#1", 0), ("@f:%x", 0)) is True
    same = module(f"%x: {VEC}", "%n = stablehlo.constant dense<0> : tensor<i32>\n  " + while_text(
        f"stablehlo.return %i, %a : tensor<i32>, {VEC}"))
    assert analyze_mlir_text(same).elements("@f:%r#0") == (0,)


def test_while_guard_on_a_carried_symbol_falls_back() -> None:
    """The carried dim doubles (a fresh symbol); the body's slice guard names that symbol, so no
    result may rest on the body: all fall back to declared types."""
    body = (f"%d = stablehlo.concatenate %a, %a, dim = 0 : ({VEC}, {VEC}) -> {VEC}\n  "
            + _slice_branch("%y", "%d", src="%d").replace("stablehlo.return %s : " + VEC,
                                                          f"stablehlo.return %i, %d : tensor<i32>, {VEC}"))
    r = analyze_mlir_text(module(f"%x: {VEC}, %y: {VEC}, %n: tensor<i32>", while_text(body)))
    assert r.same_dim(("@f:%r#1", 0), ("@f:%x", 0)) is None
    assert r.guards() == []
    assert any("assumption about its own symbols" in w.message for w in r.warnings)
    assert x_is_y(r) is None


# --------------------------------------------------------------------- jax as the oracle
def _switch(x: Any) -> Any:
    import jax.numpy as jnp
    from jax import lax
    return lax.switch(jnp.asarray(x.shape[0]) % 3, [
        lambda a: a[1:] * 2,
        lambda a: a[:-1],
        lambda a: jnp.concatenate([a[1:], a[:1]])[1:] + 1.0,
    ], x)


def _rotate_or_double(x: Any) -> Any:
    """A cond nested in a loop body: the inner branches run on a scratch copy of a scratch graph."""
    import jax.numpy as jnp
    from jax import lax

    def body(i: Any, a: Any) -> Any:
        return lax.cond(i % 2 == 0, lambda b: jnp.concatenate([b[1:], b[:1]]), lambda b: b * 2.0, a)

    return lax.fori_loop(0, x.shape[0], body, x)


def _jax_cases() -> dict[str, tuple[Callable[..., Any], tuple[str, ...]]]:
    import jax
    jnp, lax = jax.numpy, jax.lax
    return {
        "cond": (lambda x: lax.cond(x.sum() > 0, lambda a: a[1:] * 2, lambda a: a[:-1], x), ("n",)),
        "cond two operands": (lambda x, y: lax.cond(y.sum() > 0, lambda a, b: a @ b, lambda a, b: a @ (b * 2), x, y),
                              ("n, k", "k, 3")),
        "switch": (_switch, ("n",)),
        "while rotate": (lambda x: lax.while_loop(
            lambda c: c[0] < 5, lambda c: (c[0] + 1, jnp.concatenate([c[1][1:], c[1][:1]])), (0, x))[1], ("n, 2",)),
        "fori symbolic trips": (lambda x: lax.fori_loop(0, x.shape[0], lambda i, a: a * 2.0 + 1.0, x[::2]), ("n",)),
        "fori matmul": (lambda x, w: lax.fori_loop(0, 3, lambda i, a: jnp.tanh(a @ w), x), ("n, k", "k, k")),
        "cond in fori": (_rotate_or_double, ("n, 2",)),
    }


@pytest.mark.needs_jax
@pytest.mark.parametrize("name", ["cond", "cond two operands", "switch", "while rotate", "fori symbolic trips",
                                  "fori matmul", "cond in fori"])
def test_lax_control_flow_matches_jax(name: str) -> None:
    import jax
    import numpy as np
    from jax import export

    fn, specs = _jax_cases()[name]
    scope = export.SymbolicScope()
    shapes = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope), np.float32) for s in specs]
    result = analyze_mlir_text(export.export(jax.jit(fn))(*shapes).mlir_module())
    (out,) = [o for o in result.program.outputs if o.startswith("@main:")]
    assert result.guards() == []
    for env in ({"n": 1, "k": 1}, {"n": 2, "k": 5}, {"n": 7, "k": 3}):
        args = [np.ones(tuple(evaluate(parse_dim(d), env) for d in s.split(",")), np.float32) for s in specs]
        want = jax.eval_shape(fn, *args).shape
        assert tuple(evaluate(d, env) for d in result.shape(out)) == want, (name, env, result.shape(out))


@pytest.mark.needs_jax
def test_a_function_inlined_into_a_while_body_is_not_a_separate_root() -> None:
    """jnp.flip in a while body is a private callee inlined there: no second, argument-less analysis."""
    import jax
    import jax.numpy as jnp
    from jax import export, lax

    def fn(y):  # noqa: ANN001, ANN202
        return lax.while_loop(lambda c: c.sum() < 10, lambda c: jnp.flip(c, 0), y)

    spec = jax.ShapeDtypeStruct(export.symbolic_shape("m, 3"), "float32")
    result = analyze_mlir_text(export.export(jax.jit(fn))(spec).mlir_module())
    out = next(o for o in result.program.outputs if o.startswith("@main:"))
    assert [str(d) for d in result.shape(out)] == ["m", "3"]
    assert result.warnings == []
