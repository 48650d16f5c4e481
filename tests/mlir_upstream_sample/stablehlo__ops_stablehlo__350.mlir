// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/ops_stablehlo.mlir, chunk 350 (Apache-2.0).

// CHECK-LABEL: func @bitcast_convert
func.func @bitcast_convert(%arg: tensor<complex<f64>>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.bitcast_convert"(%arg) : (tensor<complex<f64>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

