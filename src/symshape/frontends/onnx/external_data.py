"""External weights stay where they are: a model written to another folder points at them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import onnx

__all__ = ["relocate_external_data", "stored_tensors"]


def relocate_external_data(model: onnx.ModelProto, src_dir: Path, dst_dir: Path) -> None:
    """Point every external-data location of ``model`` (read from ``src_dir``) at the original
    files, relative to ``dst_dir`` where it will be written: weights are never copied or loaded."""
    if src_dir.resolve() == dst_dir.resolve():
        return
    for tensor in stored_tensors(model.graph):
        if tensor.data_location != onnx.TensorProto.EXTERNAL:
            continue
        for entry in tensor.external_data:
            if entry.key == "location":
                entry.value = os.path.relpath((src_dir / entry.value).resolve(), dst_dir.resolve())


def stored_tensors(graph: onnx.GraphProto) -> Iterator[onnx.TensorProto]:
    """Every tensor stored in ``graph``: initializers and tensor attributes, subgraphs (If, Loop,
    Scan bodies) included."""
    yield from graph.initializer
    for node in graph.node:
        for attr in node.attribute:
            if attr.HasField("t"):
                yield attr.t
            yield from attr.tensors
            if attr.HasField("g"):
                yield from stored_tensors(attr.g)
            for sub in attr.graphs:
                yield from stored_tensors(sub)
