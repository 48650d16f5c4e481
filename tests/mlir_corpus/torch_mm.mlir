// Adapted from llvm/torch-mlir test/Conversion/TorchToStablehlo/linear.mlir (aten.mm):
// the contracting dims of the two ? operands must agree.
func.func @torch_mm(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
