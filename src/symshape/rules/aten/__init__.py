"""Rules for the aten ops of a ``torch.export`` program that no ONNX op spells the same way
(`symshape.frontends.fx` turns the others into ONNX ops)."""
