"""Each malformed-model message of the ONNX rules and the oracle, pinned whole: a small model that
breaks one rule's contract, and the exact text it must give (where, found, expected, fix).

The expected texts are written out by hand from the op's contract, so a change of wording shows
up here; tests/errors/test_bad_input.py pins the reader's and the schema checker's messages.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.api import analyze_onnx
from symshape.errors import FIX_MODEL, ContradictionError, ModelError, SymshapeError
from tests.oracle import const, make_model, tensor

N = helper.make_node
F = TensorProto.FLOAT
I64 = TensorProto.INT64
CONTRACT = "check the model against the op's contract (onnxruntime's ContribOperators.md)"


def _ms(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
        inits: list[onnx.TensorProto] | None = None) -> onnx.ModelProto:
    m = make_model(nodes, inputs, None, inits or [])
    m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return m


def _graph(nodes: list[onnx.NodeProto], inputs: list[str], outputs: list[str]) -> onnx.GraphProto:
    return helper.make_graph(
        nodes, "body", [tensor(n, None) for n in inputs], [helper.make_tensor_value_info(o, F, None) for o in outputs]
    )


def _if_with_a_two_output_branch() -> onnx.ModelProto:
    two = _graph([N("Identity", ["x"], ["a"]), N("Identity", ["x"], ["b"])], [], ["a", "b"])
    one = _graph([N("Identity", ["x"], ["c"])], [], ["c"])
    node = N("If", ["cond"], ["y"], then_branch=two, else_branch=one)
    return make_model([node], [tensor("cond", [], TensorProto.BOOL), tensor("x", ["a"])], ["y"])


def _if_where_neither_branch_can_run() -> onnx.ModelProto:
    def dead(out: str) -> onnx.GraphProto:  # x [a, 3] @ w [4, 2]: a contradiction inside the branch
        w = helper.make_tensor("w", F, [4, 2], [0.0] * 8)
        body = _graph([N("MatMul", ["x", "w"], [out])], [], [out])
        body.initializer.append(w)
        return body

    node = N("If", ["cond"], ["y"], then_branch=dead("t"), else_branch=dead("e"))
    return make_model([node], [tensor("cond", [], TensorProto.BOOL), tensor("x", ["a", 3])], ["y"])


def _loop_with_a_short_body() -> onnx.ModelProto:
    body = _graph([N("Identity", ["c_in"], ["c_out"])], ["i", "c_in"], ["c_out"])  # no slot for the carried v
    node = N("Loop", ["m", "", "v"], ["v_out"], body=body)
    return make_model([node], [tensor("m", [], I64), tensor("v", ["n"])], ["v_out"])


def _scan(num_scan_inputs: int, body_inputs: list[str]) -> onnx.ModelProto:
    body = _graph([N("Identity", [body_inputs[-1]], ["s_out"])], body_inputs, ["s_out"])
    node = N("Scan", ["x"], ["y"], body=body, num_scan_inputs=num_scan_inputs)
    return make_model([node], [tensor("x", ["t", 4])], ["y"])


def _sequence_erase_from_empty() -> onnx.ModelProto:
    nodes = [N("SequenceEmpty", [], ["s"]), N("SequenceErase", ["s", "pos"], ["r"]), N("SequenceLength", ["r"], ["y"])]
    return make_model(nodes, [tensor("pos", [], I64)], ["y"])


def _sequence_at(position: list[int]) -> onnx.ModelProto:
    nodes = [N("SequenceConstruct", ["x", "x"], ["s"]), N("SequenceAt", ["s", "p"], ["y"])]
    return make_model(nodes, [tensor("x", ["a"])], ["y"], [const("p", position)])


def _unchecked(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto]) -> onnx.ModelProto:
    """A model that imports no ai.onnx opset, so no schema checks its nodes: the rules' own
    checks of required inputs and attributes are what stands between it and a crash."""
    outputs = [helper.make_tensor_value_info(nodes[-1].output[0], F, None)]
    graph = helper.make_graph(nodes, "test", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", 3)])


# (id, model, error class, the whole message before the docs link)
CASES: list[tuple[str, Callable[[], onnx.ModelProto], type[SymshapeError], str]] = [
    ("if-branch-outputs", _if_with_a_two_output_branch, ModelError,
     f"If (node 'If_0'): a branch has 2 outputs, the node 1, expected branches with one output per node output; "
     f"{FIX_MODEL}"),
    ("if-neither-branch", _if_where_neither_branch_can_run, ContradictionError,
     "If (node 'If_0'): neither branch can run: .*must equal.*; .*must equal.*, expected at least one branch that "
     "can run; check the ops each branch's contradiction names"),
    ("loop-body", _loop_with_a_short_body, ModelError,
     "Loop (node 'Loop_0'): the body has 2 inputs and 1 outputs, expected 3 inputs and at least 2 outputs for 1 "
     f"carried values; {FIX_MODEL}"),
    ("scan-no-scan-inputs", lambda: _scan(0, ["s_in"]), ModelError,
     "Scan (node 'Scan_0'): num_scan_inputs 0 does not fit 1 inputs, expected 1 <= num_scan_inputs <= 1; fix the "
     "num_scan_inputs attribute"),
    ("scan-body", lambda: _scan(1, ["a", "b"]), ModelError,
     "Scan (node 'Scan_0'): the body has 2 inputs and 1 outputs, expected 1 inputs (0 states + 1 scan inputs) and 1 "
     f"outputs, as the node has; {FIX_MODEL}"),
    ("compress-condition", lambda: make_model([N("Compress", ["x", "c"], ["y"], axis=0)],
                                              [tensor("x", ["a"]), tensor("c", [2, 2], TensorProto.BOOL)]),
     ModelError, f"Compress (node 'Compress_0'): the condition has rank 2, expected a 1-D condition; {FIX_MODEL}"),
    ("nms-ranks", lambda: make_model([N("NonMaxSuppression", ["b", "s"], ["y"])],
                                     [tensor("b", ["n", 4]), tensor("s", [1, 1, "n"])]),
     ModelError, "NonMaxSuppression (node 'NonMaxSuppression_0'): boxes of rank 2 and scores of rank 3, expected 3-D "
     f"boxes [batch, boxes, 4] and scores [batch, classes, boxes]; {FIX_MODEL}"),
    ("window-size", lambda: make_model([N("HannWindow", ["n"], ["y"])], [], ["y"], [const("n", -3)]),
     ModelError, "HannWindow (node 'HannWindow_0'): window size is -3, expected window size >= 0; fix the window size "
     "input"),
    ("random-shape", lambda: make_model([N("RandomNormal", [], ["y"], shape=[2, -1])], [], ["y"]),
     ModelError, "RandomNormal (node 'RandomNormal_0'): shape [2, -1] has a negative dim, expected dims >= 0; fix the "
     "shape attribute"),
    ("multinomial-rank", lambda: make_model([N("Multinomial", ["x"], ["y"])], [tensor("x", ["b", 3, 4])]),
     ModelError, f"Multinomial (node 'Multinomial_0'): the input has rank 3, expected a 2-D [batch, classes] input; "
     f"{FIX_MODEL}"),
    ("dft-complex-axis", lambda: make_model([N("DFT", ["x"], ["y"], axis=2)], [tensor("x", ["b", "n", 2])], opset=17),
     ModelError, "DFT (node 'DFT_0'): axis 2 is the complex-component dim, expected a signal axis (any dim but the "
     "last of rank 3); fix the axis"),
    ("dft-rank", lambda: make_model([N("DFT", ["x"], ["y"])], [tensor("x", ["n"])], opset=17),
     ModelError, "DFT (node 'DFT_0'): the input has rank 1, expected rank >= 2 (the signal dims and a last dim of 1 "
     f"or 2); {FIX_MODEL}"),
    ("stft-rank", lambda: make_model([N("STFT", ["x", "step"], ["y"])], [tensor("x", ["b", "n"])], ["y"],
                                     [const("step", 4)]),
     ModelError, "STFT (node 'STFT_0'): the signal has rank 2, expected a signal [batch, length, 1 or 2]; "
     f"{FIX_MODEL}"),
    ("gather-elements-ranks", lambda: make_model([N("GatherElements", ["x", "i"], ["y"])],
                                                 [tensor("x", ["a", 2]), tensor("i", ["k"], I64)]),
     ModelError, "GatherElements (node 'GatherElements_0'): input #0 has rank 2 but input #1 has rank 1, expected "
     f"the same rank; {FIX_MODEL}"),
    ("gather-elements-scalar", lambda: make_model([N("GatherElements", ["x", "i"], ["y"])],
                                                  [tensor("x", []), tensor("i", [], I64)]),
     ModelError, "GatherElements (node 'GatherElements_0'): data is a scalar, expected data of rank >= 1; "
     f"{FIX_MODEL}"),
    ("gather-nd-scalar-indices", lambda: make_model([N("GatherND", ["x", "i"], ["y"])],
                                                    [tensor("x", ["a", 2]), tensor("i", [], I64)]),
     ModelError, f"GatherND (node 'GatherND_0'): indices is a scalar, expected indices of rank >= 1; {FIX_MODEL}"),
    ("gather-nd-batch-dims", lambda: make_model([N("GatherND", ["x", "i"], ["y"], batch_dims=2)],
                                                [tensor("x", ["a", 2]), tensor("i", ["a", 1], I64)]),
     ModelError, "GatherND (node 'GatherND_0'): batch_dims 2 with index depth 1 does not fit data of rank 2 and "
     "indices of rank 2, expected 0 <= batch_dims < min(rank(data), rank(indices)) and batch_dims + depth <= "
     "rank(data); fix the batch_dims attribute or the indices"),
    ("scatter-nd-depth", lambda: make_model([N("ScatterND", ["x", "i", "u"], ["y"])],
                                            [tensor("x", ["a", 2]), tensor("i", [1, 3], I64), tensor("u", [1])]),
     ModelError, "ScatterND (node 'ScatterND_0'): index depth 3 (indices.shape[-1]) exceeds the data rank 2, expected "
     f"a depth <= 2; {FIX_MODEL}"),
    ("scatter-nd-updates", lambda: make_model([N("ScatterND", ["x", "i", "u"], ["y"])],
                                              [tensor("x", ["a", 2]), tensor("i", [1, 1], I64),
                                               tensor("u", [1, 2, 3])]),
     ModelError, "ScatterND (node 'ScatterND_0'): updates have rank 3, expected 2 (rank(indices) - 1 + rank(data) - "
     f"indices.shape[-1]); {FIX_MODEL}"),
    ("one-hot-depth", lambda: make_model([N("OneHot", ["i", "d", "v"], ["y"])], [tensor("i", ["n"], I64)], ["y"],
                                         [const("d", [0]), helper.make_tensor("v", F, [2], [0.0, 1.0])]),
     ModelError, "OneHot (node 'OneHot_0'): depth is 0, expected a depth >= 1; fix the depth input"),
    ("top-k-negative", lambda: make_model([N("TopK", ["x", "k"], ["v", "i"])], [tensor("x", ["a", 8])], ["v", "i"],
                                          [const("k", [-1])]),
     ModelError, "TopK (node 'TopK_0'): k is -1, expected k >= 0; fix the k input"),
    ("reverse-sequence-lens", lambda: make_model([N("ReverseSequence", ["x", "l"], ["y"])],
                                                 [tensor("x", ["t", "b", 2]), tensor("l", ["b", 1], I64)]),
     ModelError, f"ReverseSequence (node 'ReverseSequence_0'): sequence_lens has rank 2, expected a 1-D sequence_lens; "
     f"{FIX_MODEL}"),
    ("gather-block-quantized-bits", lambda: _ms([N("GatherBlockQuantized", ["x", "i", "s"], ["y"],
                                                   domain="com.microsoft", bits=3)],
                                                [tensor("x", [16, 32], TensorProto.UINT8), tensor("i", ["n"], I64),
                                                 tensor("s", [16, 1])]),
     ModelError, "com.microsoft::GatherBlockQuantized (node 'GatherBlockQuantized_0'): bits 3 / block_size 128 are "
     "not supported values, expected bits in (2, 4, 8) and block_size >= 1; fix the bits and block_size attributes"),
    ("matmul-scalar", lambda: make_model([N("MatMul", ["x", "w"], ["y"])], [tensor("x", []), tensor("w", [3])]),
     ModelError, f"MatMul (node 'MatMul_0'): operands of rank 0 and 1, expected MatMul operands of rank >= 1; "
     f"{FIX_MODEL}"),
    ("gemm-rank", lambda: make_model([N("Gemm", ["a", "b"], ["y"])], [tensor("a", [2, 3, 4]), tensor("b", [4, 5])]),
     ModelError, f"Gemm (node 'Gemm_0'): operands of rank 3 and 2, expected 2-D Gemm operands; {FIX_MODEL}"),
    ("einsum-term-rank", lambda: make_model([N("Einsum", ["x"], ["y"], equation="ij->i")], [tensor("x", [2, 3, 4])]),
     ModelError, "Einsum (node 'Einsum_0'): term 'ij' has 2 labels for the rank 3 of input #0, expected one label per "
     "dim (or a '...' for the rest); fix the equation attribute"),
    ("reshape-zero-next-to-minus-one", lambda: make_model([N("Reshape", ["x", "t"], ["y"], allowzero=1)],
                                                          [tensor("x", ["a", 4])], ["y"], [const("t", [0, -1])]),
     ModelError, "Reshape (node 'Reshape_0'): target element 0 is 0 next to a -1, which makes the -1 ambiguous, "
     "expected non-zero target dims next to a -1; fix the target shape"),
    ("reshape-two-minus-ones", lambda: make_model([N("Reshape", ["x", "t"], ["y"])], [tensor("x", ["a", 4])], ["y"],
                                                  [const("t", [-1, 2, -1])]),
     ModelError, "Reshape (node 'Reshape_0'): more than one -1 in the target shape (elements 0 and 2), expected at "
     "most one -1; fix the target shape"),
    ("reshape-zero-past-rank", lambda: make_model([N("Reshape", ["x", "t"], ["y"])], [tensor("x", ["a", 4])], ["y"],
                                                  [const("t", [-1, 2, 0])]),
     ModelError, "Reshape (node 'Reshape_0'): target element 2 is 0 (copy the input dim) but the input has rank 2, "
     "expected 0 only at positions < 2; fix the target shape"),
    ("reshape-below-minus-one", lambda: make_model([N("Reshape", ["x", "t"], ["y"])], [tensor("x", ["a", 4])], ["y"],
                                                   [const("t", [-2, 4])]),
     ModelError, "Reshape (node 'Reshape_0'): target element 0 is -2, expected elements >= -1; fix the target shape"),
    ("flatten-axis", lambda: make_model([N("Flatten", ["x"], ["y"], axis=5)], [tensor("x", ["a", 4])]),
     ModelError, "Flatten (node 'Flatten_0'): axis 5 is out of range for rank 2, expected an axis in [-2, 2]; fix the "
     "axis attribute"),
    ("tile-repeats", lambda: make_model([N("Tile", ["x", "r"], ["y"])], [tensor("x", ["a", 4])], ["y"],
                                        [const("r", [2])]),
     ModelError, f"Tile (node 'Tile_0'): 1 repeats for rank 2, expected 2 repeats (one per dim); {FIX_MODEL}"),
    ("transpose-perm", lambda: make_model([N("Transpose", ["x"], ["y"], perm=[0, 0])], [tensor("x", ["a", 4])]),
     ModelError, "Transpose (node 'Transpose_0'): perm [0, 0] is not a permutation of rank 2, expected each of 0..1 "
     "once; fix the perm attribute"),
    ("sequence-at-position", lambda: _sequence_at([0, 1]), ModelError,
     f"SequenceAt (node 'SequenceAt_1'): the position input has 2 elements, expected a scalar position; {FIX_MODEL}"),
    ("sequence-at-out-of-range", lambda: _sequence_at([2]), ModelError,
     "SequenceAt (node 'SequenceAt_1'): position 2 is out of range for a sequence of 2 elements, expected a position "
     "in [-2, 1]; fix the position input"),
    ("sequence-erase-empty", _sequence_erase_from_empty, ModelError,
     "SequenceErase (node 'SequenceErase_1'): it erases from an empty sequence, expected a sequence with at least one "
     f"element; {FIX_MODEL}"),
    ("split-to-sequence-rank", lambda: make_model([N("SplitToSequence", ["x", "s"], ["q"]),
                                                   N("SequenceLength", ["q"], ["y"])],
                                                  [tensor("x", ["a", 4]), tensor("s", [1, 2], I64)], ["y"]),
     ModelError, f"SplitToSequence (node 'SplitToSequence_0'): split has rank 2, expected a scalar or 1-D split; "
     f"{FIX_MODEL}"),
    ("split-to-sequence-zero", lambda: make_model([N("SplitToSequence", ["x", "s"], ["q"]),
                                                   N("SequenceLength", ["q"], ["y"])],
                                                  [tensor("x", ["a", 4])], ["y"], [const("s", 0)]),
     ModelError, "SplitToSequence (node 'SplitToSequence_0'): the split size is 0, expected a split size > 0; fix the "
     "split input"),
    ("constant-of-shape-negative", lambda: make_model([N("ConstantOfShape", ["s"], ["y"])], [], ["y"],
                                                      [const("s", [2, -1])]),
     ModelError, "ConstantOfShape (node 'ConstantOfShape_0'): shape element 1 (input #0) is -1, expected dims >= 0; "
     "fix the shape input"),
    ("concat-ranks", lambda: make_model([N("Concat", ["x", "z"], ["y"], axis=0)],
                                        [tensor("x", ["a", 2]), tensor("z", [3])]),
     ModelError, f"Concat (node 'Concat_0'): input #1 has rank 1, expected 2, the rank of input #0; {FIX_MODEL}"),
    ("slice-step-zero", lambda: make_model([N("Slice", ["x", "s", "e", "ax", "st"], ["y"])], [tensor("x", ["a", 4])],
                                           ["y"], [const("s", [0]), const("e", [2]), const("ax", [1]),
                                                   const("st", [0])]),
     ModelError, "Slice (node 'Slice_0'): the slice step on axis 1 is 0, expected a non-zero step; fix the steps "
     "input"),
    ("split-count", lambda: make_model([N("Split", ["x", "s"], ["p", "q"], axis=1)], [tensor("x", ["a", 6])],
                                       ["p", "q"], [const("s", [2, 2, 2])]),
     ModelError, f"Split (node 'Split_0'): 3 split sizes for 2 outputs, expected 2 split sizes (one per output); "
     f"{FIX_MODEL}"),
    ("attention-qkv-sizes", lambda: _ms([N("Attention", ["x", "w", "b"], ["y"], domain="com.microsoft", num_heads=2,
                                           qkv_hidden_sizes=[4, 8, 4])],
                                        [tensor("x", ["b", "s", 16]), tensor("w", [16, 16]), tensor("b", [16])]),
     ModelError, "com.microsoft::Attention (node 'Attention_0'): qkv_hidden_sizes is [4, 8, 4], expected [D, D, D_v] "
     f"(query and key sizes equal); {CONTRACT}"),
    ("mha-packed-query-with-key", lambda: _ms([N("MultiHeadAttention", ["q", "k", "v"], ["y"], domain="com.microsoft",
                                                 num_heads=2)],
                                              [tensor("q", ["b", "s", 2, 3, 4]), tensor("k", ["b", "s", 8]),
                                               tensor("v", ["b", "s", 8])]),
     ModelError, "com.microsoft::MultiHeadAttention (node 'MultiHeadAttention_0'): a packed (5-D) query comes with a "
     f"key and value, expected a packed query alone, or a 3-D query with key and value; {CONTRACT}"),
    ("bias-dropout-residual", lambda: _ms([N("BiasDropout", ["x", "b", "r"], ["y", "m"], domain="com.microsoft")],
                                          [tensor("x", ["b", "s", 8]), tensor("b", [8]), tensor("r", ["s", 8])]),
     ModelError, "com.microsoft::BiasDropout (node 'BiasDropout_0'): the residual has rank 2, expected 3, the rank of "
     f"data; {CONTRACT}"),
    ("matmul-nbits-scalar", lambda: _ms([N("MatMulNBits", ["a", "q", "sc"], ["y"], domain="com.microsoft", K=16, N=8,
                                           bits=4, block_size=16)],
                                        [tensor("a", []), tensor("q", [8, 1, 8], TensorProto.UINT8),
                                         tensor("sc", [8])]),
     ModelError, f"com.microsoft::MatMulNBits (node 'MatMulNBits_0'): input A is a scalar, expected A of rank >= 1; "
     f"{CONTRACT}"),
    ("fused-conv-z", lambda: _ms([N("FusedConv", ["x", "w", "b", "z"], ["y"], domain="com.microsoft",
                                    kernel_shape=[1, 1])],
                                 [tensor("x", [1, 2, 4, 4]), tensor("z", [1, 3, 4])],
                                 [helper.make_tensor("w", F, [3, 2, 1, 1], [0.0] * 6),
                                  helper.make_tensor("b", F, [3], [0.0] * 3)]),
     ModelError, "com.microsoft::FusedConv (node 'FusedConv_0'): input Z has rank 3, expected 4, the rank of the "
     f"output; {CONTRACT}"),
    ("rfft-signal-ndim", lambda: _ms([N("Rfft", ["x"], ["y"], domain="com.microsoft", signal_ndim=3)],
                                     [tensor("x", ["b", 8])]),
     ModelError, "com.microsoft::Rfft (node 'Rfft_0'): signal_ndim 3 does not fit an input of rank 2, expected an int "
     "in [1, 2]; fix the signal_ndim attribute"),
    ("concat-no-inputs", lambda: make_model([N("Concat", [], ["y"], axis=0)], [], ["y"], opset=17), ModelError,
     "Concat (node 'Concat_0'): 0 inputs, expected at least 1; fix the model or re-export it (onnx.checker.check_model "
     "tells more)"),
    ("unchecked-one-hot-depth", lambda: _unchecked([N("OneHot", ["i"], ["y"])], [tensor("i", ["n"], I64)]),
     ModelError, "OneHot (node 'OneHot_0'): the required input #1 is missing, expected the name of a value; check the "
     "model"),
    ("unchecked-random-shape", lambda: _unchecked([N("RandomNormal", [], ["y"])], []), ModelError,
     "RandomNormal (node 'RandomNormal_0'): the shape attribute is required but missing, expected a list of ints; "
     "give the shape attribute"),
    ("unchecked-top-k", lambda: _unchecked([N("TopK", ["x"], ["v", "i"])], [tensor("x", ["a", 4])]), ModelError,
     "TopK (node 'TopK_0'): k is missing, expected k as an input (since opset 10) or an attribute (before); give k"),
    ("unchecked-concat-from-sequence", lambda: _unchecked([N("SequenceConstruct", ["x"], ["s"]),
                                                           N("ConcatFromSequence", ["s"], ["y"])],
                                                          [tensor("x", ["a", 4])]),
     ModelError, "ConcatFromSequence (node 'ConcatFromSequence_1'): the axis attribute is required but missing, "
     "expected an int; give the axis"),
    ("unchecked-unsqueeze", lambda: _unchecked([N("Unsqueeze", ["x"], ["y"])], [tensor("x", ["a", 4])]), ModelError,
     "Unsqueeze (node 'Unsqueeze_0'): axes are missing, expected axes as an input (since opset 13) or an attribute "
     "(before); give the axes"),
]


@pytest.mark.parametrize(("model", "error", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_message_says_where_what_expected_and_what_to_do(
    model: Callable[[], onnx.ModelProto], error: type[SymshapeError], message: str
) -> None:
    pattern = ".*".join(re.escape(part) for part in message.split(".*"))
    with pytest.raises(error, match=f"^{pattern} \\(run `symshape explain {error.anchor}`\\)$"):
        analyze_onnx(model())


# ------------------------------------------------------------------ the execution oracle


def test_oracle_without_onnxruntime(monkeypatch: pytest.MonkeyPatch) -> None:
    from symshape.tools.verify import OracleError, run_shapes

    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails as if it were not installed
    model = make_model([N("Relu", ["x"], ["y"])], [tensor("x", [2])])
    expected = (
        "onnxruntime: it is not installed, expected onnxruntime, which the execution oracle runs the model with; "
        "pip install 'symshape[verify]' (onnxruntime alone) (run `symshape explain oracleerror`)"
    )
    with pytest.raises(OracleError) as info:
        run_shapes(model, {"x": np.zeros(2, np.float32)})
    assert str(info.value) == expected


def test_oracle_on_a_model_onnxruntime_refuses() -> None:
    from symshape.tools.verify import OracleError, run_shapes

    graph = helper.make_graph([N("NoSuchOp", ["x"], ["y"])], "g", [tensor("x", [2])], [tensor("y", [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(OracleError, match="^onnxruntime: it cannot load the model: .*NoSuchOp.*, expected a model "
                       "onnxruntime can load; fix the model \\(onnxruntime's reason says what it refuses\\)"):
        run_shapes(model, {"x": np.zeros(2, np.float32)})


def test_oracle_when_no_size_fits_a_symbol() -> None:
    from symshape.tools.verify import OracleError, assignments

    model = make_model([N("Relu", ["x"], ["y"])], [tensor("x", ["n"])])
    result = analyze_onnx(model, facts=["n=1..1"])  # ordinary samples avoid 1: nothing else fits
    with pytest.raises(OracleError, match=r"^symbol 'n': no size fits its facts .*, expected a size the facts admit; "
                       "pass values= for this symbol"):
        assignments(result)
