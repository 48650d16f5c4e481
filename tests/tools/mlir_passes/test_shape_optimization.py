"""The shape-optimization pass: re-entrancy, determinism, self-consistency of the saved constraint
IR, and jax as a run-time oracle for the dims the pass writes into the types."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType

from symshape.algebra.expr import Dim, evaluate
from symshape.errors import UserFactError
from symshape.ir.dialects import constraint as c
from symshape.tools.mlir_passes.constraint_load import LoadedConstraints, load_constraints
from symshape.tools.mlir_passes.opt import SPLIT_MARKER, parse_text, print_module, run_opt, run_passes
from tests.paths import TESTS

INPUTS = TESTS / "mlir_inputs"
CHUNKS = [
    pytest.param(chunk, id=f"{path.stem}#{i}")
    for path in sorted((TESTS / "filecheck").glob("shape-optimization*.mlir"))
    for i, chunk in enumerate(path.read_text().split(SPLIT_MARKER))
]
MODULES = sorted(INPUTS.glob("*.mlir"))
# parse.clean_text keeps the newlines inside `#mhlo.dot<...>`, and xDSL indents them again on
# every print, so this module's text grows by whitespace on each round (not a pass issue).


def optimize(text: str, facts: tuple[str, ...] = ()) -> str:
    ctx, module = parse_text(text)
    run_passes(ctx, module, ["shape-optimization"], facts)
    module.verify()
    return print_module(module)


@pytest.mark.parametrize("text", CHUNKS)
def test_filecheck_cases_are_reentrant(text: str) -> None:
    once = optimize(text)
    assert optimize(once) == once


@pytest.mark.parametrize(
    "path",
    MODULES,
    ids=lambda p: p.stem,
)
def test_modules_are_reentrant(path: Path) -> None:
    once = run_opt(path, ["shape-optimization"])
    assert optimize(once) == once


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_output_is_deterministic(path: Path) -> None:
    assert run_opt(path, ["shape-optimization"]) == run_opt(path, ["shape-optimization"])


# ------------------------------------------------------------------ self-consistency


def _symbols_in(module: ModuleOp) -> tuple[dict[str, c.SymbolicDimOp], set[str]]:
    defined = {op.sym_name.data: op for op in module.ops if isinstance(op, c.SymbolicDimOp)}
    used: set[str] = set()
    for op in module.walk():
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            t = value.type
            if isinstance(t, TensorType):
                names = c.symbol_encoding(t.encoding)
                if names is not None:
                    used.update(names)
                    for size, name in zip(t.get_shape(), names, strict=True):
                        if size >= 0:  # a static size is its constant symbol
                            assert name == f"C{size}", (t, name)
        if isinstance(op, c.DimOp):
            used.add(op.sym.root_reference.data)
    return defined, used


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_every_symbol_is_declared_and_used(path: Path) -> None:
    _, module = parse_text(run_opt(path, ["shape-optimization"]))
    defined, used = _symbols_in(module)
    assert used == set(defined), (sorted(used - set(defined)), sorted(set(defined) - used))
    numbers = [int(n[1:]) for n in defined if n.startswith("S")]
    assert numbers == list(range(len(numbers))), "symbols are numbered S0, S1, ... in order"
    for name, op in defined.items():
        if name.startswith("C"):
            assert op.value is not None and op.value.value.data == int(name[1:])


def test_user_fact_naming_no_symbol_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text((INPUTS / "seed001_concat.mlir").read_text())
    with pytest.raises(UserFactError, match="names a symbol no function of the module has"):
        run_opt(path, ["shape-optimization"], ["nosuch_d0 == 3"])


# ------------------------------------------------------------------ the jax oracle

UNENCODED_RESULTS = {"while"}
JAX_ENVS = ({"b": 1, "s": 1, "h": 1, "w": 1}, {"b": 3, "s": 5, "h": 6, "w": 9}, {"b": 4, "s": 2, "h": 7, "w": 4})


def _spec_shape(spec: object, env: dict[str, int]) -> tuple[int, ...]:
    if isinstance(spec, tuple):
        return spec
    assert isinstance(spec, str)
    return tuple(int(eval(d, {}, dict(env))) for d in spec.split(","))  # noqa: S307 - our own specs


def _symbol_values(loaded: LoadedConstraints, args: list[TensorType], shapes: list[tuple[int, ...]]) -> dict[str, int]:
    """Bind the argument symbols to the concrete sizes, then evaluate the definitions."""
    values: dict[str, int] = {}
    for t, shape in zip(args, shapes, strict=True):
        for name, size in zip(c.symbol_encoding(t.encoding) or (), shape, strict=True):
            assert values.setdefault(name, size) == size, f"{name} is bound to two sizes"
    for _ in range(len(loaded.relations) + 1):
        for r in loaded.relations:
            if r.defines is not None and r.defines not in values:
                if _free(r.rhs) <= values.keys():
                    values[r.defines] = evaluate(r.rhs, values)
    return values


def _free(d: Dim) -> set[str]:
    return set() if isinstance(d, int) else set(d.free)


@pytest.mark.needs_jax
@pytest.mark.parametrize(
    "name",
    [
        "add_broadcast",
        "concat_reshape",
        "matmul_reduce",
        "slice_mul",
        "concat_2b",
        "attention",
        "conv",
        "while",
        "pad_transpose",
    ],
)
def test_result_types_match_jax_at_run_time(name: str) -> None:
    """The pass's result encodings, evaluated through the saved constraint graph at concrete
    sizes, equal the shapes jax computes; every saved fact holds at those sizes."""
    import jax
    import numpy as np

    from tests.mlir_inputs.make_jax_inputs import FUNCTIONS, export_text

    fn, specs = FUNCTIONS[name]
    _, module = parse_text(optimize(export_text(name)))
    main = next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    results = list(main.function_type.outputs.data)
    args = [t for t in main.function_type.inputs.data if isinstance(t, TensorType) and t.get_num_dims()]
    loaded = load_constraints(module)  # reads, then strips the constraint IR
    for env in JAX_ENVS:
        shapes = [_spec_shape(s, env) for s in specs]
        got = jax.eval_shape(fn, *(np.ones(s, np.float32) for s in shapes))
        expected = [got] if not isinstance(got, (tuple, list)) else list(got)
        values = _symbol_values(loaded, args, shapes)
        for t, want in zip(results, expected, strict=True):
            assert isinstance(t, TensorType)
            names = c.symbol_encoding(t.encoding)
            if names is None:  # results of region ops (stablehlo.while) keep their types
                assert name in UNENCODED_RESULTS, f"result type {t} has no symbols"
                assert all(s in (DYNAMIC_INDEX, w) for s, w in zip(t.get_shape(), want.shape, strict=True))
                continue
            sizes = tuple(int(n[1:]) if re.fullmatch(r"C\d+", n) else values[n] for n in names)
            assert sizes == want.shape, (name, env)
        _check_facts(loaded, values)


def _check_facts(loaded: LoadedConstraints, values: dict[str, int]) -> None:
    for name, value in values.items():
        info = loaded.symbols.get(name)
        if info is None:
            continue
        assert info.lo is None or value >= info.lo, (name, value, info)
        assert info.hi is None or value <= info.hi, (name, value, info)
        assert value % info.divisor == 0, (name, value, info)
    for r in loaded.relations:
        if r.guard or not (_free(r.lhs) | _free(r.rhs)) <= values.keys():
            continue
        lhs, rhs = evaluate(r.lhs, values), evaluate(r.rhs, values)
        holds = {
            "==": lhs == rhs,
            "!=": lhs != rhs,
            "<": lhs < rhs,
            "<=": lhs <= rhs,
            "divisible": rhs != 0 and lhs % rhs == 0,
        }[r.rel]
        assert holds, (r, values)


JAX_MODULES = sorted([*INPUTS.glob("jax_*.mlir"), *(TESTS / "mlir_corpus").glob("jax_*.mlir")])


def test_the_jax_modules_are_there() -> None:
    """The round trip below runs on every jax export the tests hold (13 when written), not on none."""
    assert len(JAX_MODULES) >= 13


@pytest.mark.parametrize("path", JAX_MODULES, ids=lambda p: p.stem)
def test_the_analysis_reads_its_own_output_of_a_jax_export(path: Path, tmp_path: Path) -> None:
    """A jax export after ``shape-optimization`` names its dims twice, in jax's specifications
    (``b``, ``s``) and in the saved encodings (``S0``, ``S1``): the analysis keeps jax's names and
    restates the saved facts in them, so it gives the inputs and outputs the shapes it gave the
    export itself (the oracle), and every analysing pass reads the module. It used to stop with
    "user fact 'S0=1..' names 'S0', which is not a symbol of this program" (14 test modules)."""
    from symshape.api import analyze_file

    saved = tmp_path / "optimized.mlir"
    saved.write_text(run_opt(path, "shape-optimization"))
    assert "symshape.symbolic_dim" in saved.read_text()  # it does carry the saved constraints
    before, after = analyze_file(path), analyze_file(saved)
    for analysis in (before, after):
        assert analysis.program.inputs and analysis.program.outputs
    assert [before.shape(v) for v in before.program.inputs] == [after.shape(v) for v in after.program.inputs]
    assert [before.shape(v) for v in before.program.outputs] == [after.shape(v) for v in after.program.outputs]
    for name in ("shape-sources", "aux-shape-functions", "fusion-groups", "shape-functions"):
        assert run_opt(saved, name)
