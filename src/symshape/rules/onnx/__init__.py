"""The ONNX ai.onnx rules, one module per op family."""
