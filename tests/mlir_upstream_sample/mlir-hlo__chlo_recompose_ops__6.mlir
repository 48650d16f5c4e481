// From tensorflow/mlir-hlo@74b9d25f5cb8:tests/stablehlo_ext/chlo_recompose_ops.mlir, chunk 6 (Apache-2.0).

// CHECK-LABEL: func @asin_recompose_composite
func.func @asin_recompose_composite(%arg0: tensor<3x20x20xbf16>) -> tensor<?x20x20xbf16> {
  // CHECK-NEXT: chlo.asin
  // CHECK-NOT: stablehlo.composite
  %0 = stablehlo.composite "chlo.asin" %arg0 {decomposition = @chlo.asin.impl, version = 1 : i32} : (tensor<3x20x20xbf16>) -> tensor<?x20x20xbf16>
  return %0 : tensor<?x20x20xbf16>
}
// CHECK-NOT: @chlo.asin.impl
func.func private @chlo.asin.impl(%arg0: tensor<3x20x20xbf16>) -> tensor<?x20x20xbf16> {
  %0 = chlo.asin %arg0 : tensor<3x20x20xbf16> -> tensor<?x20x20xbf16>
  return %0 : tensor<?x20x20xbf16>
}

