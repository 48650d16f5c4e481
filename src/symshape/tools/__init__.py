"""What is built on an analysis: checking sizes (`checking`), running onnxruntime around the guards
(`verify`), fusion groups (`fusion`), the ONNX optimizer and its declared passes (`optimize`), the MLIR
passes (`mlir_passes`), annotated models (`annotate`, `guard_nodes`), outputs and the HTML report.
"""
