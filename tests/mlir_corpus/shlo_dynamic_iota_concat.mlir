// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_refine_shapes.mlir (dynamic_iota)
// with the shape a concatenate of a constant and get_dimension_size, as jax prints it.
func.func @main(%arg0: tensor<?x3xf32>) -> tensor<4x?xi32> {
  %c = stablehlo.constant dense<4> : tensor<1xi32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.concatenate %c, %1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %3 = stablehlo.dynamic_iota %2, dim = 1 : (tensor<2xi32>) -> tensor<4x?xi32>
  return %3 : tensor<4x?xi32>
}
