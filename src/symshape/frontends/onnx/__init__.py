"""The ONNX frontend: read and check a model (`reader`), analyze it (`frontend`), external data."""
