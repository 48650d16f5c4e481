// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/infer_stablehlo.mlir, chunk 108 (Apache-2.0).

// CHECK-LABEL: func @cholesky_bounds
func.func @cholesky_bounds(%input: tensor<2x?x?xf32, #stablehlo.bounds<?, 5, ?>>) -> tensor<?x?x?xindex> {
  %0 = "stablehlo.cholesky"(%input) { lower = true } : (tensor<2x?x?xf32, #stablehlo.bounds<?, 5, ?>>) -> tensor<?x?x?xf32>
  // CHECK: types0 = tensor<2x?x?xf32, #stablehlo.bounds<?, 5, ?>>
  %1 = "hlo_test_infer.get_return_types"(%0) : (tensor<?x?x?xf32>) -> tensor<?x?x?xindex>
  func.return %1 : tensor<?x?x?xindex>
}

