"""jax as the independent oracle for symshape's analysis of ``jax.export``'ed StableHLO.

A `Subject` is a Python function exported once with symbolic shapes (``"b, s"`` specs in one
`jax.export.SymbolicScope`); symshape analyzes the exported text. At a concrete size ``env``
(``{"b": 3, "s": 5}``) two oracles say what the shapes really are:

* ``jax.eval_shape`` of the Python function: the shapes of the function's results;
* StableHLO's own shape refinement (the pass jax runs before compiling a shape-polymorphic
  module), run on the exported module called with static argument types. Before refining, a
  probe (a side-effecting ``custom_call`` carrying the value's name) is placed after every op,
  so after refinement each probe's operand type is the concrete shape of that named value and,
  when refinement folded it to a constant, its elements.

A size is *accepted* when both oracles accept it (jax's shape assertions included). At an
accepted size every dim symshape reports must evaluate to the oracle's, and every guard,
kept predicate, residual equation and symbol fact symshape lists must hold. A size that breaks
one of them must therefore be rejected by jax.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import jax
import jax.numpy as jnp
import pytest
from jax import export

# jax's own MLIR bindings and its shape-refinement entry point: not public API, but the very
# code jax runs when it compiles a shape-polymorphic export, so the most direct oracle there is.
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir
from jax._src.lib.mlir.dialects import func as func_dialect
from jax._src.lib.mlir.dialects import hlo

from symshape.algebra.expr import Dim, evaluate
from symshape.engine.result import Analysis
from symshape.frontends.mlir.frontend import analyze_mlir_text

Spec = str | tuple[int, ...]
Env = Mapping[str, int]
PROBE = "symshape_oracle_probe"
WRAPPED = "_wrapped_jax_export_main"


@dataclass(frozen=True)
class Arg:
    """One array argument: a shape spec (``"b, s"`` or a static tuple) and a dtype."""

    spec: Spec
    dtype: Any = jnp.float32


def as_arg(x: Arg | Spec) -> Arg:
    return x if isinstance(x, Arg) else Arg(x)


def is_arg_leaf(x: object) -> bool:
    """An `Arg`, a spec string or a static shape (a tuple of ints) is one array."""
    return isinstance(x, (Arg, str)) or (isinstance(x, tuple) and all(isinstance(d, int) for d in x))


# The operators of jax's spec grammar beyond + - *, as plain integer functions.
SPEC_FUNCTIONS: dict[str, Callable[[int, int], int]] = {"floordiv": int.__floordiv__, "mod": int.__mod__,
                                                         "max": max, "min": min}


def eval_term(term: str, env: Env) -> int:
    """The value of one spec term (``2*b``, ``n - 1``, ``s + 3``, ``floordiv(b, 2)``) under
    ``env``: the specs are this test suite's own constants, plain Python integer arithmetic."""
    return int(eval(term, {"__builtins__": {}, **SPEC_FUNCTIONS}, dict(env)))  # noqa: S307


def spec_symbols(specs: Iterable[Spec]) -> list[str]:
    """The dimension variables the specs use, in order of first appearance."""
    names = (compile(f"({spec},)", "<spec>", "eval").co_names for spec in specs if isinstance(spec, str))
    return list(dict.fromkeys(n for group in names for n in group if n not in SPEC_FUNCTIONS))


def concrete_shape(spec: Spec, env: Env) -> tuple[int, ...]:
    if not isinstance(spec, str):
        return spec
    dims = eval(f"({spec},)" if spec.strip() else "()", {"__builtins__": {}, **SPEC_FUNCTIONS}, dict(env))  # noqa: S307
    return tuple(int(d) for d in dims)


class Rejected(Exception):
    """jax's shape refinement refused the sizes (a shape assertion or an invalid shape)."""


@dataclass
class Refined:
    """What StableHLO shape refinement says about every probed value at one size."""

    shapes: dict[str, set[tuple[int, ...]]] = field(default_factory=dict[str, set[tuple[int, ...]]])
    elements: dict[str, set[tuple[int, ...]]] = field(default_factory=dict[str, set[tuple[int, ...]]])
    top_level: set[str] = field(default_factory=set[str])

    def shape(self, name: str) -> tuple[int, ...] | None:
        """The one refined shape of ``name`` (None if absent or ambiguous across call sites)."""
        found = self.shapes.get(name, set())
        return next(iter(found)) if len(found) == 1 else None


def _probe(value: ir.Value, name: str) -> None:
    attributes = {"call_target_name": ir.StringAttr.get(PROBE), "backend_config": ir.StringAttr.get(name),
                  "has_side_effect": ir.BoolAttr.get(True)}
    ir.Operation.create("stablehlo.custom_call", results=[], operands=[value], attributes=attributes)


def insert_probes(module: ir.Module) -> set[str]:
    """A probe after every op with a ranked-tensor result; returns the names probed at the top
    level of the wrapped main function (the function body jax traced)."""
    top: set[str] = set()

    def visit(fn: str, block: ir.Block, depth: int) -> None:
        for op in list(block.operations):
            for inner in (b for region in op.regions for b in region.blocks):
                visit(fn, inner, depth + 1)
            for result in (r for r in op.results if isinstance(r.type, ir.RankedTensorType)):
                name = f"@{fn}:{result.get_name()}"
                if depth == 0 and fn == WRAPPED:
                    top.add(name)
                with ir.InsertionPoint.after(op):
                    _probe(result, name)

    for fn in module.body.operations:
        name = ir.StringAttr(fn.attributes["sym_name"]).value
        visit(name, fn.regions[0].blocks[0], 0)
    return top


def _call_with_static_args(module: ir.Module, shapes: Sequence[tuple[int, ...]]) -> None:
    """Rename ``@main`` and add a new ``@main`` with static argument types that converts its
    arguments to the exported types and calls it (what ``Exported.call`` emits)."""
    main = next(op for op in module.body.operations if ir.StringAttr(op.attributes["sym_name"]).value == "main")
    main.attributes["sym_name"] = ir.StringAttr.get("oracle_exported_main")
    main.attributes["sym_visibility"] = ir.StringAttr.get("private")
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    if len(ftype.inputs) != len(shapes):
        raise AssertionError(f"the exported main takes {len(ftype.inputs)} arguments, got {len(shapes)} shapes")
    static = [ir.RankedTensorType.get(list(shape), ir.RankedTensorType(t).element_type)
              for t, shape in zip(ftype.inputs, shapes, strict=True)]
    with ir.InsertionPoint.at_block_begin(module.body):
        wrapper = func_dialect.FuncOp("main", (static, list(ftype.results)))
        block = wrapper.add_entry_block()
        with ir.InsertionPoint(block):
            args = [hlo.convert(t, a) for t, a in zip(ftype.inputs, block.arguments, strict=True)]
            call = func_dialect.CallOp(list(ftype.results), ir.FlatSymbolRefAttr.get("oracle_exported_main"), args)
            func_dialect.ReturnOp(call.results)


def refine(text: str, shapes: Sequence[tuple[int, ...]]) -> Refined:
    """Every probed value's concrete shape (and folded elements) with arguments of ``shapes``."""
    with jax_mlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        top = insert_probes(module)
        _call_with_static_args(module, shapes)
        try:
            refined = jax_mlir.refine_polymorphic_shapes(module)
        except ValueError as error:
            raise Rejected(str(error).splitlines()[0]) from error
        out = Refined(top_level=top)
        for op in refined.body.operations[0].regions[0].blocks[0].operations:
            if op.name != "stablehlo.custom_call" or ir.StringAttr(op.attributes["call_target_name"]).value != PROBE:
                continue
            name, operand = ir.StringAttr(op.attributes["backend_config"]).value, op.operands[0]
            out.shapes.setdefault(name, set()).add(tuple(ir.RankedTensorType(operand.type).shape))
            owner = operand.owner.operation if isinstance(operand.owner, ir.OpView) else operand.owner
            etype = ir.RankedTensorType(operand.type).element_type
            if owner.name == "stablehlo.constant" and isinstance(etype, (ir.IntegerType, ir.IndexType)):
                values = ir.DenseIntElementsAttr(owner.attributes["value"])
                out.elements.setdefault(name, set()).add(tuple(int(values[i]) for i in range(len(values))))
        return out


@dataclass
class Subject:
    """A function exported once with symbolic shapes, with symshape's analysis of the export."""

    fn: Callable[..., Any]
    args: list[Any]  # the positional arguments, each a pytree of `Arg` (or specs)
    constraints: Sequence[str] = ()  # jax's symbolic constraints (``"s >= 3"``), checked at run time
    _refined: dict[tuple[tuple[str, int], ...], Refined | Rejected] = field(default_factory=dict, init=False)

    @cached_property
    def leaves(self) -> list[Arg]:
        leaves, _ = jax.tree_util.tree_flatten(self.args, is_leaf=is_arg_leaf)
        return [as_arg(x) for x in leaves]

    @cached_property
    def symbols(self) -> list[str]:
        return spec_symbols(a.spec for a in self.leaves)

    def _structs(self, shape_of: Callable[[Arg], Any]) -> list[Any]:
        return jax.tree_util.tree_map(lambda x: jax.ShapeDtypeStruct(shape_of(as_arg(x)), as_arg(x).dtype),
                                      list(self.args), is_leaf=is_arg_leaf)

    @cached_property
    def exported(self) -> export.Exported:
        scope = export.SymbolicScope(self.constraints)
        structs = self._structs(lambda a: export.symbolic_shape(a.spec, scope=scope) if isinstance(a.spec, str)
                                else a.spec)
        return export.export(jax.jit(self.fn))(*structs)

    @cached_property
    def text(self) -> str:
        return self.exported.mlir_module()

    @cached_property
    def analysis(self) -> Analysis:
        return analyze_mlir_text(self.text)

    def arg_shapes(self, env: Env) -> list[tuple[int, ...]]:
        return [concrete_shape(a.spec, env) for a in self.leaves]

    def expected_outputs(self, env: Env) -> list[tuple[int, ...]]:
        """``jax.eval_shape`` of the Python function at ``env`` (raises when jax rejects it)."""
        got = jax.eval_shape(self.fn, *self._structs(lambda a: concrete_shape(a.spec, env)))
        return [tuple(leaf.shape) for leaf in jax.tree_util.tree_leaves(got)]

    def refined(self, env: Env) -> Refined:
        """`refine` at ``env`` (memoized; raises `Rejected` when jax rejects the sizes)."""
        key = tuple(sorted(env.items()))
        if key not in self._refined:
            shapes = self.arg_shapes(env)
            try:
                self._refined[key] = refine(self.text, [shapes[i] for i in sorted(self.exported.module_kept_var_idx)])
            except Rejected as error:
                self._refined[key] = error
        found = self._refined[key]
        if isinstance(found, Rejected):
            raise found
        return found

    def accepts(self, env: Env) -> bool:
        """Whether jax runs the exported function at ``env`` (both oracles agree it is valid)."""
        if any(d < 0 for shape in self.arg_shapes(env) for d in shape):
            return False
        try:
            self.expected_outputs(env)
            self.refined(env)
        except (Rejected, TypeError, ValueError):
            return False
        return True

    @property
    def outputs(self) -> list[str]:
        return [o for o in self.analysis.program.outputs if o.startswith("@main:")]


def evaluated(dims: Sequence[Dim] | None, env: Env) -> tuple[int, ...] | None:
    """``dims`` evaluated at ``env`` (None if unknown or over a symbol ``env`` does not bind)."""
    try:
        return None if dims is None else tuple(evaluate(d, env) for d in dims)
    except KeyError:
        return None


def symshape_dims(analysis: Analysis, name: str, env: Env) -> tuple[int, ...] | None:
    """symshape's dims of ``name`` evaluated at ``env`` (None if unknown or over other symbols)."""
    return evaluated(analysis.shape_or_none(name), env)


@dataclass
class Report:
    """What one `check_at` compared: how many values, and which it could not."""

    compared: list[str] = field(default_factory=list[str])
    opaque: list[str] = field(default_factory=list[str])  # symshape has no shape over the env's symbols
    elements: int = 0


def check_outputs(subject: Subject, env: Env, *, complete: bool = True) -> None:
    """symshape's function results against ``jax.eval_shape`` of the Python function. With
    ``complete=False`` a result symshape cannot express over the inputs passes if it is listed
    as unresolved (soundness only: no wrong dim, no unlisted unknown)."""
    analysis = subject.analysis
    expected = subject.expected_outputs(env)
    outputs = subject.outputs
    assert len(outputs) == len(expected), (outputs, expected)
    unresolved = {u.value for u in analysis.unresolved}
    for name, want in zip(outputs, expected, strict=True):
        got = symshape_dims(analysis, name, env)
        if got is None and not complete:
            shown = analysis.shape_or_none(name)
            assert name in unresolved, f"{name} is {shown}, over unknown symbols, not listed unresolved"
            continue
        assert got is not None, f"incomplete: {name} is {analysis.shape_or_none(name)}, not over the input symbols"
        assert got == want, f"unsound: {name} is {analysis.shape_or_none(name)} = {got} at {dict(env)}, jax {want}"


def check_values(subject: Subject, env: Env, refined: Refined) -> Report:
    """Every value refinement pins down against symshape's dims (and tracked elements)."""
    analysis = subject.analysis
    report = Report()
    for name in sorted(refined.shapes):
        want = refined.shape(name)
        if want is None:
            continue
        got = symshape_dims(analysis, name, env)
        if got is None:
            report.opaque.append(name)
            continue
        shown = analysis.shape_or_none(name)
        assert got == want, f"unsound: {name} is {shown} = {got} at {dict(env)}, refinement {want}"
        report.compared.append(name)
        values, tracked = refined.elements.get(name, set()), analysis.elements(name)
        got_values = evaluated(tracked, env)
        if got_values is not None and len(values) == 1:
            (want_values,) = values
            assert got_values == want_values, (
                f"unsound: {name} has elements {tracked} = {got_values} at {dict(env)}, refinement {want_values}")
            report.elements += 1
    return report


def claims(analysis: Analysis) -> list[tuple[str, Callable[[Env], bool]]]:
    """Everything symshape asserts about the sizes: guards, kept predicates, residual equations,
    and the range and divisor of each symbol (each as ``(text, holds_at)``)."""
    graph = analysis.graph
    out: list[tuple[str, Callable[[Env], bool]]] = []
    relations: dict[str, Callable[[int, int], bool]] = {"==": int.__eq__, "!=": int.__ne__, ">=": int.__ge__,
                                                        "<=": int.__le__, "<": int.__lt__,
                                                        "divisible": lambda a, b: b != 0 and a % b == 0}
    for item in [*graph.guards, *graph.predicates]:
        lhs, rhs, rel = analysis.public(item.lhs), analysis.public(item.rhs), relations[item.rel]
        out.append((f"{lhs} {item.rel} {rhs}", lambda env, lhs=lhs, rhs=rhs, rel=rel:
                    rel(evaluate(lhs, env), evaluate(rhs, env))))
    for residual in graph.residuals:
        expr = analysis.public(residual.expr)
        out.append((f"{expr} == 0", lambda env, expr=expr: evaluate(expr, env) == 0))
    for name, info in analysis.symbols().items():
        lo, hi = info["range"]
        divisor = info["divisor"]
        out.append((f"{name} in [{lo}, {hi}] and {divisor} | {name}", lambda env, name=name, lo=lo, hi=hi, d=divisor:
                    (lo is None or env[name] >= lo) and (hi is None or env[name] <= hi) and env[name] % d == 0))
    return out


def check_claims(subject: Subject, env: Env) -> int:
    """Every claim over the env's symbols holds at ``env``, a size jax accepts (a guard false
    there is stricter than the program); returns how many were checked."""
    checked = 0
    for text, holds in claims(subject.analysis):
        try:
            ok = holds(env)
        except KeyError:  # a claim over a symbol the env does not bind (a fresh or callee symbol)
            continue
        assert ok, f"over-strict: symshape claims '{text}', false at {dict(env)} which jax accepts"
        checked += 1
    return checked


def check_at(subject: Subject, env: Env, *, complete: bool = True) -> Report:
    """All checks at one size jax accepts: the claims first, so that a wrong dim reported after
    them is one no guard covers (unsound), not one a false guard excuses."""
    check_claims(subject, env)
    check_outputs(subject, env, complete=complete)
    return check_values(subject, env, subject.refined(env))


def grid(symbols: Sequence[str], sizes: Sequence[int] = (1, 2, 3, 7)) -> list[dict[str, int]]:
    """Every combination of ``sizes`` for ``symbols`` (1 included: the broadcasting edge)."""
    return [dict(zip(symbols, combo, strict=True)) for combo in itertools.product(sizes, repeat=len(symbols))]


def check_subject(subject: Subject, envs: Sequence[Env] | None = None, *, min_accepted: int = 2,
                  complete: bool = True) -> list[Report]:
    """`check_at` every size of ``envs`` jax accepts (default: `default_envs`)."""
    envs = envs if envs is not None else default_envs(subject.symbols)
    reports = [check_at(subject, env, complete=complete) for env in envs if subject.accepts(env)]
    assert len(reports) >= min_accepted, f"jax accepted only {len(reports)} of the sizes {list(envs)}"
    return reports


def default_envs(symbols: Sequence[str]) -> list[dict[str, int]]:
    """All of (1, 2, 3, 7) for one symbol, of (1, 2, 5) for two; for more: all 1, all 2, distinct
    primes both ways round, and each symbol 1 with the others 3 (the broadcasting edges)."""
    if len(symbols) <= 2:
        return grid(symbols, (1, 2, 3, 7) if len(symbols) == 1 else (1, 2, 5))
    primes = (2, 3, 5, 7, 11, 13)[: len(symbols)]
    envs = [dict.fromkeys(symbols, 1), dict.fromkeys(symbols, 2), dict(zip(symbols, primes, strict=True)),
            dict(zip(symbols, reversed(primes), strict=True))]
    return envs + [{s: 1 if s == one else 3 for s in symbols} for one in symbols]


def run(subject: Subject, envs: Sequence[Env] | None = None, *, min_accepted: int = 2) -> list[Report]:
    """The whole oracle check of one subject at every accepted size, and full coverage: each
    top-level op result of the traced function has a symshape shape over the input symbols."""
    envs = envs if envs is not None else default_envs(subject.symbols)
    reports = check_subject(subject, envs, min_accepted=min_accepted)
    first = subject.refined(next(env for env in envs if subject.accepts(env)))
    missing = sorted(name for name in first.top_level if name in reports[0].opaque)
    assert not missing, f"incomplete: symshape has no shape over the input symbols for {missing}"
    return reports


def case(name: str, fn: Callable[..., Any] | Subject, *args: Any, envs: Sequence[Env] | None = None,
         xfail: str | None = None, constraints: Sequence[str] = ()) -> Any:
    """A table row: ``pytest.param(subject, envs, id=name)``, a strict xfail when ``xfail``
    names a known defect (so the row flips to a failure when the defect is fixed). ``fn`` may be
    a `Subject` already built (rows of two tables then share one export and analysis)."""
    marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=xfail)] if xfail else []
    subject = fn if isinstance(fn, Subject) else Subject(fn, list(args), constraints)
    return pytest.param(subject, envs, id=name, marks=marks)
