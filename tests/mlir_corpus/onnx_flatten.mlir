// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Flatten.mlir
// (Flatten axis=1 of ?x3x?x? lowered with shape.shape_of / get_extent / muli / dynamic_reshape).
func.func @test_flatten(%arg0: tensor<?x3x?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = shape.shape_of %arg0 : tensor<?x3x?x?xf32> -> tensor<4xindex>
  %1 = shape.get_extent %0, %c0 : tensor<4xindex>, index -> index
  %2 = shape.get_extent %0, %c1 : tensor<4xindex>, index -> index
  %3 = shape.get_extent %0, %c2 : tensor<4xindex>, index -> index
  %4 = shape.get_extent %0, %c3 : tensor<4xindex>, index -> index
  %5 = arith.muli %2, %3 : index
  %6 = arith.muli %5, %4 : index
  %7 = tensor.from_elements %1, %6 : tensor<2xindex>
  %8 = stablehlo.dynamic_reshape %arg0, %7 : (tensor<?x3x?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %8 : tensor<?x?xf32>
}
