// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/ops_stablehlo_bounded_dynamism.mlir, chunk 1 (Apache-2.0).

// CHECK-LABEL: reshape_scalar_with_single_bounded_dimension
func.func @reshape_scalar_with_single_bounded_dimension(%arg0: tensor<?xf32, #stablehlo.bounds<5>>) -> tensor<1x?xf32, #stablehlo.bounds<?, 5>> {
  %0 = stablehlo.reshape %arg0 : (tensor<?xf32, #stablehlo.bounds<5>>) -> tensor<1x?xf32, #stablehlo.bounds<?, 5>>
  // CHECK: return {{.*}} #stablehlo.bounds<?, 5>
  return %0 : tensor<1x?xf32, #stablehlo.bounds<?, 5>>
}

