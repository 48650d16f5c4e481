"""Random broadcast/matmul/concat/elementwise chains: shape functions and their canonicalization, run at
random concrete shapes against numpy.

Each chain is written twice: as a StableHLO/CHLO function (``shape-functions{form=cstr}`` makes
its shape function from the analysis), and, by this test, as a naive constrained-form shape
function with one check per op and nothing shared (many redundant checks). Both run before and
after ``shape-canonicalize-constraints`` with the evaluator; numpy's ``matmul``, broadcasting and
``concatenate`` on empty arrays are the oracle. Canonicalization must never accept more inputs
(and, removing only implied checks, accepts exactly the same ones).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from xdsl.dialects import func

from symshape.ir.shape_eval import Outcome, evaluate
from symshape.tools.mlir_passes.opt import parse_text, run_passes

DIMS = (0, 1, 2, 3)


@dataclass
class Chain:
    """Argument ranks and ops ``(kind, i, j)`` over value indices (arguments first)."""

    ranks: list[int]
    ops: list[tuple[str, int, int]] = field(default_factory=list[tuple[str, int, int]])

    def rank(self, i: int) -> int:
        return self.value_ranks()[i]

    def value_ranks(self) -> list[int]:
        out = list(self.ranks)
        for kind, i, j in self.ops:
            out.append(2 if kind == "matmul" else max(out[i], out[j]) if kind == "add" else out[i])
        return out


@st.composite
def chains(draw: st.DrawFn) -> Chain:
    chain = Chain(draw(st.lists(st.sampled_from([1, 2]), min_size=2, max_size=4)))
    for _ in range(draw(st.integers(1, 5))):
        ranks = chain.value_ranks()
        kind = draw(st.sampled_from(["matmul", "add", "concat", "same"]))
        pool = [k for k, r in enumerate(ranks) if r == 2] if kind == "matmul" else list(range(len(ranks)))
        if not pool:
            kind, pool = "add", list(range(len(ranks)))
        i = draw(st.sampled_from(pool))
        same = [k for k in pool if kind not in ("concat", "same") or ranks[k] == ranks[i]]
        chain.ops.append((kind, i, draw(st.sampled_from(same))))
    return chain


def _type(rank: int) -> str:
    return f"tensor<{'?x' * rank}f32>"


def hlo_text(chain: Chain) -> str:
    ranks = chain.value_ranks()
    names = [f"%a{k}" for k in range(len(chain.ranks))] + [f"%v{k}" for k in range(len(chain.ops))]
    lines: list[str] = []
    for n, (kind, i, j) in enumerate(chain.ops):
        out, ti, tj, tr = (
            names[len(chain.ranks) + n],
            _type(ranks[i]),
            _type(ranks[j]),
            _type(ranks[len(chain.ranks) + n]),
        )
        if kind == "matmul":
            body = f"stablehlo.dot_general {names[i]}, {names[j]}, contracting_dims = [1] x [0]"
        elif kind == "add":
            body = f'"chlo.broadcast_add"({names[i]}, {names[j]})'
        elif kind == "same":
            body = f"stablehlo.multiply {names[i]}, {names[j]}"
        else:
            body = f"stablehlo.concatenate {names[i]}, {names[j]}, dim = 0"
        lines.append(f"  {out} = {body} : ({ti}, {tj}) -> {tr}")
    args = ", ".join(f"{names[k]}: {_type(r)}" for k, r in enumerate(chain.ranks))
    last = _type(ranks[-1])
    body = "\n".join(lines)
    return f"func.func @chain({args}) -> {last} {{\n{body}\n  return {names[-1]} : {last}\n}}\n"


class NaiveShapeFunction:
    """The constrained form written by hand, op by op: every check, none shared."""

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        self.lines: list[str] = ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index"]
        self.witnesses: list[str] = []
        self.count = 0

    def new(self, text: str) -> str:
        self.count += 1
        name = f"%t{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name

    def extents(self, dims: list[str]) -> str:
        return self.new(f"tensor.from_elements {', '.join(dims)} : tensor<{len(dims)}xindex>")

    def check(self, op: str, a: list[str], b: list[str]) -> None:
        sa, sb = self.extents(a), self.extents(b)
        types = f"tensor<{len(a)}xindex>, tensor<{len(b)}xindex>"
        self.witnesses.append(self.new(f'shape.{op} {sa}, {sb} {{error = "{op}"}} : {types}'))

    def text(self) -> str:
        dims: list[list[str]] = []
        for k, r in enumerate(self.chain.ranks):
            dims.append([self.new(f"tensor.dim %a{k}, %c{axis} : {_type(r)}") for axis in range(r)])
        for kind, i, j in self.chain.ops:
            x, y = dims[i], dims[j]
            if kind == "matmul":
                self.check("cstr_eq", x[1:], y[:1])
                dims.append([x[0], y[1]])
            elif kind == "same":
                self.check("cstr_eq", x, y)
                dims.append(x)
            elif kind == "concat":
                if len(x) > 1:
                    self.check("cstr_eq", x[1:], y[1:])
                dims.append([self.new(f"arith.addi {x[0]}, {y[0]} : index"), *x[1:]])
            else:
                self.check("cstr_broadcastable", x, y)
                dims.append(self.broadcast(x, y))
        result = dims[-1]
        rtype = f"tensor<{len(result)}xindex>"
        joined = self.new(
            f"shape.assuming_all {', '.join(self.witnesses)}" if self.witnesses else "shape.const_witness true"
        )
        args = ", ".join(f"%a{k}: {_type(r)}" for k, r in enumerate(self.chain.ranks))
        body = "\n".join(self.lines)
        return (
            f"func.func @naive({args}) -> {rtype} {{\n{body}\n"
            f"  %r = shape.assuming {joined} -> ({rtype}) {{\n"
            f"    %s = tensor.from_elements {', '.join(result)} : {rtype}\n"
            f"    shape.assuming_yield %s : {rtype}\n  }}\n  return %r : {rtype}\n}}\n"
        )

    def broadcast(self, x: list[str], y: list[str]) -> list[str]:
        """``a == 1 ? b : a`` per aligned dim (right for every valid broadcast)."""
        longer, shorter = (x, y) if len(x) >= len(y) else (y, x)
        out = list(longer[: len(longer) - len(shorter)])
        for a, b in zip(longer[len(longer) - len(shorter) :], shorter, strict=True):
            one = self.new(f"arith.cmpi eq, {a}, %c1 : index")
            out.append(self.new(f"arith.select {one}, {b}, {a} : index"))
        return out


def numpy_chain(chain: Chain, shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    values = [np.zeros(s, np.float32) for s in shapes]
    try:
        for kind, i, j in chain.ops:
            if kind == "matmul":
                values.append(np.matmul(values[i], values[j]))
            elif kind == "add":
                values.append(values[i] + values[j])
            elif kind == "same":  # stablehlo's elementwise ops do not broadcast
                if values[i].shape != values[j].shape:
                    return None
                values.append(values[i] * values[j])
            else:
                values.append(np.concatenate([values[i], values[j]], axis=0))
    except ValueError:
        return None
    return values[-1].shape


def functions(text: str, pipeline: str) -> list[func.FuncOp]:
    ctx, module = parse_text(text)
    run_passes(ctx, module, pipeline)
    return [f for f in module.ops if isinstance(f, func.FuncOp)]


def agree(outcome: Outcome, expected: tuple[int, ...] | None) -> None:
    assert outcome.accepted == (expected is not None), outcome.message
    if expected is not None:
        assert outcome.results == (expected,)


def shape_samples(chain: Chain, seed: int) -> list[list[tuple[int, ...]]]:
    rng = np.random.default_rng(seed)
    out = [[tuple(int(d) for d in rng.choice(DIMS, size=r)) for r in chain.ranks] for _ in range(40)]
    same = [[tuple(2 for _ in range(r)) for r in chain.ranks], [tuple(1 for _ in range(r)) for r in chain.ranks]]
    return out + same


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(chains(), st.integers(0, 2**32 - 1))
@example(Chain([1, 1], [("concat", 0, 0)]), 0)  # no check at all
def test_naive_checks_canonicalize_without_accepting_more(chain: Chain, seed: int) -> None:
    naive = NaiveShapeFunction(chain).text()
    (before,) = functions(naive, "")
    (after,) = functions(naive, "shape-canonicalize-constraints")
    for shapes in shape_samples(chain, seed):
        expected = numpy_chain(chain, shapes)
        was, now = evaluate(before, shapes), evaluate(after, shapes)
        agree(was, expected)
        assert not (now.accepted and not was.accepted), f"canonicalization accepts {shapes}"
        agree(now, expected)


@SETTINGS
@given(chains(), st.integers(0, 2**32 - 1))
def test_shape_functions_match_numpy_before_and_after_canonicalization(chain: Chain, seed: int) -> None:
    text = hlo_text(chain)
    before = functions(text, "shape-functions{form=cstr}")[1]
    after = functions(text, "shape-functions{form=cstr},shape-canonicalize-constraints")[1]
    asserts = functions(text, "shape-functions{form=assert}")[1]
    for shapes in shape_samples(chain, seed):
        expected = numpy_chain(chain, shapes)
        was, now = evaluate(before, shapes), evaluate(after, shapes)
        agree(was, expected)
        assert not (now.accepted and not was.accepted), f"canonicalization accepts {shapes}"
        agree(now, expected)
        agree(evaluate(asserts, shapes), expected)


def test_canonicalization_removes_redundant_naive_checks() -> None:
    """x @ x twice, x + x: the second contraction check and the self-broadcast are proven."""
    chain = Chain([2], [("matmul", 0, 0), ("matmul", 0, 0), ("add", 0, 0)])
    naive = NaiveShapeFunction(chain).text()
    (after,) = functions(naive, "shape-canonicalize-constraints")
    kept = [op.name for op in after.walk() if op.name.startswith("shape.cstr")]
    assert kept == ["shape.cstr_eq"]
    for shapes in itertools.product([(2, 2), (2, 3), (1, 1), (0, 0)], repeat=1):
        agree(evaluate(after, list(shapes)), numpy_chain(chain, list(shapes)))
