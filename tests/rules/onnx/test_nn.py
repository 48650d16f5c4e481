"""Window, linear-algebra and resampling ops against onnxruntime: Conv and its variants,
ConvTranspose (output_padding, output_shape, auto_pad), pooling (ceil_mode, dilations, pads),
MaxUnpool, MatMul/Gemm/Einsum, Pad modes and negative pads, Resize/Upsample, and the ROI, grid
and Col2Im ops. These rows add edge sizes (batch 0, spatial 1) and attribute combinations that
tests/rules/onnx/test_conv.py does not run.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.oracle import array, const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I64, U8 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.UINT8
node = helper.make_node
X3 = [tensor("x", ["n", 3, "h", "w"])]
NHW = [{"n": 2, "h": 7, "w": 10}, {"n": 1, "h": 1, "w": 1}, {"n": 0, "h": 5, "w": 3}, {"n": 1, "h": 4, "w": 9}]
BIG_ENOUGH = [{"n": 2, "h": 7, "w": 10}, {"n": 1, "h": 5, "w": 5}, {"n": 0, "h": 6, "w": 8}, {"n": 3, "h": 9, "w": 6}]


def wt(name: str, *dims: int, dtype: type = np.float32) -> TensorProto:
    return array(name, np.full(dims, 0.25 if dtype == np.float32 else 1, dtype))


def f32(name: str, *values: float) -> TensorProto:
    return array(name, np.array(values, np.float32))


CONV = [
    row("Conv-1x1-batch0-spatial1", [node("Conv", ["x", "k"], ["y"])], X3, NHW, [wt("k", 4, 3, 1, 1)]),
    row("Conv-same_upper-stride2-even-kernel", [node("Conv", ["x", "k"], ["y"], auto_pad="SAME_UPPER", strides=[2, 2])],
        X3, NHW, [wt("k", 2, 3, 4, 2)]),
    row("Conv-dilated2-stride2-pads2", [node("Conv", ["x", "k"], ["y"], strides=[2, 2], dilations=[2, 2],
                                             pads=[2, 2, 2, 2])], X3, NHW, [wt("k", 2, 3, 3, 3)]),
    row("Conv-same_lower-stride3-even-kernel", [node("Conv", ["x", "k"], ["y"], auto_pad="SAME_LOWER", strides=[3, 1])],
        X3, NHW, [wt("k", 2, 3, 2, 4)]),
    row("Conv-asymmetric-pads-stride2-k3", [node("Conv", ["x", "k", "b"], ["y"], pads=[2, 0, 0, 1], strides=[2, 2])],
        X3, [{"n": 2, "h": 7, "w": 10}, {"n": 1, "h": 1, "w": 2}, {"n": 0, "h": 3, "w": 5}],
        [wt("k", 2, 3, 3, 3), wt("b", 2)]),
    row("Conv-depthwise-group3", [node("Conv", ["x", "k"], ["y"], group=3, pads=[1, 1, 1, 1])], X3, NHW,
        [wt("k", 6, 1, 3, 3)]),
    row("Conv-1d-dilation3-stride2", [node("Conv", ["x", "k"], ["y"], dilations=[3], strides=[2])],
        [tensor("x", ["n", 2, "l"])], [{"n": 1, "l": 7}, {"n": 0, "l": 8}, {"n": 2, "l": 13}], [wt("k", 1, 2, 3)]),
    row("ConvInteger-same_upper", [node("ConvInteger", ["x", "k"], ["y"], auto_pad="SAME_UPPER", strides=[2, 2])],
        [tensor("x", ["n", 3, "h", "w"], U8)], NHW, [wt("k", 2, 3, 3, 3, dtype=np.uint8)]),
    row("QLinearConv-valid-stride2",
        [node("QLinearConv", ["x", "s", "z", "k", "s", "z", "s", "z"], ["y"], auto_pad="VALID", strides=[2, 2])],
        [tensor("x", ["n", 3, "h", "w"], U8)], BIG_ENOUGH,
        [wt("k", 2, 3, 3, 3, dtype=np.uint8), array("s", np.array(0.5, np.float32)),
         array("z", np.array(1, np.uint8))]),
    row("DeformConv-k2-no-pads", [node("DeformConv", ["x", "k", "off"], ["y"])],
        [*X3, tensor("off", ["n", 8, "oh", "ow"])],
        [{"n": 1, "h": 3, "w": 4, "oh": 2, "ow": 3}, {"n": 2, "h": 2, "w": 2, "oh": 1, "ow": 1}],
        [wt("k", 2, 3, 2, 2)], opset=19),
    row("Conv-3d-group2-asymmetric-pads", [node("Conv", ["x", "k"], ["y"], group=2, strides=[1, 2, 3],
                                                pads=[0, 1, 2, 1, 0, 0])],
        [tensor("x", ["n", 4, "d", "h", "w"])],
        [{"n": 1, "d": 2, "h": 3, "w": 4}, {"n": 0, "d": 3, "h": 2, "w": 5}, {"n": 2, "d": 5, "h": 7, "w": 1}],
        [wt("k", 4, 2, 2, 3, 3)]),
    row("FusedConv-com.microsoft-relu", [node("FusedConv", ["x", "k", "b"], ["y"], domain="com.microsoft",
                                              activation="Relu", strides=[2, 2], pads=[1, 1, 1, 1])], X3,
        NHW, [wt("k", 4, 3, 3, 3), wt("b", 4)], outputs=[tensor("y", None)]),
]

CONV_TRANSPOSE = [
    row("ConvTranspose-output_padding-dilation", [node("ConvTranspose", ["x", "k"], ["y"], strides=[3, 2],
                                                       dilations=[2, 1], output_padding=[2, 1])], X3, NHW,
        [wt("k", 3, 2, 3, 3)]),
    row("ConvTranspose-output_shape-with-pads-computed", [node("ConvTranspose", ["x", "k"], ["y"], strides=[2, 2],
                                                               output_shape=[9, 12])], X3,
        [{"n": 2, "h": 4, "w": 6}, {"n": 0, "h": 5, "w": 5}], [wt("k", 3, 2, 3, 3)]),
    row("ConvTranspose-same_lower-group3", [node("ConvTranspose", ["x", "k"], ["y"], group=3, strides=[2, 3],
                                                 auto_pad="SAME_LOWER")], X3, NHW, [wt("k", 3, 1, 3, 3)]),
    row("ConvTranspose-kernel_shape-attr-output_shape-same_upper",
        [node("ConvTranspose", ["x", "k"], ["y"], kernel_shape=[3, 3], strides=[2, 2], output_shape=[7, 6],
              auto_pad="SAME_UPPER")], X3, [{"n": 1, "h": 3, "w": 3}, {"n": 0, "h": 4, "w": 3}], [wt("k", 3, 2, 3, 3)]),
    row("ConvTranspose-1d-asymmetric-pads", [node("ConvTranspose", ["x", "k", "b"], ["y"], strides=[2], pads=[1, 2])],
        [tensor("x", ["n", 2, "l"])], [{"n": 1, "l": 2}, {"n": 0, "l": 5}, {"n": 3, "l": 8}],
        [wt("k", 2, 5, 4), wt("b", 5)]),
]

POOL = [
    row("MaxPool-ceil-dilated-pads", [node("MaxPool", ["x"], ["y", "i"], kernel_shape=[2, 3], strides=[2, 2],
                                           dilations=[2, 1], pads=[1, 1, 1, 0], ceil_mode=1)], X3,
        [{"n": 2, "h": 7, "w": 10}, {"n": 1, "h": 2, "w": 2}, {"n": 0, "h": 5, "w": 3}, {"n": 1, "h": 4, "w": 9}]),
    row("MaxPool-3d-ceil", [node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2, 2], strides=[2, 2, 2], ceil_mode=1)],
        [tensor("x", ["n", 1, "d", "h", "w"])],
        [{"n": 1, "d": 3, "h": 5, "w": 2}, {"n": 2, "d": 2, "h": 2, "w": 7}, {"n": 0, "d": 4, "h": 3, "w": 3}]),
    row("AveragePool-ceil-last-window-in-padding", [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3],
                                                         strides=[3, 3], pads=[1, 1, 2, 2], ceil_mode=1)], X3,
        [{"n": 2, "h": 7, "w": 10}, {"n": 1, "h": 1, "w": 2}, {"n": 0, "h": 4, "w": 3}, {"n": 1, "h": 6, "w": 9}]),
    row("AveragePool-opset19-dilations-ceil", [node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 1],
                                                    dilations=[2, 2], ceil_mode=1)], X3,
        [s for s in NHW if min(s["h"], s["w"]) >= 3], opset=19),
    row("MaxPool-storage_order1-same_lower-ceil", [node("MaxPool", ["x"], ["y", "i"], kernel_shape=[3, 2],
                                                        strides=[2, 3], auto_pad="SAME_LOWER", ceil_mode=1,
                                                        storage_order=1)], X3, NHW),
    row("AveragePool-floor-window-fits", [node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], strides=[1, 2])],
        X3, [s for s in NHW if min(s["h"], s["w"]) >= 2]),
    row("LpPool-p1-pads-stride", [node("LpPool", ["x"], ["y"], kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 1, 1],
                                       p=1)], X3, [s for s in NHW if s["w"] >= 1]),
    row("MaxUnpool-after-strided-pool", [node("MaxPool", ["x"], ["p", "i"], kernel_shape=[3, 3], strides=[2, 2],
                                              pads=[1, 1, 1, 1]),
                                         node("Shape", ["x"], ["s"]),
                                         node("MaxUnpool", ["p", "i", "s"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                                              pads=[1, 1, 1, 1])], X3,
        [{"n": 2, "h": 7, "w": 10}, {"n": 1, "h": 1, "w": 1}, {"n": 1, "h": 4, "w": 9}]),
]

MK = [{"b": 2, "m": 3, "k": 4, "n": 5}, {"b": 1, "m": 1, "k": 1, "n": 1}, {"b": 0, "m": 2, "k": 3, "n": 2},
      {"b": 3, "m": 0, "k": 2, "n": 4}, {"b": 2, "m": 2, "k": 0, "n": 3}]
LINALG = [
    row("MatMul-1d-by-2d", [node("MatMul", ["a", "c"], ["y"])], [tensor("a", ["k"]), tensor("c", ["k", "n"])], MK),
    row("MatMul-2d-by-1d", [node("MatMul", ["a", "c"], ["y"])], [tensor("a", ["m", "k"]), tensor("c", ["k"])], MK),
    row("MatMul-1d-by-1d", [node("MatMul", ["a", "c"], ["y"])], [tensor("a", ["k"]), tensor("c", ["k"])], MK),
    row("MatMul-batch-broadcast-[b,1,m,k]x[3,k,n]", [node("MatMul", ["a", "c"], ["y"])],
        [tensor("a", ["b", 1, "m", "k"]), tensor("c", [3, "k", "n"])], MK),
    row("MatMul-1d-by-3d", [node("MatMul", ["a", "c"], ["y"])], [tensor("a", ["k"]), tensor("c", ["b", "k", "n"])],
        MK),
    row("MatMulInteger-3d", [node("MatMulInteger", ["a", "c"], ["y"])], [tensor("a", ["b", "m", "k"], U8),
                                                                         tensor("c", ["k", "n"], U8)], MK),
    row("QLinearMatMul-2d", [node("QLinearMatMul", ["a", "s", "z", "c", "s", "z", "s", "z"], ["y"])],
        [tensor("a", ["m", "k"], U8), tensor("c", ["k", "n"], U8)], MK,
        [array("s", np.array(0.5, np.float32)), array("z", np.array(1, np.uint8))]),
    row("Gemm-transA-transB-scalar-bias", [node("Gemm", ["a", "c", "d"], ["y"], transA=1, transB=1)],
        [tensor("a", ["k", "m"]), tensor("c", ["n", "k"]), tensor("d", [])], MK),
    row("Gemm-bias-row[n]", [node("Gemm", ["a", "c", "d"], ["y"], alpha=2.0)],
        [tensor("a", ["m", "k"]), tensor("c", ["k", "n"]), tensor("d", ["n"])], MK),
    row("MatMul-4d-broadcast-both-sides", [node("MatMul", ["a", "c"], ["y"])],
        [tensor("a", ["b", 1, "m", "k"]), tensor("c", [1, 2, "k", "n"])], MK),
    row("Gemm-bias-column[m,1]-transB", [node("Gemm", ["a", "c", "d"], ["y"], transB=1, beta=0.5)],
        [tensor("a", ["m", "k"]), tensor("c", ["n", "k"]), tensor("d", ["m", 1])], MK),
    row("Gemm-no-bias-transA", [node("Gemm", ["a", "c"], ["y"], transA=1)],
        [tensor("a", ["k", "m"]), tensor("c", ["k", "n"])], MK),
]


def _eq_id(eq: str) -> str:
    """An id pytest -k can select: ``ij,jk->ik`` becomes ``ij_jk-to-ik``."""
    return eq.replace("...", "ellipsis").replace(",", "_").replace("->", "-to-")


EINSUM = [
    row(f"Einsum-{_eq_id(eq)}", [node("Einsum", [f"in{i}" for i in range(len(shapes))], ["y"], equation=eq)],
        [tensor(f"in{i}", s) for i, s in enumerate(shapes)], samples)
    for eq, shapes, samples in [
        ("ij,jk->ik", [["m", "k"], ["k", "n"]], MK),
        ("bij->bji", [["b", "m", "k"]], MK),
        ("ii->i", [["k", "k"]], MK),
        ("ij->", [["m", "k"]], MK),
        ("ij,jk", [["m", "k"], ["k", "n"]], MK),  # implicit output: labels in alphabetical order
        ("i,j->ij", [["m"], ["n"]], MK),
        ("...ij,...jk->...ik", [["b", "m", "k"], ["b", "k", "n"]], MK),
        # onnxruntime 1.32 dies of a floating point exception on these three when a summed label is 0
        ("bhqd,bhkd->bhqk", [["b", 2, "m", "k"], ["b", 2, "n", "k"]], [s for s in MK if s["b"] and s["k"]]),
        ("b...,b->...", [["b", "m", "n"], ["b"]], [s for s in MK if s["b"]]),
        ("ij,kj->ik", [["m", "k"], ["n", "k"]], [s for s in MK if s["k"]]),
        ("ij,ij->i", [["m", "k"], ["m", "k"]], MK),
        ("i,i->", [["k"], ["k"]], MK),
        ("bhwc->bchw", [["b", "m", "n", 3]], MK),
    ]
]

PAD = [
    row("Pad-constant-value-input", [node("Pad", ["x", "p", "v"], ["y"])], X3, NHW,
        [const("p", [0, 0, 1, 2, 1, 0, 3, 0]), f32("v", 1.5)]),
    row("Pad-edge", [node("Pad", ["x", "p"], ["y"], mode="edge")], X3, [s for s in NHW if s["n"]],
        [const("p", [0, 0, 2, 1, 0, 0, 0, 3])]),
    row("Pad-reflect-needs-room", [node("Pad", ["x", "p"], ["y"], mode="reflect")], X3, BIG_ENOUGH,
        [const("p", [0, 0, 2, 1, 0, 0, 3, 4])]),
    row("Pad-negative-crops", [node("Pad", ["x", "p"], ["y"])], X3, BIG_ENOUGH,
        [const("p", [0, 0, -1, 2, 0, 0, -2, -3])]),
    row("Pad-axes-negative-opset18", [node("Pad", ["x", "p", "", "a"], ["y"])], X3, NHW,
        [const("p", [1, 2, 3, 4]), const("a", [-1, -2])]),
    row("Pad-edge-axes-1d", [node("Pad", ["x", "p", "", "a"], ["y"], mode="edge")], [tensor("x", ["n", "l"])],
        [{"n": 2, "l": 3}, {"n": 1, "l": 1}, {"n": 0, "l": 4}], [const("p", [3, 1]), const("a", [1])]),
    row("Pad-batch-axis", [node("Pad", ["x", "p", "", "a"], ["y"])], X3, NHW, [const("p", [1, 0]), const("a", [0])]),
    row("CenterCropPad-crop-and-pad", [node("CenterCropPad", ["x", "t"], ["y"], axes=[-2, -1])], X3, NHW,
        [const("t", [3, 6])]),
]

RESIZE = [
    row("Resize-nearest-scales-2x-half", [node("Resize", ["x", "", "sc"], ["y"])], X3, NHW,
        [f32("sc", 1.0, 1.0, 2.0, 0.5)]),
    row("Resize-linear-scale-1.5", [node("Resize", ["x", "", "sc"], ["y"], mode="linear")], X3, NHW,
        [f32("sc", 1.0, 1.0, 1.5, 1.5)]),
    row("Resize-cubic-align_corners-scale-3", [node("Resize", ["x", "", "sc"], ["y"], mode="cubic",
                                                    coordinate_transformation_mode="align_corners")], X3,
        [s for s in NHW if s["n"]], [f32("sc", 1.0, 1.0, 3.0, 0.25)]),
    row("Resize-opset18-axes-scales", [node("Resize", ["x", "", "sc"], ["y"], axes=[3, -2])], X3, NHW,
        [f32("sc", 0.5, 2.0)]),
    row("Resize-sizes-static-axes", [node("Resize", ["x", "", "", "sz"], ["y"], mode="linear", axes=[2, 3])], X3, NHW,
        [const("sz", [8, 4])]),
    row("Resize-sizes-not_smaller-static-input", [node("Resize", ["x", "", "", "sz"], ["y"], axes=[2, 3],
                                                       keep_aspect_ratio_policy="not_smaller")],
        [tensor("x", ["n", 3, 6, 9])], [{"n": 1}, {"n": 0}, {"n": 2}], [const("sz", [4, 4])]),
    row("Resize-scale-4/3-float32", [node("Resize", ["x", "", "sc"], ["y"])], X3, NHW,
        [f32("sc", 1.0, 1.0, 4.0 / 3.0, 0.75)]),
    row("Resize-nearest-floor-asymmetric-scale-0.5", [node("Resize", ["x", "", "sc"], ["y"], nearest_mode="floor",
                                                           coordinate_transformation_mode="asymmetric")], X3, NHW,
        [f32("sc", 1.0, 1.0, 0.5, 0.5)]),
    row("Resize-tf_crop_and_resize-roi-sizes-axes", [node("Resize", ["x", "roi", "", "sz"], ["y"], mode="linear",
                                                          coordinate_transformation_mode="tf_crop_and_resize",
                                                          axes=[2, 3])], X3,
        NHW, [f32("roi", 0.1, 0.2, 0.9, 0.8), const("sz", [5, 2])]),
    row("Resize-opset18-antialias-linear-downsample", [node("Resize", ["x", "", "sc"], ["y"], mode="linear",
                                                            antialias=1)], X3, NHW, [f32("sc", 1.0, 1.0, 0.5, 0.25)]),
    row("Resize-opset13-sizes-with-empty-roi-scales", [node("Resize", ["x", "", "", "sz"], ["y"])], X3,
        [s for s in NHW if s["n"] == 1], [const("sz", [1, 3, 2, 9])], opset=13),
    row("Upsample-opset7-nearest-attr", [node("Upsample", ["x"], ["y"], scales=[1.0, 1.0, 3.0, 2.0])], X3, NHW,
        opset=7),
    row("Upsample-opset9-scales-input", [node("Upsample", ["x", "sc"], ["y"], mode="linear")], X3, NHW,
        [f32("sc", 1.0, 1.0, 2.0, 3.0)], opset=9),
]

ROI_GRID = [
    row("RoiAlign-avg-sampling2", [node("RoiAlign", ["x", "r", "bi"], ["y"], output_height=2, output_width=5,
                                        sampling_ratio=2, mode="max")],
        [*X3, tensor("r", ["k", 4]), tensor("bi", ["k"], I64)],
        [{"n": 1, "h": 4, "w": 4, "k": 3}, {"n": 2, "h": 1, "w": 1, "k": 1}, {"n": 1, "h": 5, "w": 6, "k": 0}],
        feed=lambda name, shape, dt: np.zeros(shape, dt)),
    row("MaxRoiPool-1x1", [node("MaxRoiPool", ["x", "r"], ["y"], pooled_shape=[1, 1])],
        [*X3, tensor("r", ["k", 5])], [{"n": 1, "h": 4, "w": 4, "k": 3}, {"n": 2, "h": 1, "w": 1, "k": 1}],
        feed=lambda name, shape, dt: np.zeros(shape, dt)),
    row("GridSample-nearest-zeros", [node("GridSample", ["x", "g"], ["y"], mode="nearest")],
        [*X3, tensor("g", ["n", "gh", "gw", 2])],
        [{"n": 1, "h": 4, "w": 4, "gh": 3, "gw": 1}, {"n": 2, "h": 1, "w": 1, "gh": 1, "gw": 5},
         {"n": 0, "h": 2, "w": 3, "gh": 2, "gw": 2}]),
    row("AffineGrid-3d", [node("Shape", ["th"], ["n"], end=1), node("Concat", ["n", "cdhw"], ["sz"], axis=0),
                          node("AffineGrid", ["th", "sz"], ["y"], align_corners=1)], [tensor("th", ["n", 3, 4])],
        [{"n": 1}, {"n": 3}, {"n": 0}], [const("cdhw", [1, 2, 3, 4])], opset=20),
    row("Col2Im-dilations-pads", [node("Col2Im", ["x", "img", "blk"], ["y"], dilations=[1, 2], pads=[1, 0, 1, 0])],
        [tensor("x", ["n", "cb", 15])], [{"n": 1, "cb": 4}, {"n": 2, "cb": 8}], [const("img", [4, 5]),
                                                                                 const("blk", [2, 2])]),
]

ROWS = CONV + CONV_TRANSPOSE + POOL + LINALG + EINSUM + PAD + RESIZE + ROI_GRID


@pytest.mark.parametrize("r", CONV + CONV_TRANSPOSE + POOL)
def test_windows(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", LINALG + EINSUM)
def test_matmul_gemm_einsum(r: Row) -> None:
    run_row(r)


@pytest.mark.parametrize("r", PAD + RESIZE + ROI_GRID)
def test_pad_resize_roi_grid(r: Row) -> None:
    run_row(r)
