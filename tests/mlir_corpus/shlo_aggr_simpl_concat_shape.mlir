// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_aggressive_simplification.mlir
// (dynamic_reshape whose shape is a concatenate of get_dimension_size and constants: a reshape that adds a unit dim).
func.func @main(%arg0: tensor<?x12xf32>) -> tensor<?x3x4xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x12xf32>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.concatenate %1, %c3, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %3 = stablehlo.dynamic_reshape %arg0, %2 : (tensor<?x12xf32>, tensor<3xi32>) -> tensor<?x3x4xf32>
  return %3 : tensor<?x3x4xf32>
}
