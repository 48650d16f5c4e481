"""The torch.export frontend: an ``ExportedProgram``'s FX graph of aten ops as a `Program`."""
