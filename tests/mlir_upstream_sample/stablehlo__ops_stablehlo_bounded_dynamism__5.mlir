// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/ops_stablehlo_bounded_dynamism.mlir, chunk 5 (Apache-2.0).

// CHECK-LABEL: constant_splat_broadcast
func.func @constant_splat_broadcast() -> tensor<1x?xf32, #stablehlo.bounds<?, 5>> {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x?xf32, #stablehlo.bounds<?, 5>>
  // CHECK: tensor<1x?xf32, #stablehlo.bounds<?, 5>>
  return %1 : tensor<1x?xf32, #stablehlo.bounds<?, 5>>
}

