"""com.microsoft quantization ops (src/symshape/rules/onnx_contrib/quantization.py, qlinear.py).

Ops with a CPU kernel run in onnxruntime at several sizes (1, and 0 where the kernel accepts
it), with the uint8 and the int8 kernel where both exist, and every dim symshape reports is
compared (`run_row`). Ops without a CPU kernel (the BFP and cublasLt-order quantizers,
MulInteger, ReduceSumInteger, QLinearReduceMean) are checked against their contract: each
expected dim is derived by hand from the schema or kernel named beside it. One end-to-end test
quantizes a small float model with ``onnxruntime.quantization.quantize_static`` (QOperator)
and checks every dim of the quantized model against runs at several sizes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.errors import ContradictionError, ModelError
from tests.oracle import array, assert_exact, check, const, make_model, tensor
from tests.rules.onnx.test_op_coverage import MS, Row, row, run_row

F, I8, U8, I16, I32, I64 = (TensorProto.FLOAT, TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16,
                            TensorProto.INT32, TensorProto.INT64)
NP = {U8: np.uint8, I8: np.int8}


def ms(op: str, ins: list[str], outs: list[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, domain=MS, **attrs)


def qp(prefix: str, dtype: int = U8, n: int = 0) -> list[onnx.TensorProto]:
    """A scale and a zero point named ``<prefix>s``/``<prefix>z``: scalars, or ``n`` long."""
    shape = (n,) if n else ()
    return [array(f"{prefix}s", np.full(shape, 0.1, np.float32)), array(f"{prefix}z", np.ones(shape, NP[dtype]))]


def out(name: str, dtype: int) -> list[onnx.ValueInfoProto]:
    return [tensor(name, None, dtype)]


NC = [{"n": 2, "c": 3}, {"n": 1, "c": 1}, {"n": 3, "c": 5}, {"n": 0, "c": 2}, {"n": 2, "c": 0}]
NS = [{"n": 2, "s": 3}, {"n": 1, "s": 1}, {"n": 3, "s": 5}, {"n": 0, "s": 2}, {"n": 2, "s": 0}]
MK = [{"m": 2, "k": 3, "n": 4}, {"m": 1, "k": 1, "n": 1}, {"m": 3, "k": 5, "n": 2}, {"m": 0, "k": 2, "n": 3},
      {"m": 2, "k": 0, "n": 3}, {"m": 2, "k": 3, "n": 0}]
HW = [{"n": 2, "h": 7, "w": 6}, {"n": 1, "h": 3, "w": 3}, {"n": 3, "h": 9, "w": 4}, {"n": 0, "h": 5, "w": 5}]
HW1 = [{"n": 2, "h": 3, "w": 4}, {"n": 1, "h": 1, "w": 1}, {"n": 3, "h": 5, "w": 2}, {"n": 0, "h": 2, "w": 3}]

QDQ = [
    row("DequantizeLinear-per-tensor-u8", [ms("DequantizeLinear", ["x", "xs", "xz"], ["y"])],
        [tensor("x", ["n", "c", 4], U8)], NC, qp("x"), outputs=out("y", F)),
    row("DequantizeLinear-per-axis-i8", [ms("DequantizeLinear", ["x", "xs", "xz"], ["y"], axis=1)],
        [tensor("x", ["n", 3, "s"], I8)], NS, qp("x", I8, 3), outputs=out("y", F)),
    row("DequantizeLinear-1-element-scale-symbolic-axis", [ms("DequantizeLinear", ["x", "xs", "xz"], ["y"], axis=1)],
        [tensor("x", ["n", "c"], U8)], NC, qp("x", U8, 1), outputs=out("y", F)),
    row("QuantizeLinear-per-axis-last-u8", [ms("QuantizeLinear", ["x", "xs", "xz"], ["y"], axis=-1)],
        [tensor("x", ["n", "s", 4])], NS, qp("x", U8, 4), outputs=out("y", U8)),
    row("QuantizeLinear-per-tensor-i8-rank1", [ms("QuantizeLinear", ["x", "xs", "xz"], ["y"])],
        [tensor("x", ["n"])], NS, qp("x", I8), outputs=out("y", I8)),
]


def _i8(name: str, *shape: int) -> onnx.TensorProto:
    return array(name, np.ones(shape, np.int8))


def _u8(name: str, *shape: int) -> onnx.TensorProto:
    return array(name, np.ones(shape, np.uint8))


MATMULS = [
    row("MatMulInteger16-batched", [ms("MatMulInteger16", ["a", "b"], ["y"])],
        [tensor("a", ["n", "m", "k"], I16), tensor("b", ["k", 5], I16)], MK, outputs=out("y", I32)),
    row("MatMulIntegerToFloat-u8-zero-points-bias", [ms("MatMulIntegerToFloat", ["a", "b", "as", "bs", "az", "bz",
                                                                                 "bias"], ["y"])],
        [tensor("a", ["n", "m", 4], U8)], MK,
        [_u8("b", 4, 5), array("as", np.float32(0.1)), array("bs", np.float32(0.2)), array("az", np.uint8(1)),
         array("bz", np.uint8(2)), array("bias", np.zeros(5, np.float32))], outputs=out("y", F)),
    row("MatMulIntegerToFloat-i8-dynamic-operands", [ms("MatMulIntegerToFloat", ["a", "b", "as", "bs"], ["y"])],
        [tensor("a", ["m", "k"], I8), tensor("b", ["k", "n"], I8)], MK,
        [array("as", np.float32(0.1)), array("bs", np.float32(0.2))], outputs=out("y", F)),
    row("MatMulIntegerToFloat-u8-vector-A", [ms("MatMulIntegerToFloat", ["a", "b", "as", "bs"], ["y"])],
        [tensor("a", ["k"], U8), tensor("b", ["n", "k", "m"], U8)], MK,
        [array("as", np.float32(0.1)), array("bs", np.float32(0.2))], outputs=out("y", F)),
    row("DynamicQuantizeMatMul-u8-bias", [ms("DynamicQuantizeMatMul", ["a", "b", "bs", "bz", "bias"], ["y"])],
        [tensor("a", ["n", "m", 4])], MK,
        [_u8("b", 4, 6), array("bs", np.float32(0.2)), array("bz", np.uint8(2)), array("bias", np.zeros(6,
                                                                                                     np.float32))],
        outputs=out("y", F)),
    row("DynamicQuantizeMatMul-i8-dynamic-B", [ms("DynamicQuantizeMatMul", ["a", "b", "bs"], ["y"])],
        [tensor("a", ["m", "k"]), tensor("b", ["k", "n"], I8)], MK, [array("bs", np.float32(0.2))],
        outputs=out("y", F)),
    row("QGemm-u8-requantized-per-column-C", [ms("QGemm", ["a", "as", "az", "b", "bs", "bz", "c", "ys", "yz"],
                                                 ["y"])],
        [tensor("a", ["m", 4], U8)], MK, [*qp("a"), _u8("b", 4, 5), *qp("b", U8, 5), array("c", np.zeros(5, np.int32)),
                                          *qp("y")], outputs=out("y", U8)),
    row("QGemm-i8-float-transposed", [ms("QGemm", ["a", "as", "az", "b", "bs", "bz"], ["y"], transA=1, transB=1,
                                         alpha=0.5)],
        [tensor("a", ["k", "m"], I8), tensor("b", ["n", "k"], I8)], MK, [*qp("a", I8), *qp("b", I8)],
        outputs=out("y", F)),
    row("QGemm-u8-C[m,1]", [ms("QGemm", ["a", "as", "az", "b", "bs", "bz", "c", "ys", "yz"], ["y"])],
        [tensor("a", ["m", "k"], U8), tensor("b", ["k", "n"], U8), tensor("c", ["m", 1], I32)], MK,
        [*qp("a"), *qp("b"), *qp("y")], outputs=out("y", U8)),
]


def binary(op: str, dtype: int, a: list[int | str], b: list[int | str]) -> object:
    return row(f"{op}-{'u8' if dtype == U8 else 'i8'}", [ms(op, ["a", "as", "az", "b", "bs", "bz", "cs", "cz"],
                                                              ["y"])],
               [tensor("a", a, dtype), tensor("b", b, dtype)], NC, [*qp("a", dtype), *qp("b", dtype), *qp("c", dtype)],
               outputs=out("y", dtype))


def unary(op: str, dtype: int, **attrs: object) -> object:
    return row(f"{op}-{'u8' if dtype == U8 else 'i8'}", [ms(op, ["x", "xs", "xz", "ys", "yz"], ["y"], **attrs)],
               [tensor("x", ["n", "c", 4], dtype)], NC, [*qp("x", dtype), *qp("y", dtype)], outputs=out("y", dtype))


ELEMENTWISE = [
    binary("QLinearAdd", U8, ["n", "c", 4], ["c", 1]),
    binary("QLinearAdd", I8, ["n", 1], [1, "c"]),
    binary("QLinearMul", U8, ["c"], ["n", 1, 1]),
    binary("QLinearMul", I8, ["n", "c"], ["n", "c"]),
    unary("QLinearLeakyRelu", U8, alpha=0.2),
    unary("QLinearLeakyRelu", I8),
    unary("QLinearSigmoid", U8),
    unary("QLinearSigmoid", I8),
    unary("QLinearSoftmax", U8, opset=13, axis=1),
    unary("QLinearSoftmax", I8, opset=12),
    *(row(f"QLinearWhere-{'u8' if t == U8 else 'i8'}", [ms("QLinearWhere", ["cond", "x", "xs", "xz", "y", "ys", "yz",
                                                                           "zs", "zz"], ["z"])],
          [tensor("cond", ["n", 1], TensorProto.BOOL), tensor("x", ["c"], t), tensor("y", [1, "c"], t)], NC,
          [*qp("x", t), *qp("y", t), *qp("z", t)], outputs=out("z", t)) for t in (U8, I8)),
    row("QLinearConcat-u8-axis1", [ms("QLinearConcat", ["ys", "yz", "a", "as", "az", "b", "bs", "bz"], ["y"], axis=1)],
        [tensor("a", ["n", 2, 4], U8), tensor("b", ["n", "c", 4], U8)], NC, [*qp("y"), *qp("a"), *qp("b")],
        outputs=out("y", U8)),
    row("QLinearConcat-i8-three-inputs-last-axis", [ms("QLinearConcat", ["ys", "yz", "a", "as", "az", "b", "bs", "bz",
                                                                         "a", "as", "az"], ["y"], axis=-1)],
        [tensor("a", ["n", "c"], I8), tensor("b", ["n", 3], I8)], NC, [*qp("y", I8), *qp("a", I8), *qp("b", I8)],
        outputs=out("y", I8)),
]

WINDOWS = [
    row("QLinearConv-u8-per-channel-bias", [ms("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"],
                                               ["y"], pads=[1, 0, 1, 0], strides=[2, 1])],
        [tensor("x", ["n", 3, "h", "w"], U8)], HW,
        [*qp("x"), _u8("w", 4, 3, 3, 2), *qp("w", U8, 4), *qp("y"), array("bias", np.zeros(4, np.int32))],
        outputs=out("y", U8)),
    row("QLinearConv-i8-channels-last-group", [ms("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"],
                                                  group=2, dilations=[2, 1], channels_last=1)],
        [tensor("x", ["n", "h", "w", 4], I8)], HW, [*qp("x", I8), _i8("w", 6, 2, 2, 2), *qp("w", I8), *qp("y", I8)],
        outputs=out("y", I8)),
    row("QLinearConv-u8-same-upper-int8-weight", [ms("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"],
                                                     ["y"], auto_pad="SAME_UPPER", strides=[2, 2])],
        [tensor("x", ["n", 2, "h", "w"], U8)], HW, [*qp("x"), _i8("w", 3, 2, 3, 3), *qp("w", I8), *qp("y")],
        outputs=out("y", U8)),
    row("QLinearAveragePool-u8-pads-ceil", [ms("QLinearAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"],
                                               kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 0], ceil_mode=1)],
        [tensor("x", ["n", 3, "h", "w"], U8)], HW, [*qp("x"), *qp("y")], outputs=out("y", U8)),
    row("QLinearAveragePool-i8-channels-last-1d", [ms("QLinearAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"],
                                                      kernel_shape=[3], count_include_pad=1, pads=[1, 1],
                                                      channels_last=1)],
        [tensor("x", ["n", "h", 4], I8)], HW, [*qp("x", I8), *qp("y", I8)], outputs=out("y", I8)),
    row("QLinearGlobalAveragePool-u8", [ms("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"])],
        [tensor("x", ["n", 3, "h", "w"], U8)], HW1, [*qp("x"), *qp("y")], outputs=out("y", U8)),
    row("QLinearGlobalAveragePool-i8-channels-last", [ms("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"],
                                                         ["y"], channels_last=1)],
        [tensor("x", ["n", "h", "w", 5], I8)], HW1, [*qp("x", I8), *qp("y", I8)], outputs=out("y", I8)),
]

ROWS = QDQ + MATMULS + ELEMENTWISE + WINDOWS
_CONTRACT = "tests/rules/onnx_contrib/test_quantization.py (onnxruntime has no CPU kernel: the documented contract)"
ELSEWHERE = {(MS, op): _CONTRACT for op in ("DequantizeBFP", "QuantizeBFP", "DequantizeWithOrder", "QuantizeWithOrder",
                                            "MulInteger", "ReduceSumInteger", "QLinearReduceMean")}


@pytest.mark.parametrize("r", ROWS)
def test_against_onnxruntime(r: Row) -> None:
    run_row(r)


# --------------------------------------------------------------- contracts (no CPU kernel)
def contract(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], inits: list[onnx.TensorProto],
             outputs: list[onnx.ValueInfoProto]) -> dict[str, list[str]]:
    """Analyze a model onnxruntime cannot run on CPU: every node output's dims as text."""
    model = make_model(nodes, inputs, outputs, inits)
    model.opset_import.append(helper.make_opsetid(MS, 1))
    result = analyze_onnx(model)
    assert not result.warnings, [f"{x.op_type}: {x.message}" for x in result.warnings]
    return {o: [str(d) for d in result.shape(o) or ()] for n in nodes for o in n.output if o}


def test_bfp_round_trip() -> None:
    """QuantizeBFP (quantization_defs.cc: the raw ``y`` gets no shape, ``shape`` and
    ``strides`` are ``(rank(x),)``) then DequantizeBFP (``y`` is the tensor the ``shape`` input
    describes: here x's own dims, as QuantizeBFP's ``shape`` output is "Shape of x")."""
    out = contract([ms("QuantizeBFP", ["x"], ["raw", "shape", "strides"], bfp_type=1),
                    ms("DequantizeBFP", ["raw", "shape", "strides"], ["y"], bfp_type=1)],
                   [tensor("x", ["n", "s", 16])], [],
                   [tensor("raw", None, U8), tensor("shape", None, I64), tensor("strides", None, I64),
                    tensor("y", None)])
    assert out["shape"] == out["strides"] == ["3"] and out["y"] == ["n", "s", "16"]
    assert len(out["raw"]) == 1 and out["raw"][0] not in ("n", "s", "16")  # a fresh, hardware-given length
    fixed = contract([ms("DequantizeBFP", ["raw", "dims", "st"], ["y"], bfp_type=1)], [tensor("raw", ["r"], U8)],
                     [const("dims", [2, 5]), const("st", [5, 1])], [tensor("y", None)])
    assert fixed["y"] == ["2", "5"]


def test_order_quantizers_mul_integer_and_reductions() -> None:
    """QuantizeWithOrder/DequantizeWithOrder keep the input shape (quantization_defs.cc);
    MulInteger broadcasts A and B (inputs 0 and 2, quantization_defs.cc); ReduceSumInteger and
    QLinearReduceMean reduce ``axes`` (empty: all), keeping them as 1 with ``keepdims=1``
    (the doc and QLinearReduceMean's inference in quantization_defs.cc)."""
    reduce_all = ms("QLinearReduceMean", ["a", "as", "az", "ys", "yz"], ["r3"], keepdims=1)
    reduce_all.attribute.append(helper.make_attribute("axes", [], attr_type=onnx.AttributeProto.INTS))
    out = contract(
        [ms("QuantizeWithOrder", ["x", "s"], ["q"], order_input=1, order_output=2),
         ms("DequantizeWithOrder", ["q", "s"], ["d"], order_input=2, order_output=1, to=F),
         ms("MulInteger", ["a", "az", "b", "bz"], ["m"]),
         ms("ReduceSumInteger", ["a"], ["r1"], axes=[1, -1], keepdims=1),
         ms("ReduceSumInteger", ["a"], ["r2"], axes=[0], keepdims=0),
         reduce_all,
         ms("QLinearReduceMean", ["a", "as", "az", "ys", "yz"], ["r4"], axes=[-2], keepdims=0)],
        [tensor("x", ["b", "s", 32]), tensor("a", ["n", "c", 4], U8), tensor("b", ["c", 1], U8)],
        [array("s", np.float32(0.1)), *qp("a"), *qp("y"), array("bz", np.uint8(3))],
        [tensor("q", None, I8), tensor("d", None), tensor("m", None, I32), tensor("r1", None, I32),
         tensor("r2", None, I32), tensor("r3", None, U8), tensor("r4", None, U8)])
    assert out == {"q": ["b", "s", "32"], "d": ["b", "s", "32"], "m": ["n", "c", "4"], "r1": ["n", "1", "1"],
                   "r2": ["c", "4"], "r3": ["1", "1", "1"], "r4": ["n", "4"]}


# ------------------------------------------------------------------------- malformed
def model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
          inits: list[onnx.TensorProto]) -> onnx.ModelProto:
    m = make_model(nodes, inputs, [tensor(o, None) for o in nodes[-1].output], inits)
    m.opset_import.append(helper.make_opsetid(MS, 1))
    return m


X4 = tensor("x", ["n", 3, "h", "w"], U8)
MALFORMED = {
    "DequantizeLinear-2d-scale": ([ms("DequantizeLinear", ["x", "s"], ["y"])], [X4],
                                  [array("s", np.ones((3, 1), np.float32))]),
    "QuantizeLinear-per-axis-axis-out-of-range": ([ms("QuantizeLinear", ["f", "xs", "xz"], ["y"], axis=3)],
                                                  [tensor("f", ["n", 3, 4])], qp("x", U8, 3)),
    "QuantizeLinear-zero-point-rank": ([ms("QuantizeLinear", ["f", "xs", "xz"], ["y"], axis=1)],
                                       [tensor("f", ["n", 3, 4])],
                                       [array("xs", np.ones(3, np.float32)), array("xz", np.ones((3, 1), np.uint8))]),
    "QLinearAdd-vector-scale": ([ms("QLinearAdd", ["x", "xs", "xz", "x", "ys", "yz", "ys", "yz"], ["y"])], [X4],
                                [*qp("x", U8, 1), *qp("y")]),
    "QLinearSigmoid-two-element-scale": ([ms("QLinearSigmoid", ["x", "xs", "xz", "ys", "yz"], ["y"])], [X4],
                                         [*qp("x", U8, 2), *qp("y")]),
    "QLinearConv-two-element-input-scale": ([ms("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"])],
                                            [X4], [*qp("x", U8, 2), _u8("w", 4, 3, 1, 1), *qp("w"), *qp("y")]),
    "QLinearGlobalAveragePool-rank2": ([ms("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"])],
                                       [tensor("x", ["n", 3], U8)], [*qp("x"), *qp("y")]),
    "QLinearGlobalAveragePool-empty-image": ([ms("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"])],
                                             [tensor("x", ["n", 3, 0], U8)], [*qp("x"), *qp("y")]),
    "QLinearAveragePool-no-kernel_shape": ([ms("QLinearAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"])], [X4],
                                           [*qp("x"), *qp("y")]),
    "QLinearSoftmax-no-opset": ([ms("QLinearSoftmax", ["x", "xs", "xz", "ys", "yz"], ["y"])], [X4],
                                [*qp("x"), *qp("y")]),
    "QLinearSoftmax-axis-out-of-range": ([ms("QLinearSoftmax", ["x", "xs", "xz", "ys", "yz"], ["y"], opset=13,
                                             axis=4)], [X4], [*qp("x"), *qp("y")]),
    "QLinearConcat-incomplete-triple": ([ms("QLinearConcat", ["ys", "yz", "x", "xs"], ["y"], axis=1)], [X4],
                                        [*qp("x"), *qp("y")]),
    "QLinearConcat-rank-mismatch": ([ms("QLinearConcat", ["ys", "yz", "x", "xs", "xz", "v", "xs", "xz"], ["y"],
                                        axis=1)], [X4, tensor("v", ["n", 3], U8)], [*qp("x"), *qp("y")]),
    "QGemm-rank3-A": ([ms("QGemm", ["x", "xs", "xz", "b", "xs", "xz"], ["y"])], [X4], [*qp("x"), _u8("b", 4, 5)]),
    "QGemm-b-scale-and-zero-point-ranks": ([ms("QGemm", ["a", "xs", "xz", "b", "bs", "xz"], ["y"])],
                                           [tensor("a", ["m", 4], U8)],
                                           [*qp("x"), _u8("b", 4, 5), array("bs", np.ones(5, np.float32))]),
    "ReduceSumInteger-no-keepdims": ([ms("ReduceSumInteger", ["x"], ["y"], axes=[1])], [X4], []),
    "QLinearReduceMean-axis-out-of-range": ([ms("QLinearReduceMean", ["x", "xs", "xz", "ys", "yz"], ["y"], axes=[4],
                                                keepdims=1)], [X4], [*qp("x"), *qp("y")]),
    "DequantizeBFP-2d-raw": ([ms("DequantizeBFP", ["x", "d", "d"], ["y"], bfp_type=1)], [X4], [const("d", [2, 3])]),
    "QuantizeWithOrder-no-order": ([ms("QuantizeWithOrder", ["f", "xs"], ["y"])], [tensor("f", ["n", 4])], qp("x")),
}


@pytest.mark.parametrize("case", MALFORMED.values(), ids=list(MALFORMED))
def test_malformed_models_raise_model_errors(
    case: tuple[list[onnx.NodeProto], list[onnx.ValueInfoProto], list[onnx.TensorProto]],
) -> None:
    nodes, inputs, inits = case
    with pytest.raises(ModelError):
        analyze_onnx(model(nodes, inputs, inits))


def test_mismatched_sizes_are_contradictions() -> None:
    """Dims the kernels require equal: MatMulIntegerToFloat's contraction, DynamicQuantizeMatMul's
    bias and N for a non-empty output (dynamic_quantize_matmul.cc), a per-axis scale's
    length and the quantized axis (quantize_linear.cc), QGemm's per-column b_scale and N
    (quant_gemm.cc), QLinearConv's bias and M (qlinearconv.cc)."""
    bad = [
        ([ms("MatMulIntegerToFloat", ["a", "b", "xs", "xs"], ["y"])], [tensor("a", ["m", 4], U8)],
         [_u8("b", 3, 5), *qp("x")]),
        ([ms("DynamicQuantizeMatMul", ["f", "b", "xs", "", "bias"], ["y"])], [tensor("f", [3, 4])],
         [_u8("b", 4, 5), *qp("x"), array("bias", np.zeros(7, np.float32))]),
        ([ms("DequantizeLinear", ["x", "xs", "xz"], ["y"], axis=1)], [X4], qp("x", U8, 4)),
        ([ms("QGemm", ["a", "xs", "xz", "b", "bs", "bz"], ["y"])], [tensor("a", ["m", 4], U8)],
         [*qp("x"), _u8("b", 4, 5), *qp("b", U8, 3)]),
        ([ms("QLinearConv", ["x", "xs", "xz", "w", "xs", "xz", "xs", "xz", "bias"], ["y"])], [X4],
         [*qp("x"), _u8("w", 4, 3, 1, 1), array("bias", np.zeros(5, np.int32))]),
    ]
    for nodes, inputs, inits in bad:
        with pytest.raises(ContradictionError):
            analyze_onnx(model(nodes, inputs, inits))


def test_per_column_parameters_of_symbolic_length_are_not_merged() -> None:
    """A 1-D weight scale of symbolic length may be 1 (per tensor) or M (per channel): no fact
    ties it to either; a known length other than 1 is M (a fact)."""
    nodes = [ms("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"])]
    ins = [X4, tensor("w", ["m", 3, 1, 1], U8), tensor("ws", ["k"]), tensor("wz", ["k"], U8)]
    result = analyze_onnx(model(nodes, ins, [*qp("x"), *qp("y")]))
    assert result.same_dim(("ws", 0), ("w", 0)) is not True
    assert [str(d) for d in result.shape("y") or ()] == ["n", "m", "h", "w"]
    fixed = analyze_onnx(model(nodes, [X4, tensor("w", ["m", 3, 1, 1], U8)], [*qp("x"), *qp("w", U8, 4), *qp("y")]))
    assert [str(d) for d in fixed.shape("y") or ()] == ["n", "4", "h", "w"]


# ------------------------------------------------------------------ end to end (QOperator)
def float_model() -> onnx.ModelProto:
    """Conv+Relu, MaxPool, a second Conv branch with Sigmoid/LeakyRelu, Add, Mul, Concat,
    AveragePool, GlobalAveragePool, Flatten, Gemm and MatMul, with a dynamic batch and
    dynamic spatial dims."""
    rng = np.random.default_rng(0)

    def w(name: str, *shape: int) -> onnx.TensorProto:
        return array(name, (rng.standard_normal(shape) * 0.3).astype(np.float32))

    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["x", "w2", "b2"], ["c2"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Sigmoid", ["c2"], ["s2"]),
        helper.make_node("LeakyRelu", ["c2"], ["l2"], alpha=0.1),
        helper.make_node("Add", ["s2", "l2"], ["a2"]),
        helper.make_node("Mul", ["a2", "s2"], ["m2"]),
        helper.make_node("Concat", ["p1", "m2"], ["cat"], axis=1),
        helper.make_node("AveragePool", ["cat"], ["ap"], kernel_shape=[2, 2], pads=[0, 0, 1, 1]),
        helper.make_node("GlobalAveragePool", ["ap"], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["flat"]),
        helper.make_node("Gemm", ["flat", "wg", "bg"], ["g"], transB=1),
        helper.make_node("MatMul", ["g", "wm"], ["mm"]),
        helper.make_node("Add", ["mm", "bm"], ["y"]),
    ]
    inits = [w("w1", 4, 3, 3, 3), w("b1", 4), w("w2", 4, 3, 3, 3), w("b2", 4), w("wg", 6, 8), w("bg", 6),
             w("wm", 6, 5), w("bm", 5)]
    return make_model(nodes, [tensor("x", ["n", 3, "h", "w"])], [tensor("y", ["n", 5])], inits, opset=17)


def calibration_batches() -> list[dict[str, np.ndarray]]:
    """A few random batches of different spatial sizes for the calibration."""
    rng = np.random.default_rng(1)
    return [{"x": rng.standard_normal((n, 3, h, w)).astype(np.float32)} for n, h, w in ((2, 8, 8), (1, 6, 10))]


_OUTPUT_ZERO_POINT = {"QLinearConcat": 1, "QLinearAdd": 7, "QLinearMul": 7, "QGemm": 8}


def typed_contrib_outputs(m: onnx.ModelProto) -> None:
    """Declare the element type (never a shape) of each com.microsoft op's output, the type of
    its output zero point, so onnxruntime can expose every value: onnx's inference, which
    types the others, does not know these ops."""
    types = {t.name: t.data_type for t in m.graph.initializer}
    for n in m.graph.node:
        if n.domain == MS:
            zp = n.input[_OUTPUT_ZERO_POINT.get(n.op_type, 4)]
            m.graph.value_info.append(helper.make_tensor_value_info(n.output[0], types[zp], None))


def test_quantize_static_qoperator_model(tmp_path: Path) -> None:
    """The model ``quantize_static`` writes in the QOperator format (QLinearConv, QLinearAdd,
    QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearConcat, QLinearAveragePool,
    QLinearGlobalAveragePool, QGemm, QLinearMatMul, Quantize/DequantizeLinear): every dim of
    every value agrees with onnxruntime's runs, expressed in the input's dims."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches: Iterator[dict[str, np.ndarray]] = iter(calibration_batches())

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.batches, None)

    src, dst = tmp_path / "float.onnx", tmp_path / "quant.onnx"
    onnx.save(float_model(), str(src))
    quantize_static(str(src), str(dst), Reader(), quant_format=QuantFormat.QOperator,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    quantized = onnx.load(str(dst))
    typed_contrib_outputs(quantized)
    ops = {(n.domain, n.op_type) for n in quantized.graph.node}
    assert {(MS, "QLinearConcat"), (MS, "QLinearAdd"), (MS, "QLinearGlobalAveragePool"),
            (MS, "QLinearAveragePool"), (MS, "QGemm"), (MS, "QLinearSigmoid")} <= ops, sorted(ops)
    # the two branches meet in the Concat: floor(h/2) (pool) and ceil(h/2) (stride 2) agree for even sizes
    samples = [{"n": 2, "h": 8, "w": 8}, {"n": 1, "h": 2, "w": 2}, {"n": 3, "h": 10, "w": 6}, {"n": 1, "h": 14, "w": 4}]
    report = assert_exact(check(quantized, samples))
    assert not report.analysis.warnings, [w.message for w in report.analysis.warnings]
    assert report.checked_dims > 100
    assert [str(d) for d in report.analysis.shape("y") or ()] == ["n", "5"]
