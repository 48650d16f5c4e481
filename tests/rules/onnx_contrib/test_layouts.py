"""onnxruntime's layout-transformed ops: com.microsoft.nchwc, com.ms.internal.nhwc and the
com.microsoft layout ops (rules in src/symshape/rules/onnx_contrib/nchwc.py and nhwc.py).

* NCHWc: onnxruntime's CPU kernels are the oracle. Models onnxruntime itself rewrote (saved at
  ORT_ENABLE_ALL) and hand-built ones run with graph optimizations off, every dim compared.
  Hand-built ones use channel counts that are multiples of 16, valid for every MLAS block size.
* internal NHWC: no CPU kernel. Each op is checked against onnxruntime running its NCHW twin
  (Transpose -> the ai.onnx op -> Transpose back, input 0 and output 0 only, as the layout
  transformer wraps it), plus contract values derived by hand from the schema source.
* com.microsoft: NhwcMaxPool, GridSample, Pad, ConvTransposeWithDynamicPads and MaxpoolWithMask
  run on CPU; NhwcConv and NhwcFusedConv have no CPU kernel here and get the twin check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import as_symbol, evaluate
from symshape.api import analyze_onnx
from symshape.engine.result import Analysis
from symshape.errors import ModelError
from tests.oracle import (
    OPSET,
    FeedFn,
    array,
    assert_exact,
    assert_sound,
    check,
    const,
    feeds_for,
    make_model,
    rand,
    run,
    tensor,
)

F, I32, I64, U8 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8
MS, NCHWC, NHWC = "com.microsoft", "com.microsoft.nchwc", "com.ms.internal.nhwc"
Env = Mapping[str, int]


def node(domain: str, op: str, ins: Sequence[str], outs: Sequence[str], **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op, list(ins), list(outs), domain=domain, **attrs)


def model_of(nodes: Sequence[onnx.NodeProto], inputs: Sequence[onnx.ValueInfoProto],
             inits: Sequence[onnx.TensorProto] = (), types: Mapping[str, int] | None = None,
             outputs: Sequence[str] | None = None) -> onnx.ModelProto:
    """A model importing every domain its nodes use; each node output typed (element type only,
    no shape: onnxruntime needs the type to expose it, symshape learns nothing from it)."""
    outs = list(outputs) if outputs is not None else [o for o in nodes[-1].output if o]
    m = make_model(nodes, inputs, outs, inits, OPSET)
    for domain in sorted({n.domain for n in nodes} - {""}):
        m.opset_import.append(helper.make_opsetid(domain, OPSET if domain == NHWC else 1))
    for n in nodes:
        for o in n.output:
            if o:
                m.graph.value_info.append(helper.make_tensor_value_info(o, (types or {}).get(o, F), None))
    return m


def ort_check(m: onnx.ModelProto, samples: Sequence[Env], *, exact: bool = True) -> Analysis:
    """Analyze, run onnxruntime at every sample, compare every dim of every value."""
    report = check(m, samples)
    assert not report.analysis.warnings, [f"{w.op_type}: {w.message}" for w in report.analysis.warnings]
    (assert_exact if exact else assert_sound)(report)
    produced = {o for n in m.graph.node for o in n.output if o}
    for r in report.runs:
        assert produced <= r.shapes.keys(), sorted(produced - r.shapes.keys())
    return report.analysis


def at(a: Analysis, name: str, env: Env) -> tuple[int, ...]:
    return tuple(evaluate(d, env) for d in a.shape(name))


# =========================================================================== NCHWc
def ort_optimized(m: onnx.ModelProto, tmp_path: Path) -> onnx.ModelProto:
    """``m`` as onnxruntime rewrites it at ORT_ENABLE_ALL (NCHWc where MLAS supports it)."""
    path = tmp_path / "optimized.onnx"
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.optimized_model_filepath = str(path)
    opts.log_severity_level = 3
    ort.InferenceSession(m.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    out = onnx.load(str(path))
    if not any(n.domain == NCHWC for n in out.graph.node):
        pytest.skip("onnxruntime wrote no NCHWc ops: MLAS has no NCHWc kernels on this CPU")
    for n in out.graph.node:
        for o in n.output:
            out.graph.value_info.append(helper.make_tensor_value_info(o, F, None))
    return out


def w(name: str, *dims: int) -> onnx.TensorProto:
    return array(name, rand(*dims, seed=len(name) + sum(dims)))


def cnn_nchw() -> onnx.ModelProto:
    """20 input channels (padded by the rewrite), a stride-2 Conv+Relu, MaxPool, a 1x1 Conv to
    48, a ceil-mode AveragePool, a nearest Resize x2 (NCHWc Upsample), GlobalAveragePool."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["p1", "w2"], ["c2"]),
        helper.make_node("AveragePool", ["c2"], ["a1"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        helper.make_node("Resize", ["a1", "", "sc"], ["u1"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        helper.make_node("Conv", ["u1", "w3"], ["c3"], kernel_shape=[3, 3]),
        helper.make_node("GlobalAveragePool", ["c3"], ["y"]),
    ]
    inits = [w("w1", 32, 20, 3, 3), w("b1", 32), w("w2", 48, 32, 1, 1), w("w3", 40, 48, 3, 3),
             array("sc", np.array([1, 1, 2, 2], np.float32))]
    return make_model(nodes, [tensor("x", ["n", 20, "h", "w"])], [tensor("y", None)], inits, 13)


def cnn_nhwc_input() -> onnx.ModelProto:
    """An NHWC graph input (ReorderInput channels_last=1), a depthwise SAME conv, two outputs
    (ReorderOutput to NCHW and, through a Transpose, to NHWC)."""
    nodes = [
        helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 3, 1, 2]),
        helper.make_node("Conv", ["xt", "w1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["c1", "w2"], ["c2"], group=32, kernel_shape=[3, 3], strides=[2, 2],
                         auto_pad="SAME_UPPER"),
        helper.make_node("Conv", ["c2", "w3"], ["c3"]),
        helper.make_node("Transpose", ["c3"], ["y_nhwc"], perm=[0, 2, 3, 1]),
        helper.make_node("GlobalMaxPool", ["c3"], ["y"]),
    ]
    inits = [w("w1", 32, 16, 3, 3), w("w2", 32, 1, 3, 3), w("w3", 24, 32, 1, 1)]
    return make_model(nodes, [tensor("x", ["n", "h", "w", 16])], [tensor("y", None), tensor("y_nhwc", None)], inits,
                      13)


def test_onnxruntime_rewritten_cnn(tmp_path: Path) -> None:
    """The padded channel count ReorderInput makes is resolved by the Conv weights the
    optimizer padded: every dim exact, at batch 0 and 1 and odd sizes."""
    m = ort_optimized(cnn_nchw(), tmp_path)
    kinds = {n.op_type for n in m.graph.node if n.domain == NCHWC}
    assert {"ReorderInput", "Conv", "MaxPool", "AveragePool", "Upsample", "ReorderOutput"} <= kinds
    a = ort_check(m, [{"n": 1, "h": 16, "w": 16}, {"n": 2, "h": 9, "w": 13}, {"n": 0, "h": 12, "w": 12}])
    assert at(a, "y", {"n": 3, "h": 20, "w": 20}) == (3, 40, 1, 1)


def test_onnxruntime_rewritten_nhwc_input(tmp_path: Path) -> None:
    m = ort_optimized(cnn_nhwc_input(), tmp_path)
    assert any(n.op_type == "ReorderInput" and n.attribute[0].i == 1 for n in m.graph.node if n.domain == NCHWC)
    a = ort_check(m, [{"n": 1, "h": 5, "w": 7}, {"n": 2, "h": 1, "w": 1}, {"n": 0, "h": 6, "w": 3}])
    env = {"n": 2, "h": 7, "w": 10}
    assert at(a, "y_nhwc", env) == (2, 4, 5, 24)  # SAME stride 2: ceil(h/2), ceil(w/2)


def reorder_chain(c: int, out_channels: int) -> onnx.ModelProto:
    """ReorderInput -> MaxPool -> AveragePool -> Upsample -> ReorderOutput, no Conv: nothing in
    the model states the padded channel count."""
    nodes = [
        node(NCHWC, "ReorderInput", ["x"], ["r"]),
        node(NCHWC, "MaxPool", ["r"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        node(NCHWC, "AveragePool", ["p"], ["a"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1,
             count_include_pad=1),
        node(NCHWC, "Upsample", ["a"], ["u"], scales=[1, 1, 2, 3]),
        node(NCHWC, "GlobalMaxPool", ["u"], ["g"]),
        node(NCHWC, "ReorderOutput", ["u"], ["y"], channels=out_channels),
        node(NCHWC, "ReorderOutput", ["g"], ["y_last"], channels=out_channels, channels_last=1),
    ]
    return model_of(nodes, [tensor("x", ["n", c, "h", "w"])], outputs=["y", "y_last"])


@pytest.mark.parametrize("c", [32, 20])
def test_reorder_chain_without_conv(c: int) -> None:
    """Without a Conv the padded count stays a symbol (sound, bound by the run); the unpadded
    outputs are exact. 20 channels pad to 24 or 32 depending on the CPU."""
    m = reorder_chain(c, c)
    a = ort_check(m, [{"n": 1, "h": 8, "w": 8}, {"n": 2, "h": 5, "w": 3}, {"n": 0, "h": 1, "w": 1}], exact=False)
    padded = a.shape("r")[1]
    assert as_symbol(padded) is not None and a.shape("u")[1] == padded
    for name, want in (("y", (2, c, 4, 6)), ("y_last", (2, 1, 1, c))):  # h=w=7: pool 4, ceil 2; x2, x3
        assert at(a, name, {"n": 2, "h": 7, "w": 7}) == want
    assert a.symbols()[str(as_symbol(padded))]["range"][0] == c  # padded >= unpadded


def test_reorder_input_shares_the_padded_count() -> None:
    """Two ReorderInputs of the same channel count pad alike (one block size per run); a Conv
    on one of them fixes both."""
    nodes = [
        node(NCHWC, "ReorderInput", ["x1"], ["r1"]),
        node(NCHWC, "ReorderInput", ["x2"], ["r2"]),
        helper.make_node("Add", ["r1", "r2"], ["s"]),
        node(NCHWC, "Conv", ["s", "wc", "", "r2"], ["c"], kernel_shape=[1, 1]),
        node(NCHWC, "ReorderOutput", ["c"], ["y"], channels=32),
    ]
    m = model_of(nodes, [tensor("x1", ["n", 32, "h", "w"]), tensor("x2", ["n", 32, "h", "w"])], [w("wc", 32, 32, 1, 1)])
    a = ort_check(m, [{"n": 1, "h": 3, "w": 4}, {"n": 2, "h": 1, "w": 5}, {"n": 0, "h": 2, "w": 2}])
    assert a.shape("r1")[1] == a.shape("r2")[1] == 32


def test_reorder_input_declared_padded_count() -> None:
    """A model that states the padded count (a declared shape) is taken at its word."""
    m = reorder_chain(32, 32)
    declared = next(v for v in m.graph.value_info if v.name == "r")
    declared.CopyFrom(helper.make_tensor_value_info("r", F, ["n", 32, "h", "w"]))
    a = ort_check(m, [{"n": 1, "h": 8, "w": 8}, {"n": 2, "h": 5, "w": 3}])
    assert a.shape("p")[1] == 32


def test_nchwc_conv_sum_and_global_average() -> None:
    nodes = [
        node(NCHWC, "ReorderInput", ["x"], ["r"], channels_last=1),
        node(NCHWC, "Conv", ["r", "wc", "bc"], ["c1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
             activation="Relu"),
        node(NCHWC, "Conv", ["c1", "wd", "", "c1"], ["c2"], group=16, kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        node(NCHWC, "GlobalAveragePool", ["c2"], ["g"]),
        node(NCHWC, "ReorderOutput", ["g"], ["y"], channels=16),
    ]
    m = model_of(nodes, [tensor("x", ["n", "h", "w", 16])], [w("wc", 16, 16, 3, 3), w("bc", 16), w("wd", 16, 1, 3, 3)])
    a = ort_check(m, [{"n": 1, "h": 5, "w": 6}, {"n": 3, "h": 1, "w": 2}, {"n": 0, "h": 4, "w": 4}])
    assert at(a, "c2", {"n": 2, "h": 9, "w": 4}) == (2, 16, 5, 2)


@pytest.mark.parametrize("nodes, inputs, match", [
    ([node(NCHWC, "ReorderInput", ["x"], ["y"])], [tensor("x", ["n", 16, "h"])], "rank"),
    ([node(NCHWC, "ReorderOutput", ["x"], ["y"])], [tensor("x", ["n", 16, "h", "w"])], "channels"),
    ([node(NCHWC, "ReorderOutput", ["x"], ["y"], channels=24)], [tensor("x", ["n", 16, "h", "w"])], "channel"),
    ([node(NCHWC, "Upsample", ["x"], ["y"], scales=[1, 2, 2, 2])], [tensor("x", ["n", 16, "h", "w"])], "scales"),
    ([node(NCHWC, "Upsample", ["x"], ["y"])], [tensor("x", ["n", 16, "h", "w"])], "scales"),
    ([node(NCHWC, "MaxPool", ["x"], ["y"], kernel_shape=[2])], [tensor("x", ["n", 16, "h"])], "rank"),
], ids=["ReorderInput-rank3", "ReorderOutput-no-channels", "ReorderOutput-more-channels-than-input",
        "Upsample-channel-scale", "Upsample-no-scales", "MaxPool-1d"])
def test_nchwc_malformed(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], match: str) -> None:
    with pytest.raises(ModelError, match=match):
        analyze_onnx(model_of(nodes, inputs))


# =========================================================================== internal NHWC
def twin(n: onnx.NodeProto, inputs: Sequence[onnx.ValueInfoProto], inits: Sequence[onnx.TensorProto],
         domain: str = "", dtype: int = F) -> onnx.ModelProto:
    """The NCHW op ``n`` stands for: input 0 transposed to NCHW, the same op type in ``domain``,
    output 0 transposed back; other inputs and outputs as they are (data of type ``dtype``)."""
    rank = len(inputs[0].type.tensor_type.shape.dim)
    x, y = n.input[0], n.output[0]
    body = helper.make_node(n.op_type, [x + "_nchw", *n.input[1:]], [y + "_nchw", *n.output[1:]], domain=domain)
    body.attribute.extend(a for a in n.attribute if a.name not in ("channels_last", "activation"))
    nodes = [helper.make_node("Transpose", [x], [x + "_nchw"], perm=[0, rank - 1, *range(1, rank - 1)]), body,
             helper.make_node("Transpose", [y + "_nchw"], [y], perm=[0, *range(2, rank), 1])]
    types = {x + "_nchw": dtype, y + "_nchw": dtype, y: dtype}
    types.update({o: I64 for o in n.output[1:] if n.op_type == "MaxPool"})  # indices
    return model_of(nodes, inputs, inits, types, outputs=[o for o in n.output if o])


def nhwc_vs_twin(n: onnx.NodeProto, inputs: Sequence[onnx.ValueInfoProto], samples: Sequence[Env],
                 inits: Sequence[onnx.TensorProto] = (), twin_model: onnx.ModelProto | None = None,
                 feed: FeedFn | None = None) -> Analysis:
    """symshape's dims of the NHWC op, at each sample, equal onnxruntime's shapes of its twin."""
    a = analyze_onnx(model_of([n], inputs, inits))
    assert not a.warnings, [f"{x.op_type}: {x.message}" for x in a.warnings]
    tm = twin_model or twin(n, inputs, inits)
    for env in samples:
        shapes = {k: v.shape for k, v in run(tm, feeds_for(tm, env, feed)).items()}
        for out in (o for o in n.output if o):
            assert at(a, out, env) == shapes[out], (out, env, a.shape(out))
    return a


def nhwc(op: str, ins: Sequence[str], outs: Sequence[str], **attrs: object) -> onnx.NodeProto:
    return node(NHWC, op, ins, outs, **attrs)


X4 = tensor("x", ["n", "h", "w", 8])
HW = [{"n": 1, "h": 9, "w": 7}, {"n": 2, "h": 4, "w": 5}, {"n": 0, "h": 6, "w": 6}]
NHWC_ROWS = [
    pytest.param(nhwc("Conv", ["x", "wt", "b"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
                 [X4], [w("wt", 16, 8, 3, 3), w("b", 16)], id="Conv"),
    pytest.param(nhwc("Conv", ["x", "wt"], ["y"], group=4, dilations=[2, 1], pads=[2, 0, 1, 1],
                      activation="Relu"), [X4], [w("wt", 12, 2, 3, 3)], id="Conv-grouped-dilated"),
    pytest.param(nhwc("Conv", ["x", "wt"], ["y"], strides=[2, 3], auto_pad="SAME_LOWER"), [X4],
                 [w("wt", 4, 8, 2, 3)], id="Conv-same"),
    pytest.param(nhwc("ConvTranspose", ["x", "wt"], ["y"], strides=[2, 3], output_padding=[1, 0], pads=[1, 0, 0, 1]),
                 [X4], [w("wt", 8, 5, 3, 2)], id="ConvTranspose"),
    pytest.param(nhwc("MaxPool", ["x"], ["y", "idx"], kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1), [X4], [],
                 id="MaxPool-with-indices"),
    pytest.param(nhwc("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], pads=[1, 0, 1, 0], count_include_pad=1),
                 [X4], [], id="AveragePool"),
    pytest.param(nhwc("LpPool", ["x"], ["y"], kernel_shape=[2, 3], strides=[1, 2]), [X4], [], id="LpPool"),
    pytest.param(nhwc("GlobalAveragePool", ["x"], ["y"]), [X4], [], id="GlobalAveragePool"),
    pytest.param(nhwc("GlobalMaxPool", ["x"], ["y"]), [tensor("x", ["n", "h", 8])], [], id="GlobalMaxPool-1d"),
    pytest.param(nhwc("GlobalLpPool", ["x"], ["y"]), [X4], [], id="GlobalLpPool"),
    pytest.param(nhwc("BatchNormalization", ["x", "s", "bb", "m", "v"], ["y"]), [X4],
                 [w("s", 8), w("bb", 8), w("m", 8), array("v", np.ones(8, np.float32))], id="BatchNormalization"),
    pytest.param(nhwc("InstanceNormalization", ["x", "s", "bb"], ["y"]), [X4], [w("s", 8), w("bb", 8)],
                 id="InstanceNormalization"),
    pytest.param(nhwc("LRN", ["x"], ["y"], size=3), [X4], [], id="LRN"),
    pytest.param(nhwc("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD"), [X4], [], id="DepthToSpace"),
    pytest.param(nhwc("GridSample", ["x", "g"], ["y"]), [X4, tensor("g", ["n", 3, 5, 2])], [], id="GridSample"),
]


@pytest.mark.parametrize("n, inputs, inits", NHWC_ROWS)
def test_nhwc_matches_its_nchw_twin(n: onnx.NodeProto, inputs: list[onnx.ValueInfoProto],
                                    inits: list[onnx.TensorProto]) -> None:
    nhwc_vs_twin(n, inputs, HW, inits)


def test_nhwc_space_to_depth_and_max_unpool() -> None:
    s2d = nhwc("SpaceToDepth", ["x"], ["y"], blocksize=2)
    nhwc_vs_twin(s2d, [X4], [{"n": 1, "h": 4, "w": 6}, {"n": 2, "h": 2, "w": 8}, {"n": 0, "h": 6, "w": 2}])
    # indices (input 1) stay NCHW: the layout transformer transposes input 0 only
    unpool = nhwc("MaxUnpool", ["x", "i"], ["y"], kernel_shape=[2, 2], strides=[2, 2])
    ins = [X4, tensor("i", ["n", 8, "h", "w"], I64)]
    a = nhwc_vs_twin(unpool, ins, HW)
    assert at(a, "y", {"n": 1, "h": 3, "w": 5}) == (1, 6, 10, 8)


def test_nhwc_contract_values() -> None:
    """Derived by hand from the ONNX formulas behind the schemas: Conv 3x3, stride 2, pad 1 on
    H gives (H + 2 - 3)//2 + 1; MaxPool's indices output keeps NCHW (NhwcInferenceContext
    moves output 0 only)."""
    a = analyze_onnx(model_of([NHWC_ROWS[0].values[0]], [X4], [w("wt", 16, 8, 3, 3), w("b", 16)]))
    for h in range(1, 12):
        assert at(a, "y", {"n": 2, "h": h, "w": 2 * h}) == (2, (h + 2 - 3) // 2 + 1, (2 * h + 2 - 3) // 2 + 1, 16)
    a = analyze_onnx(model_of([nhwc("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 2], strides=[2, 2])], [X4]))
    assert at(a, "y", {"n": 1, "h": 8, "w": 6}) == (1, 4, 3, 8)
    assert at(a, "idx", {"n": 1, "h": 8, "w": 6}) == (1, 8, 4, 3)


def test_nhwc_resize_keeps_its_own_layout() -> None:
    """Resize's schema runs the ONNX inference on the NHWC input as is (scales permuted)."""
    n = nhwc("Resize", ["x", "", "sc"], ["y"], mode="nearest")
    sc = array("sc", np.array([1, 2, 3, 1], np.float32))
    a = analyze_onnx(model_of([n], [X4], [sc]))
    plain = model_of([helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest")], [X4], [sc])
    for env in HW:
        observed = run(plain, feeds_for(plain, env))["y"].shape
        assert at(a, "y", env) == observed == (env["n"], 2 * env["h"], 3 * env["w"], 8)


def test_nhwc_qlinear_ops() -> None:
    """QLinearConv against ai.onnx QLinearConv, QLinearAveragePool against the com.microsoft
    kernel in NCHW, QLinearConvTranspose (no kernel anywhere here) against the float op."""
    q = [array("xs", np.float32(0.1)), array("xz", np.uint8(1)), array("ws", np.float32(0.2)), array("wz", np.uint8(2)),
         array("ys", np.float32(0.3)), array("yz", np.uint8(3))]
    xq = tensor("x", ["n", "h", "w", 8], U8)
    wq = array("wq", np.ones((16, 8, 3, 3), np.uint8))
    conv = nhwc("QLinearConv", ["x", "xs", "xz", "wq", "ws", "wz", "ys", "yz"], ["y"], kernel_shape=[3, 3],
                strides=[2, 1], pads=[0, 1, 0, 1])
    samples = [{"n": 1, "h": 5, "w": 4}, {"n": 2, "h": 3, "w": 1}, {"n": 0, "h": 7, "w": 2}]
    nhwc_vs_twin(conv, [xq], samples, [*q, wq], twin_model=twin(conv, [xq], [*q, wq], dtype=U8))
    pool = nhwc("QLinearAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                pads=[1, 1, 1, 1], channels_last=1)
    tm = twin(pool, [xq], q, domain=MS, dtype=U8)
    nhwc_vs_twin(pool, [xq], HW, q, twin_model=tm)
    wt = w("wt", 8, 6, 3, 3)
    deconv = nhwc("QLinearConvTranspose", ["x", "xs", "xz", "wt", "ws", "wz", "ys", "yz"], ["y"], strides=[2, 2],
                  pads=[1, 1, 0, 0])
    float_twin = twin(helper.make_node("ConvTranspose", ["x", "wt"], ["y"], strides=[2, 2], pads=[1, 1, 0, 0]),
                      [X4], [wt])
    nhwc_vs_twin(deconv, [xq], HW, [*q, wt], twin_model=float_twin)


@pytest.mark.parametrize("nodes, inputs, inits", [
    ([nhwc("Conv", ["x", "wt"], ["y"])], [tensor("x", ["n", 8])], [w("wt", 4, 8)]),
    ([nhwc("MaxPool", ["x"], ["y"])], [X4], []),
    ([nhwc("DepthToSpace", ["x"], ["y"], blocksize=0)], [X4], []),
], ids=["Conv-rank2", "MaxPool-no-kernel_shape", "DepthToSpace-blocksize0"])
def test_nhwc_malformed(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
                        inits: list[onnx.TensorProto]) -> None:
    with pytest.raises(ModelError):
        analyze_onnx(model_of(nodes, inputs, inits))


# =========================================================================== com.microsoft
def test_nhwc_max_pool_against_onnxruntime() -> None:
    nodes = [node(MS, "NhwcMaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
             node(MS, "NhwcMaxPool", ["y"], ["z"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)]
    m = model_of(nodes, [tensor("x", ["n", "h", "w", 5], U8)], types={"y": U8, "z": U8}, outputs=["z"])
    ort_check(m, [{"n": 1, "h": 7, "w": 9}, {"n": 2, "h": 1, "w": 2}, {"n": 0, "h": 16, "w": 5}])


def test_nhwc_conv_ops_against_twins() -> None:
    """NhwcConv's weight is channels last (M, kH, kW, C/group); NhwcFusedConv's is Conv's."""
    conv = node(MS, "NhwcConv", ["x", "wl", "b"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1])
    wl = np.random.default_rng(0).standard_normal((16, 3, 2, 8)).astype(np.float32)
    tm = twin(helper.make_node("Conv", ["x", "wo", "b"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1]),
              [X4], [array("wo", wl.transpose(0, 3, 1, 2)), w("b", 16)])
    a = nhwc_vs_twin(conv, [X4], HW, [array("wl", wl), w("b", 16)], twin_model=tm)
    assert at(a, "y", {"n": 1, "h": 5, "w": 5}) == (1, 3, 3, 16)  # (5 + 2 - 3)//2 + 1, (5 + 2 - 2)//2 + 1
    fused = node(MS, "NhwcFusedConv", ["x", "wt", "", "z"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                 activation="Relu")
    ins = [X4, tensor("z", ["n", "h", "w", 4])]
    tm = twin(helper.make_node("Conv", ["x", "wt"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]), [X4],
              [w("wt", 4, 8, 3, 3)])
    a = nhwc_vs_twin(fused, ins, HW, [w("wt", 4, 8, 3, 3)], twin_model=tm)
    assert a.shape("z") == a.shape("y")


def test_contrib_nchw_ops_against_onnxruntime() -> None:
    x = tensor("x", ["n", 3, "h", "w"])
    nodes = [
        node(MS, "GridSample", ["x", "g"], ["gs"], mode="bilinear"),
        node(MS, "Pad", ["x", "pads"], ["p1"]),  # (n, 4, h + 4, w + 2)
        node(MS, "Pad", ["p1", "pads2d", "v"], ["p2"]),  # (n + 1, 4, h + 5, w + 3)
        node(MS, "MaxpoolWithMask", ["p2", "m"], ["mp"], kernel_shape=[2, 2], strides=[2, 2]),
        node(MS, "ConvTransposeWithDynamicPads", ["mp", "wt", "dp", "bt"], ["ct"], strides=[2, 2],
             output_padding=[1, 0]),
    ]
    inits = [const("pads", [0, 0, 1, 2, 0, 1, 3, 0]), array("pads2d", np.array([[1, 0, 0, 0, 0, 0, 1, 1]], np.int64)),
             array("v", np.float32(0.5)), w("wt", 4, 2, 3, 3), w("bt", 2), const("dp", [1, 0, 0, 2])]
    m = model_of(nodes, [x, tensor("g", ["n", "a", "b", 2]), tensor("m", [1, 1, "mh", "mw"], I32)], inits,
                 outputs=["gs", "ct"])
    samples = [{"n": 1, "h": 4, "w": 5, "a": 2, "b": 3, "mh": 9, "mw": 8},
               {"n": 2, "h": 2, "w": 1, "a": 1, "b": 1, "mh": 7, "mw": 4},
               {"n": 0, "h": 3, "w": 2, "a": 0, "b": 4, "mh": 8, "mw": 5}]
    a = ort_check(m, samples)
    assert a.shape("m")[2:] == a.shape("p2")[2:]  # the mask's spatial dims are facts


def test_conv_transpose_dynamic_pads_from_data() -> None:
    """Pads computed from a shape are exact expressions; pads of unknown value give a data
    symbol per spatial axis (bound by the run)."""
    x = tensor("x", ["n", 3, "h", "w"])
    nodes = [helper.make_node("Shape", ["x"], ["s"], start=2, end=3),  # pads [0, 0, h, 0]: the height pad is h
             helper.make_node("Concat", ["z2", "s", "z1"], ["dp"], axis=0),
             node(MS, "ConvTransposeWithDynamicPads", ["x", "wt", "dp"], ["y"], strides=[3, 3]),
             node(MS, "ConvTransposeWithDynamicPads", ["x", "wt", "q"], ["y2"], strides=[2, 2])]
    inits = [const("z2", [0, 0]), const("z1", [0]), w("wt", 3, 2, 3, 3)]
    m = model_of(nodes, [x, tensor("q", [4], I64)], inits, types={"s": I64, "dp": I64}, outputs=["y", "y2"])
    feeds = {"x": rand(2, 3, 4, 5), "q": np.array([1, 0, 2, 1], np.int64)}
    report = check(m, [feeds, {"x": rand(1, 3, 2, 1), "q": np.array([0, 0, 0, 0], np.int64)}])
    assert_sound(report)
    a = report.analysis
    assert at(a, "y", {"n": 2, "h": 4, "w": 5}) == (2, 2, 3 * 3 + 3 - 4, 3 * 4 + 3)  # s*(in-1) + k - pads
    assert all(as_symbol(d) is not None for d in a.shape("y2")[2:])


@pytest.mark.parametrize("nodes, inputs, inits", [
    ([node(MS, "Pad", ["x", "pads"], ["y"])], [tensor("x", ["n", 3])], [array("pads", np.zeros((2, 2), np.int64))]),
    ([node(MS, "MaxpoolWithMask", ["x", "m"], ["y"], kernel_shape=[2, 2])],
     [tensor("x", ["n", 3, 4, 4]), tensor("m", [4, 4], I32)], []),
    ([node(MS, "ConvTransposeWithDynamicPads", ["x", "wt"], ["y"])], [tensor("x", ["n", 3, 4, 4])],
     [w("wt", 3, 2, 3, 3)]),
    ([node(MS, "ConvTransposeWithDynamicPads", ["x", "wt", "dp"], ["y"])], [tensor("x", ["n", 3, 4, 4])],
     [w("wt", 3, 2, 3, 3), const("dp", [-1, 0, 0, 0])]),
    ([node(MS, "NhwcConv", ["x", "wt"], ["y"])], [tensor("x", ["n", 8])], [w("wt", 4, 8)]),
    ([node(MS, "NhwcMaxPool", ["x"], ["y"], kernel_shape=[2, 2])], [tensor("x", ["n", 4], U8)], []),
], ids=["Pad-pads-2x2", "MaxpoolWithMask-mask-rank", "ConvTransposeWithDynamicPads-no-pads",
        "ConvTransposeWithDynamicPads-negative-pad", "NhwcConv-rank2", "NhwcMaxPool-rank2"])
def test_contrib_malformed(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
                           inits: list[onnx.TensorProto]) -> None:
    with pytest.raises(ModelError):
        analyze_onnx(model_of(nodes, inputs, inits))
