"""Seeded sweeps over the attribute space of the window ops (MaxPool, AveragePool, LpPool, Conv,
ConvTranspose), Slice, broadcasting and Reshape, each model run by onnxruntime at every
assignment of a small grid of sizes (0 included).

At each assignment where onnxruntime runs and every listed guard holds, every dim and element
must equal the observed one and every fact must hold (`assert_exact`); where a guard is false the
analysis made no claim, and where onnxruntime rejects the inputs there is nothing to compare. A
model the analysis rejects (a contradiction) must be one onnxruntime rejects at every size. Each
sweep must check most of its samples, so it cannot pass by skipping. Seeds are printed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx
import pytest
from onnx import helper

from symshape.algebra.expr import evaluate
from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import SymshapeError
from tests.oracle import array, assert_exact, assert_sound, check, const, feeds_for, make_model, run, tensor

SEED = 20240613
LENGTHS = range(12)
POOLS = ("MaxPool", "AveragePool", "LpPool")


@dataclass
class Window:
    """One op and its attributes on a ``[1, 2, L]`` input."""

    op: str
    kernel: int
    attrs: dict[str, object] = field(default_factory=dict[str, object])

    def __str__(self) -> str:
        text = ",".join(f"{k}={v}" for k, v in sorted(self.attrs.items()) if k != "kernel_shape")
        return f"{self.op}-k{self.kernel}-{text}"


def draw(rng: random.Random, op: str) -> Window:
    """Attributes onnxruntime accepts: pads below the kernel for pooling, output_padding below
    the stride for ConvTranspose, no SAME padding with dilation."""
    k = rng.randint(1, 4)
    stride, dilation = rng.randint(1, 3), rng.choice([1, 1, 2, 3])
    attrs: dict[str, object] = {"strides": [stride]}
    auto_pad = rng.choice(["NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"])
    if dilation > 1 and (auto_pad.startswith("SAME") or op == "LpPool"):
        dilation = 1
    if dilation > 1:
        attrs["dilations"] = [dilation]
    if auto_pad == "NOTSET":
        limit = k - 1 if op in POOLS else k + 1
        attrs["pads"] = [rng.randint(0, limit), rng.randint(0, limit)]
    else:
        attrs["auto_pad"] = auto_pad
    if op in POOLS:
        attrs["kernel_shape"] = [k]
        if op != "LpPool" and rng.random() < 0.5:
            attrs["ceil_mode"] = 1
        if op == "AveragePool" and rng.random() < 0.5:
            attrs["count_include_pad"] = 1
    if op == "ConvTranspose" and rng.random() < 0.5:
        attrs["output_padding"] = [rng.randint(0, stride - 1)]  # onnxruntime wants it below the stride
    return Window(op, k, attrs)


def windows() -> list[Window]:
    rng = random.Random(SEED)
    return [draw(rng, op) for op in ("MaxPool", "AveragePool", "LpPool", "Conv", "ConvTranspose") for _ in range(16)]


def model_of(w: Window) -> onnx.ModelProto:
    inputs, inits = ["x"], []
    if w.op in ("Conv", "ConvTranspose"):
        inputs.append("k")
        inits.append(array("k", np.full((2, 2, w.kernel), 0.5, np.float32)))
    node = helper.make_node(w.op, inputs, ["y"], **w.attrs)
    return make_model([node], [tensor("x", [1, 2, "L"])], [tensor("y", None)], inits)


def guards_hold(analysis: Analysis, env: dict[str, int]) -> bool:
    """Whether every listed guard is true at ``env`` (guards over other symbols count as true)."""
    for g in analysis.graph.guards:
        lhs, rhs = analysis.public(g.lhs), analysis.public(g.rhs)
        free = getattr(lhs, "free", frozenset()) | getattr(rhs, "free", frozenset())
        if not free <= env.keys():
            continue
        a, b = evaluate(lhs, env), evaluate(rhs, env)
        ok = {">=": a >= b, "<=": a <= b, "==": a == b, "!=": a != b, "<": a < b,
              "divisible": b != 0 and a % b == 0}.get(g.rel)
        if not ok:
            return False
    return True


@dataclass
class Tally:
    """How the samples of one model went."""

    checked: int = 0  # onnxruntime ran, every guard held, every claim matched
    guarded: int = 0  # a listed guard is false: the analysis claimed nothing
    rejected: int = 0  # onnxruntime refused the inputs

    def __iadd__(self, other: Tally) -> Tally:
        self.checked, self.guarded, self.rejected = (self.checked + other.checked, self.guarded + other.guarded,
                                                     self.rejected + other.rejected)
        return self


def _refused(err: Exception) -> bool:
    """onnxruntime refused these inputs (its exception types are not importable by name); a model it
    cannot even load is a broken test, not a refusal."""
    return "ONNXRuntimeError" in str(err) and "cannot load the model" not in str(err)


def sweep(m: onnx.ModelProto, envs: Sequence[dict[str, int]]) -> Tally:
    """Check ``m`` at every assignment; raises on any refuted claim."""
    tally = Tally()
    try:
        analysis = analyze_onnx(m)
    except SymshapeError:  # claimed invalid: onnxruntime must refuse every assignment
        for env in envs:
            with pytest.raises(Exception, match="ONNXRuntimeError"):
                run(m, feeds_for(m, env))
        tally.rejected = len(envs)
        return tally
    names = [i.name for i in m.graph.input] + [o for n in m.graph.node for o in n.output if o]
    claimed = [v for v in names if analysis.shape(v) is not None]  # a rule that gave up claims nothing
    for env in envs:
        try:
            report = check(m, [env], analysis=analysis, values=claimed)
        except Exception as err:
            if not _refused(err):
                raise
            tally.rejected += 1
            continue
        if not guards_hold(analysis, env):
            tally.guarded += 1
            continue
        (assert_sound if analysis.warnings else assert_exact)(report)  # after a give-up, dims may be fresh
        tally.checked += 1
    return tally


@pytest.mark.parametrize("w", windows(), ids=str)
def test_window_op_matches_onnxruntime_at_every_length(w: Window) -> None:
    print(f"seed={SEED}")
    tally = sweep(model_of(w), [{"L": n} for n in LENGTHS])
    assert tally.checked >= 3, tally


# ------------------------------------------------------------------------------------ Slice
BIG, I32MAX = 2**63 - 1, 2**31 - 1
BOUNDS = [-BIG, -9, -4, -2, -1, 0, 1, 2, 3, 5, 9, I32MAX, 2**40, BIG]
STEPS = [-3, -2, -1, 1, 2, 3]
SLICE_SEED = 7031
MUST = [(-1, BIG, -1), (BIG, BIG, -2), (2, I32MAX, -1), (0, BIG, 1), (BIG, -BIG, -1), (-1, 2**40, -1),
        (-BIG, -BIG, -1), (-BIG, -1, -2), (-BIG, -2, -1)]


def slices() -> list[object]:
    rng = random.Random(SLICE_SEED)
    drawn = {(rng.choice(BOUNDS), rng.choice(BOUNDS), rng.choice(STEPS)) for _ in range(48)}
    out = []
    for st, en, sp in [*MUST, *sorted(drawn - set(MUST))]:
        out.append(pytest.param((st, en, sp), id=f"{_bound(st)}:{_bound(en)}:{sp}"))
    return out


def _bound(v: int) -> str:
    return {BIG: "INT64MAX", -BIG: "-INT64MAX", I32MAX: "INT32MAX", 2**40: "2**40"}.get(v, str(v))


@pytest.mark.parametrize("sl", slices())
def test_slice_matches_onnxruntime_at_every_length(sl: tuple[int, int, int]) -> None:
    print(f"seed={SLICE_SEED}")
    start, end, step = sl
    nodes = [helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])]
    inits = [const("st", [start]), const("en", [end]), const("ax", [-1]), const("sp", [step])]
    m = make_model(nodes, [tensor("x", [2, "L"])], [tensor("y", None)], inits)
    tally = sweep(m, [{"L": n} for n in LENGTHS])  # up to 11: past every bound but INT_MAX
    assert tally.rejected == 0 and tally.checked + tally.guarded == len(LENGTHS), tally


# Bounds computed from the shape of z: [k] (the issue-14 case x[:, k:] and x[:, :k] and their kin).
SYMBOLIC = {"k": [], "k+1": [("Add", "one")], "-k-1": [("Add", "one"), ("Neg", "")], "-k": [("Neg", "")],
            "L-k": [("Sub", "L")]}
CONSTANT = {"0": 0, "2": 2, "-2": -2, "INT64MAX": BIG, "-INT64MAX": -BIG}
SYMBOLIC_SEED = 515


def _bound_nodes(name: str, kind: str) -> list[onnx.NodeProto]:
    """Nodes computing the 1-element bound ``name`` of the given kind."""
    if kind in CONSTANT:
        return [helper.make_node("Constant", [], [name], value_ints=[CONSTANT[kind]])]
    nodes = [helper.make_node("Shape", ["z"], [f"{name}0"])]
    for i, (op, other) in enumerate(SYMBOLIC[kind]):
        if op == "Sub":  # L - k
            nodes += [helper.make_node("Shape", ["x"], [f"{name}L"], start=1),
                      helper.make_node("Sub", [f"{name}L", f"{name}{i}"], [f"{name}{i + 1}"])]
        else:
            nodes.append(helper.make_node(op, [f"{name}{i}", other] if other else [f"{name}{i}"], [f"{name}{i + 1}"]))
    return [*nodes, helper.make_node("Identity", [f"{name}{len(SYMBOLIC[kind])}"], [name])]


def symbolic_slices() -> list[object]:
    rng = random.Random(SYMBOLIC_SEED)
    kinds = [*SYMBOLIC, *CONSTANT]
    combos = sorted({(rng.choice(kinds), rng.choice(kinds), rng.choice([1, 2, -1, -2])) for _ in range(40)})
    combos = [c for c in combos if c[0] in SYMBOLIC or c[1] in SYMBOLIC][:16]
    out = []
    for st, en, sp in [("k", "INT64MAX", 1), ("0", "k", 1), ("-k-1", "-INT64MAX", -1), ("-INT64MAX", "-k-1", -1),
                       *combos]:
        out.append(pytest.param((st, en, sp), id=f"{st}:{en}:{sp}"))
    return out


@pytest.mark.parametrize("sl", symbolic_slices())
def test_slice_with_bounds_from_a_shape_matches_onnxruntime(sl: tuple[str, str, int]) -> None:
    print(f"seed={SYMBOLIC_SEED}")
    st, en, sp = sl
    nodes = [*_bound_nodes("st", st), *_bound_nodes("en", en),
             helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])]
    inits = [const("one", [1]), const("ax", [1]), const("sp", [sp])]
    m = make_model(nodes, [tensor("x", [2, "L"]), tensor("z", ["k"])], [tensor("y", None)], inits)
    tally = sweep(m, [{"L": n, "k": k} for n in range(5) for k in range(4)])
    assert tally.rejected == 0, tally


# ----------------------------------------------------------------------------- broadcasting
DIMS = [1, 3, "n", "m"]
BROADCAST_SEED = 4242


def shapes_pairs() -> list[tuple[list[object], list[object]]]:
    rng = random.Random(BROADCAST_SEED)
    pairs: list[tuple[list[object], list[object]]] = []
    while len(pairs) < 24:
        a, b = ([rng.choice(DIMS) for _ in range(rng.randint(0, 3))] for _ in range(2))
        if a or b:  # two scalars have no dim to compare
            pairs.append((a, b))
    return pairs


@pytest.mark.parametrize("ab", shapes_pairs(), ids=lambda p: f"{p[0]}x{p[1]}".replace(" ", "").replace("'", ""))
def test_broadcast_matches_onnxruntime_at_every_size(ab: tuple[list[object], list[object]]) -> None:
    print(f"seed={BROADCAST_SEED}")
    a, b = ab
    m = make_model([helper.make_node("Add", ["a", "b"], ["y"])], [tensor("a", a), tensor("b", b)],
                   [tensor("y", None)])
    envs = [{"n": n, "m": k} for n, k in itertools.product((0, 1, 3, 4), repeat=2)]
    tally = sweep(m, envs)
    assert tally.checked >= 1, tally


# ---------------------------------------------------------------------------------- Reshape
TARGET_DIMS = [0, -1, 1, 2, 3, 6, 12]
RESHAPE_SEED = 99


def targets() -> list[list[int]]:
    rng = random.Random(RESHAPE_SEED)
    out: list[list[int]] = []
    while len(out) < 32:
        t = [rng.choice(TARGET_DIMS) for _ in range(rng.randint(1, 4))]
        if t.count(-1) <= 1 and all(d != 0 or i < 3 for i, d in enumerate(t)):
            out.append(t)
    return out


@pytest.mark.parametrize("target", targets(), ids=str)
def test_reshape_matches_onnxruntime_at_every_size(target: list[int]) -> None:
    print(f"seed={RESHAPE_SEED}")
    m = make_model([helper.make_node("Reshape", ["x", "t"], ["y"])], [tensor("x", ["a", "b", 6])],
                   [tensor("y", None)], [const("t", target)])
    envs = [{"a": a, "b": b} for a, b in itertools.product((0, 1, 2, 3, 4), repeat=2)]
    tally = sweep(m, envs)
    invalid = sum(onnx_reshape((e["a"], e["b"], 6), target) is None for e in envs)
    assert tally.rejected == invalid, (tally, invalid)  # onnxruntime refuses exactly the invalid sizes


def onnx_reshape(dims: tuple[int, ...], target: list[int]) -> tuple[int, ...] | None:
    """The ONNX Reshape result (0 copies the input dim, -1 takes the rest), or None if invalid."""
    out = [dims[i] if t == 0 else t for i, t in enumerate(target)]
    total, known = int(np.prod(dims)), int(np.prod([d for d in out if d != -1]))
    if -1 in out:
        if known == 0 or total % known:
            return None
        out[out.index(-1)] = total // known
    return tuple(out) if int(np.prod(out)) == total else None


# ------------------------------------------------------------------------------ Range, Pad
def _scalar(name: str, kind: str) -> list[onnx.NodeProto]:
    """An int64 scalar ``name``: a constant, n or m (lengths of the inputs nx, mx), n + 1, -n or n*m."""
    if kind in ("n", "m"):
        return [helper.make_node("Shape", [f"{kind}x"], [f"{name}_s"]),
                helper.make_node("Squeeze", [f"{name}_s"], [name])]
    if kind in ("n+1", "-n", "n*m"):
        op, args = {"n+1": ("Add", ["n", "one"]), "-n": ("Neg", ["n"]), "n*m": ("Mul", ["n", "m"])}[kind]
        parts = [p for a in args if a != "one" for p in _scalar(f"{name}_{a}", a)]
        return [*parts, helper.make_node(op, [f"{name}_{a}" if a != "one" else "one" for a in args], [name])]
    value = helper.make_tensor("v", onnx.TensorProto.INT64, [], [int(kind)])
    return [helper.make_node("Constant", [], [name], value=value)]


RANGE_SEED = 2718


def ranges() -> list[tuple[str, str, int]]:
    rng = random.Random(RANGE_SEED)
    kinds = ["0", "3", "n", "m", "n+1", "-n", "n*m"]
    return sorted({(rng.choice(kinds), rng.choice(kinds), rng.choice([1, 2, -1, -3])) for _ in range(30)})


@pytest.mark.parametrize("r", ranges(), ids=lambda r: f"{r[0]}:{r[1]}:{r[2]}")
def test_range_matches_onnxruntime_at_every_size(r: tuple[str, str, int]) -> None:
    print(f"seed={RANGE_SEED}")
    start, limit, delta = r
    nodes = [*_scalar("a", start), *_scalar("b", limit), *_scalar("d", str(delta)),
             helper.make_node("Range", ["a", "b", "d"], ["y"])]
    m = make_model(nodes, [tensor("nx", ["n"]), tensor("mx", ["m"])], [tensor("y", None, onnx.TensorProto.INT64)],
                   [const("one", 1)])
    tally = sweep(m, [{"n": n, "m": k} for n in range(5) for k in range(4)])
    assert tally.checked == 20, tally  # Range always runs, and its length is exact


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect"])
def test_pad_matches_onnxruntime_at_every_length(mode: str) -> None:
    total = Tally()
    for before, after in itertools.product(range(-2, 4), repeat=2):
        m = make_model([helper.make_node("Pad", ["x", "p"], ["y"], mode=mode)], [tensor("x", [2, "L"])],
                       [tensor("y", None)], [const("p", [0, before, 0, after])])
        total += sweep(m, [{"L": n} for n in range(7)])
    assert total.checked >= 120, total  # reflect refuses pads as large as the axis
