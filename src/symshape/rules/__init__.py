"""Op rules, one package per dialect family, one module per op family.

- `symshape.rules.registry`: the one registration decorator and the lookup.
- `symshape.rules.onnx`, `symshape.rules.onnx_contrib`: ONNX (ai.onnx) and com.microsoft ops.
- `symshape.rules.hlo`: stablehlo and mhlo; `symshape.rules.mlir`: func, arith, tensor, shape,
  cf and our constraint dialect.
- `symshape.rules.shared`: broadcasting, integer arithmetic, element tracking, subgraphs.

Rule modules import `symshape.engine.context` and the registry, never the walker.
"""
