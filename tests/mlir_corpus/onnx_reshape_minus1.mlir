// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Reshape.mlir
// (Reshape to [-1, 16, 2]: the -1 is the element count divided by 32, computed with shape.num_elements).
func.func @test_reshape(%arg0: tensor<?x32xf32>) -> tensor<?x16x2xf32> {
  %c16 = arith.constant 16 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %0 = shape.shape_of %arg0 : tensor<?x32xf32> -> tensor<2xindex>
  %1 = shape.num_elements %0 : tensor<2xindex> -> index
  %2 = arith.divui %1, %c32 : index
  %3 = tensor.from_elements %2, %c16, %c2 : tensor<3xindex>
  %4 = stablehlo.dynamic_reshape %arg0, %3 : (tensor<?x32xf32>, tensor<3xindex>) -> tensor<?x16x2xf32>
  return %4 : tensor<?x16x2xf32>
}
