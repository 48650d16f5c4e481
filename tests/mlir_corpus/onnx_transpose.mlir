// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Transpose.mlir
func.func @test_transpose(%arg0: tensor<?x?x8xf32>) -> tensor<8x?x?xf32> {
  %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<?x?x8xf32>) -> tensor<8x?x?xf32>
  return %0 : tensor<8x?x?xf32>
}
