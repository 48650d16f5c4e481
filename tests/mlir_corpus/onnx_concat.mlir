// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Concat.mlir
func.func @test_concat(%arg0: tensor<?x3xf32>, %arg1: tensor<?x3xf32>, %arg2: tensor<5x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>, tensor<5x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
