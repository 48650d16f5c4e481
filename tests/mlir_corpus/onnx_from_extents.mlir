// Adapted from onnx/onnx-mlir src/Conversion/ONNXToStablehlo/Tensor/Reshape.cpp (older output):
// the target shape built with shape.from_extents and shape.to_extent_tensor.
func.func @test_reshape_extents(%arg0: tensor<?x?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x8xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x8xf32>
  %m = arith.muli %d0, %d1 : index
  %0 = shape.from_extents %m, %c8 : index, index
  %1 = shape.to_extent_tensor %0 : !shape.shape -> tensor<2xindex>
  %2 = stablehlo.dynamic_reshape %arg0, %1 : (tensor<?x?x8xf32>, tensor<2xindex>) -> tensor<?x8xf32>
  return %2 : tensor<?x8xf32>
}
