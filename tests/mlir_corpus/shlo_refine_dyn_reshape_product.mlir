// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_refine_shapes.mlir
// (dynamic_reshape to the product of get_dimension_size values, jax's flatten).
func.func @main(%arg0: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %2 = stablehlo.multiply %0, %1 : tensor<i32>
  %3 = stablehlo.reshape %2 : (tensor<i32>) -> tensor<1xi32>
  %4 = stablehlo.dynamic_reshape %arg0, %3 : (tensor<?x?xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %4 : tensor<?xf32>
}
