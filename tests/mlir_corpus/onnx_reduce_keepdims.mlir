// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Math/Reduction.mlir
// (ReduceMean keepdims=1 over axis 1: reduce, then dynamic_reshape with the reduced dim set to 1).
func.func @test_reducemean(%arg0: tensor<?x?x5xf32>) -> tensor<?x1x5xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<?x?x5xf32>, tensor<f32>) -> tensor<?x5xf32>
  %1 = shape.shape_of %arg0 : tensor<?x?x5xf32> -> tensor<3xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %2 = shape.get_extent %1, %c0 : tensor<3xindex>, index -> index
  %3 = tensor.from_elements %2, %c1, %c5 : tensor<3xindex>
  %4 = stablehlo.dynamic_reshape %0, %3 : (tensor<?x5xf32>, tensor<3xindex>) -> tensor<?x1x5xf32>
  return %4 : tensor<?x1x5xf32>
}
