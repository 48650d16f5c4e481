// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_refine_shapes.mlir (dynamic_pad)
// interior padding 1: size = lo + hi + d + max(d - 1, 0) * interior (exact at d = 0 too).
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %pv = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %hi = stablehlo.constant dense<0> : tensor<1xi64>
  %in = stablehlo.constant dense<1> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %arg0, %pv, %lo, %hi, %in : (tensor<?xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
