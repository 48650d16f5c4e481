"""A seeded sweep over the attribute space of the sliding-window ops (MaxPool, AveragePool,
LpPool, Conv, ConvTranspose), each on a 1-D input of symbolic length ``L`` run by onnxruntime at
every ``L`` from 0 to 11.

At each length where onnxruntime runs and every listed guard holds, every dim must equal the
observed one and every fact must hold (`assert_exact`); where a guard is false, the analysis
made no claim. A length onnxruntime rejects is skipped, but the sweep must check most samples,
so it cannot pass by skipping. The attributes are drawn with a printed seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import onnx
import pytest
from onnx import helper

from symshape.api import analyze_onnx
from symshape.expr import evaluate
from symshape.result import Analysis
from tests.oracle import array, assert_exact, check, make_model, tensor

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
        ok = {">=": a >= b, "<=": a <= b, "==": a == b, "!=": a != b, "<": a < b}.get(g.rel)
        if not ok:
            return False
    return True


def sweep(w: Window) -> tuple[int, int, int]:
    """(checked, guarded, rejected) samples; raises on any refuted claim."""
    m = model_of(w)
    analysis = analyze_onnx(m)
    checked = guarded = rejected = 0
    if analysis.shape("y") is None:  # the rule gave up (e.g. ONNX and onnxruntime disagree): no claim
        assert analysis.warnings
        return 0, 0, len(LENGTHS)
    for n in LENGTHS:
        env = {"L": n}
        try:
            report = check(m, [env], analysis=analysis)
        except Exception as err:  # onnxruntime's own exception types are not importable by name
            if "ONNXRuntimeError" not in str(err):
                raise
            rejected += 1  # onnxruntime rejects this length: nothing to compare
            continue
        if not guards_hold(analysis, env):
            guarded += 1
            continue
        assert_exact(report)
        checked += 1
    return checked, guarded, rejected


@pytest.mark.parametrize("w", windows(), ids=str)
def test_window_op_matches_onnxruntime_at_every_length(w: Window) -> None:
    print(f"seed={SEED}")
    checked, guarded, rejected = sweep(w)
    assert checked >= 3, f"only {checked} lengths checked ({guarded} guarded, {rejected} rejected)"
