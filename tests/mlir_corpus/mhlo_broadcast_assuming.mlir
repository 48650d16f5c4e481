// Adapted from tensorflow/tensorflow third_party/xla/xla/mlir_hlo/tests/Dialect/mhlo/merge_assuming_ops.mlir
// and chlo-legalize-to-hlo output: cstr_broadcastable / assuming around a broadcast add of ?x4 and 4.
func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
  %1 = shape.shape_of %arg1 : tensor<4xf32> -> tensor<1xindex>
  %2 = shape.cstr_broadcastable %0, %1 : tensor<2xindex>, tensor<1xindex>
  %3 = shape.assuming %2 -> (tensor<?x4xf32>) {
    %4 = shape.broadcast %0, %1 : tensor<2xindex>, tensor<1xindex> -> tensor<2xindex>
    %5 = "mhlo.dynamic_broadcast_in_dim"(%arg0, %4) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
    %6 = "mhlo.dynamic_broadcast_in_dim"(%arg1, %4) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
    %7 = "mhlo.add"(%5, %6) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    shape.assuming_yield %7 : tensor<?x4xf32>
  }
  return %3 : tensor<?x4xf32>
}
