# pyright: strict
"""torch-mlir's torch dialect types as `TensorType`s: ``!torch.vtensor<[?,8],f32>`` has dims
``(None, 8)`` and dtype ``float32``; ``!torch.int`` is a 0-d int64 (a SymInt), ``!torch.float``
a 0-d float64, ``!torch.bool`` a 0-d bool. Element types take the numpy-style names the
torch.export frontend gives them (`symshape.frontends.fx.call.torch_dtype_name`), so one table of aten
translators reads both. Lists, ``!torch.none``, strings and devices have no dims (rank unknown).

https://github.com/llvm/torch-mlir/blob/main/include/torch-mlir/Dialect/Torch/IR/TorchTypes.td
"""

from __future__ import annotations

import re

from symshape.engine.program import SourceDim, TensorType

__all__ = ["TORCH_DTYPES", "torch_type"]

_TENSOR = re.compile(r"!torch\.v?tensor(?:<(\*|\[[^\]]*\])\s*,\s*([^>]+?)\s*(?:,\s*#.*)?>)?", re.S)
TORCH_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "si8": "int8", "si16": "int16", "si32": "int32", "si64": "int64", "ui8": "uint8", "i1": "bool",
    "complex<f32>": "complex64", "complex<f64>": "complex128",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
}
_SCALARS = {"!torch.int": "int64", "!torch.float": "float64", "!torch.bool": "bool", "!torch.number": "float64"}


def torch_type(text: str) -> TensorType | None:
    """The `TensorType` of a ``!torch.`` type's text, or None for a type of another dialect."""
    if not text.startswith("!torch."):
        return None
    if text in _SCALARS:
        return TensorType(_SCALARS[text], ())
    m = _TENSOR.fullmatch(text)
    if m is None:
        return TensorType(text, None)
    dtype = TORCH_DTYPES.get(m.group(2) or "", m.group(2) or "unknown")
    sizes = m.group(1)
    if sizes is None or sizes == "*":
        return TensorType(dtype, None)
    inner = sizes[1:-1].strip()
    dims: tuple[SourceDim, ...] = tuple(None if d.strip() == "?" else int(d) for d in inner.split(",")) if inner else ()
    return TensorType(dtype, dims)
