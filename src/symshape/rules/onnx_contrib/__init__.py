"""The com.microsoft (onnxruntime contrib) rules."""
