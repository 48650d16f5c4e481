"""Issue 14's exporter idioms (classes 1 and 3, truncating Div), each a hand-built ONNX program
checked against onnxruntime at three ordinary sizes and the edge sizes (every dim at 1, at 0
where legal, and around each clamp), with no guard where the exact answer exists.

Each program is ``PROGRAMS[name] = (nodes, initializers, samples)`` over ``x: [b, seq]``; the
answer must be exact (`assert_exact`: every dim and tracked element in the input symbols) and
guard-free, except the float rows, whose one guard is the float32 limit on ``seq``.
``test_ordinary_ranges_print_the_symbol`` pins what a user reads once ``--dim`` gives a range.
"""

from __future__ import annotations

from collections.abc import Sequence

import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from tests.oracle import assert_exact, check, const, make_model, tensor

N = helper.make_node
BIG = 2**63 - 1
F, I64 = TensorProto.FLOAT, TensorProto.INT64
ORDINARY = [{"b": 2, "seq": 7}, {"b": 3, "seq": 64}, {"b": 1, "seq": 513}]
EDGES = [{"b": 1, "seq": 1}, {"b": 0, "seq": 2}, {"b": 2, "seq": 0}, {"b": 1, "seq": 3}]
AROUND_1000 = [{"b": 1, "seq": s} for s in (999, 1000, 1001)]
SAMPLES = ORDINARY + EDGES
SEQ = [N("Shape", ["x"], ["shp"]), N("Gather", ["shp", "one"], ["L"])]  # L = seq (a scalar)
COMMON = [const("one", 1), const("zero1", [0]), const("one1", [1]), const("big", [BIG]), const("mbig", [-BIG])]


def vec(scalar: str, out: str) -> onnx.NodeProto:
    return N("Unsqueeze", [scalar, "zero1"], [out])


Program = tuple[list[onnx.NodeProto], list[onnx.TensorProto], list[dict[str, int]]]
PROGRAMS: dict[str, Program] = {
    "head-1000": ([N("Slice", ["x", "zero1", "e", "one1"], ["y"])], [const("e", [1000])], SAMPLES + AROUND_1000),
    "last-3": ([N("Slice", ["x", "s", "big", "one1"], ["y"])], [const("s", [-3])], SAMPLES),
    "reversed-step-2": ([N("Slice", ["x", "big", "mbig", "one1", "m2"], ["y"])], [const("m2", [-2])], SAMPLES),
    "reversed-from-2": ([N("Slice", ["x", "two", "mbig", "one1", "m1"], ["y"])],
                        [const("two", [2]), const("m1", [-1])], SAMPLES),
    "reverse-to-INT64MAX-end": ([N("Slice", ["x", "m1", "big", "one1", "m1"], ["y"])], [const("m1", [-1])], SAMPLES),
    "start-minus-floor-seq-over-3": ([*SEQ, N("Div", ["L", "three"], ["q"]), N("Neg", ["q"], ["nq"]), vec("nq", "st"),
                                      N("Slice", ["x", "st", "big", "one1"], ["y"])], [const("three", 3)], SAMPLES),
    "start-minus-seq": ([*SEQ, N("Neg", ["L"], ["nl"]), vec("nl", "st"), N("Slice", ["x", "st", "big", "one1"], ["y"])],
                        [], SAMPLES),
    "end-shape-plus-1": ([N("Shape", ["x"], ["s"]), N("Add", ["s", "one"], ["e"]),
                          N("Slice", ["x", "zz", "e"], ["y"])], [const("zz", [0, 0])], SAMPLES),
    "min-max-of-dims": ([*SEQ, N("Gather", ["shp", "zero"], ["B"]), N("Min", ["L", "B"], ["m"]),
                         N("Max", ["L", "c4"], ["mx"]), vec("m", "mv"), vec("mx", "mxv"),
                         N("Concat", ["mv", "mxv"], ["t"], axis=0), N("ConstantOfShape", ["t"], ["y"])],
                        [const("zero", 0), const("c4", 4)], SAMPLES),
    "trunc-div-of-seq-minus-1": ([*SEQ, N("Sub", ["L", "one"], ["h"]), N("Div", ["h", "two"], ["q"]),
                                  N("Add", ["q", "one"], ["r"]), vec("r", "rv"), N("ConstantOfShape", ["rv"], ["y"])],
                                 [const("two", 2)], SAMPLES),
    "trunc-div-of-seq-minus-5-and-fmod": ([*SEQ, N("Sub", ["L", "five"], ["h"]), N("Div", ["h", "two"], ["q"]),
                                           N("Mod", ["h", "three"], ["r"], fmod=1), N("Mod", ["h", "three"], ["f"]),
                                           N("Concat", ["q", "r", "f"], ["y"], axis=0)],
                                          [const("five", [5]), const("two", [2]), const("three", [3])], SAMPLES),
    "float-ceil-patch-grid": ([*SEQ, N("Cast", ["L"], ["fl"], to=F), N("Div", ["fl", "sixteen"], ["d"]),
                               N("Ceil", ["d"], ["c"]), N("Mul", ["c", "sixteen"], ["p"]),
                               N("Cast", ["p"], ["pi"], to=I64), vec("pi", "pv"), N("ConstantOfShape", ["pv"], ["y"])],
                              [helper.make_tensor("sixteen", F, [], [16.0])], SAMPLES),
    "float-floor-scale-half": ([*SEQ, N("Cast", ["L"], ["fl"], to=F), N("Mul", ["fl", "half"], ["d"]),
                                N("Floor", ["d"], ["c"]), N("Cast", ["c"], ["ci"], to=I64), vec("ci", "cv"),
                                N("ConstantOfShape", ["cv"], ["y"])], [helper.make_tensor("half", F, [], [0.5])],
                               SAMPLES),
    "float-div-by-3-truncating-cast": ([*SEQ, N("Cast", ["L"], ["fl"], to=F), N("Div", ["fl", "three"], ["d"]),
                                        N("Cast", ["d"], ["ci"], to=I64), vec("ci", "cv"),
                                        N("ConstantOfShape", ["cv"], ["y"])],
                                       [helper.make_tensor("three", F, [], [3.0])], SAMPLES),
}
FLOAT = {"float-ceil-patch-grid", "float-floor-scale-half", "float-div-by-3-truncating-cast"}


def model(name: str) -> onnx.ModelProto:
    nodes, inits, _ = PROGRAMS[name]
    return make_model(nodes, [tensor("x", ["b", "seq"])], ["y"], [*COMMON, *inits])


def analyzed(name: str, facts: Sequence[str] = ()) -> Analysis:
    return analyze_onnx(model(name), facts=list(facts))


@pytest.mark.parametrize("name", PROGRAMS)
def test_idiom_is_exact_at_ordinary_and_edge_sizes(name: str) -> None:
    report = assert_exact(check(model(name), PROGRAMS[name][2]))
    analysis = report.analysis
    assert not analysis.warnings, [w.message for w in analysis.warnings]
    guards = [g[0] for g in analysis.guards()]
    if name in FLOAT:  # the float32 limit, stated on the size
        assert guards and all("16777216" in g for g in guards), guards
    else:
        assert guards == []


RANGED = [
    ("head-1000", ["seq <= 512"], "seq"),
    ("head-1000", ["seq >= 1000"], "1000"),
    ("head-1000", [], "Min(1000, seq)"),
    ("last-3", ["seq >= 3"], "3"),
    ("last-3", [], "Min(3, seq)"),
    ("reversed-from-2", [], "Min(3, seq)"),
    ("reverse-to-INT64MAX-end", [], "seq"),
    ("end-shape-plus-1", [], "seq"),
    ("start-minus-seq", [], "seq"),
    ("start-minus-floor-seq-over-3", ["seq >= 3"], "floor(seq/3)"),
    ("float-floor-scale-half", ["seq <= 4096"], "floor(seq/2)"),
]


@pytest.mark.parametrize(("name", "facts", "dim"), RANGED, ids=[f"{r[0]}{r[1]}" for r in RANGED])
def test_ordinary_ranges_print_the_symbol(name: str, facts: list[str], dim: str) -> None:
    """A clamp reads as the symbol once its range decides it (``--dim seq=..512``)."""
    shape = analyzed(name, facts).shape("y")
    assert shape is not None
    assert str(shape[-1]) == dim


def test_float_guard_disappears_under_a_range() -> None:
    """``seq <= 4096`` keeps every float32 value exact: no guard is left."""
    assert analyzed("float-ceil-patch-grid", ["seq <= 4096"]).guards() == []
