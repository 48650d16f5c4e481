// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Math/MatMul.mlir
// (MatMul of ?x?x64 by 64x10: broadcast the rhs to the batch, then batched dot_general).
func.func @test_matmul(%arg0: tensor<?x?x64xf32>, %arg1: tensor<64x10xf32>) -> tensor<?x?x10xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0] : (tensor<?x?x64xf32>, tensor<64x10xf32>) -> tensor<?x?x10xf32>
  return %0 : tensor<?x?x10xf32>
}
