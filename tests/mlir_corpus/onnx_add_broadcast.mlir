// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Math/Elementwise.mlir
// (multidirectional broadcast: shape.broadcast of both shapes, dynamic_broadcast_in_dim, add).
// a: ?x1x4, b: 3x?x1 -> [3 (a_d0 must be 1 or 3), b_d1, 4].
func.func @test_add(%arg0: tensor<?x1x4xf32>, %arg1: tensor<3x?x1xf32>) -> tensor<?x?x4xf32> {
  %0 = shape.shape_of %arg0 : tensor<?x1x4xf32> -> tensor<3xindex>
  %1 = shape.shape_of %arg1 : tensor<3x?x1xf32> -> tensor<3xindex>
  %2 = shape.broadcast %0, %1 : tensor<3xindex>, tensor<3xindex> -> tensor<3xindex>
  %3 = stablehlo.dynamic_broadcast_in_dim %arg0, %2, dims = [0, 1, 2] : (tensor<?x1x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
  %4 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [0, 1, 2] : (tensor<3x?x1xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
  %5 = stablehlo.add %3, %4 : tensor<?x?x4xf32>
  return %5 : tensor<?x?x4xf32>
}
