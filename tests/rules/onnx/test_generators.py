"""Generators and signal ops against onnxruntime: RandomNormal/RandomUniform, Multinomial, the
window functions with a size read from a shape, MelWeightMatrix, DFT (axis input, onesided,
inverse, dft_length that pads or truncates) and STFT (window, frame_length, frame_step).
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.oracle import array, const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I32, I64 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64
node = helper.make_node
N = [{"n": 8}, {"n": 1}, {"n": 5}, {"n": 0}]


def size_of(x: str, out: str) -> list[helper.NodeProto]:
    """``out`` = the length of 1-D ``x`` as an int64 scalar."""
    return [node("Shape", [x], [f"{out}_1"]), node("Squeeze", [f"{out}_1"], [out])]


GENERATORS = [
    row("RandomNormal-shape-attr", [node("RandomNormal", [], ["r"], shape=[2, 0, 3]), node("Shape", ["x"], ["y"])],
        [tensor("x", ["n"])], N),
    row("RandomUniform-float64", [node("RandomUniform", [], ["r"], shape=[4, 1], dtype=TensorProto.DOUBLE),
                                  node("Shape", ["x"], ["y"])], [tensor("x", ["n"])], N),
    row("Multinomial-sample_size3-int64", [node("Multinomial", ["p"], ["y"], sample_size=3, dtype=I64)],
        [tensor("p", ["b", 4])], [{"b": 2}, {"b": 1}, {"b": 3}]),  # onnxruntime: batch >= 1
    *[row(f"{op}-periodic{p}-size-from-shape", [*size_of("x", "n"), node(op, ["n"], ["y"], periodic=p)],
          [tensor("x", ["n"])], N) for op, p in [("HannWindow", 1), ("HammingWindow", 0), ("BlackmanWindow", 1)]],
    row("HannWindow-int32-size-double-output", [*size_of("x", "n64"), node("Cast", ["n64"], ["n"], to=I32),
                                                node("HannWindow", ["n"], ["y"], output_datatype=TensorProto.DOUBLE)],
        [tensor("x", ["n"])], N),
    row("BlackmanWindow-runtime-size-shared-by-HannWindow", [node("BlackmanWindow", ["n"], ["b"]),
                                                              node("HannWindow", ["n"], ["h"]),
                                                              node("Add", ["b", "h"], ["y"])],
        [tensor("n", [], I64)], [{"n": np.array(5)}, {"n": np.array(1)}, {"n": np.array(0)}],
        inexact="the size is the value of a runtime input: a data symbol (one, shared by both windows)"),
    row("MelWeightMatrix-dft-length-from-shape", [*size_of("x", "dlen"),
                                                  node("MelWeightMatrix", ["bins", "dlen", "rate", "lo", "hi"], ["y"])],
        [tensor("x", ["n"])], [{"n": 64}, {"n": 9}, {"n": 16}],
        [const("bins", 5), const("rate", 8000), array("lo", np.array(0.0, np.float32)),
         array("hi", np.array(2000.0, np.float32))]),
]

SIG = [{"b": 2, "n": 8}, {"b": 1, "n": 1}, {"b": 3, "n": 5}, {"b": 0, "n": 4}]
DFT = [
    row("DFT-axis-input-neg2-full", [node("DFT", ["x", "", "ax"], ["y"])], [tensor("x", ["b", "n", 2])], SIG,
        [const("ax", -2)]),
    row("DFT-onesided-axis1-odd-and-even", [node("DFT", ["x", "", "ax"], ["y"], onesided=1)],
        [tensor("x", ["b", "n", 1])], SIG, [const("ax", 1)]),
    row("DFT-inverse-complex", [node("DFT", ["x", "", "ax"], ["y"], inverse=1)], [tensor("x", ["b", "n", 2])], SIG,
        [const("ax", 1)]),
    row("DFT-dft_length-pads", [node("DFT", ["x", "len", "ax"], ["y"])], [tensor("x", ["b", "n", 1])],
        [s for s in SIG if s["n"] <= 10], [const("len", 10), const("ax", 1)]),
    row("DFT-dft_length-truncates-onesided", [node("DFT", ["x", "len", "ax"], ["y"], onesided=1)],
        [tensor("x", ["b", "n", 1])], [s for s in SIG if s["n"] >= 3], [const("len", 3), const("ax", 1)]),
    row("DFT-dft_length-from-shape", [*size_of("w", "len"), node("DFT", ["x", "len", "ax"], ["y"])],
        [tensor("x", ["b", "n", 2]), tensor("w", ["m"])],
        [{"b": 2, "n": 8, "m": 5}, {"b": 1, "n": 1, "m": 1}, {"b": 3, "n": 4, "m": 7}], [const("ax", 1)]),
    row("DFT-opset17-axis-attr", [node("DFT", ["x"], ["y"], axis=1, onesided=1)], [tensor("x", ["b", "n", 1])], SIG,
        opset=17),
    row("STFT-window-step2-onesided", [node("STFT", ["x", "step", "win"], ["y"])],
        [tensor("x", ["b", "n", 1]), tensor("win", ["w"])],
        [{"b": 2, "n": 16, "w": 4}, {"b": 1, "n": 4, "w": 4}, {"b": 1, "n": 9, "w": 1}, {"b": 0, "n": 7, "w": 3}],
        [const("step", 2)]),
    row("STFT-frame_length-complex-two-sided", [node("STFT", ["x", "step", "", "flen"], ["y"], onesided=0)],
        [tensor("x", ["b", "n", 2])], [s for s in SIG if s["n"] >= 3] + [{"b": 1, "n": 3}],
        [const("step", 3), const("flen", 3)]),
    row("STFT-step-from-shape", [*size_of("z", "step"), node("STFT", ["x", "step", "", "flen"], ["y"])],
        [tensor("x", ["b", "n", 1]), tensor("z", ["k"])],
        [{"b": 2, "n": 10, "k": 3}, {"b": 1, "n": 4, "k": 1}, {"b": 1, "n": 7, "k": 5}], [const("flen", 4)]),
]

ROWS = GENERATORS + DFT


@pytest.mark.parametrize("r", GENERATORS)
def test_generators_and_windows(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", DFT)
def test_dft_and_stft(r: Row) -> None:
    run_row(r)
