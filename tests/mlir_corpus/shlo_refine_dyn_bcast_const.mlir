// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_refine_shapes.mlir
// (dynamic_broadcast_in_dim whose output shape is a constant refines to static).
func.func @main(%arg0: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
