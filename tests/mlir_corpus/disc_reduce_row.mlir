// Adapted from alibaba/BladeDISC tao_compiler/mlir/disc/transforms/tests/disc_fusion.mlir
// (row reduction feeding a broadcast back to the input's shape: a kStitch pattern).
func.func @main(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %init = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %0 = "mhlo.reduce"(%arg0, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = dense<1> : tensor<1xi64>} : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %1 = shape.shape_of %arg0 : tensor<?x?xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%0, %1) {broadcast_dimensions = dense<0> : tensor<1xi64>} : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %3 = "mhlo.subtract"(%arg0, %2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}
