// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Shape.mlir (test_shape2)
// and Expand.mlir: Shape as i64, then Expand a 1-D vector to that shape.
func.func @test_expand(%arg0: tensor<?x4x8x16xf32>, %arg1: tensor<16xf32>) -> tensor<?x4x8x16xf32> {
  %0 = shape.shape_of %arg0 : tensor<?x4x8x16xf32> -> tensor<4xindex>
  %1 = arith.index_cast %0 : tensor<4xindex> to tensor<4xi64>
  %2 = stablehlo.dynamic_broadcast_in_dim %arg1, %1, dims = [3] : (tensor<16xf32>, tensor<4xi64>) -> tensor<?x4x8x16xf32>
  return %2 : tensor<?x4x8x16xf32>
}
