"""``expand-function-dynamic-dims`` (seed 002): the expanded modules parse in ``iree-opt``, the
deduplicated form has one argument per class, and the dims a function returns are right.

The returned dims are checked by running the expanded function's shape logic at concrete
sizes with a tiny interpreter of the ``arith`` index ops (`ShapeRunner`): each index argument
takes the size of the dim its entry ``tie_shape`` ties it to (two ties that disagree are the
assertion failing), and each returned dim must equal the oracle's: a formula written here by
hand for the hand-written modules, ``jax.eval_shape`` of the Python function for the
jax-exported ones.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import BlockArgument, SSAValue

from symshape.errors import UserFactError
from symshape.ir.dialects import constraint as c
from symshape.tools.mlir_passes.opt import SPLIT_MARKER, parse_text, print_module, run_passes
from tests.ir.test_printing import CUSTOM_SYMSHAPE, GROUPS, default_output, iree_parse
from tests.paths import ROOT, TESTS

FILECHECK = sorted((TESTS / "filecheck").glob("expand-function-dynamic-dims*.mlir"))
INPUTS = sorted((TESTS / "mlir_inputs").glob("*.mlir"))
PASS = "expand-function-dynamic-dims"
DEDUPE = "expand-function-dynamic-dims{dedupe=true}"

Shape = tuple[int, ...]


def expand(text: str, *passes: str) -> ModuleOp:
    ctx, module = parse_text(text)
    run_passes(ctx, module, list(passes))
    return module


def function(module: ModuleOp, name: str) -> func.FuncOp:
    found = [f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name]
    assert found, f"no function @{name}"
    return found[0]


# ------------------------------------------------------------------ the interpreter


class NotComputed(Exception):
    """A returned dim is read from a tensor (``tensor.dim``), not computed from the arguments."""


BINARY: dict[type, Callable[[int, int], int]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.CeilDivSIOp: lambda a, b: -(-a // b),
    arith.DivSIOp: lambda a, b: int(a / b),
    arith.RemSIOp: lambda a, b: a - b * int(a / b),
    arith.MaxSIOp: max,
    arith.MinSIOp: min,
}


class ShapeRunner:
    """Run the index arithmetic of an expanded function at concrete argument shapes."""

    def __init__(self, fn: func.FuncOp) -> None:
        self.fn = fn
        entry = fn.body.blocks.first
        assert entry is not None
        self.entry = entry
        self.tensors = [a for a in entry.args if not isinstance(a.type, IndexType)]
        self.indices = [a for a in entry.args if isinstance(a.type, IndexType)]

    def bind(self, shapes: Sequence[Shape]) -> dict[SSAValue, int]:
        """Each index argument's value: the size its entry tie gives it (ties must agree)."""
        env: dict[SSAValue, int] = {}
        by_arg = dict(zip(self.tensors, shapes, strict=True))
        for op in self.entry.ops:
            if not isinstance(op, c.TieShapeOp) or op.value not in by_arg:
                continue
            shape = by_arg[op.value]
            for axis, d in enumerate(op.dims):
                if isinstance(d, BlockArgument):
                    assert env.setdefault(d, shape[axis]) == shape[axis], f"the tie of {d.name_hint} fails"
                else:
                    assert self.value(d, env) == shape[axis], "a tie to a constant fails"
        assert all(i in env for i in self.indices), "an index argument is tied to no argument dim"
        return env

    def value(self, v: SSAValue, env: dict[SSAValue, int]) -> int:
        if v in env:
            return env[v]
        op = v.owner
        if isinstance(op, arith.ConstantOp):
            assert isinstance(op.value, IntegerAttr)
            out = op.value.value.data
        elif type(op) in BINARY:
            out = BINARY[type(op)](self.value(op.operands[0], env), self.value(op.operands[1], env))
        else:
            raise NotComputed(f"{v} comes from {op}")
        env[v] = out
        return out

    def results(self, shapes: Sequence[Shape]) -> list[tuple[int | None, ...]]:
        """The returned dims of each tensor result (None where static in the type)."""
        env = self.bind(shapes)
        ret = self.entry.last_op
        assert isinstance(ret, func.ReturnOp)
        out: list[tuple[int | None, ...]] = []
        operands = list(ret.operands)
        i = 0
        while i < len(operands):
            t = operands[i].type
            i += 1
            dims: list[int | None] = []
            for n in getattr(t, "get_shape", lambda: ())():
                if n >= 0:
                    dims.append(None)
                else:
                    dims.append(self.value(operands[i], env))
                    i += 1
            out.append(tuple(dims))
        return out


def check_results(runner: ShapeRunner, shapes: Sequence[Shape], want: Sequence[Shape]) -> None:
    got = runner.results(shapes)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert all(x is None or x == y for x, y in zip(g, w, strict=True)), f"at {shapes}: {got} != {want}"


# ------------------------------------------------------------------ iree-opt


def iree_parses(text: str) -> None:
    iree = shutil.which("iree-opt")
    assert iree is not None
    done = subprocess.run(
        [iree, "--allow-unregistered-dialect", "-"], input=text, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def chunks(path: Path) -> list[str]:
    return path.read_text().split(SPLIT_MARKER)


CHUNKS = [
    pytest.param(path, i, p, id=f"{path.stem}#{i}-{'dedupe' if 'dedupe' in p else 'dims'}")
    for path in FILECHECK
    for i, _ in enumerate(chunks(path))
    for p in (PASS, DEDUPE)
]


@pytest.mark.needs_iree
@pytest.mark.parametrize(("path", "index", "pipeline"), CHUNKS)
def test_filecheck_cases_parse_in_iree_opt(path: Path, index: int, pipeline: str) -> None:
    passes = ["shape-optimization", pipeline] if "optimized" in path.stem else [pipeline]
    chunk = chunks(path)[index]
    text = print_module(expand(chunk, *passes))
    assert ("symshape.expanded_dims" in text) == ("tensor<?" in chunk)
    iree_parses(text)


@pytest.mark.needs_iree
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_seed_and_jax_modules_parse_in_iree_opt(path: Path) -> None:
    for passes in ([PASS], [DEDUPE], ["shape-optimization", PASS]):
        iree_parses(print_module(expand(path.read_text(), *passes)))


@pytest.mark.needs_iree
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_test_module_expands_and_parses_in_iree_opt(group: str, tmp_path: Path) -> None:
    """Every module of the MLIR tests (inputs, filecheck cases, op forms), both forms."""
    outputs = [default_output(text, p) for text in GROUPS[group] for p in (PASS, DEDUPE)]
    assert not any(CUSTOM_SYMSHAPE.search(out) for out in outputs)
    done = iree_parse(outputs, tmp_path)
    assert done.returncode == 0, done.stderr[:4000]


# ------------------------------------------------------------------ hand-written modules

ADD_CONCAT = """
func.func @f(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %z: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = "stablehlo.add"(%x, %y) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "stablehlo.concatenate"(%0, %z) {dimension = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}
"""


def index_args(fn: func.FuncOp) -> int:
    return sum(isinstance(t, IndexType) for t in fn.function_type.inputs.data)


def test_one_argument_per_dim_and_per_class() -> None:
    """x, y: [a, b] (the add), z: [a, c] (the concat): 6 dims, 3 classes."""
    assert index_args(function(expand(ADD_CONCAT, PASS), "f")) == 6
    deduped = function(expand(ADD_CONCAT, DEDUPE), "f")
    assert index_args(deduped) == 3
    runner = ShapeRunner(deduped)
    for a, b, cc in itertools.product((0, 1, 5), (1, 3), (0, 2)):
        check_results(runner, [(a, b), (a, b), (a, cc)], [(a, b), (a, b + cc)])


def test_a_tie_that_disagrees_fails() -> None:
    """The deduplicated tie of y to x's dims asserts them: shapes that break the add fail it."""
    runner = ShapeRunner(function(expand(ADD_CONCAT, DEDUPE), "f"))
    with pytest.raises(AssertionError, match="tie"):
        runner.bind([(2, 3), (2, 4), (2, 1)])


def test_results_computed_from_the_arguments_match_a_formula() -> None:
    """Concat, reshape and a strided slice of a pad: each returned dim computed from the
    argument dims, never read back with tensor.dim, and equal to the hand formula."""
    text = """
    func.func @h(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?xf32>, tensor<?x8xf32>) {
      %0 = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
      %n = "stablehlo.get_dimension_size"(%0) {dimension = 0 : i64} : (tensor<?x8xf32>) -> tensor<i32>
      %c8 = stablehlo.constant dense<8> : tensor<i32>
      %m = stablehlo.multiply %n, %c8 : tensor<i32>
      %s = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
      %1 = stablehlo.dynamic_reshape %0, %s : (tensor<?x8xf32>, tensor<1xi32>) -> tensor<?xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %2 = "stablehlo.pad"(%a, %z) {edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 2, 0>,
        interior_padding = array<i64: 1, 0>} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
      func.return %0, %1, %2 : tensor<?x8xf32>, tensor<?xf32>, tensor<?x8xf32>
    }
    """
    for passes in ([PASS], [DEDUPE]):
        runner = ShapeRunner(function(expand(text, *passes), "h"))
        for a, b in itertools.product((0, 1, 2, 7), (0, 1, 4)):
            padded = a + 3 + max(a - 1, 0)  # low 1, high 2, one between each pair
            check_results(runner, [(a, 8), (b, 8)], [(a + b, 8), ((a + b) * 8,), (padded, 8)])


def test_a_caller_passes_its_own_dims() -> None:
    text = """
    func.func private @inner(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %0 = "stablehlo.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      func.return %0 : tensor<?x?xf32>
    }
    func.func @outer(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %0 = func.call @inner(%a, %a) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      func.return %0 : tensor<?x?xf32>
    }
    """
    module = expand(text, DEDUPE)
    inner = function(module, "inner")
    assert index_args(inner) == 3  # x: [p, q], y: [r, q] (the concat makes the columns one class)
    outer = function(module, "outer")
    call = next(op for op in outer.walk() if isinstance(op, func.CallOp))
    assert len(call.arguments) == 5 and all(isinstance(v, BlockArgument) for v in call.arguments[1:3])
    for a, b in itertools.product((0, 3), (1, 5)):
        check_results(ShapeRunner(outer), [(a, b)], [(2 * a, b)])


# ------------------------------------------------------------------ jax exports


def jax_cases() -> list[tuple[str, Callable[..., Any], tuple[str, ...]]]:
    import jax.numpy as jnp

    return [
        ("concat_2b", lambda x, y: jnp.concatenate([x, y]), ("2*b, s", "b, s")),
        ("matmul", lambda x, w: x @ w, ("b, n, k", "k, m")),
        ("add_same", lambda x, y: x + y, ("b, s", "b, s")),
        ("reshape", lambda x: x.reshape(x.shape[0], -1), ("b, s, 8",)),
        ("strided", lambda x: x[1::2], ("n, 3",)),
        ("pad", lambda x: jnp.pad(x, ((1, 2), (0, 0))), ("n, m",)),
        ("outer", lambda x, y: x[:, None] * y[None, :], ("a", "c")),
    ]


@pytest.mark.needs_jax
@pytest.mark.parametrize("case", range(7), ids=lambda i: str(i))
def test_jax_exports_one_argument_per_class_and_results_match_eval_shape(case: int) -> None:
    import jax
    import jax.numpy as jnp
    from jax import export

    name, fn, specs = jax_cases()[case]
    scope = export.SymbolicScope()
    shapes = [export.symbolic_shape(s, scope=scope) for s in specs]
    args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    text = export.export(jax.jit(fn))(*args).mlir_module()
    main = function(expand(text, DEDUPE), "main")
    classes = {str(d) for s in shapes for d in s if not isinstance(d, int)}
    assert index_args(main) == len(classes), f"{name}: {main.function_type}"
    runner = ShapeRunner(main)
    symbols = sorted({t for spec in specs for t in _terms(spec) if not t.isdigit()})
    for values in itertools.product((1, 2, 3, 5), repeat=len(symbols)):
        env = dict(zip(symbols, values, strict=True))
        concrete = [_sizes(spec, env) for spec in specs]
        want = jax.eval_shape(fn, *(jax.ShapeDtypeStruct(s, jnp.float32) for s in concrete))
        outs = want if isinstance(want, (list, tuple)) else [want]
        check_results(runner, concrete, [tuple(o.shape) for o in outs])


def _terms(spec: str) -> list[str]:
    return [t.strip() for d in spec.split(",") for t in d.split("*")]


def _sizes(spec: str, env: Mapping[str, int]) -> Shape:
    """``"2*b, s"`` at ``env`` (the specs here are products of integers and symbols)."""
    out: list[int] = []
    for d in spec.split(","):
        size = 1
        for t in d.split("*"):
            t = t.strip()
            size *= int(t) if t.isdigit() else env[t]
        out.append(size)
    return tuple(out)


def test_the_readme_example_is_the_real_output() -> None:
    """The README's before/after of the pass stays current."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("#### Signature expansion") :]
    before, after = (block.split("```", 1)[0] for block in section.split("```mlir\n")[1:3])
    out = print_module(expand(before, DEDUPE))
    lines = [ln.strip() for ln in out.splitlines() if ln.strip() not in ("builtin.module {", "}")]
    assert lines == [ln.strip() for ln in after.splitlines() if ln.strip() != "}"]


def test_a_user_fact_makes_a_dim_constant_and_a_wrong_name_is_an_error() -> None:
    """``x_d1 == 5`` leaves @f one class fewer (its tie takes 5); a fact no function has fails."""
    ctx, module = parse_text(ADD_CONCAT)
    run_passes(ctx, module, DEDUPE, facts=["x_d1 == 5"])
    f = function(module, "f")
    assert index_args(f) == 2
    runner = ShapeRunner(f)
    check_results(runner, [(3, 5), (3, 5), (3, 2)], [(3, 5), (3, 7)])
    with pytest.raises(AssertionError, match="constant"):
        runner.bind([(3, 4), (3, 4), (3, 2)])
    ctx, module = parse_text(ADD_CONCAT)
    with pytest.raises(UserFactError, match="names a symbol no function of the module has"):
        run_passes(ctx, module, DEDUPE, facts=["nosuch == 5"])


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_after_shape_optimization_one_argument_per_symbol_of_the_types(path: Path) -> None:
    """A shape-optimized module names each class in its argument types: the expansion passes
    one index argument per distinct non-constant symbol of a function's ``?`` argument dims."""
    ctx, module = parse_text(path.read_text())
    run_passes(ctx, module, ["shape-optimization"])
    constants = {op.sym_name.data for op in module.ops if isinstance(op, c.SymbolicDimOp) and op.value is not None}
    want: dict[str, int] = {}
    for fn in module.ops:
        if not isinstance(fn, func.FuncOp) or fn.sym_name.data == c.GRAPH_FUNCTION:
            continue
        symbols: set[str] = set()
        tensors = [t for t in fn.function_type.inputs.data if isinstance(t, TensorType)]
        encodings = [c.symbol_encoding(t.encoding) for t in tensors]
        for t, names in zip(tensors, encodings, strict=True):
            if names is not None:
                symbols |= {n for n, size in zip(names, t.get_shape(), strict=True) if size < 0} - constants
        if all(n is not None or all(s >= 0 for s in t.get_shape()) for t, n in zip(tensors, encodings, strict=True)):
            want[fn.sym_name.data] = len(symbols)  # a function shape-optimization left unencoded is not counted
    run_passes(ctx, module, [PASS])
    got = {f.sym_name.data: index_args(f) for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data in want}
    assert got == want
