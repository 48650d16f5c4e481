"""`symshape annotate` on models with external data, huge (never loaded) weights, and declared outputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from symshape.tools.annotate import annotate_file
from tests.oracle import assert_sound, check, const, feeds_for

N = helper.make_node


def _dims_of(m: onnx.ModelProto) -> dict[str, list[int | str]]:
    return {
        vi.name: [d.dim_param or d.dim_value for d in vi.type.tensor_type.shape.dim]
        for vi in list(m.graph.value_info) + list(m.graph.output)
    }


def _mlp(weight: onnx.TensorProto, out_dims: list[int | str | None]) -> onnx.ModelProto:
    nodes = [N("MatMul", ["x", "w"], ["h"]), N("Relu", ["h"], ["r"]), N("Reshape", ["r", "t"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", weight.dims[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_dims)],
        [weight, const("t", [0, -1])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def test_external_data_written_elsewhere_still_runs(tmp_path: Path):
    import onnxruntime as ort

    w = helper.make_tensor("w", TensorProto.FLOAT, [16, 8], np.ones(128, np.float32).tolist())
    src_dir, out_dir = tmp_path / "src", tmp_path / "out"
    src_dir.mkdir()
    onnx.save(
        _mlp(w, ["batch", None]),
        src_dir / "m.onnx",
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="m.bin",
        size_threshold=0,
    )
    annotate_file(src_dir / "m.onnx", out_dir / "m.onnx")
    assert not (out_dir / "m.bin").exists()  # weights are neither loaded nor copied
    annotated = onnx.load(out_dir / "m.onnx")  # loads external data through the relocated path
    dims = _dims_of(annotated)
    assert dims["h"] == ["batch", "seq", 8]
    assert dims["y"] == ["batch", "8*seq"]
    session = ort.InferenceSession(str(out_dir / "m.onnx"), providers=["CPUExecutionProvider"])
    (y,) = session.run(None, feeds_for(annotated, {"batch": 2, "seq": 3}))
    assert y.shape == (2, 24)


def test_huge_missing_weights_are_never_read(tmp_path: Path):
    """A 2.3 GB external weight whose file does not exist: analysis only needs its dims."""
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[8, 75_000_000])
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "absent.bin"), ("offset", "0"), ("length", str(8 * 75_000_000 * 4))):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    path = tmp_path / "huge.onnx"
    onnx.save(_mlp(w, ["batch", None]), path)
    annotate_file(path, tmp_path / "huge_annotated.onnx")
    dims = _dims_of(onnx.load(tmp_path / "huge_annotated.onnx", load_external_data=False))
    assert dims["h"] == ["batch", "seq", 75_000_000]
    assert dims["y"] == ["batch", "75000000*seq"]


def test_declared_output_names_are_kept_when_equal(tmp_path: Path):
    w = helper.make_tensor("w", TensorProto.FLOAT, [4, 2], np.ones(8, np.float32).tolist())
    path = tmp_path / "m.onnx"
    onnx.save(_mlp(w, ["batch", "flat_features"]), path)
    annotate_file(path, tmp_path / "a.onnx")
    dims = _dims_of(onnx.load(tmp_path / "a.onnx"))
    assert dims["y"] == ["batch", "2*seq"]  # 'flat_features' is not provably 2*seq: replaced


def test_annotated_dims_match_runtime(tmp_path: Path):
    from symshape.api import analyze_onnx

    w = helper.make_tensor("w", TensorProto.FLOAT, [4, 3], np.ones(12, np.float32).tolist())
    m = _mlp(w, ["batch", None])
    result = analyze_onnx(m)
    assert_sound(check(m, [{"batch": 2, "seq": 5}, {"batch": 1, "seq": 1}], analysis=result))


def test_values_of_unknown_element_type_get_no_value_info_onnxruntime_refuses(tmp_path: Path) -> None:
    """onnx's type inference does not know com.microsoft ops, so their outputs' element types are
    unknown; a value_info of elem_type 0 makes onnxruntime refuse the whole model."""
    import onnxruntime as ort

    nodes = [helper.make_node("FusedMatMul", ["a", "b"], ["c"], domain="com.microsoft", alpha=1.0),
             helper.make_node("Relu", ["c"], ["d"])]
    inputs = [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["n", 4]),
              helper.make_tensor_value_info("b", TensorProto.FLOAT, [4, 3])]
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("d", TensorProto.FLOAT, ["n", 3])])
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 10
    src, out = tmp_path / "m.onnx", tmp_path / "a.onnx"
    onnx.save(model, src)
    annotate_file(src, out)
    annotated = onnx.load(out)
    assert all(vi.type.tensor_type.elem_type != TensorProto.UNDEFINED for vi in annotated.graph.value_info)
    ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])  # loads
