// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/transforms/stablehlo_refine_shapes.mlir, chunk 43 (Apache-2.0).

// CHECK-LABEL: func @refine_bitcast_convert_different_bitwidths
func.func @refine_bitcast_convert_different_bitwidths(%arg0 : tensor<4xf32>) -> tensor<?x?xi8> {
  // CHECK: stablehlo.bitcast_convert{{.*}} -> tensor<?x?xi8>
  %0 = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<?x?xi8>
  func.return %0 : tensor<?x?xi8>
}

